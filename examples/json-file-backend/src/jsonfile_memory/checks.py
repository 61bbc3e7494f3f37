"""Every argument check of the store, in one place.

Each public method of :class:`~jsonfile_memory.store.JsonFileMemory` runs its arguments through
these helpers before it reads or changes anything, so a bad call raises and leaves the store as
it was. The rules they follow (the kit's HOST- and INPUT- rules):

- a value of the wrong type raises ``TypeError``: Python does not enforce type hints, and a
  value that merely compares or iterates like the right one (``True == 1``, ``"user"`` as a list
  of roles) would silently address the wrong data;
- a value of the right type that cannot be stored or compared raises ``ValueError``: NaN, an
  infinite message timestamp, an integer past 64 bits, text with a lone surrogate, a payload
  nested deeper than :data:`MAX_NESTING`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Final

from aalis_memory.types import ABSENT, JsonObject, Message, MetadataDel, MetadataOp, MetadataPut

#: Integer timestamps must fit a signed 64-bit integer, like every other backend's storage;
#: refusing them here keeps a file written by this store readable by any of them.
INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1
#: How deep objects and arrays may nest in a payload. Ordinary data stays far below it; deeper
#: payloads (or a cycle) are refused with ValueError instead of a RecursionError from ``json``.
MAX_NESTING: Final = 64


# -- identifiers and text -----------------------------------------------------------------------


def check_text(text: str, what: str) -> str:
    """Text must be valid Unicode: a lone surrogate has no UTF-8 form, so it cannot be stored."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(
            f"{what} holds a lone surrogate U+{ord(text[exc.start]):04X} at position {exc.start}"
        ) from None
    return text


def check_id(value: object, what: str) -> str:
    """A session id, namespace or key is a ``str``, nothing that merely looks like one.

    A dict, list, bytes or number is refused rather than converted or matched: ``str(1)`` would
    read another caller's session, and a backend with a query language would run ``{"$gt": ""}``.
    """
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}: {value!r}")
    return check_text(value, what)


def check_strings(values: object, what: str) -> tuple[str, ...] | None:
    """An optional filter list (roles, kinds): ``None`` or an iterable of ``str``.

    A bare string is refused: ``"user"`` iterates as ``"u", "s", "e", "r"``.
    """
    if values is None:
        return None
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Iterable):
        raise TypeError(f"{what} must be a list of str or None, got {values!r}")
    items = tuple(values)
    for item in items:
        if not isinstance(item, str):
            raise TypeError(f"{what} must hold only str, got {item!r}")
    return items


# -- timestamps and limits ----------------------------------------------------------------------


