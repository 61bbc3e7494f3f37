"""Broken message stores: each one a realistic bug, caught by exactly the rules it declares."""

from __future__ import annotations

import asyncio
import bisect
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from aalis_memory.conformance.registration.registry import Capabilities
from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.inmemory import InMemoryMemory, StoredMessage
from aalis_memory.service import Limit
from aalis_memory.types import Message, RecentMessageRecord, RecentMessagesAcrossSessionsQuery
from broken_drivers import broken

Query = RecentMessagesAcrossSessionsQuery
Predicate = Callable[[str, Message], bool]


def _cross(
    store: InMemoryMemory,
    query: Query,
    keep: Predicate,
    *,
    archived_too: bool = False,
    cap: float | None = None,
) -> list[RecentMessageRecord]:
    """A cross-session read with a replaceable filter, through the reference driver's own."""
    limit = sem.check_limit(query.limit, sem.DEFAULT_CROSS_SESSION_MAX_LIMIT, "query.limit")
    wanted = min(limit, store.cross_session_max_limit if cap is None else cap)
    return store._newest_across_sessions(
        wanted, lambda session_id, s: (archived_too or not s.archived) and keep(session_id, s.message)
    )


# -- the limit rule ----------------------------------------------------------------------------


@broken("limit-zero-returns-all", "LIM-01")
class LimitZeroReturnsAll(InMemoryMemory):
    """A limit of 0 reads everything (the `slice(-0)` bug of the old in-memory backend)."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return await super().get_history(session_id, math.inf if limit == 0 else limit)

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return await super().get_full_history(session_id, math.inf if limit == 0 else limit)


@broken("inf-means-default", "LIM-02")
class InfMeansDefault(InMemoryMemory):
    """math.inf is read like an omitted limit, returning only the default number of messages."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return await super().get_history(session_id, None if limit == math.inf else limit)

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return await super().get_full_history(session_id, None if limit == math.inf else limit)


@broken("update-limit-edges", "LIM-03")
class UpdateLimitEdges(InMemoryMemory):
    """recent_limit 0 rewrites everything (MongoDB's `limit(0)`) and math.inf means the default."""

    async def update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int:
        limit = None if recent_limit == math.inf else recent_limit
        limit = math.inf if limit == 0 else limit
        return await super().update_message_content(session_id, old_text, new_text, limit)


@broken("cross-cap-ignored", "LIM-04", "CROSS-01")
class CrossCapIgnored(InMemoryMemory):
    """The cross-session cap is configured but never applied."""

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        return _cross(self, query, sem.cross_session_filter(query), cap=math.inf)


