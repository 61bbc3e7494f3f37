"""The MemoryService protocol: the required async methods and the optional ones.

Optional methods are detected by presence (``hasattr``), never by a flag, so a backend
advertises exactly what it implements. Which method is which, and every list of them the kit
keeps, comes from the one table :mod:`aalis_memory.methods`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from aalis_memory.methods import OPTIONAL_METHODS, REQUIRED_METHODS
from aalis_memory.types import (
    JsonObject,
    Message,
    MetadataEntry,
    MetadataOp,
    RecentMessageRecord,
    RecentMessagesAcrossSessionsQuery,
)

__all__ = ["OPTIONAL_METHODS", "REQUIRED_METHODS", "FullMemoryService", "Limit", "MemoryService"]

#: Limits are non-negative integers or ``math.inf``; ``None`` asks for the documented default.
Limit = int | float | None


@runtime_checkable
class MemoryService(Protocol):
    """The required part of the storage contract.

    Each method names the rules it answers to; ``python -m aalis_memory.conformance explain ID``
    prints one rule with its ground and tests, and ``SPEC_MAP.md`` (in the package, next to the
    conformance plugin) lists them all.
    """

    async def save_message(self, session_id: str, message: Message) -> None:
        """Append ``message`` to the session's active history (MSG-01).

        Every field comes back as saved, ``kind`` included (MSG-05, MSG-02); a message without a
        timestamp is stamped with the current epoch ms (MSG-03); 0, negative and fractional
        timestamps are kept exactly (TS-01). A bad argument raises ``TypeError``/``ValueError``
        and stores nothing (HOST-*, INPUT-*).
        """

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        """The active messages, ascending (HIST-01, HIST-02), ending with the newest ``limit``
        conversation messages: control records never use up the limit (HIST-03) and those in
        the window come along (HIST-04, HIST-05).

        ``limit`` 0 gives ``[]`` (LIM-01), ``math.inf`` everything (LIM-02), a count past 64
        bits is an ordinary count (LIM-07), ``None`` the default ``DEFAULT_HISTORY_LIMIT``
        (LIM-05; :mod:`aalis_memory.defaults`); a negative or
        fractional limit raises ``ValueError`` (LIM-06). An unknown session reads as ``[]``
        (MSG-04).
        """

    async def clear_session(self, session_id: str) -> None:
        """Remove the session's messages, archived ones too, and nothing of any other session or
        of the metadata (CLEAR-01, CLEAR-02, MSG-06)."""

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        """Archive the earliest ``count`` positions of ``get_history(session_id, inf)`` except
        the 0-based positions in ``keep``; return how many were archived (ARCH-01..ARCH-07).

        Positions count control records too and are taken at call time (ARCH-03, ARCH-08);
        archived messages stay in ``get_full_history`` in their place (ARCH-09). Under
        ``archive_atomicity='atomic'`` no concurrent reader sees part of a span (ARCH-10).
        """

    async def save_metadata(self, namespace: str, key: str, data: JsonObject) -> None:
        """Store a JSON object under ``(namespace, key)``, stamped with the write time in epoch
        ms (META-01, META-05); later changes to ``data`` do not reach the store (META-06). Data
        JSON cannot hold raises ``TypeError``/``ValueError`` and stores nothing (META-08).
        ``get_metadata`` returns it as a JSON round trip reads it: a tuple as a list (META-07)."""

    async def get_metadata(self, namespace: str, key: str) -> JsonObject | None:
        """The stored object (a copy: META-06), or ``None`` for a missing key (META-01)."""

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        """The namespace's entries sorted by key (META-02, META-04), skipping any it cannot read
        instead of raising (META-09)."""

    async def delete_metadata(self, namespace: str, key: str) -> None:
        """Remove that one entry (META-03); a missing key is a silent no-op (META-11)."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        """Apply puts and dels in order, across namespaces (COMMIT-01, COMMIT-02, COMMIT-03).

        Under ``metadata_atomicity='atomic'`` a batch applies whole or not at all, whatever
        error makes it raise, and no reader sees part of it (COMMIT-04, COMMIT-05); a put of
        data JSON cannot hold is refused (META-08), and the ordered tier checks every payload
        before writing (COMMIT-07). A del removes even an unreadable entry (COMMIT-06).
        """


class FullMemoryService(MemoryService, Protocol):
    """A backend that implements every optional method too (the reference drivers do)."""

    async def clear_all(self) -> None:
        """Remove every message of every session, archived ones too, and never the metadata
        (CLEAR-03, CLEAR-04)."""

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        """The newest ``limit`` messages, archived ones included, ascending; here control records
        count toward the limit (FULL-01, FULL-02). Defaults to ``DEFAULT_FULL_HISTORY_LIMIT``
        (LIM-05)."""

    async def count_history(self, session_id: str) -> int:
        """The number of active conversation messages: the non-control part of
        ``get_history(session_id, inf)`` (COUNT-01)."""

    async def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        """Messages with ``from_ts <= timestamp <= to_ts``, archived ones included, ascending,
        cut silently at the backend's ``range_query_limit`` keeping the earliest (RANGE-01..03).
        ``roles`` is a whitelist; ``exclude_kinds`` keeps kind-less messages (RANGE-04)."""

    async def get_recent_messages_across_sessions(
        self, query: RecentMessagesAcrossSessionsQuery
    ) -> list[RecentMessageRecord]:
        """The newest ``query.limit`` active messages of all sessions, ascending, each with its
        session id, never more than ``cross_session_max_limit`` (CROSS-01, CROSS-02, LIM-04);
        the filters are CROSS-03..CROSS-05."""

    async def list_metadata_keys(self, namespace: str) -> list[str]:
        """Every key of the namespace, unreadable entries included (META-10)."""

    async def update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int:
        """Replace every occurrence of ``old_text`` in the string content of the newest
        ``recent_limit`` active messages (default ``DEFAULT_UPDATE_RECENT_LIMIT``); return how
        many messages changed
        (UPD-01, UPD-02, LIM-03). Timestamps never change (UPD-04); an empty ``old_text``
        raises ``ValueError`` (UPD-03)."""

    async def delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        """Delete the session's messages, active or archived, whose timestamp is listed, and
        return how many (DEL-01, DEL-02, TS-03); other sessions are untouched (MSG-06)."""
