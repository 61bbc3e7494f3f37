"""Messages and metadata payloads to BSON documents and back.

Stored data are real subdocuments (so ``metadata.platform`` can be indexed and queried), but
JSON allows object keys that MongoDB-compatible servers refuse or treat specially: a leading
``$``, a ``.`` anywhere, NUL. Such keys are percent-escaped on the way in and unescaped on the way
out; ``%`` itself is escaped too, so the mapping is reversible and keys without those characters
are stored exactly as given. An array directly inside an array is stored wrapped as
``{"%L": [...]}`` (FerretDB 1.x refuses nested arrays); no escaped key can spell ``%L``.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping
from typing import Any, Final

from bson.datetime_ms import DatetimeMS

from aalis_memory.types import JsonObject, Message

#: Document fields the driver adds around a message's own JSON fields.
SESSION_FIELD: Final = "sessionId"
ARCHIVED_FIELD: Final = "archived"
CREATED_FIELD: Final = "createdAt"
_NOT_MESSAGE_FIELDS: Final = frozenset({"_id", SESSION_FIELD, ARCHIVED_FIELD, CREATED_FIELD})

_INT64_MIN: Final = -(2**63)
_INT64_MAX: Final = 2**63 - 1
_UNESCAPES: Final = {"25": "%", "2E": ".", "24": "$", "00": "\x00"}
_ESCAPED: Final = re.compile(r"%(25|2E|24|00)")
#: The key of a wrapped inner array; user keys are escaped, so they never produce it.
NESTED_ARRAY_KEY: Final = "%L"
_EPOCH: Final = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def escape_key(key: str) -> str:
    """A key MongoDB stores verbatim: no ``.``, no NUL, no leading ``$``."""
    out = key.replace("%", "%25").replace(".", "%2E").replace("\x00", "%00")
    return "%24" + out[1:] if out.startswith("$") else out


def unescape_key(key: str) -> str:
    return _ESCAPED.sub(lambda m: _UNESCAPES[m.group(1)], key) if "%" in key else key


def to_bson(value: Any, where: str) -> Any:
    """A JSON value (as ``json.loads`` returns it) made storable; raises on 64-bit overflow."""
    if isinstance(value, dict):
        return {escape_key(k): to_bson(v, where) for k, v in value.items()}
    if isinstance(value, list):
        return [_item_to_bson(v, where) for v in value]
    if isinstance(value, int) and not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f"{where}: integer {value} does not fit in 64 bits (BSON)")
    return value


def _item_to_bson(value: Any, where: str) -> Any:
    converted = to_bson(value, where)
    return {NESTED_ARRAY_KEY: converted} if isinstance(value, list) else converted


def from_bson(value: Any) -> Any:
    """Inverse of :func:`to_bson`."""
    if isinstance(value, Mapping):
        if len(value) == 1 and isinstance(value.get(NESTED_ARRAY_KEY), list):
            return from_bson(value[NESTED_ARRAY_KEY])
        return {unescape_key(str(k)): from_bson(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_bson(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)  # bson.Int64 is an int subclass; callers get plain ints back
    return value


def message_document(session_id: str, message_text: str, created_ms: int) -> JsonObject:
    """The stored document of one message (``semantics.prepare_message``'s JSON text, as BSON,
    plus the session and a creation stamp)."""
    doc: JsonObject = to_bson(json.loads(message_text), f"message for session {session_id!r}")
    doc[SESSION_FIELD] = session_id
    doc[CREATED_FIELD] = DatetimeMS(created_ms)
    return doc


def document_message(doc: Mapping[str, Any]) -> Message:
    """The message a stored document holds."""
    fields = {k: v for k, v in doc.items() if k not in _NOT_MESSAGE_FIELDS}
    return Message.from_json(from_bson(fields))


def payload_document(text: str, where: str) -> JsonObject:
    """A metadata payload (validated JSON text from ``semantics.encode_batch``) as BSON."""
    data: JsonObject = to_bson(json.loads(text), where)
    return data


def date_ms(value: Any) -> int | None:
    """Epoch milliseconds of a BSON date, ``None`` for anything else."""
    if isinstance(value, DatetimeMS):
        return int(value)
    if isinstance(value, dt.datetime):
        aware = value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)
        return (aware - _EPOCH) // dt.timedelta(milliseconds=1)
    return None
