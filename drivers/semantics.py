"""Pure pieces of the contract shared by the reference drivers.

Each function takes already-ordered data and applies one rule of the contract, so every backend
(memory, SQLite, MongoDB) gets the same limit arithmetic and position counting from one place.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, TypeVar, cast

import attrs

from aalis_memory.types import (
    JsonObject,
    Message,
    MetadataDel,
    MetadataOp,
    MetadataPut,
    RecentMessagesAcrossSessionsQuery,
)

T = TypeVar("T")

DEFAULT_HISTORY_LIMIT: Final = 50
DEFAULT_FULL_HISTORY_LIMIT: Final = 200
DEFAULT_UPDATE_RECENT_LIMIT: Final = 100
DEFAULT_RANGE_QUERY_LIMIT: Final = 500
DEFAULT_CROSS_SESSION_MAX_LIMIT: Final = 1000
DEFAULT_CROSS_SESSION_ROLES: Final = ("user", "assistant")


def now_ms() -> int:
    """Current epoch milliseconds, the unit of every timestamp in the contract."""
    return time.time_ns() // 1_000_000


def check_limit(limit: object, default: int, what: str) -> int | float:
    """Return the effective limit: a non-negative int or ``math.inf``.

    The contract says callers never pass anything else; the reference drivers still refuse such
    values loudly (before touching storage) rather than guessing.
    """
    if limit is None:
        return default
    if isinstance(limit, bool) or not isinstance(limit, int | float):
        raise ValueError(f"{what} must be a non-negative integer or math.inf, got {limit!r}")
    if limit == math.inf:
        return math.inf
    if math.isnan(limit) or limit < 0 or limit != int(limit):
        raise ValueError(f"{what} must be a non-negative integer or math.inf, got {limit!r}")
    return int(limit)


def check_count(count: object, what: str = "count") -> int:
    """A position count: a non-negative integer (``math.inf`` is not a position)."""
    value = check_limit(count, 0, what)
    if value == math.inf:
        raise ValueError(f"{what} must be a non-negative integer, got {count!r}")
    return int(value)


def check_cap(value: int, what: str) -> int:
    """Configured caps are positive integers."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{what} must be a positive integer, got {value!r}")
    return value


def history_window(active: Sequence[Message], limit: int | float) -> list[Message]:
    """Everything after the (limit+1)-th newest conversation message; control records ride along."""
    if limit == 0:
        return []
    seen = 0
    for index in range(len(active) - 1, -1, -1):
        if not active[index].is_control:
            seen += 1
            if seen > limit:
                return list(active[index + 1 :])
    return list(active)


def newest(items: Sequence[T], limit: int | float) -> list[T]:
    """The last ``limit`` items, every item counting (full history, content-rewrite window)."""
    if limit >= len(items):
        return list(items)
    return list(items[len(items) - int(limit) :])


def count_conversation(active: Iterable[Message]) -> int:
    """Active conversation messages: the count that ``get_history`` limits by."""
    return sum(1 for message in active if not message.is_control)


def archive_positions(active_len: int, count: int, keep: Iterable[int]) -> list[int]:
    """Positions (0-based, in history order) that ``archive_span`` archives."""
    span = min(count, active_len)
    kept = {k for k in keep if 0 <= k < span}
    return [position for position in range(span) if position not in kept]


def check_keep(keep: Iterable[object]) -> tuple[int, ...]:
    """Keep lists hold non-negative integer positions."""
    out: list[int] = []
    for item in keep:
        out.append(check_count(item, "keep position"))
    return tuple(out)


def rewrite_content(message: Message, old_text: str, new_text: str) -> Message | None:
    """The rewritten message, or ``None`` when its content would not change: not a string, no
    ``old_text`` in it, or ``new_text == old_text`` (the count is of messages changed, and a
    caller re-indexes what it was told changed)."""
    content = message.content
    if not isinstance(content, str) or old_text not in content or new_text == old_text:
        return None
    return attrs.evolve(message, content=content.replace(old_text, new_text))


def check_old_text(old_text: object) -> str:
    """An empty search text would match everywhere; refuse it."""
    if not isinstance(old_text, str) or old_text == "":
        raise ValueError(f"old_text must be a non-empty string, got {old_text!r}")
    return old_text


def strict_json(value: object, what: str) -> str:
    """The one strict JSON encoder of the drivers; ``TypeError``/``ValueError`` if impossible.

    NaN and infinities are refused (JSON cannot spell them), and so are object keys that are
    not strings (the encoder would silently turn ``1`` into ``"1"`` and merge it with ``"1"``).
    The text is ASCII-escaped, so every Python string, lone surrogates included, survives.
    """
    try:
        text = json.dumps(value, allow_nan=False, separators=(",", ":"))
    except ValueError as exc:
        raise ValueError(f"{what}: not JSON-serializable: {exc}") from exc
    except TypeError as exc:
        raise TypeError(f"{what}: not JSON-serializable: {exc}") from exc
    except RecursionError as exc:
        raise ValueError(f"{what}: circular or too deep to serialize") from exc
    _check_keys(value, what)
    return text


