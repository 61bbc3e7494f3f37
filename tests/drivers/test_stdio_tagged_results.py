"""The protocol's tagged values travel both ways (issue 35): what the kit sends as
``{"$int": "..."}`` or ``{"$num": ...}`` it accepts in a result, wherever a result holds a number.
An adapter that writes its int64 timestamps, counts and ``updatedAt`` as the documents say values
JSON cannot spell travel is read exactly, not refused as a protocol violation."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from aalis_memory.conformance.registration.transport import Transport
from aalis_memory.drivers.stdio import SCHEMA_PATH, schema
from aalis_memory.drivers.stdio.client import Connection
from aalis_memory.drivers.stdio.driver import probe
from aalis_memory.drivers.stdio.store import StdioStore

TAGGED = [sys.executable, str(Path(__file__).resolve().parents[1] / "stdio_tagged_adapter.py")]


@pytest.fixture
def store() -> Iterator[StdioStore]:
    hello = probe("tagged", TAGGED)
    connection = Connection("tagged", TAGGED)
    try:
        opened = connection.call_sync("open", {"rangeQueryLimit": 7, "crossSessionMaxLimit": 5}, 10)
        yield StdioStore(
            connection, opened["handle"], hello["methods"], 10.0, transport=Transport.from_hello(hello)
        )
    finally:
        connection.stop()


def test_tagged_timestamps_read_back_as_the_integers_they_name(store: StdioStore) -> None:
    history = asyncio.run(store.get_history("s"))
    assert [m.timestamp for m in history] == [-(2**63), 2**63 - 1]
    assert all(type(m.timestamp) is int for m in history)
    assert history[1].reasoning_content is None


def test_tagged_counts_and_update_stamps_are_integers(store: StdioStore) -> None:
    async def calls() -> list[Any]:
        entries = await store.list_metadata("ns")
        return [
            await store.count_history("s"),
            await store.archive_span("s", 2),
            await store.update_message_content("s", "a", "b"),
            await store.delete_messages_by_timestamps("s", [2**63 - 1]),
            entries[0].updated_at,
            entries[0].data,
        ]

    assert asyncio.run(calls()) == [2**60, 2, 0, 1, 2**63 - 1, {"big": 2**64}]


def test_an_int64_transport_may_declare_its_safe_integer_tagged(store: StdioStore) -> None:
    assert store.transport.safe_integer == 2**63 - 1
    assert store.transport.declared


@pytest.mark.parametrize(
    ("method", "result"),
    [
        ("getHistory", [{"role": "user", "content": "a", "timestamp": {"$int": "12"}}]),
        ("getHistory", [{"role": "user", "content": "a", "timestamp": {"$num": "Infinity"}}]),
        ("countHistory", {"$int": str(2**70)}),
        ("listMetadata", [{"key": "k", "data": {}, "updatedAt": {"$int": "-3"}}]),
    ],
)
def test_tagged_numbers_are_valid_results(method: str, result: Any) -> None:
    assert schema.result_errors(method, result) == []
    assert _jsonschema_accepts(method, result)


@pytest.mark.parametrize(
    ("method", "result"),
    [
        # a tag's body is decimal digits and nothing else
        ("getHistory", [{"role": "user", "content": "a", "timestamp": {"$int": "x12"}}]),
        ("getHistory", [{"role": "user", "content": "a", "timestamp": {"$int": "1e3"}}]),
        ("getHistory", [{"role": "user", "content": "a", "timestamp": {"$int": 12}}]),
        ("getHistory", [{"role": "user", "content": "a", "timestamp": {"$int": "1", "x": 1}}]),
        # a count is never negative, tagged or not; an update stamp is an integer, never Infinity
        ("countHistory", {"$int": "-1"}),
        ("archiveSpan", {"$num": "Infinity"}),
        ("listMetadata", [{"key": "k", "data": {}, "updatedAt": {"$num": "Infinity"}}]),
    ],
)
def test_malformed_tags_still_break_the_protocol(method: str, result: Any) -> None:
    assert schema.result_errors(method, result)
    assert not _jsonschema_accepts(method, result)


def _jsonschema_accepts(method: str, result: Any) -> bool:
    """The reference implementation's reading of the same schema (``pattern`` included)."""
    document = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    node = {"$defs": document["$defs"], **document["$defs"]["results"][method]}
    return bool(jsonschema.Draft202012Validator(node).is_valid(result))
