"""The contract's surface keeps its meaning (issue 26): a lone string is never taken for a list
of strings (its characters), and an error class an adapter names on the wire becomes the Python
exception of the same meaning: a stack overflow a RecursionError, a value too large to hold the
ValueError INPUT-06 asks for, neither a plain ValueError."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Final

import attrs
import pytest

from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.drivers.sqlite import SqliteMemory
from aalis_memory.drivers.stdio import AdapterRecursionError, AdapterSizeError
from aalis_memory.drivers.stdio.client import Connection
from aalis_memory.types import RecentMessagesAcrossSessionsQuery

#: The query's list-of-strings fields: each must refuse a lone str or bytes.
LIST_FIELDS: Final = ("exclude_session_ids", "roles", "kinds", "exclude_kinds")


def test_the_list_fields_are_every_tuple_of_str_field() -> None:
    """A list-of-strings field added to the query is checked here too."""
    tuple_fields = [
        f.name for f in attrs.fields(RecentMessagesAcrossSessionsQuery) if "tuple[str, ...]" in str(f.type)
    ]
    assert sorted(tuple_fields) == sorted(LIST_FIELDS)


@pytest.mark.parametrize("field", LIST_FIELDS)
@pytest.mark.parametrize("lone", ["user", b"user", bytearray(b"user")], ids=["str", "bytes", "bytearray"])
def test_a_lone_string_is_refused_at_construction(field: str, lone: Any) -> None:
    with pytest.raises(TypeError, match=f"^{field} must be a list of str"):
        RecentMessagesAcrossSessionsQuery(limit=5, **{field: lone})
    with pytest.raises(TypeError, match=f"^{field} must be a list of str"):
        attrs.evolve(RecentMessagesAcrossSessionsQuery(limit=5), **{field: lone})


@pytest.mark.parametrize("field", LIST_FIELDS)
def test_lists_still_become_tuples(field: str) -> None:
    def query(value: Any) -> Any:
        fields: dict[str, Any] = {field: value}
        return getattr(RecentMessagesAcrossSessionsQuery(limit=5, **fields), field)

    assert query(["user", "assistant"]) == ("user", "assistant")
    assert query(()) == ()
    assert query(None) is None
    # The items are the backend's to check (HOST-04): the kit must be able to pass a bad one.
    assert query([1]) == (1,)


@pytest.mark.parametrize("backend", ["inmemory", "sqlite"])
@pytest.mark.parametrize(
    "args", [("user", None), (None, "note"), (b"user", None)], ids=["roles", "exclude_kinds", "roles-bytes"]
)
def test_the_range_read_refuses_a_lone_string(backend: str, args: tuple[Any, Any], tmp_path: Path) -> None:
    """``get_messages_by_session_range(..., roles="user")`` of the reference drivers: TypeError,
    not a filter on the roles 'u', 's', 'e', 'r'."""

    async def read() -> None:
        store: Any = InMemoryMemory() if backend == "inmemory" else await SqliteMemory.open(tmp_path / "m.db")
        try:
            await store.get_messages_by_session_range("s", 0, 10, *args)
        finally:
            await store.close()

    with pytest.raises(TypeError, match="must be a list of str"):
        asyncio.run(read())


@pytest.mark.parametrize(
    ("error_class", "expected", "not_value_error"),
    [
        ("RecursionError", AdapterRecursionError, True),
        ("SizeError", AdapterSizeError, False),
        ("ValueError", ValueError, False),
        ("TypeError", TypeError, True),
    ],
)
def test_an_error_class_on_the_wire_is_raised_as_its_python_counterpart(
    error_class: str,
    expected: type[Exception],
    not_value_error: bool,
) -> None:
    raised = Connection._remote_error(
        {"code": -32000, "message": "boom", "data": {"errorClass": error_class}}
    )
    assert type(raised) is expected, type(raised)
    assert str(raised) == "boom"
    assert isinstance(raised, ValueError) is not not_value_error


def test_a_stack_overflow_is_a_recursion_error_and_never_a_value_error() -> None:
    raised = Connection._remote_error(
        {
            "code": -32000,
            "message": "Maximum call stack size exceeded",
            "data": {"errorClass": "RecursionError"},
        }
    )
    assert isinstance(raised, RecursionError)
    assert not isinstance(raised, ValueError)  # INPUT-07 asks ValueError, never RecursionError


def test_a_size_error_is_the_value_error_input_06_accepts() -> None:
    raised = Connection._remote_error(
        {"code": -32000, "message": "Invalid string length", "data": {"errorClass": "SizeError"}}
    )
    assert isinstance(raised, ValueError)
    assert type(raised) is not ValueError
