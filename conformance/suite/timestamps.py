"""Timestamps 0, negative and fractional are ordinary numbers of epoch ms (TS-01..03; the
inclusive bounds at 0 are RANGE-02 and CROSS-05), and so are the ends of the 64-bit range
(TS-06); what is no number is refused by INPUT-01, INPUT-02, INPUT-03 and HOST-04.

Every other test uses positive integer timestamps, so a `ts || now` fallback, a falsy test of a
bound or an integer column would pass them all; these tests use nothing else.
"""

from __future__ import annotations

from typing import Any

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.checks import contents
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.registration.transport import transport_of
from aalis_memory.conformance.rules.verdict import Verdict, skip
from aalis_memory.conformance.steps import stands_on
from aalis_memory.conformance.suite._builders import save_all
from aalis_memory.conformance.suite._reads import records
from aalis_memory.service import FullMemoryService, MemoryService
from aalis_memory.types import Message
from aalis_memory.types import RecentMessagesAcrossSessionsQuery as Query

SESSION = "s-ts"

#: Ascending, so write order and timestamp order agree (the write-ordered tier sees the same).
ODD: tuple[tuple[str, int | float], ...] = (
    ("neg", -5),
    ("neg-frac", -0.25),
    ("zero", 0),
    ("frac", 1.5),
    ("big-frac", 1_700_000_000_000.5),
)

#: Written out of timestamp order on purpose (1.5 before 1.25: same integer part).
SCRAMBLED: tuple[tuple[str, int | float], ...] = (
    ("two", 2),
    ("f1.5", 1.5),
    ("zero", 0),
    ("f1.25", 1.25),
    ("neg", -1),
)
BY_VALUE = ["neg", "zero", "f1.25", "f1.5", "two"]

#: For the filters: ascending.
POINTS: tuple[tuple[str, int | float], ...] = (
    ("neg", -1),
    ("zero", 0),
    ("half", 0.5),
    ("f1.5", 1.5),
    ("two", 2),
)


#: For since_ts: none at 0 or at the other bounds used.
AROUND_ZERO: tuple[tuple[str, int | float], ...] = (
    ("neg", -1),
    ("-half", -0.5),
    ("half", 0.5),
    ("f1.5", 1.5),
)


def _messages(points: tuple[tuple[str, int | float], ...]) -> list[Message]:
    return [Message(role="user", content=name, timestamp=ts) for name, ts in points]


def _stamps(messages: list[Message]) -> list[tuple[str | None, Any]]:
    return [(m.content, m.timestamp) for m in messages]


def odd_stamps_kept() -> None:
    """The test saves messages at 0, below it or between milliseconds and judges how reads and
    filters order or pick them: that those messages kept their stamps is TS-01's."""
    stands_on("TS-01")


@pytest.mark.aalis_spec("TS-01")
async def test_odd_timestamps_read_back_exactly(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, _messages(ODD))
    aalis_check.equal(
        "(content, timestamp) of get_history after saving timestamps -5, -0.25, 0, 1.5, 1700000000000.5",
        _stamps(await aalis_memory.get_history(SESSION, 10)),
        list(ODD),
    )


@requires.get_messages_by_session_range
@pytest.mark.aalis_spec("TS-01")
async def test_odd_timestamps_read_back_exactly_from_a_range(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, _messages(ODD))
    aalis_check.equal(
        "(content, timestamp) of the range [-10, 2e12]",
        _stamps(await aalis_memory.get_messages_by_session_range(SESSION, -10, 2 * 10**12)),
        list(ODD),
    )


