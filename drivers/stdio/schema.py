"""The protocol's JSON Schema and the validators the bridge checks every line with.

Every line in both directions is checked, so the check is on every call's path. A line that
holds is recognised by a validator ``fastjsonschema`` generates from the schema (Python code,
one function per schema node: about a third of the time of walking the schema for each line),
kept in the package as :data:`GENERATED_MODULE` so that no process compiles it again; only a line
that breaks the schema is walked by the small validator below, which names every way it breaks
it. The schema uses a small subset of JSON Schema 2020-12 (``$ref`` to ``#/$defs/...``, ``type``,
``const``, ``enum``, ``properties``, ``required``, ``additionalProperties`` as a boolean,
``items``, ``anyOf``, ``oneOf``, ``minimum``, ``minLength``, ``pattern``), which the small
validator implements. The kit's tests check the schema against the 2020-12 meta-schema and that
both validators and ``jsonschema`` agree (``tests/drivers/test_stdio_bridge.py``,
``tests/drivers/test_stdio_schema.py``).
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import importlib
import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, Final

import fastjsonschema

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


def _no_remote(uri: str) -> Any:
    raise ValueError(f"the protocol schema refers outside itself ({uri}): it must not")


#: Where the schema document's own top level (the envelope of every line) goes in the one schema
#: compiled below.
_ENVELOPE: Final = "envelope"


#: The module the validators' code is kept in, generated from the schema
#: (``python -m aalis_memory.conformance contract-tables`` writes it).
GENERATED_MODULE: Final = "protocol_validators"
#: The generated module's first lines: what made it and the schema it was made from.
_BANNER: Final = (
    '"""The protocol schema\'s validators as ``fastjsonschema`` generates them (a generated file:\n'
    "do not edit; `python -m aalis_memory.conformance contract-tables` rewrites it).\n\n"
    "Kept in the package so that no process compiles them again: compiling costs about 0.1 s, and a\n"
    "crash test forks a writer per kill. Used only while ``SCHEMA_SHA256`` is the schema's own.\n"
    '"""\n# ruff: noqa\n# mypy: ignore-errors\n\n'
)


def schema_digest(text: bytes) -> str:
    """The SHA-256 the generated validators name the schema text they were made from by."""
    return hashlib.sha256(text).hexdigest()


def _keys(document: dict[str, Any]) -> list[str]:
    """The validators' keys: ``"envelope"``, ``"params/NAME"``, ``"results/NAME"``."""
    defs = document["$defs"]
    return [_ENVELOPE] + [f"{kind}/{method}" for kind in ("params", "results") for method in defs[kind]]


def _root(document: dict[str, Any]) -> dict[str, Any]:
    """One schema that refers to the envelope and to each method's params and result (by
    :func:`_keys`).

    ``fastjsonschema`` compiles them in one pass (a compile per node repeats the reference
    resolution each time, five times the cost), and each referenced node becomes a function of
    the generated code."""
    keys = _keys(document)
    document = copy.deepcopy(document)  # fastjsonschema rewrites the references it resolves
    top = {key: value for key, value in document.items() if key not in ("$schema", "$id", "$defs")}
    return {
        "$id": document["$id"],
        "$defs": {**document["$defs"], _ENVELOPE: top},
        "properties": {key: {"$ref": f"#/$defs/{key}"} for key in keys},
    }


_OPTIONS: Final[dict[str, Any]] = {
    "handlers": {"http": _no_remote, "https": _no_remote},
    "use_default": False,
    "use_formats": False,
}


#: A path string in ``fastjsonschema``'s code, ``"[{data_x}]".format(**locals())``: made for every
#: item of an array, valid or not, and each time a dict of the function's locals is built for it.
#: As an f-string it reads the same names without that dict (a read of 20 messages is validated
#: in about 25 us instead of 35).
_LOCALS_FORMAT: Final = re.compile(r'"((?:[^"\\]|\\.)*)"\.format\(\*\*locals\(\)\)')


