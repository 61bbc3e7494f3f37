"""Ownership records: which data directory and instance a database belongs to (real server)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pymongo")

from aalis_memory.drivers.mongodb import MongoConfig, MongoMemory
from aalis_memory.drivers.mongodb.config import PLUGIN_NAME, ConfigError, HostPaths
from aalis_memory.drivers.mongodb.ownership import OWNER_KEY, OWNER_NAMESPACE
from aalis_memory.drivers.mongodb.raw import plant_metadata
from aalis_memory.fixtures.mongodb_server import MongoServer
from aalis_memory.fixtures.mongodb_testing import ClientRecorder
from aalis_memory.types import Message


class Opener:
    """Opens stores on this test's database and closes them all at teardown."""

    def __init__(self, uri: str, database: str) -> None:
        self.uri = uri
        self.database = database
        self.opened: list[MongoMemory] = []

    async def __call__(
        self, paths: HostPaths | None, claim_from: str = "", instance: str = "", **kw: Any
    ) -> MongoMemory:
        config = MongoConfig(uri=self.uri, database=self.database, claim_from=claim_from)
        store = await MongoMemory.open(config, host_paths=paths, instance=instance, **kw)
        self.opened.append(store)
        return store

    async def once(self, paths: HostPaths | None, claim_from: str = "") -> None:
        """Open and close again (an activation that is later disposed)."""
        store = await self(paths, claim_from)
        await store.close()

    async def owner(self) -> Any:
        """The raw owner record's data, read through a store without host paths."""
        store = await self(None)
        try:
            doc = await store.metadata_collection.find_one({"namespace": OWNER_NAMESPACE, "key": OWNER_KEY})
        finally:
            await store.close()
        return None if doc is None else doc.get("data")

    async def close_all(self) -> None:
        for store in self.opened:
            await store.close()


@pytest.fixture
def opener(
    aalis_mongodb_server: MongoServer, aalis_mongodb_database: str, aalis_memory_loop: asyncio.Runner
) -> Iterator[Opener]:
    opener = Opener(aalis_mongodb_server.uri, aalis_mongodb_database)
    yield opener
    aalis_memory_loop.run(opener.close_all())


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[HostPaths, HostPaths]:
    first, second = tmp_path / "one" / "data", tmp_path / "two" / "data"
    first.mkdir(parents=True)
    second.mkdir(parents=True)
    return HostPaths(first), HostPaths(second)


def owner_of(paths: HostPaths, instance: str = PLUGIN_NAME) -> dict[str, str]:
    return {"dataDir": str(paths.data_dir.resolve()), "instance": instance}


@pytest.mark.aalis_spec("MDB-19")
async def test_new_database_records_its_owner(opener: Opener, dirs: tuple[HostPaths, HostPaths]) -> None:
    first, _ = dirs
    await opener.once(first)
    assert await opener.owner() == owner_of(first)
    await opener.once(first)  # the recorded owner opens again
    assert await opener.owner() == owner_of(first)


@pytest.mark.aalis_spec("MDB-20")
async def test_other_data_directory_is_refused(opener: Opener, dirs: tuple[HostPaths, HostPaths]) -> None:
    first, second = dirs
    await opener.once(first)
    recorder = ClientRecorder()
    with pytest.raises(ConfigError) as caught:
        await opener(second, event_listeners=[recorder])
    message = str(caught.value)
    assert str(first.data_dir.resolve()) in message
    assert PLUGIN_NAME in message
    assert "\n" not in message
    assert recorder.topology_closed == 1
    assert not [c for c in recorder.commands if c.name in ("insert", "update", "delete")]
    assert await opener.owner() == owner_of(first)


@pytest.mark.aalis_spec("MDB-20")
async def test_other_instance_of_the_same_directory_is_refused(
    opener: Opener, dirs: tuple[HostPaths, HostPaths]
) -> None:
    first, _ = dirs
    await opener.once(first)
    with pytest.raises(ConfigError, match=f"instance {PLUGIN_NAME}\\)"):
        await opener(first, instance="b")


@pytest.mark.aalis_spec("MDB-21")
async def test_owner_is_compared_by_real_path(
    opener: Opener, dirs: tuple[HostPaths, HostPaths], tmp_path: Path
) -> None:
    first, _ = dirs
    link = tmp_path / "link-to-one"
    link.symlink_to(first.data_dir, target_is_directory=True)
    await opener.once(first)
    await opener.once(HostPaths(link))
    await opener.once(HostPaths(first.data_dir / ".." / "data"))
    assert await opener.owner() == owner_of(first)


@pytest.mark.aalis_spec("MDB-22")
async def test_existing_data_without_record_needs_unowned(
    opener: Opener, dirs: tuple[HostPaths, HostPaths]
) -> None:
    first, _ = dirs
    embedded = await opener(None)
    await embedded.save_message("s", Message(role="user", content="old", timestamp=1))
    await embedded.close()
    with pytest.raises(ConfigError, match="claim_from: unowned") as caught:
        await opener.once(first)
    assert "\n" not in str(caught.value)
    assert await opener.owner() is None
    await opener.once(first, claim_from="unowned")
    assert await opener.owner() == owner_of(first)


@pytest.mark.aalis_spec("MDB-23")
@pytest.mark.parametrize(
    "broken",
    [{"dataDir": "/somewhere"}, {"instance": PLUGIN_NAME}, {"dataDir": "", "instance": "x"}, "not an object"],
    ids=["no-instance", "no-dir", "empty-dir", "not-object"],
)
async def test_broken_record_fails_until_unowned_rewrites_it(
    opener: Opener, dirs: tuple[HostPaths, HostPaths], broken: Any
) -> None:
    first, _ = dirs
    embedded = await opener(None)
    await plant_metadata(embedded, OWNER_NAMESPACE, OWNER_KEY, data=broken)
    await embedded.close()
    with pytest.raises(ConfigError, match="broken owner record") as caught:
        await opener.once(first)
    assert "\n" not in str(caught.value)
    assert await opener.owner() == broken
    await opener.once(first, claim_from="unowned")
    assert await opener.owner() == owner_of(first)


@pytest.mark.aalis_spec("MDB-24")
async def test_claim_from_moves_ownership(
    opener: Opener, dirs: tuple[HostPaths, HostPaths], tmp_path: Path
) -> None:
    first, second = dirs
    await opener.once(first)
    with pytest.raises(ConfigError):
        await opener.once(second, claim_from=str(tmp_path / "elsewhere"))
    with pytest.raises(ConfigError):
        await opener.once(second, claim_from="unowned")
    await opener.once(second, claim_from=str(first.data_dir))
    assert await opener.owner() == owner_of(second)
    await opener.once(second)  # the claim is done; later activations need nothing
    with pytest.raises(ConfigError, match=str(second.data_dir.resolve())):
        await opener.once(first)


@pytest.mark.aalis_spec("MDB-25")
async def test_without_host_paths_nothing_is_checked_or_recorded(
    opener: Opener, dirs: tuple[HostPaths, HostPaths]
) -> None:
    first, _ = dirs
    await opener.once(None)
    assert await opener.owner() is None
    await opener.once(first)
    await opener.once(None)  # a foreign owner does not stop an embedded host
    assert await opener.owner() == owner_of(first)
