"""The reference drivers take timestamps as int or float only (the type the contract declares).

Found by mutation testing (issue 35): the conformance rules refuse a bool and a string timestamp
(the string fails a comparison anyway), so a check that let any other number type through went
unnoticed. A Decimal or a Fraction compares with integers, so it would be stored as it came: the
in-memory store would keep a value JSON cannot spell, and SQLite could not bind it at all.
"""

from __future__ import annotations

import asyncio
import decimal
import fractions
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final

import pytest

from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.drivers.sqlite import SqliteMemory
from aalis_memory.types import Message
from aalis_memory.types import RecentMessagesAcrossSessionsQuery as Query

#: Numbers of other types than int and float, each equal to the stored message's timestamp.
OTHER_NUMBERS: Final[dict[str, object]] = {
    "Decimal": decimal.Decimal(1000),
    "Fraction": fractions.Fraction(1000),
}

#: A call given a store and a timestamp of any type (the point is the types the contract refuses).
Call = Callable[[Any, Any], Awaitable[object]]
#: Where a timestamp goes: the name its refusal must give it, and the call.
PLACES: Final[dict[str, tuple[str, Call]]] = {
    "save_message": (
        "timestamp",
        lambda m, ts: m.save_message("s", Message(role="user", content="new", timestamp=ts)),
    ),
    "range from_ts": ("from_ts", lambda m, ts: m.get_messages_by_session_range("s", ts, 2000)),
    "range to_ts": ("to_ts", lambda m, ts: m.get_messages_by_session_range("s", 0, ts)),
    "since_ts": (
        "since_ts",
        lambda m, ts: m.get_recent_messages_across_sessions(Query(limit=5, since_ts=ts)),
    ),
    "delete": ("timestamps", lambda m, ts: m.delete_messages_by_timestamps("s", [ts])),
}


async def _open(kind: str, tmp_path: Path) -> Any:
    if kind == "sqlite":
        return await SqliteMemory.open(tmp_path / "timestamps.sqlite3")
    return InMemoryMemory()


@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize("number", sorted(OTHER_NUMBERS))
@pytest.mark.parametrize("kind", ["inmemory", "sqlite"])
async def test_other_number_types_raise_type_error_and_change_nothing(
    kind: str, number: str, place: str, tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    name, call = PLACES[place]
    store = await _open(kind, tmp_path)
    try:
        await store.save_message("s", Message(role="user", content="kept", timestamp=1000))
        with pytest.raises(TypeError, match=f"{name}.* must be a number .*got {number}"):
            await call(store, OTHER_NUMBERS[number])
        assert [(m.content, m.timestamp) for m in await store.get_full_history("s")] == [("kept", 1000)]
    finally:
        await store.close()


@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize("kind", ["inmemory", "sqlite"])
async def test_a_string_timestamp_is_refused_by_name(
    kind: str, place: str, tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    """The refusal says which argument is wrong, not only that two values cannot be compared."""
    name, call = PLACES[place]
    store = await _open(kind, tmp_path)
    try:
        with pytest.raises(TypeError, match=f"{name}.* must be a number .*got str"):
            await call(store, "1000")
    finally:
        await store.close()
