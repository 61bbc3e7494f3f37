"""The executable model of the MemoryService contract: what every call must return, in plain Python.

The state machine (:mod:`aalis_memory.conformance.machine`) runs each generated call on the
driver and on :class:`ContractModel` and compares the results. Pure and synchronous on purpose:
no I/O, no indexes, no shared helpers with the reference drivers (it must not import
``aalis_memory.drivers``), so a bug in the drivers' shared logic cannot hide in the model too.
Every branch names the catalogue rule it implements. Messages are copied once, when saved; reads
hand out the stored (frozen) messages, which callers must not mutate. Time is injected
(``clock``): the machine feeds the model the stamp it observed, so comparisons stay exact.
Timestamps are any real numbers of epoch ms (0, negative and fractional ones included).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal

import attrs

from aalis_memory import defaults
from aalis_memory.conformance.machine.copies import copied
from aalis_memory.types import (
    CONTROL_KINDS,
    JsonObject,
    Message,
    MetadataEntry,
    MetadataOp,
    MetadataPut,
    RecentMessageRecord,
    RecentMessagesAcrossSessionsQuery,
)

#: The documented defaults of omitted limits (LIM-05) and the roles a cross-session read keeps
#: when the query names none (CROSS-03), under the model's names.
HISTORY_DEFAULT: Final = defaults.DEFAULT_HISTORY_LIMIT
FULL_HISTORY_DEFAULT: Final = defaults.DEFAULT_FULL_HISTORY_LIMIT
UPDATE_DEFAULT: Final = defaults.DEFAULT_UPDATE_RECENT_LIMIT
CROSS_DEFAULT_ROLES: Final = defaults.DEFAULT_CROSS_SESSION_ROLES

Ordering = Literal["timestamp", "write"]


def effective_limit(limit: object, default: int) -> int | float:
    """LIM-05: ``None`` is the default; LIM-06: anything but a non-negative int or inf raises."""
    if limit is None:
        return default  # LIM-05
    if isinstance(limit, bool) or not isinstance(limit, int | float):
        raise ValueError(f"limit must be a non-negative integer or math.inf, got {limit!r}")  # LIM-06
    if limit == math.inf:
        return math.inf  # LIM-02
    if math.isnan(limit) or limit < 0 or limit != int(limit):
        raise ValueError(f"limit must be a non-negative integer or math.inf, got {limit!r}")  # LIM-06
    return int(limit)


def take_newest(items: Sequence[Any], limit: int | float) -> list[Any]:
    """The last ``limit`` items, in their order (every item counts)."""
    if limit == 0:
        return []  # LIM-01
    if limit == math.inf:
        return list(items)  # LIM-02
    start = max(0, len(items) - int(limit))
    return list(items[start:])


def history_window(active: Sequence[Message], limit: int | float) -> list[Message]:
    """HIST-03/04/05: walk back over conversation messages only; control records ride along."""
    if limit == 0:
        return []  # LIM-01
    conversation_seen = 0
    result: list[Message] = []
    for message in reversed(active):
        if message.kind not in CONTROL_KINDS:
            conversation_seen += 1
            if conversation_seen > limit:
                break  # HIST-04: stop at the (limit+1)-th newest conversation message
        result.append(message)
    result.reverse()
    return result  # HIST-05 when the loop never broke: the whole active history


def check_position(value: object, what: str) -> int:
    """ARCH-11: a count or keep position is a non-negative integer (not inf, NaN, 1.5, "2")."""
    try:
        effective = effective_limit(value, -1)  # None maps to -1: no default for a position
    except ValueError:
        effective = -1
    if effective == math.inf or effective < 0:
        raise ValueError(f"{what} must be a non-negative integer, got {value!r}")  # ARCH-11
    return int(effective)


def archived_positions(active_count: int, count: int, keep: Sequence[int]) -> list[int]:
    """ARCH-01..07: positions of the span that get archived, given positions to keep."""
    span = min(count, active_count)  # ARCH-04 (count 0) and ARCH-05 (count above active)
    return [p for p in range(span) if p not in keep]  # ARCH-02; ARCH-06: outside/duplicates inert


@attrs.define
class _Row:
    """One stored message with its write sequence number (the tie-breaker of every order)."""

    message: Message
    seq: int
    archived: bool = False


@attrs.define
class _Meta:
    text: str
    updated_at: int
    #: Store-wide put number of the write that created this entry, and of the latest write:
    #: callers check META-05 (updated_at grows on overwrite) by these, not by clock values.
    created: int
    version: int


@attrs.frozen
class ModelEntry:
    """A listed metadata entry plus the write count the machine compares ``updated_at`` by."""

    entry: MetadataEntry
    created: int
    version: int


def _message_key(row: _Row, ordering: Ordering) -> tuple[Any, ...]:
    # HIST-02: write-ordered drivers keep plain write order; timestamp-ordered drivers order by
    # timestamp and break same-millisecond ties by write order.
    if ordering == "write":
        return (row.seq,)
    return (row.message.timestamp, row.seq)


def _encode(data: object, where: str) -> str:
    """META-08: a payload must be a dict expressible as strict JSON."""
    if not isinstance(data, dict):
        raise TypeError(f"{where}: metadata data must be a dict, got {type(data).__name__}")
    return json.dumps(data, allow_nan=False, sort_keys=False)  # raises TypeError/ValueError


class ContractModel:
    """The reference semantics of one store; methods mirror the contract, synchronously."""

    def __init__(
        self,
        *,
        ordering: Ordering,
        range_query_limit: int,
        cross_session_max_limit: int,
        clock: Callable[[], int],
    ) -> None:
        self.ordering: Ordering = ordering
        self.range_query_limit = range_query_limit
        self.cross_session_max_limit = cross_session_max_limit
        self.clock = clock
        self._sessions: dict[str, list[_Row]] = {}
        self._metadata: dict[str, dict[str, _Meta]] = {}
        #: Keys of entries planted unreadable in raw storage (not JSON, not an object).
        self._unreadable: dict[str, set[str]] = {}
        self._seq = 0
        self._puts = 0

    # -- messages -------------------------------------------------------------------------

    def _ordered(self, session_id: str) -> list[_Row]:
        rows = self._sessions.get(session_id, [])  # MSG-04: unknown sessions are empty
        return sorted(rows, key=lambda r: _message_key(r, self.ordering))

    def _active(self, session_id: str) -> list[_Row]:
        return [r for r in self._ordered(session_id) if not r.archived]  # HIST-01

    def save_message(self, session_id: str, message: Message) -> Message:
        """Store ``message``; returns it as stored (MSG-03: a missing timestamp is stamped)."""
        if not isinstance(message, Message):
            raise TypeError("message must be a Message")
        if message.timestamp is None:
            message = attrs.evolve(message, timestamp=self.clock())  # MSG-03
        self._seq += 1
        # MSG-01: rows live under their session id only; MSG-02: the message is kept whole.
        self._sessions.setdefault(session_id, []).append(_Row(copied(message), self._seq))
        return message

    def get_history(self, session_id: str, limit: object = None) -> list[Message]:
        effective = effective_limit(limit, HISTORY_DEFAULT)
        active = [r.message for r in self._active(session_id)]  # HIST-01, HIST-02
        return history_window(active, effective)  # HIST-03/04/05, LIM-01/02

    def count_history(self, session_id: str) -> int:
        # COUNT-01: active conversation messages, control records excluded.
        return sum(1 for r in self._active(session_id) if r.message.kind not in CONTROL_KINDS)

    def get_full_history(self, session_id: str, limit: object = None) -> list[Message]:
        effective = effective_limit(limit, FULL_HISTORY_DEFAULT)
        every = [r.message for r in self._ordered(session_id)]  # FULL-01: archived included
        return take_newest(every, effective)  # FULL-02: control records count

    def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        count = check_position(count, "count")  # ARCH-11: checked before anything changes
        keep = [check_position(k, "keep position") for k in keep]
        active = self._active(session_id)  # ARCH-03/ARCH-08: positions in the active history now
        positions = archived_positions(len(active), count, keep)
        for position in positions:
            active[position].archived = True  # ARCH-09: archived rows stay for full history
        return len(positions)  # ARCH-07

    def clear_session(self, session_id: str) -> None:
        self._sessions.pop(session_id, None)  # CLEAR-01/02: archived rows too, metadata untouched

    def clear_all(self) -> None:
        self._sessions.clear()  # CLEAR-03; CLEAR-04: metadata untouched

    def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: float,
        to_ts: float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        hits = self.session_range_hits(session_id, from_ts, to_ts, roles, exclude_kinds)
        # RANGE-01/RANGE-03: silently cut to the cap, keeping the earliest.
        return hits[: self.range_query_limit]

    def session_range_hits(
        self,
        session_id: str,
        from_ts: float,
        to_ts: float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        """Every message a range read matches, before the cap."""
        hits: list[_Row] = []
        for row in self._sessions.get(session_id, []):  # RANGE-02: archived rows included
            message = row.message
            ts = message.timestamp
            if ts is None or not from_ts <= ts <= to_ts:
                continue  # RANGE-02: inclusive bounds
            if roles is not None and message.role not in roles:
                continue  # RANGE-04: roles is a whitelist
            if message.kind is not None and exclude_kinds and message.kind in exclude_kinds:
                continue  # RANGE-04: excluded kinds dropped, kind-less messages kept
            hits.append(row)
        # RANGE-03: ascending by timestamp, same millisecond in write order, in every tier.
        hits.sort(key=lambda r: (r.message.timestamp, r.seq))
        return [r.message for r in hits]

    def cross_session_candidates(
        self, query: RecentMessagesAcrossSessionsQuery
    ) -> tuple[list[RecentMessageRecord], int | float]:
        """Every record the query's filters keep (ascending by timestamp) and how many to return.

        A read returns the newest ``wanted`` of them; which of several same-millisecond records at
        the cut is picked is not specified, so callers compare with :func:`cross_session_accepts`.
        """
        limit = effective_limit(query.limit, self.cross_session_max_limit)
        wanted = min(limit, self.cross_session_max_limit)  # CROSS-01, LIM-04
        hits: list[tuple[int | float, int, RecentMessageRecord]] = []
        for session_id, rows in self._sessions.items():
            for row in rows:
                if cross_session_rejections(query, session_id, row.message, row.archived):
                    continue
                ts = row.message.timestamp if row.message.timestamp is not None else 0
                hits.append((ts, row.seq, RecentMessageRecord(session_id, row.message)))
        hits.sort(key=lambda h: (h[0], h[1]))
        return [h[2] for h in hits], wanted

    def stored_message(self, session_id: str, content: str | None) -> tuple[Message, bool] | None:
        """The stored message of ``session_id`` with this content, and whether it is archived."""
        for row in self._sessions.get(session_id, []):
            if row.message.content == content:
                return row.message, row.archived
        return None

    def get_recent_messages_across_sessions(
        self, query: RecentMessagesAcrossSessionsQuery
    ) -> list[RecentMessageRecord]:
        """One acceptable answer: the newest ``wanted`` candidates, ascending (CROSS-02)."""
        candidates, wanted = self.cross_session_candidates(query)
        return take_newest(candidates, wanted)  # LIM-01: limit 0 returns []

    def update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: object = None
    ) -> int:
        if not isinstance(old_text, str) or old_text == "":
            raise ValueError("old_text must be a non-empty string")  # UPD-03
        effective = effective_limit(recent_limit, UPDATE_DEFAULT)
        window = take_newest(self._active(session_id), effective)  # UPD-01, LIM-03
        changed = 0
        for row in window:
            content = row.message.content
            # UPD-02: strings only, and a rewrite to the same text changes (and counts) nothing.
            if isinstance(content, str) and old_text in content and new_text != old_text:
                # UPD-02: every occurrence, case-sensitive; the timestamp is kept.
                row.message = attrs.evolve(row.message, content=content.replace(old_text, new_text))
                changed += 1
        return changed

    def delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        rows = self._sessions.get(session_id)
        if rows is None:
            return 0  # DEL-02 / MSG-04
        doomed = set(timestamps)
        survivors = [r for r in rows if r.message.timestamp not in doomed]  # DEL-01: archived too
        self._sessions[session_id] = survivors
        return len(rows) - len(survivors)  # DEL-01; DEL-02: empty list deletes nothing

    def stored_timestamps(self, session_id: str) -> list[int | float]:
        """Timestamps of the session's messages (for generating deletions that hit)."""
        return [
            r.message.timestamp for r in self._sessions.get(session_id, []) if r.message.timestamp is not None
        ]

    def has_archived(self, session_id: str) -> bool:
        """Whether the session holds archived messages (reads that must skip or keep them)."""
        return any(r.archived for r in self._sessions.get(session_id, []))

    def holds_messages(self, session_id: str) -> bool:
        """Whether the session holds any message, active or archived (else it reads as unknown)."""
        return bool(self._sessions.get(session_id))

    def archived_contents(self, session_id: str) -> set[str | None]:
        """Contents of the session's archived messages (contents are unique in the machine)."""
        return {r.message.content for r in self._sessions.get(session_id, []) if r.archived}

    def is_archived_content(self, session_id: str, content: str | None) -> bool:
        """Whether a message with this content is stored archived (for diagnosing failures)."""
        return any(r.archived and r.message.content == content for r in self._sessions.get(session_id, []))

    # -- metadata -------------------------------------------------------------------------

    def save_metadata(self, namespace: str, key: str, data: JsonObject) -> None:
        self.commit_metadata([MetadataPut(namespace, key, data)])  # META-01, META-08

    def get_metadata(self, namespace: str, key: str) -> JsonObject | None:
        _check_key(namespace, key)
        stored = self._metadata.get(namespace, {}).get(key)
        if stored is None:
            return None  # META-01: a missing key reads as None
        value: JsonObject = json.loads(stored.text)  # META-06/07: a fresh JSON round trip
        return value

    def list_metadata_versions(self, namespace: str) -> list[ModelEntry]:
        """META-02/04: the namespace's entries sorted by key, with their put counts."""
        return [
            ModelEntry(
                MetadataEntry(key=k, data=json.loads(m.text), updated_at=m.updated_at), m.created, m.version
            )
            for k, m in sorted(self._metadata.get(namespace, {}).items())
        ]

    def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        return [e.entry for e in self.list_metadata_versions(namespace)]

    def list_metadata_keys(self, namespace: str) -> list[str]:
        # META-10: unreadable entries are keys too.
        return sorted({*self._metadata.get(namespace, {}), *self.unreadable_keys(namespace)})

    def holds_metadata(self) -> bool:
        """Whether any namespace holds an entry (a clear must leave it alone)."""
        return any(self._metadata.values()) or any(self._unreadable.values())

    def unreadable_keys(self, namespace: str) -> set[str]:
        return set(self._unreadable.get(namespace, ()))

    def plant_unreadable(self, namespace: str, key: str) -> None:
        """An entry written around the API that no read can decode (replacing any entry)."""
        self._metadata.get(namespace, {}).pop(key, None)
        self._unreadable.setdefault(namespace, set()).add(key)

    def delete_metadata(self, namespace: str, key: str) -> None:
        _check_key(namespace, key)
        self._metadata.get(namespace, {}).pop(key, None)  # META-03; META-11: missing key is a no-op
        self._unreadable.get(namespace, set()).discard(key)

    def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        # Validate the whole batch before applying anything, in every tier: a refused batch
        # applies nothing (COMMIT-04 for the atomic tier, COMMIT-07 for the ordered one), a
        # refused payload is META-08's.
        encoded: list[tuple[MetadataOp, str | None]] = []
        for index, op in enumerate(ops):
            _check_key(op.namespace, op.key)
            text = _encode(op.data, f"op {index}") if isinstance(op, MetadataPut) else None
            encoded.append((op, text))
        for op, text in encoded:  # COMMIT-01: in order, later ops win; COMMIT-02: any namespace
            space = self._metadata.setdefault(op.namespace, {})
            self._unreadable.get(op.namespace, set()).discard(op.key)  # COMMIT-06: even unreadable
            if text is None:
                space.pop(op.key, None)  # COMMIT-03: deleting a missing key is ignored
                continue
            previous = space.get(op.key)
            now = self.clock()
            self._puts += 1
            if previous is None:
                space[op.key] = _Meta(text, now, self._puts, self._puts)
            else:
                # META-05: updated_at grows on every overwrite, even within one millisecond.
                stamp = max(now, previous.updated_at + 1)
                space[op.key] = _Meta(text, stamp, previous.created, self._puts)


