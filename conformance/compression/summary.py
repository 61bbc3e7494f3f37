"""``SummaryCompression``: the reference ``compression`` provider over any MemoryService.

The summary lives in metadata (one record per session), not in the message history: a message
written now cannot sort before the older originals it must precede on a write-ordered store, and
the document's own accounting (after a full compression only picks, post-split messages and
dividers remain) leaves no room for one. The host injects :meth:`SummaryCompression.summary`
ahead of the history, so the picked originals follow the summary in the prompt.

Because it keeps data in metadata it takes part in ``memory:clear`` (:meth:`on_clear`, clear type
``summary``), and because it archives stored messages it sends ``history:changed``.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, Protocol

import attrs

from aalis_memory.clearing import (
    ClearContext,
    ClearResult,
    ClearTypeContribution,
    InfoLogger,
    clear_metadata_namespaces,
)
from aalis_memory.compression import CompressionLines, CompressionUsage, check_ratio, compression_due
from aalis_memory.compression_service import (
    AlreadyCompressing,
    CommitFailed,
    CompressingEvent,
    CompressingListener,
    CompressingStatus,
    CompressionError,
    CompressReason,
    HistoryChanged,
    HistoryCleared,
    HistoryUnreadable,
    MemoryUnavailable,
    SummarizerFailed,
    SummarizerUnavailable,
)
from aalis_memory.conformance.compression.summary_plan import (
    DEFAULT_PICKS_RATIO,
    TokenCounter,
    approximate_tokens,
    check_picks,
    choose_picks,
    pick_limits,
    split_point,
)
from aalis_memory.events import HISTORY_CHANGED, EventSink, history_changed
from aalis_memory.service import MemoryService
from aalis_memory.types import JsonObject, Message, MetadataDel, MetadataPut

SUMMARY_NAMESPACE: Final = "summary"
#: The clear type (``memory:clear-type`` id) of the stored summaries, and its label.
CLEAR_TYPE: Final = "summary"
CLEAR_TYPE_LABEL: Final = "对话摘要"
DIVIDER_KIND: Final = "event-marker"
DIVIDER_TEXT: Final = "对话已压缩"

_log = logging.getLogger(__name__)


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _positions(value: Iterable[int]) -> tuple[int, ...]:
    return tuple(value)


@attrs.frozen
class SummaryDraft:
    """The summarizer's answer: the summary, and positions (into the messages it was given) of
    originals it wants kept verbatim, most wanted first."""

    text: str
    keep: tuple[int, ...] = attrs.field(default=(), converter=_positions)


class Summarizer(Protocol):
    """The summary model. ``previous`` is the session's current summary, to be folded in."""

    async def summarize(self, messages: Sequence[Message], previous: str | None) -> SummaryDraft: ...


def _ratio_map(value: Mapping[str, float]) -> dict[str, float]:
    out: dict[str, float] = {}
    for platform, ratio in dict(value).items():
        checked = check_ratio(ratio, f"platforms[{platform!r}]")
        out[str(platform)] = checked or 0.0
    return out