@broken("short-defaults", "LIM-05")
class ShortDefaults(InMemoryMemory):
    """Omitted limits default to 20, 100 and 10 instead of the contract's (aalis_memory.defaults)."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return await super().get_history(session_id, 20 if limit is None else limit)

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return await super().get_full_history(session_id, 100 if limit is None else limit)

    async def update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int:
        limit = 10 if recent_limit is None else recent_limit
        return await super().update_message_content(session_id, old_text, new_text, limit)


def _negative_is_unlimited(limit: Limit) -> Limit:
    return math.inf if isinstance(limit, int | float) and limit < 0 else limit


@broken("negative-limit-unlimited", "LIM-06")
class NegativeLimitUnlimited(InMemoryMemory):
    """A negative limit reads or rewrites everything (SQLite's `LIMIT -1`) instead of raising."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return await super().get_history(session_id, _negative_is_unlimited(limit))

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return await super().get_full_history(session_id, _negative_is_unlimited(limit))

    async def update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int:
        limit = _negative_is_unlimited(recent_limit)
        return await super().update_message_content(session_id, old_text, new_text, limit)


@broken("cross-limit-clamped", "LIM-01", "LIM-06")
class CrossLimitClamped(InMemoryMemory):
    """The cross-session limit is clamped with `max(1, min(limit, cap))`, as the old code did."""

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        wanted = max(1, min(query.limit, self.cross_session_max_limit))
        return _cross(self, attrs.evolve(query, limit=math.inf), sem.cross_session_filter(query), cap=wanted)


# -- saving and reading --------------------------------------------------------------------------


class _CaseFolded(dict[str, list[StoredMessage]]):
    """A session table whose keys compare case-insensitively and ignore trailing spaces."""

    @staticmethod
    def _fold(key: str) -> str:
        return key.strip().lower()

    def __getitem__(self, key: str) -> list[StoredMessage]:
        return super().__getitem__(self._fold(key))

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and super().__contains__(self._fold(key))

    def get(self, key: str, default: Any = None) -> Any:
        return super().get(self._fold(key), default)

    def setdefault(self, key: str, default: Any = None) -> Any:
        return super().setdefault(self._fold(key), default)

    def pop(self, key: str, default: Any = None) -> Any:
        return super().pop(self._fold(key), default)

    def __setitem__(self, key: str, value: list[StoredMessage]) -> None:
        super().__setitem__(self._fold(key), value)


@broken("session-ids-case-folded", "MSG-01", "HOST-03")
class SessionIdsCaseFolded(InMemoryMemory):
    """Session ids are matched case-insensitively and trimmed (a collation bug)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._sessions = _CaseFolded()


@broken("drops-media", "MSG-02")
class DropsMedia(InMemoryMemory):
    """images and audios are not stored (the old backends dropped them)."""

    async def save_message(self, session_id: str, message: Message) -> None:
        await super().save_message(session_id, attrs.evolve(message, images=None, audios=None))


@broken("no-timestamp-stamp", "MSG-03")
class NoTimestampStamp(InMemoryMemory):
    """A message saved without a timestamp is stored without one."""

    async def save_message(self, session_id: str, message: Message) -> None:
        if message.timestamp is not None:  # only the stamping is missing, not the checks
            _session, message, _ = sem.prepare_message(session_id, message)
        self._append(session_id, message)


@broken("count-unknown-raises", "MSG-04")
class CountUnknownRaises(InMemoryMemory):
    """count_history of a session never written raises KeyError (a bare `sessions[id]`)."""

    async def count_history(self, session_id: str) -> int:
        stored = self._sessions[session_id]
        return sem.count_conversation(s.message for s in stored if not s.archived)


@broken("unknown-session-reads-none", "MSG-04")
class UnknownSessionReadsNone(InMemoryMemory):
    """Reads of a session never written answer None (a missing-row path that returns early)."""

    def _unknown(self, session_id: str) -> bool:
        return session_id not in self._sessions

    async def get_history(self, session_id: str, limit: Limit = None) -> Any:
        return None if self._unknown(session_id) else await super().get_history(session_id, limit)

    async def get_full_history(self, session_id: str, limit: Limit = None) -> Any:
        if self._unknown(session_id):
            return None
        return await super().get_full_history(session_id, limit)

    async def get_messages_by_session_range(self, session_id: str, *args: Any) -> Any:
        if self._unknown(session_id):
            return None
        return await super().get_messages_by_session_range(session_id, *args)

    async def update_message_content(self, session_id: str, *args: Any) -> Any:
        if self._unknown(session_id):
            return None
        return await super().update_message_content(session_id, *args)

    async def delete_messages_by_timestamps(self, session_id: str, timestamps: Any) -> Any:
        if self._unknown(session_id):
            return None
        return await super().delete_messages_by_timestamps(session_id, timestamps)

    async def get_recent_messages_across_sessions(self, query: Query) -> Any:
        return await super().get_recent_messages_across_sessions(query) if self._sessions else None

    async def clear_session(self, session_id: str) -> None:
        if session_id in self._sessions:
            self._sessions[session_id] = []

    async def clear_all(self) -> None:
        for session_id in self._sessions:
            self._sessions[session_id] = []


# -- get_history / count_history / get_full_history -----------------------------------------------


@broken("archived-in-history", "HIST-01")
class ArchivedInHistory(InMemoryMemory):
    """get_history forgets the archived flag.

    HIST-01: "get_history returns only active (not archived) messages". archive_span archives
    the right messages (count_history shows it), so every archive rule read through this history
    is blocked by HIST-01, not failed.
    """

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        effective = sem.check_limit(limit, sem.DEFAULT_HISTORY_LIMIT, "limit")
        every = [s.message for s in self._sessions.get(session_id, ())]
        return self._copy_out(sem.history_window(every, effective))


@broken("same-ms-reversed", "HIST-02", "ARCH-01", "ARCH-09", "FULL-02", "RANGE-03")
class SameMillisecondReversed(InMemoryMemory):
    """A message joins its millisecond in front of the earlier writes (a DESC tie-break).

    ARCH-09: archived messages stay in get_full_history "in their original order": within a
    millisecond they come back reversed.
    """

    async def save_message(self, session_id: str, message: Message) -> None:
        await super().save_message(session_id, message)
        stored = self._sessions[session_id]
        newest = stored.pop()
        index = len(stored)
        while index > 0 and stored[index - 1].message.timestamp == newest.message.timestamp:
            index -= 1
        stored.insert(index, newest)


@broken(
    "same-ms-counter-unpadded",
    "HIST-02",
    "FULL-02",
    "RANGE-03",
    "ARCH-01",
    "ARCH-09",
    capabilities=Capabilities(ordering="timestamp", metadata_atomicity="atomic", archive_atomicity="atomic"),
)
class SameMillisecondCounterUnpadded(InMemoryMemory):
    """Each session is kept sorted by a key of the timestamp and a count of the session's messages
    already in that millisecond, the count compared as text, not zero-padded: from the eleventh
    write of one millisecond on, "10" sorts before "2" (nine writes or fewer keep write order).

    Decided from the rules' words before any run (they promise write order within a millisecond,
    or the earliest messages, which in one millisecond are the first written):
    HIST-02: "messages of the same millisecond keep write order".
    FULL-02: "in ascending order" ("in the original order").
    RANGE-03: "same millisecond in write order" (a SHOULD: an advisory).
    ARCH-01: "archives the earliest count active messages": in a crowded millisecond it archives
    the first in its own order, which are not the earliest written.
    ARCH-09: archived messages "stay in get_full_history, interleaved with the kept ones in their
    original order".
    Its windows in such a millisecond are also wrong (HIST-04's "after the (limit+1)-th newest",
    FULL-02's "the newest limit", UPD-01's "the newest recent_limit"), but no example test cuts
    a window through a millisecond of more than ten writes, so those words are not reached
    (FULL-02 is declared for its order). The cross-session read keeps the store-wide write order
    (CROSS-02 holds): its index is not this sorted list.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._sort_keys: dict[int, tuple[int | float, str]] = {}

    def _append(self, session_id: str, message: Message) -> None:
        super()._append(session_id, message)
        stored = self._sessions[session_id]
        stamp = sem.stamp(stored[-1].message)
        earlier = sum(1 for s in stored[:-1] if sem.stamp(s.message) == stamp)
        self._sort_keys[stored[-1].seq] = (stamp, str(earlier))
        stored.sort(key=lambda s: self._sort_keys[s.seq])  # stable: equal keys keep their place


