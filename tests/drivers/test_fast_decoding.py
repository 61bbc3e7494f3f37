"""The decoding shortcuts reads take agree exactly with the plain paths they stand in for:
``Message.from_json`` of a dict (straight into the slots) with the generic path the attrs
``__init__`` builds, and ``semantics.json_loads`` with ``json.loads``, values and errors alike."""

from __future__ import annotations

import json
import types
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from aalis_memory.drivers import semantics as sem
from aalis_memory.types import Message

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)
KEYS = (
    "content",
    "toolCalls",
    "toolCallId",
    "name",
    "kind",
    "timestamp",
    "reasoningContent",
    "segments",
    "images",
    "audios",
    "metadata",
    "unknown",
)
#: Values a stored message's keys may hold, None (absent) and lists (tuples on the Message) too.
VALUES = st.one_of(
    st.none(),
    st.text(max_size=4),
    st.integers(),
    st.lists(JSON, max_size=2),
    st.dictionaries(st.text(max_size=3), JSON, max_size=2),
)


@given(st.text(max_size=4), st.dictionaries(st.sampled_from(KEYS), VALUES))
def test_from_json_of_a_dict_builds_what_the_generic_path_builds(role: str, rest: dict[str, Any]) -> None:
    data = {"role": role, **rest}
    fast, generic = (
        outcome(Message.from_json, data),
        outcome(  # not a dict: the attrs __init__
            Message.from_json, types.MappingProxyType(data)
        ),
    )
    if not isinstance(fast, Message) or not isinstance(generic, Message):
        assert repr(fast) == repr(generic)  # both raised, the same error (tuple(0), dict(1), ...)
        return
    assert fast == generic
    assert attrs.asdict(fast, recurse=False) == attrs.asdict(generic, recurse=False)
    assert {name: type(value) for name, value in attrs.asdict(fast, recurse=False).items()} == {
        name: type(value) for name, value in attrs.asdict(generic, recurse=False).items()
    }


def outcome(function: Any, argument: Any) -> Any:
    """What ``function(argument)`` returned, or the type and text of what it raised."""
    try:
        return function(argument)
    except Exception as exc:
        return type(exc), str(exc)


def test_every_field_of_message_is_set_by_the_fast_path() -> None:
    """A field added to Message but not to the shortcut would be a missing slot, not a default."""
    message = Message.from_json({"role": "user"})
    assert [getattr(message, f.name) for f in attrs.fields(Message)] == [
        getattr(Message(role="user", content=None), f.name) for f in attrs.fields(Message)
    ]


def test_from_json_still_refuses_what_is_not_a_message() -> None:
    for bad in ({"content": "no role"}, ["role"], "role", None):
        with pytest.raises(TypeError, match="not a Message JSON object"):
            Message.from_json(bad)  # type: ignore[arg-type]


@given(JSON, st.sampled_from(["", " ", "\n", "\t "]), st.sampled_from(["", " ", "\n"]))
def test_json_loads_matches_the_standard_library(value: Any, before: str, after: str) -> None:
    text = before + json.dumps(value, separators=(",", ":")) + after
    assert sem.json_loads(text) == json.loads(text)


@pytest.mark.parametrize(
    "text", ["", "{", '{"a":1}x', '{"a":1} {"b":2}', "nul", "[1,]", "\ud800", '"\\ud800"', "NaN"]
)
def test_json_loads_fails_or_succeeds_as_the_standard_library_does(text: str) -> None:
    assert repr(outcome(sem.json_loads, text)) == repr(outcome(json.loads, text))


def test_json_loads_takes_bytes_as_the_standard_library_does() -> None:
    assert sem.json_loads(b'{"a":1}') == {"a": 1}  # type: ignore[arg-type]
