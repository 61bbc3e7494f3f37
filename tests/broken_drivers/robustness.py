"""Broken stores for hostile input and concurrency: each a realistic bug, caught on its own rules."""

from __future__ import annotations

import asyncio
import copy
import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.inmemory import InMemoryMemory, StoredMetadata
from aalis_memory.service import Limit
from aalis_memory.types import JsonObject, Message, MetadataOp, MetadataPut
from broken_drivers import broken


def _matches(value: str, selector: Any) -> bool:
    """How a document store reads a query value: a dict is operators, a pattern matches, a list
    is any-of; only a plain value is equality."""
    if isinstance(selector, dict):
        ops: dict[str, Callable[[Any], bool]] = {
            "$gt": lambda arg: bool(value > arg),
            "$ne": lambda arg: bool(value != arg),
            "$regex": lambda arg: re.search(arg, value) is not None,
            "$in": lambda arg: value in arg,
        }
        return all(ops[op](arg) for op, arg in selector.items() if op in ops)
    if isinstance(selector, re.Pattern):
        return selector.search(value) is not None
    if isinstance(selector, list | tuple):
        return value in selector
    return bool(value == selector)


@broken("host-query-injection", "HOST-01", "HOST-02", checks_arguments=False)
class QueryInjection(InMemoryMemory):
    """Builds its session and namespace filters from the ids as given, without a type check:
    {'$gt': ''} reads and clears every session (the MongoDB injection)."""

    def _selected(self, session_id: Any) -> list[str]:
        return [name for name in self._sessions if _matches(name, session_id)]

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        effective = sem.check_limit(limit, sem.DEFAULT_HISTORY_LIMIT, "limit")
        active = [
            s.message for name in self._selected(session_id) for s in self._sessions[name] if not s.archived
        ]
        return copy.deepcopy(sem.history_window(active, effective))

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        effective = sem.check_limit(limit, sem.DEFAULT_FULL_HISTORY_LIMIT, "limit")
        every = [s.message for name in self._selected(session_id) for s in self._sessions[name]]
        return copy.deepcopy(sem.newest(every, effective))

    async def count_history(self, session_id: str) -> int:
        total = 0
        for name in self._selected(session_id):
            total += await super().count_history(name)
        return total

    async def clear_session(self, session_id: str) -> None:
        for name in self._selected(session_id):
            del self._sessions[name]

    async def list_metadata_keys(self, namespace: str) -> list[str]:
        return sorted(
            key for name, space in self._metadata.items() if _matches(name, namespace) for key in space
        )


@broken("conc-lost-rewrite", "CONC-01")
class LostRewrite(InMemoryMemory):
    """update_message_content reads the window, awaits the database per message, then writes the
    text it computed from its first read: a concurrent rewrite in between is overwritten."""

    async def update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int:
        session_id = sem.check_session_id(session_id)
        old_text, new_text = sem.check_rewrite(old_text, new_text)
        effective = sem.check_limit(recent_limit, sem.DEFAULT_UPDATE_RECENT_LIMIT, "recent_limit")
        window = sem.newest(self._active(session_id), effective)
        planned = [(s, sem.rewrite_content(s.message, old_text, new_text)) for s in window]
        changed = 0
        for stored, rewritten in planned:
            if rewritten is not None:
                await asyncio.sleep(0)  # the round trip of a real backend
                stored.message = rewritten
                changed += 1
        return changed


@broken("arg-metadata-unchecked-key", "HOST-01", checks_arguments=False)
class MetadataUncheckedKey(InMemoryMemory):
    """get_metadata and delete_metadata look the key up as given: None or 1 quietly read as
    missing instead of being refused."""

    async def get_metadata(self, namespace: str, key: str) -> JsonObject | None:
        stored = self._metadata.get(namespace, {}).get(key)
        return None if stored is None else sem.decode_object(stored.text)

    async def delete_metadata(self, namespace: str, key: str) -> None:
        self._metadata.get(namespace, {}).pop(key, None)


@broken("arg-save-unchecked-session", "HOST-01", checks_arguments=False)
class SaveUncheckedSession(InMemoryMemory):
    """save_message files the message under whatever it was given as the session id."""

    async def save_message(self, session_id: str, message: Message) -> None:
        if isinstance(session_id, str):
            session_id = sem.check_session_id(session_id)
        _session, message, _text = sem.prepare_message("checked-later", message)
        self._append(session_id, message)


@broken("arg-save-dict-as-message", "HOST-04", checks_arguments=False)
class SaveDictAsMessage(InMemoryMemory):
    """save_message takes a plain dict for a Message (duck typing through Message.from_json)."""

    async def save_message(self, session_id: str, message: Message) -> None:
        if isinstance(message, dict):
            message = Message.from_json(message)
        await super().save_message(session_id, message)


