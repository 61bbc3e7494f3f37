"""Contract values rendered for a failure's line: short, readable, never the whole of a payload."""

from __future__ import annotations

import math
from typing import Any, Final

from aalis_memory.types import Message, MetadataEntry, RecentMessageRecord

_MAX_TEXT = 400


def describe(value: Any) -> str:
    """A compact, readable rendering of contract values for failure lines."""
    text = _describe(value)
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 3] + "..."


def _describe(value: Any) -> str:
    if isinstance(value, Message):
        kind = f"/{value.kind}" if value.kind else ""
        return f"{value.role}{kind}@{_describe(value.timestamp)}:{_describe(value.content)}"
    if isinstance(value, RecentMessageRecord):
        return f"{value.session_id}:{_describe(value.message)}"
    if isinstance(value, MetadataEntry):
        return f"{value.key}={_short_repr(value.data)}"
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    if isinstance(value, list | tuple) and not isinstance(value, str):
        inner = ", ".join(_describe(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    return _short_repr(value)


def _whole(value: Any) -> str:
    """One element with every field it has: a listed entry's ``updated_at`` too, a message's
    reasoning and metadata (what :func:`describe` leaves out may be all that differs)."""
    if isinstance(value, MetadataEntry):
        return f"{value.key}={_short_repr(value.data)} (updated_at {value.updated_at!r})"
    if isinstance(value, Message | RecentMessageRecord):
        return _short_repr(repr(value))[1:-1]
    return _describe(value)


def difference(seen: Any, other: Any) -> str:
    """Where ``seen`` differs from ``other``, the differing element shown whole: a torn read
    whose entries differ only in a field :func:`describe` leaves out (``updated_at``) would
    otherwise read the same as the state it is compared with."""
    if isinstance(seen, list | tuple) and isinstance(other, list | tuple):
        for index, (mine, theirs) in enumerate(zip(seen, other, strict=False)):
            if mine != theirs:
                text = f"[{index}] {_whole(mine)}, not {_whole(theirs)}"
                return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 3] + "..."
        if len(seen) != len(other):
            return f"{len(seen)} items, not {len(other)}"
    if isinstance(seen, dict) and isinstance(other, dict):
        for key in sorted(set(seen) | set(other), key=repr):
            if key not in seen or key not in other or seen[key] != other[key]:
                mine = _whole(seen[key]) if key in seen else "absent"
                theirs = _whole(other[key]) if key in other else "absent"
                text = f"[{key!r}] {mine}, not {theirs}"
                return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 3] + "..."
    if seen == other:
        return "nowhere"
    return f"{describe(seen)}, not {describe(other)}"


def torn_read(seen: Any, before: Any, after: Any) -> str:
    """A read that showed neither the state before a write nor the one after it: what it
    returned, both states, and where it differs from each (the field, whole)."""
    return (
        f"{describe(seen)} (before: {describe(before)}, after: {describe(after)}; it differs from "
        f"before at {difference(seen, before)}, from after at {difference(seen, after)})"
    )


#: The containers :func:`_short_repr` walks, with their brackets.
_BRACKETS: Final[dict[type, tuple[str, str]]] = {dict: ("{", "}"), list: ("[", "]"), tuple: ("(", ")")}


def _short_repr(value: Any) -> str:
    """``repr(value)`` for plain JSON-like values, produced only as far as a failure line shows:
    a payload may be megabytes long or thousands of levels deep, and most calls are never shown."""
    out: list[str] = []
    size = 0

    def emit(text: str) -> bool:
        nonlocal size
        out.append(text)
        size += len(text)
        return size <= _MAX_TEXT

    def walk(item: Any, depth: int) -> bool:  # False: enough has been written
        kind = type(item)
        if kind is str and len(item) > _MAX_TEXT:
            return emit(f"{item[:_MAX_TEXT]!r}...")
        if kind not in _BRACKETS:
            return emit(repr(item))
        if depth > _MAX_TEXT // 4:
            return emit("...")
        opening, closing = _BRACKETS[kind]
        pairs = item.items() if kind is dict else ((None, element) for element in item)
        if not emit(opening):
            return False
        for index, (key, element) in enumerate(pairs):
            if index and not emit(", "):
                return False
            if kind is dict and not (walk(key, depth + 1) and emit(": ")):
                return False
            if not walk(element, depth + 1):
                return False
        return emit(",)" if kind is tuple and len(item) == 1 else closing)

    walk(value, 0)
    return "".join(out)


__all__ = ["describe", "difference", "torn_read"]
