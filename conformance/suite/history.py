"""get_history, count_history and get_full_history (api-memory §核心方法)."""

from __future__ import annotations

import math

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.checks import contents
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.steps import Blocked, confirmed
from aalis_memory.conformance.suite._builders import (
    CROWDED_MILLISECOND,
    conversation,
    marker,
    msg,
    one_millisecond,
    save_all,
    timeline,
)
from aalis_memory.conformance.suite._reads import ALL, active, everything, witness
from aalis_memory.service import FullMemoryService, MemoryService
from aalis_memory.types import Message

SESSION = "s-hist"
#: A second session, no prefix of S nor S of it: the same conversation without control records.
PLAIN = "s-talk"


# -- the limit rule on get_history / get_full_history -----------------------------------------


@pytest.mark.aalis_spec("LIM-01")
async def test_history_limit_zero_is_empty(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "|d1", "b"))
    aalis_check.equal("get_history(s, 0)", contents(await aalis_memory.get_history(SESSION, 0)), [])


@pytest.mark.aalis_spec("LIM-01")
async def test_history_limit_zero_is_empty_with_markers_only(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, timeline("|d1", "#t1"))
    aalis_check.equal(
        "get_history(s, 0) over [d1, t1]", contents(await aalis_memory.get_history(SESSION, 0)), []
    )


@pytest.mark.aalis_spec("LIM-02")
async def test_history_limit_inf_is_everything(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, conversation("m", 60))
    got = contents(await aalis_memory.get_history(SESSION, math.inf))
    aalis_check.equal("get_history(s, inf) over m0..m59", got, [f"m{i}" for i in range(60)])


@requires.get_full_history
@pytest.mark.aalis_spec("LIM-01")
async def test_full_history_limit_zero_is_empty(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "|d1", "b"))
    await aalis_memory.archive_span(SESSION, 1)
    got = contents(await aalis_memory.get_full_history(SESSION, 0))
    aalis_check.equal("get_full_history(s, 0)", got, [])


@requires.get_full_history
@pytest.mark.aalis_spec("LIM-02")
async def test_full_history_limit_inf_is_everything(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, conversation("m", 210))
    got = contents(await aalis_memory.get_full_history(SESSION, math.inf))
    aalis_check.equal("get_full_history(s, inf) over m0..m209", got, [f"m{i}" for i in range(210)])


# -- get_history ----------------------------------------------------------------------------


async def _witness_count(memory: FullMemoryService) -> int | None:
    """count_history as a witness, or None without one (or when it raises)."""
    if not callable(getattr(memory, "count_history", None)):
        return None
    found = await witness(lambda: memory.count_history(SESSION))
    return found if isinstance(found, int) else None


@pytest.mark.aalis_spec("HIST-01")
async def test_history_leaves_out_archived(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    """The rule asks only that archived messages stay out: which active ones come back, and in
    what order, is HIST-02..05's (a driver dropping the leading divider d1 breaks HIST-05).

    The check stands on archive_span having archived [a, b, c] (ARCH-01), which a driver can only
    show through get_history itself. count_history, where there is one, is a third read: when it
    says one conversation message is active, the archive is confirmed and a history that lets
    archived messages in fails this rule alone; when it agrees with the history read on another
    number, both reads see the same wrong archive, and the test is blocked by ARCH-01."""
    await save_all(aalis_memory, SESSION, timeline("a", "b", "c", "|d1", "d"))
    await aalis_memory.archive_span(SESSION, 3)
    witness = await _witness_count(aalis_memory)
    if witness == 1:
        confirmed("ARCH-01")
    for limit in (ALL, 10, 1):
        read = await aalis_memory.get_history(SESSION, limit)
        got = contents(read)
        leaked = [c for c in got if c in ("a", "b", "c")]
        if (
            leaked
            and limit == ALL
            and witness not in (None, 1)
            and witness == sum(not m.is_control for m in read)
        ):
            raise Blocked(
                "ARCH-01",
                "archive_span(s, 3) of [a, b, c, d1, d]",
                f"left {got} active, as count_history ({witness}) agrees: it archived "
                "other messages than [a, b, c]",
            )
        aalis_check.equal(
            f"archived messages in get_history(s, {limit}) after archiving "
            f"[a, b, c] of [a, b, c, d1, d] (it returned {got})",
            leaked,
            [],
        )
    aalis_check.that(
        "d" in contents(await aalis_memory.get_history(SESSION, 10)),
        "get_history(s, 10) after archiving [a, b, c] of [a, b, c, d1, d] left out the active message d",
    )


def expect_ascending(check: Check, call: str, got: list[str | None], order: list[str]) -> None:
    """HIST-02 judges the order of a limited read, not which records it holds (the window rules'):
    whatever came back must come in the order of ``order``, the whole history ascending."""
    ranks = [order.index(c) for c in got if c in order]
    check.that(ranks == sorted(ranks), f"{call}: expected its records in the order {order}, got {got}")


@pytest.mark.aalis_spec("HIST-02")
async def test_history_is_ascending(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "b", "c", "d"))
    aalis_check.equal("get_history(s, ALL)", await active(aalis_memory, SESSION), ["a", "b", "c", "d"])
    expect_ascending(
        aalis_check,
        "get_history(s, 2)",
        contents(await aalis_memory.get_history(SESSION, 2)),
        ["a", "b", "c", "d"],
    )


