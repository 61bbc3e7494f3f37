"""The reference drivers as the kit sees them (targets of the ``aalis_memory.drivers`` entry points)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from aalis_memory.conformance.registry import (
    Capabilities,
    DriverContext,
    RawMetadataKind,
    memory_driver,
)
from aalis_memory.drivers.inmemory import InMemoryMemory

#: Payloads that cannot be read back as an object, for the raw-access hooks.
RAW_PAYLOADS: dict[RawMetadataKind, str] = {"not-json": "{not json", "not-object": "[1, 2, 3]"}


def _plant_inmemory(store: InMemoryMemory, namespace: str, key: str, kind: RawMetadataKind) -> bool:
    store.plant_raw_metadata(namespace, key, RAW_PAYLOADS[kind])
    return True


@memory_driver(
    "inmemory",
    capabilities=Capabilities(ordering="write", metadata_atomicity="atomic", archive_atomicity="atomic"),
    raw_metadata=_plant_inmemory,
)
async def inmemory(ctx: DriverContext) -> AsyncIterator[InMemoryMemory]:
    """The in-memory reference driver."""
    store = InMemoryMemory(
        range_query_limit=ctx.range_query_limit,
        cross_session_max_limit=ctx.cross_session_max_limit,
    )
    yield store
    await store.close()