@broken(
    "claims-timestamp-order",
    "HIST-02",
    "ARCH-01",
    "FULL-02",
    capabilities=Capabilities(ordering="timestamp", metadata_atomicity="atomic", archive_atomicity="atomic"),
)
class ClaimsTimestampOrder(InMemoryMemory):
    """The write-ordered reference store declared as timestamp-ordered: late arrivals misplace.

    HIST-02 and FULL-02: not "ascending by time"; ARCH-01: not the earliest "in get_history order"
    (by time). Not ARCH-08: positions are still taken at call time, in the order it keeps.
    """


@broken("markers-use-limit", "HIST-03", "HIST-04", "HIST-05")
class MarkersUseLimit(InMemoryMemory):
    """get_history counts control records toward the limit (the old backends did)."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        effective = sem.check_limit(limit, sem.DEFAULT_HISTORY_LIMIT, "limit")
        return self._copy_out(sem.newest([s.message for s in self._active(session_id)], effective))


def _after_newest(
    active: list[Message], nth: int | float, conversation: Callable[[Message], bool]
) -> list[Message]:
    """The messages after the ``nth`` newest one ``conversation`` counts (all of them when it
    counts fewer): the reference window (``nth`` = limit + 1) with a broken part swapped in."""
    seen = 0
    for index in range(len(active) - 1, -1, -1):
        if conversation(active[index]):
            seen += 1
            if seen >= nth:
                return active[index + 1 :]
    return active


def _control_by_role(message: Message) -> bool:
    """The old backends' test for a control record: its role, not its kind."""
    return message.role == "system"


# HIST-05 too: markers of other roles count as conversation, so a history within the limit is
# cut and loses its leading markers (suite/history.py, markers of every role).
@broken("control-by-role", "HIST-03", "HIST-04", "HIST-05", "COUNT-01")
class ControlByRole(InMemoryMemory):
    """get_history and count_history take every system-role message for a control record (markers
    are system messages), so system-role conversation uses no limit slot and is not counted.

    HIST-03: "CONTROL_KINDS records never use [the limit] up" (a user-role marker uses a slot, a
    system conversation message none); HIST-04: the window starts after the (limit+1)-th newest
    conversation message, which roles misplace; HIST-05: with at most limit conversation messages
    the whole active history, which a counted marker cuts; COUNT-01: "the number of active
    conversation messages". Positions (ARCH-03, UPD-01, FULL-02) do not depend on roles.
    """

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        effective = sem.check_limit(limit, sem.DEFAULT_HISTORY_LIMIT, "limit")
        active = [s.message for s in self._active(session_id)]
        if effective == 0:
            return []
        return self._copy_out(_after_newest(active, effective + 1, lambda m: not _control_by_role(m)))

    async def count_history(self, session_id: str) -> int:
        return sum(1 for s in self._active(session_id) if not _control_by_role(s.message))


