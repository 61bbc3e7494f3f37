"""How the conformance kit runs this backend: the target of the ``aalis_memory.drivers`` entry
point ``json-file`` (see pyproject.toml). Imported only by the kit, never by the store."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from aalis_memory.conformance import Capabilities, DriverContext, RawMetadataKind, memory_driver

from jsonfile_memory.store import JsonFileMemory, plant_raw_metadata

#: What the kit's raw-access hook writes: text that is not JSON, JSON that is not an object.
RAW_PAYLOADS: dict[RawMetadataKind, str] = {"not-json": "{not json", "not-object": "[1, 2, 3]"}


async def plant(store: JsonFileMemory, namespace: str, key: str, kind: RawMetadataKind) -> bool:
    """Write an unreadable metadata entry into the file, bypassing the API, then reload it."""
    await asyncio.to_thread(plant_raw_metadata, store.path, namespace, key, RAW_PAYLOADS[kind])
    await store.reload()
    return True


async def reopen(ctx: DriverContext) -> AsyncIterator[JsonFileMemory]:
    """The JSON file in ``ctx.tmp_path`` as it is (created the first time): the durability hook.

    The kit runs it in child processes, SIGKILLs them mid-write and opens the file again, to
    check that every acknowledged write survived and that no atomic call is half applied.
    """
    store = await JsonFileMemory.open(
        ctx.tmp_path / "memory.json",
        range_query_limit=ctx.range_query_limit,
        cross_session_max_limit=ctx.cross_session_max_limit,
        # fsync guards against a power cut, which no test makes; a killed process loses nothing
        # the kernel already holds, so the contract cannot observe it and it only costs time.
        durable=False,
    )
    yield store
    await store.close()


@memory_driver(
    "json-file",
    capabilities=Capabilities(
        ordering="timestamp", metadata_atomicity="atomic", archive_atomicity="atomic"
    ),
    raw_metadata=plant,
    reopen=reopen,
    # The quick scaling probe (PERF-01) fills sessions of 100 and 8,000 messages; every save
    # here rewrites the whole file, so that fill alone would take about a minute.
    skip_quick_scaling="the store is one JSON file rewritten whole on every write: the quick "
                       "probe's 8,100 saves would take about a minute",
)
async def json_file(ctx: DriverContext) -> AsyncIterator[JsonFileMemory]:
    """A fresh JSON file in the test's tmp_path for every test."""
    async for store in reopen(ctx):
        yield store
