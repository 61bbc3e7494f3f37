"""Broken durable stores, for the crash tests only (``-p broken_drivers.durable``).

They are SQLite stores with one durability bug each; ``tests/proofs/test_crash_catches_broken.py`` runs
the crash module of the suite against them and checks that exactly the declared rule fails. Two
more are no durability bug: one whose reopen hook refuses an empty folder (the crash rules must
be unverified, with the hook's error), one with a ``crash_cleanup`` hook (it must run per kill).
(They are not in ``MODULES``: a full suite run per SQLite store would double the kit's CI time
for rules the reference SQLite driver already covers.)
"""

from __future__ import annotations

import math
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, Final, TypeVar

from aalis_memory.conformance.registration.registry import (
    Capabilities,
    DriverContext,
    DriverRegistration,
    add_registration,
)
from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.sqlite import SqliteMemory, _insert_message
from aalis_memory.methods import OPTIONAL_METHODS
from aalis_memory.service import Limit
from aalis_memory.types import Message

T = TypeVar("T")
#: The round trip of one statement to a database server on the same machine.
ROUND_TRIP_S: Final = 0.0003
ATOMIC: Final = Capabilities(ordering="timestamp", metadata_atomicity="atomic", archive_atomicity="atomic")


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


class HistoryNewestFirst(SqliteMemory):
    """A sound durable store whose get_history returns its window newest message first (its
    query's ``ORDER BY`` descending, never reversed back).

    Decided from the rules' words before any run: HIST-02, "get_history is ascending by time".
    No crash rule: every acknowledged write survives a kill (CRASH-01) and every atomic call is
    all or nothing (CRASH-02); the crash checks read what survived through get_history, so what
    they see in it is HIST-02's to answer for, never theirs.
    """

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return list(reversed(await super().get_history(session_id, limit)))


class FullHistoryActiveOnly(SqliteMemory):
    """A sound durable store whose get_full_history leaves archived messages out (it reads the
    active history).

    Decided from the rules' words before any run: FULL-01, "get_full_history includes archived
    messages". The crash check counts the archived messages as the full history less the active
    one, so it sees none archived: its finding ("acknowledged archives lost") stands on FULL-01's
    read, and CRASH-01 is blocked by FULL-01, never failed. CRASH-02 holds (no archive is half
    applied, and the active messages are the latest).
    """

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        effective = sem.check_limit(limit, sem.DEFAULT_FULL_HISTORY_LIMIT, "limit")
        return sem.newest(await self.get_history(session_id, math.inf), effective)


def _insert_many(conn: sqlite3.Connection, rows: list[tuple[object, ...]]) -> None:
    for row in rows:
        _insert_message(conn, row)


def _opener(cls: type[SqliteMemory]) -> Callable[[DriverContext], AsyncIterator[SqliteMemory]]:
    async def reopen(ctx: DriverContext) -> AsyncIterator[SqliteMemory]:
        store = await cls.open(
            ctx.tmp_path / "memory.sqlite3",
            range_query_limit=ctx.range_query_limit,
            cross_session_max_limit=ctx.cross_session_max_limit,
        )
        yield store
        await store.close()

    return reopen


async def reopen_refusing_empty(ctx: DriverContext) -> AsyncIterator[SqliteMemory]:
    """Opens only a database that is already there (as a hook written for "reopen after a
    crash" alone might): the kit also calls it on an empty folder to start its writers, so the
    crash rules cannot be judged. Not a durability bug: the run must say so (``unverified``,
    with this error), never fail CRASH-01/02."""
    path = ctx.tmp_path / "memory.sqlite3"
    if not path.exists():
        raise FileNotFoundError(f"no database to reopen at {path}")
    async for store in _opener(SqliteMemory)(ctx):
        yield store


async def reopen_refusing_existing(ctx: DriverContext) -> AsyncIterator[SqliteMemory]:
    """Opens an empty folder, but not one a killed writer left (as a store whose files a crash
    leaves unopenable would): every acknowledged write is lost to its users, CRASH-01's words."""
    if (ctx.tmp_path / "memory.sqlite3").exists():
        raise RuntimeError("the store left by the killed writer cannot be opened")
    async for store in _opener(SqliteMemory)(ctx):
        yield store


async def _fresh_sqlite(ctx: DriverContext) -> AsyncIterator[SqliteMemory]:
    async for store in _opener(SqliteMemory)(ctx):
        yield store


