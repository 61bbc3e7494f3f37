"""How the conformance kit runs this backend: ``pytest`` from this folder (pyproject.toml names
the driver, ``postgres``; this file registers it).

The kit gets its stores from three generator factories, each called with a ``DriverContext``:

- :func:`new_schema`, the driver's factory: a schema of its own for one test, made before it and
  dropped after it (CREATE SCHEMA, its tables and indexes, then DROP SCHEMA ... CASCADE);
- :func:`pooled_schema`, the ``fresh=`` hook, used instead for every test: a schema of this
  process's pool, emptied with DELETE; the kit checks that each one it gets is empty;
- :func:`reopen`, the durability hook: the schema named after ``ctx.tmp_path``, as it is, made
  when there is none. A crash writer calls it on a new empty folder, so it makes the schema;
  the kit's process calls it again with the same ``ctx`` after SIGKILLing that writer, to read
  what the writer left; :func:`crash_cleanup` then drops that schema.

``POSTGRES_MEMORY_FRESH=off`` registers the driver without ``fresh=``: every store is then a new
schema (the slow path; README.md has both timings). ``POSTGRES_MEMORY_DSN`` runs on a server of
yours instead of one started for the run.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import os
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any, Final

import asyncpg
import pytest
from aalis_memory.conformance import Capabilities, DriverContext, RawMetadataKind, memory_driver

from postgres_memory.server import BIN_ENV, find_binaries, temporary_server
from postgres_memory.store import PostgresMemory, plant_raw_metadata, quoted

DSN_ENV: Final = "POSTGRES_MEMORY_DSN"
FRESH_ENV: Final = "POSTGRES_MEMORY_FRESH"

#: What the raw-access hook writes: text that is not JSON, JSON that is not an object.
RAW_PAYLOADS: Final[dict[RawMetadataKind, str]] = {"not-json": "{not json",
                                                   "not-object": "[1, 2, 3]"}


def schema_for(ctx: DriverContext) -> str:
    """The schema named after the test's folder: every process handed this ``ctx`` (a crash
    writer, then the kit's process reopening what it left) finds the same one."""
    return "mem_" + hashlib.sha256(str(ctx.tmp_path).encode()).hexdigest()[:32]


async def _open(ctx: DriverContext, schema: str, *, create: bool = True) -> PostgresMemory:
    return await PostgresMemory.open(
        ctx.options["dsn"], schema, create=create, range_query_limit=ctx.range_query_limit,
        cross_session_max_limit=ctx.cross_session_max_limit)


# -- durability --------------------------------------------------------------------------------


async def reopen(ctx: DriverContext) -> AsyncIterator[PostgresMemory]:
    """The schema named after ``ctx.tmp_path`` as it is (made, empty, when there is none)."""
    store = await _open(ctx, schema_for(ctx))
    yield store
    await store.close()


async def crash_cleanup(ctx: DriverContext) -> None:
    """After each kill: end what is left of the killed writer's server session (found by its
    ``application_name``, the schema's name), then drop its schema."""
    schema = schema_for(ctx)
    conn = await asyncpg.connect(ctx.options["dsn"])
    try:
        await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           "WHERE application_name = $1 AND pid <> pg_backend_pid()", schema)
        await conn.execute(f"DROP SCHEMA IF EXISTS {quoted(schema)} CASCADE")
    finally:
        await conn.close()


# -- the fresh-store shortcut ------------------------------------------------------------------

#: Schemas of this process that a closed store gave back, ready for the next test. A store whose
#: test hung is never closed by the kit, so its schema never comes back here.
POOL: list[str] = []
#: Every pool schema this process made (pytest-xdist workers have a pool each, named by PID):
#: dropped when the run ends (see :func:`server`).
MADE: list[str] = []
_numbers = itertools.count()


async def pooled_schema(ctx: DriverContext) -> AsyncIterator[PostgresMemory]:
    """A schema from the pool, emptied (:meth:`PostgresMemory.empty`), or a new one for it."""
    if POOL:
        store = await _open(ctx, POOL.pop(), create=False)
        try:
            await store.empty()  # before the test, so whatever was left (by anyone) is gone
        except BaseException:
            await store.close()
            raise
    else:
        MADE.append(f"pool_{os.getpid()}_{next(_numbers)}")
        store = await _open(ctx, MADE[-1])
    yield store
    await store.close()
    POOL.append(store.schema)


# -- the server --------------------------------------------------------------------------------


@contextlib.contextmanager
def server(_config: pytest.Config) -> Iterator[Mapping[str, Any]]:
    """The run's server: ``$POSTGRES_MEMORY_DSN``, else one started for the run."""
    with contextlib.ExitStack() as stack:
        dsn = os.environ.get(DSN_ENV)
        if not dsn:
            binaries = find_binaries()
            if binaries is None:
                pytest.skip(f"no PostgreSQL server binaries (initdb, postgres) in "
                            f"/usr/lib/postgresql/*/bin or on PATH: apt-get install postgresql, "
                            f"or set {BIN_ENV} to their folder, or {DSN_ENV} to a server")
            dsn = stack.enter_context(temporary_server(binaries))
        try:
            yield {"dsn": dsn}
        finally:
            asyncio.run(_drop(dsn, MADE))


async def _drop(dsn: str, schemas: list[str]) -> None:
    if not schemas:
        return
    conn = await asyncpg.connect(dsn)
    try:
        for schema in schemas:
            await conn.execute(f"DROP SCHEMA IF EXISTS {quoted(schema)} CASCADE")
    finally:
        await conn.close()


# -- the driver --------------------------------------------------------------------------------


async def plant(store: PostgresMemory, namespace: str, key: str, kind: RawMetadataKind) -> bool:
    """Write an unreadable metadata entry straight into the table, bypassing every check."""
    await plant_raw_metadata(store, namespace, key, RAW_PAYLOADS[kind])
    return True


@memory_driver(
    "postgres",
    capabilities=Capabilities(
        ordering="timestamp", metadata_atomicity="atomic", archive_atomicity="atomic"
    ),
    raw_metadata=plant,
    session_setup=server,
    reopen=reopen,
    crash_cleanup=crash_cleanup,
    fresh=None if os.environ.get(FRESH_ENV) == "off" else pooled_schema,
)
async def new_schema(ctx: DriverContext) -> AsyncIterator[PostgresMemory]:
    """A schema of its own for each test, dropped after it."""
    store = await _open(ctx, schema_for(ctx))
    yield store
    await store.drop()
