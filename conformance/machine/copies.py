"""Deep copies of the values the machine hands to stores and logs for its reproductions.

Every call the machine makes is copied at least once (the script a failure prints must show
the call as it was made, whatever the store did with its arguments afterwards), and
``copy.deepcopy`` spent its memo and ``__reduce_ex__`` on each message and payload: a few
percent of a history's time. The values are JSON trees, tuples, sets, bytes, enum members and
attrs records (messages, queries, metadata ops); those are copied here directly, anything else
(or a tree nested past :data:`DEPTH`, such as a cycle) by ``copy.deepcopy`` as before.
"""

from __future__ import annotations

import copy
import enum
import functools
from typing import Any, Final, TypeVar

import attrs

T = TypeVar("T")

#: Values that nothing can change: shared, as ``copy.deepcopy`` shares them.
_ATOMIC: Final = frozenset({type(None), bool, int, float, complex, str, bytes, range})
#: How deep a value is copied here before ``copy.deepcopy`` takes over (a cycle, a deep tree).
DEPTH: Final = 60


class _TooDeep(Exception):
    """The value nests past :data:`DEPTH`: copied by ``copy.deepcopy`` instead."""


def copied(value: T) -> T:
    """A deep copy of ``value`` that shares nothing mutable with it (as ``copy.deepcopy``)."""
    try:
        return _copy(value, 0)  # type: ignore[no-any-return]
    except _TooDeep:
        return copy.deepcopy(value)


@functools.cache
def _field_names(kind: type) -> tuple[str, ...]:
    """An attrs class's field names (``attrs.fields`` at every copy took half of what sharing
    the immutable items saved)."""
    return tuple(field.name for field in attrs.fields(kind))


def _copy(value: Any, depth: int) -> Any:
    kind = type(value)
    if kind in _ATOMIC or isinstance(value, enum.Enum):
        return value
    if depth > DEPTH:
        raise _TooDeep
    depth += 1
    if kind is dict:
        return {_copy(key, depth): _copy(item, depth) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _ATOMIC else _copy(item, depth) for item in value]
    if kind is tuple:
        return tuple([item if type(item) in _ATOMIC else _copy(item, depth) for item in value])
    if kind is set:
        return {_copy(item, depth) for item in value}
    if kind is frozenset:
        return frozenset(_copy(item, depth) for item in value)
    if attrs.has(kind) and not hasattr(kind, "__deepcopy__"):
        out = object.__new__(kind)
        for name in _field_names(kind):
            item = getattr(value, name)
            object.__setattr__(out, name, item if type(item) in _ATOMIC else _copy(item, depth))
        return out
    return copy.deepcopy(value)


__all__ = ["DEPTH", "copied"]
