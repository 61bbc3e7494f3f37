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


@memory_driver(
    "json-file",
    capabilities=Capabilities(
        ordering="timestamp", metadata_atomicity="atomic", archive_atomicity="atomic"
    ),
    raw_metadata=plant,
    known_failures={
        "LIM-05": "get_full_history() without a limit returns the whole history (export view)",
    },
)
async def json_file(ctx: DriverContext) -> AsyncIterator[JsonFileMemory]:
    """A fresh JSON file in the test's tmp_path for every test."""
    store = await JsonFileMemory.open(
        ctx.tmp_path / "memory.json",
        range_query_limit=ctx.range_query_limit,
        cross_session_max_limit=ctx.cross_session_max_limit,
        durable=False,  # fsync changes nothing the contract can observe; it only costs time
    )
    yield store
    await store.close()
