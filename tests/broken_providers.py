"""Deliberately broken compression providers, each caught by exactly the rules it declares.

Loaded with ``-p broken_providers``: every one is registered as provider ``broken-NAME``;
``tests/proofs/test_broken_providers.py`` runs the provider suite against each.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

import attrs

from aalis_memory.clearing import ClearContext, ClearResult, ClearTypeContribution
from aalis_memory.compression_service import (
    AlreadyCompressing,
    CommitFailed,
    CompressingStatus,
    CompressionError,
    HistoryChanged,
    HistoryUnreadable,
    SummarizerFailed,
)
from aalis_memory.conformance.compression import ProviderContext, compression_provider
from aalis_memory.conformance.compression.summary import CLEAR_TYPE, Summarizer, SummaryCompression
from aalis_memory.events import MESSAGES_DELETED
from aalis_memory.service import MemoryService
from aalis_memory.types import JsonObject, Message, MetadataDel


@attrs.frozen
class BrokenProvider:
    name: str
    breaks: frozenset[str]
    why: str


BROKEN: dict[str, BrokenProvider] = {}
C = TypeVar("C", bound=type[SummaryCompression])
#: The reference provider's record of clears seen since a run started.
Mark = tuple[int, int]


def broken(name: str, *rule_ids: str) -> Callable[[C], C]:
    """Declare ``cls`` broken for exactly ``rule_ids`` and register it as ``broken-NAME``."""

    def register(cls: C) -> C:
        doc = (cls.__doc__ or "").strip().split("\n")[0]
        BROKEN[name] = BrokenProvider(name, frozenset(rule_ids), doc)

        def factory(ctx: ProviderContext) -> SummaryCompression:
            return cls(
                ctx.memory,
                ctx.summarizer,
                settings=ctx.settings,
                token_counter=ctx.token_counter,
                birth_platform=ctx.birth_platform,
                clock=ctx.clock,
                emit=ctx.emit,
            )

        factory.__doc__ = doc
        compression_provider(f"broken-{name}")(factory)
        return cls

    return register


@broken("events-on-noop", "CSV-12")
class EventsOnNoop(SummaryCompression):
    """Reports start and done even when there was nothing to compress (the upstream habit)."""

    async def _run(self, session_id: str) -> bool:
        compressed = await super()._run(session_id)
        if not compressed:
            self._emit(session_id, "start")
            self._emit(session_id, "done")
        return compressed


@broken("archive-on-failure", "CSV-10", "CSV-19")
class ArchiveOnFailure(SummaryCompression):
    """Degrades to a plain trim when the summarizer fails, as the upstream plugin did."""

    async def _compress(
        self,
        memory: MemoryService,
        summarizer: Summarizer,
        session_id: str,
        snapshot: Sequence[Message],
        split: int,
        previous: JsonObject | None,
        mark: Mark,
    ) -> None:
        try:
            await super()._compress(memory, summarizer, session_id, snapshot, split, previous, mark)
        except SummarizerFailed:
            await memory.archive_span(session_id, split)
            raise


@broken("picks-over-budget", "CSV-05", "CSV-19")
class PicksOverBudget(SummaryCompression):
    """Keeps every pick the summarizer asks for: its budget check counts nothing."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.token_counter = lambda message: 0


@broken("loses-post-split", "CSV-03", "CSV-06", "CSV-18")
class LosesPostSplit(SummaryCompression):
    """Archives everything that arrived up to the commit, not only what was summarized."""

    async def _compress(
        self,
        memory: MemoryService,
        summarizer: Summarizer,
        session_id: str,
        snapshot: Sequence[Message],
        split: int,
        previous: JsonObject | None,
        mark: Mark,
    ) -> None:
        await super()._compress(memory, summarizer, session_id, snapshot, split, previous, mark)
        last = snapshot[split - 1].timestamp or 0
        active = await memory.get_history(session_id, math.inf)
        late = [i for i, m in enumerate(active) if not m.is_control and (m.timestamp or 0) > last]
        if late:
            keep = [i for i in range(late[-1] + 1) if i not in late]
            await memory.archive_span(session_id, late[-1] + 1, keep)


