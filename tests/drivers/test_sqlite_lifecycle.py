"""How the SQLite reference driver opens: a store that cannot open raises, and leaves no worker
and no open file behind.

Found by mutation testing (issue 16): nothing opened a database that fails, so swallowing the
error, or leaving its worker thread behind, went unnoticed.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest

from aalis_memory.drivers.sqlite import SCHEMA_VERSION, SqliteMemory
from aalis_memory.types import Message, MetadataDel, MetadataPut


def _workers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("aalis-sqlite")]


async def _refused(path: Path | str, error: type[BaseException]) -> None:
    before = set(_workers())
    with pytest.raises(error):
        await SqliteMemory.open(path)
    for thread in set(_workers()) - before:
        thread.join(timeout=30)  # its queue holds one cleanup job, then it must end
        assert not thread.is_alive(), f"{thread.name} outlived a failed open"


async def test_a_path_that_cannot_be_opened_raises(tmp_path: Path, aalis_memory_loop: asyncio.Runner) -> None:
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


_FDS = Path("/proc/self/fd")


def _open_files(path: Path) -> list[str]:
    """The files of this process open at ``path`` or beside it (its -wal and -shm)."""
    found = []
    for fd in os.listdir(_FDS):
        try:
            target = os.readlink(_FDS / fd)
        except OSError:
            continue  # closed since the listing (the listing's own descriptor)
        if target.startswith(str(path)):
            found.append(target)
    return found


@pytest.mark.skipif(not _FDS.is_dir(), reason="needs /proc/self/fd to list the open files")
async def test_a_refused_open_leaves_no_file_open(tmp_path: Path, aalis_memory_loop: asyncio.Runner) -> None:
    """The error of a refused open may live long (logged, kept, retried later): it must not hold
    the database file open meanwhile."""
    path = tmp_path / "future.sqlite3"
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(RuntimeError, match="schema version 99") as refused:
        await SqliteMemory.open(path)
    assert _open_files(path) == [], f"still open while the caller holds {refused.value!r}"


async def test_a_version_1_database_gets_its_counts_when_opened(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    """Schema version 2 and later keep count_history's counts in a table; a version 1 file (no such
    table) is brought up to date from its messages when it is opened."""
    path = tmp_path / "v1.sqlite3"
    async with await SqliteMemory.open(path) as store:
        for i in range(5):
            await store.save_message("s", Message(role="user", content=f"m{i}", timestamp=i))
        await store.save_message("s", Message(role="system", content="d", timestamp=9, kind="event-marker"))
        await store.archive_span("s", 1)
    with closing(sqlite3.connect(path)) as conn:
        conn.executescript(
            "DROP TABLE conversation_counts; DROP TRIGGER count_insert; "
            "DROP TRIGGER count_delete; DROP TRIGGER count_update; "
            "PRAGMA user_version = 1;"
        )
    async with await SqliteMemory.open(path) as store:
        assert await store.count_history("s") == 4
        await store.save_message("s", Message(role="user", content="m5", timestamp=10))
        assert await store.count_history("s") == 5
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def _indexes(path: Path) -> set[str]:
    with closing(sqlite3.connect(path)) as conn:
        return {
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' "
                "AND name NOT LIKE 'sqlite_%'"
            )
        }


async def test_a_version_2_database_gets_the_one_session_index_when_opened(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    """Schema version 3 reads a session along one index, messages_state; a version 2 file had
    two (messages_session and messages_active). Opening it swaps them, and every read still
    answers: the active run, both runs merged, the count."""
    path = tmp_path / "v2.sqlite3"
    async with await SqliteMemory.open(path) as store:
        for i in range(6):
            await store.save_message("s", Message(role="user", content=f"m{i}", timestamp=i))
        await store.archive_span("s", 2)
    with closing(sqlite3.connect(path)) as conn:
        conn.executescript(
            "DROP INDEX messages_state; "
            "CREATE INDEX messages_session ON messages (session_id, ts); "
            "CREATE INDEX messages_active ON messages (session_id, ts) WHERE archived = 0; "
            "PRAGMA user_version = 2;"
        )
    assert _indexes(path) == {"messages_session", "messages_active", "messages_recent"}
    async with await SqliteMemory.open(path) as store:
        assert [m.content for m in await store.get_history("s")] == ["m2", "m3", "m4", "m5"]
        assert [m.content for m in await store.get_full_history("s")] == [f"m{i}" for i in range(6)]
        assert await store.count_history("s") == 4
    assert _indexes(path) == {"messages_state", "messages_recent"}
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


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


async def test_close_ends_the_worker_thread(tmp_path: Path, aalis_memory_loop: asyncio.Runner) -> None:
    """A closed store leaves no thread behind: a run opens one store per test, so a worker that
    outlived its store would pile up for the whole run. (close() without its worker's shutdown
    still passes: the executor, no longer referenced, lets its threads go; see the mutation
    equivalents.)"""
    before = set(_workers())
    store = await SqliteMemory.open(tmp_path / "closed.sqlite3")
    await store.save_metadata("ns", "k", {"v": 1})
    opened = set(_workers()) - before
    assert opened, "the store runs no worker thread of its own: this test no longer sees it"
    await store.close()
    for thread in opened:
        thread.join(timeout=30)  # told to stop at close, with nothing queued: it ends at once
        assert not thread.is_alive(), f"{thread.name} outlived close()"


async def test_integers_past_64_bits(tmp_path: Path, aalis_memory_loop: asyncio.Runner) -> None:
    """Timestamps at the ends of SQLite's 64-bit integers are stored exactly, one past them is
    refused (INPUT-03) with nothing stored, and limits past 64 bits still read everything. The
    64 bits bound integers only: a float past them is a number like any other."""
    stamps = [-(2.0**70), -(2**63), -(2**63) + 1, 2**63 - 2, 2**63 - 1, 2.0**70]
    async with await SqliteMemory.open(tmp_path / "big.sqlite3") as store:
        for ts in reversed(stamps):
            await store.save_message("s", Message(role="user", content=str(ts), timestamp=ts))
        for ts in (-(2**63) - 1, 2**63, 2**70):
            with pytest.raises(ValueError, match="64 signed bits"):
                await store.save_message("s", Message(role="user", content="x", timestamp=ts))
        got = await store.get_history("s", 2**64)
        assert [m.timestamp for m in got] == stamps
        full = await store.get_full_history("s", 2**70)
        assert [m.timestamp for m in full] == stamps
        assert await store.delete_messages_by_timestamps("s", [2**63 - 1, -(2**63), 2.0**70]) == 3


class _FailsOnFirstWrite(SqliteMemory):
    """Raises inside the write transaction, after the first row is written."""

    def _after_write(self, written: int) -> None:
        self.seen.append(written)
        if self.fail:
            raise RuntimeError("disk on fire")

    seen: list[int]
    fail = False


async def test_a_failed_write_is_rolled_back_and_the_store_goes_on(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    store = await _FailsOnFirstWrite.open(tmp_path / "rollback.sqlite3")
    store.seen = []
    async with store:
        await store.commit_metadata([MetadataPut("ns", k, {"v": k}) for k in ("a", "b", "c")])
        assert store.seen == [1, 2, 3], "the _after_write seam counts the rows written so far"
        store.fail = True
        with pytest.raises(RuntimeError, match="disk on fire"):
            await store.commit_metadata([MetadataPut("ns", "d", {"v": "d"}), MetadataDel("ns", "a")])
        store.fail = False
        assert [e.key for e in await store.list_metadata("ns")] == ["a", "b", "c"]
        await store.save_metadata("ns", "e", {"v": "e"})  # no transaction was left open
        assert await store.list_metadata_keys("ns") == ["a", "b", "c", "e"]


async def test_a_row_with_an_unreadable_updated_at_is_skipped(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    path = tmp_path / "stamp.sqlite3"
    async with await SqliteMemory.open(path) as store:
        await store.save_metadata("ns", "good", {"v": 1})
        with closing(sqlite3.connect(path)) as conn, conn:
            conn.execute("INSERT INTO metadata VALUES ('ns', 'bad', '{}', 'yesterday')")
        assert [e.key for e in await store.list_metadata("ns")] == ["good"]


async def test_integers_past_float_precision_order_exactly(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    """2**53 + 1 is no float: the SQL column must keep such timestamps as integers."""
    async with await SqliteMemory.open(tmp_path / "exact.sqlite3") as store:
        for ts in (2**53 + 1, 2**53):
            await store.save_message("s", Message(role="user", content=str(ts), timestamp=ts))
        assert [m.timestamp for m in await store.get_history("s")] == [2**53, 2**53 + 1]
