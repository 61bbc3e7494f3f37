"""get_messages_by_session_range: the range cap of plugin-memory-mongodb §配置 (RANGE-01, binding
every backend with such a cap: a driver declaring ``range_cap=False`` has its tests excluded by
tier) and this project's reading of the rest (RANGE-02..04)."""

from __future__ import annotations

from typing import Any

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.checks import contents
from aalis_memory.conformance.registration.registry import DriverContext
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.suite._builders import (
    CROWDED_MILLISECOND,
    MARKER,
    conversation,
    msg,
    one_millisecond,
    save_all,
    timeline,
)
from aalis_memory.service import FullMemoryService

SESSION = "s-range"

pytestmark = requires.get_messages_by_session_range


def expect_capped(check: Check, cap: int, call: str, got: list[Any], available: int) -> None:
    """RANGE-01: exactly ``min(cap, available)`` messages; an empty or short answer fails too."""
    check.that(
        len(got) == min(cap, available),
        f"{call} over {available} matching messages with range_query_limit={cap} (the cap in "
        f"DriverContext): expected exactly {min(cap, available)}, got {len(got)}",
    )


@pytest.mark.aalis_spec("RANGE-01")
@requires.range_cap  # checked after the method (marks nearer the function come first)
@requires.get_messages_by_session_range
@pytest.mark.parametrize("extra", [5, 1, 0, -2])
async def test_range_is_cut_to_the_cap(
    aalis_memory: FullMemoryService, aalis_memory_ctx: DriverContext, extra: int, aalis_check: Check
) -> None:
    cap = aalis_memory_ctx.range_query_limit
    await save_all(aalis_memory, SESSION, conversation("m", cap + extra))
    got = await aalis_memory.get_messages_by_session_range(SESSION, 0, 10**12)
    expect_capped(aalis_check, cap, "get_messages_by_session_range(s, 0, 10**12)", got, cap + extra)


#: Each crowded range read's filters: roles, exclude_kinds, or both, each dropping the crowd.
CROWDED_FILTERS: tuple[tuple[list[str] | None, list[str] | None], ...] = (
    (["user", "assistant"], None),
    (None, [MARKER, "poke"]),
    (["user", "tool"], ["poke"]),
)


@pytest.mark.aalis_spec("RANGE-01")
@requires.range_cap  # checked after the method (marks nearer the function come first)
@requires.get_messages_by_session_range
async def test_range_cap_holds_when_filters_drop_a_crowd(
    aalis_memory: FullMemoryService, aalis_memory_ctx: DriverContext, aalis_check: Check
) -> None:
    """Many times the cap of earlier messages that the roles or exclude_kinds drop (tool pokes
    and system markers), then more matching messages than the cap: still exactly the cap (a
    read that fetches a multiple of the cap and filters afterwards returns fewer, down to
    none)."""
    cap = aalis_memory_ctx.range_query_limit
    crowd, talk = 5 * cap, 2 * cap + 2  # every filter keeps more than the cap of the talk
    await save_all(
        aalis_memory,
        SESSION,
        [
            *(msg(f"p{i}", 1000 + i, role="tool", kind="poke") for i in range(crowd)),
            *(msg(f"d{i}", 1000 + crowd + i, role="system", kind=MARKER) for i in range(crowd)),
            # A kind no read excludes: a read dropping kind-less messages breaks RANGE-04, not this.
            *(
                msg(f"m{i}", 5000 + i, role="user" if i % 2 else "assistant", kind="outbound-image")
                for i in range(talk)
            ),
        ],
    )
    for roles, exclude_kinds in CROWDED_FILTERS:
        got = await aalis_memory.get_messages_by_session_range(SESSION, 0, 10**12, roles, exclude_kinds)
        available = talk if roles != ["user", "tool"] else talk // 2
        expect_capped(
            aalis_check,
            cap,
            f"get_messages_by_session_range(s, 0, 10**12, {roles}, "
            f"{exclude_kinds}) after {2 * crowd} earlier messages they drop",
            got,
            available,
        )


@pytest.mark.aalis_spec("RANGE-02")
async def test_range_bounds_are_inclusive(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, [msg("a", 100), msg("b", 200), msg("c", 300), msg("d", 400)])
    aalis_check.equal(
        "range [200, 300]",
        contents(await aalis_memory.get_messages_by_session_range(SESSION, 200, 300)),
        ["b", "c"],
    )
    aalis_check.equal(
        "range [201, 299]",
        contents(await aalis_memory.get_messages_by_session_range(SESSION, 201, 299)),
        [],
    )
    aalis_check.equal(
        "range [400, 400]",
        contents(await aalis_memory.get_messages_by_session_range(SESSION, 400, 400)),
        ["d"],
    )


