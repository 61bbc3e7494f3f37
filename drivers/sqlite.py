"""The SQLite reference driver: timestamp ordering, atomic tiers, stdlib ``sqlite3`` in WAL mode.

Concurrency: a ``sqlite3`` connection must not be used by two threads at once, and its calls
may block. Each store therefore owns one connection living on one private worker thread (a
single-thread executor); a contract call is one job on that thread. Jobs run one at a time in
submission order, so concurrent async callers of one store are serialized without a lock, and
``check_same_thread`` stays on as a guard. Handing a call to a thread and back costs more than
most calls themselves, so when the worker has nothing queued or running, a call runs at once on
the event loop's thread, on a second connection that never waits for a lock (busy timeout 0):
if SQLite is busy (another connection or process holds the write lock), the call goes to the
worker as before, where it may wait. A call of one store therefore still starts only after the
calls made before it have finished, the loop never waits for a lock, and a task calling the
store again and again still lets the other tasks run (at least every 8th call). A store whose
``_after_write`` seam is overridden (tests that pause a writer inside its transaction) always
uses the worker. No transaction spans an ``await``: a job opens and finishes its own
transaction, so a cancelled caller can never leave one half done. Other connections (other
stores, other processes) are kept apart by SQLite itself: writes take the write lock up front
(``BEGIN IMMEDIATE``) and multi-statement reads run inside one read transaction, which in WAL
mode is a snapshot that a concurrent writer never tears.

Storage: each message is its lossless ``Message.to_json()`` text plus the columns the queries
need (session, timestamp, archived, control flag). History order is (timestamp, row id) in
every read, the autoincrement id being the write order. Each session's count of active
conversation messages is kept in its own table by triggers, in the transaction of every write,
so ``count_history`` is one seek however long the session. ``synchronous=NORMAL`` is the WAL
setting that survives a process crash with every committed transaction; a power loss may lose
the newest commits but never tears one.
"""

from __future__ import annotations

import asyncio
import functools
import math
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from os import PathLike
from pathlib import Path
from typing import Final, Self, TypeVar

from aalis_memory.drivers import semantics as sem
from aalis_memory.service import Limit
from aalis_memory.types import (
    JsonObject,
    Message,
    MetadataEntry,
    MetadataOp,
    MetadataPut,
    RecentMessageRecord,
    RecentMessagesAcrossSessionsQuery,
)

T = TypeVar("T")

SCHEMA_VERSION: Final = 3
#: Versions this driver opens: an older one is brought up to date when it is opened.
_KNOWN_VERSIONS: Final = (0, 1, 2, SCHEMA_VERSION)

#: Larger SQL limits than this mean "no limit" (SQLite integers are 64-bit).
_SQL_INT_MAX: Final = 2**63 - 1

#: Parameters per ``IN (...)`` statement, well under SQLite's variable cap.
_CHUNK: Final = 500

_SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS messages (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,  -- the write order
        session_id TEXT    NOT NULL,
        ts                 NOT NULL,  -- no affinity: numbers compare as numbers, text never
        archived   INTEGER NOT NULL DEFAULT 0,  -- 0 or 1, never anything else
        control    INTEGER NOT NULL,  -- kind in CONTROL_KINDS
        body       TEXT    NOT NULL   -- Message.to_json() text
    )""",
    # Every read of one session, in (ts, id) order: the active entries alone (get_history's
    # walk back from the newest, archive positions, rewrites), or both runs merged by SQLite
    # (full history, range reads; see _both_runs). One index instead of schema 2's two,
    # messages_session (session_id, ts) and messages_active (the same, WHERE archived = 0),
    # which every save wrote both: the INSERT alone went from 38-40 us to 35 (README).
    "CREATE INDEX IF NOT EXISTS messages_state ON messages (session_id, archived, ts)",
    "DROP INDEX IF EXISTS messages_session",
    "DROP INDEX IF EXISTS messages_active",
    # (schema 1 had messages_conversation for the cut of get_history and count_history; the
    # walk along the active entries and the counts table do without it)
    "DROP INDEX IF EXISTS messages_conversation",
    # newest active messages of every session
    "CREATE INDEX IF NOT EXISTS messages_recent ON messages (ts) WHERE archived = 0",
    """CREATE TABLE IF NOT EXISTS metadata (
        namespace  TEXT    NOT NULL,
        key        TEXT    NOT NULL,
        data       TEXT    NOT NULL,  -- JSON text of an object (unreadable rows are skipped)
        updated_at INTEGER NOT NULL,  -- epoch ms, grows on every overwrite
        PRIMARY KEY (namespace, key)
    ) WITHOUT ROWID""",
    # count_history in one seek: each session's active conversation messages, kept by triggers
    # inside the transaction of every write, whichever connection makes it (schema version 2)
    """CREATE TABLE IF NOT EXISTS conversation_counts (
        session_id TEXT    PRIMARY KEY,
        active     INTEGER NOT NULL
    ) WITHOUT ROWID""",
    """CREATE TRIGGER IF NOT EXISTS count_insert AFTER INSERT ON messages
    WHEN NEW.archived = 0 AND NEW.control = 0
    BEGIN
        INSERT INTO conversation_counts (session_id, active) VALUES (NEW.session_id, 1)
        ON CONFLICT (session_id) DO UPDATE SET active = active + 1;
    END""",
    """CREATE TRIGGER IF NOT EXISTS count_delete AFTER DELETE ON messages
    WHEN OLD.archived = 0 AND OLD.control = 0
    BEGIN
        UPDATE conversation_counts SET active = active - 1 WHERE session_id = OLD.session_id;
        DELETE FROM conversation_counts WHERE session_id = OLD.session_id AND active = 0;
    END""",
    """CREATE TRIGGER IF NOT EXISTS count_update AFTER UPDATE OF session_id, archived, control
    ON messages
    BEGIN
        UPDATE conversation_counts SET active = active - 1
        WHERE session_id = OLD.session_id AND OLD.archived = 0 AND OLD.control = 0;
        DELETE FROM conversation_counts WHERE session_id = OLD.session_id AND active = 0;
        INSERT INTO conversation_counts (session_id, active)
        SELECT NEW.session_id, 1 WHERE NEW.archived = 0 AND NEW.control = 0
        ON CONFLICT (session_id) DO UPDATE SET active = active + 1;
    END""",
)

#: Rebuilds the counts from the messages (opening a database of schema version 0 or 1).
_RECOUNT: Final = (
    "DELETE FROM conversation_counts",
    "INSERT INTO conversation_counts (session_id, active) SELECT session_id, COUNT(*) "
    "FROM messages WHERE archived = 0 AND control = 0 GROUP BY session_id",
)

# get_history: the active messages newest first, along messages_state (no sort), read only as
# far back as the (limit+1)-th newest conversation message; one statement is one snapshot
# (see tests/drivers/test_sqlite_driver.py).
_HISTORY_NEWEST_FIRST: Final = """
SELECT control, body FROM messages
WHERE session_id = ? AND archived = 0
ORDER BY ts DESC, id DESC
"""


def _both_runs(where: str, order: str) -> str:
    """A read of all the messages of session ``?1``: the active and the archived run of
    messages_state, each already in (ts, id) order, merged by SQLite as they are read (a
    ``MERGE (UNION ALL)`` plan: no sort, and a ``LIMIT`` stops both walks early)."""
    arms = (
        f"SELECT body, ts, id FROM messages WHERE session_id = ?1 AND archived = {run}{where}"
        for run in (0, 1)
    )
    return f"{' UNION ALL '.join(arms)} ORDER BY {order}"


_FULL_NEWEST_FIRST: Final = _both_runs("", "ts DESC, id DESC LIMIT ?2")
_RANGE: Final = _both_runs(" AND ts BETWEEN ?2 AND ?3", "ts, id")


class SqliteMemory:
    """A complete MemoryService in one SQLite file; open with ``await SqliteMemory.open(path)``."""

    def __init__(
        self,
        path: str | PathLike[str],
        *,
        range_query_limit: int = sem.DEFAULT_RANGE_QUERY_LIMIT,
        cross_session_max_limit: int = sem.DEFAULT_CROSS_SESSION_MAX_LIMIT,
    ) -> None:
        self.path = Path(path)
        self.range_query_limit = sem.check_cap(range_query_limit, "range_query_limit")
        self.cross_session_max_limit = sem.check_cap(cross_session_max_limit, "cross_session_max_limit")
        self._worker: ThreadPoolExecutor | None = None
        self._conn: sqlite3.Connection | None = None
        #: The connection calls use on the event loop's thread while the worker is idle.
        self._inline: sqlite3.Connection | None = None
        self._owner = threading.get_ident()
        #: Jobs submitted to the worker and not finished yet (changed under ``_lock``).
        self._jobs_in_worker = 0
        #: Calls run on the event loop's thread so far (every _YIELD_EVERY-th gives it away).
        self._inline_calls = 0
        self._lock = threading.Lock()

    # -- lifecycle ------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | PathLike[str],
        *,
        range_query_limit: int = sem.DEFAULT_RANGE_QUERY_LIMIT,
        cross_session_max_limit: int = sem.DEFAULT_CROSS_SESSION_MAX_LIMIT,
    ) -> Self:
        """Open (creating if needed) the database at ``path``; a subclass opens as itself."""
        store = cls(
            path,
            range_query_limit=range_query_limit,
            cross_session_max_limit=cross_session_max_limit,
        )
        worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="aalis-sqlite")
        try:
            await asyncio.get_running_loop().run_in_executor(worker, store._connect)
        except BaseException:
            worker.submit(store._disconnect)  # runs after a connect that outlived a cancel
            worker.shutdown(wait=False)
            raise
        if type(store)._after_write is SqliteMemory._after_write:
            try:
                store._inline = store._connect_inline()
            except BaseException:
                worker.submit(store._disconnect)
                worker.shutdown(wait=False)
                raise
        store._owner = threading.get_ident()
        store._worker = worker
        return store

    def _connect_inline(self) -> sqlite3.Connection:
        """The event-loop thread's connection (the schema exists): never waits for a lock."""
        conn = sqlite3.connect(self.path, timeout=0, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA synchronous = NORMAL")
        except BaseException:
            conn.close()
            raise
        return conn

    def _connect(self) -> None:
        conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        try:
            conn.execute("PRAGMA synchronous = NORMAL")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise sqlite3.OperationalError(f"{self.path}: cannot use WAL (got {mode!r})")
            with _transaction(conn):
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version not in _KNOWN_VERSIONS:
                    raise RuntimeError(
                        f"{self.path}: schema version {version}, this driver knows {SCHEMA_VERSION}"
                    )
                for statement in _SCHEMA:
                    conn.execute(statement)
                if version != SCHEMA_VERSION:
                    for statement in _RECOUNT:  # the counts came with schema 2: count afresh
                        conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    async def close(self) -> None:
        """Finish the queued calls, then close the connection; closing twice is harmless."""
        worker, self._worker = self._worker, None
        if worker is None:
            return
        inline, self._inline = self._inline, None
        if inline is not None:
            inline.close()
        try:
            await asyncio.get_running_loop().run_in_executor(worker, self._disconnect)
        finally:
            worker.shutdown(wait=False)

    def _disconnect(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def _call(self, job: Callable[..., T], *args: object) -> T:
        """Run ``job(connection, *args)`` on the store's worker thread."""
        worker = self._worker
        if worker is None:
            raise RuntimeError(
                f"{type(self).__name__} at {self.path} is not open "
                "(use `await SqliteMemory.open(path)`; it may have been closed)"
            )
        inline = self._inline
        if (
            inline is not None
            and self._jobs_in_worker == 0
            and threading.get_ident() == self._owner
            and getattr(job, "__func__", job) in _ATOMIC_JOBS
        ):
            try:
                result = job(inline, *args)
            except sqlite3.OperationalError as exc:
                if not _busy(exc):
                    raise
                # busy: nothing was done (a failed transaction is rolled back); wait on the worker
            else:
                self._inline_calls += 1
                if self._inline_calls % _YIELD_EVERY == 0:
                    await asyncio.sleep(0)  # other tasks get their turn (see _YIELD_EVERY)
                return result
        bound = functools.partial(self._with_connection, job, args)
        with self._lock:
            self._jobs_in_worker += 1
        return await asyncio.get_running_loop().run_in_executor(worker, bound)

    def _with_connection(self, job: Callable[..., T], args: tuple[object, ...]) -> T:
        try:
            if self._conn is None:
                raise RuntimeError(f"{type(self).__name__} at {self.path} is closed")
            return job(self._conn, *args)
        finally:
            with self._lock:
                self._jobs_in_worker -= 1

    def _after_write(self, written: int) -> None:
        """Called inside the write transaction of ``commit_metadata`` and ``archive_span`` after
        each row written; a no-op seam that lets tests pause or kill a writer mid-transaction."""

    # -- messages -------------------------------------------------------------------------

    async def save_message(self, session_id: str, message: Message) -> None:
        session_id, message, text = sem.prepare_message(session_id, message)
        # prepare_message checked the timestamp: a finite number, an int within 64 bits
        row = (session_id, message.timestamp, message.is_control, text)
        await self._call(_insert_message, row)

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        session_id = sem.check_session_id(session_id)
        effective = sem.check_limit(limit, sem.DEFAULT_HISTORY_LIMIT, "limit")
        return await self._call(_history, session_id, effective)

    async def count_history(self, session_id: str) -> int:
        return await self._call(_count_conversation, sem.check_session_id(session_id))

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        session_id = sem.check_session_id(session_id)
        effective = sem.check_limit(limit, sem.DEFAULT_FULL_HISTORY_LIMIT, "limit")
        return await self._call(_full_history, session_id, effective)

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        session_id = sem.check_session_id(session_id)
        span = sem.check_count(count)
        kept = sem.check_keep(keep)
        return await self._call(self._archive, session_id, span, kept)

    def _archive(self, conn: sqlite3.Connection, session_id: str, span: int, kept: tuple[int, ...]) -> int:
        with _transaction(conn):
            ids = [
                row[0]
                for row in conn.execute(
                    "SELECT id FROM messages WHERE session_id = ? AND archived = 0 ORDER BY ts, id LIMIT ?",
                    (session_id, _sql_limit(span)),
                )
            ]
            positions = sem.archive_positions(len(ids), span, kept)
            for written, position in enumerate(positions, 1):
                conn.execute("UPDATE messages SET archived = 1 WHERE id = ?", (ids[position],))
                self._after_write(written)
        return len(positions)

    async def clear_session(self, session_id: str) -> None:
        session_id = sem.check_session_id(session_id)
        await self._call(_execute, "DELETE FROM messages WHERE session_id = ?", (session_id,))

    async def clear_all(self) -> None:
        await self._call(_execute, "DELETE FROM messages", ())

    async def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        session_id = sem.check_session_id(session_id)
        from_ts, to_ts, roles, exclude_kinds = sem.check_range(from_ts, to_ts, roles, exclude_kinds)
        bounds = (from_ts, to_ts)
        keep = sem.range_filter(from_ts, to_ts, roles, exclude_kinds)
        return await self._call(_range, session_id, bounds, keep, self.range_query_limit)

    async def get_recent_messages_across_sessions(
        self, query: RecentMessagesAcrossSessionsQuery
    ) -> list[RecentMessageRecord]:
        query = sem.check_query(query)
        limit = sem.check_limit(query.limit, sem.DEFAULT_CROSS_SESSION_MAX_LIMIT, "query.limit")
        wanted = int(min(limit, self.cross_session_max_limit))
        # check_query checked since_ts: a number, never NaN, an int within 64 bits
        return await self._call(_recent, sem.cross_session_filter(query), query.since_ts, wanted)

    async def update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int:
        session_id = sem.check_session_id(session_id)
        old_text, new_text = sem.check_rewrite(old_text, new_text)
        effective = sem.check_limit(recent_limit, sem.DEFAULT_UPDATE_RECENT_LIMIT, "recent_limit")
        return await self._call(_rewrite, session_id, old_text, new_text, effective)

    async def delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        session_id = sem.check_session_id(session_id)
        doomed = sem.check_timestamps(timestamps)
        if not doomed:
            return 0
        return await self._call(_delete_by_timestamps, session_id, doomed)

    # -- metadata -------------------------------------------------------------------------

    async def save_metadata(self, namespace: str, key: str, data: JsonObject) -> None:
        await self.commit_metadata([MetadataPut(namespace, key, data)])

    async def get_metadata(self, namespace: str, key: str) -> JsonObject | None:
        namespace, key = sem.check_key(namespace, key)
        return await self._call(_get_metadata, namespace, key)

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        return await self._call(_list_metadata, sem.check_namespace(namespace))

    async def list_metadata_keys(self, namespace: str) -> list[str]:
        return await self._call(_list_metadata_keys, sem.check_namespace(namespace))

    async def delete_metadata(self, namespace: str, key: str) -> None:
        namespace, key = sem.check_key(namespace, key)
        await self._call(_execute, "DELETE FROM metadata WHERE namespace = ? AND key = ?", (namespace, key))

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        batch = sem.encode_batch(ops)  # every payload is encoded before anything is written
        if batch:
            await self._call(self._commit, batch)

    def _commit(self, conn: sqlite3.Connection, batch: list[tuple[MetadataOp, str | None]]) -> None:
        with _transaction(conn):
            for written, (op, text) in enumerate(batch, 1):
                if text is None:
                    conn.execute(
                        "DELETE FROM metadata WHERE namespace = ? AND key = ?",
                        (op.namespace, op.key),
                    )
                else:
                    previous = conn.execute(
                        "SELECT updated_at FROM metadata WHERE namespace = ? AND key = ?",
                        (op.namespace, op.key),
                    ).fetchone()
                    stamp = sem.next_updated_at(None if previous is None else int(previous[0]))
                    conn.execute(
                        "INSERT INTO metadata (namespace, key, data, updated_at) "
                        "VALUES (?, ?, ?, ?) ON CONFLICT (namespace, key) DO UPDATE SET "
                        "data = excluded.data, updated_at = excluded.updated_at",
                        (op.namespace, op.key, text, stamp),
                    )
                self._after_write(written)


# -- work done on the worker thread ---------------------------------------------------------


@contextmanager
def _transaction(conn: sqlite3.Connection, mode: str = "IMMEDIATE") -> Iterator[None]:
    """One transaction: IMMEDIATE for writes (the write lock up front, so no upgrade can fail
    halfway), DEFERRED for a snapshot read across several statements."""
    conn.execute(f"BEGIN {mode}")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # never leave the connection inside a failed transaction
            conn.execute("ROLLBACK")
        raise


def _busy(exc: sqlite3.OperationalError) -> bool:
    """SQLite could not take a lock at once (SQLITE_BUSY or SQLITE_LOCKED, any extended code)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(exc)


def _execute(conn: sqlite3.Connection, sql: str, params: tuple[object, ...]) -> None:
    conn.execute(sql, params)


def _insert_message(conn: sqlite3.Connection, row: tuple[object, ...]) -> None:
    conn.execute("INSERT INTO messages (session_id, ts, control, body) VALUES (?, ?, ?, ?)", row)


def _history(conn: sqlite3.Connection, session_id: str, limit: int | float) -> list[Message]:
    """One index walk back from the newest active message, stopping at the (limit+1)-th newest
    conversation message; only the rows after it are decoded, and the shared rule then shapes
    them (so limit 0 and every edge case are decided in one place for all drivers)."""
    bodies: list[str] = []
    if limit == 0:
        return []
    seen = 0
    cursor = conn.execute(_HISTORY_NEWEST_FIRST, (session_id,))
    try:
        for control, body in cursor:
            if not control:
                seen += 1
                if seen > limit:
                    break
            bodies.append(body)
    finally:
        cursor.close()
    bodies.reverse()
    return sem.history_window(_decode_messages(bodies), limit)


def _count_conversation(conn: sqlite3.Connection, session_id: str) -> int:
    row = conn.execute(
        "SELECT active FROM conversation_counts WHERE session_id = ?", (session_id,)
    ).fetchone()
    return 0 if row is None else int(row[0])


def _full_history(conn: sqlite3.Connection, session_id: str, limit: int | float) -> list[Message]:
    # each row's (ts, id) is dropped as it is read: a whole session's worth would be held at once
    bodies = [body for body, _ts, _id in conn.execute(_FULL_NEWEST_FIRST, (session_id, _sql_limit(limit)))]
    bodies.reverse()
    return sem.newest(_decode_messages(bodies), limit)


def _range(
    conn: sqlite3.Connection,
    session_id: str,
    bounds: tuple[int | float, int | float],
    keep: Callable[[Message], bool],
    cap: int,
) -> list[Message]:
    hits: list[Message] = []
    cursor = conn.execute(_RANGE, (session_id, *bounds))
    for body, _ts, _id in cursor:
        if len(hits) >= cap:
            break
        message = _decode_message(body)
        if keep(message):
            hits.append(message)
    cursor.close()
    return hits


def _recent(
    conn: sqlite3.Connection,
    keep: Callable[[str, Message], bool],
    since: int | float | None,
    wanted: int,
) -> list[RecentMessageRecord]:
    if wanted == 0:
        return []
    # since_ts was checked to be a number (never NaN); the filter re-checks it anyway.
    sql = "SELECT session_id, body FROM messages WHERE archived = 0"
    params: tuple[object, ...] = ()
    if since is not None:
        sql += " AND ts >= ?"
        params = (since,)
    # Newest first along messages_recent; stops as soon as enough messages pass the filter.
    hits: list[RecentMessageRecord] = []
    cursor = conn.execute(sql + " ORDER BY ts DESC, id DESC", params)
    for session_id, body in cursor:
        message = _decode_message(body)
        if keep(session_id, message):
            hits.append(RecentMessageRecord(session_id, message))
            if len(hits) >= wanted:
                break
    cursor.close()
    hits.reverse()
    return hits


def _rewrite(
    conn: sqlite3.Connection, session_id: str, old_text: str, new_text: str, limit: int | float
) -> int:
    changed = 0
    with _transaction(conn):
        rows = conn.execute(
            "SELECT id, body FROM messages WHERE session_id = ? AND archived = 0 "
            "ORDER BY ts DESC, id DESC LIMIT ?",
            (session_id, _sql_limit(limit)),
        ).fetchall()  # the newest `limit` active rows; each is rewritten on its own
        for row_id, body in rows:
            rewritten = sem.rewrite_content(_decode_message(body), old_text, new_text)
            if rewritten is not None:
                conn.execute(
                    "UPDATE messages SET body = ? WHERE id = ?",
                    (sem.message_text(rewritten), row_id),
                )
                changed += 1
    return changed


def _delete_by_timestamps(conn: sqlite3.Connection, session_id: str, doomed: list[int | float]) -> int:
    removed = 0
    with _transaction(conn):
        for start in range(0, len(doomed), _CHUNK):
            chunk = doomed[start : start + _CHUNK]
            marks = ", ".join("?" * len(chunk))
            cursor = conn.execute(
                "DELETE FROM messages WHERE session_id = ? AND archived IN (0, 1) "
                f"AND ts IN ({marks})",  # seeks along messages_state
                (session_id, *chunk),
            )
            removed += cursor.rowcount
    return removed


def _get_metadata(conn: sqlite3.Connection, namespace: str, key: str) -> JsonObject | None:
    row = conn.execute(
        "SELECT data FROM metadata WHERE namespace = ? AND key = ?", (namespace, key)
    ).fetchone()
    return None if row is None else _decode_data(row[0])


def _list_metadata(conn: sqlite3.Connection, namespace: str) -> list[MetadataEntry]:
    entries = []
    for key, text, updated_at in conn.execute(
        "SELECT key, data, updated_at FROM metadata WHERE namespace = ? ORDER BY key",
        (namespace,),
    ):
        data = _decode_data(text)
        if data is not None and isinstance(updated_at, int):
            entries.append(MetadataEntry(key=key, data=data, updated_at=updated_at))
    return entries


def _list_metadata_keys(conn: sqlite3.Connection, namespace: str) -> list[str]:
    return [
        key
        for (key,) in conn.execute("SELECT key FROM metadata WHERE namespace = ? ORDER BY key", (namespace,))
    ]


# -- encoding ---------------------------------------------------------------------------------


def _sql_limit(limit: int | float) -> int:
    """An SQL ``LIMIT``: -1 (none) for infinity or anything past 64 bits."""
    return -1 if limit == math.inf or limit > _SQL_INT_MAX else int(limit)


def _decode_message(body: str) -> Message:
    return Message.from_json(sem.json_loads(body))


def _decode_messages(bodies: list[str]) -> list[Message]:
    """``_decode_message`` of each, without a call per row around the two that do the work."""
    loads, build = sem.json_loads, Message.from_json
    return [build(loads(body)) for body in bodies]


def _decode_data(text: object) -> JsonObject | None:
    return sem.decode_object(text) if isinstance(text, str) else None


#: A call run on the event loop's thread gives the loop away (``asyncio.sleep(0)``) once in this
#: many: a task awaiting the store in a loop still lets the others run at least every 8 calls
#: (well under a millisecond), without paying a turn of the loop, about 10 us and as much as a
#: short read itself, on every call. The worker path gives it away on every call, as always.
_YIELD_EVERY: Final = 8

#: The jobs that may run on the event loop's thread: each is one statement or one transaction,
#: so when SQLite is busy nothing of it was done and it can start again on the worker (a job of
#: a subclass may not be: it always runs on the worker).
_ATOMIC_JOBS: Final[frozenset[Callable[..., object]]] = frozenset(
    {
        _execute,
        _insert_message,
        _history,
        _count_conversation,
        _full_history,
        _range,
        _recent,
        _rewrite,
        _delete_by_timestamps,
        _get_metadata,
        _list_metadata,
        _list_metadata_keys,
        SqliteMemory._archive,
        SqliteMemory._commit,
    }
)
