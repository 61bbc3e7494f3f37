"""Opening and closing the MongoDB driver: timeouts, failures, cancellation, redacted logs."""

from __future__ import annotations

import asyncio
import logging

import pytest

pytest.importorskip("pymongo")

from pymongo.errors import InvalidOperation

from aalis_memory.drivers.mongodb import (
    CONNECT_FAILED,
    MongoConfig,
    MongoConnectionError,
    MongoMemory,
)
from aalis_memory.drivers.mongodb.config import ConfigError
from aalis_memory.fixtures.mongodb_server import MongoServer, free_port
from aalis_memory.fixtures.mongodb_testing import (
    ClientRecorder,
    run_against_unreachable,
)

LOGGER = "aalis_memory.drivers.mongodb"


def dead_uri(credentials: str = "") -> str:
    """A loopback URI where nothing listens (the port was free a moment ago)."""
    return f"mongodb://{credentials}127.0.0.1:{free_port()}/"


@pytest.mark.aalis_spec("MDB-02")
async def test_connect_timeout_is_used_for_connect_and_selection(
    aalis_mongodb_server: MongoServer, aalis_mongodb_database: str, aalis_memory_loop: asyncio.Runner
) -> None:
    config = MongoConfig(
        uri=aalis_mongodb_server.uri, database=aalis_mongodb_database, connect_timeout_ms=4321
    )
    store = await MongoMemory.open(config)
    try:
        assert store.client.options.server_selection_timeout == pytest.approx(4.321)
        assert store.client.options.pool_options.connect_timeout == pytest.approx(4.321)
    finally:
        await store.close()


@pytest.mark.aalis_spec("MDB-26")
async def test_close_closes_the_client(
    aalis_mongodb_server: MongoServer, aalis_mongodb_database: str, aalis_memory_loop: asyncio.Runner
) -> None:
    recorder = ClientRecorder()
    config = MongoConfig(uri=aalis_mongodb_server.uri, database=aalis_mongodb_database)
    store = await MongoMemory.open(config, event_listeners=[recorder])
    await store.close()
    assert recorder.topology_closed == 1
    with pytest.raises(InvalidOperation):
        await store.get_history("s")
    await store.close()  # idempotent
    assert recorder.topology_closed == 1


@pytest.mark.aalis_spec("MDB-27")
def test_unreachable_server_fails_with_the_documented_text() -> None:
    recorder = ClientRecorder()
    uri = dead_uri()
    config = MongoConfig(uri=uri, database="aalis_unreachable", connect_timeout_ms=300)

    async def main() -> None:
        with pytest.raises(MongoConnectionError) as caught:
            await MongoMemory.open(config, event_listeners=[recorder])
        message = str(caught.value)
        assert message.startswith(CONNECT_FAILED)
        assert uri.split("//")[1].rstrip("/") in message  # the cause names the address
        assert (recorder.topology_opened, recorder.topology_closed) == (1, 1)
        # The failed instance released the database: a retry fails the same way, not "in use".
        with pytest.raises(MongoConnectionError):
            await MongoMemory.open(config)

    run_against_unreachable(main)
    assert CONNECT_FAILED == "MongoDB 连接失败(确认 MongoDB 在运行、配置项 uri 写对):"


@pytest.mark.aalis_spec("MDB-27")
async def test_index_failure_closes_the_client(
    aalis_mongodb_server: MongoServer, aalis_mongodb_database: str, aalis_memory_loop: asyncio.Runner
) -> None:
    config = MongoConfig(uri=aalis_mongodb_server.uri, database=aalis_mongodb_database)
    store = await MongoMemory.open(config)
    try:
        # Another tool took the name of one of the driver's indexes for a different key.
        await store.messages_collection.drop()
        await store.messages_collection.create_index([("x", 1)], name="sessionId_1_timestamp_1")
    finally:
        await store.close()
    recorder = ClientRecorder()
    with pytest.raises(MongoConnectionError) as caught:
        await MongoMemory.open(config, event_listeners=[recorder])
    assert str(caught.value).startswith(CONNECT_FAILED)
    assert len(str(caught.value)) > len(CONNECT_FAILED)
    assert recorder.topology_closed == 1


@pytest.mark.aalis_spec("MDB-28")
def test_cancelled_open_closes_the_client_and_frees_the_database() -> None:
    recorder = ClientRecorder()
    config = MongoConfig(uri=dead_uri(), database="aalis_cancelled", connect_timeout_ms=30_000)

    async def main() -> None:
        task = asyncio.ensure_future(MongoMemory.open(config, event_listeners=[recorder]))
        for _ in range(10_000):  # bounded: until the client exists and is connecting
            if recorder.topology_opened or task.done():
                break
            await asyncio.sleep(0)
        assert recorder.topology_opened == 1
        assert not task.done()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert recorder.topology_closed == 1
        quick = MongoConfig(uri=config.uri, database=config.database, connect_timeout_ms=200)
        with pytest.raises(MongoConnectionError):  # not "already used": the claim was released
            await MongoMemory.open(quick)

    run_against_unreachable(main)


@pytest.mark.aalis_spec("MDB-29")
@pytest.mark.parametrize("scheme", ["mongodb", "mongodb+srv"])
def test_logged_uri_hides_the_password(caplog: pytest.LogCaptureFixture, scheme: str) -> None:
    if scheme == "mongodb":
        uri = dead_uri("alice:pw-s3cret@")
        shown = "alice:***@127.0.0.1"
    else:  # no DNS lookup can succeed for this name: the open fails, after logging the uri
        uri = "mongodb+srv://alice:pw-s3cret@aalis-memory.invalid/"
        shown = "alice:***@aalis-memory.invalid"
    config = MongoConfig(uri=uri, database="aalis_redact", connect_timeout_ms=200)

    async def main() -> str:
        with pytest.raises((MongoConnectionError, ConfigError)) as caught:
            await MongoMemory.open(config)
        return str(caught.value)

    with caplog.at_level(logging.DEBUG, logger=LOGGER):
        error = run_against_unreachable(main)
    logged = [record.getMessage() for record in caplog.records]
    assert any(shown in line for line in logged), logged
    assert not any("pw-s3cret" in line for line in logged)
    assert "pw-s3cret" not in error
