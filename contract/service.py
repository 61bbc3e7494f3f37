"""The MemoryService protocol: nine required async methods and eight optional ones.

Optional methods are detected by presence (``hasattr``), never by a flag, so a backend
advertises exactly what it implements.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol, runtime_checkable

from aalis_memory.types import (
    JsonObject,
    Message,
    MetadataEntry,
    MetadataOp,
    RecentMessageRecord,
    RecentMessagesAcrossSessionsQuery,
)

#: Limits are non-negative integers or ``math.inf``; ``None`` asks for the documented default.
Limit = int | float | None

REQUIRED_METHODS: Final[tuple[str, ...]] = (
    "save_message",
    "get_history",
    "clear_session",
    "archive_span",
    "save_metadata",
    "get_metadata",
    "list_metadata",
    "delete_metadata",
    "commit_metadata",
)

OPTIONAL_METHODS: Final[tuple[str, ...]] = (
    "clear_all",
    "get_full_history",
    "count_history",
    "get_messages_by_session_range",
    "get_recent_messages_across_sessions",
    "list_metadata_keys",
    "update_message_content",
    "delete_messages_by_timestamps",
)


@runtime_checkable
class MemoryService(Protocol):
    """The required part of the storage contract (see SPEC_MAP.md for every rule)."""

    async def save_message(self, session_id: str, message: Message) -> None: ...

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]: ...

    async def clear_session(self, session_id: str) -> None: ...

    async def archive_span(
        self, session_id: str, count: int, keep: Sequence[int] = ()
    ) -> int: ...

    async def save_metadata(self, namespace: str, key: str, data: JsonObject) -> None: ...

    async def get_metadata(self, namespace: str, key: str) -> JsonObject | None: ...

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]: ...

    async def delete_metadata(self, namespace: str, key: str) -> None: ...

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None: ...


class FullMemoryService(MemoryService, Protocol):
    """A backend that implements every optional method too (the reference drivers do)."""

    async def clear_all(self) -> None: ...

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]: ...

    async def count_history(self, session_id: str) -> int: ...

    async def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]: ...

    async def get_recent_messages_across_sessions(
        self, query: RecentMessagesAcrossSessionsQuery
    ) -> list[RecentMessageRecord]: ...

    async def list_metadata_keys(self, namespace: str) -> list[str]: ...

    async def update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int: ...

    async def delete_messages_by_timestamps(
        self, session_id: str, timestamps: Sequence[int | float]
    ) -> int: ...