@broken("concurrent-allowed", "CSV-08")
class ConcurrentAllowed(SummaryCompression):
    """Forgets the per-session guard, so two compressions of one session overlap."""

    async def _run(self, session_id: str) -> bool:
        self._running.discard(session_id)
        return await super()._run(session_id)


@broken("ignores-history-limit", "CSV-06")
class IgnoresHistoryLimit(SummaryCompression):
    """Applies the token budget only: the half-history-limit cap on picks is missing."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.settings = attrs.evolve(self.settings, history_limit=0)


@broken("archives-picks-too", "CSV-01", "CSV-02", "CSV-04", "CSV-18", "CSV-19")
class ArchivesPicksToo(SummaryCompression):
    """Drops the keep list: picked originals are archived with the rest."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.settings = attrs.evolve(self.settings, picks_ratio=0.0)
        self.token_counter = lambda message: 1


@broken(
    "background-commit",
    "CSV-01",
    "CSV-02",
    "CSV-04",
    "CSV-05",
    "CSV-06",
    "CSV-07",
    "CSV-08",
    "CSV-13",
    "CSV-15",
    "CSV-18",
    "CSV-19",
    "EVT-01",
)
class BackgroundCommit(SummaryCompression):
    """Resolves as soon as the summarizer answered; archiving finishes in a background task."""

    async def archive_later(
        self, memory: MemoryService, session_id: str, split: int, keep: Sequence[int]
    ) -> int:
        await asyncio.sleep(0)
        return await memory.archive_span(session_id, split, keep)

    async def _compress(
        self,
        memory: MemoryService,
        summarizer: Summarizer,
        session_id: str,
        snapshot: Sequence[Message],
        split: int,
        previous: JsonObject | None,
        mark: Mark,
    ) -> None:
        deferred = _DeferArchive(memory, self)
        await super()._compress(deferred, summarizer, session_id, snapshot, split, previous, mark)


class _DeferArchive:
    """The store with archive_span answered at once and run in a task (the bug above)."""

    def __init__(self, store: Any, owner: BackgroundCommit) -> None:
        self.wrapped = store
        self.owner = owner
        self.tasks: list[asyncio.Task[int]] = []

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        task = asyncio.ensure_future(self.owner.archive_later(self.wrapped, session_id, count, list(keep)))
        self.tasks.append(task)
        _PENDING.add(task)
        task.add_done_callback(_PENDING.discard)
        return count - len(keep)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


_PENDING: set[asyncio.Task[int]] = set()


@broken("events-before-checks", "CSV-12", "CSV-13", "CSV-22")
class EventsBeforeChecks(SummaryCompression):
    """Sends start before checking anything, then error or done (the upstream order)."""

    async def _run(self, session_id: str) -> bool:
        self._emit(session_id, "start")
        try:
            compressed = await super()._run(session_id)
        except Exception:
            self._emit(session_id, "error")
            raise
        if not compressed:
            self._emit(session_id, "done")
        return compressed


@broken("no-recheck", "CSV-11")
class NoRecheck(SummaryCompression):
    """Archives by the snapshot's positions without looking at the history again."""

    def _verify(self, session_id: str, expected: Sequence[Message], current: Sequence[Message]) -> None:
        return None


@broken("no-done-event", "CSV-13")
class NoDoneEvent(SummaryCompression):
    """Never reports done: the timeline notice spins forever."""

    def _emit(self, session_id: str, status: CompressingStatus) -> None:
        if status != "done":
            super()._emit(session_id, status)