def generated_source(schema_text: bytes) -> str:
    """The text of the generated validators' module for the schema ``schema_text`` (the file's
    bytes, which must be what :func:`schema` reads)."""
    code = fastjsonschema.compile_to_code(_root(json.loads(schema_text)), **_OPTIONS)
    code = _LOCALS_FORMAT.sub(r'f"\1"', code)
    return f"{_BANNER}SCHEMA_SHA256 = {schema_digest(schema_text)!r}\n{code}"


@cache
def _compiled() -> dict[str, Callable[[Any], Any]]:
    """A validator for the envelope and for each method's params and result, keyed as in
    :func:`_keys`; each raises on a value its node does not hold and never changes the value.

    They come from the generated module while it was made from this schema; otherwise (a
    schema being edited) they are compiled here."""
    generated: dict[str, Any] | None = None
    with contextlib.suppress(ImportError):
        module = importlib.import_module(f"{__package__}.{GENERATED_MODULE}")
        if schema_digest(SCHEMA_PATH.read_bytes()) == module.SCHEMA_SHA256:
            generated = vars(module)
    if generated is None:
        generated = fastjsonschema.compile(_root(schema()), **_OPTIONS).__globals__
    functions: dict[str, Callable[[Any], Any]] = {}
    for key in [*_keys(schema()), *(_schema_branches() or {}).values()]:
        suffix = "___defs_" + key.replace("/", "_").lower()
        found = [name for name in generated if name.startswith("validate_") and name.endswith(suffix)]
        if len(found) != 1:
            raise RuntimeError(f"fastjsonschema named no single function for {key}: {found}")
        functions[key] = generated[found[0]]
    return functions


def _holds(value: Any, key: str) -> bool:
    try:
        _compiled()[key](value)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


#: Keywords that only annotate a schema node: they hold every value.
_ANNOTATIONS: Final = frozenset({"$schema", "$id", "title", "description"})


def _branches(document: dict[str, Any]) -> dict[str, str] | None:
    """The envelope's branches (``$defs`` names) by the key that tells each apart, when the
    envelope is a ``oneOf`` of references to closed object nodes (``additionalProperties``
    false), each of which requires a key of its own that no other branch allows; else None.

    Then a line holds the envelope exactly when it is an object with one of those keys and
    holds that key's branch: it holds no other branch (each forbids the key), and an object
    with none of the keys, or with two, holds none. One branch is checked instead of all three
    (``oneOf`` tries every branch), on every line in both directions."""
    options = document.get("oneOf")
    if set(document) - _ANNOTATIONS - {"$defs", "oneOf"} or not isinstance(options, list):
        return None
    names = [str(o.get("$ref", "")).removeprefix("#/$defs/") for o in options if set(o) == {"$ref"}]
    nodes = {name: document["$defs"].get(name) for name in names if "/" not in name}
    if len(nodes) != len(options) or not all(
        isinstance(n, dict) and n.get("type") == "object" and n.get("additionalProperties") is False
        for n in nodes.values()
    ):
        return None
    found: dict[str, str] = {}
    for name, node in nodes.items():
        others = {key for other, o in nodes.items() if other != name for key in o.get("properties", {})}
        own = [k for k in node.get("required", []) if k in node.get("properties", {}) and k not in others]
        if not own:
            return None
        found[own[0]] = name
    return found


@cache
def _schema_branches() -> dict[str, str] | None:
    return _branches(schema())


def _envelope_holds(message: Any) -> bool:
    branches = _schema_branches()
    if branches is None:
        return _holds(message, _ENVELOPE)
    if not isinstance(message, dict):
        return False
    present = [branch for key, branch in branches.items() if key in message]
    return len(present) == 1 and _holds(message, present[0])


def message_errors(message: Any) -> list[str]:
    """How one line (already parsed) breaks the envelope of the protocol."""
    return [] if _envelope_holds(message) else errors(message, schema())


def params_errors(method: str, params: Any) -> list[str]:
    if _holds(params, f"params/{method}"):
        return []
    return errors(params, schema()["$defs"]["params"][method], "params")


def result_errors(method: str, result: Any) -> list[str]:
    if _holds(result, f"results/{method}"):
        return []
    return errors(result, schema()["$defs"]["results"][method], "result")
