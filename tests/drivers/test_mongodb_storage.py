"""How the MongoDB driver lays data out and reads it back, against the run's real server."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("pymongo")

from pymongo.errors import PyMongoError

from aalis_memory.conformance.registration.registry import get, load_entry_points
from aalis_memory.drivers.mongodb import MongoConfig, MongoMemory
from aalis_memory.drivers.mongodb.raw import OMIT, plant_metadata
from aalis_memory.fixtures.mongodb_server import MongoServer
from aalis_memory.fixtures.mongodb_testing import ClientRecorder, require
from aalis_memory.types import (
    Message,
    MetadataDel,
    MetadataPut,
    RecentMessagesAcrossSessionsQuery,
)

S = "s-mdb"
NS = "ns-mdb"
Opener = Callable[..., Awaitable[MongoMemory]]


@pytest.fixture
def recorder() -> ClientRecorder:
    return ClientRecorder()


@pytest.fixture
def opener(
    aalis_mongodb_server: MongoServer,
    aalis_mongodb_database: str,
    recorder: ClientRecorder,
    aalis_memory_loop: asyncio.Runner,
) -> Iterator[Opener]:
    """``await opener(**settings)``: a store on this test's database; closed at teardown."""
    opened: list[MongoMemory] = []

    async def open_store(**settings: Any) -> MongoMemory:
        config = MongoConfig(uri=aalis_mongodb_server.uri, database=aalis_mongodb_database, **settings)
        store = await MongoMemory.open(config, event_listeners=[recorder])
        opened.append(store)
        return store

    yield open_store
    for store in opened:
        aalis_memory_loop.run(store.close())


def msg(content: str, ts: int, kind: str | None = None, role: str = "user") -> Message:
    return Message(role=role, content=content, timestamp=ts, kind=kind)


async def save(store: MongoMemory, messages: list[Message], session: str = S) -> None:
    for message in messages:
        await store.save_message(session, message)


def contents(messages: list[Message]) -> list[str | None]:
    return [m.content for m in messages]


@pytest.mark.aalis_spec("MDB-03")
async def test_configured_caps_bound_the_reads(opener: Opener) -> None:
    store = await opener(range_query_limit=3, cross_session_max_limit=2)
    await save(store, [msg(f"m{i}", 100 + i) for i in range(6)])
    ranged = await store.get_messages_by_session_range(S, 0, 10_000)
    assert contents(ranged) == ["m0", "m1", "m2"]
    recent = await store.get_recent_messages_across_sessions(RecentMessagesAcrossSessionsQuery(limit=10))
    assert [r.message.content for r in recent] == ["m4", "m5"]


@pytest.mark.aalis_spec("MDB-06")
async def test_message_indexes(opener: Opener) -> None:
    store = await opener(collection="chat_log")
    info = await store.database["chat_log"].index_information()
    keys = {tuple((field, int(direction)) for field, direction in index["key"]) for index in info.values()}
    assert {
        (("sessionId", 1), ("timestamp", 1)),
        (("archived", 1), ("timestamp", -1)),
        (("metadata.platform", 1), ("timestamp", -1)),
    } <= keys


@pytest.mark.aalis_spec("MDB-07")
async def test_metadata_collection_is_fixed_and_unique(opener: Opener) -> None:
    store = await opener(collection="chat_log")
    await store.save_metadata(NS, "k", {"v": 1})
    info = await store.database["metadata"].index_information()
    unique = [index for index in info.values() if index.get("unique")]
    assert [list(index["key"]) for index in unique] == [[("namespace", 1), ("key", 1)]]
    assert await store.database["metadata"].count_documents({"namespace": NS}) == 1
    assert await store.database["chat_log"].count_documents({}) == 0


@pytest.mark.aalis_spec("MDB-08")
async def test_clear_all_empties_only_the_message_collection(opener: Opener) -> None:
    store = await opener()
    await save(store, [msg("a", 1), msg("b", 2)])
    await store.archive_span(S, 1)
    await store.save_metadata(NS, "k", {"v": 1})
    await plant_metadata(store, NS, "raw", data="not an object")
    await store.clear_all()
    assert await store.messages_collection.count_documents({}) == 0
    assert await store.metadata_collection.count_documents({"namespace": NS}) == 2


@pytest.mark.aalis_spec("MDB-09")
async def test_history_window_counts_conversation_only(opener: Opener) -> None:
    store = await opener()
    marker = turn = "event-marker"  # a turn record is an event marker too
    await save(
        store,
        [
            msg("a", 1),
            msg("d1", 2, marker),
            msg("b", 3),
            msg("t1", 4, turn),
            msg("c", 5),
            msg("d2", 6, marker),
        ],
    )
    assert contents(await store.get_history(S, 2)) == ["d1", "b", "t1", "c", "d2"]
    assert contents(await store.get_history(S, 1)) == ["t1", "c", "d2"]
    assert contents(await store.get_history(S, 3)) == ["a", "d1", "b", "t1", "c", "d2"]
    assert await store.count_history(S) == 3


