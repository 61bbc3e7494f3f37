"""The adapter's store as an ordinary async MemoryService: each contract method is one call.

Only the optional methods the handshake listed exist on the object, so the kit's detection by
presence works through the bridge.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from aalis_memory.conformance.stdio import codec
from aalis_memory.conformance.stdio.client import Connection
from aalis_memory.service import OPTIONAL_METHODS, Limit
from aalis_memory.types import (
    JsonObject,
    Message,
    MetadataEntry,
    MetadataOp,
    RecentMessageRecord,
    RecentMessagesAcrossSessionsQuery,
)

#: Python method name -> protocol method name.
PROTOCOL_NAMES: Final[dict[str, str]] = {
    "save_message": "saveMessage", "get_history": "getHistory", "clear_session": "clearSession",
    "archive_span": "archiveSpan", "save_metadata": "saveMetadata", "get_metadata": "getMetadata",
    "list_metadata": "listMetadata", "delete_metadata": "deleteMetadata",
    "commit_metadata": "commitMetadata", "clear_all": "clearAll",
    "get_full_history": "getFullHistory", "count_history": "countHistory",
    "get_messages_by_session_range": "getMessagesBySessionRange",
    "get_recent_messages_across_sessions": "getRecentMessagesAcrossSessions",
    "list_metadata_keys": "listMetadataKeys", "update_message_content": "updateMessageContent",
    "delete_messages_by_timestamps": "deleteMessagesByTimestamps",
}


def _limit(params: dict[str, Any], name: str, limit: Any) -> dict[str, Any]:
    """An omitted limit (``None``) is left out of the params: the adapter's default applies."""
    if limit is not None:
        params[name] = codec.encode(limit)
    return params


class StdioStore:
    """One open store of the adapter, by its handle."""

    def __init__(self, connection: Connection, handle: str, optional: Sequence[str],
                 timeout: float | None) -> None:
        self._connection = connection
        self.handle = handle
        self._timeout = timeout
        for name in OPTIONAL_METHODS:
            if PROTOCOL_NAMES[name] in optional:
                setattr(self, name, getattr(self, f"_{name}"))

    async def _call(self, method: str, params: dict[str, Any]) -> Any:
        return await self._connection.call(method, {"handle": self.handle, **params},
                                           self._timeout)

    # -- required ---------------------------------------------------------------------------

    async def save_message(self, session_id: str, message: Message) -> None:
        await self._call("saveMessage", {"sessionId": codec.encode(session_id),
                                         "message": codec.encode_message(message)})

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        params = _limit({"sessionId": codec.encode(session_id)}, "limit", limit)
        return codec.decode_messages(await self._call("getHistory", params))

    async def clear_session(self, session_id: str) -> None:
        await self._call("clearSession", {"sessionId": codec.encode(session_id)})

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        span = {"count": codec.encode(count), "keep": codec.encode_sequence(keep)}
        found: int = await self._call("archiveSpan", {"sessionId": codec.encode(session_id),
                                                      "span": span})
        return found

    async def save_metadata(self, namespace: str, key: str, data: JsonObject) -> None:
        await self._call("saveMetadata", {"namespace": codec.encode(namespace),
                                          "key": codec.encode(key), "data": codec.encode(data)})

    async def get_metadata(self, namespace: str, key: str) -> JsonObject | None:
        found = await self._call("getMetadata", {"namespace": codec.encode(namespace),
                                                 "key": codec.encode(key)})
        return None if found is None else dict(codec.decode(found))

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        found = await self._call("listMetadata", {"namespace": codec.encode(namespace)})
        return codec.decode_entries(found)

    async def delete_metadata(self, namespace: str, key: str) -> None:
        await self._call("deleteMetadata", {"namespace": codec.encode(namespace),
                                            "key": codec.encode(key)})

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        await self._call("commitMetadata", {"ops": codec.encode_ops(ops)})

    # -- optional (bound in __init__ when the adapter has them) -----------------------------

    async def _clear_all(self) -> None:
        await self._call("clearAll", {})

    async def _get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        params = _limit({"sessionId": codec.encode(session_id)}, "limit", limit)
        return codec.decode_messages(await self._call("getFullHistory", params))

    async def _count_history(self, session_id: str) -> int:
        found: int = await self._call("countHistory", {"sessionId": codec.encode(session_id)})
        return found

    async def _get_messages_by_session_range(
        self, session_id: str, from_ts: int | float, to_ts: int | float,
        roles: Sequence[str] | None = None, exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        params: dict[str, Any] = {"sessionId": codec.encode(session_id),
                                  "fromTs": codec.encode(from_ts), "toTs": codec.encode(to_ts)}
        if roles is not None:
            params["roles"] = codec.encode_sequence(roles)
        if exclude_kinds is not None:
            params["excludeKinds"] = codec.encode_sequence(exclude_kinds)
        return codec.decode_messages(await self._call("getMessagesBySessionRange", params))

    async def _get_recent_messages_across_sessions(
        self, query: RecentMessagesAcrossSessionsQuery
    ) -> list[RecentMessageRecord]:
        found = await self._call("getRecentMessagesAcrossSessions",
                                 {"query": codec.encode_query(query)})
        return codec.decode_records(found)

    async def _list_metadata_keys(self, namespace: str) -> list[str]:
        found: list[str] = await self._call("listMetadataKeys",
                                            {"namespace": codec.encode(namespace)})
        return found

    async def _update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int:
        params = _limit({"sessionId": codec.encode(session_id), "oldText": codec.encode(old_text),
                         "newText": codec.encode(new_text)}, "recentLimit", recent_limit)
        found: int = await self._call("updateMessageContent", params)
        return found

    async def _delete_messages_by_timestamps(
        self, session_id: str, timestamps: Sequence[int | float]
    ) -> int:
        found: int = await self._call("deleteMessagesByTimestamps", {
            "sessionId": codec.encode(session_id), "timestamps": codec.encode_sequence(timestamps)})
        return found

    # -- raw access -----------------------------------------------------------------------------

    async def plant_raw_metadata(self, namespace: str, key: str, kind: str) -> bool:
        planted: bool = await self._call("plantRawMetadata",
                                         {"namespace": namespace, "key": key, "kind": kind})
        return planted