@broken("done-before-commit", "CSV-13")
class DoneBeforeCommit(SummaryCompression):
    """Reports done as it hands the span to archive_span, before the commit, and nothing after."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._announced: set[str] = set()

    def _announce(self, session_id: str) -> None:
        self._emit(session_id, "done")
        self._announced.add(session_id)

    async def _compress(
        self,
        memory: MemoryService,
        summarizer: Summarizer,
        session_id: str,
        snapshot: Sequence[Message],
        split: int,
        previous: JsonObject | None,
        mark: Mark,
    ) -> None:
        announcing = _BeforeArchive(memory, self._announce)
        await super()._compress(announcing, summarizer, session_id, snapshot, split, previous, mark)

    def _emit(self, session_id: str, status: CompressingStatus) -> None:
        if status == "done" and session_id in self._announced:
            self._announced.discard(session_id)  # already sent, before the commit
            return
        super()._emit(session_id, status)


class _BeforeArchive:
    """The store, calling ``before(session_id)`` as each archive_span starts."""

    def __init__(self, store: Any, before: Callable[[str], None]) -> None:
        self.wrapped = store
        self.before = before

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        self.before(session_id)
        result: int = await self.wrapped.archive_span(session_id, count, keep)
        return result

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


class _CommitWatch(SummaryCompression):
    """Notes the sessions whose run failed to commit (storing the summary or archiving)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._commit_failed: set[str] = set()

    async def _compress(
        self,
        memory: MemoryService,
        summarizer: Summarizer,
        session_id: str,
        snapshot: Sequence[Message],
        split: int,
        previous: JsonObject | None,
        mark: Mark,
    ) -> None:
        try:
            await super()._compress(memory, summarizer, session_id, snapshot, split, previous, mark)
        except CommitFailed:
            self._commit_failed.add(session_id)
            raise


@broken("commit-failure-reported-done", "CSV-13")
class CommitFailureReportedDone(_CommitWatch):
    """Reports done when archive_span failed: the summary was written, so it counts the run as
    finished (it still rejects)."""

    def _emit(self, session_id: str, status: CompressingStatus) -> None:
        if status == "error" and session_id in self._commit_failed:
            self._commit_failed.discard(session_id)
            status = "done"
        super()._emit(session_id, status)


@broken("swallows-commit-failure", "CSV-07", "CSV-13")
class SwallowsCommitFailure(CommitFailureReportedDone):
    """Reports done for a failed archive_span and resolves as if the compression had been
    committed."""

    async def _run(self, session_id: str) -> bool:
        try:
            return await super()._run(session_id)
        except CommitFailed:
            return True


@broken("ignores-birth-platform", "CSV-14")
class IgnoresBirthPlatform(SummaryCompression):
    """Picks the tier by the entry platform even for sessions born on another one."""

    def compress_at(self, session_id: str, platform: str | None = None) -> float | None:
        ratio = self.settings.platforms.get(platform) if platform else None
        return (self.settings.compress_at if ratio is None else ratio) or None


@broken("short-threshold", "CSV-15", "CSV-16", "CSV-18")
class ShortThreshold(SummaryCompression):
    """Leaves conversations under three messages alone, even on a manual compress."""

    async def _compress(
        self,
        memory: MemoryService,
        summarizer: Summarizer,
        session_id: str,
        snapshot: Sequence[Message],
        split: int,
        previous: JsonObject | None,
        mark: Mark,
    ) -> None:
        if sum(1 for m in snapshot[:split] if not m.is_control) >= 3:
            await super()._compress(memory, summarizer, session_id, snapshot, split, previous, mark)


@broken("summary-not-folded", "CSV-16")
class SummaryNotFolded(SummaryCompression):
    """Summarizes from scratch each time: the previous summary is never handed over."""

    async def _draft(
        self,
        summarizer: Summarizer,
        session_id: str,
        messages: Sequence[Message],
        previous: JsonObject | None,
    ) -> tuple[str, list[int]]:
        return await super()._draft(summarizer, session_id, messages, None)


@broken("no-divider", "CSV-17")
class NoDivider(SummaryCompression):
    """Commits without leaving a divider in the history."""

    async def _divide(self, memory: MemoryService, session_id: str) -> None:
        return None


