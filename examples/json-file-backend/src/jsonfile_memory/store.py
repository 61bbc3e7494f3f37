"""A MemoryService kept in one JSON file.

The whole state lives in memory and in the file. A write builds the next state, writes it to a
temporary file in a worker thread, renames it over the old file, and only then makes it the
state readers see: a reader never sees half a write, and a crash never leaves half a file. One
process owns a file (there is no cross-process locking).

Every method checks its arguments (``jsonfile_memory.checks``) before it reads or writes, so a
call that raises has changed nothing.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, Self

import attrs
from aalis_memory.defaults import DEFAULT_FULL_HISTORY_LIMIT, DEFAULT_HISTORY_LIMIT
from aalis_memory.service import Limit
from aalis_memory.types import (
    JsonObject,
    Message,
    MetadataDel,
    MetadataEntry,
    MetadataOp,
    MetadataPut,
)

from jsonfile_memory.checks import (
    check_id,
    check_limit,
    check_message,
    check_ops,
    check_position,
    check_strings,
    check_timestamp,
    to_json,
)

FORMAT: Final = 1


def now_ms() -> int:
    return time.time_ns() // 1_000_000


@attrs.frozen
class Row:
    """One stored message: its JSON text, so no caller ever shares an object with the store."""

    seq: int
    timestamp: int | float
    text: str
    #: A control record (CONTROL_KINDS): takes a position, never counts as conversation.
    is_control: bool
    archived: bool = False

    @property
    def message(self) -> Message:
        return Message.from_json(json.loads(self.text))

    def sort_key(self) -> tuple[int | float, int]:
        return (self.timestamp, self.seq)


@attrs.frozen
class Meta:
    """One metadata entry as stored: JSON text (maybe unreadable, if written behind our back)."""

    text: str
    updated_at: int

    def data(self) -> JsonObject | None:
        try:
            value = json.loads(self.text)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None


@attrs.frozen
class State:
    """An immutable snapshot: writes build a new one, so readers always hold a whole state."""

    sessions: dict[str, tuple[Row, ...]] = attrs.field(factory=dict)
    metadata: dict[str, dict[str, Meta]] = attrs.field(factory=dict)
    next_seq: int = 0

    def dump(self) -> str:
        return json.dumps({
            "format": FORMAT,
            "next_seq": self.next_seq,
            "sessions": {
                sid: [[r.seq, r.timestamp, r.archived, r.text] for r in rows]
                for sid, rows in self.sessions.items()
            },
            "metadata": {
                ns: {key: [m.text, m.updated_at] for key, m in entries.items()}
                for ns, entries in self.metadata.items()
            },
        })

    @classmethod
    def load(cls, text: str) -> State:
        raw: dict[str, Any] = json.loads(text)
        if raw.get("format") != FORMAT:
            raise ValueError(f"not a jsonfile_memory file of format {FORMAT}")
        return cls(
            sessions={
                sid: tuple(
                    Row(seq, ts, text, Message.from_json(json.loads(text)).is_control, archived)
                    for seq, ts, archived, text in rows
                )
                for sid, rows in raw["sessions"].items()
            },
            metadata={
                ns: {key: Meta(text, updated) for key, (text, updated) in entries.items()}
                for ns, entries in raw["metadata"].items()
            },
            next_seq=raw["next_seq"],
        )


def _write_atomically(path: Path, text: str, *, durable: bool = True) -> None:
    """Temporary file, then rename: the file is always the old state or the new one.
    ``durable`` also waits for the disk (fsync), so a power cut loses no acknowledged write."""
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("w", encoding="ascii") as out:
        out.write(text)
        if durable:
            out.flush()
            os.fsync(out.fileno())
    os.replace(temporary, path)


class JsonFileMemory:
    """The MemoryService backend: required methods plus five optional ones."""

    def __init__(
        self, path: Path, state: State, *, range_query_limit: int, cross_session_max_limit: int,
        durable: bool = True,
    ) -> None:
        self.path = path
        self.durable = durable
        self.range_query_limit = range_query_limit
        self.cross_session_max_limit = cross_session_max_limit
        self._state = state
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str], *, range_query_limit: int = 500,
        cross_session_max_limit: int = 1000, durable: bool = True,
    ) -> Self:
        """Open (or create) the store file; ``durable=False`` skips fsync (tests, caches)."""
        file = Path(path)
        state = await asyncio.to_thread(cls._read, file)
        return cls(file, state, range_query_limit=range_query_limit,
                   cross_session_max_limit=cross_session_max_limit, durable=durable)

    @staticmethod
    def _read(file: Path) -> State:
        if not file.exists():
            _write_atomically(file, State().dump())
        return State.load(file.read_text(encoding="ascii"))

    async def reload(self) -> None:
        """Re-read the file, after another program changed it."""
        async with self._write_lock:
            self._state = await asyncio.to_thread(self._read, self.path)

    async def close(self) -> None:
        """Every write is on disk already; nothing to flush."""

    async def _commit(self, state: State) -> None:
        """Write ``state`` to disk, then let readers see it (the caller holds the lock)."""
        await asyncio.to_thread(_write_atomically, self.path, state.dump(), durable=self.durable)
        self._state = state

    # -- messages ----------------------------------------------------------------------------

    def _rows(self, session_id: str, *, archived: bool = False) -> tuple[Row, ...]:
        rows = self._state.sessions.get(session_id, ())
        return rows if archived else tuple(r for r in rows if not r.archived)

    async def save_message(self, session_id: str, message: Message) -> None:
        session_id = check_id(session_id, "session_id")
        message = check_message(message)
        stamp = now_ms() if message.timestamp is None else message.timestamp
        text = to_json(attrs.evolve(message, timestamp=stamp).to_json(), "message")
        async with self._write_lock:
            old = self._state
            row = Row(old.next_seq, stamp, text, message.is_control)
            rows = list(old.sessions.get(session_id, ()))
            bisect.insort(rows, row, key=Row.sort_key)
            await self._commit(attrs.evolve(
                old, sessions={**old.sessions, session_id: tuple(rows)}, next_seq=old.next_seq + 1
            ))

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        session_id = check_id(session_id, "session_id")
        wanted = check_limit(limit, DEFAULT_HISTORY_LIMIT)
        if wanted == 0:
            return []
        rows = self._rows(session_id)
        conversation = 0
        for index in range(len(rows) - 1, -1, -1):
            if not rows[index].is_control:
                conversation += 1
                if conversation > wanted:
                    return [r.message for r in rows[index + 1 :]]
        return [r.message for r in rows]

    async def count_history(self, session_id: str) -> int:
        session_id = check_id(session_id, "session_id")
        return sum(1 for r in self._rows(session_id) if not r.is_control)

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        session_id = check_id(session_id, "session_id")
        wanted = check_limit(limit, DEFAULT_FULL_HISTORY_LIMIT)
        rows = self._rows(session_id, archived=True)
        newest = rows if wanted >= len(rows) else rows[len(rows) - int(wanted) :]
        return [r.message for r in newest]

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        session_id = check_id(session_id, "session_id")
        span = check_position(count, "count")
        kept = {check_position(k, "keep position") for k in keep}
        async with self._write_lock:
            old = self._state
            active = [r for r in old.sessions.get(session_id, ()) if not r.archived]
            doomed = {r.seq for i, r in enumerate(active[:span]) if i not in kept}
            if not doomed:
                return 0
            rows = tuple(attrs.evolve(r, archived=True) if r.seq in doomed else r
                         for r in old.sessions[session_id])
            await self._commit(attrs.evolve(old, sessions={**old.sessions, session_id: rows}))
            return len(doomed)

    async def clear_session(self, session_id: str) -> None:
        session_id = check_id(session_id, "session_id")
        async with self._write_lock:
            old = self._state
            if session_id in old.sessions:
                sessions = {k: v for k, v in old.sessions.items() if k != session_id}
                await self._commit(attrs.evolve(old, sessions=sessions))

    async def clear_all(self) -> None:
        async with self._write_lock:
            await self._commit(attrs.evolve(self._state, sessions={}))

    async def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        """Messages with ``from_ts <= timestamp <= to_ts``; ``±math.inf`` leaves an end open."""
        session_id = check_id(session_id, "session_id")
        low = check_timestamp(from_ts, "from_ts", finite=False)
        high = check_timestamp(to_ts, "to_ts", finite=False)
        wanted_roles = check_strings(roles, "roles")
        excluded = check_strings(exclude_kinds, "exclude_kinds") or ()
        hits: list[Message] = []
        for row in self._rows(session_id, archived=True):
            if len(hits) == self.range_query_limit:
                break
            if not low <= row.timestamp <= high:
                continue
            message = row.message
            if wanted_roles is not None and message.role not in wanted_roles:
                continue
            if message.kind is not None and message.kind in excluded:
                continue
            hits.append(message)
        return hits

    # -- metadata ----------------------------------------------------------------------------

    def _entries(self, namespace: str) -> dict[str, Meta]:
        return self._state.metadata.get(check_id(namespace, "namespace"), {})

    async def save_metadata(self, namespace: str, key: str, data: JsonObject) -> None:
        await self.commit_metadata([MetadataPut(namespace, key, data)])

    async def get_metadata(self, namespace: str, key: str) -> JsonObject | None:
        entries = self._entries(namespace)
        stored = entries.get(check_id(key, "key"))
        return None if stored is None else stored.data()

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        out = []
        for key, stored in sorted(self._entries(namespace).items()):
            data = stored.data()
            if data is not None:  # an unreadable entry is skipped, never raised
                out.append(MetadataEntry(key=key, data=data, updated_at=stored.updated_at))
        return out

    async def list_metadata_keys(self, namespace: str) -> list[str]:
        return sorted(self._entries(namespace))

    async def delete_metadata(self, namespace: str, key: str) -> None:
        await self.commit_metadata([MetadataDel(namespace, key)])

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        """Every op is checked and encoded before anything changes: all or nothing."""
        encoded = check_ops(ops)
        if not encoded:
            return
        async with self._write_lock:
            metadata = {ns: dict(entries) for ns, entries in self._state.metadata.items()}
            for op, text in encoded:
                space = metadata.setdefault(op.namespace, {})
                if text is None:
                    space.pop(op.key, None)
                else:
                    previous = space.get(op.key)
                    stamp = now_ms()
                    if previous is not None and stamp <= previous.updated_at:
                        stamp = previous.updated_at + 1  # grows on every overwrite
                    space[op.key] = Meta(text, stamp)
            metadata = {ns: entries for ns, entries in metadata.items() if entries}
            await self._commit(attrs.evolve(self._state, metadata=metadata))


def plant_raw_metadata(path: Path, namespace: str, key: str, text: str) -> None:
    """Edit the file behind the store's back (for the kit's raw-access hook)."""
    state = State.load(path.read_text(encoding="ascii"))
    metadata = {ns: dict(entries) for ns, entries in state.metadata.items()}
    metadata.setdefault(namespace, {})[key] = Meta(text, now_ms())
    _write_atomically(path, attrs.evolve(state, metadata=metadata).dump())
