"""Pure pieces of the contract shared by the reference drivers.

Each function takes already-ordered data and applies one rule of the contract, so every backend
(memory, SQLite, MongoDB) gets the same limit arithmetic and position counting from one place.
"""

from __future__ import annotations

import json
import json.scanner
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, TypeVar, cast

import attrs

from aalis_memory import defaults
from aalis_memory.types import (
    ABSENT,
    JsonObject,
    Message,
    MetadataDel,
    MetadataOp,
    MetadataPut,
    RecentMessagesAcrossSessionsQuery,
)

T = TypeVar("T")

#: The contract's defaults under the names the drivers read (``sem.DEFAULT_*``); their one source
#: is :mod:`aalis_memory.defaults`.
DEFAULT_HISTORY_LIMIT: Final = defaults.DEFAULT_HISTORY_LIMIT
DEFAULT_FULL_HISTORY_LIMIT: Final = defaults.DEFAULT_FULL_HISTORY_LIMIT
DEFAULT_UPDATE_RECENT_LIMIT: Final = defaults.DEFAULT_UPDATE_RECENT_LIMIT
DEFAULT_RANGE_QUERY_LIMIT: Final = defaults.DEFAULT_RANGE_QUERY_LIMIT
DEFAULT_CROSS_SESSION_MAX_LIMIT: Final = defaults.DEFAULT_CROSS_SESSION_MAX_LIMIT
DEFAULT_CROSS_SESSION_ROLES: Final = defaults.DEFAULT_CROSS_SESSION_ROLES


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
    """A string (``TypeError`` otherwise); an empty one would match everywhere (``ValueError``)."""
    if not isinstance(old_text, str):
        raise TypeError(f"old_text must be a str, got {type(old_text).__name__}")
    if old_text == "":
        raise ValueError("old_text must be a non-empty string, got ''")
    return check_unicode(old_text, "old_text")


#: The largest JSON text (UTF-8 bytes) of one message or one metadata payload the reference
#: drivers store: one limit for all of them, so a payload is refused the same way everywhere and a
#: MongoDB document (16 MiB of BSON, with the driver's own fields) always has room for it.
MAX_TEXT_BYTES: Final = 15 * 1024 * 1024
#: The deepest nesting of objects and arrays (the outermost one counts) the reference drivers
#: store. MongoDB refuses documents nested past 100 levels and the MongoDB driver wraps an array
#: inside an array in an object, so 32 JSON levels always fit; deeper data is refused everywhere.
MAX_NESTING: Final = 32
#: Integer timestamps must fit in 64 signed bits (SQLite integers, BSON int64).
INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1


#: ``json.dumps(value, allow_nan=False, ensure_ascii=False, separators=(",", ":"))``, built once
#: (``json.dumps`` with arguments builds a new encoder on every call).
_STRICT_ENCODER: Final = json.JSONEncoder(allow_nan=False, ensure_ascii=False, separators=(",", ":"))


def _one_shot_encoder() -> Callable[[object], str]:
    """``_STRICT_ENCODER.encode`` without its per-call set-up: the C encoder built once, with no
    cycle markers (:func:`_check_tree` has already refused cycles and deep values). Half the cost
    of ``encode`` on a typical message, and every save pays it."""
    make = getattr(json.encoder, "c_make_encoder", None)  # not in the stubs: a CPython detail
    if make is None:  # pragma: no cover - CPython always has it
        return _STRICT_ENCODER.encode
    chunks = make(
        None,
        _STRICT_ENCODER.default,
        json.encoder.encode_basestring,
        None,
        _STRICT_ENCODER.key_separator,
        _STRICT_ENCODER.item_separator,
        _STRICT_ENCODER.sort_keys,
        _STRICT_ENCODER.skipkeys,
        _STRICT_ENCODER.allow_nan,
    )

    def encode(value: object) -> str:
        return "".join(chunks(value, 0))

    return encode


_encode: Final = _one_shot_encoder()


