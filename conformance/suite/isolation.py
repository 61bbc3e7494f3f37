"""Messages are the store's own once saved and the caller's once read (ISO-01, ISO-02).

The metadata side has META-06; a message carries mutable dicts too (``metadata``, and the dicts
inside ``tool_calls`` and ``segments``), and an in-process driver that keeps or hands out
references lets a caller rewrite stored history without a single call.

Across a process boundary (a stdio adapter) every value is copied on the way, so changing what
the kit holds shows nothing: the adapter runs the change in its own process (its isolation
probe) and the kit judges the reads it reports; an adapter without the probe leaves both rules
``unverified``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.registration.transport import transport_of
from aalis_memory.conformance.rules.verdict import Verdict, skip
from aalis_memory.conformance.suite._reads import as_read
from aalis_memory.service import FullMemoryService, MemoryService
from aalis_memory.types import Message, RecentMessageRecord
from aalis_memory.types import RecentMessagesAcrossSessionsQuery as Query

SESSION = "s-iso"


def _message() -> Message:
    """A fresh message with every mutable part a caller can reach (role assistant, so the
    cross-session read's default roles include it)."""
    return Message(
        role="assistant",
        content="drawn",
        timestamp=1000,
        tool_calls=({"id": "call_1", "type": "function", "function": {"name": "draw", "arguments": "{}"}},),
        segments=({"type": "text", "content": "here", "meta": {"n": 1}},),
        metadata={"platform": "qq", "nested": {"tags": ["a"]}},
    )


def _messages() -> list[Message]:
    """:func:`_message`, then three messages with one mutable part each: a driver that copies
    only the messages it sees a given part in (say, only those with metadata) is caught too."""
    return [
        _message(),
        Message(
            role="assistant", content="only tool calls", timestamp=1001, tool_calls=_message().tool_calls
        ),
        Message(role="assistant", content="only segments", timestamp=1002, segments=_message().segments),
        Message(role="assistant", content="only metadata", timestamp=1003, metadata=_message().metadata),
    ]


async def _save_all(aalis_memory: MemoryService, messages: list[Message]) -> None:
    for message in messages:
        await aalis_memory.save_message(SESSION, message)


def _vandalize(message: Message) -> None:
    """Change every dict and list inside ``message`` (the Message itself is frozen)."""
    if message.metadata is not None:
        message.metadata["added"] = True
        nested = message.metadata.get("nested")
        if isinstance(nested, dict) and isinstance(nested.get("tags"), list):
            nested["tags"].append("mutated")
    for call in message.tool_calls or ():
        call["id"] = "mutated"
        if isinstance(call.get("function"), dict):
            call["function"]["name"] = "mutated"
    for segment in message.segments or ():
        segment["content"] = "mutated"
        if isinstance(segment.get("meta"), dict):
            segment["meta"]["n"] = 99


def _remote(aalis_memory: Any) -> Any:  # an adapter's probe is beyond the contract
    """The adapter's isolation probe when the store is in another process (``None``: the store
    is in this one); skips ``unverified`` when the adapter has none."""
    transport = transport_of(aalis_memory)
    if transport is None:
        return None
    if not getattr(aalis_memory, "isolation", False):
        skip(
            Verdict.UNVERIFIED,
            f"the store runs in another process ({transport.language}): "
            "changing the kit's copies of a message shows nothing, and the adapter runs no "
            "isolation probe to change its own",
        )
    return aalis_memory.isolation_probe


@pytest.mark.aalis_spec("ISO-01")
async def test_mutating_a_saved_message_changes_nothing_stored(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    probe = _remote(aalis_memory)
    if probe is not None:
        _again, history = await probe("saved", SESSION, _messages(), "get_history", SESSION, 10)
        aalis_check.equal(
            "get_history after the adapter mutated the metadata, tool_calls, "
            "segments and content of the Messages it passed to saveMessage",
            history,
            _messages(),
        )
        return
    passed = _messages()
    await _save_all(aalis_memory, passed)
    before = as_read(await aalis_memory.get_history(SESSION, 10))
    for message in passed:
        _vandalize(message)
    aalis_check.equal(
        "get_history after mutating the metadata, tool_calls and segments "
        "of the Messages passed to save_message, against get_history before",
        await aalis_memory.get_history(SESSION, 10),
        before,
    )


async def _read_then_vandalize(
    check: Check,
    aalis_memory: MemoryService,
    call: str,
    read: Callable[[], Awaitable[list[Any]]],
    expected: list[Any],
    method: str,
    *args: Any,
) -> None:
    probe = _remote(aalis_memory)
    if probe is not None:
        again, history = await probe("returned", SESSION, _messages(), method, *args)
        check.equal(
            f"{call} after the adapter mutated the messages an earlier {call} returned to it",
            again,
            expected,
        )
        check.equal(
            f"get_history after the adapter mutated the messages {call} returned to it",
            history,
            _messages(),
        )
        return
    await _save_all(aalis_memory, _messages())
    history = as_read(await aalis_memory.get_history(SESSION, 10))
    returned = await read()
    before = as_read(returned)
    for item in returned:
        _vandalize(item.message if isinstance(item, RecentMessageRecord) else item)
    check.equal(f"{call} after mutating the messages an earlier {call} returned", await read(), before)
    check.equal(
        f"get_history after mutating the messages {call} returned, against get_history before",
        await aalis_memory.get_history(SESSION, 10),
        history,
    )


@pytest.mark.aalis_spec("ISO-02")
async def test_history_read_is_the_callers_own(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await _read_then_vandalize(
        aalis_check,
        aalis_memory,
        "get_history(s, 10)",
        lambda: aalis_memory.get_history(SESSION, 10),
        _messages(),
        "get_history",
        SESSION,
        10,
    )


@requires.get_full_history
@pytest.mark.aalis_spec("ISO-02")
async def test_full_history_read_is_the_callers_own(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await _read_then_vandalize(
        aalis_check,
        aalis_memory,
        "get_full_history(s, 10)",
        lambda: aalis_memory.get_full_history(SESSION, 10),
        _messages(),
        "get_full_history",
        SESSION,
        10,
    )


@requires.get_messages_by_session_range
@pytest.mark.aalis_spec("ISO-02")
async def test_range_read_is_the_callers_own(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await _read_then_vandalize(
        aalis_check,
        aalis_memory,
        "get_messages_by_session_range(s, 0, 10**12)",
        lambda: aalis_memory.get_messages_by_session_range(SESSION, 0, 10**12),
        _messages(),
        "get_messages_by_session_range",
        SESSION,
        0,
        10**12,
    )


@requires.get_recent_messages_across_sessions
@pytest.mark.aalis_spec("ISO-02")
async def test_cross_session_read_is_the_callers_own(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await _read_then_vandalize(
        aalis_check,
        aalis_memory,
        "cross-session read with limit=5",
        lambda: aalis_memory.get_recent_messages_across_sessions(Query(limit=5)),
        [RecentMessageRecord(SESSION, message) for message in _messages()],
        "get_recent_messages_across_sessions",
        Query(limit=5),
    )
