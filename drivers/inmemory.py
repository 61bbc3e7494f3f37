"""The in-memory reference driver: write ordering, all-or-nothing batches, deep copies in and out.

Nothing here awaits between reading and writing its dictionaries, so every call is atomic with
respect to other tasks on the same event loop.

Extension points: a subclass (the kit's deliberately broken drivers are subclasses) may rely on
the record classes :class:`StoredMessage` and :class:`StoredMetadata` and on the protected members
listed in :class:`InMemoryMemory`'s docstring. Everything else is private and may change.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Any, Final, Self, TypeVar, cast

import attrs

from aalis_memory.drivers import semantics as sem
from aalis_memory.service import Limit
from aalis_memory.types import (
    Absent,
    JsonObject,
    Message,
    MetadataEntry,
    MetadataOp,
    MetadataPut,
    RecentMessageRecord,
    RecentMessagesAcrossSessionsQuery,
)

T = TypeVar("T")

#: Replaced whenever a record's ``message`` or ``archived`` is set by code outside this module's
#: bookkeeping (a subclass editing records in place): every cached count is then recomputed.
_edit_epoch: object = object()


def fresh(value: T) -> T:
    """A deep copy of JSON values, tuples and attrs records (messages, entries), sharing nothing
    mutable with the original. ``copy.deepcopy`` gives the same result at several times the cost
    (its memo and ``__reduce_ex__``), and the in-memory driver copies on every call. A value of
    any other type raises TypeError: the store's own validation never lets one in."""
    return cast(T, _fresh(value))


#: Values nothing can change, by their exact type: an item of one is shared without a call.
_ATOMS: Final = frozenset({type(None), str, int, float, bool, Absent})


@functools.cache
def _field_names(kind: type) -> tuple[str, ...]:
    """An attrs class's field names (``attrs.fields`` at every copy took half of what sharing
    the immutable items saved)."""
    return tuple(field.name for field in attrs.fields(kind))


def _fresh(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float, Absent)):
        return value  # immutable (bool is an int)
    if type(value) is Message and _immutable(value):
        return value  # frozen, and nothing inside it can change: sharing it shares nothing
    if isinstance(value, dict):
        return {key: item if type(item) in _ATOMS else _fresh(item) for key, item in value.items()}
    if isinstance(value, list):
        return [item if type(item) in _ATOMS else _fresh(item) for item in value]
    if isinstance(value, tuple):
        return tuple([item if type(item) in _ATOMS else _fresh(item) for item in value])
    kind = type(value)
    if attrs.has(kind):
        out = object.__new__(kind)
        for name in _field_names(kind):
            item = getattr(value, name)
            object.__setattr__(out, name, item if type(item) in _ATOMS else _fresh(item))
        return out
    raise TypeError(f"the in-memory store holds no {kind.__name__} values")


def _immutable(message: Message) -> bool:
    """Whether nothing inside ``message`` can be changed: no dicts (tool calls, segments,
    metadata) and media lists of strings only (the Message keeps them as tuples)."""
    if message.tool_calls is not None or message.segments is not None:
        return False
    if message.metadata is not None:
        return False
    return all(
        media is None or (type(media) is tuple and all(type(x) is str for x in media))
        for media in (message.images, message.audios)
    )


def _edited(_record: object, _attribute: attrs.Attribute[T], value: T) -> T:
    global _edit_epoch
    _edit_epoch = object()  # a new token: no count cached before this edit holds any more
    return value


@attrs.define
class StoredMessage:
    """A saved message as the store keeps it (extension point)."""

    #: The store's own copy: nobody outside the store holds a reference to it.
    message: Message = attrs.field(on_setattr=_edited)
    #: Store-wide write order, the tie-break between sessions at the same millisecond.
    seq: int
    archived: bool = attrs.field(default=False, on_setattr=_edited)


def _set(record: StoredMessage, name: str, value: object) -> None:
    """Edit a record as the store's own bookkeeping does (the counts are kept up to date)."""
    object.__setattr__(record, name, value)


@attrs.frozen(eq=False)
class _Count:
    """A session's active conversation count, valid while its list, the list's length and the
    edit epoch are the ones it was computed for (so a subclass that replaces, grows or edits a
    session behind the store's back never reads a stale count)."""

    records: list[StoredMessage]
    length: int
    epoch: object
    value: int

    def holds_for(self, records: list[StoredMessage]) -> bool:
        return self.records is records and self.length == len(records) and self.epoch == _edit_epoch


@attrs.define
class StoredMetadata:
    """A metadata entry as the store keeps it (extension point): its JSON text, so that the
    stored data can never be shared with a caller, and may be unreadable (raw access)."""

    text: str
    #: Epoch milliseconds of the last write.
    updated_at: int


