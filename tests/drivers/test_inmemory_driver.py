"""The in-memory reference driver's own promises beyond the contract: its isolation copier and
its count cache under a subclass that edits records in place, or replaces or grows a session's
record list (the extension points its docstring names). The mutation run counts these among the
driver's kit tests."""

from __future__ import annotations

import asyncio
import collections
from typing import Any

import attrs
import pytest

from aalis_memory.drivers.inmemory import InMemoryMemory, StoredMessage, fresh
from aalis_memory.types import ABSENT, Message, MetadataEntry, RecentMessageRecord


def _mutables(value: Any) -> list[Any]:
    """Every dict and list reachable from ``value`` (inside tuples and attrs records too)."""
    found: list[Any] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (dict, list)):
            found.append(item)
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif attrs.has(type(item)):
            stack.extend(getattr(item, field.name) for field in attrs.fields(type(item)))
    return found


MESSAGE = Message(
    role="assistant",
    content=None,
    tool_calls=({"id": "c1", "args": {"a": [1]}},),
    segments=({"type": "text", "text": "t"},),
    metadata={"n": {"deep": [1, 2]}},
    images=("img://1",),
    reasoning_content=ABSENT,
    timestamp=1.5,
)
VALUES = {
    "message": MESSAGE,
    "list of messages": [MESSAGE, Message(role="user", content="x")],
    "metadata entry": MetadataEntry(key="k", data={"a": [{"b": {}}]}, updated_at=1),
    "cross-session record": RecentMessageRecord(session_id="s", message=MESSAGE),
    "json": {"a": [1, {"b": [None, True, 2.5, "x"]}], "c": {}},
}


@pytest.mark.parametrize("name", sorted(VALUES))
def test_fresh_is_an_equal_copy_that_shares_nothing_mutable(name: str) -> None:
    value = VALUES[name]
    copied = fresh(value)
    assert copied == value
    assert type(copied) is type(value)
    originals = {id(item) for item in _mutables(value)}
    shared = [item for item in _mutables(copied) if id(item) in originals]
    assert not shared, f"{name}: the copy shares {shared!r} with the original"
    assert _mutables(copied), f"{name}: the example holds nothing mutable to check"


def test_fresh_copies_mappings_of_any_kind_and_refuses_unknown_values() -> None:
    ordered = collections.OrderedDict(a=[1])
    copied = fresh({"o": ordered})
    assert copied == {"o": {"a": [1]}}
    assert copied["o"]["a"] is not ordered["a"]
    with pytest.raises(TypeError, match="holds no set values"):
        fresh({"s": {1, 2}})


class _Editing(InMemoryMemory):
    """Edits its records in place, through the extension points only."""

    def archive_first_behind_the_store(self, session_id: str) -> None:
        self._sessions[session_id][0].archived = True

    def turn_first_into_control(self, session_id: str) -> None:
        record = self._sessions[session_id][0]
        record.message = Message(
            role="system", content="c", kind="event-marker", timestamp=record.message.timestamp
        )


@pytest.mark.parametrize("edit", ["archive_first_behind_the_store", "turn_first_into_control"])
def test_a_subclass_editing_records_in_place_never_reads_a_stale_count(edit: str) -> None:
    """Nor may a save after the edit count on from the count cached before it."""

    async def run(then_save: bool) -> tuple[int, int]:
        store = _Editing()
        for n in range(3):
            await store.save_message("s", Message(role="user", content=f"m{n}", timestamp=n + 1))
        before = await store.count_history("s")  # cached now
        getattr(store, edit)("s")
        if then_save:
            await store.save_message("s", Message(role="user", content="m3", timestamp=50))
        return before, await store.count_history("s")

    assert asyncio.run(run(then_save=False)) == (3, 2)
    assert asyncio.run(run(then_save=True)) == (3, 3)


class _Replacing(InMemoryMemory):
    """Replaces or grows a session's record list through the ``_sessions`` extension point,
    building new records (which, unlike an edit, tells the store nothing)."""

    def replace_with_first_archived(self, session_id: str) -> None:
        old = self._sessions[session_id]
        new = [StoredMessage(s.message, s.seq) for s in old]
        new[0] = StoredMessage(old[0].message, old[0].seq, archived=True)
        self._sessions[session_id] = new  # as long as the list it replaces

    def grow_behind_the_store(self, session_id: str) -> None:
        late = Message(role="user", content="late", timestamp=99)
        self._sessions[session_id].append(StoredMessage(late, -1))


@pytest.mark.parametrize(
    ("edit", "counts"),
    [
        ("replace_with_first_archived", [3, 2, 3]),
        ("grow_behind_the_store", [3, 4, 5]),
    ],
)
def test_a_subclass_replacing_or_growing_a_session_never_reads_a_stale_count(
    edit: str, counts: list[int]
) -> None:
    """The count cached before the change holds neither for a list of the same length that is
    another list, nor for the same list grown; nor may a save count on from it."""

    async def run(then_save: bool) -> list[int]:
        store = _Replacing()
        for n in range(3):
            await store.save_message("s", Message(role="user", content=f"m{n}", timestamp=n + 1))
        seen = [await store.count_history("s")]  # cached now
        getattr(store, edit)("s")
        if then_save:
            await store.save_message("s", Message(role="user", content="m3", timestamp=50))
        return [*seen, await store.count_history("s")]

    assert asyncio.run(run(then_save=False)) == counts[:2]
    assert asyncio.run(run(then_save=True)) == [counts[0], counts[2]]
