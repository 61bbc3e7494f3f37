"""The value encoding of the protocol: Python values to JSON the adapter can decode, and back.

JSON has no Infinity, NaN, bytes, big integers or non-string object keys, and the kit sends
values of every kind on purpose (hostile ids, payloads JSON cannot hold), so that the adapter's
own checks decide. Values JSON cannot spell travel as one-member tagged objects:

- ``{"$num": "Infinity" | "-Infinity" | "NaN"}``
- ``{"$int": "<decimal digits>"}``: an integer outside +-2**53, where doubles stop being exact
  (a ``bigint`` in TypeScript)
- ``{"$bytes": "<base64>"}``: a ``bytes`` value (a ``Uint8Array``)
- ``{"$map": [[key, value], ...]}``: a dict with a key that is not a string (a ``Map``)
- ``{"$opaque": "<type name>"}``: anything else JSON cannot hold (a set, a datetime, a regex, a
  ``dict`` passed where a ``Message`` belongs): an object of no JSON type
- ``{"$object": {...}}``: a plain object that would otherwise read as one of these tags

Nesting is cut at :data:`MAX_DEPTH` levels with an ``$opaque`` (so a circular value is sent as
a value nested too deep, which the contract refuses with ``ValueError``), unless the adapter
declares a transport (``hello.transport``) that makes them in its own terms:

- ``{"$cycle": k}``: the container ``k`` levels up (a cyclic value, made cyclic there)
- ``{"$deep": {"path": [key or 0, ...], "leaf": value}}``: a chain of one-member objects (a key)
  and one-item arrays (``0``) around ``leaf``, nested past :data:`MAX_DEPTH`
"""

from __future__ import annotations

import base64
import math
from collections.abc import Iterable, Mapping
from typing import Any, Final

from aalis_memory.conformance.registration.transport import Transport, Uncarriable
from aalis_memory.methods import METHODS
from aalis_memory.types import (
    Message,
    MetadataDel,
    MetadataEntry,
    MetadataPut,
    RecentMessagesAcrossSessionsQuery,
)

TAGS: Final = frozenset({"$num", "$int", "$bytes", "$map", "$opaque", "$object", "$cycle", "$deep"})
#: Deeper than the contract's 32 levels, so every depth the contract allows travels exactly.
MAX_DEPTH: Final = 40
SAFE_INTEGER: Final = 2**53


