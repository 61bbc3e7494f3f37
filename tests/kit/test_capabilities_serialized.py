"""Every field of ``Capabilities`` reaches every place a driver's tiers are written or read: the
stdio handshake (its schema and its parsing into the registration), the JSON report (its
schema and its content) and the Markdown matrix (issue 26). A field added to the class and
forgotten by one of them fails here, by the name of the surface that dropped it."""

from __future__ import annotations

import json
import re
import sys
import typing
from pathlib import Path
from typing import Any, Final

import attrs
import jsonschema
import pytest

from aalis_memory.conformance.registration import capability_fields
from aalis_memory.conformance.registration.registry import Capabilities, DriverRegistration, memory_driver
from aalis_memory.conformance.verdicts.json_report import SCHEMA_PATH, as_json
from aalis_memory.conformance.verdicts.markdown import as_markdown
from aalis_memory.drivers.stdio import SCHEMA_PATH as PROTOCOL_SCHEMA_PATH
from aalis_memory.drivers.stdio import schema as protocol
from aalis_memory.drivers.stdio.driver import stdio_driver

#: A value other than the default for every field: what each surface must carry through.
#: Spelled here by hand, so that a new field fails :func:`test_every_field_has_a_value_here`
#: until it is added, and then every other test checks it on every surface.
NON_DEFAULT: Final[dict[str, Any]] = {
    "ordering": "write",
    "metadata_atomicity": "ordered",
    "archive_atomicity": "partial",
    "range_cap": False,
}
WEAK: Final = Capabilities(**NON_DEFAULT)
FIELDS: Final = [field.name for field in attrs.fields(Capabilities)]
#: Never started: the handshake is given, so the registration needs no process.
NO_COMMAND: Final = [sys.executable, "-c", "raise SystemExit(3)"]


def _camel(name: str) -> str:
    """The protocol's spelling of a field, worked out here independently of the kit's."""
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), name)


def _allowed(field: str) -> list[Any]:
    """The values the class's type annotation allows for ``field`` (a Literal's or a bool's)."""
    hint = typing.get_type_hints(Capabilities)[field]
    if hint is bool:
        return [True, False]
    args = typing.get_args(hint)
    assert args, f"{field}: no Literal values in {hint!r}"
    return list(args)


def _registered(name: str, caps: Capabilities) -> DriverRegistration:
    async def factory(_ctx: Any) -> Any:
        yield None

    return memory_driver(name, capabilities=caps)(factory)


def test_every_field_has_a_value_here() -> None:
    assert sorted(NON_DEFAULT) == sorted(FIELDS), "add the new field to NON_DEFAULT"
    defaults = Capabilities()
    same = [f for f in FIELDS if getattr(defaults, f) == NON_DEFAULT[f]]
    assert not same, f"{same}: NON_DEFAULT must differ from the default to be seen"


def test_the_kit_s_mapping_covers_every_field() -> None:
    assert list(capability_fields.FIELDS) == FIELDS
    assert {f: _camel(f) for f in FIELDS} == capability_fields.WIRE_NAMES
    assert capability_fields.from_wire(capability_fields.to_wire(WEAK)) == WEAK
    assert capability_fields.as_record(WEAK) == NON_DEFAULT
    assert capability_fields.as_record(None) == dict.fromkeys(FIELDS)


# -- the stdio handshake --------------------------------------------------------------------


def test_the_protocol_schema_declares_every_field() -> None:
    document = json.loads(PROTOCOL_SCHEMA_PATH.read_text(encoding="utf-8"))
    node = document["$defs"]["hello"]["properties"]["capabilities"]
    assert node["additionalProperties"] is False
    assert sorted(node["properties"]) == sorted(_camel(f) for f in FIELDS)
    for field in FIELDS:
        member = node["properties"][_camel(field)]
        if _allowed(field) == [True, False]:
            assert member.get("type") == "boolean", (field, member)
        else:
            assert sorted(member["enum"]) == sorted(_allowed(field)), (field, member)


def _hello(wire_caps: dict[str, Any]) -> dict[str, Any]:
    return {
        "protocolVersion": 1,
        "adapter": "caps",
        "methods": [],
        "rawMetadata": False,
        "capabilities": wire_caps,
    }


def test_a_handshake_declaring_every_field_is_valid_and_parsed_whole() -> None:
    """A handshake with every field set (by the protocol's spelling) is valid for the schema,
    both validators, and becomes exactly those capabilities in the registration."""
    hello = _hello({_camel(f): v for f, v in NON_DEFAULT.items()})
    assert protocol.result_errors("hello", hello) == []
    document = json.loads(PROTOCOL_SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(
        {"$defs": document["$defs"], **document["$defs"]["results"]["hello"]}
    ).validate(hello)
    registration = stdio_driver("caps-serialized-handshake", NO_COMMAND, hello=hello)
    assert registration.capabilities == WEAK


def test_range_cap_may_be_left_out_of_the_handshake() -> None:
    """An adapter written before ``rangeCap`` existed still registers, with a range cap."""
    hello = _hello({"ordering": "timestamp", "metadataAtomicity": "atomic", "archiveAtomicity": "atomic"})
    assert protocol.result_errors("hello", hello) == []
    registration = stdio_driver("caps-serialized-no-range-cap-member", NO_COMMAND, hello=hello)
    assert registration.capabilities == Capabilities()


@pytest.mark.parametrize("bad", [{"rangeCap": "no"}, {"rangeCap": None}, {"rangeKap": False}])
def test_a_handshake_with_a_wrong_range_cap_breaks_the_protocol(bad: dict[str, Any]) -> None:
    hello = _hello(
        {"ordering": "timestamp", "metadataAtomicity": "atomic", "archiveAtomicity": "atomic", **bad}
    )
    assert protocol.result_errors("hello", hello), hello


# -- the reports ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def weak_driver() -> str:
    return _registered("caps-serialized-report", WEAK).name


def test_the_report_schema_declares_every_field() -> None:
    document = json.loads(Path(SCHEMA_PATH).read_text(encoding="utf-8"))
    node = document["$defs"]["driver"]["properties"]["capabilities"]
    missing = [f for f in FIELDS if f not in node["properties"] or f not in node["required"]]
    assert not missing, f"report.schema.json lacks {missing}"
    for field in FIELDS:
        member = node["properties"][field]
        if _allowed(field) == [True, False]:
            assert member["type"] == ["boolean", "null"], (field, member)
        else:
            assert sorted(member["enum"], key=str) == sorted([*_allowed(field), None], key=str)


def test_the_json_report_carries_every_field(weak_driver: str) -> None:
    report = as_json({weak_driver: {}, "caps-serialized-unknown": {}}, strict=False)
    document = json.loads(Path(SCHEMA_PATH).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(document).validate(report)
    written = report["drivers"][weak_driver]["capabilities"]
    assert {f: written.get(f, "missing") for f in FIELDS} == NON_DEFAULT
    assert {
        f: report["drivers"]["caps-serialized-unknown"]["capabilities"].get(f, "missing") for f in FIELDS
    } == dict.fromkeys(FIELDS)


def test_the_markdown_matrix_shows_every_field(weak_driver: str) -> None:
    matrix = as_markdown({weak_driver: {}}, strict=False)
    row = next(line for line in matrix.splitlines() if line.startswith(f"| `{weak_driver}` |"))
    tiers = row.split("|")[2]
    for field, value in NON_DEFAULT.items():
        shown = value if isinstance(value, str) else json.dumps(value)
        assert f"{field}={shown}" in tiers, (field, row)
