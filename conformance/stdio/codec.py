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
a value nested too deep, which the contract refuses with ``ValueError``).
"""

from __future__ import annotations

import base64
import math
from collections.abc import Iterable, Mapping
from typing import Any, Final

from aalis_memory.types import (
    Message,
    MetadataDel,
    MetadataEntry,
    MetadataPut,
    RecentMessageRecord,
    RecentMessagesAcrossSessionsQuery,
)

TAGS: Final = frozenset({"$num", "$int", "$bytes", "$map", "$opaque", "$object"})
#: Deeper than the contract's 32 levels, so every depth the contract allows travels exactly.
MAX_DEPTH: Final = 40
SAFE_INTEGER: Final = 2**53


def encode(value: Any, depth: int = 0) -> Any:
    """A JSON value the adapter decodes back to the closest value of its language."""
    if depth > MAX_DEPTH:
        return {"$opaque": f"{type(value).__name__} nested deeper than {MAX_DEPTH} levels"}
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return value if abs(value) <= SAFE_INTEGER else {"$int": str(value)}
    if isinstance(value, float):
        if math.isnan(value):
            return {"$num": "NaN"}
        if math.isinf(value):
            return {"$num": "Infinity" if value > 0 else "-Infinity"}
        return value
    if isinstance(value, bytes):
        return {"$bytes": base64.b64encode(value).decode("ascii")}
    if isinstance(value, list | tuple):
        return [encode(item, depth + 1) for item in value]
    if isinstance(value, dict):
        if all(isinstance(key, str) for key in value):
            out = {key: encode(item, depth + 1) for key, item in value.items()}
            return {"$object": out} if len(out) == 1 and next(iter(out)) in TAGS else out
        return {"$map": [[encode(k, depth + 2), encode(v, depth + 2)] for k, v in value.items()]}
    return {"$opaque": type(value).__name__}


def encode_sequence(value: Any) -> Any:
    """A parameter the contract types as a list: any iterable but a string, bytes or mapping
    goes as an array (as the Python reference drivers accept it); anything else as itself."""
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        return encode(value)
    return [encode(item, 1) for item in value]


def encode_message(message: Any) -> Any:
    """A ``Message`` as its camelCase JSON form; anything else as a value that is no message."""
    if not isinstance(message, Message):
        return {"$opaque": type(message).__name__}
    return encode(message.to_json())


def encode_query(query: Any) -> Any:
    if not isinstance(query, RecentMessagesAcrossSessionsQuery):
        return {"$opaque": type(query).__name__}
    out: dict[str, Any] = {}
    if query.limit is not None:
        out["limit"] = encode(query.limit)
    for attr, key in (("since_ts", "sinceTs"), ("platform", "platform")):
        if getattr(query, attr) is not None:
            out[key] = encode(getattr(query, attr))
    for attr, key in (("exclude_session_ids", "excludeSessionIds"), ("roles", "roles"),
                      ("kinds", "kinds"), ("exclude_kinds", "excludeKinds")):
        if getattr(query, attr) is not None:
            out[key] = encode_sequence(getattr(query, attr))
    return out


def encode_op(op: Any) -> Any:
    if isinstance(op, MetadataPut):
        return {"op": "put", "namespace": encode(op.namespace), "key": encode(op.key),
                "data": encode(op.data)}
    if isinstance(op, MetadataDel):
        return {"op": "del", "namespace": encode(op.namespace), "key": encode(op.key)}
    return {"$opaque": type(op).__name__}


def encode_ops(ops: Any) -> Any:
    if isinstance(ops, str | bytes | Mapping) or not isinstance(ops, Iterable):
        return encode(ops)
    return [encode_op(op) for op in ops]


# -- results (already checked against the schema) -------------------------------------------


def decode(value: Any) -> Any:
    """The Python value of an encoded JSON value."""
    if isinstance(value, list):
        return [decode(item) for item in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        (tag, body), = value.items()
        if tag == "$num":
            return {"Infinity": math.inf, "-Infinity": -math.inf}.get(body, math.nan)
        if tag == "$int":
            return int(body)
        if tag == "$object":
            return {key: decode(item) for key, item in body.items()}
    return {key: decode(item) for key, item in value.items()}


def decode_message(data: Any) -> Message:
    return Message.from_json(decode(data))


def decode_messages(data: Any) -> list[Message]:
    return [decode_message(item) for item in data]


def decode_entries(data: Any) -> list[MetadataEntry]:
    return [MetadataEntry(key=item["key"], data=decode(item["data"]), updated_at=item["updatedAt"])
            for item in data]


def decode_records(data: Any) -> list[RecentMessageRecord]:
    return [RecentMessageRecord(item["sessionId"], decode_message(item["message"]))
            for item in data]