def strict_json(value: object, what: str) -> str:
    """The one strict JSON encoder of the drivers; ``TypeError``/``ValueError`` if impossible.

    NaN and infinities are refused (JSON cannot spell them), and so are object keys that are
    not strings (the encoder would silently turn ``1`` into ``"1"`` and merge it with ``"1"``),
    lone surrogates (UTF-8 storage cannot hold them; silently replacing them would corrupt the
    text), nesting past :data:`MAX_NESTING` (cycles included) and texts over
    :data:`MAX_TEXT_BYTES`. Nothing here depends on the backend, so every driver refuses alike.
    """
    least = _check_tree(value, what)
    if least > MAX_TEXT_BYTES:  # refused before encoding megabytes only to measure them
        raise ValueError(_too_big(what, f"at least {least}"))
    try:
        text = _encode(value)
    except ValueError as exc:
        raise ValueError(f"{what}: not JSON-serializable: {exc}") from exc
    except TypeError as exc:
        raise TypeError(f"{what}: not JSON-serializable: {exc}") from exc
    # an ASCII text is its own UTF-8 (and holds no surrogate): its length is its size
    size = len(text) if text.isascii() else len(_utf8(text, what))
    if size > MAX_TEXT_BYTES:
        raise ValueError(_too_big(what, str(size)))
    return text


#: What JSON nests: a tuple, which ``isinstance`` checks faster than ``dict | list | tuple``.
_CONTAINERS: Final = (dict, list, tuple)


def _check_tree(value: object, what: str, limit: int = MAX_NESTING) -> int:
    """One walk before encoding: objects and arrays nested no deeper than ``limit`` (iteratively:
    a cycle or a very deep value is a ``ValueError``, never a ``RecursionError``) and object keys
    that are strings. Returns the characters of the string values inside: a lower bound of the
    size of the value's JSON text."""
    text = 0
    stack: list[tuple[dict[object, object] | list[object] | tuple[object, ...], int]] = (
        [(value, 1)] if isinstance(value, _CONTAINERS) else []
    )
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            raise ValueError(f"{what}: nested deeper than {limit} levels (or circular)")
        children: Iterable[object] = item
        if isinstance(item, dict):
            for key in item:
                if not isinstance(key, str):
                    raise TypeError(f"{what}: object key {key!r} is not a string")
            children = item.values()
        for child in children:
            if isinstance(child, str):
                text += len(child)
            elif isinstance(child, _CONTAINERS):
                stack.append((child, depth + 1))
    return text


def _too_big(what: str, size: str) -> str:
    return (
        f"{what}: {size} bytes of JSON, over the {MAX_TEXT_BYTES}-byte limit of one message "
        "or metadata payload"
    )


def check_unicode(text: str, what: str) -> str:
    """Text must be valid Unicode: a lone surrogate cannot be stored as UTF-8."""
    if not text.isascii():  # an ASCII text (a constant-time flag) has no surrogate to find
        _utf8(text, what)
    return text


