"""Type-strict JSON comparison: where a value read back first differs from the one written.

Shared by the metadata tests of the suite and the state machine's metadata checks, which judge
the same rules (META-01, META-07) and must tell a difference in the same words.
"""

from __future__ import annotations

from typing import Any


def json_difference(
    actual: Any, expected: Any, path: str = "data", *, arrays_alike: bool = False
) -> str | None:
    """Where ``actual`` first differs from ``expected``, telling True from 1 and (unless
    ``arrays_alike``) lists from tuples; ``None`` when they are the same JSON value. ``1`` and
    ``1.0`` are the same JSON number (the contract's data is a TypeScript object, whose numbers
    have one type), so a backend in a language without that distinction is not failed for it.
    ``arrays_alike`` compares as JSON does, where a tuple and a list are one array (META-01);
    without it the Python type of an array counts too (META-07)."""
    numbers = (int, float)
    if arrays_alike and isinstance(actual, tuple):
        actual = list(actual)
    if arrays_alike and isinstance(expected, tuple):
        expected = list(expected)
    if (
        isinstance(actual, numbers)
        and isinstance(expected, numbers)
        and not isinstance(actual, bool)
        and not isinstance(expected, bool)
    ):
        return None if actual == expected else f"{path}: expected {expected!r}, got {actual!r}"
    if type(actual) is not type(expected):
        return (
            f"{path}: expected {expected!r} ({type(expected).__name__}), "
            f"got {actual!r} ({type(actual).__name__})"
        )
    if isinstance(expected, dict):
        for key in expected:
            if key not in actual:
                return f"{path}: key {key!r} is missing"
        for key in actual:
            if key not in expected:
                return f"{path}: unexpected key {key!r}"
        for key, value in expected.items():
            found = json_difference(actual[key], value, f"{path}[{key!r}]", arrays_alike=arrays_alike)
            if found:
                return found
        return None
    if isinstance(expected, list):
        if len(actual) != len(expected):
            return f"{path}: expected {len(expected)} items, got {len(actual)}"
        for index, (a, e) in enumerate(zip(actual, expected, strict=True)):
            found = json_difference(a, e, f"{path}[{index}]", arrays_alike=arrays_alike)
            if found:
                return found
        return None
    return None if actual == expected else f"{path}: expected {expected!r}, got {actual!r}"
