"""The value types of the MemoryService contract.

Every type is an immutable attrs class with snake_case fields and a lossless camelCase JSON form
matching the TypeScript shape, so that a backend can store the JSON text and read back exactly
what was written.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, TypeAlias

import attrs

#: Message kinds that are control records: event markers ("CONTROL_KINDS(回合记录、压缩分隔线这类事件标记)":
#: turn records and compression dividers are examples, and both carry this one kind). They are
#: never sent to the model and never count toward a conversation-message limit.
CONTROL_KINDS: Final[frozenset[str]] = frozenset({"event-marker"})

#: A JSON object: ``str`` keys; values are ``str``, ``int``, ``float``, ``bool``, ``None``, lists
#: and JSON objects.
JsonObject: TypeAlias = dict[str, Any]


class Absent(enum.Enum):
    """Marks an optional field that may legitimately hold ``None`` as not given at all."""

    ABSENT = "absent"

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = Absent.ABSENT


def _tuple_or_none(value: Iterable[Any] | None) -> tuple[Any, ...] | None:
    return None if value is None else tuple(value)


def _dict_or_none(value: Mapping[str, Any] | None) -> JsonObject | None:
    return None if value is None else dict(value)


#: (python attribute, JSON key) of every optional Message field whose absence is ``None``.
_OPTIONAL_FIELDS: Final[tuple[tuple[str, str], ...]] = (
    ("tool_calls", "toolCalls"),
    ("tool_call_id", "toolCallId"),
    ("name", "name"),
    ("kind", "kind"),
    ("timestamp", "timestamp"),
    ("segments", "segments"),
    ("images", "images"),
    ("audios", "audios"),
    ("metadata", "metadata"),
)


#: JSON key -> python attribute of every optional field whose absence is ``None``.
_ATTRIBUTE_OF_KEY: Final[dict[str, str]] = {key: attr for attr, key in _OPTIONAL_FIELDS}


@attrs.frozen(kw_only=True)
class Message:
    """One stored chat message.

    ``None`` on an optional field means the field is absent; ``reasoning_content`` can also be an
    explicit ``None`` (JSON ``null``), so its absence is spelled ``ABSENT``. Sequences are tuples
    (a list given is turned into one); a backend stores each field as given and hands it back
    unchanged (MSG-02), and a field of the wrong type, an element included, is refused with
    ``TypeError`` before anything is stored (HOST-04).

    - ``role``: a ``str``: ``"user"``, ``"assistant"``, ``"system"``, ``"tool"`` or another role.
    - ``content``: a ``str``, or ``None`` (a tool-call turn may have no text).
    - ``tool_calls``: the tool calls of an assistant turn; each element a JSON object (``dict``,
      e.g. ``{"id": ..., "type": "function", "function": {"name": ..., "arguments": ...}}``).
    - ``tool_call_id``: a ``str``: the call a ``"tool"`` message answers.
    - ``name``: a ``str``: the speaker's or tool's name.
    - ``kind``: a ``str``; a kind in ``CONTROL_KINDS`` makes the message a control record.
    - ``timestamp``: epoch milliseconds, an ``int`` or ``float`` (not ``bool``); stamped with
      the current time when saved without one (MSG-03).
    - ``reasoning_content``: a ``str``, explicit ``None``, or ``ABSENT``.
    - ``segments``: the parts of a turn as shown; each element a JSON object (``dict``, e.g.
      ``{"type": "text", "content": ...}``).
    - ``images``: each element a ``str``: an image URL or ``data:`` URI.
    - ``audios``: each element a ``str``: an audio URL or ``data:`` URI.
    - ``metadata``: a JSON object (``dict`` with ``str`` keys), e.g. ``{"platform": "qq"}``.
    """

    role: str
    content: str | None
    tool_calls: tuple[JsonObject, ...] | None = attrs.field(default=None, converter=_tuple_or_none)
    tool_call_id: str | None = None
    name: str | None = None
    kind: str | None = None
    timestamp: int | float | None = None
    reasoning_content: str | Absent | None = ABSENT
    segments: tuple[JsonObject, ...] | None = attrs.field(default=None, converter=_tuple_or_none)
    images: tuple[str, ...] | None = attrs.field(default=None, converter=_tuple_or_none)
    audios: tuple[str, ...] | None = attrs.field(default=None, converter=_tuple_or_none)
    metadata: JsonObject | None = attrs.field(default=None, converter=_dict_or_none)

    @property
    def is_control(self) -> bool:
        """Control records take positions in the history but never count as conversation."""
        return self.kind in CONTROL_KINDS

    def to_json(self) -> JsonObject:
        """The camelCase JSON object of the TypeScript ``Message``; absent fields are omitted."""
        out: JsonObject = {"role": self.role, "content": self.content}
        for attr, key in _OPTIONAL_FIELDS:
            value = getattr(self, attr)
            if value is not None:
                out[key] = list(value) if isinstance(value, tuple) else value
        if self.reasoning_content is not ABSENT:
            out["reasoningContent"] = self.reasoning_content
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        """Inverse of :meth:`to_json`; raises ``TypeError`` on a value that is not a message."""
        if type(data) is dict and cls is Message and "role" in data:
            return _message_from_dict(data)
        if not isinstance(data, Mapping) or "role" not in data:
            raise TypeError(f"not a Message JSON object: {data!r}")
        fields: dict[str, Any] = {}
        for key, value in data.items():  # a stored message holds few of the optional keys
            attr = _ATTRIBUTE_OF_KEY.get(key)
            if attr is not None and value is not None:
                fields[attr] = value
        if "reasoningContent" in data:  # null is a value here, not an absence
            fields["reasoning_content"] = data["reasoningContent"]
        return cls(role=data["role"], content=data.get("content"), **fields)


def _dict_decoder() -> Callable[[dict[str, Any]], Message]:
    """``Message.from_json`` of a plain dict, straight into the slots (attrs' frozen
    ``__setattr__`` refuses, each slot's own setter does not): what the attrs ``__init__`` with its
    keyword arguments and converters builds (tests/drivers/test_fast_decoding.py checks they agree), at
    half the cost. A read of a long history builds thousands of these."""
    slot = {field.name: getattr(Message, field.name).__set__ for field in attrs.fields(Message)}
    role, content, tool_calls, tool_call_id = (
        slot["role"],
        slot["content"],
        slot["tool_calls"],
        slot["tool_call_id"],
    )
    name, kind, timestamp, reasoning = (
        slot["name"],
        slot["kind"],
        slot["timestamp"],
        slot["reasoning_content"],
    )
    segments, images, audios, metadata = (slot["segments"], slot["images"], slot["audios"], slot["metadata"])
    new = object.__new__

    def decode(data: dict[str, Any]) -> Message:
        get = data.get
        message: Message = new(Message)
        role(message, data["role"])
        content(message, get("content"))
        tool_call_id(message, get("toolCallId"))
        name(message, get("name"))
        kind(message, get("kind"))
        timestamp(message, get("timestamp"))
        reasoning(message, get("reasoningContent", ABSENT))
        value = get("toolCalls")
        tool_calls(message, None if value is None else tuple(value))
        value = get("segments")
        segments(message, None if value is None else tuple(value))
        value = get("images")
        images(message, None if value is None else tuple(value))
        value = get("audios")
        audios(message, None if value is None else tuple(value))
        value = get("metadata")
        metadata(message, None if value is None else dict(value))
        return message

    return decode


_message_from_dict: Final = _dict_decoder()


@attrs.frozen(kw_only=True)
class MetadataEntry:
    """One metadata record as listed; ``updated_at`` is integer epoch milliseconds."""

    key: str
    data: JsonObject
    updated_at: int


@attrs.frozen
class MetadataPut:
    """Batch operation: create or overwrite ``namespace/key`` with ``data``."""

    namespace: str
    key: str
    data: JsonObject


@attrs.frozen
class MetadataDel:
    """Batch operation: delete ``namespace/key``; deleting a missing key is not an error."""

    namespace: str
    key: str


#: One operation of a ``commit_metadata`` batch (TypeScript: ``{op: 'put', ...} | {op: 'del', ...}``).
MetadataOp: TypeAlias = MetadataPut | MetadataDel


def _str_tuple_or_none(value: Iterable[str] | None, field: str) -> tuple[str, ...] | None:
    """A list-of-strings field as a tuple, ``None`` kept.

    A lone ``str`` (or ``bytes``) is refused with ``TypeError``: iterating it would make
    ``roles="user"`` the roles ``('u', 's', 'e', 'r')``, a filter nobody asked for. The items are
    not checked here: a backend refuses a wrong one itself (HOST-04), so the kit must be able to
    pass it one.
    """
    if value is None:
        return None
    if isinstance(value, str | bytes | bytearray):
        raise TypeError(
            f"{field} must be a list of str, got {type(value).__name__} {value!r} "
            "(a lone string would be taken for its characters)"
        )
    return tuple(value)


# One named converter per field (the attrs mypy plugin takes no call as a converter).
def _exclude_session_ids(value: Iterable[str] | None) -> tuple[str, ...] | None:
    return _str_tuple_or_none(value, "exclude_session_ids")


def _roles(value: Iterable[str] | None) -> tuple[str, ...] | None:
    return _str_tuple_or_none(value, "roles")


def _kinds(value: Iterable[str] | None) -> tuple[str, ...] | None:
    return _str_tuple_or_none(value, "kinds")


def _exclude_kinds(value: Iterable[str] | None) -> tuple[str, ...] | None:
    return _str_tuple_or_none(value, "exclude_kinds")


@attrs.frozen(kw_only=True)
class RecentMessagesAcrossSessionsQuery:
    """The filter of a cross-session read of recent active messages (CROSS-01..CROSS-05).

    - ``limit``: how many of the newest messages, a non-negative ``int`` or ``math.inf``; never
      more than the backend's ``cross_session_max_limit`` (CROSS-01, LIM-04).
    - ``since_ts``: keeps timestamps ``>= since_ts`` (epoch ms, ``int`` or ``float``).
    - ``platform``: keeps messages whose ``metadata["platform"]`` equals it (a ``str``).
    - ``exclude_session_ids``: each element a session id ``str`` whose messages are dropped.
    - ``roles``: each element a role ``str``; a whitelist, by default
      ``DEFAULT_CROSS_SESSION_ROLES`` (:mod:`aalis_memory.defaults`).
    - ``kinds``: each element a kind ``str``; a whitelist that drops kind-less messages.
    - ``exclude_kinds``: each element a kind ``str`` to drop; it wins over ``kinds`` and keeps
      kind-less messages.
    """

    limit: int | float
    since_ts: int | float | None = None
    platform: str | None = None
    exclude_session_ids: tuple[str, ...] | None = attrs.field(default=None, converter=_exclude_session_ids)
    roles: tuple[str, ...] | None = attrs.field(default=None, converter=_roles)
    kinds: tuple[str, ...] | None = attrs.field(default=None, converter=_kinds)
    exclude_kinds: tuple[str, ...] | None = attrs.field(default=None, converter=_exclude_kinds)


@attrs.frozen
class RecentMessageRecord:
    """A message returned by a cross-session read, with the session it belongs to."""

    session_id: str
    message: Message
