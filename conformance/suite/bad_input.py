"""Bad timestamps, sizes and text (INPUT-01..07): one documented behaviour per class of input.

Each refused call must raise the rule's error and leave the store as it was; input the rules
accept must round-trip exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.differences import same_records
from aalis_memory.conformance.registration.transport import transport_of
from aalis_memory.conformance.rules.verdict import Verdict, skip
from aalis_memory.conformance.steps import stands_on
from aalis_memory.conformance.suite._builders import msg, save_all
from aalis_memory.conformance.suite._robustness import (
    Call,
    Case,
    available,
    expect_refused,
    expect_unchanged,
    outcome,
    shown,
    snapshot,
)
from aalis_memory.service import MemoryService
from aalis_memory.types import Message, MetadataPut, RecentMessagesAcrossSessionsQuery

SESSION = "s-input"
NAMESPACE = "ns-input"
SESSIONS: Final = (SESSION, "s-input-other")
NAMESPACES: Final = (NAMESPACE,)
HUGE: Final = 2**70


async def _seed(memory: MemoryService) -> None:
    # A message at 0 ms and one at 1 ms: what False and True would address if taken as numbers.
    await save_all(memory, SESSION, [msg("at-0", 0), msg("at-1", 1), msg("at-1000", 1000)])
    await memory.save_metadata(NAMESPACE, "k", {"v": 1})


def _q(**fields: Any) -> RecentMessagesAcrossSessionsQuery:
    return RecentMessagesAcrossSessionsQuery(limit=10, **fields)


def _timestamp_cases(bad: object, name: str) -> list[Case]:
    return [
        Case(
            f"save_message(s, msg at {name})",
            lambda m: m.save_message(SESSION, Message(role="user", content="x", timestamp=bad)),  # type: ignore[arg-type]
        ),
        Case(
            f"get_messages_by_session_range(s, {name}, 10**6)",
            lambda m: m.get_messages_by_session_range(SESSION, bad, 10**6),
            "get_messages_by_session_range",
        ),
        Case(
            f"get_messages_by_session_range(s, 0, {name})",
            lambda m: m.get_messages_by_session_range(SESSION, 0, bad),
            "get_messages_by_session_range",
        ),
        Case(
            f"get_recent_messages_across_sessions(since_ts={name})",
            lambda m: m.get_recent_messages_across_sessions(_q(since_ts=bad)),
            "get_recent_messages_across_sessions",
        ),
        Case(
            f"delete_messages_by_timestamps(s, [{name}])",
            lambda m: m.delete_messages_by_timestamps(SESSION, [bad]),
            "delete_messages_by_timestamps",
        ),
        Case(
            f"delete_messages_by_timestamps(s, [1000, {name}])",
            lambda m: m.delete_messages_by_timestamps(SESSION, [1000, bad]),
            "delete_messages_by_timestamps",
        ),
    ]


@pytest.mark.aalis_spec("INPUT-01")
async def test_bool_timestamps_raise_type_error_and_change_nothing(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await _seed(aalis_memory)
    cases = available(aalis_memory, _timestamp_cases(True, "True") + _timestamp_cases(False, "False"))
    await expect_refused(aalis_memory, aalis_check, cases, (TypeError,))
    await expect_unchanged(aalis_memory, aalis_check, cases, SESSIONS, NAMESPACES)


def _content(item: Any) -> Any:
    """The content of a message or of a cross-session record's message."""
    message: Any = getattr(item, "message", item)
    return message.content


def _save_at(timestamp: float) -> Call:
    return lambda m: m.save_message(SESSION, Message(role="user", content="x", timestamp=timestamp))