class Codec:
    """Python values as protocol JSON for one adapter's transport.

    Without a declared transport (``transport=None`` or an undeclared one) this is the encoding
    of protocol version 1: every tag but ``$cycle`` and ``$deep``, nesting cut at
    :data:`MAX_DEPTH` with an ``$opaque``. A declared transport gets only what it says it
    carries; anything else raises :class:`~aalis_memory.conformance.registration.transport.Uncarriable`
    before a byte is sent.
    """

    def __init__(self, transport: Transport | None = None) -> None:
        self.transport = transport
        self._strict = transport is not None and transport.declared
        self._safe = SAFE_INTEGER if transport is None else transport.safe_integer

    def _carries(self, kind: str) -> bool:
        return self.transport is None or self.transport.carries(kind)

    def _refuse(self, what: str) -> Any:
        assert self.transport is not None
        raise Uncarriable(self.transport, what)

    def encode(self, value: Any, depth: int = 0) -> Any:
        """A JSON value the adapter decodes back to the closest value of its language."""
        return self._encode(value, [None] * depth)

    def _encode(self, value: Any, above: list[Any]) -> Any:
        if value is None or isinstance(value, bool | str):
            return value
        if isinstance(value, int):
            if abs(value) <= self._safe:
                return value
            if self._carries("big-integer"):
                return {"$int": str(value)}
            return self._refuse(f"the integer {_short(value)} (its numbers stop at \u00b1{self._safe})")
        if isinstance(value, float):
            if math.isnan(value) or math.isinf(value):
                if not self._carries("non-finite"):
                    return self._refuse(f"the number {value}")
                return {"$num": "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"}
            return value
        if isinstance(value, list | tuple | dict):
            return self._container(value, above)
        if isinstance(value, bytes):
            if not self._carries("bytes"):
                return self._refuse("a bytes value")
            return {"$bytes": base64.b64encode(value).decode("ascii")}
        if not self._carries("opaque"):
            return self._refuse(f"a value of type {type(value).__name__}")
        return {"$opaque": type(value).__name__}

    def _container(self, value: list[Any] | tuple[Any, ...] | dict[Any, Any], above: list[Any]) -> Any:
        if self._strict:
            for index, ancestor in enumerate(above):
                if ancestor is value:
                    if not self._carries("cycle"):
                        return self._refuse("a cyclic value")
                    return {"$cycle": len(above) - index}
        if len(above) > MAX_DEPTH:
            if not self._strict:
                return {"$opaque": f"{type(value).__name__} nested deeper than {MAX_DEPTH} levels"}
            return self._deep(value)
        above.append(value)
        try:
            if isinstance(value, dict):
                if all(isinstance(key, str) for key in value):
                    out = {key: self._encode(item, above) for key, item in value.items()}
                    return {"$object": out} if len(out) == 1 and next(iter(out)) in TAGS else out
                if not self._carries("map"):
                    return self._refuse("an object with keys that are not strings")
                above.append(None)  # the [key, value] pair of the legacy depth count
                try:
                    return {
                        "$map": [[self._encode(k, above), self._encode(v, above)] for k, v in value.items()]
                    }
                finally:
                    above.pop()
            return [self._encode(item, above) for item in value]
        finally:
            above.pop()

    def _deep(self, value: Any) -> Any:
        """Nesting past :data:`MAX_DEPTH`: a chain of one-member objects and one-item arrays
        travels as its path and its leaf (``$deep``), built without recursion on both sides."""
        path: list[str | int] = []
        seen: set[int] = set()
        while isinstance(value, dict | list | tuple) and len(value) == 1 and id(value) not in seen:
            seen.add(id(value))
            if isinstance(value, dict):
                ((key, item),) = value.items()
                if not isinstance(key, str):
                    break
                path.append(key)
                value = item
            else:
                path.append(0)
                value = value[0]
        if (
            not self._carries("deep")
            or not path
            or (
                isinstance(value, dict | list | tuple)
                and (id(value) in seen or _depth_over(value, MAX_DEPTH))
            )
        ):
            return self._refuse(f"a value nested deeper than {MAX_DEPTH} levels")
        return {"$deep": {"path": path, "leaf": self._encode(value, [])}}

    def encode_sequence(self, value: Any) -> Any:
        """A parameter the contract types as a list: any iterable but a string, bytes or mapping
        goes as an array (as the Python reference drivers accept it); anything else as itself."""
        if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
            return self.encode(value)
        return [self.encode(item, 1) for item in value]

    def encode_message(self, message: Any) -> Any:
        """A ``Message`` as its camelCase JSON form; anything else as a value that is no message."""
        if not isinstance(message, Message):
            return self._no_json_type(message)
        return self.encode(message.to_json())

    def _no_json_type(self, value: Any) -> Any:
        if not self._carries("opaque"):
            return self._refuse(f"a value of type {type(value).__name__}")
        return {"$opaque": type(value).__name__}

    def encode_query(self, query: Any) -> Any:
        if not isinstance(query, RecentMessagesAcrossSessionsQuery):
            return self._no_json_type(query)
        out: dict[str, Any] = {}
        if query.limit is not None:
            out["limit"] = self.encode(query.limit)
        for attr, key in (("since_ts", "sinceTs"), ("platform", "platform")):
            if getattr(query, attr) is not None:
                out[key] = self.encode(getattr(query, attr))
        for attr, key in (
            ("exclude_session_ids", "excludeSessionIds"),
            ("roles", "roles"),
            ("kinds", "kinds"),
            ("exclude_kinds", "excludeKinds"),
        ):
            if getattr(query, attr) is not None:
                out[key] = self.encode_sequence(getattr(query, attr))
        return out

    def encode_op(self, op: Any) -> Any:
        if isinstance(op, MetadataPut):
            return {
                "op": "put",
                "namespace": self.encode(op.namespace),
                "key": self.encode(op.key),
                "data": self.encode(op.data),
            }
        if isinstance(op, MetadataDel):
            return {"op": "del", "namespace": self.encode(op.namespace), "key": self.encode(op.key)}
        return self._no_json_type(op)

    def encode_ops(self, ops: Any) -> Any:
        if isinstance(ops, str | bytes | Mapping) or not isinstance(ops, Iterable):
            return self.encode(ops)
        return [self.encode_op(op) for op in ops]


