"""Constructor settings and documented limits of the reference drivers (CFG-01..CFG-03).

The conformance suite always builds drivers with its own small caps, so nothing there sees the
defaults or a bad cap; these checks build the reference classes directly, and each check is run
once against a deliberately broken class to show that it can fail.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final

import pytest

from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.drivers.sqlite import SqliteMemory
from aalis_memory.types import Message
from aalis_memory.types import RecentMessagesAcrossSessionsQuery as Query
from broken_drivers.strength import SmallDefaultCaps, TrustsCaps

#: Builds an open store of one driver from cap keyword arguments.
Build = Callable[..., Awaitable[Any]]

CAPS: Final = ("range_query_limit", "cross_session_max_limit")
#: Not positive integers: each must be refused when the store is built.
BAD_CAPS: Final[tuple[object, ...]] = (0, -1, True, False, 2.5, "5", None)


def builder(kind: str, tmp_path: Path) -> Build:
    async def build(**caps: Any) -> Any:
        if kind == "sqlite":
            return await SqliteMemory.open(tmp_path / f"settings-{len(list(tmp_path.iterdir()))}.db", **caps)
        cls = {"inmemory": InMemoryMemory, "small-defaults": SmallDefaultCaps, "trusts-caps": TrustsCaps}[
            kind
        ]
        return cls(**caps)

    return build


async def _fill(store: Any, count: int) -> None:
    for i in range(count):
        await store.save_message("s", Message(role="user", content=f"m{i}", timestamp=1000 + i))


async def check_default_caps(build: Build) -> None:
    """Built without settings: range reads stop at 500 (the earliest), cross-session at 1000."""
    store = await build()
    try:
        await _fill(store, 1001)
        got = await store.get_messages_by_session_range("s", 0, 10**6)
        assert [m.content for m in got] == [f"m{i}" for i in range(500)], (
            f"range read over 1001 messages with the default cap: got {len(got)} messages"
        )
        recent = await store.get_recent_messages_across_sessions(Query(limit=math.inf))
        assert [r.message.content for r in recent] == [f"m{i}" for i in range(1, 1001)], (
            f"cross-session read (limit inf) over 1001 messages with the default cap: got "
            f"{len(recent)} records"
        )
    finally:
        await store.close()


async def check_caps_are_positive_integers(build: Build) -> None:
    """Every bad cap is refused with ValueError when the store is built; 1 is a cap like others."""
    for name in CAPS:
        for bad in BAD_CAPS:
            try:
                store = await build(**{name: bad})
            except ValueError:
                continue
            await store.close()
            raise AssertionError(f"{name}={bad!r} was accepted; expected ValueError")
    store = await build(range_query_limit=1, cross_session_max_limit=1)
    try:
        await _fill(store, 3)
        got = await store.get_messages_by_session_range("s", 0, 10**6)
        recent = await store.get_recent_messages_across_sessions(Query(limit=5))
        assert ([m.content for m in got], [r.message.content for r in recent]) == (["m0"], ["m2"]), (
            f"caps of 1: range read {[m.content for m in got]}, cross-session read "
            f"{[r.message.content for r in recent]}"
        )
    finally:
        await store.close()


@pytest.mark.aalis_spec("CFG-01")
@pytest.mark.parametrize("kind", ["inmemory", "sqlite"])
async def test_default_caps(kind: str, tmp_path: Path, aalis_memory_loop: asyncio.Runner) -> None:
    await check_default_caps(builder(kind, tmp_path))


@pytest.mark.aalis_spec("CFG-02")
@pytest.mark.parametrize("kind", ["inmemory", "sqlite"])
async def test_caps_must_be_positive_integers(
    kind: str, tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    await check_caps_are_positive_integers(builder(kind, tmp_path))


@pytest.mark.parametrize(
    ("kind", "check"),
    [("small-defaults", check_default_caps), ("trusts-caps", check_caps_are_positive_integers)],
)
async def test_the_checks_catch_a_broken_driver(
    kind: str,
    check: Callable[[Build], Awaitable[None]],
    tmp_path: Path,
    aalis_memory_loop: asyncio.Runner,
) -> None:
    with pytest.raises(AssertionError):
        await check(builder(kind, tmp_path))


#: The documented limits (CFG-03), spelled out here: read from the driver they would move with it.
MAX_DEPTH: Final = 32
MAX_BYTES: Final = 15 * 1024 * 1024


def _nested(depth: int) -> dict[str, Any]:
    """An object ``depth`` levels deep (the outermost object counts as one)."""
    value: dict[str, Any] = {}
    for _ in range(depth - 1):
        value = {"n": value}
    return value


def _nested_arrays(depth: int) -> dict[str, Any]:
    """An object holding arrays, ``depth`` levels in all (the object counts as one)."""
    value: list[Any] = []
    for _ in range(depth - 2):
        value = [value]
    return {"n": value}


def _payload_of_size(size: int, wide: str = "") -> dict[str, Any]:
    """An object whose compact JSON text is exactly ``size`` bytes of UTF-8, ``wide`` (a
    character of several bytes, repeated 1,000 times) among its ASCII."""
    frame = len('{"v":""}') + 1000 * len(wide.encode())
    return {"v": wide * 1000 + "x" * (size - frame)}


@pytest.mark.aalis_spec("CFG-03")
@pytest.mark.parametrize("kind", ["inmemory", "sqlite"])
async def test_size_and_nesting_limits_are_exact(
    kind: str, tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    store = await builder(kind, tmp_path)()
    try:
        await store.save_metadata("ns", "deep", _nested(MAX_DEPTH))
        assert await store.get_metadata("ns", "deep") == _nested(MAX_DEPTH)
        with pytest.raises(ValueError, match="nested deeper"):
            await store.save_metadata("ns", "deeper", _nested(MAX_DEPTH + 1))
        await store.save_metadata("ns", "arrays", _nested_arrays(MAX_DEPTH))
        assert await store.get_metadata("ns", "arrays") == _nested_arrays(MAX_DEPTH)
        with pytest.raises(ValueError, match="nested deeper"):
            await store.save_metadata("ns", "deeper arrays", _nested_arrays(MAX_DEPTH + 1))
        await store.save_metadata("ns", "big", _payload_of_size(MAX_BYTES))
        with pytest.raises(ValueError, match=f"{MAX_BYTES + 1} bytes of JSON"):
            await store.save_metadata("ns", "bigger", _payload_of_size(MAX_BYTES + 1))
        # the limit is on UTF-8 bytes, not characters: 1,000 two-byte characters count twice
        await store.save_metadata("ns", "wide", _payload_of_size(MAX_BYTES, wide="é"))
        with pytest.raises(ValueError, match=f"{MAX_BYTES + 1} bytes of JSON"):
            await store.save_metadata("ns", "wider", _payload_of_size(MAX_BYTES + 1, wide="é"))
        # far over the limit, the string lengths alone refuse it, before any encoding
        with pytest.raises(ValueError, match="at least"):
            await store.save_metadata("ns", "huge", _payload_of_size(2 * MAX_BYTES))
        assert await store.list_metadata_keys("ns") == ["arrays", "big", "deep", "wide"]
    finally:
        await store.close()
