"""MongoDB driver settings, database names and URI redaction: checked before any connection."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pymongo")

from aalis_memory.drivers.mongodb import MongoMemory
from aalis_memory.drivers.mongodb.config import (
    ConfigError,
    HostPaths,
    MongoConfig,
    check_database_name,
    derive_database_name,
    redact_uri,
    resolve_database_name,
)
from aalis_memory.fixtures.mongodb_server import free_port
from aalis_memory.fixtures.mongodb_testing import ClientRecorder


@pytest.mark.aalis_spec("MDB-01")
def test_defaults() -> None:
    config = MongoConfig()
    assert (config.uri, config.database, config.claim_from, config.collection) == (
        "mongodb://localhost:27017",
        "",
        "",
        "messages",
    )
    assert (config.connect_timeout_ms, config.range_query_limit, config.cross_session_max_limit) == (
        5000,
        500,
        1000,
    )


@pytest.mark.aalis_spec("MDB-01")
def test_host_config_block_uses_the_documented_names() -> None:
    config = MongoConfig.from_mapping(
        {
            "uri": "mongodb://db:1",
            "database": "d",
            "claimFrom": "unowned",
            "collection": "c",
            "connectTimeoutMs": 10,
            "rangeQueryLimit": 2,
            "crossSessionMaxLimit": 3,
        }
    )
    assert config == MongoConfig(
        uri="mongodb://db:1",
        database="d",
        claim_from="unowned",
        collection="c",
        connect_timeout_ms=10,
        range_query_limit=2,
        cross_session_max_limit=3,
    )
    assert MongoConfig.from_mapping({}) == MongoConfig()


@pytest.mark.aalis_spec("MDB-04")
@pytest.mark.parametrize(
    "settings",
    [
        {"uri": ""},
        {"uri": 27017},
        {"database": None},
        {"collection": ""},
        {"collection": "metadata"},
        {"collection": "a$b"},
        {"collection": "system.users"},
        {"connect_timeout_ms": 0},
        {"connect_timeout_ms": 1.5},
        {"range_query_limit": 0},
        {"range_query_limit": True},
        {"cross_session_max_limit": -1},
    ],
    ids=repr,
)
def test_bad_settings_raise_config_error(settings: dict[str, Any]) -> None:
    with pytest.raises(ConfigError) as caught:
        MongoConfig(**settings)
    assert isinstance(caught.value, ValueError)
    assert "\n" not in str(caught.value)


@pytest.mark.aalis_spec("MDB-04")
def test_unknown_host_setting_is_refused() -> None:
    with pytest.raises(ConfigError, match="claim_from"):
        MongoConfig.from_mapping({"claim_from": "unowned"})


@pytest.mark.aalis_spec("MDB-04")
def test_unparsable_uri_is_a_config_error_without_a_client() -> None:
    recorder = ClientRecorder()
    for uri in ("http://localhost:27017", "mongodb://host:notaport"):
        with pytest.raises(ConfigError, match="uri"):
            asyncio.run(MongoMemory.open(MongoConfig(uri=uri), event_listeners=[recorder]))
    assert recorder.topology_opened == 0


@pytest.mark.aalis_spec("MDB-05")
def test_repr_hides_the_uri_password() -> None:
    text = repr(MongoConfig(uri="mongodb://alice:s3cret@db.example:27017/?authSource=admin"))
    assert "s3cret" not in text
    assert "alice:***@db.example" in text


@pytest.mark.aalis_spec("MDB-16")
@pytest.mark.parametrize(
    ("paths", "suffix", "expected"),
    [
        (None, "", "aalis"),
        (None, "b", "aalis-b"),
        (HostPaths(Path("/srv/aalis/data")), "", "aalis"),
        (HostPaths(Path("/srv/aalis/data")), "b", "aalis-b"),
        (HostPaths(Path("/srv/aalis/data-work"), profile="work"), "", "aalis_work"),
        (HostPaths(Path("/srv/aalis/data-work"), profile="work"), "b", "aalis_work_b"),
    ],
    ids=["main", "main:b", "data", "data:b", "profile", "profile:b"],
)
def test_database_name_is_derived(paths: HostPaths | None, suffix: str, expected: str) -> None:
    assert derive_database_name(paths, suffix) == expected
    assert resolve_database_name(MongoConfig(), paths, suffix) == expected


@pytest.mark.aalis_spec("MDB-16")
def test_profile_is_read_from_a_data_dash_directory() -> None:
    assert HostPaths.for_data_dir("/srv/aalis/data-work").profile == "work"
    assert HostPaths.for_data_dir("/srv/aalis/data").profile is None
    assert HostPaths.for_data_dir("/srv/aalis/data-").profile is None


@pytest.mark.aalis_spec("MDB-16")
def test_configured_database_is_used_as_written() -> None:
    paths = HostPaths(Path("/srv/aalis/data-work"), profile="work")
    assert resolve_database_name(MongoConfig(database="Mine_1"), paths, "b") == "Mine_1"


@pytest.mark.aalis_spec("MDB-17")
def test_63_bytes_is_the_limit() -> None:
    assert check_database_name("a" * 63) == "a" * 63
    assert check_database_name("库" * 21) == "库" * 21  # 63 bytes in UTF-8
    for name in ("a" * 64, "库" * 22):
        with pytest.raises(ConfigError) as caught:
            check_database_name(name)
        message = str(caught.value)
        assert "63" in message
        assert "\n" not in message


@pytest.mark.aalis_spec("MDB-17")
def test_too_long_derived_name_fails_open_before_connecting(tmp_path: Path) -> None:
    recorder = ClientRecorder()
    paths = HostPaths(tmp_path / "data-long", profile="p" * 60)
    config = MongoConfig(uri=f"mongodb://127.0.0.1:{free_port()}", connect_timeout_ms=200)
    with pytest.raises(ConfigError) as caught:
        asyncio.run(MongoMemory.open(config, host_paths=paths, event_listeners=[recorder]))
    assert "aalis_" + "p" * 60 in str(caught.value)
    assert "\n" not in str(caught.value)
    assert recorder.topology_opened == 0


@pytest.mark.aalis_spec("MDB-29")
@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        ("mongodb://user:pa55@host:27017/db", "mongodb://user:***@host:27017/db"),
        ("mongodb+srv://user:pa:55@cluster.example/db", "mongodb+srv://user:***@cluster.example/db"),
        ("MONGODB://User:x@h", "MONGODB://User:***@h"),
        ("mongodb://host:27017/db", "mongodb://host:27017/db"),
        ("mongodb://user@host/db", "mongodb://user@host/db"),
        ("connect to mongodb://u:p@h failed", "connect to mongodb://u:***@h failed"),
    ],
)
def test_uri_redaction(uri: str, expected: str) -> None:
    assert redact_uri(uri) == expected
