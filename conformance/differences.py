"""Where two contract values differ: the same records in another order, or the first field."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs


def same_records(actual: Sequence[Any], expected: Sequence[Any]) -> bool:
    """Whether two lists hold the same records as many times each, whatever their order."""
    if len(actual) != len(expected):
        return False
    try:
        return Counter(actual) == Counter(expected)
    except TypeError:  # unhashable records (messages with metadata): match them one by one
        left = list(expected)
        for record in actual:
            if record not in left:
                return False
            left.remove(record)
        return True


def field_difference(expected: Any, actual: Any, where: str = "") -> str | None:
    """The first field that differs between two contract values (or equal-length lists of them),
    as ``item 0 .images: expected ('a.png',), got None``; ``None`` if there is no such field."""
    if isinstance(expected, list | tuple) and isinstance(actual, list | tuple):
        if len(expected) != len(actual):
            return None
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            found = field_difference(want, got, f"{where}item {index} ")
            if found is not None:
                return found
        return None
    if type(expected) is not type(actual) or not attrs.has(type(expected)):
        return None
    for field in attrs.fields(type(expected)):
        want, got = getattr(expected, field.name), getattr(actual, field.name)
        if want != got or type(want) is not type(got):
            nested = field_difference(want, got, f"{where}.{field.name}")
            return nested or f"{where}.{field.name}: expected {want!r}, got {got!r}"
    return None


__all__ = ["field_difference", "same_records"]