def _check_keys(value: object, what: str) -> None:
    """Only called on values ``json.dumps`` accepted, so the walk is finite."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"{what}: object key {key!r} is not a string")
            _check_keys(item, what)
    elif isinstance(value, list | tuple):
        for item in value:
            _check_keys(item, what)


def encode_json(data: object, what: str) -> str:
    """Strict JSON text of a metadata payload, which is always an object."""
    if not isinstance(data, dict):
        raise TypeError(f"{what}: metadata data must be a dict, got {type(data).__name__}")
    return strict_json(data, f"{what}: metadata data")


def check_session_id(session_id: object) -> str:
    """Session ids are strings (compared exactly, case included)."""
    if not isinstance(session_id, str):
        raise TypeError(f"session_id must be a str, got {type(session_id).__name__}")
    return session_id


def stamp(message: Message) -> int | float:
    """The timestamp of a stored message: always present, since saving stamps a missing one."""
    return cast("int | float", message.timestamp)


def check_timestamp(value: object, what: str) -> int | float:
    """Timestamps are real numbers of epoch milliseconds; NaN could never be ordered."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{what} must be a number (epoch ms), got {value!r}")
    if isinstance(value, float) and math.isnan(value):
        raise ValueError(f"{what} must not be NaN (it could not be ordered)")
    return value


def prepare_message(session_id: object, message: object) -> tuple[Message, str]:
    """Validate a message before it is saved: the message as stored (stamped with the current
    epoch ms when it has no timestamp) and its JSON text. Nothing is written when this raises."""
    check_session_id(session_id)
    if not isinstance(message, Message):
        raise TypeError(f"message must be a Message, got {type(message).__name__}")
    if message.timestamp is None:
        message = attrs.evolve(message, timestamp=now_ms())
    check_timestamp(message.timestamp, "message.timestamp")
    return message, message_text(message)


def message_text(message: Message) -> str:
    """The stored JSON text of a message (its lossless camelCase form)."""
    return strict_json(message.to_json(), "message")


def encode_batch(ops: Sequence[MetadataOp]) -> list[tuple[MetadataOp, str | None]]:
    """Validate a whole batch before anything is written: each op with its encoded payload."""
    out: list[tuple[MetadataOp, str | None]] = []
    for index, op in enumerate(ops):
        if not isinstance(op, MetadataPut | MetadataDel):
            raise TypeError(f"op {index} must be a MetadataPut or MetadataDel, got {op!r}")
        check_key(op.namespace, op.key)
        if isinstance(op, MetadataPut):
            out.append((op, encode_json(op.data, f"op {index} ({op.namespace}/{op.key})")))
        else:
            out.append((op, None))
    return out


def check_key(namespace: object, key: object) -> None:
    """Namespaces and keys are strings."""
    if not isinstance(namespace, str) or not isinstance(key, str):
        raise TypeError(f"namespace and key must be str, got {namespace!r}/{key!r}")


def decode_object(text: str) -> JsonObject | None:
    """The stored object, or ``None`` when the stored text is unreadable or not an object."""
    try:
        value = json.loads(text)
    except (ValueError, TypeError):
        return None
    return value if isinstance(value, dict) else None


def next_updated_at(previous: int | None) -> int:
    """Epoch ms that grows on every overwrite, even within one millisecond."""
    current = now_ms()
    return current if previous is None or current > previous else previous + 1


def cross_session_filter(
    query: RecentMessagesAcrossSessionsQuery,
) -> Callable[[str, Message], bool]:
    """The predicate of every filter of a cross-session read except the limit."""
    if query.since_ts is not None:
        check_timestamp(query.since_ts, "query.since_ts")
    roles = set(DEFAULT_CROSS_SESSION_ROLES if query.roles is None else query.roles)
    kinds = None if query.kinds is None else set(query.kinds)
    excluded_kinds = set(query.exclude_kinds or ())
    excluded_sessions = set(query.exclude_session_ids or ())

    def keep(session_id: str, message: Message) -> bool:
        if session_id in excluded_sessions or message.role not in roles:
            return False
        if kinds is not None and message.kind not in kinds:
            return False
        if message.kind is not None and message.kind in excluded_kinds:
            return False
        if query.since_ts is not None and stamp(message) < query.since_ts:
            return False
        if query.platform is not None:
            platform: Any = (message.metadata or {}).get("platform")
            if platform != query.platform:
                return False
        return True

    return keep


def range_filter(
    from_ts: float, to_ts: float, roles: Sequence[str] | None, exclude_kinds: Sequence[str] | None
) -> Callable[[Message], bool]:
    """The predicate of a session range read (inclusive bounds, role whitelist, kind blacklist)."""
    check_timestamp(from_ts, "from_ts")
    check_timestamp(to_ts, "to_ts")
    role_set = None if roles is None else set(roles)
    excluded = set(exclude_kinds or ())

    def keep(message: Message) -> bool:
        if not from_ts <= stamp(message) <= to_ts:
            return False
        if role_set is not None and message.role not in role_set:
            return False
        return message.kind is None or message.kind not in excluded

    return keep
