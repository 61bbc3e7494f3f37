"""Broken stores for the gaps mutation testing found (issue 16), each caught by the rules it lists.

Every one is a bug the earlier suite let through: a store that keeps or hands out the caller's
message objects, timestamps 0 or fractions treated as special, and strict-JSON checks that stop
at the first level of lists or let a RecursionError out. The constructor-setting bugs (CFG-01,
CFG-02) are plain classes at the end: the suite always builds drivers with its own caps, so
``tests/drivers/test_reference_settings.py`` checks them directly.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import attrs

from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.inmemory import InMemoryMemory, StoredMetadata
from aalis_memory.service import Limit
from aalis_memory.types import JsonObject, Message, MetadataOp, MetadataPut, RecentMessageRecord
from aalis_memory.types import RecentMessagesAcrossSessionsQuery as Query
from broken_drivers import broken
from broken_drivers.messages import Ranging

T = TypeVar("T")

# -- isolation of messages -------------------------------------------------------------------


@broken("iso-keeps-callers-message", "ISO-01")
class KeepsCallersMessage(InMemoryMemory):
    """save_message stores the caller's Message object itself (a plain list.append)."""

    def _copy_in(self, message: Message) -> Message:
        return message


@broken("iso-shallow-copy-on-save", "ISO-01")
class ShallowCopyOnSave(InMemoryMemory):
    """save_message copies the Message but not the dicts inside it (copy.copy / attrs.evolve)."""

    def _copy_in(self, message: Message) -> Message:
        return copy.copy(message)


@broken("iso-copies-only-with-metadata", "ISO-01")
class CopiesOnlyWithMetadata(InMemoryMemory):
    """save_message copies a Message only when it has metadata (a fast path that forgot the
    dicts inside tool_calls and segments): caught since ISO-01 saves one message per part."""

    def _copy_in(self, message: Message) -> Message:
        return super()._copy_in(message) if message.metadata is not None else message


@broken("iso-reads-share-messages", "ISO-02")
class ReadsShareMessages(InMemoryMemory):
    """Reads return fresh lists of the stored Message objects themselves."""

    def _copy_out(self, value: T) -> T:
        return value


@broken("iso-cross-read-shares-messages", "ISO-02")
class CrossReadSharesMessages(InMemoryMemory):
    """Only the cross-session read forgets to copy (a hand-written fast path)."""

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        keep = sem.cross_session_filter(query)
        limit = sem.check_limit(query.limit, sem.DEFAULT_CROSS_SESSION_MAX_LIMIT, "query.limit")
        hits = [
            (sem.stamp(s.message), s.seq, RecentMessageRecord(session_id, s.message))
            for session_id, stored in self._sessions.items()
            for s in stored
            if not s.archived and keep(session_id, s.message)
        ]
        hits.sort(key=lambda hit: hit[:2])
        wanted = min(limit, self.cross_session_max_limit)
        return [record for *_, record in sem.newest(hits, wanted)]


# -- timestamps ------------------------------------------------------------------------------


@broken("ts-zero-restamped", "TS-01")
class ZeroRestamped(InMemoryMemory):
    """A falsy timestamp counts as missing (`ts || now`): a message at 0 is stamped with now.

    TS-01: a message saved at 0 "reads back with exactly that timestamp". Nothing else is broken:
    -0.25, 1.5 and every other number are kept, and the store orders, filters and deletes by the
    stamp it stored. The ordering, filter and range rules whose tests save a message at 0 (TS-02,
    TS-03, TS-06, RANGE-02) stand on TS-01 for its stamp: blocked by it, never failed. MSG-03
    (stamping a message saved without a timestamp) holds: 0 is a timestamp, not a missing one.
    The state machine names TS-01 too, as an advisory: never HIST-01 over the moved message.
    """

    async def save_message(self, session_id: str, message: Message) -> None:
        if not message.timestamp:
            message = attrs.evolve(message, timestamp=sem.now_ms())
        await super().save_message(session_id, message)