@pytest.mark.aalis_spec("INPUT-02")
async def test_nan_and_infinite_message_timestamps_raise_value_error(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await _seed(aalis_memory)
    cases = _timestamp_cases(math.nan, "nan")
    cases += [
        Case(f"save_message(s, msg at {name})", _save_at(value))
        for value, name in ((math.inf, "inf"), (-math.inf, "-inf"))
    ]
    cases = available(aalis_memory, cases)
    await expect_refused(aalis_memory, aalis_check, cases, (ValueError,))
    await expect_unchanged(aalis_memory, aalis_check, cases, SESSIONS, NAMESPACES)


@pytest.mark.aalis_spec("INPUT-02")
async def test_infinite_bounds_are_unbounded(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await _seed(aalis_memory)
    every = ["at-0", "at-1", "at-1000"]
    cases = [
        (
            Case(
                "get_messages_by_session_range(s, -inf, inf)",
                lambda m: m.get_messages_by_session_range(SESSION, -math.inf, math.inf),
                "get_messages_by_session_range",
            ),
            every,
        ),
        (
            Case(
                "get_recent_messages_across_sessions(since_ts=-inf)",
                lambda m: m.get_recent_messages_across_sessions(_q(since_ts=-math.inf)),
                "get_recent_messages_across_sessions",
            ),
            every,
        ),
        (
            Case(
                "delete_messages_by_timestamps(s, [inf, -inf])",
                lambda m: m.delete_messages_by_timestamps(SESSION, [math.inf, -math.inf]),
                "delete_messages_by_timestamps",
            ),
            0,
        ),
    ]
    cases = [(case, wanted) for case, wanted in cases if available(aalis_memory, [case])]
    failures: list[str] = []
    for case, wanted in cases:
        result = await outcome(case.call, aalis_memory)
        value: Any = result[1]
        if result[0] == "returned" and isinstance(value, list):
            value = [_content(item) for item in value]
        unbounded = value == wanted or (
            isinstance(wanted, list) and isinstance(value, list) and same_records(value, wanted)
        )  # the order is not this rule's
        if result[0] != "returned" or not unbounded:
            failures.append(f"{case.label}: expected {wanted!r}, {shown(result)}")
    aalis_check.no_failures("calls with infinite bounds were not unbounded", failures, len(cases))


@pytest.mark.aalis_spec("INPUT-03")
async def test_integers_past_64_bits_raise_value_error_and_change_nothing(
    aalis_memory: MemoryService,
    aalis_check: Check,
) -> None:
    transport = transport_of(aalis_memory)
    if transport is not None and not transport.carries_integer(HUGE):
        skip(
            Verdict.UNVERIFIED,
            transport.cannot(
                f"integers past 64 bits (its numbers hold integers up to {transport.safe_integer}; "
                "a caller's 2**70 is a double, which the contract takes as a timestamp)"
            ),
        )
    await _seed(aalis_memory)
    cases = available(
        aalis_memory,
        [
            case
            for value, name in (
                (HUGE, "2**70"),
                (-HUGE, "-2**70"),
                # One past each end of the signed 64-bit range.
                (2**63, "2**63"),
                (-(2**63) - 1, "-2**63-1"),
            )
            for case in _timestamp_cases(value, name)
        ],
    )
    await expect_refused(aalis_memory, aalis_check, cases, (ValueError,))
    await expect_unchanged(aalis_memory, aalis_check, cases, SESSIONS, NAMESPACES)


LONE: Final = "\ud800"


@pytest.mark.aalis_spec("INPUT-04")
async def test_lone_surrogates_raise_value_error_and_store_nothing(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await _seed(aalis_memory)
    cases = [
        Case(
            "save_message(s, content with a lone surrogate)",
            lambda m: m.save_message(SESSION, msg(f"bad {LONE} text", 2000)),
        ),
        Case(
            "save_message(s, metadata value with a lone surrogate)",
            lambda m: m.save_message(SESSION, msg("ok", 2000, metadata={"note": LONE})),
        ),
        Case(
            "save_message(session id with a lone surrogate, msg)",
            lambda m: m.save_message(f"s-{LONE}", msg("ok", 2000)),
        ),
        Case(
            "save_metadata(ns, k, value with a lone surrogate)",
            lambda m: m.save_metadata(NAMESPACE, "k2", {"v": LONE}),
        ),
        Case(
            "save_metadata(ns, k, key with a lone surrogate)",
            lambda m: m.save_metadata(NAMESPACE, "k2", {LONE: 1}),
        ),
        Case(
            "save_metadata(ns, key with a lone surrogate, ...)",
            lambda m: m.save_metadata(NAMESPACE, f"k-{LONE}", {"v": 1}),
        ),
        Case(
            "commit_metadata([put ok, put with a lone surrogate])",
            lambda m: m.commit_metadata(
                [MetadataPut(NAMESPACE, "k3", {"v": 1}), MetadataPut(NAMESPACE, "k4", {"v": LONE})]
            ),
        ),
        Case(
            "update_message_content(s, 'at', lone surrogate)",
            lambda m: m.update_message_content(SESSION, "at", LONE),
            "update_message_content",
        ),
    ]
    cases = available(aalis_memory, cases)
    await expect_refused(aalis_memory, aalis_check, cases, (ValueError,))
    await expect_unchanged(aalis_memory, aalis_check, cases, SESSIONS, NAMESPACES)


@pytest.mark.aalis_spec("INPUT-05")
async def test_nul_characters_round_trip(aalis_memory: MemoryService, aalis_check: Check) -> None:
    session, cut = "s-nul\x00tail", "s-nul"
    message = msg("before\x00after", 3000, metadata={"k\x00ey": "v\x00al"})
    await aalis_memory.save_message(session, message)
    await aalis_memory.save_message(cut, msg("other", 3001))
    await aalis_memory.save_metadata("ns\x00x", "k\x00y", {"a\x00b": ["c\x00d"]})
    await aalis_memory.save_metadata("ns", "k", {"v": "plain"})
    # the fields the NULs are in (the others' round trip is MSG-02's)
    aalis_check.equal(
        "(content, metadata) of get_history('s-nul\\x00tail')",
        [(m.content, m.metadata) for m in await aalis_memory.get_history(session, 10_000)],
        [(message.content, message.metadata)],
    )
    aalis_check.equal(
        "get_history('s-nul') (a session id cut at NUL would match)",
        [m.content for m in await aalis_memory.get_history(cut, 10_000)],
        ["other"],
    )
    aalis_check.equal(
        "get_metadata('ns\\x00x', 'k\\x00y')",
        await aalis_memory.get_metadata("ns\x00x", "k\x00y"),
        {"a\x00b": ["c\x00d"]},
    )
    stands_on("META-02")  # a listing that reaches into other namespaces is META-02's, NUL or not
    aalis_check.equal(
        "list_metadata('ns')",
        [(e.key, e.data) for e in await aalis_memory.list_metadata("ns")],
        [("k", {"v": "plain"})],
    )


#: Larger than any backend is required to store (MongoDB: 16 MiB per document).
BIG: Final = 20 * 1024 * 1024


@pytest.mark.aalis_spec("INPUT-06")
async def test_oversized_documents_round_trip_or_raise_value_error(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await _seed(aalis_memory)
    text = "x" * BIG
    checks: dict[str, tuple[Call, Call, Callable[[Any], bool]]] = {
        "save_message(s, 20 MB content)": (
            lambda m: m.save_message(SESSION, msg(text, 5000)),
            lambda m: m.get_history(SESSION, 1),
            lambda got: [x.content for x in got] == [text],
        ),
        "save_metadata(ns, big, 20 MB value)": (
            lambda m: m.save_metadata(NAMESPACE, "big", {"v": text}),
            lambda m: m.get_metadata(NAMESPACE, "big"),
            lambda got: got == {"v": text},
        ),
    }
    failures: list[str] = []
    for label, (write, read, same) in checks.items():
        before = await snapshot(aalis_memory, SESSIONS, NAMESPACES)
        result = await outcome(write, aalis_memory)
        if result[0] == "raised":
            if not isinstance(result[1], ValueError):
                failures.append(f"{label}: expected success or ValueError, {shown(result)}")
            if await snapshot(aalis_memory, SESSIONS, NAMESPACES) != before:
                failures.append(f"{label}: refused ({shown(result)}) but the store changed")
        elif not same(await read(aalis_memory)):
            failures.append(f"{label}: accepted, but it does not read back whole")
    aalis_check.no_failures(
        "oversized writes neither round-tripped nor raised ValueError", failures, len(checks)
    )


def _nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {"leaf": True}
    for level in range(depth - 1):
        value = {"l": [value] if level % 2 else value}
    return value


@pytest.mark.aalis_spec("INPUT-07")
async def test_moderate_nesting_round_trips_and_deep_nesting_raises_value_error(
    aalis_memory: MemoryService,
    aalis_check: Check,
) -> None:
    await _seed(aalis_memory)
    moderate = _nested(20)
    await aalis_memory.save_metadata(NAMESPACE, "nested", moderate)
    aalis_check.equal(
        "get_metadata of a payload nested 20 levels",
        await aalis_memory.get_metadata(NAMESPACE, "nested"),
        moderate,
    )
    nested_message = msg("nested", 4000, metadata={"deep": _nested(18)})
    await aalis_memory.save_message("s-nested", nested_message)
    aalis_check.equal(
        "metadata of get_history of a message whose metadata is nested 18 levels",
        [m.metadata for m in await aalis_memory.get_history("s-nested", 10_000)],
        [nested_message.metadata],
    )
    deep = _nested(5000)
    cases = [
        Case("save_metadata(ns, k, nested 5000 levels)", lambda m: m.save_metadata(NAMESPACE, "deep", deep)),
        Case(
            "commit_metadata([put ok, put nested 5000 levels])",
            lambda m: m.commit_metadata(
                [MetadataPut(NAMESPACE, "k5", {"v": 1}), MetadataPut(NAMESPACE, "deep", deep)]
            ),
        ),
        Case(
            "save_message(s, msg with metadata nested 5000 levels)",
            lambda m: m.save_message(SESSION, msg("deep", 6000, metadata={"deep": deep})),
        ),
    ]
    await expect_refused(aalis_memory, aalis_check, cases, (ValueError,))
    await expect_unchanged(aalis_memory, aalis_check, cases, SESSIONS, NAMESPACES)