reopen_commit_per_row = _opener(CommitPerRow)
reopen_commit_per_row.__qualname__ = "reopen_commit_per_row"
reopen_acks_before_writing = _opener(AcksBeforeWriting)
reopen_acks_before_writing.__qualname__ = "reopen_acks_before_writing"
reopen_history_newest_first = _opener(HistoryNewestFirst)
reopen_history_newest_first.__qualname__ = "reopen_history_newest_first"
reopen_full_history_active_only = _opener(FullHistoryActiveOnly)
reopen_full_history_active_only.__qualname__ = "reopen_full_history_active_only"

#: driver name -> the one crash rule it breaks
BREAKS: Final = {
    "broken-crash-commit-per-row": "CRASH-02",
    "broken-crash-acks-before-writing": "CRASH-01",
    "broken-crash-unopenable-after-kill": "CRASH-01",
}

#: A durable store with a read bug only (HIST-02): the crash rules read through it and must not
#: fail (its run also takes the history tests, which must fail HIST-02 alone).
READ_BUGS: Final = {
    "broken-crash-history-newest-first": "HIST-02",
    "broken-crash-full-history-active-only": "FULL-01",
}
#: What the crash rules must be for each of them: passed (a check that does not judge the read's
#: aspect) or blocked by the read's rule (a check whose finding stands on it).
READ_BUG_CRASH: Final = {
    "broken-crash-history-newest-first": {"CRASH-01": "pass", "CRASH-02": "pass"},
    "broken-crash-full-history-active-only": {"CRASH-01": "blocked", "CRASH-02": "pass"},
}

#: A driver whose reopen hook refuses an empty folder (the crash rules' expected verdicts).
REFUSES_EMPTY: Final = "broken-crash-reopen-refuses-empty"
#: A sound durable store of the required methods alone: no get_full_history, so the crash check
#: cannot tell an archived message from a lost one (the rules are unverified, never failed).
REQUIRED_ONLY: Final = "crash-required-methods-only"
UNVERIFIED: Final = {
    REFUSES_EMPTY: {"CRASH-01": "unverified", "CRASH-02": "unverified"},
    REQUIRED_ONLY: {"CRASH-01": "unverified", "CRASH-02": "unverified"},
}
#: The hook's own error, which the run must show.
REFUSAL: Final = "no database to reopen at"

#: A sound durable store with a ``crash_cleanup`` hook that leaves a mark in each kill's folder.
CLEANED: Final = "crash-cleanup-marks"
CLEANED_MARK: Final = "cleaned-by-crash-cleanup"


def mark_cleaned(ctx: DriverContext) -> None:
    """What a server backend would drop (its database named after ``ctx.tmp_path``): a mark."""
    (ctx.tmp_path / CLEANED_MARK).write_text("")


add_registration(
    DriverRegistration(
        name=CLEANED,
        factory=_fresh_sqlite,
        capabilities=ATOMIC,
        reopen=_fresh_sqlite,
        crash_cleanup=mark_cleaned,
        description="SQLite with a crash_cleanup hook",
    )
)

add_registration(
    DriverRegistration(
        name="broken-crash-unopenable-after-kill",
        factory=_fresh_sqlite,
        capabilities=ATOMIC,
        reopen=reopen_refusing_existing,
        description="reopen opens an empty folder but not the one a killed writer left",
    )
)

add_registration(
    DriverRegistration(
        name=REFUSES_EMPTY,
        factory=_fresh_sqlite,
        capabilities=ATOMIC,
        reopen=reopen_refusing_empty,
        description="reopen refuses an empty folder (the kit starts its writers on one)",
    )
)


class RequiredOnly:
    """A sound SQLite store showing only the contract's required methods (and ``close``)."""

    def __init__(self, inner: SqliteMemory) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        if name in OPTIONAL_METHODS:
            raise AttributeError(name)
        return getattr(self._inner, name)


async def _required_only(ctx: DriverContext) -> AsyncIterator[RequiredOnly]:
    async for store in _fresh_sqlite(ctx):
        yield RequiredOnly(store)


add_registration(
    DriverRegistration(
        name=REQUIRED_ONLY,
        factory=_required_only,
        capabilities=ATOMIC,
        reopen=_required_only,
        description="SQLite showing the required methods only (no get_full_history)",
    )
)

for _name, _hook, _cls in (
    ("broken-crash-commit-per-row", reopen_commit_per_row, CommitPerRow),
    ("broken-crash-acks-before-writing", reopen_acks_before_writing, AcksBeforeWriting),
    ("broken-crash-history-newest-first", reopen_history_newest_first, HistoryNewestFirst),
    ("broken-crash-full-history-active-only", reopen_full_history_active_only, FullHistoryActiveOnly),
):
    add_registration(
        DriverRegistration(
            name=_name,
            factory=_hook,
            capabilities=ATOMIC,
            reopen=_hook,
            description=(_cls.__doc__ or "").split("\n")[0],
        )
    )