@broken("window-cut-at-last-kept", "HIST-04")
class WindowCutAtLastKept(InMemoryMemory):
    """A trimmed window starts at the oldest kept message, dropping markers just before it."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        effective = sem.check_limit(limit, sem.DEFAULT_HISTORY_LIMIT, "limit")
        active = [s.message for s in self._active(session_id)]
        talk = [i for i, m in enumerate(active) if not m.is_control]
        if effective == 0 or len(talk) <= effective:
            return self._copy_out(sem.history_window(active, effective))
        return self._copy_out(active[talk[-int(effective)] :])


@broken("window-one-short", "HIST-04", "HIST-05")
class WindowOneShort(InMemoryMemory):
    """get_history stops one conversation message early (``>=`` for ``>``): limit - 1 of them, in
    order, with the markers after the cut (a third-party backend's bug).

    HIST-04: not "every active message after the (limit+1)-th newest conversation message";
    HIST-05: with at most limit conversation messages, not the whole history. Not HIST-02 (what
    comes back is ascending), HIST-03 (the conversation alone is cut as short: control records use
    no slot) nor LIM-05 (an omitted limit reads what the default limit reads).
    """

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        effective = sem.check_limit(limit, sem.DEFAULT_HISTORY_LIMIT, "limit")
        active = [s.message for s in self._active(session_id)]
        if effective == 0:
            return []
        return self._copy_out(_after_newest(active, effective, lambda m: not m.is_control))


@broken("count-includes-markers", "COUNT-01")
class CountIncludesMarkers(InMemoryMemory):
    """count_history counts control records too.

    COUNT-01: "the number of active conversation messages"; the history read beside it is right.
    """

    async def count_history(self, session_id: str) -> int:
        return len(self._active(session_id))


@broken("full-history-active-only", "FULL-01", "ARCH-09")
class FullHistoryActiveOnly(InMemoryMemory):
    """get_full_history leaves archived messages out.

    FULL-01: "get_full_history includes archived messages"; ARCH-09: archived messages "stay in
    get_full_history". Not LIM-07 (a huge limit reads what math.inf reads), MSG-02 (the fields of
    the messages it returns are right), UPD-01 or DEL-01 (read through it: blocked by FULL-01).
    """

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        effective = sem.check_limit(limit, sem.DEFAULT_FULL_HISTORY_LIMIT, "limit")
        return self._copy_out(sem.newest([s.message for s in self._active(session_id)], effective))


@broken("full-limit-skips-markers", "FULL-02")
class FullLimitSkipsMarkers(InMemoryMemory):
    """get_full_history applies get_history's window, so markers use no slot."""

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        effective = sem.check_limit(limit, sem.DEFAULT_FULL_HISTORY_LIMIT, "limit")
        every = [s.message for s in self._sessions.get(session_id, ())]
        return self._copy_out(sem.history_window(every, effective))


# -- archive_span ------------------------------------------------------------------------------


class _Archiving(InMemoryMemory):
    """archive_span with the positions chosen by ``_positions`` (one override per bug)."""

    def _positions(self, active: list[StoredMessage], count: int, keep: tuple[int, ...]) -> list[int]:
        return sem.archive_positions(len(active), count, keep)

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        active = self._active(session_id)
        positions = self._positions(active, sem.check_count(count), sem.check_keep(keep))
        for position in positions:
            active[position].archived = True
        return len(positions)


@broken("archive-newest", "ARCH-01", "ARCH-02", examples_miss=("ARCH-02",))
class ArchiveNewest(_Archiving):
    """archive_span counts positions from the newest end (a trim-style implementation).

    ARCH-01: it archives the newest, not "the earliest count active messages". ARCH-02: its keep
    positions count from the newest end too, so index 0 names the span's last message, not its
    first. Which messages a position names is decided by the span first, so the example tests of
    ARCH-02 and ARCH-03, like the other rules that stand on the span (ARCH-05..10, HIST-01
    through its setup, COUNT-01, UPD-01, DEL-01), are blocked by ARCH-01; the state machine's
    histories show the keep positions wrong (its primary rule for this driver is ARCH-02).
    """

    def _positions(self, active: list[StoredMessage], count: int, keep: tuple[int, ...]) -> list[int]:
        return [len(active) - 1 - p for p in super()._positions(active, count, keep)]


@broken("archive-latest-span", "ARCH-01")
class ArchiveLatestSpan(_Archiving):
    """archive_span takes its span of count from the newest end of the active history; keep
    positions still count from the span's first message (a third-party backend's bug).

    ARCH-01: it archives the latest, not "the earliest count active messages". Keep positions are
    0-based within the span it took (ARCH-02), markers occupy positions (ARCH-03), and positions
    are taken at call time (ARCH-08): the tests of those rules compare which messages stayed
    active, which the wrong span decides, and are blocked by ARCH-01.
    """

    def _positions(self, active: list[StoredMessage], count: int, keep: tuple[int, ...]) -> list[int]:
        start = len(active) - min(count, len(active))
        return [start + p for p in super()._positions(active, count, keep)]


@broken("keep-ignored", "ARCH-02")
class KeepIgnored(_Archiving):
    """archive_span archives the whole span, keep list or not.

    ARCH-02: "positions listed in keep stay active" is what it contradicts. It still counts the
    span right (ARCH-01, 03, 05, 08), returns how many it archived (ARCH-07), and keeps the
    archived messages in the full history in place (ARCH-09): their keep cases are blocked.
    """

    def _positions(self, active: list[StoredMessage], count: int, keep: tuple[int, ...]) -> list[int]:
        return super()._positions(active, count, ())


@broken("positions-skip-markers", "ARCH-03")
class PositionsSkipMarkers(_Archiving):
    """count and keep count conversation messages only; markers inside the span are archived."""

    def _positions(self, active: list[StoredMessage], count: int, keep: tuple[int, ...]) -> list[int]:
        out: list[int] = []
        talk = 0
        for index, stored in enumerate(active):
            if talk >= count:
                break
            if stored.message.is_control:
                out.append(index)
                continue
            if talk not in keep:
                out.append(index)
            talk += 1
        return out