@pytest.mark.aalis_spec("RANGE-02")
async def test_range_includes_archived(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, [msg("a", 100), msg("b", 200), msg("c", 300), msg("d", 400)])
    await aalis_memory.archive_span(SESSION, 2)
    aalis_check.equal(
        "range [100, 300] after archiving a and b",
        contents(await aalis_memory.get_messages_by_session_range(SESSION, 100, 300)),
        ["a", "b", "c"],
    )


@pytest.mark.aalis_spec("MSG-01")
async def test_range_stays_in_its_session(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, [msg("a", 100), msg("b", 200)])
    await save_all(aalis_memory, "s-range-other", [msg("x", 150)])
    aalis_check.equal(
        "range [0, 1000] of s",
        contents(await aalis_memory.get_messages_by_session_range(SESSION, 0, 1000)),
        ["a", "b"],
    )


@pytest.mark.aalis_spec("RANGE-03")
async def test_range_is_ascending_by_timestamp(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, [msg("c", 300), msg("a", 100), msg("b1", 200), msg("b2", 200)])
    aalis_check.equal(
        "range [0, 1000] written c@300, a@100, b1@200, b2@200",
        contents(await aalis_memory.get_messages_by_session_range(SESSION, 0, 1000)),
        ["a", "b1", "b2", "c"],
    )
    # Twelve writes in one millisecond: more than a small range cap, which then keeps the
    # earliest of them (this rule too); how many come back is RANGE-01's, so the order is judged
    # on what came back. The same session, away from the others.
    await save_all(aalis_memory, SESSION, one_millisecond("t", 2000))
    got = contents(await aalis_memory.get_messages_by_session_range(SESSION, 1500, 2500))
    in_write_order = [f"t{i}" for i in range(CROWDED_MILLISECOND)][: len(got)]
    aalis_check.that(
        got == in_write_order,
        f"range [1500, 2500] over t0..t{CROWDED_MILLISECOND - 1}, written in that order all at "
        f"2000 ms: expected the earliest {len(got)} in write order, {in_write_order}, got {got}",
    )


@pytest.mark.aalis_spec("RANGE-03", "RANGE-01")
@requires.range_cap  # checked after the method (marks nearer the function come first)
@requires.get_messages_by_session_range
async def test_range_truncation_keeps_the_earliest(
    aalis_memory: FullMemoryService, aalis_memory_ctx: DriverContext, aalis_checks: tuple[Check, ...]
) -> None:
    """How many come back is the cap's rule (``capped``); which ones, the order's (``earliest``)."""
    earliest, capped = aalis_checks
    cap = aalis_memory_ctx.range_query_limit
    await save_all(aalis_memory, SESSION, conversation("m", cap + 5))
    for start, first in ((0, 0), (1030, 3)):
        got = await aalis_memory.get_messages_by_session_range(SESSION, start, 10**12)
        call = f"get_messages_by_session_range(s, {start}, 10**12)"
        expect_capped(capped, cap, call, got, cap + 5 - first)
        earliest.equal(
            f"{call} over {cap + 5} messages, range_query_limit={cap}",
            contents(got),
            [f"m{i}" for i in range(first, first + cap)],
        )


@pytest.mark.aalis_spec("RANGE-04")
async def test_range_roles_whitelist(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(
        aalis_memory,
        SESSION,
        [
            msg("u1", 100),
            msg("a1", 200, role="assistant"),
            msg("t1", 300, role="tool"),
            msg("n1", 400, role="notice"),
            msg("u2", 500),
        ],
    )
    aalis_check.equal(
        "range [0, 1000] roles=['user']",
        contents(await aalis_memory.get_messages_by_session_range(SESSION, 0, 1000, ["user"])),
        ["u1", "u2"],
    )
    aalis_check.equal(
        "range [0, 1000] roles=['tool', 'notice']",
        contents(await aalis_memory.get_messages_by_session_range(SESSION, 0, 1000, ["tool", "notice"])),
        ["t1", "n1"],
    )
    aalis_check.equal(
        "range [0, 1000] roles=None",
        contents(await aalis_memory.get_messages_by_session_range(SESSION, 0, 1000, None)),
        ["u1", "a1", "t1", "n1", "u2"],
    )


@pytest.mark.aalis_spec("RANGE-04")
async def test_range_exclude_kinds_keeps_kindless(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(
        aalis_memory,
        SESSION,
        [
            *timeline("a", "|d1", "#t1"),
            msg("poke", 2000, kind="poke"),
            msg("b", 2010),
        ],
    )
    got = await aalis_memory.get_messages_by_session_range(SESSION, 0, 10**6, None, [MARKER, "poke"])
    aalis_check.equal("range exclude_kinds=['event-marker', 'poke']", contents(got), ["a", "b"])
    got = await aalis_memory.get_messages_by_session_range(SESSION, 0, 10**6, ["user"], [MARKER])
    aalis_check.equal(
        "range roles=['user'] exclude_kinds=['event-marker']", contents(got), ["a", "poke", "b"]
    )