def check_timestamp(value: object, what: str, *, finite: bool) -> int | float:
    """Epoch milliseconds: an ``int`` or ``float``, never a bool, never NaN, within 64 bits.

    ``finite`` is for stored timestamps (JSON cannot spell infinity); a range bound may be
    ``±math.inf``, meaning unbounded.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{what} must be an int or float (epoch ms), got {value!r}")
    if isinstance(value, float) and math.isnan(value):
        raise ValueError(f"{what} must be a number, got NaN")
    if finite and math.isinf(value):
        raise ValueError(f"{what} must be finite, got {value!r}")
    if isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
        raise ValueError(f"{what} must fit in 64 signed bits, got {value!r}")
    return value


def check_limit(limit: object, default: int | float, what: str = "limit") -> int | float:
    """A limit is a non-negative integer or ``math.inf``; ``None`` means ``default``."""
    if limit is None:
        return default
    bad = ValueError(f"{what} must be a non-negative integer or math.inf, got {limit!r}")
    if isinstance(limit, bool) or not isinstance(limit, int | float):
        raise bad
    if limit == math.inf:
        return math.inf
    if math.isnan(limit) or limit < 0 or limit != int(limit):
        raise bad
    return int(limit)


def check_position(value: object, what: str) -> int:
    """A position in a history: a non-negative integer."""
    limit = check_limit(value, 0, what)
    if limit == math.inf:
        raise ValueError(f"{what} must be a non-negative integer, got {value!r}")
    return int(limit)


# -- payloads -----------------------------------------------------------------------------------


def check_json(value: object, what: str) -> None:
    """Everything that is stored: plain JSON with ``str`` keys, valid text, bounded nesting.

    Iterative, so a payload nested thousands of levels deep (or one that contains itself) is a
    ValueError here, not a RecursionError in ``json``. Non-string keys are refused because
    ``json.dumps`` would silently turn ``1`` into ``"1"``; floats are left to :func:`to_json`.
    """
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            check_text(item, what)
        elif isinstance(item, dict | list | tuple):
            if depth >= MAX_NESTING:
                raise ValueError(f"{what} is nested deeper than {MAX_NESTING} levels")
            if isinstance(item, dict):
                for key in item:
                    if not isinstance(key, str):
                        raise TypeError(f"{what} has an object key that is not a str: {key!r}")
                    check_text(key, f"{what} key")
                children: Iterable[object] = item.values()
            else:
                children = item
            stack.extend((child, depth + 1) for child in children)
        elif item is not None and not isinstance(item, bool | int | float):
            raise TypeError(f"{what} holds a {type(item).__name__}, which is not JSON: {item!r}")


def to_json(value: object, what: str) -> str:
    """The checked value as strict JSON text: NaN and infinities are refused, not rewritten."""
    check_json(value, what)
    try:
        return json.dumps(value, allow_nan=False, separators=(",", ":"))
    except ValueError as exc:
        raise ValueError(f"{what} is not storable as JSON: {exc}") from None


def check_message(message: object) -> Message:
    """A :class:`Message` (not a dict of one); its timestamp, if given, is storable."""
    if not isinstance(message, Message):
        raise TypeError(f"message must be a Message, got {type(message).__name__}: {message!r}")
    # attrs does not check field types, and a dict in `role` would reach a filter as a dict.
    wrong = [name for name, ok in (
        ("role", isinstance(message.role, str)),
        ("content", message.content is None or isinstance(message.content, str)),
        ("reasoning_content", message.reasoning_content is None
         or message.reasoning_content is ABSENT or isinstance(message.reasoning_content, str)),
        *((name, getattr(message, name) is None or isinstance(getattr(message, name), str))
          for name in ("tool_call_id", "name", "kind")),
        *((name, all(isinstance(i, str) for i in getattr(message, name) or ()))
          for name in ("images", "audios")),
        *((name, all(isinstance(i, dict) for i in getattr(message, name) or ()))
          for name in ("tool_calls", "segments")),
        ("metadata", message.metadata is None or isinstance(message.metadata, dict)),
    ) if not ok]
    if wrong:
        raise TypeError(f"message fields of the wrong type: {', '.join(wrong)}")
    if message.timestamp is not None:
        check_timestamp(message.timestamp, "message.timestamp", finite=True)
    return message


def check_payload(data: object, what: str) -> JsonObject:
    """A metadata payload is a JSON object (a ``dict``), never a list, string or ``None``."""
    if not isinstance(data, dict):
        raise TypeError(f"{what} must be a dict, got {type(data).__name__}: {data!r}")
    return data


def check_ops(ops: Iterable[object]) -> list[tuple[MetadataOp, str | None]]:
    """A metadata batch, checked and encoded whole before anything is written.

    Each op comes back with its data's JSON text (``None`` for a delete), so a batch with one bad
    op anywhere raises before the first op is applied.
    """
    if isinstance(ops, str | bytes | Mapping) or not isinstance(ops, Iterable):
        # A dict of ops iterates as its keys: refused, not half understood.
        raise TypeError(f"ops must be a list of MetadataPut/MetadataDel, got {type(ops).__name__}")
    encoded: list[tuple[MetadataOp, str | None]] = []
    for index, op in enumerate(ops):
        if not isinstance(op, MetadataPut | MetadataDel):
            raise TypeError(f"op {index} must be a MetadataPut or MetadataDel, got {op!r}")
        check_id(op.namespace, f"op {index} namespace")
        check_id(op.key, f"op {index} key")
        if isinstance(op, MetadataDel):
            encoded.append((op, None))
        else:
            what = f"op {index} data"
            encoded.append((op, to_json(check_payload(op.data, what), what)))
    return encoded