@broken("ts-sorted-as-integers", "TS-02")
class SortedAsIntegers(Ranging):
    """Range and cross-session reads sort by the integer part (an INTEGER sort key)."""

    def _order(self, message: Message) -> int | float:
        return int(sem.stamp(message))

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        records = await super().get_recent_messages_across_sessions(attrs.evolve(query, limit=math.inf))
        records.sort(key=lambda r: int(sem.stamp(r.message)))
        limit = sem.check_limit(query.limit, sem.DEFAULT_CROSS_SESSION_MAX_LIMIT, "query.limit")
        return sem.newest(records, min(limit, self.cross_session_max_limit))


@broken("ts-range-zero-unbounded", "TS-03")
class RangeZeroUnbounded(InMemoryMemory):
    """A range bound of 0 reads as no bound (`from_ts || -inf`, `to_ts || inf`).

    TS-03: "the range [0, 0] returns exactly the messages at 0". RANGE-02 holds: the messages on
    a range's ends are in it, 0 included.
    """

    async def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        return await super().get_messages_by_session_range(
            session_id, from_ts or -math.inf, to_ts or math.inf, roles, exclude_kinds
        )


@broken("ts-since-zero-ignored", "TS-03")
class SinceZeroIgnored(InMemoryMemory):
    """since_ts is applied only when truthy (`if query.since_ts:`), so since_ts=0 filters nothing.

    TS-03: "since_ts=0 keeps 0 and drops negatives". CROSS-05 holds: since_ts keeps what is on
    and after it, 0 included.
    """

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        return await super().get_recent_messages_across_sessions(
            query if query.since_ts else attrs.evolve(query, since_ts=None)
        )


@broken("ts-delete-rounds", "TS-03", "INPUT-02")
class DeleteRounds(InMemoryMemory):
    """delete_messages_by_timestamps matches round(ts), so [1.5] also deletes the message at 2.

    TS-03: "delete_messages_by_timestamps([1.5]) deletes exactly the messages at 1.5"; INPUT-02:
    "an infinite timestamp to delete matches no message" (round(inf) raises OverflowError).
    """

    async def delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        doomed = {round(ts) for ts in timestamps}
        stored = self._sessions.get(session_id, [])
        survivors = [s for s in stored if round(sem.stamp(s.message)) not in doomed]
        self._sessions[session_id] = survivors
        return len(stored) - len(survivors)


@broken("ts-filters-as-doubles", "TS-06")
class FiltersAsDoubles(InMemoryMemory):
    """Range bounds and timestamps to delete are passed on as doubles (a REAL parameter), so
    2**63 - 1 becomes 2**63 and the message at the top of the 64-bit range is never matched."""

    async def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        return await super().get_messages_by_session_range(
            session_id, float(from_ts), float(to_ts), roles, exclude_kinds
        )

    async def delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        return await super().delete_messages_by_timestamps(session_id, [float(ts) for ts in timestamps])


@broken("ts-any-stamp-stored", "INPUT-01", "INPUT-02", "INPUT-03", "HOST-04", checks_arguments=False)
class AnyStampStored(InMemoryMemory):
    """save_message checks everything but the timestamp: only a missing one is stamped, and a
    bool, NaN, an infinity, a huge integer or a string is stored as given."""

    async def save_message(self, session_id: str, message: Message) -> None:
        session = sem.check_session_id(session_id)
        checked = sem.check_message(message)
        if checked.timestamp is None:
            checked = attrs.evolve(checked, timestamp=sem.now_ms())
        sem.message_text(attrs.evolve(checked, timestamp=0))  # the rest of it is checked
        self._append(session, checked)


def _no_number(value: object) -> bool:
    return isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value)


@broken("ts-bad-bounds-match-nothing", "INPUT-01", "INPUT-02", "HOST-04", checks_arguments=False)
class BadBoundsMatchNothing(InMemoryMemory):
    """A NaN or non-numeric range bound or since_ts is compared as given, so it matches nothing:
    the read answers [] as if all were well."""

    async def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        if _no_number(from_ts) or _no_number(to_ts):
            return []
        return await super().get_messages_by_session_range(session_id, from_ts, to_ts, roles, exclude_kinds)

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        if query.since_ts is not None and _no_number(query.since_ts):
            return []
        return await super().get_recent_messages_across_sessions(query)