@pytest.mark.aalis_spec("HIST-02")
async def test_history_same_millisecond_keeps_write_order(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    # An assistant tool call and its tool reply often share one millisecond.
    await save_all(
        aalis_memory,
        SESSION,
        [
            msg("q", 500),
            msg("call", 700, role="assistant"),
            msg("reply", 700, role="tool"),
            msg("more", 700, role="assistant"),
            msg("last", 900),
        ],
    )
    aalis_check.equal(
        "get_history(s, ALL) with three messages at 700 ms",
        await active(aalis_memory, SESSION),
        ["q", "call", "reply", "more", "last"],
    )
    expect_ascending(
        aalis_check,
        "get_history(s, 3) with three messages at 700 ms",
        contents(await aalis_memory.get_history(SESSION, 3)),
        ["q", "call", "reply", "more", "last"],
    )
    crowded = f"{SESSION}-crowded"
    await save_all(aalis_memory, crowded, [msg("q", 500), *one_millisecond("t", 700), msg("last", 900)])
    aalis_check.equal(
        f"get_history(s, ALL) with {CROWDED_MILLISECOND} messages t0..t{CROWDED_MILLISECOND - 1} at 700 ms",
        await active(aalis_memory, crowded),
        ["q", *(f"t{i}" for i in range(CROWDED_MILLISECOND)), "last"],
    )


@requires.timestamp_ordering
@pytest.mark.aalis_spec("HIST-02")
async def test_history_puts_late_arrivals_in_timestamp_order(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, [msg("a", 100), msg("c", 300), msg("b", 200), msg("d", 300)])
    aalis_check.equal(
        "get_history(s, ALL) written a@100, c@300, b@200, d@300",
        await active(aalis_memory, SESSION),
        ["a", "b", "c", "d"],
    )
    expect_ascending(
        aalis_check,
        "get_history(s, 3) written a@100, c@300, b@200, d@300",
        contents(await aalis_memory.get_history(SESSION, 3)),
        ["a", "b", "c", "d"],
    )


async def expect_no_slot_used(
    check: Check, memory: MemoryService, saved: list[Message], shown: str, *limits: int
) -> None:
    """HIST-03 judges whether control records use up slots, not the window: a limited read over
    ``saved`` must hold the conversation messages the same limit reads from the same conversation
    saved without its control records. A window cut one message early (HIST-04's, HIST-05's)
    cuts both reads alike; which markers come back is HIST-04's."""
    talk = [m for m in saved if not m.is_control]
    await save_all(memory, SESSION, saved)
    await save_all(memory, PLAIN, talk)
    names = {m.content for m in talk}
    for limit in limits:
        plain = contents(await memory.get_history(PLAIN, limit))
        got = contents(await memory.get_history(SESSION, limit))
        check.equal(
            f"conversation messages of get_history(s, {limit}) over {shown} (it returned {got}), "
            f"beside get_history(s, {limit}) of its conversation alone",
            [c for c in got if c in names],
            plain,
        )


@pytest.mark.aalis_spec("HIST-03")
async def test_history_limit_counts_only_conversation(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await expect_no_slot_used(
        aalis_check, aalis_memory, timeline("a", "b", "|d1", "c", "#t1"), "[a, b, d1, c, t1]", 2
    )


@pytest.mark.aalis_spec("HIST-03")
async def test_history_trailing_markers_use_no_slot(aalis_memory: MemoryService, aalis_check: Check) -> None:
    saved = timeline("a", "b", "c", "|d1", "#t1", "|d2")
    await expect_no_slot_used(aalis_check, aalis_memory, saved, "[a, b, c, d1, t1, d2]", 2)


@pytest.mark.aalis_spec("HIST-03")
async def test_history_limit_counts_system_role_conversation(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    """A control record is told by its kind, never by its role: a system-role message without a
    control kind is conversation and uses a slot (markers are system messages too)."""
    saved = [msg("a", 1000), msg("rules", 1010, role="system"), marker("d1", 1020), msg("b", 1030)]
    await expect_no_slot_used(aalis_check, aalis_memory, saved, "[a, rules (system, no kind), d1, b]", 2)


#: Markers of every role among conversation of every role (``name:role``, see ``timeline``):
#: a control record is told by its kind, never by its role.
EVERY_ROLE = ("a", "rules:system", "b:assistant", "|d1:user", "#t1:tool", "c", "|d2:assistant")


@pytest.mark.aalis_spec("HIST-03")
async def test_history_limit_ignores_the_role_of_a_record(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    """User-, assistant- and tool-role markers use no slot; a system-role message without a
    kind uses one."""
    shown = "[a, rules:system, b:assistant, d1:user, t1:tool, c, d2:assistant]"
    await expect_no_slot_used(aalis_check, aalis_memory, timeline(*EVERY_ROLE), shown, 2, 3)


@pytest.mark.aalis_spec("HIST-04")
async def test_history_window_starts_after_a_system_role_message(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await save_all(
        aalis_memory,
        SESSION,
        [msg("a", 1000), msg("b", 1010), msg("note", 1020, role="system"), msg("c", 1030)],
    )
    aalis_check.equal(
        "get_history(s, 2) over [a, b, note (system, no kind), c]",
        contents(await aalis_memory.get_history(SESSION, 2)),
        ["note", "c"],
    )


@pytest.mark.aalis_spec("HIST-04")
async def test_history_window_keeps_markers_in_between(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "|d1", "b", "#t1", "|d2", "c"))
    aalis_check.equal(
        "get_history(s, 1) over [a, d1, b, t1, d2, c]",
        contents(await aalis_memory.get_history(SESSION, 1)),
        ["t1", "d2", "c"],
    )
    aalis_check.equal(
        "get_history(s, 2) over [a, d1, b, t1, d2, c]",
        contents(await aalis_memory.get_history(SESSION, 2)),
        ["d1", "b", "t1", "d2", "c"],
    )


@pytest.mark.aalis_spec("HIST-04")
async def test_history_window_ignores_the_role_of_a_record(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    """The cut falls after the (limit+1)-th newest conversation message whatever the roles:
    markers of every role in between come back, a system-role message without a kind counts."""
    await save_all(
        aalis_memory,
        SESSION,
        timeline("a", "b:assistant", "|d1:tool", "note:system", "#t1:user", "c", "|d2:assistant"),
    )
    shown = "[a, b:assistant, d1:tool, note:system, t1:user, c, d2:assistant]"
    aalis_check.equal(
        f"get_history(s, 1) over {shown}",
        contents(await aalis_memory.get_history(SESSION, 1)),
        ["t1", "c", "d2"],
    )
    aalis_check.equal(
        f"get_history(s, 2) over {shown}",
        contents(await aalis_memory.get_history(SESSION, 2)),
        ["d1", "note", "t1", "c", "d2"],
    )


@pytest.mark.aalis_spec("HIST-05")
async def test_history_within_limit_is_everything_active(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, timeline("|d0", "#t0", "a", "|d1", "b"))
    expected = ["d0", "t0", "a", "d1", "b"]
    aalis_check.equal(
        "get_history(s, 2) over [d0, t0, a, d1, b]",
        contents(await aalis_memory.get_history(SESSION, 2)),
        expected,
    )
    aalis_check.equal(
        "get_history(s, 3) over [d0, t0, a, d1, b]",
        contents(await aalis_memory.get_history(SESSION, 3)),
        expected,
    )


@pytest.mark.aalis_spec("HIST-05")
async def test_history_of_markers_only(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, timeline("|d0", "#t0", "|d1"))
    aalis_check.equal(
        "get_history(s, 1) over [d0, t0, d1]",
        contents(await aalis_memory.get_history(SESSION, 1)),
        ["d0", "t0", "d1"],
    )
    aalis_check.equal(
        "get_history(s) over [d0, t0, d1]",
        contents(await aalis_memory.get_history(SESSION)),
        ["d0", "t0", "d1"],
    )


@pytest.mark.aalis_spec("HIST-05")
async def test_history_within_limit_keeps_markers_of_every_role(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    """Leading markers of every role come back while the conversation (a system-role message
    without a kind among it) fits the limit."""
    names = ("|d0:user", "#t0:assistant", "|d1:tool", "#t2:system", "a", "rules:system", "b:assistant")
    await save_all(aalis_memory, SESSION, timeline(*names))
    expected = ["d0", "t0", "d1", "t2", "a", "rules", "b"]
    shown = "[d0:user, t0:assistant, d1:tool, t2:system, a, rules:system, b:assistant]"
    for limit in (3, 4):
        aalis_check.equal(
            f"get_history(s, {limit}) over {shown}",
            contents(await aalis_memory.get_history(SESSION, limit)),
            expected,
        )


@pytest.mark.aalis_spec("HIST-05")
async def test_history_of_markers_of_every_role_only(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, timeline("|d0:user", "#t0:assistant", "|d1:tool"))
    aalis_check.equal(
        "get_history(s, 1) over [d0:user, t0:assistant, d1:tool]",
        contents(await aalis_memory.get_history(SESSION, 1)),
        ["d0", "t0", "d1"],
    )


# -- count_history ----------------------------------------------------------------------------


@requires.count_history
@pytest.mark.aalis_spec("COUNT-01")
async def test_count_history_counts_active_conversation(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "b", "|d1", "#t1", "c", "|d2"))
    aalis_check.equal(
        "count_history over [a, b, d1, t1, c, d2]", await aalis_memory.count_history(SESSION), 3
    )
    await aalis_memory.archive_span(SESSION, 2)
    aalis_check.equal("count_history after archiving [a, b]", await aalis_memory.count_history(SESSION), 1)


@requires.count_history
@pytest.mark.aalis_spec("COUNT-01")
async def test_count_history_counts_system_role_conversation(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(
        aalis_memory,
        SESSION,
        [msg("a", 1000), msg("rules", 1010, role="system"), marker("d1", 1020), msg("b", 1030)],
    )
    aalis_check.equal(
        "count_history over [a, rules (system, no kind), d1, b]",
        await aalis_memory.count_history(SESSION),
        3,
    )


@requires.count_history
@pytest.mark.aalis_spec("COUNT-01")
async def test_count_history_of_markers_only_is_zero(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, timeline("|d0", "#t0"))
    aalis_check.equal("count_history over [d0, t0]", await aalis_memory.count_history(SESSION), 0)


@requires.count_history
@pytest.mark.aalis_spec("COUNT-01")
async def test_count_history_ignores_the_role_of_a_record(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(
        aalis_memory,
        SESSION,
        timeline("|d0:user", "a", "#t0:assistant", "rules:system", "|d1:tool", "b:assistant", "#t1:system"),
    )
    shown = "[d0:user, a, t0:assistant, rules:system, d1:tool, b:assistant, t1:system]"
    aalis_check.equal(f"count_history over {shown}", await aalis_memory.count_history(SESSION), 3)


# -- get_full_history -------------------------------------------------------------------------


@requires.get_full_history
@pytest.mark.aalis_spec("FULL-01")
async def test_full_history_includes_archived(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "b", "c", "d", "e"))
    await aalis_memory.archive_span(SESSION, 3)
    aalis_check.equal(
        "get_full_history(s, ALL) after archiving 3",
        await everything(aalis_memory, SESSION),
        ["a", "b", "c", "d", "e"],
    )
    aalis_check.equal(
        "get_full_history(s, 4) after archiving 3",
        contents(await aalis_memory.get_full_history(SESSION, 4)),
        ["b", "c", "d", "e"],
    )


@requires.get_full_history
@pytest.mark.aalis_spec("FULL-02")
async def test_full_history_limit_counts_markers(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "|d1", "b", "#t1", "c"))
    aalis_check.equal(
        "get_full_history(s, 3) over [a, d1, b, t1, c]",
        contents(await aalis_memory.get_full_history(SESSION, 3)),
        ["b", "t1", "c"],
    )
    aalis_check.equal(
        "get_full_history(s, 2) over [a, d1, b, t1, c]",
        contents(await aalis_memory.get_full_history(SESSION, 2)),
        ["t1", "c"],
    )


@requires.get_full_history
@pytest.mark.aalis_spec("FULL-02")
async def test_full_history_same_millisecond_keeps_write_order(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, [msg("a", 100), msg("b", 200), msg("c", 200), msg("d", 300)])
    aalis_check.equal(
        "get_full_history(s, ALL) with b and c at 200 ms",
        await everything(aalis_memory, SESSION),
        ["a", "b", "c", "d"],
    )
    crowded = f"{SESSION}-crowded"
    await save_all(aalis_memory, crowded, [msg("a", 100), *one_millisecond("t", 200), msg("d", 300)])
    aalis_check.equal(
        f"get_full_history(s, ALL) with {CROWDED_MILLISECOND} messages "
        f"t0..t{CROWDED_MILLISECOND - 1} at 200 ms",
        await everything(aalis_memory, crowded),
        ["a", *(f"t{i}" for i in range(CROWDED_MILLISECOND)), "d"],
    )


@requires.timestamp_ordering
@requires.get_full_history
@pytest.mark.aalis_spec("FULL-02")
async def test_full_history_puts_late_arrivals_in_timestamp_order(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, [msg("a", 100), msg("c", 300), msg("b", 200)])
    aalis_check.equal(
        "get_full_history(s, ALL) written a@100, c@300, b@200",
        await everything(aalis_memory, SESSION),
        ["a", "b", "c"],
    )
    aalis_check.equal(
        "get_full_history(s, 2) written a@100, c@300, b@200",
        contents(await aalis_memory.get_full_history(SESSION, 2)),
        ["b", "c"],
    )