def _short(value: int) -> str:
    text = str(value)
    return text if len(text) <= 30 else f"{text[:12]}...{text[-6:]} ({len(text)} digits)"


def _depth_over(value: Any, limit: int) -> bool:
    """Whether ``value`` nests deeper than ``limit`` levels (without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    seen: set[int] = set()
    while stack:
        item, depth = stack.pop()
        if not isinstance(item, dict | list | tuple):
            continue
        if depth >= limit or id(item) in seen:
            return True
        seen.add(id(item))
        stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


_LEGACY: Final = Codec()
encode: Final = _LEGACY.encode
encode_sequence: Final = _LEGACY.encode_sequence
encode_message: Final = _LEGACY.encode_message
encode_query: Final = _LEGACY.encode_query
encode_op: Final = _LEGACY.encode_op
encode_ops: Final = _LEGACY.encode_ops


# -- absent fields returned as null -------------------------------------------------------------

#: Optional Message fields whose ``null`` means nothing but absence. (``reasoningContent``'s
#: null is a value of the contract: the store tells it apart, see ``StdioStore``.)
NULLABLE_AS_ABSENT: Final = (
    "toolCalls",
    "toolCallId",
    "name",
    "kind",
    "segments",
    "images",
    "audios",
    "metadata",
)
#: The reads that return a list of messages, and those that return records holding one each.
_MESSAGE_LISTS: Final = frozenset(m.protocol for m in METHODS if m.returns == "messages")
_RECORD_LISTS: Final = frozenset(m.protocol for m in METHODS if m.returns == "records")


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def drop_absent_nulls(method: str, result: Any) -> list[str]:
    """Remove, in place, the optional Message fields of a read's result that are ``null`` (many
    JavaScript and BSON stores keep an absent field as null): null and absent are one value on
    the way back. Returns the fields found null, for the rule that speaks of it (MSG-07)."""
    if method == "isolationProbe" and isinstance(result, dict):
        listed = [*_listed(result.get("history")), *_listed(result.get("again"))]
        messages = [m.get("message") if isinstance(m, dict) and "sessionId" in m else m for m in listed]
    elif method in _MESSAGE_LISTS:
        messages = _listed(result)
    elif method in _RECORD_LISTS:
        messages = [r.get("message") for r in _listed(result) if isinstance(r, dict)]
    else:
        return []
    found: list[str] = []
    for message in messages:
        if isinstance(message, dict):
            for field in NULLABLE_AS_ABSENT:
                if field in message and message[field] is None:
                    del message[field]
                    found.append(field)
    return found


# -- results (already checked against the schema) -------------------------------------------


#: What ``json.loads`` makes of a JSON scalar, by exact type: an item of one is its own decoded
#: value, taken without a call (a read of 20 messages made about a hundred calls for them).
_SCALARS: Final = frozenset({str, int, float, bool, type(None)})


def decode(value: Any) -> Any:
    """The Python value of an encoded JSON value."""
    if isinstance(value, list):
        return [item if type(item) in _SCALARS else decode(item) for item in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        ((tag, body),) = value.items()
        if tag == "$num":
            return {"Infinity": math.inf, "-Infinity": -math.inf}.get(body, math.nan)
        if tag == "$int":
            return int(body)
        if tag == "$object":
            return {key: decode(item) for key, item in body.items()}
    return {key: item if type(item) in _SCALARS else decode(item) for key, item in value.items()}


def decode_message(data: Any) -> Message:
    return Message.from_json(decode(data))


def decode_entries(data: Any) -> list[MetadataEntry]:
    return [
        MetadataEntry(key=item["key"], data=decode(item["data"]), updated_at=decode(item["updatedAt"]))
        for item in data
    ]
