"""history_cleared, the clear-type registry and argument checks of clear_metadata_namespaces."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aalis_memory import (
    ClearContext,
    ClearResult,
    ClearTypeContribution,
    ClearTypeRegistry,
    clear_metadata_namespaces,
    history_cleared,
)
from aalis_memory.clearing import unhandled_types, unreadable_line
from aalis_memory.drivers.inmemory import InMemoryMemory

OTHER_TYPES = st.sampled_from(["summary", "vector", "relation", "profile"])


def row(type_: str | None, success: bool, source: str = "p") -> ClearResult:
    return ClearResult(source=source, type=type_, success=success, message="done")


rows = st.builds(row, st.one_of(st.none(), OTHER_TYPES), st.booleans())
context_rows = st.builds(row, st.just("context"), st.booleans())
types_with_context = st.lists(OTHER_TYPES, max_size=3).map(lambda t: [*t, "context"])


class Lines:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def info(self, msg: str, /, *args: Any) -> None:
        self.lines.append(msg % args if args else msg)


# -- history_cleared --------------------------------------------------------------------------


@pytest.mark.aalis_spec("CLR-01")
@given(st.lists(OTHER_TYPES, max_size=4), st.lists(st.one_of(rows, context_rows), max_size=6))
def test_types_without_context_never_clear_history(types: list[str], results: list[ClearResult]) -> None:
    assert not history_cleared(ClearContext(scope="session", types=types, results=results))


@pytest.mark.aalis_spec("CLR-02")
@given(
    st.one_of(st.none(), types_with_context),
    st.lists(rows, max_size=4),
    st.lists(context_rows, min_size=1, max_size=4),
    st.sampled_from(["session", "all"]),
)
def test_history_cleared_iff_every_context_row_succeeded(
    types: list[str] | None,
    others: list[ClearResult],
    contexts: list[ClearResult],
    scope: Any,
) -> None:
    context = ClearContext(scope=scope, types=types, results=[*others, *contexts])
    assert history_cleared(context) == all(r.success for r in contexts)


@pytest.mark.aalis_spec("CLR-02")
def test_history_cleared_reads_the_typescript_shape() -> None:
    data: dict[str, Any] = {
        "scope": "session",
        "sessionId": "s1",
        "types": ["context", "summary"],
        "results": [
            {"source": "memory", "type": "context", "success": True, "message": "cleared"},
            {"source": "summary", "type": "summary", "success": False, "message": {"k": "x"}},
        ],
    }
    assert history_cleared(data)
    data["results"].append({"source": "m2", "type": "context", "success": False, "message": "no"})
    assert not history_cleared(data)
    assert ClearContext.from_json(data).session_id == "s1"


@pytest.mark.aalis_spec("CLR-03")
@given(st.one_of(st.none(), types_with_context), st.lists(rows, max_size=6))
def test_no_context_row_means_not_cleared(types: list[str] | None, results: list[ClearResult]) -> None:
    assert not history_cleared(ClearContext(scope="all", types=types, results=results))


@pytest.mark.aalis_spec("CLR-02")
@pytest.mark.parametrize(
    "data",
    [
        {"scope": "everything", "results": []},
        {"scope": "session", "results": [{"source": "m", "success": "yes", "message": "x"}]},
        {"scope": "session", "results": [{"source": "m", "success": True, "message": 3}]},
        {"scope": "session", "types": "context", "results": []},
        {"scope": "session", "results": "none"},
        ["scope", "session"],
    ],
)
def test_malformed_contexts_raise_typed_errors(data: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        history_cleared(data)


# -- clear types --------------------------------------------------------------------------------


@pytest.mark.aalis_spec("CLR-10")
@given(st.lists(OTHER_TYPES, unique=True, max_size=4), st.lists(rows, max_size=6))
def test_a_type_is_handled_only_when_a_row_names_it(requested: list[str], results: list[ClearResult]) -> None:
    named = {r.type for r in results}
    context = ClearContext(scope="session", types=requested, results=results)
    assert unhandled_types(context) == [t for t in requested if t not in named]


@pytest.mark.aalis_spec("CLR-10")
def test_a_failed_row_still_marks_its_type_handled() -> None:
    context = ClearContext(
        scope="session",
        types=["profile", "vector"],
        results=[row("profile", False), row(None, True)],
    )
    assert unhandled_types(context) == ["vector"]


@pytest.mark.aalis_spec("CLR-11")
@given(st.lists(st.tuples(OTHER_TYPES, st.text(min_size=1, max_size=5)), max_size=8))
def test_first_registrant_names_the_type(pairs: list[tuple[str, str]]) -> None:
    registry = ClearTypeRegistry(ClearTypeContribution(id=i, label=lab) for i, lab in pairs)
    first: dict[str, str] = {}
    for type_id, label in pairs:
        first.setdefault(type_id, label)
    assert registry.ids() == list(first)
    for type_id, label in first.items():
        assert registry.label(type_id) == label
    assert registry.unknown(["context", *first]) == ([] if "context" in first else ["context"])


@pytest.mark.aalis_spec("CLR-11")
def test_registry_refuses_non_contributions() -> None:
    registry = ClearTypeRegistry()
    with pytest.raises(TypeError):
        registry.add({"id": "x", "label": "X"})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ClearTypeContribution(id="x", label=5)  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        registry.label("x")


# -- clear_metadata_namespaces arguments ----------------------------------------------------


@pytest.mark.aalis_spec("CLR-09")
@pytest.mark.parametrize("namespaces", ["clr-a", b"clr-a", ["clr-a", 7], [None]])
def test_bad_namespaces_raise_before_touching_the_store(namespaces: Any) -> None:
    async def scenario() -> list[str]:
        store = InMemoryMemory()
        await store.save_metadata("clr-a", "k", {"v": 1})
        with pytest.raises(TypeError):
            await clear_metadata_namespaces(store, namespaces, Lines())
        return await store.list_metadata_keys("clr-a")

    assert asyncio.run(scenario()) == ["k"]


@pytest.mark.aalis_spec("CLR-07")
def test_unreadable_line_names_ten_then_counts() -> None:
    names = [f"ns/k{i}" for i in range(12)]
    line = unreadable_line(names)
    assert all(n in line for n in names[:10])
    assert "ns/k10" not in line
    assert "ns/k11" not in line
    assert line.endswith("and 2 more")
    assert "more" not in unreadable_line(names[:10])


def test_every_storage_facing_clearing_rule_has_a_broken_helper() -> None:
    from broken_helpers import HELPERS

    caught = {rule for entry in HELPERS.values() for rule in entry.breaks}
    assert {"CLR-04", "CLR-05", "CLR-06", "CLR-07", "CLR-08"} <= caught
