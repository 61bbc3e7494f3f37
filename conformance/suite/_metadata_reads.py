"""Helpers for the metadata suites: store views, clocks, unserializable data.

Views are sorted by key so that only the ordering test (META-04) depends on the listing order.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import decimal
import gc
import math
import time
from collections.abc import Callable, Iterator
from typing import Any, Final

from aalis_memory.conformance.steps import confirmed
from aalis_memory.service import MemoryService
from aalis_memory.types import JsonObject, MetadataEntry


def now_ms() -> int:
    """Epoch milliseconds, rounded down (the lower bound of a write's ``updated_at``)."""
    return time.time_ns() // 1_000_000


def now_ms_ceil() -> int:
    """Epoch milliseconds, rounded up (the upper bound, tolerant of a driver that rounds)."""
    return -(-time.time_ns() // 1_000_000)


#: How far updated_at may be off the kit's clock and still read as epoch milliseconds: a server
#: database stamps with its own clock, which may be seconds off the kit's machine, while another
#: unit (seconds, microseconds), a counter, a clock since boot or local time taken for UTC is off
#: by half an hour at the least. Growth is judged against the kit's clock only as differences.
CLOCK_SKEW_MS: Final = 5 * 60_000


async def wait_past(returned: int, gap: int = 2) -> int:
    """Wait until the kit's clock is ``gap`` ms past ``returned`` (when a call returned, rounded
    up); the reading then (rounded down), when the next call begins. Never waits on a driver's
    stamp: one far ahead (another unit, a clock off) would hold the test for as long."""
    while now_ms() < returned + gap:
        await asyncio.sleep(0.001)
    return now_ms()


async def read_back_first(memory: MemoryService, saved: dict[tuple[str, str], JsonObject]) -> None:
    """Read the saved entries before the call under test. When each reads back as it was saved,
    get_metadata works for these very keys, so what they read afterwards is that call's doing: the
    check no longer stands on META-01 (a META-01 failure elsewhere, on a nested overwrite, cannot
    explain an entry that is gone)."""
    for (namespace, key), data in saved.items():
        if await memory.get_metadata(namespace, key) != data:
            return
    confirmed("META-01")


async def entries(memory: MemoryService, namespace: str) -> list[tuple[str, JsonObject]]:
    """``list_metadata`` as (key, data) pairs sorted by key (duplicates stay visible)."""
    listed: list[MetadataEntry] = await memory.list_metadata(namespace)
    return sorted(((e.key, e.data) for e in listed), key=lambda pair: pair[0])


async def state(memory: MemoryService, namespace: str) -> dict[str, JsonObject]:
    """``list_metadata`` as a key -> data mapping."""
    return dict(await entries(memory, namespace))


async def entry(memory: MemoryService, namespace: str, key: str) -> MetadataEntry | None:
    """The listed entry of ``key`` (``updated_at`` is only visible through ``list_metadata``)."""
    listed: list[MetadataEntry] = await memory.list_metadata(namespace)
    found = [e for e in listed if e.key == key]
    return found[0] if found else None


def _circular_object() -> JsonObject:
    data: JsonObject = {"name": "loop"}
    data["self"] = data
    return data


def _circular_list() -> JsonObject:
    items: list[Any] = [1]
    items.append(items)
    return {"items": items}


def _nested_too_deep() -> JsonObject:
    """Nested far past any recursion limit (built without recursion): a driver must refuse it
    with the contract's TypeError/ValueError, never let a RecursionError out."""
    value: Any = "leaf"
    with _collector_paused():  # each new level would make the collector walk all the others
        for depth in range(100_000):
            value = [value] if depth % 2 else {"d": value}
    return {"ok": 1, "deep": value}


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


#: Payloads JSON cannot represent, each built fresh for every use, by a readable name.
UNSERIALIZABLE: Final[dict[str, Callable[[], JsonObject]]] = {
    "set": lambda: {"ok": 1, "bad": {1, 2}},
    "bytes": lambda: {"ok": 1, "bad": b"raw"},
    "datetime": lambda: {"ok": 1, "bad": datetime.datetime(2026, 1, 2, 3, 4, 5)},
    "decimal": lambda: {"ok": 1, "bad": decimal.Decimal("1.5")},
    "object()": lambda: {"ok": 1, "bad": object()},
    "NaN": lambda: {"ok": 1, "bad": math.nan},
    "inf": lambda: {"ok": 1, "bad": math.inf},
    "-inf": lambda: {"ok": 1, "bad": -math.inf},
    "set nested in a list": lambda: {"deep": {"list": [1, {"bad": frozenset({2})}]}},
    "non-string key": lambda: {"ok": 1, "bad": {1: "one", "1": "uno"}},
    "tuple key": lambda: {"ok": 1, "bad": {(1, 2): "pair"}},
    "non-string key in a dict in a list": lambda: {"ok": 1, "a": [{1: "x"}]},
    "nested too deep": _nested_too_deep,
    "circular object": _circular_object,
    "circular list": _circular_list,
}
