"""What a provider test holds: the store, the scripted summarizer, and what the provider did.

The provider sees the store through :class:`Watched`, which records its metadata writes and
committed archive calls on one timeline with the events and ``session:compressing`` statuses it
sends, so a test can ask what the provider keeps (without knowing how it stores its summary) and
whether a notice came after the commit. ``Watched`` can also make metadata writes or
``archive_span`` fail, as a backend that went away.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import attrs

from aalis_memory.compression_service import CompressingEvent, CompressionService
from aalis_memory.conformance.check import Check
from aalis_memory.conformance.compression.registry import ProviderContext, ProviderRegistration
from aalis_memory.conformance.compression.scripted import ScriptedSummarizer, char_tokens
from aalis_memory.conformance.compression.summary import CompressionSettings
from aalis_memory.conformance.compression.summary_plan import TokenCounter
from aalis_memory.types import MetadataOp, MetadataPut

#: The kit's clock starts here (2033), after every timestamp the suite writes, and ticks by 1 ms.
CLOCK_START: Final = 2_000_000_000_000

_SAME: Final[Any] = object()


@attrs.frozen
class Step:
    """One thing the provider did, in order: ``archive`` (a session whose ``archive_span``
    returned: the commit), ``metadata`` (a written ``namespace/key``), ``event`` (a memory change
    event's name) or ``status`` (a ``session:compressing`` status, as ``"session_id status"``)."""

    what: str
    detail: str


class Watched:
    """The store as the provider sees it: metadata writes and committed archive calls are
    recorded; metadata writes can be made to fail (a backend that went away) with
    ``fail_metadata_writes``, and ``archive_span`` with ``fail_archive``."""

    def __init__(self, store: Any, harness: Harness) -> None:
        self.wrapped = store
        self._harness = harness
        self.fail_metadata_writes = False
        self.fail_archive = False

    def _writing(self, keys: Sequence[tuple[str, str]]) -> None:
        if self.fail_metadata_writes:
            raise ConnectionError("metadata backend unreachable")
        for namespace, key in keys:
            self._harness.note("metadata", f"{namespace}/{key}")
            if (namespace, key) not in self._harness.written:
                self._harness.written.append((namespace, key))

    async def save_metadata(self, namespace: str, key: str, data: Any) -> None:
        self._writing([(namespace, key)])
        await self.wrapped.save_metadata(namespace, key, data)

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        self._writing([(op.namespace, op.key) for op in ops if isinstance(op, MetadataPut)])
        await self.wrapped.commit_metadata(ops)

    async def delete_metadata(self, namespace: str, key: str) -> None:
        self._writing([])
        await self.wrapped.delete_metadata(namespace, key)

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        if self.fail_archive:
            raise ConnectionError("archive backend unreachable")
        result: int = await self.wrapped.archive_span(session_id, count, keep)
        self._harness.note("archive", session_id)  # once it returned: the commit is done
        return result

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


class Harness:
    def __init__(self, memory: Any, registration: ProviderRegistration) -> None:
        self.memory = memory
        self.registration = registration
        self.summarizer = ScriptedSummarizer()
        self.events: list[CompressingEvent] = []
        #: Memory change events the provider sent: (name, payload).
        self.changes: list[tuple[str, dict[str, Any]]] = []
        #: Everything the provider did, in order (see :class:`Step`).
        self.timeline: list[Step] = []
        #: Metadata entries the provider wrote, in first-write order.
        self.written: list[tuple[str, str]] = []
        #: The store wrapper of the last provider built (``None`` when it was built without one).
        self.watched: Watched | None = None
        self._ticks = itertools.count(CLOCK_START)
        self.last_tick = CLOCK_START - 1

    def clock(self) -> int:
        self.last_tick = next(self._ticks)
        return self.last_tick

    def note(self, what: str, detail: str) -> None:
        self.timeline.append(Step(what, detail))

    def emit(self, name: str, payload: Mapping[str, Any], /) -> None:
        """The host event bus the provider is given."""
        self.changes.append((name, dict(payload)))
        self.note("event", name)

    def build(
        self,
        *,
        memory: Any = _SAME,
        summarizer: Any = _SAME,
        settings: CompressionSettings | None = None,
        token_counter: TokenCounter = char_tokens,
        birth_platform: Callable[[str], str | None] | None = None,
    ) -> CompressionService:
        """A provider over the store and the scripted summarizer (``None`` makes one absent)."""
        store = self.memory if memory is _SAME else memory
        self.watched = None if store is None else Watched(store, self)
        ctx = ProviderContext(
            memory=self.watched,
            summarizer=self.summarizer if summarizer is _SAME else summarizer,
            settings=settings or CompressionSettings(),
            token_counter=token_counter,
            clock=self.clock,
            birth_platform=birth_platform,
            emit=self.emit,
        )
        service = self.registration.factory(ctx)
        service.subscribe(self._status)
        return service

    def _status(self, event: CompressingEvent) -> None:
        """The ``session:compressing`` listener every provider built here is given."""
        self.events.append(event)
        self.note("status", f"{event.session_id} {event.status}")

    async def held(self, service: Any, session_id: str, check: Check) -> asyncio.Task[None]:
        """Start ``service.compress(session_id)`` and return once the summarizer is working on it
        (held until :meth:`ScriptedSummarizer.release`).

        A provider that finishes without ever calling the summarizer fails ``check``'s rule here
        instead of hanging the test.
        """
        self.summarizer.hold()
        task: asyncio.Task[None] = asyncio.ensure_future(service.compress(session_id))
        entered = asyncio.ensure_future(self.summarizer.entered())
        await asyncio.wait({task, entered}, return_when=asyncio.FIRST_COMPLETED)
        if not entered.done():
            entered.cancel()
            error = task.exception()
            outcome = "resolved" if error is None else f"raised {type(error).__name__}: {error}"
            check.that(False, f"compress({session_id}) {outcome} without calling the summarizer")
        return task

    def statuses(self, session_id: str) -> list[str]:
        """The statuses sent so far for ``session_id``, in order."""
        return [e.status for e in self.events if e.session_id == session_id]

    def after_commit(self, session_id: str, status: str) -> bool:
        """Whether every ``status`` sent for ``session_id`` came after an ``archive_span`` of
        that session had returned (``False`` when none was sent)."""
        sent = [i for i, step in enumerate(self.timeline) if step == Step("status", f"{session_id} {status}")]
        archived = [i for i, step in enumerate(self.timeline) if step == Step("archive", session_id)]
        return bool(sent) and bool(archived) and archived[0] < sent[0]

    def steps(self) -> list[str]:
        """The timeline as text, for failure messages."""
        return [f"{step.what} {step.detail}" for step in self.timeline]

    def sent(self, session_id: str) -> list[str]:
        """Names of the memory change events sent so far for ``session_id``, in order."""
        return [name for name, payload in self.changes if payload.get("sessionId") == session_id]

    async def kept(self, service: Any, session_id: str, texts: Sequence[str]) -> list[str]:
        """Which of ``texts`` (summaries the scripted summarizer wrote) the provider keeps for
        ``session_id``: in ``summary(session_id)`` when it has that method, else in metadata it
        wrote or in the session's active history."""
        summary = getattr(service, "summary", None)
        if callable(summary):
            places = [await summary(session_id) or ""]
        else:
            places = [m.content or "" for m in await self.memory.get_history(session_id, math.inf)]
            for namespace, key in self.written:
                data = await self.memory.get_metadata(namespace, key)
                places.append("" if data is None else json.dumps(data, ensure_ascii=False))
        return [text for text in texts if any(text in place for place in places)]

    async def present(self, keys: Sequence[tuple[str, str]]) -> list[str]:
        """Which of the metadata entries ``keys`` are still stored, as ``namespace/key``."""
        lister = getattr(self.memory, "list_metadata_keys", None)
        found: list[str] = []
        for namespace, key in keys:
            if callable(lister):
                there = key in await lister(namespace)
            else:
                there = await self.memory.get_metadata(namespace, key) is not None
            if there:
                found.append(f"{namespace}/{key}")
        return found
