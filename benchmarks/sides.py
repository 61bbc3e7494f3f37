"""The two sides of a benchmark: a driver through the contract, and the raw engine underneath.

Every side answers the same operations (:class:`Side`); the raw sides do the same work with the
engine's own client and nothing else (no validation, no Message objects: JSON in, dicts out).
"""

from __future__ import annotations

import json
import math
from typing import Any, Protocol

import attrs

from aalis_memory.types import JsonObject, Message, MetadataPut

#: get_history(s, N) and get_full_history(s, N) of the benchmark.
HISTORY: int = 20
FULL: int = 200


@attrs.frozen
class Item:
    """One message to save, built (and, for the raw sides, encoded) before any timing."""

    message: Message
    #: ``message.to_json()`` and its JSON text: what a raw side stores.
    doc: JsonObject
    text: str

    @property
    def ts(self) -> int:
        return int(self.message.timestamp or 0)


def item(i: int) -> Item:
    """The i-th message of a benchmark session (timestamps grow with i)."""
    role = "user" if i % 2 == 0 else "assistant"
    message = Message(
        role=role,
        content=f"benchmark message number {i} " + "lorem ipsum " * 8,
        timestamp=1_700_000_000_000 + i,
    )
    doc = message.to_json()
    return Item(message, doc, json.dumps(doc, ensure_ascii=False, separators=(",", ":")))


def metadata_ops(batch: int, count: int) -> list[MetadataPut]:
    return [
        MetadataPut("bench-commit", f"k{batch}-{i}", {"batch": batch, "i": i, "tag": "x" * 40})
        for i in range(count)
    ]


class Side(Protocol):
    async def save(self, session: str, item: Item) -> None: ...
    async def fill(self, session: str, items: list[Item]) -> None: ...
    async def history(self, session: str) -> object: ...
    async def count(self, session: str) -> int: ...
    async def full(self, session: str) -> object: ...
    async def read_all(self, session: str) -> object: ...
    async def archive(self, session: str) -> int: ...
    async def commit(self, ops: list[MetadataPut]) -> None: ...
    async def fill_metadata(self, namespace: str, count: int) -> None: ...
    async def list_metadata(self, namespace: str) -> object: ...
    async def close(self) -> None: ...


class DriverSide:
    """Any MemoryService store, through the contract."""

    def __init__(self, store: Any) -> None:
        self.store = store

    async def save(self, session: str, item: Item) -> None:
        await self.store.save_message(session, item.message)

    async def fill(self, session: str, items: list[Item]) -> None:
        for one in items:
            await self.store.save_message(session, one.message)

    async def history(self, session: str) -> object:
        return await self.store.get_history(session, HISTORY)

    async def count(self, session: str) -> int:
        return int(await self.store.count_history(session))

    async def full(self, session: str) -> object:
        return await self.store.get_full_history(session, FULL)

    async def read_all(self, session: str) -> object:
        return await self.store.get_full_history(session, math.inf)

    async def archive(self, session: str) -> int:
        return int(await self.store.archive_span(session, 1))

    async def commit(self, ops: list[MetadataPut]) -> None:
        await self.store.commit_metadata(ops)

    async def fill_metadata(self, namespace: str, count: int) -> None:
        for start in range(0, count, 100):
            await self.store.commit_metadata(
                [
                    MetadataPut(namespace, f"key-{i:05d}", {"i": i, "tag": "x" * 40})
                    for i in range(start, min(count, start + 100))
                ]
            )

    async def list_metadata(self, namespace: str) -> object:
        return await self.store.list_metadata(namespace)

    async def close(self) -> None:
        await self.store.close()
