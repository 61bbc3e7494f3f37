"""How the SQLite reference driver opens: a store that cannot open raises and leaves no worker.

Found by mutation testing (issue 16): nothing opened a database that fails, so swallowing the
error, or leaving its worker thread behind, went unnoticed.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest

from aalis_memory.drivers.sqlite import SqliteMemory
from aalis_memory.types import Message


def _workers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("aalis-sqlite")]


async def _refused(path: Path | str, error: type[BaseException]) -> None:
    before = set(_workers())
    with pytest.raises(error):
        await SqliteMemory.open(path)
    for thread in set(_workers()) - before:
        thread.join(timeout=30)  # its queue holds one cleanup job, then it must end
        assert not thread.is_alive(), f"{thread.name} outlived a failed open"


async def test_a_path_that_cannot_be_opened_raises(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    await _refused(tmp_path, sqlite3.OperationalError)  # a folder, not a database file


async def test_an_unknown_schema_version_is_refused(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    path = tmp_path / "future.sqlite3"
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA user_version = 99")
    await _refused(path, RuntimeError)
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == []


async def test_a_database_without_wal_is_refused(aalis_memory_loop: asyncio.Runner) -> None:
    await _refused(":memory:", sqlite3.OperationalError)  # journal_mode stays "memory"


async def test_close_closes_the_database(tmp_path: Path, aalis_memory_loop: asyncio.Runner) -> None:
    """The last connection to close checkpoints the WAL and deletes it: proof it was closed."""
    path = tmp_path / "closed.sqlite3"
    store = await SqliteMemory.open(path)
    await store.save_metadata("ns", "k", {"v": 1})
    assert path.with_name(path.name + "-wal").exists()
    await store.close()
    assert not path.with_name(path.name + "-wal").exists(), "close() left the connection open"


async def test_integers_past_64_bits(tmp_path: Path, aalis_memory_loop: asyncio.Runner) -> None:
    """Timestamps and limits beyond SQLite's 64-bit integers still work (as REAL in SQL)."""
    stamps = [-(2**63) - 1, -(2**63), 2**63 - 1, 2**63, 2**70]
    async with await SqliteMemory.open(tmp_path / "big.sqlite3") as store:
        for ts in reversed(stamps):
            await store.save_message("s", Message(role="user", content=str(ts), timestamp=ts))
        # Past 2**63 - 1 the SQL column holds a REAL, so neighbours may tie there; the message
        # itself keeps its exact integer.
        got = await store.get_history("s", 2**64)
        assert sorted(m.timestamp or 0 for m in got) == stamps
        full = await store.get_full_history("s", 2**70)
        assert sorted(m.timestamp or 0 for m in full) == stamps
        assert await store.delete_messages_by_timestamps("s", [2**70, 2**63]) == 2
