"""The memory change events of api-memory §记忆变更事件, as the host event bus carries them.

Whoever changes stored messages after they were saved sends the notice, never the backend. In
this contract that party is the compression provider (it archives); the host hands it an
:class:`EventSink`, the kit a recording one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal, Protocol, TypeAlias

#: Messages of a session were deleted by timestamps (a rollback); sent by the checkpoint.
MESSAGES_DELETED: Final = "memory:messages-deleted"
#: Stored message content was rewritten (update_message_content); sent by the rewriting party.
MESSAGES_REWRITTEN: Final = "memory:messages-rewritten"
#: A session's history changed in structure; clients fetch a new snapshot.
HISTORY_CHANGED: Final = "history:changed"

MemoryEventName: TypeAlias = Literal[
    "memory:messages-deleted", "memory:messages-rewritten", "history:changed"
]
MEMORY_EVENTS: Final[tuple[MemoryEventName, ...]] = (
    MESSAGES_DELETED,
    MESSAGES_REWRITTEN,
    HISTORY_CHANGED,
)


class EventSink(Protocol):
    """Sends one event on the host bus: its name and its payload in the TypeScript shape
    (``{"sessionId": ...}``)."""

    def __call__(self, name: str, payload: Mapping[str, Any], /) -> None: ...


def history_changed(session_id: str) -> dict[str, str]:
    """The payload of ``history:changed``."""
    return {"sessionId": session_id}


__all__ = [
    "HISTORY_CHANGED",
    "MEMORY_EVENTS",
    "MESSAGES_DELETED",
    "MESSAGES_REWRITTEN",
    "EventSink",
    "MemoryEventName",
    "history_changed",
]