class InMemoryMemory:
    """A complete MemoryService kept in Python dictionaries (for tests and embedded hosts).

    Protected members a subclass may use or override (the only ones promised to stay):

    - ``_sessions``: session id -> its :class:`StoredMessage` records in write order, archived
      ones included; ``_metadata``: namespace -> key -> :class:`StoredMetadata`.
    - ``_active(session_id)``: the session's active records in history order.
    - ``_append(session_id, message)``: store a message as given (no validation, no stamping).
    - ``_newest_across_sessions(wanted, keep)``: the cross-session selection, with the filter
      (``keep(session_id, record)``, archived records included) and the cap replaceable.
    - ``_copy_in(message)`` / ``_copy_out(value)``: the isolation copies made when a message is
      saved and when anything is read.
    - ``_metadata_clock()``: the epoch ms reading a metadata write is stamped from (a server's
      own clock, in a subclass that plays one).

    Reads whose answer does not grow with the session (``get_history(s, n)``,
    ``count_history``, ``archive_span(s, n)``) touch only the records they return: the count is
    cached per session and kept up to date by the store's own writes; a subclass that edits
    records or replaces a session's list makes the next count a full recount.
    """

    def __init__(
        self,
        *,
        range_query_limit: int = sem.DEFAULT_RANGE_QUERY_LIMIT,
        cross_session_max_limit: int = sem.DEFAULT_CROSS_SESSION_MAX_LIMIT,
    ) -> None:
        self.range_query_limit = sem.check_cap(range_query_limit, "range_query_limit")
        self.cross_session_max_limit = sem.check_cap(cross_session_max_limit, "cross_session_max_limit")
        self._sessions: dict[str, list[StoredMessage]] = {}
        self._metadata: dict[str, dict[str, StoredMetadata]] = {}
        self._writes = itertools.count()
        #: Cached active conversation counts (count_history in constant time).
        self._counts: dict[str, _Count] = {}

    async def close(self) -> None:
        """Nothing to release; present so every reference driver closes the same way."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- messages -------------------------------------------------------------------------

    def _active(self, session_id: str) -> list[StoredMessage]:
        return [s for s in self._sessions.get(session_id, ()) if not s.archived]

    def _append(self, session_id: str, message: Message) -> None:
        records = self._sessions.setdefault(session_id, [])
        cached = self._counts.get(session_id)
        stored = StoredMessage(self._copy_in(message), next(self._writes))
        records.append(stored)
        if (
            cached is not None
            and cached.records is records
            and cached.length == len(records) - 1
            and cached.epoch == _edit_epoch
        ):
            self._counts[session_id] = _Count(
                records, len(records), _edit_epoch, cached.value + (not stored.message.is_control)
            )

    def _active_tail(self, session_id: str, limit: int | float) -> list[Message]:
        """The active messages from the (limit+1)-th newest conversation message on (or all of
        them), read from the end: the only ones ``history_window`` can return."""
        tail: list[Message] = []
        if limit == 0:
            return tail
        seen = 0
        for stored in reversed(self._sessions.get(session_id, ())):
            if stored.archived:
                continue
            tail.append(stored.message)
            if not stored.message.is_control:
                seen += 1
                if seen > limit:
                    break
        tail.reverse()
        return tail

    def _active_head(self, session_id: str, count: int) -> list[StoredMessage]:
        """The first ``count`` active records in history order: all ``archive_span`` can touch."""
        head: list[StoredMessage] = []
        if count == 0:
            return head
        for stored in self._sessions.get(session_id, ()):
            if not stored.archived:
                head.append(stored)
                if len(head) >= count:
                    break
        return head

    def _copy_in(self, message: Message) -> Message:
        """The caller keeps its Message and the dicts inside it: store a deep copy."""
        return fresh(message)

    def _copy_out(self, value: T) -> T:
        """Whatever a read returns is the caller's to mutate: hand out deep copies."""
        return fresh(value)

    async def save_message(self, session_id: str, message: Message) -> None:
        session_id, message, _ = sem.prepare_message(session_id, message)
        self._append(session_id, message)

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        session_id = sem.check_session_id(session_id)
        effective = sem.check_limit(limit, sem.DEFAULT_HISTORY_LIMIT, "limit")
        return self._copy_out(sem.history_window(self._active_tail(session_id, effective), effective))

    async def count_history(self, session_id: str) -> int:
        session_id = sem.check_session_id(session_id)
        records = self._sessions.get(session_id)
        if records is None:
            return 0
        cached = self._counts.get(session_id)
        if cached is None or not cached.holds_for(records):
            value = sem.count_conversation(s.message for s in records if not s.archived)
            cached = self._counts[session_id] = _Count(records, len(records), _edit_epoch, value)
        return cached.value

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        session_id = sem.check_session_id(session_id)
        effective = sem.check_limit(limit, sem.DEFAULT_FULL_HISTORY_LIMIT, "limit")
        every = [s.message for s in self._sessions.get(session_id, ())]
        return self._copy_out(sem.newest(every, effective))

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        session_id = sem.check_session_id(session_id)
        span = sem.check_count(count)
        kept = sem.check_keep(keep)
        records = self._sessions.get(session_id, [])
        cached = self._counts.get(session_id)
        valid = cached is not None and cached.holds_for(records)
        head = self._active_head(session_id, span)  # min(span, len(active)) records
        positions = sem.archive_positions(len(head), span, kept)
        for position in positions:
            _set(head[position], "archived", True)
        if cached is not None and valid:
            archived = sum(1 for p in positions if not head[p].message.is_control)
            self._counts[session_id] = attrs.evolve(cached, value=cached.value - archived)
        return len(positions)

    async def clear_session(self, session_id: str) -> None:
        session_id = sem.check_session_id(session_id)
        self._sessions.pop(session_id, None)
        self._counts.pop(session_id, None)

    async def clear_all(self) -> None:
        self._sessions.clear()
        self._counts.clear()

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
        keep = sem.range_filter(from_ts, to_ts, roles, exclude_kinds)
        hits = [s.message for s in self._sessions.get(session_id, ()) if keep(s.message)]
        hits.sort(key=sem.stamp)  # stable: same-ms keep write order
        return self._copy_out(hits[: self.range_query_limit])

    async def get_recent_messages_across_sessions(
        self, query: RecentMessagesAcrossSessionsQuery
    ) -> list[RecentMessageRecord]:
        query = sem.check_query(query)
        limit = sem.check_limit(query.limit, sem.DEFAULT_CROSS_SESSION_MAX_LIMIT, "query.limit")
        wanted = min(limit, self.cross_session_max_limit)
        matches = sem.cross_session_filter(query)
        return self._newest_across_sessions(
            wanted, lambda session_id, s: not s.archived and matches(session_id, s.message)
        )

    def _newest_across_sessions(
        self, wanted: int | float, keep: Callable[[str, StoredMessage], bool]
    ) -> list[RecentMessageRecord]:
        """The newest ``wanted`` records passing ``keep``: by timestamp, then store-wide write
        order, returned ascending."""
        hits = [
            (sem.stamp(s.message), s.seq, RecentMessageRecord(session_id, s.message))
            for session_id, stored in self._sessions.items()
            for s in stored
            if keep(session_id, s)
        ]
        hits.sort(key=lambda hit: (hit[0], hit[1]))  # seq is unique: records never compared
        return self._copy_out([record for *_, record in sem.newest(hits, wanted)])

    async def update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int:
        session_id = sem.check_session_id(session_id)
        old_text, new_text = sem.check_rewrite(old_text, new_text)
        effective = sem.check_limit(recent_limit, sem.DEFAULT_UPDATE_RECENT_LIMIT, "recent_limit")
        changed = 0
        for stored in sem.newest(self._active(session_id), effective):
            rewritten = sem.rewrite_content(stored.message, old_text, new_text)
            if rewritten is not None:
                _set(stored, "message", rewritten)  # content only: no count changes
                changed += 1
        return changed

    async def delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        session_id = sem.check_session_id(session_id)
        doomed = set(sem.check_timestamps(timestamps))
        stored = self._sessions.get(session_id, [])
        survivors = [s for s in stored if s.message.timestamp not in doomed]
        removed = len(stored) - len(survivors)
        if stored:
            self._sessions[session_id] = survivors
        return removed

    # -- metadata -------------------------------------------------------------------------

    async def save_metadata(self, namespace: str, key: str, data: JsonObject) -> None:
        await self.commit_metadata([MetadataPut(namespace, key, data)])

    async def get_metadata(self, namespace: str, key: str) -> JsonObject | None:
        namespace, key = sem.check_key(namespace, key)
        stored = self._metadata.get(namespace, {}).get(key)
        return None if stored is None else sem.decode_object(stored.text)

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        namespace = sem.check_namespace(namespace)
        entries = []
        for key, stored in sorted(self._metadata.get(namespace, {}).items()):
            data = sem.decode_object(stored.text)
            if data is not None:
                entries.append(MetadataEntry(key=key, data=data, updated_at=stored.updated_at))
        return entries

    async def list_metadata_keys(self, namespace: str) -> list[str]:
        return sorted(self._metadata.get(sem.check_namespace(namespace), {}))

    async def delete_metadata(self, namespace: str, key: str) -> None:
        self._delete(*sem.check_key(namespace, key))

    def _delete(self, namespace: str, key: str) -> None:
        space = self._metadata.get(namespace)
        if space is not None:
            space.pop(key, None)
            if not space:
                del self._metadata[namespace]

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        for op, text in sem.encode_batch(ops):
            if text is None:
                self._delete(op.namespace, op.key)
            else:
                space = self._metadata.setdefault(op.namespace, {})
                previous = space.get(op.key)
                stamp = sem.next_updated_at(
                    None if previous is None else previous.updated_at, self._metadata_clock()
                )
                space[op.key] = StoredMetadata(text, stamp)

    def _metadata_clock(self) -> int:
        return sem.now_ms()

    def plant_raw_metadata(self, namespace: str, key: str, text: str) -> None:
        """Store ``text`` verbatim as an entry's payload (the kit's raw-access hook uses it)."""
        self._metadata.setdefault(namespace, {})[key] = StoredMetadata(text, self._metadata_clock())
