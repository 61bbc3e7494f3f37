"""Saving and reading messages: session isolation, field round-trips, kinds, timestamps, unknown
sessions (api-memory §概述 and §核心方法)."""

from __future__ import annotations

import time

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.checks import contents
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.suite._builders import marker, msg, save_all, timeline, turn
from aalis_memory.conformance.suite._reads import ALL, active, everything
from aalis_memory.service import FullMemoryService, MemoryService
from aalis_memory.types import Message, RecentMessagesAcrossSessionsQuery

SESSION = "s-msg"
UNKNOWN = "s-never-written"


def _epoch_ms() -> int:
    return time.time_ns() // 1_000_000


# -- MSG-01 ---------------------------------------------------------------------------------------


@pytest.mark.aalis_spec("MSG-01")
async def test_sessions_do_not_share_history(aalis_memory: MemoryService, aalis_check: Check) -> None:
    # Ids that differ only in case or by a trailing space are still different sessions.
    await save_all(aalis_memory, "chat-A", timeline("A1", "A2"))
    await save_all(aalis_memory, "chat-a", timeline("a1", "a2", "a3"))
    await save_all(aalis_memory, "chat-a ", timeline("s1"))
    aalis_check.equal("get_history(chat-A)", await active(aalis_memory, "chat-A"), ["A1", "A2"])
    aalis_check.equal("get_history(chat-a)", await active(aalis_memory, "chat-a"), ["a1", "a2", "a3"])
    aalis_check.equal("get_history('chat-a ')", await active(aalis_memory, "chat-a "), ["s1"])


@pytest.mark.aalis_spec("MSG-01")
async def test_archive_stays_in_its_session(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, "chat-a", timeline("a1", "a2", "a3"))
    await save_all(aalis_memory, "chat-A", timeline("A1", "A2", start_ts=2000))
    aalis_check.equal("archive_span(chat-A, 2)", await aalis_memory.archive_span("chat-A", 2), 2)
    aalis_check.equal(
        "get_history(chat-a) after archiving chat-A",
        await active(aalis_memory, "chat-a"),
        ["a1", "a2", "a3"],
    )


# -- MSG-02 ---------------------------------------------------------------------------------------

FULL = Message(
    role="assistant",
    content="here is the picture 🖼",
    tool_calls=(
        {
            "id": "call_1",
            "type": "function",
            "function": {"name": "draw", "arguments": '{"w": 2, "tag": "猫"}'},
        },
    ),
    tool_call_id="call_0",
    name="aalis",
    kind="outbound-image",
    timestamp=1_700_000_000_123,
    reasoning_content="thinking about cats",
    segments=(
        {"type": "reasoning_text", "content": "hmm"},
        {"type": "tool_call", "name": "draw", "args": {"w": 2}, "result": "ok", "startTime": 1, "endTime": 2},
        {"type": "text", "content": "here"},
    ),
    images=("https://example.org/a.png", "data:image/png;base64,AAAA"),
    audios=("https://example.org/a.ogg",),
    metadata={"platform": "qq", "nested": {"list": [1, 2.5, None, True], "ünï": "码"}},
)

BARE = Message(role="user", content="hi", timestamp=1_700_000_000_200)
NULL_CONTENT = Message(role="tool", content=None, tool_call_id="call_1", timestamp=1_700_000_000_300)
NULL_REASONING = Message(role="assistant", content="", reasoning_content=None, timestamp=1_700_000_000_400)


def _expect_kinds(check: Check, call: str, got: list[Message], saved: list[Message]) -> None:
    """Every message that came back has the kind it was saved with (MSG-05, stated); which
    messages come back, and their other fields, are other rules' (MSG-02 is a reading)."""
    saved_kinds = {(m.timestamp, m.content): m.kind for m in saved}
    pairs = [
        (m.content, m.kind, saved_kinds[m.timestamp, m.content])
        for m in got
        if (m.timestamp, m.content) in saved_kinds
    ]
    check.equal(
        f"(content, kind) of {call}",
        [(c, k) for c, k, _ in pairs],
        [(c, kind) for c, _, kind in pairs],
    )


@pytest.mark.aalis_spec("MSG-05", "MSG-02")
async def test_every_field_round_trips(aalis_memory: MemoryService, aalis_checks: tuple[Check, ...]) -> None:
    kinds, round_trip = aalis_checks
    await save_all(aalis_memory, SESSION, [FULL, BARE, NULL_CONTENT, NULL_REASONING])
    got = await aalis_memory.get_history(SESSION, 10)
    _expect_kinds(kinds, "get_history(s, 10)", got, [FULL, BARE, NULL_CONTENT, NULL_REASONING])
    # a full message, one of only role, content and timestamp, content None, and empty content
    # with reasoning_content None
    round_trip.fields(
        "get_history(s, 10) read back",
        got,
        [FULL, BARE, NULL_CONTENT, NULL_REASONING],
        read_rule="HIST-05",
    )


@requires.get_full_history
@pytest.mark.aalis_spec("MSG-05", "MSG-02")
async def test_every_field_round_trips_through_archive(
    aalis_memory: FullMemoryService, aalis_checks: tuple[Check, ...]
) -> None:
    kinds, round_trip = aalis_checks
    await save_all(aalis_memory, SESSION, [FULL, BARE])
    await aalis_memory.archive_span(SESSION, 1)
    got = await aalis_memory.get_full_history(SESSION, 10)
    _expect_kinds(kinds, "get_full_history(s, 10) with the full message archived", got, [FULL, BARE])
    round_trip.fields(
        "get_full_history(s, 10) with the full message archived",
        got,
        [FULL, BARE],
        read_rule="FULL-01",
    )