@broken("count-zero-archives-all", "ARCH-04")
class CountZeroArchivesAll(_Archiving):
    """count 0 archives the whole active history (a `slice(-0)` bug)."""

    def _positions(self, active: list[StoredMessage], count: int, keep: tuple[int, ...]) -> list[int]:
        return super()._positions(active, count or len(active), keep)


@broken("count-above-active-archives-nothing", "ARCH-05")
class CountAboveActiveArchivesNothing(_Archiving):
    """A count above the active history archives nothing (the old trim's early return)."""

    def _positions(self, active: list[StoredMessage], count: int, keep: tuple[int, ...]) -> list[int]:
        return [] if count > len(active) else super()._positions(active, count, keep)


@broken("duplicate-keep-archives-less", "ARCH-06")
class DuplicateKeepArchivesLess(_Archiving):
    """Archives `span - len(keep)` messages, so repeated or outside keep positions archive less."""

    def _positions(self, active: list[StoredMessage], count: int, keep: tuple[int, ...]) -> list[int]:
        span = min(count, len(active))
        return super()._positions(active, count, keep)[: max(0, span - len(keep))]


@broken("archive-trusts-positions", "ARCH-11")
class ArchiveTrustsPositions(InMemoryMemory):
    """archive_span slices with whatever it is given: count -1 archives all but the last."""

    async def archive_span(self, session_id: str, count: Any, keep: Sequence[Any] = ()) -> int:
        active = self._active(session_id)
        kept = set(keep)
        span = active[:count]
        for position, stored in enumerate(span):
            if position not in kept:
                stored.archived = True
        return len(span) - len(kept & set(range(len(span))))


@broken("archive-returns-span-size", "ARCH-07")
class ArchiveReturnsSpanSize(InMemoryMemory):
    """archive_span reports the span size, not how many it archived."""

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        before = len(self._active(session_id))
        await super().archive_span(session_id, count, keep)
        return min(count, before)


@broken("positions-include-archived", "ARCH-08")
class PositionsIncludeArchived(InMemoryMemory):
    """archive_span counts positions over the full history, archived messages included."""

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        every = self._sessions.get(session_id, [])
        positions = sem.archive_positions(len(every), sem.check_count(count), sem.check_keep(keep))
        for position in positions:
            every[position].archived = True
        return len(positions)


@broken("full-history-archived-first", "ARCH-09")
class FullHistoryArchivedFirst(InMemoryMemory):
    """get_full_history lists the archive before the active history (two separate lists)."""

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        effective = sem.check_limit(limit, sem.DEFAULT_FULL_HISTORY_LIMIT, "limit")
        stored = self._sessions.get(session_id, [])
        every = [s.message for s in stored if s.archived] + [s.message for s in stored if not s.archived]
        return self._copy_out(sem.newest(every, effective))


@broken("archive-yields-midway", "ARCH-10", "CONC-02")
class ArchiveYieldsMidway(InMemoryMemory):
    """Declared atomic, but archive_span yields to other tasks between messages."""

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        active = self._active(session_id)
        positions = sem.archive_positions(len(active), sem.check_count(count), sem.check_keep(keep))
        for position in positions:
            active[position].archived = True
            await asyncio.sleep(0)
        return len(positions)


# -- clearing ----------------------------------------------------------------------------------


@broken("clear-session-keeps-markers", "CLEAR-01", "CLEAR-02")
class ClearSessionKeepsMarkers(InMemoryMemory):
    """clear_session deletes conversation messages but leaves control records behind."""

    async def clear_session(self, session_id: str) -> None:
        stored = self._sessions.get(session_id, [])
        self._sessions[session_id] = [s for s in stored if s.message.is_control]


@broken("clear-session-keeps-archived", "CLEAR-02")
class ClearSessionKeepsArchived(InMemoryMemory):
    """clear_session deletes the active messages only."""

    async def clear_session(self, session_id: str) -> None:
        stored = self._sessions.get(session_id, [])
        self._sessions[session_id] = [s for s in stored if s.archived]


@broken("clear-session-clears-all", "MSG-06", "HOST-03")
class ClearSessionClearsAll(InMemoryMemory):
    """clear_session forgets its session filter and empties every session."""

    async def clear_session(self, session_id: str) -> None:
        self._sessions.clear()


@broken("clear-all-skips-last-session", "CLEAR-03")
class ClearAllSkipsLastSession(InMemoryMemory):
    """clear_all walks the sessions with an off-by-one and leaves the last one."""

    async def clear_all(self) -> None:
        for session_id in list(self._sessions)[:-1]:
            del self._sessions[session_id]


@broken("clear-all-keeps-archived", "CLEAR-03")
class ClearAllKeepsArchived(InMemoryMemory):
    """clear_all deletes the active messages only."""

    async def clear_all(self) -> None:
        for session_id, stored in list(self._sessions.items()):
            self._sessions[session_id] = [s for s in stored if s.archived]


