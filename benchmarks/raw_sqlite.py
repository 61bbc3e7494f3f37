"""The raw SQLite side: stdlib ``sqlite3`` with the driver's pragmas (WAL, synchronous=NORMAL),
each save one committed INSERT of already-encoded text, each read one indexed SELECT plus
``json.loads``. Called on the event loop's own thread: no hand-off, which is the point."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from aalis_memory.types import MetadataPut
from benchmarks.sides import FULL, HISTORY, Item

_SCHEMA = (
    "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, "
    "ts NOT NULL, archived INTEGER NOT NULL DEFAULT 0, control INTEGER NOT NULL, "
    "body TEXT NOT NULL)",
    "CREATE INDEX messages_session ON messages (session_id, ts)",
    "CREATE INDEX messages_conversation ON messages (session_id, ts) WHERE archived = 0 AND control = 0",
    "CREATE TABLE metadata (namespace TEXT NOT NULL, key TEXT NOT NULL, data TEXT NOT NULL, "
    "updated_at INTEGER NOT NULL, PRIMARY KEY (namespace, key)) WITHOUT ROWID",
)
_INSERT = "INSERT INTO messages (session_id, ts, control, body) VALUES (?, ?, ?, ?)"


class RawSqlite:
    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA synchronous = NORMAL")
        self.conn.execute("PRAGMA journal_mode = WAL")
        for statement in _SCHEMA:
            self.conn.execute(statement)

    async def save(self, session: str, item: Item) -> None:
        self.conn.execute(_INSERT, (session, item.ts, 0, item.text))

    async def fill(self, session: str, items: list[Item]) -> None:
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.executemany(_INSERT, [(session, i.ts, 0, i.text) for i in items])

    async def history(self, session: str) -> object:
        rows = self.conn.execute(
            "SELECT body FROM messages WHERE session_id = ? AND archived = 0 AND control = 0 "
            "ORDER BY ts DESC, id DESC LIMIT ?",
            (session, HISTORY),
        ).fetchall()
        return [json.loads(body) for (body,) in reversed(rows)]

    async def count(self, session: str) -> int:
        row = self.conn.execute(
            "SELECT COUNT(*) FROM messages WHERE session_id = ? AND archived = 0 AND control = 0", (session,)
        ).fetchone()
        return int(row[0])

    async def full(self, session: str) -> object:
        rows = self.conn.execute(
            "SELECT body FROM messages WHERE session_id = ? ORDER BY ts DESC, id DESC LIMIT ?",
            (session, FULL),
        ).fetchall()
        return [json.loads(body) for (body,) in reversed(rows)]

    async def read_all(self, session: str) -> object:
        rows = self.conn.execute("SELECT body FROM messages WHERE session_id = ? ORDER BY ts, id", (session,))
        return [json.loads(body) for (body,) in rows]

    async def archive(self, session: str) -> int:
        self.conn.execute("BEGIN IMMEDIATE")
        row = self.conn.execute(
            "SELECT id FROM messages WHERE session_id = ? AND archived = 0 ORDER BY ts, id LIMIT 1",
            (session,),
        ).fetchone()
        if row is not None:
            self.conn.execute("UPDATE messages SET archived = 1 WHERE id = ?", (row[0],))
        self.conn.execute("COMMIT")
        return 0 if row is None else 1

    async def commit(self, ops: list[MetadataPut]) -> None:
        stamp = int(time.time() * 1000)
        self.conn.execute("BEGIN IMMEDIATE")
        for op in ops:
            self.conn.execute(
                "INSERT INTO metadata (namespace, key, data, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (namespace, key) DO UPDATE SET data = excluded.data, "
                "updated_at = excluded.updated_at",
                (op.namespace, op.key, json.dumps(op.data), stamp),
            )
        self.conn.execute("COMMIT")

    async def fill_metadata(self, namespace: str, count: int) -> None:
        await self.commit(
            [MetadataPut(namespace, f"key-{i:05d}", {"i": i, "tag": "x" * 40}) for i in range(count)]
        )

    async def list_metadata(self, namespace: str) -> object:
        return [
            (key, json.loads(data), updated_at)
            for key, data, updated_at in self.conn.execute(
                "SELECT key, data, updated_at FROM metadata WHERE namespace = ? ORDER BY key", (namespace,)
            )
        ]

    async def close(self) -> None:
        self.conn.close()
