"""pytest plugin (``-p broken_drivers.plugin``): registers every broken driver as ``broken-NAME``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from aalis_memory.conformance.registry import DriverContext, memory_driver
from aalis_memory.drivers.registrations import plant_inmemory
from broken_drivers import Broken, load_all


def _register(entry: Broken) -> None:
    async def factory(ctx: DriverContext) -> AsyncIterator[Any]:
        store = entry.store_class(
            range_query_limit=ctx.range_query_limit,
            cross_session_max_limit=ctx.cross_session_max_limit,
        )
        yield store
        await store.close()

    memory_driver(
        f"broken-{entry.name}",
        capabilities=entry.capabilities,
        raw_metadata=plant_inmemory if hasattr(entry.store_class, "plant_raw_metadata") else None,
        description=entry.why,
    )(factory)


for _entry in load_all().values():
    _register(_entry)