# -- MSG-05 ---------------------------------------------------------------------------------------

KINDS = [
    msg("hi", 1000),
    marker("divider", 1010),
    msg("poke", 1020, kind="poke"),
    turn("turn record", 1030),
    msg("img", 1040, role="assistant", kind="outbound-image"),
    msg("bye", 1050, role="assistant", kind="cross-session-delegation"),
]


@pytest.mark.aalis_spec("MSG-05")
async def test_kinds_come_back_with_the_history(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, KINDS)
    _expect_kinds(aalis_check, "get_history(s, ALL)", await aalis_memory.get_history(SESSION, ALL), KINDS)
    _expect_kinds(
        aalis_check,
        "get_history(s, 2) (the marker in between comes back)",
        await aalis_memory.get_history(SESSION, 2),
        KINDS[3:],
    )


@requires.get_full_history
@pytest.mark.aalis_spec("MSG-05")
async def test_kinds_come_back_from_the_archive(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, KINDS)
    await aalis_memory.archive_span(SESSION, 4, [1])
    _expect_kinds(
        aalis_check,
        "get_full_history(s, ALL) after archiving four of six",
        await aalis_memory.get_full_history(SESSION, ALL),
        KINDS,
    )


@requires.get_messages_by_session_range
@pytest.mark.aalis_spec("MSG-05")
async def test_kinds_come_back_from_a_range_read(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, KINDS)
    _expect_kinds(
        aalis_check,
        "get_messages_by_session_range(s, 1000, 1050)",
        await aalis_memory.get_messages_by_session_range(SESSION, 1000, 1050),
        KINDS,
    )


# -- MSG-03 ---------------------------------------------------------------------------------------


@pytest.mark.aalis_spec("MSG-03")
async def test_missing_timestamp_is_stamped_at_save(aalis_memory: MemoryService, aalis_check: Check) -> None:
    before = _epoch_ms()
    await aalis_memory.save_message(SESSION, msg("now", None))
    after = _epoch_ms()
    first = await aalis_memory.get_history(SESSION, 10)
    again = await aalis_memory.get_history(SESSION, 10)
    stamp = first[0].timestamp if first else None
    aalis_check.that(
        isinstance(stamp, int) and before <= stamp <= after,
        f"timestamp of a message saved without one: expected integer epoch ms in "
        f"[{before}, {after}], got {stamp!r}",
    )
    aalis_check.equal("timestamp read a second time", again[0].timestamp, stamp)
    aalis_check.equal("content of the stamped message", contents(first), ["now"])


# -- MSG-04 ---------------------------------------------------------------------------------------


@pytest.mark.aalis_spec("MSG-04")
async def test_unknown_session_reads_empty(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, timeline("a"))
    aalis_check.equal("get_history(unknown)", await aalis_memory.get_history(UNKNOWN), [])
    aalis_check.equal("get_history(unknown, 5)", await aalis_memory.get_history(UNKNOWN, 5), [])
    aalis_check.equal("archive_span(unknown, 3)", await aalis_memory.archive_span(UNKNOWN, 3), 0)
    aalis_check.equal("get_history(unknown) after archive_span", await aalis_memory.get_history(UNKNOWN), [])
    await aalis_memory.clear_session(UNKNOWN)


@requires.count_history
@pytest.mark.aalis_spec("MSG-04")
async def test_unknown_session_counts_zero(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    aalis_check.equal("count_history(unknown)", await aalis_memory.count_history(UNKNOWN), 0)


@requires.get_full_history
@pytest.mark.aalis_spec("MSG-04")
async def test_unknown_session_full_history_is_empty(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    aalis_check.equal("get_full_history(unknown)", await everything(aalis_memory, UNKNOWN), [])


@requires.get_messages_by_session_range
@pytest.mark.aalis_spec("MSG-04")
async def test_unknown_session_range_is_empty(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    aalis_check.equal(
        "get_messages_by_session_range(unknown, 0, 10**12)",
        await aalis_memory.get_messages_by_session_range(UNKNOWN, 0, 10**12),
        [],
    )


@requires.update_message_content
@pytest.mark.aalis_spec("MSG-04")
async def test_unknown_session_update_changes_nothing(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    aalis_check.equal(
        "update_message_content(unknown, a, b)",
        await aalis_memory.update_message_content(UNKNOWN, "a", "b"),
        0,
    )


@requires.delete_messages_by_timestamps
@pytest.mark.aalis_spec("MSG-04")
async def test_unknown_session_delete_removes_nothing(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    aalis_check.equal(
        "delete_messages_by_timestamps(unknown, [1])",
        await aalis_memory.delete_messages_by_timestamps(UNKNOWN, [1]),
        0,
    )


@requires.get_recent_messages_across_sessions
@pytest.mark.aalis_spec("MSG-04")
async def test_empty_store_cross_session_read_is_empty(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    got = await aalis_memory.get_recent_messages_across_sessions(RecentMessagesAcrossSessionsQuery(limit=5))
    aalis_check.equal("cross-session read of an empty store", got, [])