@broken("arg-batch-attribute-error", "HOST-04", checks_arguments=False)
class BatchAttributeError(InMemoryMemory):
    """commit_metadata reads op.namespace before checking the op, so a tuple or None in a batch
    gives AttributeError instead of TypeError."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        touched = {(op.namespace, op.key) for op in ops}
        if touched:
            await super().commit_metadata(ops)


@broken("arg-payload-not-object", "HOST-04", checks_arguments=False)
class PayloadNotObject(InMemoryMemory):
    """A list or string payload is stored as its JSON text instead of being refused."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        odd: list[MetadataOp] = []
        for op in ops:
            if not (isinstance(op, MetadataPut) and isinstance(op.data, list | str)):
                continue
            odd.append(op)
            self._metadata.setdefault(op.namespace, {})[op.key] = StoredMetadata(
                json.dumps(op.data), sem.now_ms()
            )
        await super().commit_metadata([op for op in ops if op not in odd])


def _number_or_bool(value: object) -> int | float:
    """The timestamp check without the bool case (``isinstance(True, int)`` holds)."""
    if not isinstance(value, int | float):
        raise TypeError(f"timestamp must be a number, got {type(value).__name__}")
    if isinstance(value, float) and math.isnan(value):
        raise ValueError("timestamp must not be NaN")
    if isinstance(value, int) and not sem.INT64_MIN <= value <= sem.INT64_MAX:
        raise ValueError("timestamp does not fit in 64 bits")
    return value


@broken("input-delete-bool-as-number", "INPUT-01", "HOST-04", checks_arguments=False)
class DeleteBoolAsNumber(InMemoryMemory):
    """delete_messages_by_timestamps(s, [True]) deletes the message at 1 ms (True == 1)."""

    async def delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        doomed = {_number_or_bool(ts) for ts in timestamps}
        stored = self._sessions.get(sem.check_session_id(session_id), [])
        survivors = [s for s in stored if s.message.timestamp not in doomed]
        self._sessions[session_id] = survivors
        return len(stored) - len(survivors)


@broken("conc-save-lost", "CONC-06")
class SaveLost(InMemoryMemory):
    """save_message copies the session's list, awaits the database, then writes the copy back
    with the new message: a save made in between is lost."""

    async def save_message(self, session_id: str, message: Message) -> None:
        session_id, message, _ = sem.prepare_message(session_id, message)
        before = list(self._sessions.get(session_id, ()))
        await asyncio.sleep(0)  # the round trip of a real backend
        self._append(session_id, message)
        self._sessions[session_id] = [*before, self._sessions[session_id][-1]]


@broken("conc-archive-stale-span", "CONC-03")
class ArchiveStaleSpan(InMemoryMemory):
    """archive_span picks its span, awaits, then archives what of it is still active: concurrent
    calls pick the same earliest messages, so together they archive fewer than asked (each
    returns what it really archived)."""

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        session_id = sem.check_session_id(session_id)
        span, kept = sem.check_count(count), sem.check_keep(keep)
        active = self._active(session_id)
        chosen = [active[p] for p in sem.archive_positions(len(active), span, kept)]
        await asyncio.sleep(0)  # the round trip of a real backend
        fresh = [stored for stored in chosen if not stored.archived]
        for stored in fresh:
            stored.archived = True
        return len(fresh)


@broken("conc-commit-lost", "CONC-04")
class CommitLost(InMemoryMemory):
    """commit_metadata rewrites each namespace from a copy read before an await: keys written
    by a concurrent batch in between are lost."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        batch = sem.encode_batch(ops)
        copies = {op.namespace: dict(self._metadata.get(op.namespace, {})) for op, _ in batch}
        await asyncio.sleep(0)  # the round trip of a real backend
        for op, text in batch:
            space = copies[op.namespace]
            if text is None:
                space.pop(op.key, None)
            else:
                previous = space.get(op.key)
                stamp = sem.next_updated_at(None if previous is None else previous.updated_at)
                space[op.key] = StoredMetadata(text, stamp)
        self._metadata.update(copies)


@broken("conc-stamp-from-stale-read", "CONC-05")
class StampFromStaleRead(InMemoryMemory):
    """updated_at is computed from a read made before the write's round trip, whose length grows
    with the payload: a batch that read early can land after a later one, with a lower stamp."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        batch = sem.encode_batch(ops)
        stamps = {}
        for op, _ in batch:
            old = self._metadata.get(op.namespace, {}).get(op.key)
            stamps[(op.namespace, op.key)] = sem.next_updated_at(None if old is None else old.updated_at)
        # The round trip of a real backend, its length depending on the payload's bytes.
        for _ in range(sum(sum((text or "").encode()) for _, text in batch) % 3):
            await asyncio.sleep(0)
        for op, text in batch:
            space = self._metadata.setdefault(op.namespace, {})
            if text is None:
                space.pop(op.key, None)
            else:
                space[op.key] = StoredMetadata(text, stamps[(op.namespace, op.key)])


#: Where the broken column cuts a message's text (a storage type of that size).
CUT_AT = 2**20


@broken("input-big-content-cut", "INPUT-06", checks_arguments=False)
class BigContentCut(InMemoryMemory):
    """Content past 1 MiB is cut silently (a column type of that size), neither stored whole
    nor refused."""

    async def save_message(self, session_id: str, message: Message) -> None:
        if (
            isinstance(message, Message)
            and isinstance(message.content, str)
            and len(message.content) > CUT_AT
        ):
            message = attrs.evolve(message, content=message.content[:CUT_AT])
        await super().save_message(session_id, message)