def _check_key(namespace: object, key: object) -> None:
    if not isinstance(namespace, str) or not isinstance(key, str):
        raise TypeError("namespace and key must be str")


def cross_session_rejections(
    query: RecentMessagesAcrossSessionsQuery, session_id: str, message: Message, archived: bool
) -> list[str]:
    """The rules whose part of a cross-session read drops this stored message (none: it is a
    candidate). Also names the filter a driver failed to apply when it returned the message."""
    rules: list[str] = []
    if archived:
        rules.append("CROSS-02")  # active messages only
    if query.exclude_session_ids and session_id in query.exclude_session_ids:
        rules.append("CROSS-05")  # excluded sessions
    roles = CROSS_DEFAULT_ROLES if query.roles is None else query.roles
    if message.role not in roles:
        rules.append("CROSS-03")  # roles whitelist, user and assistant by default
    if query.kinds is not None and message.kind not in query.kinds:
        rules.append("CROSS-04")  # kinds whitelist drops kind-less messages
    if query.exclude_kinds and message.kind in query.exclude_kinds:
        rules.append("CROSS-04")  # exclude_kinds wins, kind-less (None) kept
    ts = message.timestamp if message.timestamp is not None else 0
    if query.since_ts is not None and ts < query.since_ts:
        rules.append("CROSS-05")  # since_ts is inclusive
    platform = (message.metadata or {}).get("platform")
    if query.platform is not None and platform != query.platform:
        rules.append("CROSS-05")  # platform equals metadata["platform"]
    return rules