@pytest.mark.aalis_spec("MDB-10")
async def test_same_millisecond_keeps_write_order_and_archive_flags(opener: Opener) -> None:
    store = await opener()
    names = ["e", "b", "d", "a", "c"]
    await save(store, [msg(name, 500) for name in names])
    assert contents(await store.get_history(S)) == names
    assert await store.archive_span(S, 2) == 2
    assert contents(await store.get_history(S)) == names[2:]
    assert contents(await store.get_full_history(S)) == names
    docs = await store.messages_collection.find({}).sort("_id", 1).to_list()
    assert [(d["content"], d.get("archived", False)) for d in docs] == [
        ("e", True),
        ("b", True),
        ("d", False),
        ("a", False),
        ("c", False),
    ]


@pytest.mark.aalis_spec("MDB-11")
async def test_archive_is_one_multi_update(opener: Opener, recorder: ClientRecorder) -> None:
    store = await opener()
    await save(store, [msg(f"m{i}", i) for i in range(6)])
    recorder.commands.clear()
    assert await store.archive_span(S, 5, keep=[1, 3]) == 3
    updates = recorder.sent("update")
    assert len(updates) == 1
    statements = updates[0].body["updates"]
    assert len(statements) == 1
    assert statements[0]["multi"] is True
    load_entry_points()
    assert get("mongodb").capabilities.archive_atomicity == "partial"


@pytest.mark.aalis_spec("MDB-12")
async def test_commit_is_one_ordered_bulk_write(opener: Opener, recorder: ClientRecorder) -> None:
    store = await opener()
    recorder.commands.clear()
    await store.commit_metadata(
        [
            MetadataPut(NS, "a", {"v": 1}),
            MetadataDel(NS, "b"),
            MetadataPut(NS, "c", {"v": 3}),
        ]
    )
    writes = [c for c in recorder.commands if c.name in ("update", "delete", "insert")]
    assert [c.name for c in writes] == ["update", "delete", "update"]
    assert all(c.body["ordered"] is True for c in writes)
    load_entry_points()
    assert get("mongodb").capabilities.metadata_atomicity == "ordered"


@pytest.mark.aalis_spec("MDB-12")
async def test_commit_stops_at_the_first_failure_keeping_earlier_writes(
    opener: Opener, aalis_mongodb_server: MongoServer
) -> None:
    require(aalis_mongodb_server, "fail_points")
    store = await opener()
    await store.save_metadata(NS, "b", {"v": "old"})
    admin = store.client.admin
    await admin.command(
        {
            "configureFailPoint": "failCommand",
            "mode": {"times": 1},
            "data": {"failCommands": ["delete"], "errorCode": 2, "appName": "aalis-memory"},
        }
    )
    try:
        with pytest.raises(PyMongoError):
            await store.commit_metadata(
                [
                    MetadataPut(NS, "a", {"v": 1}),
                    MetadataDel(NS, "b"),
                    MetadataPut(NS, "c", {"v": 3}),
                ]
            )
    finally:
        await admin.command({"configureFailPoint": "failCommand", "mode": "off"})
    assert await store.get_metadata(NS, "a") == {"v": 1}
    assert await store.get_metadata(NS, "b") == {"v": "old"}
    assert await store.get_metadata(NS, "c") is None


@pytest.mark.aalis_spec("MDB-13")
async def test_list_metadata_skips_non_objects_with_one_warning_each(
    opener: Opener, caplog: pytest.LogCaptureFixture
) -> None:
    store = await opener()
    await store.save_metadata(NS, "good", {"v": 1})
    await plant_metadata(store, NS, "listy", data=[1, 2], updated_at=dt.datetime.now(dt.UTC))
    await plant_metadata(store, NS, "texty", data="text")
    await plant_metadata(store, NS, "missing")
    with caplog.at_level(logging.WARNING, logger="aalis_memory.drivers.mongodb"):
        entries = await store.list_metadata(NS)
    assert [e.key for e in entries] == ["good"]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    for key in ("listy", "texty", "missing"):
        assert len([w for w in warnings if f"{NS}/{key}" in w]) == 1, warnings
    assert len(warnings) == 3


@pytest.mark.aalis_spec("MDB-14")
async def test_updated_at_falls_back_to_zero(opener: Opener) -> None:
    store = await opener()
    await store.save_metadata(NS, "fresh", {"v": 0})
    await plant_metadata(store, NS, "no-stamp", data={"v": 1})
    await plant_metadata(store, NS, "text-stamp", data={"v": 2}, updated_at="2024-01-01")
    await plant_metadata(store, NS, "number-stamp", data={"v": 3}, updated_at=1_700_000_000_000)
    stamps = {e.key: (e.data, e.updated_at) for e in await store.list_metadata(NS)}
    assert stamps["no-stamp"] == ({"v": 1}, 0)
    assert stamps["text-stamp"] == ({"v": 2}, 0)
    assert stamps["number-stamp"] == ({"v": 3}, 0)
    assert stamps["fresh"][1] > 0


@pytest.mark.aalis_spec("MDB-15")
async def test_list_metadata_keys_includes_skipped_documents(opener: Opener) -> None:
    store = await opener()
    await store.save_metadata(NS, "good", {"v": 1})
    await plant_metadata(store, NS, "listy", data=[1])
    await plant_metadata(store, NS, "bare", data=OMIT)
    assert await store.list_metadata_keys(NS) == ["bare", "good", "listy"]
    assert [e.key for e in await store.list_metadata(NS)] == ["good"]
