"""Several driver instances in one process: derived databases and the shared-database refusal."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pymongo")

from aalis_memory.drivers.mongodb import MongoConfig, MongoMemory
from aalis_memory.drivers.mongodb.config import PLUGIN_NAME, ConfigError, HostPaths
from aalis_memory.fixtures.mongodb_server import MongoServer
from aalis_memory.fixtures.mongodb_testing import ClientRecorder
from aalis_memory.fixtures.pytest_mongodb import drop_database


@pytest.fixture
def stores(aalis_memory_loop: asyncio.Runner) -> Iterator[list[MongoMemory]]:
    """Stores a test opened; closed at teardown."""
    opened: list[MongoMemory] = []
    yield opened
    for store in opened:
        aalis_memory_loop.run(store.close())


@pytest.mark.aalis_spec("MDB-16")
async def test_open_uses_the_derived_profile_database(
    aalis_mongodb_server: MongoServer, tmp_path: Path, stores: list[MongoMemory]
) -> None:
    profile = f"p{uuid.uuid4().hex[:10]}"
    paths = HostPaths.for_data_dir(tmp_path / f"data-{profile}")
    try:
        store = await MongoMemory.open(
            MongoConfig(uri=aalis_mongodb_server.uri), instance="b", host_paths=paths
        )
        stores.append(store)
        assert store.database.name == f"aalis_{profile}_b"
    finally:
        drop_database(aalis_mongodb_server.uri, f"aalis_{profile}_b")


@pytest.mark.aalis_spec("MDB-18")
async def test_second_instance_on_the_same_database_is_refused_without_connecting(
    aalis_mongodb_server: MongoServer, aalis_mongodb_database: str, stores: list[MongoMemory]
) -> None:
    first = MongoConfig(uri=aalis_mongodb_server.uri, database=aalis_mongodb_database)
    stores.append(await MongoMemory.open(first))
    recorder = ClientRecorder()
    other_collection = MongoConfig(
        uri=aalis_mongodb_server.uri, database=aalis_mongodb_database, collection="other"
    )
    with pytest.raises(ConfigError) as caught:
        await MongoMemory.open(other_collection, instance="b", event_listeners=[recorder])
    message = str(caught.value)
    assert PLUGIN_NAME in message
    assert aalis_mongodb_database in message
    assert "\n" not in message
    assert recorder.topology_opened == 0
    await stores[0].close()
    stores.append(await MongoMemory.open(other_collection, instance="b"))


@pytest.mark.aalis_spec("MDB-18")
async def test_shared_database_is_compared_by_literal_uri(
    aalis_mongodb_server: MongoServer, aalis_mongodb_database: str, stores: list[MongoMemory]
) -> None:
    uri = aalis_mongodb_server.uri
    stores.append(await MongoMemory.open(MongoConfig(uri=uri, database=aalis_mongodb_database)))
    spelled_differently = uri + ("&" if "?" in uri else "?") + "appName=other"
    config = MongoConfig(uri=spelled_differently, database=aalis_mongodb_database)
    stores.append(await MongoMemory.open(config, instance="b"))
    with pytest.raises(ConfigError, match=f"{PLUGIN_NAME}:b"):
        await MongoMemory.open(config, instance="c")
