"""The two validators of the stdio protocol (the compiled one every line meets first, and the
small one that names what broke) and ``jsonschema`` give the same answer on lines drawn from the
schema itself: values each node allows, and values one change away from it (a member missing or
added, a value of another type, a bool for a number, a whole float for an integer).
"""

from __future__ import annotations

import functools
import importlib
import json
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aalis_memory.drivers.stdio import schema

DOCUMENT: dict[str, Any] = json.loads(schema.SCHEMA_PATH.read_text(encoding="utf-8"))
DEFS: dict[str, Any] = DOCUMENT["$defs"]

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**60), 2**60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5),
)
ANY_JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target: Any = DOCUMENT
        for part in node["$ref"].split("#/", 1)[1].split("/"):
            target = target[part]
        node = target
    return node


def _of_type(name: str, node: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
    low = node.get("minimum")
    if name == "null":
        return st.none()
    if name == "boolean":
        return st.booleans()
    if name == "integer":
        whole = st.integers(min_value=None if low is None else int(low), max_value=2**60)
        return whole | whole.map(float)
    if name == "number":
        return st.integers(-(2**60), 2**60) | st.floats(min_value=low, allow_nan=False, allow_infinity=False)
    if name == "string":
        return st.text(min_size=node.get("minLength", 0), max_size=6)
    if name == "array":
        items = node.get("items")
        return st.lists(ANY_JSON if items is None else allowed(items, depth + 1), max_size=3)
    if name == "object":
        return _object(node, depth)
    raise AssertionError(f"a type the schema should not use: {name}")


def _object(node: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
    properties: dict[str, Any] = node.get("properties", {})
    required = set(node.get("required", ()))
    if not properties:
        return st.dictionaries(st.text(max_size=4), ANY_JSON, max_size=2)
    members = {name: allowed(item, depth + 1) for name, item in properties.items()}
    optional = sorted(set(members) - required)
    return st.fixed_dictionaries(
        {name: members[name] for name in sorted(required)},
        optional={name: members[name] for name in optional},
    )


def allowed(node: dict[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """Values the node allows, mostly (``oneOf`` branches that overlap may give a value the node
    refuses, which is as good a test line as any)."""
    node = _resolve(node)
    if depth > 6:
        return SCALARS
    if "const" in node:
        return st.just(node["const"])
    if "enum" in node:
        return st.sampled_from(node["enum"])
    for key in ("anyOf", "oneOf"):
        if key in node:
            return st.one_of([allowed(option, depth + 1) for option in node[key]])
    names = node.get("type", ["object"] if "properties" in node else None)
    if names is None:
        return ANY_JSON
    names = names if isinstance(names, list) else [names]
    return st.one_of([_of_type(name, node, depth) for name in names])


def changed(value: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A value, or the value one change away."""

    def change(draw: st.DrawFn) -> Any:
        picked = draw(value)
        how = draw(st.sampled_from(["keep", "drop", "add", "replace", "bool", "float"]))
        if isinstance(picked, dict) and picked and how in ("drop", "replace"):
            key = draw(st.sampled_from(sorted(picked)))
            rest = {k: v for k, v in picked.items() if k != key}
            return rest if how == "drop" else {**rest, key: draw(SCALARS)}
        if isinstance(picked, dict) and how == "add":
            return {**picked, draw(st.text(max_size=4)): draw(SCALARS)}
        if isinstance(picked, list) and picked and how == "replace":
            return [*picked[:-1], draw(SCALARS)]
        if how == "bool" and isinstance(picked, int | float) and not isinstance(picked, bool):
            return bool(picked)
        if how == "float" and isinstance(picked, int) and not isinstance(picked, bool):
            return picked + 0.5
        return picked

    return st.composite(change)()


@functools.cache
def _reference(kind: str, method: str) -> jsonschema.Draft202012Validator:
    node = DOCUMENT if not kind else DEFS[kind][method]
    return jsonschema.Draft202012Validator({**node, "$defs": DEFS})


def _agree(value: Any, reference: jsonschema.Draft202012Validator, fast: bool, slow: list[str]) -> None:
    expected = reference.is_valid(value)
    assert fast == expected, f"compiled validator says {fast}, jsonschema {expected}: {value!r}"
    assert (not slow) == expected, f"small validator says {slow}, jsonschema {expected}: {value!r}"


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize(
    ("kind", "method"), [(kind, method) for kind in ("params", "results") for method in sorted(DEFS[kind])]
)
@SETTINGS
@given(data=st.data())
def test_params_and_results_agree(kind: str, method: str, data: st.DataObject) -> None:
    node = DEFS[kind][method]
    value = data.draw(changed(allowed(node)))
    fast = schema._holds(value, f"{kind}/{method}")
    where = "params" if kind == "params" else "result"
    _agree(value, _reference(kind, method), fast, schema.errors(value, node, where))


@SETTINGS
@given(data=st.data())
def test_envelopes_agree(data: st.DataObject) -> None:
    node = {key: value for key, value in DOCUMENT.items() if key != "$defs"}
    value = data.draw(changed(allowed(node)))
    whole = schema._holds(value, "envelope")
    assert schema._envelope_holds(value) == whole, f"the branch its key names disagrees: {value!r}"
    _agree(value, _reference("", ""), whole, schema.errors(value, DOCUMENT))


def test_a_line_is_checked_against_the_branch_its_key_names() -> None:
    """The shipped envelope is told apart by key (each line is checked against one branch, not
    all three of its oneOf); an envelope whose branches could overlap is checked whole."""
    assert schema._branches(DOCUMENT) == {"method": "request", "result": "success", "error": "failure"}
    assert schema._schema_branches() is not None
    opened = {**DEFS["success"], "additionalProperties": True}
    assert schema._branches({**DOCUMENT, "$defs": {**DEFS, "success": opened}}) is None
    shared = {**DEFS["failure"], "properties": {**DEFS["failure"]["properties"], "result": {}}}
    assert schema._branches({**DOCUMENT, "$defs": {**DEFS, "failure": shared}}) is None
    assert schema._branches({**DOCUMENT, "anyOf": []}) is None
    lines: list[Any] = [
        [],
        None,
        {"jsonrpc": "2.0", "id": 1},
        {"jsonrpc": "2.0", "id": 1, "result": 1, "error": {}},
    ]
    for line in lines:
        assert not schema._envelope_holds(line)
        assert schema.message_errors(line), line


def test_a_validator_never_changes_the_line() -> None:
    """The compiled validators are told not to fill defaults: the line the kit decodes is the
    line the adapter wrote."""
    line = {"jsonrpc": "2.0", "id": 1, "result": [{"role": "user", "content": "a", "timestamp": 1}]}
    before = json.dumps(line, sort_keys=True)
    assert schema.message_errors(line) == []
    assert schema.result_errors("getHistory", line["result"]) == []
    assert json.dumps(line, sort_keys=True) == before


def test_the_generated_validators_are_used_while_current(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process takes its validators from the generated module (compiling them costs about 0.1 s
    a process, and the crash tests fork a writer per kill); a module made from another schema is
    not used, and the validators compiled then give the same answers."""
    generated = importlib.import_module(f"aalis_memory.drivers.stdio.{schema.GENERATED_MODULE}")
    lines: list[Any] = [
        {"jsonrpc": "2.0", "id": 1, "result": [{"role": "user", "content": "a", "timestamp": 1}]},
        {"jsonrpc": "2.0", "id": 1, "result": None},
        {"jsonrpc": "2.0", "id": "1", "result": 1},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": 1, "message": "no"}},
        {"jsonrpc": "1.0", "id": 1, "result": 1},
        [{"role": "user", "content": "a", "timestamp": 1}],
        [{"role": "user", "content": "a", "timestamp": True}],
        [{"role": "user", "timestamp": 1}],
        7,
    ]

    def answers() -> dict[str, list[bool]]:
        return {key: [schema._holds(line, key) for line in lines] for key in schema._compiled()}

    schema._compiled.cache_clear()
    try:
        assert {f.__module__ for f in schema._compiled().values()} == {generated.__name__}
        from_module = answers()
        monkeypatch.setattr(generated, "SCHEMA_SHA256", "0" * 64)
        schema._compiled.cache_clear()
        assert generated.__name__ not in {f.__module__ for f in schema._compiled().values()}
        assert answers() == from_module
        assert any(any(row) for row in from_module.values()), "no line held: the sample checks nothing"
        assert not all(all(row) for row in from_module.values())
    finally:
        schema._compiled.cache_clear()
