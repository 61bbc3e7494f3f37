"""Broken durable stores, for the crash tests only (``-p broken_drivers.durable``).

They are SQLite stores with one durability bug each; ``tests/test_crash_catches_broken.py`` runs
the crash module of the suite against them and checks that exactly the declared rule fails.
(They are not in ``MODULES``: a full suite run per SQLite store would double the kit's CI time
for rules the reference SQLite driver already covers.)
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, Final, TypeVar

from aalis_memory.conformance.registry import (
    Capabilities,
    DriverContext,
    DriverRegistration,
    add_registration,
)
from aalis_memory.drivers.sqlite import SqliteMemory, _insert_message

T = TypeVar("T")
#: The round trip of one statement to a database server on the same machine.
ROUND_TRIP_S: Final = 0.0003
ATOMIC: Final = Capabilities(ordering="timestamp", metadata_atomicity="atomic",
                             archive_atomicity="atomic")


class CommitPerRow(SqliteMemory):
    """commit_metadata and archive_span commit after every row, one round trip each (as a
    client sending each statement to a server in autocommit mode would)."""

    def _after_write(self, written: int) -> None:
        conn = self._conn
        assert conn is not None
        conn.execute("COMMIT")
        time.sleep(ROUND_TRIP_S)
        conn.execute("BEGIN IMMEDIATE")


class AcksBeforeWriting(SqliteMemory):
    """save_message returns at once and writes messages five at a time (a write-behind buffer
    that every read flushes first, so no read can tell)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending: list[tuple[object, ...]] = []

    async def _call(self, job: Callable[..., T], *args: object) -> T:
        if job is _insert_message:
            self._pending.append(args[0])  # type: ignore[arg-type]
            if len(self._pending) < 5:
                return None  # type: ignore[return-value]
            job, args = _insert_many, (self._take(),)  # type: ignore[assignment]
        elif self._pending:
            await super()._call(_insert_many, self._take())
        return await super()._call(job, *args)

    def _take(self) -> list[tuple[object, ...]]:
        taken, self._pending = self._pending, []
        return taken


def _insert_many(conn: sqlite3.Connection, rows: list[tuple[object, ...]]) -> None:
    for row in rows:
        _insert_message(conn, row)


def _opener(cls: type[SqliteMemory]) -> Callable[[DriverContext], AsyncIterator[SqliteMemory]]:
    async def reopen(ctx: DriverContext) -> AsyncIterator[SqliteMemory]:
        store = await cls.open(ctx.tmp_path / "memory.sqlite3",
                               range_query_limit=ctx.range_query_limit,
                               cross_session_max_limit=ctx.cross_session_max_limit)
        yield store
        await store.close()

    return reopen


reopen_commit_per_row = _opener(CommitPerRow)
reopen_commit_per_row.__qualname__ = "reopen_commit_per_row"
reopen_acks_before_writing = _opener(AcksBeforeWriting)
reopen_acks_before_writing.__qualname__ = "reopen_acks_before_writing"

#: driver name -> the one crash rule it breaks
BREAKS: Final = {
    "broken-crash-commit-per-row": "CRASH-02",
    "broken-crash-acks-before-writing": "CRASH-01",
}

for _name, _hook, _cls in (
    ("broken-crash-commit-per-row", reopen_commit_per_row, CommitPerRow),
    ("broken-crash-acks-before-writing", reopen_acks_before_writing, AcksBeforeWriting),
):
    add_registration(DriverRegistration(
        name=_name, factory=_hook, capabilities=ATOMIC, reopen=_hook,
        description=(_cls.__doc__ or "").split("\n")[0],
    ))