@broken("divider-not-system", "CSV-25")
class DividerNotSystem(SummaryCompression):
    """Leaves its divider as an assistant message (still an event marker, so it is a divider)."""

    async def _divide(self, memory: MemoryService, session_id: str) -> None:
        await memory.save_message(
            session_id,
            Message(
                role="assistant", content="--- compressed ---", kind="event-marker", timestamp=self._clock()
            ),
        )


@broken("keeps-every-summary", "CSV-16")
class KeepsEverySummary(SummaryCompression):
    """Keeps the previous summaries beside the new one instead of letting the new one replace
    them (what the documents leave open: CSV-23 still holds)."""

    async def _store(self, memory: MemoryService, session_id: str, record: JsonObject) -> None:
        before = await memory.get_metadata(self.namespace, session_id)
        earlier = None if before is None else before.get("summary")
        if isinstance(earlier, str) and isinstance(record.get("summary"), str):
            record = {**record, "summary": f"{earlier}\n{record['summary']}"}
        await super()._store(memory, session_id, record)


@broken("accepts-any-reason", "CSV-20")
class AcceptsAnyReason(SummaryCompression):
    """Takes any reason string and compresses."""

    async def compress(self, session_id: str, reason: Any = "manual") -> None:
        await self._run(session_id)


# -- the summary, and calls rejected before they start ------------------------------------------


@broken("discards-summary", "CSV-23")
class DiscardsSummary(SummaryCompression):
    """Asks the summarizer, then throws the summary away: compression becomes plain archiving."""

    async def _store(self, memory: MemoryService, session_id: str, record: JsonObject) -> None:
        return None


@broken("keeps-new-summary-on-reject", "CSV-24")
class KeepsNewSummaryOnReject(SummaryCompression):
    """Stores the new summary first and never puts the previous one back when it then rejects."""

    async def _restore(
        self,
        memory: MemoryService,
        session_id: str,
        previous: JsonObject | None,
        mark: Mark,
    ) -> None:
        return None


@broken("events-for-rejected-call", "CSV-22")
class EventsForRejectedCall(SummaryCompression):
    """Reports start and error for a call rejected because the session is already compressing."""

    async def _run(self, session_id: str) -> bool:
        try:
            return await super()._run(session_id)
        except AlreadyCompressing:
            self._emit(session_id, "start")
            self._emit(session_id, "error")
            raise


@broken("history-changed-reported-done", "CSV-13")
class HistoryChangedReportedDone(SummaryCompression):
    """Reports a compression rejected for a changed history as done (a retry-later no-op)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._changed: set[str] = set()

    def _verify(self, session_id: str, expected: Sequence[Message], current: Sequence[Message]) -> None:
        try:
            super()._verify(session_id, expected, current)
        except HistoryChanged:
            self._changed.add(session_id)
            raise

    def _emit(self, session_id: str, status: CompressingStatus) -> None:
        if status == "error" and session_id in self._changed:
            self._changed.discard(session_id)
            status = "done"
        super()._emit(session_id, status)


@broken("trims-without-summarizer", "CSV-09")
class TrimsWithoutSummarizer(SummaryCompression):
    """Without a summary model it archives the history anyway (the upstream plain trim), then
    rejects."""

    async def _run(self, session_id: str) -> bool:
        if self.summarizer is None and self.memory is not None:
            await self.memory.archive_span(session_id, 10**9)
        return await super()._run(session_id)


@broken("unreadable-history-untyped", "CSV-21")
class UnreadableHistoryUntyped(SummaryCompression):
    """Lets the store's own error through when the history cannot be read."""

    async def _run(self, session_id: str) -> bool:
        try:
            return await super()._run(session_id)
        except HistoryUnreadable as exc:
            raise exc.__cause__ or exc from None


@broken("unreadable-history-reported", "CSV-21", "CSV-22")
class UnreadableHistoryReported(SummaryCompression):
    """Reports start and error for a history it could not read, and lets the store's own error
    through."""

    async def _run(self, session_id: str) -> bool:
        try:
            return await super()._run(session_id)
        except HistoryUnreadable as exc:
            self._emit(session_id, "start")
            self._emit(session_id, "error")
            raise exc.__cause__ or exc from None


