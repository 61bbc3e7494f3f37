"""The raw MongoDB side: ``pymongo.AsyncMongoClient`` on the same server as the driver, each save
one ``insert_one`` of the already-built document, each read one indexed ``find``."""

from __future__ import annotations

import itertools
import time
from typing import Any

from pymongo import ASCENDING, DESCENDING, AsyncMongoClient, UpdateOne

from aalis_memory.types import MetadataPut
from benchmarks.sides import FULL, HISTORY, Item


class RawMongo:
    def __init__(self, client: AsyncMongoClient[Any], database: str) -> None:
        self.client = client
        self.db = client[database]
        self.messages = self.db["messages"]
        self.metadata = self.db["metadata"]
        self._seq = itertools.count()

    @classmethod
    async def open(cls, uri: str, database: str) -> RawMongo:
        raw = cls(AsyncMongoClient(uri), database)
        await raw.messages.create_index([("session_id", ASCENDING), ("ts", ASCENDING), ("seq", ASCENDING)])
        await raw.metadata.create_index([("namespace", ASCENDING), ("key", ASCENDING)], unique=True)
        return raw

    def _doc(self, session: str, item: Item) -> dict[str, Any]:
        return {
            "session_id": session,
            "ts": item.ts,
            "seq": next(self._seq),
            "archived": False,
            "control": False,
            "message": item.doc,
        }

    async def save(self, session: str, item: Item) -> None:
        await self.messages.insert_one(self._doc(session, item))

    async def fill(self, session: str, items: list[Item]) -> None:
        for start in range(0, len(items), 1000):
            await self.messages.insert_many([self._doc(session, i) for i in items[start : start + 1000]])

    async def history(self, session: str) -> object:
        docs = (
            await self.messages.find(
                {"session_id": session, "archived": False, "control": False}, {"message": 1}
            )
            .sort([("ts", DESCENDING), ("seq", DESCENDING)])
            .limit(HISTORY)
            .to_list()
        )
        return [d["message"] for d in reversed(docs)]

    async def count(self, session: str) -> int:
        return await self.messages.count_documents(
            {"session_id": session, "archived": False, "control": False}
        )

    async def full(self, session: str) -> object:
        docs = (
            await self.messages.find({"session_id": session}, {"message": 1})
            .sort([("ts", DESCENDING), ("seq", DESCENDING)])
            .limit(FULL)
            .to_list()
        )
        return [d["message"] for d in reversed(docs)]

    async def read_all(self, session: str) -> object:
        docs = (
            await self.messages.find({"session_id": session}, {"message": 1})
            .sort([("ts", ASCENDING), ("seq", ASCENDING)])
            .to_list()
        )
        return [d["message"] for d in docs]

    async def archive(self, session: str) -> int:
        found = await self.messages.find_one_and_update(
            {"session_id": session, "archived": False},
            {"$set": {"archived": True}},
            sort=[("ts", ASCENDING), ("seq", ASCENDING)],
        )
        return 0 if found is None else 1

    async def commit(self, ops: list[MetadataPut]) -> None:
        stamp = int(time.time() * 1000)
        await self.metadata.bulk_write(
            [
                UpdateOne(
                    {"namespace": op.namespace, "key": op.key},
                    {"$set": {"data": op.data, "updated_at": stamp}},
                    upsert=True,
                )
                for op in ops
            ],
            ordered=True,
        )

    async def fill_metadata(self, namespace: str, count: int) -> None:
        await self.commit(
            [MetadataPut(namespace, f"key-{i:05d}", {"i": i, "tag": "x" * 40}) for i in range(count)]
        )

    async def list_metadata(self, namespace: str) -> object:
        docs = await self.metadata.find({"namespace": namespace}).sort("key", ASCENDING).to_list()
        return [(d["key"], d["data"], d["updated_at"]) for d in docs]

    async def close(self) -> None:
        await self.client.drop_database(self.db.name)
        await self.client.close()
