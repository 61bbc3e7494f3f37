"""The reference drivers as the kit sees them (targets of the ``aalis_memory.drivers`` entry points)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Mapping
from contextlib import AbstractContextManager, closing
from typing import Any

from aalis_memory.conformance.registration.registry import (
    Capabilities,
    DriverContext,
    RawMetadataKind,
    memory_driver,
)
from aalis_memory.drivers import semantics
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.drivers.sqlite import SqliteMemory
from aalis_memory.fixtures.pytest_mongodb import session_setup, unique_database_name

#: Payloads that cannot be read back as an object, for the raw-access hooks.
RAW_PAYLOADS: dict[RawMetadataKind, str] = {"not-json": "{not json", "not-object": "[1, 2, 3]"}


def plant_inmemory(store: InMemoryMemory, namespace: str, key: str, kind: RawMetadataKind) -> bool:
    """The raw-access hook of the in-memory store (and of the broken drivers built on it)."""
    store.plant_raw_metadata(namespace, key, RAW_PAYLOADS[kind])
    return True


@memory_driver(
    "inmemory",
    capabilities=Capabilities(ordering="write", metadata_atomicity="atomic", archive_atomicity="atomic"),
    raw_metadata=plant_inmemory,
    documented_backend="inmemory",
)
async def inmemory(ctx: DriverContext) -> AsyncIterator[InMemoryMemory]:
    """The in-memory reference driver."""
    store = InMemoryMemory(
        range_query_limit=ctx.range_query_limit,
        cross_session_max_limit=ctx.cross_session_max_limit,
    )
    yield store
    await store.close()


def _plant_sqlite(store: SqliteMemory, namespace: str, key: str, kind: RawMetadataKind) -> bool:
    """Write the row through a connection of its own, bypassing the store entirely."""
    with closing(sqlite3.connect(store.path, timeout=30.0)) as conn, conn:
        conn.execute(
            "INSERT OR REPLACE INTO metadata (namespace, key, data, updated_at) VALUES (?, ?, ?, ?)",
            (namespace, key, RAW_PAYLOADS[kind], semantics.now_ms()),
        )
    return True


async def reopen_sqlite(ctx: DriverContext) -> AsyncIterator[SqliteMemory]:
    """The database file in ``ctx.tmp_path`` as it is: the durability hook (crash tests reopen
    the file after SIGKILLing the process that wrote it)."""
    store = await SqliteMemory.open(
        ctx.tmp_path / "memory.sqlite3",
        range_query_limit=ctx.range_query_limit,
        cross_session_max_limit=ctx.cross_session_max_limit,
    )
    yield store
    await store.close()


@memory_driver(
    "sqlite",
    capabilities=Capabilities(ordering="timestamp", metadata_atomicity="atomic", archive_atomicity="atomic"),
    raw_metadata=_plant_sqlite,
    reopen=reopen_sqlite,
    documented_backend="sqlite",
)
async def sqlite(ctx: DriverContext) -> AsyncIterator[SqliteMemory]:
    """The SQLite reference driver (a real database file in the test's tmp_path)."""
    async for store in reopen_sqlite(ctx):
        yield store


async def _plant_mongodb(store: Any, namespace: str, key: str, kind: RawMetadataKind) -> bool:
    """BSON has no "not JSON" payload; a non-object ``data`` is written straight to the server."""
    if kind == "not-json":
        return False
    from aalis_memory.drivers.mongodb.raw import plant_metadata  # here: pymongo is an optional extra

    await plant_metadata(store, namespace, key, data=[1, 2, 3])
    return True


#: The kit's own MongoDB servers include FerretDB (started when no mongod or Docker is found),
#: where a read scans the whole collection and a save scans it for its upsert: there the quick
#: probe's fill ran for over 20 minutes (docs/benchmarks.md), and its reads would not tell a
#: large session from a small one.
MONGODB_SKIPS_QUICK_SCALING = (
    "its test server may be FerretDB, where every read scans the whole collection (both probe "
    "sessions alike: no session's growth shows) and so does every save (the probe's fill ran "
    "for over 20 minutes there)"
)


def _mongodb_session(config: Any) -> AbstractContextManager[Mapping[str, Any]]:
    return session_setup(config)


@memory_driver(
    "mongodb",
    capabilities=Capabilities(
        ordering="timestamp", metadata_atomicity="ordered", archive_atomicity="partial"
    ),
    raw_metadata=_plant_mongodb,
    session_setup=_mongodb_session,
    documented_backend="mongodb",
    skip_quick_scaling=MONGODB_SKIPS_QUICK_SCALING,
)
async def mongodb(ctx: DriverContext) -> AsyncIterator[Any]:
    """The MongoDB reference driver, on its own database per test (dropped afterwards)."""
    from aalis_memory.drivers.mongodb import MongoConfig, MongoMemory  # here: pymongo is an optional extra

    store = await MongoMemory.open(
        MongoConfig(
            uri=ctx.options["uri"],
            database=unique_database_name(),
            range_query_limit=ctx.range_query_limit,
            cross_session_max_limit=ctx.cross_session_max_limit,
        )
    )
    try:
        yield store
        await store.client.drop_database(store.database.name)
    finally:
        await store.close()
