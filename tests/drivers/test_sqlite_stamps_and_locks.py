"""Two decisions of the SQLite reference driver a caller sees only in rare states: whose stamp a
metadata write grows from, and which error sends a call of the inline connection to the worker.

Found by mutation testing (issue 35): reading the previous stamp with ``namespace = ? OR key = ?``
and inverting the busy test of an error without a code both went unnoticed.
"""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

from aalis_memory.drivers import sqlite as sqlite_driver
from aalis_memory.drivers.semantics import now_ms
from aalis_memory.drivers.sqlite import SqliteMemory


async def test_a_stamp_grows_from_its_own_key_only(tmp_path: Path, aalis_memory_loop: asyncio.Runner) -> None:
    """updated_at grows past the key's own last stamp (written under a clock that was ahead, or
    has stepped back since), never past another key's: a new key written now is stamped now."""
    path = tmp_path / "stamps.sqlite3"
    ahead = now_ms() + 10**9  # about eleven days
    async with await SqliteMemory.open(path) as store:
        await store.save_metadata("ns", "ahead", {"v": 1})
        await store.save_metadata("other", "k", {"v": 1})
        with closing(sqlite3.connect(path)) as conn, conn:
            conn.execute("UPDATE metadata SET updated_at = ?", (ahead,))
        await store.save_metadata("ns", "k", {"v": 2})
        await store.save_metadata("ns", "ahead", {"v": 2})
        stamps = {e.key: e.updated_at for e in await store.list_metadata("ns")}
        assert stamps["ahead"] == ahead + 1, "an overwrite must stamp past the key's own last stamp"
        assert stamps["k"] <= now_ms(), (
            f"a new key was stamped {stamps['k'] - now_ms()} ms in the future: its previous "
            "stamp was read from another key's row"
        )


def _error(conn: sqlite3.Connection, sql: str) -> sqlite3.OperationalError:
    try:
        conn.execute(sql)
    except sqlite3.OperationalError as exc:
        return exc
    raise AssertionError(f"{sql!r} raised nothing")


def test_only_a_lock_sends_an_inline_call_to_the_worker(tmp_path: Path) -> None:
    """The inline connection (busy timeout 0) hands a call to the worker, which waits for the
    lock, only when SQLite could not take a lock; any other error reaches the caller at once.
    Judged by SQLite's error code: an error about a table named "locked" is no lock, and an
    extended busy code is one whatever its message. An error without a code (SQLite's own errors
    carry one since Python 3.11; an error the sqlite3 module or a wrapper raises may not) is
    judged by its text."""
    path = tmp_path / "busy.sqlite3"
    with (
        closing(sqlite3.connect(path, isolation_level=None)) as holder,
        closing(sqlite3.connect(path, timeout=0, isolation_level=None)) as waiter,
    ):
        holder.execute("CREATE TABLE t (x)")
        holder.execute("BEGIN IMMEDIATE")
        busy = _error(waiter, "BEGIN IMMEDIATE")
        no_table = _error(waiter, "SELECT * FROM locked")
        holder.execute("ROLLBACK")
    assert sqlite_driver._busy(busy), f"a write lock held by another connection is not busy: {busy!r}"
    assert not sqlite_driver._busy(no_table), f"a missing table is judged busy: {no_table!r}"
    relabeled = sqlite3.OperationalError("the other process holds it")
    relabeled.sqlite_errorcode = busy.sqlite_errorcode | (3 << 8)  # an extended busy code
    assert sqlite_driver._busy(relabeled), "an extended busy code is not judged busy"
    assert sqlite_driver._busy(sqlite3.OperationalError("database is locked"))
    assert not sqlite_driver._busy(sqlite3.OperationalError("disk I/O error"))