def _line(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if check_ratio(value, attribute.name) is None:
        raise TypeError(f"{attribute.name} must be a number (0 switches it off), got None")


def _share(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    checked = check_ratio(value, attribute.name)
    if checked is None or checked > 1:
        raise ValueError(f"{attribute.name} must be between 0 and 1, got {value!r}")


def _limit(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{attribute.name} must be a non-negative int, got {value!r}")


@attrs.frozen(kw_only=True)
class CompressionSettings:
    """The provider's configuration; every ratio is a share of the context window."""

    #: The automatic line when no platform tier applies (0: off).
    compress_at: float = attrs.field(default=0.0, validator=_line)
    #: Per-platform tiers of the line.
    platforms: dict[str, float] = attrs.field(factory=dict, converter=_ratio_map)
    #: The conversation-message count line (0: off).
    history_limit: int = attrs.field(default=0, validator=_limit)
    #: Picked originals may cost at most this share of the compressed conversation's tokens.
    picks_ratio: float = attrs.field(default=DEFAULT_PICKS_RATIO, validator=_share)


class SummaryCompression:
    """Compresses a session's active history into a stored summary plus picked originals.

    ``memory`` and ``summarizer`` are plain attributes: a host sets them to ``None`` when the
    service goes away, and ``compress`` then rejects with the matching typed error. ``emit`` is
    the host event bus, for ``history:changed`` once a compression archived messages.
    """

    #: The ``memory:clear-type`` contribution: ``/clear -t summary`` clears the summaries.
    clear_types: tuple[ClearTypeContribution, ...] = (
        ClearTypeContribution(id=CLEAR_TYPE, label=CLEAR_TYPE_LABEL),
    )

    def __init__(
        self,
        memory: MemoryService | None,
        summarizer: Summarizer | None,
        *,
        settings: CompressionSettings | None = None,
        token_counter: TokenCounter = approximate_tokens,
        birth_platform: Callable[[str], str | None] | None = None,
        clock: Callable[[], int] | None = None,
        namespace: str = SUMMARY_NAMESPACE,
        logger: InfoLogger | None = None,
        emit: EventSink | None = None,
    ) -> None:
        self.memory = memory
        self.summarizer = summarizer
        self.settings = settings or CompressionSettings()
        self.token_counter = token_counter
        self.namespace = namespace
        self._birth_platform = birth_platform
        self._clock = clock or _now_ms
        self._logger: InfoLogger = logger or _log
        self._listeners: list[CompressingListener] = []
        self._running: set[str] = set()
        self._emit_event = emit
        #: Clears of the summaries seen while a run was going (per running session, and of all
        #: sessions): a run compares them with its start to let a clear that landed meanwhile win.
        self._clears: dict[str, int] = {}
        self._clears_of_all = 0

    # -- the service ---------------------------------------------------------------------

    def subscribe(self, listener: CompressingListener) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def compress_at(self, session_id: str, platform: str | None = None) -> float | None:
        """The birth platform picks the tier; the entry ``platform`` stands in without one."""
        born = self._birth_platform(session_id) if self._birth_platform else None
        tier = born or platform
        ratio = self.settings.platforms.get(tier) if tier else None
        if ratio is None:
            ratio = self.settings.compress_at
        return ratio or None

    async def compress(self, session_id: str, reason: CompressReason = "manual") -> None:
        if reason != "manual":
            raise ValueError(f"compress takes reason 'manual' only, got {reason!r}")
        await self._run(session_id)

    async def compress_if_due(
        self, session_id: str, usage: CompressionUsage, platform: str | None = None
    ) -> bool:
        """The automatic path: compress when :func:`compression_due` says so.

        Returns whether a compression was committed; a run already in progress counts as no.
        """
        lines = CompressionLines(
            compress_at=self.compress_at(session_id, platform),
            history_limit=self.settings.history_limit or None,
        )
        if not compression_due(usage, lines):
            return False
        try:
            return await self._run(session_id)
        except AlreadyCompressing:
            return False

    async def summary(self, session_id: str) -> str | None:
        """The session's summary text, for the host to inject ahead of the history."""
        memory = self.memory
        record = None if memory is None else await memory.get_metadata(self.namespace, session_id)
        text = None if record is None else record.get("summary")
        return text if isinstance(text, str) else None

    async def on_clear(self, context: ClearContext) -> ClearResult | None:
        """Take part in ``memory:clear``: drop the summaries the clear asked for."""
        if context.types is not None and CLEAR_TYPE not in context.types:
            return None
        memory = self.memory
        if memory is None:
            return _clear_row(False, "对话摘要未清除:记忆服务不在")
        # Noted before the first await, so a run in progress sees the clear whatever comes next.
        if context.scope == "all":
            self._clears_of_all += 1
        elif context.session_id in self._running:
            self._clears[context.session_id] = self._clears.get(context.session_id, 0) + 1
        try:
            if context.scope == "all":
                await clear_metadata_namespaces(memory, [self.namespace], self._logger)
            elif context.session_id is not None:
                await memory.commit_metadata([MetadataDel(self.namespace, context.session_id)])
        except Exception as exc:  # reported in the row, as the hook expects
            return _clear_row(False, f"对话摘要清除失败:{exc}")
        return _clear_row(True, "对话摘要已清除")

    # -- one run -------------------------------------------------------------------------

    def _clear_mark(self, session_id: str) -> tuple[int, int]:
        return self._clears_of_all, self._clears.get(session_id, 0)

    def _cleared_since(self, session_id: str, mark: tuple[int, int]) -> bool:
        """Whether a ``memory:clear`` of this session's summary landed since ``mark``."""
        return self._clear_mark(session_id) != mark

    def _history_changed(self, session_id: str) -> None:
        """``history:changed``: the active history lost the archived span."""
        if self._emit_event is None:
            return
        try:
            self._emit_event(HISTORY_CHANGED, history_changed(session_id))
        except Exception:  # a listener never decides a compression
            _log.exception("history:changed listener failed")

    def _emit(self, session_id: str, status: CompressingStatus) -> None:
        event = CompressingEvent(session_id, status)
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a listener never decides a compression
                _log.exception("session:compressing listener failed")

    async def _run(self, session_id: str) -> bool:
        if not isinstance(session_id, str):
            raise TypeError(f"session_id must be a str, got {session_id!r}")
        if session_id in self._running:
            raise AlreadyCompressing(session_id)
        memory, summarizer = self.memory, self.summarizer
        if memory is None:
            raise MemoryUnavailable(session_id)
        if summarizer is None:
            raise SummarizerUnavailable(session_id)
        self._running.add(session_id)
        mark = self._clear_mark(session_id)
        try:
            try:
                snapshot = await memory.get_history(session_id, math.inf)
                previous = await memory.get_metadata(self.namespace, session_id)
            except Exception as exc:
                raise HistoryUnreadable(session_id, f"{type(exc).__name__}: {exc}") from exc
            split = split_point(snapshot)
            inputs = [p for p in range(split) if not snapshot[p].is_control]
            if not inputs:
                return False
            self._emit(session_id, "start")
            try:
                await self._compress(memory, summarizer, session_id, snapshot, split, previous, mark)
            except BaseException:
                self._emit(session_id, "error")
                raise
            self._emit(session_id, "done")
            return True
        finally:
            self._running.discard(session_id)
            self._clears.pop(session_id, None)

    async def _compress(
        self,
        memory: MemoryService,
        summarizer: Summarizer,
        session_id: str,
        snapshot: Sequence[Message],
        split: int,
        previous: JsonObject | None,
        mark: tuple[int, int],
    ) -> None:
        """Draft, store the summary, check the history, archive; on any failure before the
        archive, put the previous summary back unless a ``memory:clear`` removed it meanwhile."""
        inputs = [p for p in range(split) if not snapshot[p].is_control]
        messages = [snapshot[p] for p in inputs]
        text, picks = await self._draft(summarizer, session_id, messages, previous)
        if self._cleared_since(session_id, mark):
            # The draft folded in a summary the user has cleared since: it must not be stored.
            raise HistoryCleared(session_id, "memory:clear removed the summary meanwhile")
        record: JsonObject = {
            "summary": text,
            "coveredUpTo": snapshot[split - 1].timestamp,
            "updatedAt": self._clock(),
        }
        await self._store(memory, session_id, record)
        try:
            current = await memory.get_history(session_id, math.inf)
            self._verify(session_id, snapshot[:split], current)
            limits = pick_limits(
                messages,
                self.token_counter,
                ratio=self.settings.picks_ratio,
                history_limit=self.settings.history_limit or None,
                post_split_conversation=sum(1 for m in current[split:] if not m.is_control),
            )
            kept = choose_picks(messages, picks, self.token_counter, limits)
        except BaseException as exc:
            await self._restore(memory, session_id, previous, mark)
            raise _rejection(session_id, exc) from exc
        try:
            await memory.archive_span(session_id, split, [inputs[i] for i in kept])
        except BaseException as exc:
            await self._restore(memory, session_id, previous, mark)
            self._history_changed(session_id)  # a partial-tier backend may have archived part
            raise _rejection(session_id, exc) from exc
        if self._cleared_since(session_id, mark):
            await self._restore(memory, session_id, None, mark)  # the clear came last: it wins
        await self._divide(memory, session_id)
        self._history_changed(session_id)

    def _verify(self, session_id: str, expected: Sequence[Message], current: Sequence[Message]) -> None:
        """The compressed positions must still hold exactly the snapshot."""
        if list(current[: len(expected)]) == list(expected):
            return
        if not any(message in current for message in expected):
            raise HistoryCleared(session_id)
        raise HistoryChanged(session_id)

    async def _draft(
        self,
        summarizer: Summarizer,
        session_id: str,
        messages: Sequence[Message],
        previous: JsonObject | None,
    ) -> tuple[str, list[int]]:
        earlier = None if previous is None else previous.get("summary")
        try:
            draft = await summarizer.summarize(list(messages), earlier if isinstance(earlier, str) else None)
            if not isinstance(draft, SummaryDraft):
                raise TypeError(f"the summarizer must return a SummaryDraft, got {draft!r}")
            if not isinstance(draft.text, str) or not draft.text.strip():
                raise ValueError("the summarizer returned no summary text")
            return draft.text, check_picks(draft.keep, len(messages))
        except Exception as exc:
            raise SummarizerFailed(session_id, f"{type(exc).__name__}: {exc}") from exc

    async def _store(self, memory: MemoryService, session_id: str, record: JsonObject) -> None:
        try:
            await memory.commit_metadata([MetadataPut(self.namespace, session_id, record)])
        except Exception as exc:
            raise CommitFailed(session_id, f"{type(exc).__name__}: {exc}") from exc

    async def _restore(
        self,
        memory: MemoryService,
        session_id: str,
        previous: JsonObject | None,
        mark: tuple[int, int],
    ) -> None:
        """Put ``previous`` back (or none); a summary cleared since ``mark`` stays cleared."""
        op = (
            MetadataDel(self.namespace, session_id)
            if previous is None or self._cleared_since(session_id, mark)
            else MetadataPut(self.namespace, session_id, previous)
        )
        try:
            await memory.commit_metadata([op])
        except Exception:  # the original failure is the one to report
            _log.exception("could not put back the previous summary of %s", session_id)

    async def _divide(self, memory: MemoryService, session_id: str) -> None:
        divider = Message(role="system", content=DIVIDER_TEXT, kind=DIVIDER_KIND, timestamp=self._clock())
        try:
            await memory.save_message(session_id, divider)
        except Exception:  # the compression is committed; the divider is UI only
            _log.exception("could not save the compression divider of %s", session_id)


def _rejection(session_id: str, exc: BaseException) -> BaseException:
    """What a failure after the summary was stored becomes: typed rejections and cancellation
    as they are, anything else a :class:`CommitFailed` naming it."""
    if isinstance(exc, CompressionError) or not isinstance(exc, Exception):
        return exc
    return CommitFailed(session_id, f"{type(exc).__name__}: {exc}")


def _clear_row(success: bool, message: str) -> ClearResult:
    return ClearResult(source="memory-summary", type=CLEAR_TYPE, success=success, message=message)


__all__ = [
    "CLEAR_TYPE",
    "CLEAR_TYPE_LABEL",
    "DIVIDER_KIND",
    "DIVIDER_TEXT",
    "SUMMARY_NAMESPACE",
    "CompressionSettings",
    "Summarizer",
    "SummaryCompression",
    "SummaryDraft",
]