# -- memory change events --------------------------------------------------------------------


@broken("no-history-changed", "EVT-01")
class NoHistoryChanged(SummaryCompression):
    """Archives without telling anyone: clients keep showing the old history."""

    def _history_changed(self, session_id: str) -> None:
        return None


@broken("archive-as-deletion", "EVT-02")
class ArchiveAsDeletion(SummaryCompression):
    """Announces the archived messages as deleted, so the vector index drops them."""

    async def _compress(
        self,
        memory: MemoryService,
        summarizer: Summarizer,
        session_id: str,
        snapshot: Sequence[Message],
        split: int,
        previous: JsonObject | None,
        mark: Mark,
    ) -> None:
        await super()._compress(memory, summarizer, session_id, snapshot, split, previous, mark)
        if self._emit_event is not None:
            stamps = [m.timestamp for m in snapshot[:split]]
            self._emit_event(MESSAGES_DELETED, {"sessionId": session_id, "timestamps": stamps})


@broken("history-changed-on-reject", "EVT-03")
class HistoryChangedOnReject(SummaryCompression):
    """Sends history:changed whenever a run ends, also when nothing was archived."""

    async def _run(self, session_id: str) -> bool:
        try:
            return await super()._run(session_id)
        except CompressionError:
            self._history_changed(session_id)
            raise


# -- memory:clear ------------------------------------------------------------------------------


@broken("clear-wipes-all-sessions", "CLR-12")
class ClearWipesAllSessions(SummaryCompression):
    """A session clear empties the whole summary namespace."""

    async def on_clear(self, context: ClearContext) -> ClearResult | None:
        return await super().on_clear(attrs.evolve(context, scope="all", session_id=None))


@broken("clear-all-own-writes", "CLR-12")
class ClearAllOwnWrites(SummaryCompression):
    """A memory:clear of all sessions deletes the summaries this instance wrote, remembered in
    the object: after a restart it clears nothing."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._wrote: set[str] = set()

    async def _store(self, memory: MemoryService, session_id: str, record: JsonObject) -> None:
        await super()._store(memory, session_id, record)
        self._wrote.add(session_id)

    async def on_clear(self, context: ClearContext) -> ClearResult | None:
        if (
            context.scope != "all"
            or self.memory is None
            or (context.types is not None and CLEAR_TYPE not in context.types)
        ):
            return await super().on_clear(context)
        self._clears_of_all += 1  # a run in progress still sees the clear
        ops = [MetadataDel(self.namespace, session_id) for session_id in sorted(self._wrote)]
        if ops:
            await self.memory.commit_metadata(ops)
        self._wrote.clear()
        return ClearResult(source="memory-summary", type=CLEAR_TYPE, success=True, message="对话摘要已清除")


@broken("clear-ignores-types", "CLR-13")
class ClearIgnoresTypes(SummaryCompression):
    """Clears its summaries on every memory:clear, whatever types were asked for."""

    async def on_clear(self, context: ClearContext) -> ClearResult | None:
        return await super().on_clear(attrs.evolve(context, types=None))


@broken("no-clear-type", "CLR-14")
class NoClearType(SummaryCompression):
    """Tags its rows 'summary' but registers no memory:clear-type, so /clear -t summary fails."""

    clear_types: tuple[ClearTypeContribution, ...] = ()


@broken("untagged-failure-rows", "CLR-15")
class UntaggedFailureRows(SummaryCompression):
    """Tags its successful rows only: a failed clear is reported without a type."""

    async def on_clear(self, context: ClearContext) -> ClearResult | None:
        row = await super().on_clear(context)
        return row if row is None or row.success else attrs.evolve(row, type=None)


@broken("restores-over-clear", "CLR-16")
class RestoresOverClear(SummaryCompression):
    """Puts the previous summary back when a compression is rejected, even one a memory:clear
    removed meanwhile (the reference provider's old bug)."""

    def _cleared_since(self, session_id: str, mark: Mark) -> bool:
        return False


NAMES: Final = tuple(sorted(BROKEN))
