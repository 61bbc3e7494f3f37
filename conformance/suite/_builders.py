"""Builders for suite data: short, explicit messages with readable contents."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from aalis_memory.service import MemoryService
from aalis_memory.types import Message

MARKER = "event-marker"


def msg(content: str, ts: int | None, role: str = "user", **fields: Any) -> Message:
    """A conversation message (no control kind)."""
    return Message(role=role, content=content, timestamp=ts, **fields)


#: The roles a control record may carry: it is told by its kind, never by its role.
CONTROL_ROLES = ("user", "assistant", "tool", "system")


def marker(content: str, ts: int | None, role: str = "system") -> Message:
    """A compression divider: a control record that takes a position but no limit slot."""
    return Message(role=role, content=content, timestamp=ts, kind=MARKER)


def turn(content: str, ts: int | None, role: str = "system") -> Message:
    """A turn record: an event marker too (CONTROL_KINDS is the one kind ``event-marker``), told
    apart from a divider only by what it says."""
    return Message(role=role, content=content, timestamp=ts, kind=MARKER)


async def save_all(memory: MemoryService, session_id: str, messages: Iterable[Message]) -> None:
    """Save in the given order (the write order)."""
    for message in messages:
        await memory.save_message(session_id, message)


#: Messages an order test writes in one millisecond: past ten, so a same-millisecond counter kept
#: as unpadded text (which sorts "10" before "9") shows, whatever it starts at.
CROWDED_MILLISECOND: Final = 12


def one_millisecond(prefix: str, ts: int) -> list[Message]:
    """:data:`CROWDED_MILLISECOND` user/assistant messages prefix0, prefix1, ..., all at ``ts``:
    their order is their write order alone."""
    return [
        msg(f"{prefix}{i}", ts, role="user" if i % 2 == 0 else "assistant")
        for i in range(CROWDED_MILLISECOND)
    ]


def conversation(prefix: str, count: int, start_ts: int = 1000, step: int = 10) -> list[Message]:
    """``count`` user/assistant messages named prefix0, prefix1, ... with growing timestamps."""
    return [
        msg(f"{prefix}{i}", start_ts + i * step, role="user" if i % 2 == 0 else "assistant")
        for i in range(count)
    ]


def timeline(*names: str, start_ts: int = 1000, step: int = 10) -> list[Message]:
    """Messages with growing timestamps, read from short names so a history fits on one line.

    ``"|d1"`` is a divider (event-marker) with content ``d1``, ``"#t1"`` a turn record with content
    ``t1``; any other name is a user message with that content. A ``:role`` suffix gives the
    record that role (markers are system messages, conversation is user messages otherwise):
    ``"|d1:tool"`` is a divider of role tool, ``"rules:system"`` a system-role conversation
    message.
    """
    out: list[Message] = []
    for index, spec in enumerate(names):
        ts = start_ts + index * step
        name, _, role = spec.partition(":")
        if name.startswith("|"):
            out.append(marker(name[1:], ts, role or "system"))
        elif name.startswith("#"):
            out.append(turn(name[1:], ts, role or "system"))
        else:
            out.append(msg(name, ts, role or "user"))
    return out