def cross_session_accepts(
    candidates: Sequence[RecentMessageRecord],
    wanted: int | float,
    actual: Sequence[RecentMessageRecord],
) -> str | None:
    """Why ``actual`` is not a valid newest-``wanted`` answer, or ``None`` when it is.

    Exact except for ties: at the oldest timestamp of the answer any of the same-millisecond
    candidates may have been picked (CROSS-02 orders by timestamp only).
    """
    expected_len = len(candidates) if wanted >= len(candidates) else int(wanted)
    if len(actual) != expected_len:
        return f"expected {expected_len} records, got {len(actual)}"  # LIM-01, CROSS-01/02
    stamps = [_ts(r) for r in actual]
    if stamps != sorted(stamps):
        return "records are not ascending by timestamp"  # CROSS-02
    pool = list(candidates)
    for record in actual:
        if record not in pool:
            return f"record {record!r} is not a candidate (or appears too often)"  # CROSS-03..05
        pool.remove(record)
    if actual:
        cut = stamps[0]
        newer_left = [r for r in pool if _ts(r) > cut]
        if newer_left:
            return f"newer record {newer_left[0]!r} left out"  # CROSS-02: the newest N
    return None


def _ts(record: RecentMessageRecord) -> int | float:
    return record.message.timestamp if record.message.timestamp is not None else 0
