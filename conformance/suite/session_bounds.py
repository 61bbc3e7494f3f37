"""A write that names one session leaves every other session as it was, active and archived.

clear_session and delete_messages_by_timestamps are MSG-06's (the methods it names); a save, an
archive or a content rewrite that reaches another session breaks MSG-01 (history is kept per
session, api-memory §概述). The other session holds active *and* archived messages with the same
timestamps and texts as the session written: a filter by timestamp or text alone, or one that
forgets the archive, reaches it. Each check compares the other session with itself as read just
before the write, so a read that is wrong on its own (another rule's failure) is not blamed here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.suite._builders import msg, save_all
from aalis_memory.conformance.suite._reads import ALL
from aalis_memory.service import FullMemoryService, MemoryService
from aalis_memory.types import Message

SESSION = "s-bound"
OTHER = "s-bound-other"


async def _snapshot(memory: MemoryService) -> tuple[list[Message], list[Message] | None]:
    """The other session's active history and, where the store has the read, its full one."""
    full = getattr(memory, "get_full_history", None)
    return (await memory.get_history(OTHER, ALL), await full(OTHER, ALL) if callable(full) else None)


async def _leaves_other_session(
    memory: MemoryService, check: Check, call: str, write: Callable[[], Awaitable[object]]
) -> None:
    """Fill both sessions (the other one with two archived messages), ``write`` to ``S``, then
    the other session must read as before, through get_history and get_full_history."""
    await save_all(
        memory, SESSION, [msg(f"cat {n}", ts) for n, ts in (("a", 100), ("b", 200), ("c", 300), ("d", 400))]
    )
    await save_all(
        memory, OTHER, [msg(f"cat {n}", ts) for n, ts in (("x", 100), ("y", 200), ("z", 300), ("w", 400))]
    )
    await memory.archive_span(OTHER, 2)
    active, full = await _snapshot(memory)
    await write()
    after_active, after_full = await _snapshot(memory)
    check.equal(f"get_history(other) after {call}", after_active, active)
    if full is not None:
        check.equal(f"get_full_history(other) (archived x, y included) after {call}", after_full, full)


@pytest.mark.aalis_spec("MSG-06")
async def test_clear_session_leaves_other_sessions_archive(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await _leaves_other_session(
        aalis_memory, aalis_check, "clear_session(s)", lambda: aalis_memory.clear_session(SESSION)
    )


@requires.delete_messages_by_timestamps
@pytest.mark.aalis_spec("MSG-06")
async def test_delete_by_timestamps_leaves_other_sessions_archive(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await _leaves_other_session(
        aalis_memory,
        aalis_check,
        "delete_messages_by_timestamps(s, [100, 200, 300, 400]) with the same timestamps in other",
        lambda: aalis_memory.delete_messages_by_timestamps(SESSION, [100, 200, 300, 400]),
    )


@pytest.mark.aalis_spec("MSG-01")
async def test_save_leaves_other_sessions(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await _leaves_other_session(
        aalis_memory,
        aalis_check,
        "save_message(s, cat e@300)",
        lambda: aalis_memory.save_message(SESSION, msg("cat e", 300)),
    )


@pytest.mark.aalis_spec("MSG-01")
async def test_archive_span_leaves_other_sessions(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await _leaves_other_session(
        aalis_memory, aalis_check, "archive_span(s, 3)", lambda: aalis_memory.archive_span(SESSION, 3)
    )


@requires.update_message_content
@pytest.mark.aalis_spec("MSG-01")
async def test_update_content_leaves_other_sessions(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await _leaves_other_session(
        aalis_memory,
        aalis_check,
        "update_message_content(s, cat, dog, 10) with cats in other",
        lambda: aalis_memory.update_message_content(SESSION, "cat", "dog", 10),
    )