@requires.get_messages_by_session_range
@pytest.mark.aalis_spec("TS-02")
async def test_range_orders_odd_timestamps_by_value(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    odd_stamps_kept()
    await save_all(aalis_memory, SESSION, _messages(SCRAMBLED))
    aalis_check.equal(
        "range [-10, 10] written at 2, 1.5, 0, 1.25, -1",
        contents(await aalis_memory.get_messages_by_session_range(SESSION, -10, 10)),
        BY_VALUE,
    )


@requires.get_messages_by_session_range
@pytest.mark.aalis_spec("TS-03")
async def test_range_bounds_at_zero_and_fractions(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    """Bounds of 0 and fractions compare exactly: with no message on them, nothing more comes
    in; with messages on them, the rule's own cases: "the range [0, 0] returns exactly the
    messages at 0" and "fractional range bounds are inclusive" (one session throughout: which
    session a range reads is MSG-01's)."""
    odd_stamps_kept()
    await save_all(aalis_memory, SESSION, _messages(AROUND_ZERO))
    around_zero = "-1, -0.5, 0.5, 1.5"
    for bounds, expected in (
        ((0, 0), []),
        ((0, 1), ["half"]),
        ((-0.75, 0), ["-half"]),
        ((0.25, 0.75), ["half"]),
        ((-0.25, 0.25), []),
        ((0.5, 1.5), ["half", "f1.5"]),
    ):
        aalis_check.equal(
            f"range {list(bounds)} over timestamps {around_zero}",
            sorted(contents(await aalis_memory.get_messages_by_session_range(SESSION, *bounds))),
            sorted(expected),
        )
    await save_all(aalis_memory, SESSION, _messages((("zero", 0),)))
    aalis_check.equal(
        f"range [0, 0] over timestamps {around_zero} and 0",
        contents(await aalis_memory.get_messages_by_session_range(SESSION, 0, 0)),
        ["zero"],
    )


@requires.get_messages_by_session_range
@pytest.mark.aalis_spec("RANGE-02")
async def test_range_zero_to_zero_is_inclusive(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    """The rule is about the ends: the messages on them are in. That [0, 0] holds nothing else
    is TS-03's (a range bound of 0 is a bound)."""
    await save_all(aalis_memory, SESSION, _messages(POINTS))
    for bounds, ends in (((0, 0), ["zero"]), ((0.5, 1.5), ["half", "f1.5"])):
        got = contents(await aalis_memory.get_messages_by_session_range(SESSION, *bounds))
        aalis_check.that(
            all(end in got for end in ends),
            f"range {list(bounds)} over timestamps -1, 0, 0.5, 1.5, 2: expected the messages "
            f"on its ends {ends} in it, got {got}",
        )


@requires.get_recent_messages_across_sessions
@pytest.mark.aalis_spec("TS-03")
async def test_since_zero_and_fractional_since(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    odd_stamps_kept()
    # No message sits on a since_ts below: whether the bound is inclusive is CROSS-05's test.
    await save_all(aalis_memory, SESSION, _messages(AROUND_ZERO))
    for since, expected in ((0, ["half", "f1.5"]), (0.75, ["f1.5"]), (-0.75, ["-half", "half", "f1.5"])):
        got = await aalis_memory.get_recent_messages_across_sessions(Query(limit=10, since_ts=since))
        aalis_check.equal(
            f"cross-session read with since_ts={since} over timestamps -1, -0.5, 0.5, 1.5",
            records(got),
            [(SESSION, name) for name in expected],
        )


@requires.get_recent_messages_across_sessions
@pytest.mark.aalis_spec("TS-03")
async def test_since_zero_keeps_the_messages_at_zero(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    """The rule's own example: 0 is a bound, so the message on it stays. Without it a read that
    drops what sits on 0 (a falsy test, or a bound compared with ``>``) passed this rule."""
    odd_stamps_kept()
    await save_all(aalis_memory, SESSION, _messages(POINTS))
    got = await aalis_memory.get_recent_messages_across_sessions(Query(limit=10, since_ts=0))
    aalis_check.equal(
        "cross-session read with since_ts=0 over timestamps -1, 0, 0.5, 1.5, 2",
        records(got),
        [(SESSION, name) for name in ("zero", "half", "f1.5", "two")],
    )


@requires.get_recent_messages_across_sessions
@pytest.mark.aalis_spec("CROSS-05")
async def test_since_zero_is_inclusive(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    """since_ts keeps the message on it, 0 included. That since_ts=0 drops the negative ones is
    TS-03's (0 is a bound, not a missing one)."""
    await save_all(aalis_memory, SESSION, _messages(POINTS))
    got = records(await aalis_memory.get_recent_messages_across_sessions(Query(limit=10, since_ts=0)))
    aalis_check.that(
        all(
            kept in got
            for kept in [(SESSION, "zero"), (SESSION, "half"), (SESSION, "f1.5"), (SESSION, "two")]
        ),
        f"cross-session read with since_ts=0 over timestamps -1, 0, 0.5, 1.5, 2: expected 0 and "
        f"every later one in it, got {got}",
    )


@requires.delete_messages_by_timestamps
@pytest.mark.aalis_spec("TS-03")
async def test_delete_by_zero_and_fractional_timestamps(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    odd_stamps_kept()
    await save_all(aalis_memory, SESSION, _messages(POINTS))
    aalis_check.equal(
        "delete_messages_by_timestamps(s, [1.5, 0]) over -1, 0, 0.5, 1.5, 2",
        await aalis_memory.delete_messages_by_timestamps(SESSION, [1.5, 0]),
        2,
    )
    aalis_check.equal(
        "get_history after deleting the messages at 1.5 and 0",
        contents(await aalis_memory.get_history(SESSION, 10)),
        ["neg", "half", "two"],
    )
    aalis_check.equal(
        "delete_messages_by_timestamps(s, [1, 0.25]) (no message at either)",
        await aalis_memory.delete_messages_by_timestamps(SESSION, [1, 0.25]),
        0,
    )


#: The ends of the signed 64-bit range, an ordinary message, and the double next to the top
#: end (2.0**63, the value float(2**63 - 1) rounds to), ascending.
INT64_ENDS: tuple[tuple[str, int | float], ...] = (
    ("min", -(2**63)),
    ("zero", 0),
    ("max", 2**63 - 1),
    ("double", 2.0**63),
)


@pytest.mark.aalis_spec("TS-06")
async def test_ends_of_the_64_bit_range_are_ordinary_timestamps(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    odd_stamps_kept()
    transport = transport_of(aalis_memory)
    if transport is not None and not transport.carries_integer(2**63 - 1):
        skip(
            Verdict.UNVERIFIED,
            transport.cannot(
                f"2**63 - 1 (its numbers hold integers up to {transport.safe_integer}; the nearest "
                "double is 2**63, so no caller of this backend can pass the top end)"
            ),
        )
    await save_all(aalis_memory, SESSION, _messages(INT64_ENDS))
    aalis_check.equal(
        "(content, timestamp) of get_history after saving -2**63, 0, 2**63 - 1, 2.0**63",
        _stamps(await aalis_memory.get_history(SESSION, 10)),
        list(INT64_ENDS),
    )
    if callable(getattr(aalis_memory, "get_messages_by_session_range", None)):
        for name, ts in (("min", -(2**63)), ("max", 2**63 - 1)):
            aalis_check.equal(
                f"range [{ts}, {ts}]",
                _stamps(await aalis_memory.get_messages_by_session_range(SESSION, ts, ts)),
                [(name, ts)],
            )
    if callable(getattr(aalis_memory, "delete_messages_by_timestamps", None)):
        aalis_check.equal(
            "delete_messages_by_timestamps(s, [2**63 - 1, -2**63])",
            await aalis_memory.delete_messages_by_timestamps(SESSION, [2**63 - 1, -(2**63)]),
            2,
        )
        aalis_check.equal(
            "get_history after deleting the ends",
            contents(await aalis_memory.get_history(SESSION, 10)),
            ["zero", "double"],
        )
