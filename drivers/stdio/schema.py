"""The protocol's JSON Schema and the small validator the bridge checks every line with.

The kit validates at runtime without depending on ``jsonschema`` (a dev dependency only): the
schema uses a small subset of JSON Schema 2020-12 (``$ref`` to ``#/$defs/...``, ``type``,
``const``, ``enum``, ``properties``, ``required``, ``additionalProperties`` as a boolean,
``items``, ``anyOf``, ``oneOf``, ``minimum``, ``minLength``, ``pattern``), which this module
implements. The kit's tests check the schema against the 2020-12 meta-schema and that this
validator and ``jsonschema`` agree on recorded traffic.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any, Final

SCHEMA_PATH: Final = Path(__file__).resolve().parent / "protocol.schema.json"

#: Keywords the validator understands; the schema may use nothing else (tests check it).
SUPPORTED: Final = frozenset(
    {
        "$schema",
        "$id",
        "$defs",
        "$ref",
        "title",
        "description",
        "type",
        "const",
        "enum",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
        "oneOf",
        "minimum",
        "minLength",
        "pattern",
    }
)


@cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


def _type_holds(name: str, value: Any) -> bool:
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and value.is_integer()
        )
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    raise ValueError(f"unsupported type {name!r} in the protocol schema")


def _resolve(ref: str) -> dict[str, Any]:
    if not ref.startswith("#/"):
        raise ValueError(f"unsupported $ref {ref!r}")
    node: Any = schema()
    for part in ref[2:].split("/"):
        node = node[part]
    found: dict[str, Any] = node
    return found


def errors(value: Any, node: dict[str, Any], path: str = "$") -> list[str]:
    """Every way ``value`` breaks the schema ``node`` (empty when it matches)."""
    if "$ref" in node:
        return errors(value, _resolve(node["$ref"]), path)
    found: list[str] = []
    if "type" in node:
        names = node["type"] if isinstance(node["type"], list) else [node["type"]]
        if not any(_type_holds(name, value) for name in names):
            return [f"{path}: expected {' or '.join(names)}, got {_show(value)}"]
    if "const" in node and not _same(value, node["const"]):
        found.append(f"{path}: expected {node['const']!r}, got {_show(value)}")
    if "enum" in node and not any(_same(value, option) for option in node["enum"]):
        found.append(f"{path}: expected one of {node['enum']}, got {_show(value)}")
    if "minimum" in node and _type_holds("number", value) and value < node["minimum"]:
        found.append(f"{path}: {value!r} is below {node['minimum']}")
    if "minLength" in node and isinstance(value, str) and len(value) < node["minLength"]:
        found.append(f"{path}: shorter than {node['minLength']}")
    # re.search, as jsonschema reads ``pattern`` (its ``$`` also matches before a final newline,
    # which int() reads the same)
    if "pattern" in node and isinstance(value, str) and not re.search(node["pattern"], value):
        found.append(f"{path}: {_show(value)} does not match {node['pattern']}")
    if isinstance(value, dict):
        found += _object_errors(value, node, path)
    if isinstance(value, list) and "items" in node:
        for index, item in enumerate(value):
            found += errors(item, node["items"], f"{path}[{index}]")
    if "anyOf" in node and not any(not errors(value, option, path) for option in node["anyOf"]):
        found.append(f"{path}: matches none of the allowed forms, got {_show(value)}")
    if "oneOf" in node:
        matching = [option for option in node["oneOf"] if not errors(value, option, path)]
        if len(matching) != 1:
            detail = min((errors(value, option, path) for option in node["oneOf"]), key=len)
            found.append(
                f"{path}: matches {len(matching)} of the allowed forms, not exactly one"
                + (f" ({'; '.join(detail)})" if detail else "")
            )
    return found


def _object_errors(value: dict[str, Any], node: dict[str, Any], path: str) -> list[str]:
    found: list[str] = []
    properties: dict[str, Any] = node.get("properties", {})
    for name in node.get("required", ()):
        if name not in value:
            found.append(f"{path}: missing member {name!r}")
    for name, item in value.items():
        if name in properties:
            found += errors(item, properties[name], f"{path}.{name}")
        else:
            extra = node.get("additionalProperties", True)
            if extra is False:
                found.append(f"{path}: unexpected member {name!r}")
            elif isinstance(extra, dict):
                found += errors(item, extra, f"{path}.{name}")
    return found


def _same(a: Any, b: Any) -> bool:
    return (type(a) is type(b) and a == b) or (
        _type_holds("number", a) and _type_holds("number", b) and a == b
    )


def _show(value: Any) -> str:
    text = json.dumps(value, default=repr)
    return text if len(text) <= 120 else text[:117] + "..."


def message_errors(message: Any) -> list[str]:
    """How one line (already parsed) breaks the envelope of the protocol."""
    return errors(message, schema())


def params_errors(method: str, params: Any) -> list[str]:
    return errors(params, schema()["$defs"]["params"][method], "params")


def result_errors(method: str, result: Any) -> list[str]:
    return errors(result, schema()["$defs"]["results"][method], "result")