@broken("ts-int64-by-bit-length", "INPUT-03", checks_arguments=False)
class Int64ByBitLength(InMemoryMemory):
    """The 64-bit check of a message timestamp counts the magnitude's bits (`bit_length() > 64`),
    so 2**63 and -(2**63) - 1, one past each end of the signed range, are stored."""

    async def save_message(self, session_id: str, message: Message) -> None:
        stamp = message.timestamp if isinstance(message, Message) else None
        if (
            isinstance(stamp, int)
            and not isinstance(stamp, bool)
            and stamp.bit_length() <= 64
            and not sem.INT64_MIN <= stamp <= sem.INT64_MAX
        ):
            checked = sem.check_message(message)
            sem.message_text(attrs.evolve(checked, timestamp=0))  # the rest of it is checked
            self._append(sem.check_session_id(session_id), checked)
            return
        await super().save_message(session_id, message)


def _listed(values: Any) -> Any:
    """What a check that refuses only a lone str lets through: any other iterable, as a list."""
    return list(values) if isinstance(values, bytes | Mapping) else values


@broken("lists-take-any-iterable", "HOST-04", checks_arguments=False)
class ListsTakeAnyIterable(InMemoryMemory):
    """The list arguments refuse a lone str but iterate anything else: timestamps given as a
    dict delete at its keys, as bytes at their byte values, and roles given as a dict filter by
    its keys; a dict of operations commits its keys."""

    async def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        return await super().get_messages_by_session_range(
            session_id, from_ts, to_ts, _listed(roles), _listed(exclude_kinds)
        )

    async def delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        return await super().delete_messages_by_timestamps(session_id, _listed(timestamps))

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        await super().commit_metadata(_listed(ops))


@broken("message-fields-unchecked", "HOST-04", checks_arguments=False)
class MessageFieldsUnchecked(InMemoryMemory):
    """save_message checks that it got a Message, but not the types of its fields: a dict as
    role, a number as name or a non-string image is stored as given."""

    async def save_message(self, session_id: str, message: Message) -> None:
        if not isinstance(message, Message):
            raise TypeError(f"message must be a Message, got {type(message).__name__}")
        session = sem.check_session_id(session_id)
        if message.timestamp is None:
            message = attrs.evolve(message, timestamp=sem.now_ms())
        sem.check_timestamp(message.timestamp, "message.timestamp", finite=True)
        sem.message_text(message)
        self._append(session, message)


# -- strict JSON -----------------------------------------------------------------------------
#: These break META-08, which the state machine covers, but its generated payloads are sets, NaN
#: and bytes only: tests/proofs/test_state_machine_catches_broken.py lists them as such. Each encodes the
#: whole batch before writing, so a batch it refuses applies nothing (COMMIT-04 holds).


def _keys_checked_one_level(data: JsonObject, what: str) -> str:
    """Strict JSON whose key check looks into nested dicts but not into lists."""

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise TypeError(f"{what}: object key {key!r} is not a string")
                walk(item)

    try:
        text = json.dumps(data, allow_nan=False)
    except RecursionError as exc:
        raise ValueError(f"{what}: too deep to serialize") from exc
    walk(data)
    return text


class _Encoding(InMemoryMemory):
    """commit_metadata (and so save_metadata) with a replaceable payload encoder."""

    def encode(self, data: JsonObject, what: str) -> str:
        return sem.encode_json(data, what)

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        texts = [self.encode(op.data, op.key) if isinstance(op, MetadataPut) else None for op in ops]
        for op, text in zip(ops, texts, strict=True):
            if text is None:
                await super().commit_metadata([op])
            else:
                space = self._metadata.setdefault(op.namespace, {})
                previous = space.get(op.key)
                stamp = sem.next_updated_at(None if previous is None else previous.updated_at)
                space[op.key] = StoredMetadata(text, stamp)