# clear-all-wipes-metadata (CLEAR-04) is declared in metadata.py, beside the metadata rules.


# -- session range read ----------------------------------------------------------------------


@broken("range-cap-ignored", "RANGE-01")
class RangeCapIgnored(InMemoryMemory):
    """The range cap is configured but never applied."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.range_query_limit = 10**9


class Ranging(InMemoryMemory):
    """A range read with replaceable pieces (one override per bug)."""

    def _candidates(self, session_id: str) -> list[StoredMessage]:
        return list(self._sessions.get(session_id, ()))

    def _keep(
        self,
        from_ts: float,
        to_ts: float,
        roles: Sequence[str] | None,
        exclude_kinds: Sequence[str] | None,
    ) -> Callable[[Message], bool]:
        return sem.range_filter(from_ts, to_ts, roles, exclude_kinds)

    def _order(self, message: Message) -> int | float:
        return sem.stamp(message)

    def _cut(self, hits: list[Message]) -> list[Message]:
        return hits[: self.range_query_limit]

    async def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        keep = self._keep(from_ts, to_ts, roles, exclude_kinds)
        hits = [s.message for s in self._candidates(session_id) if keep(s.message)]
        hits.sort(key=self._order)  # stable: same-ms keep write order
        return self._copy_out(self._cut(hits))


@broken("range-every-session", "MSG-01")
class RangeEverySession(Ranging):
    """The range read forgets its session filter."""

    def _candidates(self, session_id: str) -> list[StoredMessage]:
        return [s for stored in self._sessions.values() for s in stored]


@broken("range-upper-exclusive", "RANGE-02", "TS-03", "TS-06")
class RangeUpperExclusive(Ranging):
    """The range is half-open: to_ts itself is left out.

    RANGE-02: "inclusive at both ends"; TS-03: "the range [0, 0] returns exactly the messages at
    0"; TS-06: "a range with both bounds on one of them returns exactly its message".
    """

    def _keep(
        self,
        from_ts: float,
        to_ts: float,
        roles: Sequence[str] | None,
        exclude_kinds: Sequence[str] | None,
    ) -> Callable[[Message], bool]:
        base = super()._keep(from_ts, to_ts, roles, exclude_kinds)
        return lambda m: base(m) and (m.timestamp or 0) < to_ts


@broken("range-roles-ignored", "RANGE-04")
class RangeRolesIgnored(Ranging):
    """The range read ignores roles."""

    def _keep(
        self,
        from_ts: float,
        to_ts: float,
        roles: Sequence[str] | None,
        exclude_kinds: Sequence[str] | None,
    ) -> Callable[[Message], bool]:
        return super()._keep(from_ts, to_ts, None, exclude_kinds)


@broken("range-skips-archived", "RANGE-02")
class RangeSkipsArchived(Ranging):
    """The range read looks at active messages only."""

    def _candidates(self, session_id: str) -> list[StoredMessage]:
        return self._active(session_id)


@broken("range-keeps-latest", "RANGE-03")
class RangeKeepsLatest(Ranging):
    """A truncated range keeps the newest messages instead of the earliest."""

    def _cut(self, hits: list[Message]) -> list[Message]:
        return hits[-self.range_query_limit :]


@broken("range-exclude-drops-kindless", "RANGE-04")
class RangeExcludeDropsKindless(Ranging):
    """exclude_kinds also drops kind-less messages (SQL's `kind NOT IN (...)` with NULL kinds)."""

    def _keep(
        self,
        from_ts: float,
        to_ts: float,
        roles: Sequence[str] | None,
        exclude_kinds: Sequence[str] | None,
    ) -> Callable[[Message], bool]:
        base = super()._keep(from_ts, to_ts, roles, exclude_kinds)
        return lambda m: base(m) and (not exclude_kinds or m.kind is not None)


@broken("range-bisected-half-open", "RANGE-02", "TS-03", "TS-06")
class RangeBisectedHalfOpen(InMemoryMemory):
    """The range is sliced out of the session sorted by timestamp with two binary searches, both
    ``bisect_left``: the slice is half-open, so the messages at ``to_ts`` are left out (a
    ``bisect_right`` was meant for the upper end).

    Decided from the rules' words before any run:
    RANGE-02: "The range [from_ts, to_ts] is inclusive at both ends".
    TS-03: "the range [0, 0] returns exactly the messages at 0" and "fractional range bounds are
    inclusive": a message at 0 or at a fractional to_ts is left out.
    TS-06: "a range with both bounds on one of them returns exactly its message": [t, t] is empty.
    Not RANGE-01 (the cap: more messages than the cap still give exactly the cap), RANGE-03 (the
    order and the kept end hold), RANGE-04 (the filters hold), TS-01/TS-02 (stamps and order are
    kept) nor any rule that reads a range as a step (those are blocked, never failed).
    """

    async def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        session_id = sem.check_session_id(session_id)
        from_ts, to_ts, roles, exclude_kinds = sem.check_range(from_ts, to_ts, roles, exclude_kinds)
        by_time = sorted((s.message for s in self._sessions.get(session_id, ())), key=sem.stamp)
        stamps = [sem.stamp(m) for m in by_time]
        sliced = by_time[bisect.bisect_left(stamps, from_ts) : bisect.bisect_left(stamps, to_ts)]
        keep = sem.range_filter(from_ts, to_ts, roles, exclude_kinds)
        return self._copy_out([m for m in sliced if keep(m)][: self.range_query_limit])


# -- cross-session read ----------------------------------------------------------------------


@broken("cross-includes-archived", "CROSS-02")
class CrossIncludesArchived(InMemoryMemory):
    """The cross-session read forgets the archived flag."""

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        return _cross(self, query, sem.cross_session_filter(query), archived_too=True)


@broken("cross-sorted-per-session", "CROSS-02")
class CrossSortedPerSession(InMemoryMemory):
    """The cross-session read takes the last messages of the session list, not by timestamp.

    CROSS-02: not "the newest N active messages by timestamp". Its filters are the reference's
    (CROSS-05 holds: every filter test reads all it stores, so no pick is in question).
    """

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        limit = sem.check_limit(query.limit, sem.DEFAULT_CROSS_SESSION_MAX_LIMIT, "query.limit")
        keep = sem.cross_session_filter(query)
        hits = [
            RecentMessageRecord(session_id, s.message)
            for session_id, stored in self._sessions.items()
            for s in stored
            if not s.archived and keep(session_id, s.message)
        ]
        return self._copy_out(sem.newest(hits, min(limit, self.cross_session_max_limit)))


@broken("cross-all-roles-by-default", "CROSS-03")
class CrossAllRolesByDefault(InMemoryMemory):
    """Without roles the cross-session read returns every role."""

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        if query.roles is None:
            query = attrs.evolve(query, roles=("user", "assistant", "system", "tool", "notice"))
        return await super().get_recent_messages_across_sessions(query)


@broken("cross-exclude-drops-kindless", "CROSS-04")
class CrossExcludeDropsKindless(InMemoryMemory):
    """exclude_kinds also drops kind-less messages (SQL's NOT IN with NULL kinds)."""

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        base = sem.cross_session_filter(query)
        excluding = bool(query.exclude_kinds)
        return _cross(self, query, lambda s, m: base(s, m) and not (excluding and m.kind is None))


@broken("cross-since-exclusive", "CROSS-05", "TS-03")
class CrossSinceExclusive(InMemoryMemory):
    """since_ts is compared with `>` instead of `>=`.

    CROSS-05: "since_ts keeps timestamps >= since_ts". TS-03: "since_ts=0 keeps 0": the message
    at 0 is dropped by since_ts=0.
    """

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        base = sem.cross_session_filter(query)
        since = query.since_ts
        return _cross(self, query, lambda s, m: base(s, m) and (since is None or (m.timestamp or 0) > since))


@broken("cross-excluded-sessions-ignored", "CROSS-05")
class CrossExcludedSessionsIgnored(InMemoryMemory):
    """exclude_session_ids is accepted and ignored."""

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        return await super().get_recent_messages_across_sessions(
            attrs.evolve(query, exclude_session_ids=None)
        )


@broken("cross-platform-missing-passes", "CROSS-05")
class CrossPlatformMissingPasses(InMemoryMemory):
    """A message without metadata['platform'] passes the platform filter."""

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        base = sem.cross_session_filter(attrs.evolve(query, platform=None))
        platform = query.platform

        def keep(session_id: str, message: Message) -> bool:
            found = (message.metadata or {}).get("platform")
            return base(session_id, message) and found in (None, platform)

        return _cross(self, query, keep if platform is not None else base)


# -- content rewrite / deletion ----------------------------------------------------------------


class RewriteVariant(InMemoryMemory):
    """update_message_content written once, with the steps a broken driver varies as hooks."""

    def check(self, old_text: str) -> None:
        sem.check_old_text(old_text)

    def window(self, session_id: str, old_text: str, effective: int | float) -> list[Any]:
        return sem.newest(self._active(session_id), effective)

    def rewrite(self, content: str, old_text: str, new_text: str) -> str | None:
        """The new content, or ``None`` when the message does not change."""
        rewritten = content.replace(old_text, new_text)
        return rewritten if old_text in content and rewritten != content else None

    def stored_after(self, message: Message, rewritten: str) -> Message:
        """The message as the rewrite stores it."""
        return attrs.evolve(message, content=rewritten)

    async def update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int:
        self.check(old_text)
        effective = sem.check_limit(recent_limit, sem.DEFAULT_UPDATE_RECENT_LIMIT, "recent_limit")
        changed = 0
        for stored in self.window(session_id, old_text, effective):
            content = stored.message.content
            rewritten = self.rewrite(content, old_text, new_text) if isinstance(content, str) else None
            if rewritten is not None:
                stored.message = self.stored_after(stored.message, rewritten)
                changed += 1
        return changed


@broken("update-newest-matching", "UPD-01")
class UpdateNewestMatching(RewriteVariant):
    """The window is the newest N *matching* messages, archived ones included (old SQL query)."""

    def window(self, session_id: str, old_text: str, effective: int | float) -> list[Any]:
        return sem.newest(
            [
                s
                for s in self._sessions.get(session_id, ())
                if isinstance(s.message.content, str) and old_text in s.message.content
            ],
            effective,
        )


@broken("update-counts-matches", "UPD-02")
class UpdateCountsMatches(RewriteVariant):
    """Counts every message containing old_text, also when new_text is the same text."""

    def rewrite(self, content: str, old_text: str, new_text: str) -> str | None:
        return content.replace(old_text, new_text) if old_text in content else None


@broken("update-first-occurrence", "UPD-02")
class UpdateFirstOccurrence(RewriteVariant):
    """Only the first occurrence in each message is replaced (`str.replace(old, new, 1)`)."""

    def rewrite(self, content: str, old_text: str, new_text: str) -> str | None:
        return content.replace(old_text, new_text, 1) if old_text in content else None


@broken("update-case-insensitive", "UPD-02")
class UpdateCaseInsensitive(RewriteVariant):
    """old_text matches regardless of case (SQL LIKE), and the match is replaced as found."""

    def rewrite(self, content: str, old_text: str, new_text: str) -> str | None:
        pattern = re.compile(re.escape(old_text), re.IGNORECASE)
        return pattern.sub(new_text, content) if pattern.search(content) else None


@broken("update-accepts-empty-old-text", "UPD-03")
class UpdateAcceptsEmptyOldText(RewriteVariant):
    """An empty old_text is accepted and rewrites every message."""

    def check(self, old_text: str) -> None:
        pass


@broken("delete-active-only", "DEL-01")
class DeleteActiveOnly(InMemoryMemory):
    """delete_messages_by_timestamps never reaches archived messages."""

    async def delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        doomed = set(timestamps)
        stored = self._sessions.get(session_id, [])
        survivors = [s for s in stored if s.archived or s.message.timestamp not in doomed]
        self._sessions[session_id] = survivors
        return len(stored) - len(survivors)


@broken("delete-empty-list-raises", "DEL-02")
class DeleteEmptyListRaises(InMemoryMemory):
    """An empty list builds `timestamp IN ()`, which the database rejects."""

    async def delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        if not timestamps:
            raise ValueError("near ')': syntax error")
        return await super().delete_messages_by_timestamps(session_id, timestamps)


@broken("delete-every-session", "MSG-06")
class DeleteEverySession(InMemoryMemory):
    """delete_messages_by_timestamps forgets the session filter."""

    async def delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        removed = 0
        for sid in list(self._sessions):
            removed += await super().delete_messages_by_timestamps(sid, timestamps)
        return removed


@broken("delete-reaches-other-archives", "MSG-06")
class DeleteReachesOtherArchives(InMemoryMemory):
    """delete_messages_by_timestamps filters active rows by session but the archive by timestamp
    alone: archived messages of every other session with a listed timestamp go too."""

    async def delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        doomed = set(timestamps)
        for sid, stored in self._sessions.items():
            if sid != session_id:
                self._sessions[sid] = [
                    s for s in stored if not (s.archived and s.message.timestamp in doomed)
                ]
        return await super().delete_messages_by_timestamps(session_id, timestamps)


@broken("history-emptied-raises", "HIST-05")
class HistoryEmptiedRaises(InMemoryMemory):
    """get_history with a finite limit raises on a session that was cleared, where it must
    return [] (a Go backend's nil slice, sent as ``null`` where a list is due, reads so through
    the bridge). Only steps read such a session: the
    tests they block are blocked by HIST-05, which therefore fails (issue 35: a blocker is
    always a rule that failed, never "blocked by HIST-05 (pass)")."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._ever: set[str] = set()  # sessions that held a message once

    async def save_message(self, session_id: str, message: Message) -> None:
        await super().save_message(session_id, message)
        self._ever.add(session_id)

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        found = await super().get_history(session_id, limit)
        emptied = session_id in self._ever and session_id not in self._sessions
        if emptied and not found and isinstance(limit, int) and not isinstance(limit, bool) and limit > 0:
            raise RuntimeError("get_history: the history came back null where a list is due")
        return found


@broken("history-empty-raises", "HIST-05", "LIM-01", "MSG-04")
class HistoryEmptyRaises(InMemoryMemory):
    """get_history with a finite limit raises wherever it has nothing to return (a Go nil
    slice, ``null`` where a list is due): LIM-01 (limit 0 returns []) and MSG-04 (an unknown
    session reads empty) by their own tests; the hostile-input tests' snapshots of empty
    sessions are steps, blocked by HIST-05 like every other test's reads, never advisories of
    INPUT-01..07 (issue 35: one cause, one verdict class)."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        found = await super().get_history(session_id, limit)
        if not found and isinstance(limit, int) and not isinstance(limit, bool):
            raise RuntimeError("get_history: the history came back null where a list is due")
        return found
