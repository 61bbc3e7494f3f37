"""A MemoryService in one PostgreSQL schema, over one asyncpg connection.

Storage: each message is its lossless ``Message.to_json()`` text plus the columns the queries
need (session, timestamp, archived, control). Session ids, namespaces and keys are stored as
the UTF-8 bytes of the string (``bytea``): PostgreSQL text cannot hold U+0000, which is an
ordinary character of an id, and bytes compare in code point order, the order of Python's
``sorted`` (``list_metadata`` is sorted by key). Timestamps are ``numeric``, so a 64-bit integer
and a fractional millisecond compare exactly; history order is (timestamp, identity), the
identity being the write order.

Concurrency: one connection runs one statement at a time, so the store's calls take turns
behind an ``asyncio.Lock``; a call that changes several rows (``archive_span``,
``commit_metadata``, ``update_message_content``) is one transaction, so another connection (a
second store on the same schema, a process reading after a crash) sees all of it or none.

The argument checks and the shapes of the answers (history window, archive positions, filters)
are the reference drivers' shared rules (:mod:`aalis_memory.drivers.semantics`): this backend is
about the storage.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any, Final, Self

import asyncpg
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

#: A schema name this module makes: quoted anyway, but never anything a caller typed.
_SCHEMA_NAME: Final = re.compile(r"[a-z_][a-z0-9_]{0,62}")

#: The tables of one store. ``IF NOT EXISTS`` throughout: opening a schema that exists leaves it
#: as it is (the crash tests reopen what a killed writer left).
_TABLES: Final = (
    """CREATE TABLE IF NOT EXISTS messages (
        id         bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- the write order
        session_id bytea   NOT NULL,
        ts         numeric NOT NULL,
        archived   boolean NOT NULL DEFAULT false,
        control    boolean NOT NULL,  -- kind in CONTROL_KINDS
        body       text    NOT NULL   -- Message.to_json() text
    )""",
    "CREATE INDEX IF NOT EXISTS messages_state ON messages (session_id, archived, ts, id)",
    "CREATE INDEX IF NOT EXISTS messages_recent ON messages (ts, id) WHERE NOT archived",
    """CREATE TABLE IF NOT EXISTS metadata (
        namespace  bytea  NOT NULL,
        key        bytea  NOT NULL,
        data       text   NOT NULL,  -- JSON text of an object (unreadable rows are skipped)
        updated_at bigint NOT NULL,  -- epoch ms, grows on every overwrite
        PRIMARY KEY (namespace, key)
    )""",
)
#: Every table a store writes: what emptying a pooled schema must clear.
TABLES: Final = ("messages", "metadata")

# The active messages newest first with the running count of conversation messages: the rows
# after the (limit+1)-th newest conversation message are those whose count is at most limit.
_HISTORY: Final = """
SELECT body FROM (
    SELECT body, ts, id,
           count(*) FILTER (WHERE NOT control) OVER (ORDER BY ts DESC, id DESC) AS seen
    FROM messages WHERE session_id = $1 AND NOT archived
) newest WHERE seen <= $2 ORDER BY ts, id
"""
_UPSERT: Final = """
INSERT INTO metadata (namespace, key, data, updated_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (namespace, key) DO UPDATE
SET data = excluded.data, updated_at = GREATEST(excluded.updated_at, metadata.updated_at + 1)
"""
#: Larger limits than this mean "no limit" (the running count is a bigint).
_NO_LIMIT: Final = 2**62


def quoted(schema: str) -> str:
    """``schema`` as an SQL identifier; a name this module does not make is refused."""
    if not _SCHEMA_NAME.fullmatch(schema):
        raise ValueError(f"not a schema name this backend makes: {schema!r}")
    return f'"{schema}"'


class PostgresMemory:
    """A complete MemoryService in one schema; open with ``await PostgresMemory.open(...)``."""

    def __init__(
        self,
        conn: asyncpg.Connection,
        schema: str,
        *,
        range_query_limit: int = sem.DEFAULT_RANGE_QUERY_LIMIT,
        cross_session_max_limit: int = sem.DEFAULT_CROSS_SESSION_MAX_LIMIT,
    ) -> None:
        self._conn = conn
        self.schema = schema
        self.range_query_limit = sem.check_cap(range_query_limit, "range_query_limit")
        self.cross_session_max_limit = sem.check_cap(
            cross_session_max_limit, "cross_session_max_limit"
        )
        self._lock = asyncio.Lock()

    # -- lifecycle ------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        dsn: str,
        schema: str,
        *,
        create: bool = True,
        range_query_limit: int = sem.DEFAULT_RANGE_QUERY_LIMIT,
        cross_session_max_limit: int = sem.DEFAULT_CROSS_SESSION_MAX_LIMIT,
    ) -> Self:
        """Connect to the schema ``schema`` of the server at ``dsn``; ``create`` makes the
        schema and its tables where they are missing (and leaves what is there as it is).

        The connection's ``application_name`` is the schema's name: whoever cleans up after a
        killed process finds its server sessions by it."""
        name = quoted(schema)
        conn = await asyncpg.connect(dsn, server_settings={
            "search_path": name, "application_name": schema})
        try:
            if create:
                async with conn.transaction():
                    await conn.execute(f"CREATE SCHEMA IF NOT EXISTS {name}")
                    for statement in _TABLES:
                        await conn.execute(statement)
            store = cls(conn, schema, range_query_limit=range_query_limit,
                        cross_session_max_limit=cross_session_max_limit)
        except BaseException:
            await conn.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection; closing twice is harmless."""
        if not self._conn.is_closed():
            await self._conn.close()

    async def empty(self) -> None:
        """Remove everything the store holds (a pooled schema's reset): ``DELETE`` from every
        table, one transaction. Not ``TRUNCATE``, which makes new files for every table and
        index and, on a server that syncs them, waits for the disk: a store of the conformance
        suite holds a few rows, and its ``DELETE`` took 20 ms where ``TRUNCATE`` took 63 on a
        loaded machine (README.md)."""
        async with self._lock, self._conn.transaction():
            for table in TABLES:
                await self._conn.execute(f"DELETE FROM {table}")

    async def drop(self) -> None:
        """Drop the store's schema with everything in it, then close the connection."""
        async with self._lock:
            await self._conn.execute(f"DROP SCHEMA IF EXISTS {quoted(self.schema)} CASCADE")
        await self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def _fetch(self, sql: str, *args: object) -> list[asyncpg.Record]:
        async with self._lock:
            return list(await self._conn.fetch(sql, *args))

    async def _execute(self, sql: str, *args: object) -> str:
        async with self._lock:
            return str(await self._conn.execute(sql, *args))

    # -- messages -------------------------------------------------------------------------

    async def save_message(self, session_id: str, message: Message) -> None:
        session, message, text = sem.prepare_message(session_id, message)
        await self._execute(
            "INSERT INTO messages (session_id, ts, control, body) VALUES ($1, $2, $3, $4)",
            _id(session), _numeric(sem.stamp(message)), message.is_control, text)

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        session = _id(sem.check_session_id(session_id))
        effective = sem.check_limit(limit, sem.DEFAULT_HISTORY_LIMIT, "limit")
        if effective == 0:
            return []
        rows = await self._fetch(_HISTORY, session, _sql_count(effective))
        return sem.history_window(_messages(rows), effective)

    async def count_history(self, session_id: str) -> int:
        session = _id(sem.check_session_id(session_id))
        rows = await self._fetch(
            "SELECT count(*) AS n FROM messages "
            "WHERE session_id = $1 AND NOT archived AND NOT control", session)
        return int(rows[0]["n"])

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        session = _id(sem.check_session_id(session_id))
        effective = sem.check_limit(limit, sem.DEFAULT_FULL_HISTORY_LIMIT, "limit")
        rows = await self._fetch(
            "SELECT body FROM messages WHERE session_id = $1 ORDER BY ts DESC, id DESC LIMIT $2",
            session, _sql_limit(effective))
        rows.reverse()
        return _messages(rows)

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        session = _id(sem.check_session_id(session_id))
        span = sem.check_count(count)
        kept = sem.check_keep(keep)
        async with self._lock, self._conn.transaction():
            ids = [row["id"] for row in await self._conn.fetch(
                "SELECT id FROM messages WHERE session_id = $1 AND NOT archived "
                "ORDER BY ts, id LIMIT $2 FOR UPDATE", session, _sql_limit(span))]
            positions = sem.archive_positions(len(ids), span, kept)
            await self._conn.execute(
                "UPDATE messages SET archived = true WHERE id = ANY($1::bigint[])",
                [ids[p] for p in positions])
        return len(positions)

    async def clear_session(self, session_id: str) -> None:
        session = _id(sem.check_session_id(session_id))
        await self._execute("DELETE FROM messages WHERE session_id = $1", session)

    async def clear_all(self) -> None:
        await self._execute("DELETE FROM messages")

    async def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        session = _id(sem.check_session_id(session_id))
        from_ts, to_ts, roles, exclude_kinds = sem.check_range(from_ts, to_ts, roles, exclude_kinds)
        keep = sem.range_filter(from_ts, to_ts, roles, exclude_kinds)
        where, args = _bounds(from_ts, to_ts, first=2)
        rows = await self._fetch(
            f"SELECT body FROM messages WHERE session_id = $1{where} ORDER BY ts, id",
            session, *args)
        hits: list[Message] = []
        for message in _messages(rows):
            if len(hits) >= self.range_query_limit:
                break
            if keep(message):
                hits.append(message)
        return hits

    async def get_recent_messages_across_sessions(
        self, query: RecentMessagesAcrossSessionsQuery
    ) -> list[RecentMessageRecord]:
        query = sem.check_query(query)
        limit = sem.check_limit(query.limit, sem.DEFAULT_CROSS_SESSION_MAX_LIMIT, "query.limit")
        wanted = int(min(limit, self.cross_session_max_limit))
        if wanted == 0:
            return []
        keep = sem.cross_session_filter(query)
        where, args = _bounds(query.since_ts, None, first=1)
        rows = await self._fetch(
            f"SELECT session_id, body FROM messages WHERE NOT archived{where} "
            "ORDER BY ts DESC, id DESC", *args)
        hits: list[RecentMessageRecord] = []
        for row in rows:
            session, message = bytes(row["session_id"]).decode(), _message(row["body"])
            if keep(session, message):
                hits.append(RecentMessageRecord(session, message))
                if len(hits) >= wanted:
                    break
        hits.reverse()
        return hits

    async def update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int:
        session = _id(sem.check_session_id(session_id))
        old_text, new_text = sem.check_rewrite(old_text, new_text)
        effective = sem.check_limit(recent_limit, sem.DEFAULT_UPDATE_RECENT_LIMIT, "recent_limit")
        changed = 0
        async with self._lock, self._conn.transaction():
            rows = await self._conn.fetch(
                "SELECT id, body FROM messages WHERE session_id = $1 AND NOT archived "
                "ORDER BY ts DESC, id DESC LIMIT $2 FOR UPDATE", session, _sql_limit(effective))
            for row in rows:
                rewritten = sem.rewrite_content(_message(row["body"]), old_text, new_text)
                if rewritten is not None:
                    await self._conn.execute("UPDATE messages SET body = $1 WHERE id = $2",
                                             sem.message_text(rewritten), row["id"])
                    changed += 1
        return changed

    async def delete_messages_by_timestamps(
        self, session_id: str, timestamps: Sequence[int | float]
    ) -> int:
        session = _id(sem.check_session_id(session_id))
        # a stored timestamp is finite: an infinite one can match nothing
        doomed = [_numeric(t) for t in sem.check_timestamps(timestamps) if math.isfinite(t)]
        if not doomed:
            return 0
        status = await self._execute(
            "DELETE FROM messages WHERE session_id = $1 AND ts = ANY($2::numeric[])",
            session, doomed)
        return int(status.rsplit(" ", 1)[1])

    # -- metadata -------------------------------------------------------------------------

    async def save_metadata(self, namespace: str, key: str, data: JsonObject) -> None:
        await self.commit_metadata([MetadataPut(namespace, key, data)])

    async def get_metadata(self, namespace: str, key: str) -> JsonObject | None:
        namespace, key = sem.check_key(namespace, key)
        rows = await self._fetch("SELECT data FROM metadata WHERE namespace = $1 AND key = $2",
                                 _id(namespace), _id(key))
        return sem.decode_object(rows[0]["data"]) if rows else None

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        rows = await self._fetch(
            "SELECT key, data, updated_at FROM metadata WHERE namespace = $1 ORDER BY key",
            _id(sem.check_namespace(namespace)))
        entries = []
        for row in rows:
            data = sem.decode_object(row["data"])
            if data is not None:
                entries.append(MetadataEntry(key=bytes(row["key"]).decode(), data=data,
                                             updated_at=int(row["updated_at"])))
        return entries

    async def list_metadata_keys(self, namespace: str) -> list[str]:
        rows = await self._fetch("SELECT key FROM metadata WHERE namespace = $1 ORDER BY key",
                                 _id(sem.check_namespace(namespace)))
        return [bytes(row["key"]).decode() for row in rows]

    async def delete_metadata(self, namespace: str, key: str) -> None:
        namespace, key = sem.check_key(namespace, key)
        await self._execute("DELETE FROM metadata WHERE namespace = $1 AND key = $2",
                            _id(namespace), _id(key))

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        batch = sem.encode_batch(ops)  # every payload is encoded before anything is written
        if not batch:
            return
        async with self._lock, self._conn.transaction():
            for op, text in batch:
                if text is None:
                    await self._conn.execute(
                        "DELETE FROM metadata WHERE namespace = $1 AND key = $2",
                        _id(op.namespace), _id(op.key))
                else:
                    await self._conn.execute(_UPSERT, _id(op.namespace), _id(op.key), text,
                                             sem.now_ms())


async def plant_raw_metadata(store: PostgresMemory, namespace: str, key: str, text: str) -> None:
    """Write ``text`` as the data of ``namespace/key`` as it is, around every check: the kit's
    raw-access hook plants unreadable entries with it."""
    await store._execute(_UPSERT, _id(namespace), _id(key), text, sem.now_ms())


# -- encoding -----------------------------------------------------------------------------------


def _id(value: str) -> bytes:
    return value.encode("utf-8")


def _numeric(value: int | float) -> Decimal:
    """A timestamp as ``numeric``: ``Decimal`` of a float is its exact binary value."""
    return Decimal(value)


def _sql_limit(limit: int | float) -> int | None:
    """An SQL ``LIMIT`` (``None``: no limit)."""
    return None if limit == math.inf or limit > _NO_LIMIT else int(limit)


def _sql_count(limit: int | float) -> int:
    return _NO_LIMIT if limit == math.inf or limit > _NO_LIMIT else int(limit)


def _bounds(low: int | float | None, high: int | float | None, first: int
            ) -> tuple[str, list[Decimal]]:
    """``AND ts >= $n`` / ``AND ts <= $m`` for the finite bounds given (an infinite one is an
    open end), numbered from ``first``."""
    where, args = "", []
    for op, bound, open_end in ((">=", low, -math.inf), ("<=", high, math.inf)):
        if bound is None or bound == open_end:
            continue
        if math.isfinite(bound):
            args.append(_numeric(bound))
            where += f" AND ts {op} ${first + len(args) - 1}"
        else:  # from +inf, or up to -inf: no stored timestamp is there
            where += " AND false"
    return where, args


def _message(body: str) -> Message:
    return Message.from_json(sem.json_loads(body))


def _messages(rows: list[asyncpg.Record]) -> list[Message]:
    build: Callable[[Any], Message] = Message.from_json
    loads = sem.json_loads
    return [build(loads(row["body"])) for row in rows]