@broken("json-list-keys-unchecked", "META-08", "INPUT-04")
class ListKeysUnchecked(_Encoding):
    """The non-string-key check does not descend into lists, so {'a': [{1: 'x'}]} is stored
    with the key turned into '1'."""

    def encode(self, data: JsonObject, what: str) -> str:
        return _keys_checked_one_level(data, what)


@broken("json-recursion-error", "META-08", "INPUT-07")
class RecursionErrorLeaks(_Encoding):
    """A too-deeply nested payload lets json's RecursionError out instead of the contract's
    TypeError/ValueError (the encoder runs before the nesting check)."""

    def encode(self, data: JsonObject, what: str) -> str:
        json.dumps(data)  # raises RecursionError past the interpreter's recursion limit
        return sem.encode_json(data, what)


# -- edges of existing rules ------------------------------------------------------------------
#: LIM-06 and ARCH-11 are covered by the state machine, but its bad values are other ones:
#: tests/proofs/test_state_machine_catches_broken.py lists these two as out of its reach.


@broken("limit-bool-is-one", "LIM-06")
class LimitBoolIsOne(InMemoryMemory):
    """Limits are checked with isinstance(limit, int), so True reads as 1 and False as 0."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return await super().get_history(session_id, int(limit) if isinstance(limit, bool) else limit)

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        limit = int(limit) if isinstance(limit, bool) else limit
        return await super().get_full_history(session_id, limit)


def _sql_int64(limit: Limit) -> None:
    """What sqlite3 does with a Python int past 64 bits given as a parameter."""
    if isinstance(limit, int) and not isinstance(limit, bool) and limit > sem.INT64_MAX:
        raise OverflowError("Python int too large to convert to SQLite INTEGER")


@broken("limit-past-int64-overflows", "LIM-07")
class LimitPastInt64Overflows(InMemoryMemory):
    """Only math.inf is mapped to "no LIMIT": a finite limit of 2**63 or more reaches a 64-bit SQL
    parameter as it is and raises OverflowError."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        _sql_int64(limit)
        return await super().get_history(session_id, limit)

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        _sql_int64(limit)
        return await super().get_full_history(session_id, limit)

    async def update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int:
        _sql_int64(recent_limit)
        return await super().update_message_content(session_id, old_text, new_text, recent_limit)


@broken("archive-count-inf-is-all", "ARCH-11")
class ArchiveCountInfIsAll(InMemoryMemory):
    """archive_span reads a count of math.inf as "the whole active history"."""

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        if count == math.inf:
            count = len(self._active(session_id))
        return await super().archive_span(session_id, count, keep)


@broken("meta-updated-at-counter", "META-05")
class UpdatedAtCounter(InMemoryMemory):
    """An overwrite is stamped previous + 1 (a version counter), not with the time of the write."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        before = {(ns, key): m.updated_at for ns, space in self._metadata.items() for key, m in space.items()}
        await super().commit_metadata(ops)
        for (ns, key), stamp in before.items():
            meta = self._metadata.get(ns, {}).get(key)
            if meta is not None and meta.updated_at != stamp:
                meta.updated_at = stamp + 1


# -- constructor settings (not registered: see tests/drivers/test_reference_settings.py) ------------


class SmallDefaultCaps(InMemoryMemory):
    """Defaults of 100 and 200 instead of 500 and 1000 (CFG-01)."""

    def __init__(self, *, range_query_limit: int = 100, cross_session_max_limit: int = 200) -> None:
        super().__init__(range_query_limit=range_query_limit, cross_session_max_limit=cross_session_max_limit)


class TrustsCaps(InMemoryMemory):
    """Takes any cap as given: 0 cuts every read to nothing, True means 1 (CFG-02)."""

    def __init__(self, *, range_query_limit: Any = 500, cross_session_max_limit: Any = 1000) -> None:
        super().__init__()
        self.range_query_limit = range_query_limit
        self.cross_session_max_limit = cross_session_max_limit
