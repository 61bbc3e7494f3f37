"""The ``compression`` service of api-memory §压缩服务: its protocol, events and typed rejections.

A rejection names its reason as a class (and a stable ``reason`` string), so the session server
can word the notice without parsing messages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Final, Literal, Protocol, TypeAlias, runtime_checkable

import attrs

#: The progress event's name on the host event bus.
COMPRESSING_EVENT: Final = "session:compressing"

CompressingStatus: TypeAlias = Literal["start", "done", "error"]
#: The only reason ``compress`` takes; automatic runs are the provider's own business.
CompressReason: TypeAlias = Literal["manual"]


@attrs.frozen
class CompressingEvent:
    """``session:compressing {sessionId, status}``: sent only once a compression really started."""

    session_id: str
    status: CompressingStatus

    def to_json(self) -> dict[str, str]:
        return {"sessionId": self.session_id, "status": self.status}


CompressingListener: TypeAlias = Callable[[CompressingEvent], None]


@runtime_checkable
class CompressionService(Protocol):
    """What ``plugin-session-server`` and the usage UI call."""

    async def compress(self, session_id: str, reason: CompressReason = "manual") -> None:
        """Compress the whole active history; resolves once committed, else raises a
        :class:`CompressionError`. A history with no conversation is left alone and resolves."""
        ...

    def compress_at(self, session_id: str, platform: str | None = None) -> float | None:
        """The session's automatic line as a share of the window; ``None`` when it is 0."""
        ...

    def subscribe(self, listener: CompressingListener) -> Callable[[], None]:
        """Deliver ``session:compressing`` events to ``listener``; returns the unsubscriber."""
        ...


class CompressionError(Exception):
    """A compression that did not happen: nothing was archived (except on a backend whose
    archive_span may apply part of a span, when archive_span itself failed: ``CommitFailed``)."""

    reason: ClassVar[str] = "failed"

    def __init__(self, session_id: str, detail: str = "") -> None:
        self.session_id = session_id
        self.detail = detail
        text = f"compression of session {session_id!r} rejected: {self.reason}"
        super().__init__(f"{text} ({detail})" if detail else text)


class AlreadyCompressing(CompressionError):
    reason = "already-compressing"


class MemoryUnavailable(CompressionError):
    reason = "memory-unavailable"


class SummarizerUnavailable(CompressionError):
    reason = "summarizer-unavailable"


class HistoryUnreadable(CompressionError):
    """Reading the history failed before anything started."""

    reason = "history-unreadable"


class SummarizerFailed(CompressionError):
    """The summary model raised, or answered with no text or impossible picks."""

    reason = "summarizer-failed"


class HistoryCleared(CompressionError):
    reason = "history-cleared"


class HistoryChanged(CompressionError):
    """Messages before the split point changed while the summary was being written."""

    reason = "history-changed"


class CommitFailed(CompressionError):
    """Storing the summary or archiving failed; the previous summary was put back."""

    reason = "commit-failed"


__all__ = [
    "COMPRESSING_EVENT",
    "AlreadyCompressing",
    "CommitFailed",
    "CompressReason",
    "CompressingEvent",
    "CompressingListener",
    "CompressingStatus",
    "CompressionError",
    "CompressionService",
    "HistoryChanged",
    "HistoryCleared",
    "HistoryUnreadable",
    "MemoryUnavailable",
    "SummarizerFailed",
    "SummarizerUnavailable",
]