def _utf8(text: str, what: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = text[exc.start]
        raise ValueError(
            f"{what}: lone surrogate U+{ord(bad):04X} at position {exc.start}; text must be valid Unicode"
        ) from None


def encode_json(data: object, what: str) -> str:
    """Strict JSON text of a metadata payload, which is always an object."""
    if not isinstance(data, dict):
        raise TypeError(f"{what}: metadata data must be a dict, got {type(data).__name__}")
    return strict_json(data, f"{what}: metadata data")


# -- argument checks: every public method runs these before it touches storage --------------
#
# Identifiers of the wrong type never reach a query: a dict such as {"$gt": ""} would be a query
# operator to MongoDB, a list an SQL parameter error, a regex object a pattern. Each check
# returns the value as a plain ``str`` so a ``str`` subclass (``bson.Code``) is stored as text.


def check_id(value: object, what: str) -> str:
    """A session id, namespace or key: any ``str`` (compared exactly), nothing else."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    return check_unicode(str.__str__(value), what)


def check_session_id(session_id: object) -> str:
    """Session ids are strings (compared exactly, case included)."""
    return check_id(session_id, "session_id")


def check_key(namespace: object, key: object) -> tuple[str, str]:
    """Namespaces and keys are strings."""
    return check_id(namespace, "namespace"), check_id(key, "key")


def check_namespace(namespace: object) -> str:
    return check_id(namespace, "namespace")


def check_strings(values: object, what: str) -> tuple[str, ...] | None:
    """An optional list of strings (roles, kinds, session ids to exclude); a lone string is
    refused, since iterating it would yield its characters."""
    if values is None:
        return None
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Iterable):
        raise TypeError(f"{what} must be a list of str, got {type(values).__name__}")
    return tuple(check_id(item, f"{what} item") for item in values)


def stamp(message: Message) -> int | float:
    """The timestamp of a stored message: always present, since saving stamps a missing one."""
    return cast("int | float", message.timestamp)


#: A tuple, which ``isinstance`` checks faster than ``int | float`` (every save checks one).
_NUMBERS: Final = (int, float)


def check_timestamp(value: object, what: str, *, finite: bool = False) -> int | float:
    """Timestamps are real numbers of epoch milliseconds.

    ``bool`` is not a number here (``True == 1`` would address the message at 1 ms); NaN could
    never be ordered; integers must fit in 64 bits. Infinities are unbounded range ends, but a
    stored timestamp (``finite=True``) must be finite.
    """
    if isinstance(value, bool) or not isinstance(value, _NUMBERS):
        raise TypeError(f"{what} must be a number (epoch ms), got {type(value).__name__}")
    if isinstance(value, float):
        if math.isnan(value):
            raise ValueError(f"{what} must not be NaN (it could not be ordered)")
        if finite and math.isinf(value):
            raise ValueError(f"{what} must be finite, got {value!r}")
    elif not INT64_MIN <= value <= INT64_MAX:
        raise ValueError(f"{what} {value} does not fit in 64 signed bits")
    return value


def check_timestamps(values: object) -> list[int | float]:
    """The timestamps of a deletion: a list of numbers, each checked, duplicates dropped."""
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Iterable):
        raise TypeError(f"timestamps must be a list of numbers, got {type(values).__name__}")
    checked = [check_timestamp(item, f"timestamps[{i}]") for i, item in enumerate(values)]
    return list(dict.fromkeys(checked))


def check_range(
    from_ts: object, to_ts: object, roles: object, exclude_kinds: object
) -> tuple[int | float, int | float, tuple[str, ...] | None, tuple[str, ...] | None]:
    """The arguments of a session range read."""
    return (
        check_timestamp(from_ts, "from_ts"),
        check_timestamp(to_ts, "to_ts"),
        check_strings(roles, "roles"),
        check_strings(exclude_kinds, "exclude_kinds"),
    )


def check_query(query: object) -> RecentMessagesAcrossSessionsQuery:
    """A cross-session query with every field of the right type (its limit is checked by the
    caller, which knows the default)."""
    if not isinstance(query, RecentMessagesAcrossSessionsQuery):
        raise TypeError(f"query must be a RecentMessagesAcrossSessionsQuery, got {type(query).__name__}")
    if query.since_ts is not None:
        check_timestamp(query.since_ts, "query.since_ts")
    if query.platform is not None:
        check_id(query.platform, "query.platform")
    for field in ("exclude_session_ids", "roles", "kinds", "exclude_kinds"):
        check_strings(getattr(query, field), f"query.{field}")
    return query


def check_rewrite(old_text: object, new_text: object) -> tuple[str, str]:
    """The texts of a content rewrite: a non-empty search text and a replacement string."""
    if not isinstance(new_text, str):
        raise TypeError(f"new_text must be a str, got {type(new_text).__name__}")
    return check_old_text(old_text), check_unicode(new_text, "new_text")


_OPTIONAL_TEXT: Final = ("tool_call_id", "name", "kind")
_TEXT_LISTS: Final = ("images", "audios")
_OBJECT_LISTS: Final = ("tool_calls", "segments")


def check_message(message: object) -> Message:
    """A ``Message`` whose fields have the types of the TypeScript shape (``attrs`` does not
    check them, and a dict in ``role`` or ``kind`` would otherwise reach a query)."""
    if not isinstance(message, Message):
        raise TypeError(f"message must be a Message, got {type(message).__name__}")
    problems: list[str] = []
    if not isinstance(message.role, str):
        problems.append(f"role is {type(message.role).__name__}")
    if message.content is not None and not isinstance(message.content, str):
        problems.append(f"content is {type(message.content).__name__}")
    reasoning = message.reasoning_content
    if reasoning is not None and reasoning is not ABSENT and not isinstance(reasoning, str):
        problems.append(f"reasoning_content is {type(reasoning).__name__}")
    for name in _OPTIONAL_TEXT:
        value = getattr(message, name)
        if value is not None and not isinstance(value, str):
            problems.append(f"{name} is {type(value).__name__}")
    for name in _TEXT_LISTS:
        items = getattr(message, name)
        if items and not all(isinstance(item, str) for item in items):
            problems.append(f"{name} holds a non-string")
    for name in _OBJECT_LISTS:
        items = getattr(message, name)
        if items and not all(isinstance(item, dict) for item in items):
            problems.append(f"{name} holds a non-object")
    if message.metadata is not None and not isinstance(message.metadata, dict):
        problems.append(f"metadata is {type(message.metadata).__name__}")
    if problems:
        raise TypeError(f"message fields of the wrong type: {', '.join(problems)}")
    return message


def prepare_message(session_id: object, message: object) -> tuple[str, Message, str]:
    """Validate a message before it is saved: the session id, the message as stored (stamped
    with the current epoch ms when it has no timestamp) and its JSON text. Nothing is written
    when this raises."""
    session = check_session_id(session_id)
    checked = check_message(message)
    if checked.timestamp is None:
        checked = attrs.evolve(checked, timestamp=now_ms())
    check_timestamp(checked.timestamp, "message.timestamp", finite=True)
    return session, checked, message_text(checked)


def message_text(message: Message) -> str:
    """The stored JSON text of a message (its lossless camelCase form)."""
    return strict_json(message.to_json(), "message")


def check_ops(ops: object) -> list[MetadataOp]:
    """A batch: a list of ``MetadataPut``/``MetadataDel`` with string namespaces and keys."""
    if isinstance(ops, str | bytes | Mapping) or not isinstance(ops, Iterable):
        raise TypeError(f"ops must be a list of MetadataPut/MetadataDel, got {type(ops).__name__}")
    out: list[MetadataOp] = []
    for index, op in enumerate(ops):
        if not isinstance(op, MetadataPut | MetadataDel):
            raise TypeError(f"op {index} must be a MetadataPut or MetadataDel, got {type(op).__name__}")
        namespace, key = check_key(op.namespace, op.key)
        if isinstance(op, MetadataPut):
            out.append(MetadataPut(namespace, key, op.data))
        else:
            out.append(MetadataDel(namespace, key))
    return out


def encode_batch(ops: object) -> list[tuple[MetadataOp, str | None]]:
    """Validate a whole batch before anything is written: each op with its encoded payload."""
    out: list[tuple[MetadataOp, str | None]] = []
    for index, op in enumerate(check_ops(ops)):
        if isinstance(op, MetadataPut):
            out.append((op, encode_json(op.data, f"op {index} ({op.namespace}/{op.key})")))
        else:
            out.append((op, None))
    return out


#: The JSON decoder's own scanner (C when available): ``json.loads`` wraps it in three Python
#: calls and two whitespace regexes per text, a third of decoding a short stored message.
_SCAN: Final = json.scanner.make_scanner(cast("Any", json.JSONDecoder()))  # its stub: wrong type


def json_loads(text: str) -> Any:
    """``json.loads(text)`` of a stored text, faster when it is the compact text the drivers
    write; anything else (surrounding whitespace, not JSON) takes ``json.loads`` itself, so the
    result and the error are always exactly that function's."""
    try:
        value, end = _SCAN(text, 0)
    except (StopIteration, ValueError, TypeError):  # bytes, or not JSON: json.loads decides
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


def decode_object(text: str) -> JsonObject | None:
    """The stored object, or ``None`` when the stored text is unreadable or not an object."""
    try:
        value = json_loads(text)
    except (ValueError, TypeError):
        return None
    return value if isinstance(value, dict) else None


def next_updated_at(previous: int | None, current: int | None = None) -> int:
    """Epoch ms that grows on every overwrite, even within one millisecond (``current``: the
    clock reading to use, the local clock's by default)."""
    current = now_ms() if current is None else current
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
