"""archive_span: positions, keep lists, return values and the atomic tier (api-memory §核心方法)."""

from __future__ import annotations

import math
from typing import Final

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.checks import (
    contents,
    describe,
)
from aalis_memory.conformance.differences import same_records
from aalis_memory.conformance.probes.concurrent_reads import Read, only_from_outside, watch_write
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.steps import stands_on
from aalis_memory.conformance.suite._builders import (
    CROWDED_MILLISECOND,
    conversation,
    msg,
    one_millisecond,
    save_all,
    timeline,
)
from aalis_memory.conformance.suite._reads import active, as_read, everything
from aalis_memory.service import FullMemoryService, MemoryService

SESSION = "s-arch"


async def archive_counted(
    memory: MemoryService, session: str, count: int, keep: list[int] | None = None
) -> tuple[int, int]:
    """``archive_span``'s return value, and how many messages it took out of the active history:
    ARCH-07 compares the two, so a wrong span (another rule's failure) is no wrong count."""
    before = len(await active(memory, session))
    returned = await memory.archive_span(session, count, *([] if keep is None else [keep]))
    return returned, before - len(await active(memory, session))


def spans() -> None:
    """The test compares which messages stayed active: which messages the span holds (the
    earliest count) is ARCH-01's, so a span taken at the wrong end blocks it."""
    stands_on("ARCH-01")


def keeps() -> None:
    """The test passes a keep list to reach its own rule: what the list keeps is ARCH-02's, and
    which messages its positions name (the span) ARCH-01's."""
    spans()
    stands_on("ARCH-02")


@pytest.mark.aalis_spec("ARCH-01")
async def test_archive_takes_the_earliest(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, timeline("m0", "m1", "m2", "m3", "m4", "m5"))
    await aalis_memory.archive_span(SESSION, 2)
    aalis_check.equal(
        "get_history after archive_span(s, 2) of m0..m5",
        await active(aalis_memory, SESSION),
        ["m2", "m3", "m4", "m5"],
    )


@pytest.mark.aalis_spec("ARCH-01")
async def test_archive_same_millisecond_in_write_order(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, [msg("a", 100), msg("b", 200), msg("c", 200), msg("d", 200)])
    await aalis_memory.archive_span(SESSION, 2)
    aalis_check.equal(
        "get_history after archive_span(s, 2) with b, c, d at 200 ms",
        await active(aalis_memory, SESSION),
        ["c", "d"],
    )
    # The earliest of one millisecond are the first written: which ones stayed, in any order
    # (the order of get_history is HIST-02's).
    crowded = f"{SESSION}-crowded"
    await save_all(aalis_memory, crowded, one_millisecond("t", 200))
    await aalis_memory.archive_span(crowded, 3)
    got = await active(aalis_memory, crowded)
    stayed = [f"t{i}" for i in range(3, CROWDED_MILLISECOND)]
    aalis_check.that(
        same_records(got, stayed),
        f"get_history after archive_span(s, 3) with t0..t{CROWDED_MILLISECOND - 1} all at 200 ms: "
        f"expected {describe(stayed)} in any order, got {describe(got)}",
    )


@requires.timestamp_ordering
@pytest.mark.aalis_spec("ARCH-01")
async def test_archive_follows_timestamp_order(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, [msg("a", 100), msg("c", 300), msg("b", 200), msg("d", 400)])
    await aalis_memory.archive_span(SESSION, 2)
    aalis_check.equal(
        "get_history after archive_span(s, 2), written a@100 c@300 b@200 d@400",
        await active(aalis_memory, SESSION),
        ["c", "d"],
    )


@pytest.mark.aalis_spec("ARCH-02")
async def test_archive_keep_stays_active_and_unchanged(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, timeline("m0", "m1", "m2", "m3", "m4", "m5"))
    before = as_read(await aalis_memory.get_history(SESSION, 10))
    spans()
    await aalis_memory.archive_span(SESSION, 4, [1, 3])
    got = await aalis_memory.get_history(SESSION, 10)
    aalis_check.equal(
        "get_history after archive_span(s, 4, keep=[1, 3]) of m0..m5",
        contents(got),
        ["m1", "m3", "m4", "m5"],
    )
    aalis_check.fields(
        "kept messages after archive_span(s, 4, keep=[1, 3]), as get_history showed them before",
        [m for m in got if m.content in ("m1", "m3")],
        [m for m in before if m.content in ("m1", "m3")],
        read_rule="HIST-05",
    )


@pytest.mark.aalis_spec("ARCH-02")
async def test_archive_keep_everything_archives_nothing(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "b", "c"))
    spans()
    await aalis_memory.archive_span(SESSION, 2, [0, 1])
    aalis_check.equal(
        "get_history after archive_span(s, 2, keep=[0, 1]) of [a, b, c]",
        await active(aalis_memory, SESSION),
        ["a", "b", "c"],
    )


@pytest.mark.aalis_spec("ARCH-03")
async def test_archive_counts_markers_as_positions(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, timeline("|d0", "a", "#t1", "b", "c"))
    spans()
    await aalis_memory.archive_span(SESSION, 2)
    aalis_check.equal(
        "get_history after archive_span(s, 2) of [d0, a, t1, b, c]",
        await active(aalis_memory, SESSION),
        ["t1", "b", "c"],
    )


@pytest.mark.aalis_spec("ARCH-03")
async def test_archive_keep_positions_count_markers(aalis_memory: MemoryService, aalis_check: Check) -> None:
    keeps()
    await save_all(aalis_memory, SESSION, timeline("a", "|d1", "b", "c", "e"))
    await aalis_memory.archive_span(SESSION, 3, [2])
    aalis_check.equal(
        "get_history after archive_span(s, 3, keep=[2]) of [a, d1, b, c, e]",
        await active(aalis_memory, SESSION),
        ["b", "c", "e"],
    )


@pytest.mark.aalis_spec("ARCH-03")
async def test_archive_markers_only_history(aalis_memory: MemoryService, aalis_check: Check) -> None:
    keeps()
    await save_all(aalis_memory, SESSION, timeline("|d0", "#t0", "|d1", "a"))
    await aalis_memory.archive_span(SESSION, 3, [1])
    aalis_check.equal(
        "get_history after archive_span(s, 3, keep=[1]) of [d0, t0, d1, a]",
        await active(aalis_memory, SESSION),
        ["t0", "a"],
    )


@pytest.mark.aalis_spec("ARCH-04", "ARCH-07")
async def test_archive_count_zero_archives_nothing(
    aalis_memory: MemoryService, aalis_checks: tuple[Check, ...]
) -> None:
    nothing, counts = aalis_checks
    await save_all(aalis_memory, SESSION, timeline("a", "|d1", "b"))
    first, first_left = await archive_counted(aalis_memory, SESSION, 0)
    second, second_left = await archive_counted(aalis_memory, SESSION, 0, [0, 1])
    nothing.equal(
        "get_history after archive_span(s, 0) and archive_span(s, 0, [0, 1])",
        await active(aalis_memory, SESSION),
        ["a", "d1", "b"],
    )
    counts.equal(f"archive_span(s, 0), which archived {first_left}", first, first_left)
    counts.equal(f"archive_span(s, 0, keep=[0, 1]), which archived {second_left}", second, second_left)


@pytest.mark.aalis_spec("ARCH-05", "ARCH-07")
async def test_archive_count_above_active_takes_everything(
    aalis_memory: MemoryService, aalis_checks: tuple[Check, ...]
) -> None:
    whole, counts = aalis_checks
    await save_all(aalis_memory, SESSION, timeline("a", "|d1", "b"))
    archived, left = await archive_counted(aalis_memory, SESSION, 10)
    counts.equal(f"archive_span(s, 10) of [a, d1, b], which archived {left}", archived, left)
    whole.equal(
        "get_history after archive_span(s, 10) of [a, d1, b]", await active(aalis_memory, SESSION), []
    )


@pytest.mark.aalis_spec("ARCH-05")
async def test_archive_count_above_active_with_keep(aalis_memory: MemoryService, aalis_check: Check) -> None:
    keeps()
    await save_all(aalis_memory, SESSION, timeline("a", "b", "c"))
    await aalis_memory.archive_span(SESSION, 10, [2])
    aalis_check.equal(
        "get_history after archive_span(s, 10, keep=[2]) of [a, b, c]",
        await active(aalis_memory, SESSION),
        ["c"],
    )


@pytest.mark.aalis_spec("ARCH-06", "ARCH-07")
async def test_archive_keep_duplicates_and_outside_positions(
    aalis_memory: MemoryService, aalis_checks: tuple[Check, ...]
) -> None:
    keep, counts = aalis_checks
    await save_all(aalis_memory, SESSION, timeline("m0", "m1", "m2", "m3", "m4", "m5"))
    keeps()
    archived, left = await archive_counted(aalis_memory, SESSION, 3, [1, 1, 7, 3])
    counts.equal(f"archive_span(s, 3, keep=[1, 1, 7, 3]) of m0..m5, which archived {left}", archived, left)
    keep.equal(
        "get_history after archive_span(s, 3, keep=[1, 1, 7, 3]) of m0..m5",
        await active(aalis_memory, SESSION),
        ["m1", "m3", "m4", "m5"],
    )


@pytest.mark.aalis_spec("ARCH-06", "ARCH-07")
async def test_archive_keep_beyond_the_active_history(
    aalis_memory: MemoryService, aalis_checks: tuple[Check, ...]
) -> None:
    keep, counts = aalis_checks
    await save_all(aalis_memory, SESSION, timeline("a", "b", "c", "d"))
    keeps()
    archived, left = await archive_counted(aalis_memory, SESSION, 3, [5, 0, 0, 99])
    counts.equal(f"archive_span(s, 3, keep=[5, 0, 0, 99]) of a..d, which archived {left}", archived, left)
    keep.equal(
        "get_history after archive_span(s, 3, keep=[5, 0, 0, 99]) of a..d",
        await active(aalis_memory, SESSION),
        ["a", "d"],
    )


@pytest.mark.aalis_spec("ARCH-07")
async def test_archive_returns_the_number_archived(aalis_memory: MemoryService, aalis_check: Check) -> None:
    # Each case on a fresh session of eight messages, so only the return value is in question:
    # it must be how many the call took out of the active history, whichever those were.
    cases: list[tuple[int, list[int]]] = [(2, []), (4, [0, 2]), (1, [0]), (8, []), (8, [7, 6])]
    for number, (count, keep) in enumerate(cases):
        session = f"{SESSION}-{number}"
        await save_all(aalis_memory, session, conversation("m", 8))
        returned, left = await archive_counted(aalis_memory, session, count, keep)
        aalis_check.equal(
            f"archive_span(s, {count}, keep={keep}) of 8 active, which archived {left}",
            returned,
            left,
        )


@pytest.mark.aalis_spec("ARCH-08", "ARCH-07")
async def test_archive_after_archive_counts_only_active(
    aalis_memory: MemoryService, aalis_checks: tuple[Check, ...]
) -> None:
    positions, counts = aalis_checks
    await save_all(aalis_memory, SESSION, timeline("m0", "m1", "m2", "m3", "m4", "m5"))
    keeps()
    await aalis_memory.archive_span(SESSION, 2)
    second, left = await archive_counted(aalis_memory, SESSION, 2, [1])
    positions.equal(
        "get_history after archive_span(s, 2) then archive_span(s, 2, [1])",
        await active(aalis_memory, SESSION),
        ["m3", "m4", "m5"],
    )
    counts.equal(f"second archive_span(s, 2, keep=[1]), which archived {left}", second, left)


@pytest.mark.aalis_spec("ARCH-08", "ARCH-07")
async def test_archive_leaves_later_appends_alone(
    aalis_memory: MemoryService, aalis_checks: tuple[Check, ...]
) -> None:
    positions, counts = aalis_checks
    await save_all(aalis_memory, SESSION, timeline("m0", "m1", "m2", "m3"))
    snapshot = await active(aalis_memory, SESSION)
    # Two messages arrive after the caller's snapshot: they sit after the span.
    await save_all(aalis_memory, SESSION, [msg("m4", 2000), msg("m5", 2010)])
    keeps()
    archived, left = await archive_counted(aalis_memory, SESSION, len(snapshot), [3])
    counts.equal(f"archive_span(s, 4, keep=[3]) with m4, m5 appended, which archived {left}", archived, left)
    positions.equal(
        "get_history after archive_span(s, 4, keep=[3]) with m4, m5 appended",
        await active(aalis_memory, SESSION),
        ["m3", "m4", "m5"],
    )
    await save_all(aalis_memory, SESSION, [msg("m6", 2020)])
    positions.equal(
        "get_history after appending m6", await active(aalis_memory, SESSION), ["m3", "m4", "m5", "m6"]
    )


@requires.timestamp_ordering
@pytest.mark.aalis_spec("ARCH-08")
async def test_archive_positions_include_late_arrivals(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    stands_on("HIST-02")  # the positions follow get_history's timestamp order: HIST-02's
    spans()
    await save_all(aalis_memory, SESSION, [msg("a", 100), msg("c", 300), msg("d", 400)])
    # A late arrival lands inside the span: positions are taken at call time, so it is archived.
    await save_all(aalis_memory, SESSION, [msg("b", 200)])
    await aalis_memory.archive_span(SESSION, 2)
    aalis_check.equal(
        "get_history after archive_span(s, 2) with late b@200",
        await active(aalis_memory, SESSION),
        ["c", "d"],
    )


@requires.get_full_history
@pytest.mark.aalis_spec("ARCH-09")
async def test_archived_stay_in_full_history_in_place(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    # First, with no keep list: whichever messages the span took, the full history holds them
    # all in their original order, within one millisecond the order they were written in. It
    # judges before keeps() below, so a failure here stands on neither ARCH-01 nor ARCH-02.
    crowded = f"{SESSION}-crowded"
    await save_all(aalis_memory, crowded, one_millisecond("t", 200))
    await aalis_memory.archive_span(crowded, 6)
    aalis_check.equal(
        f"get_full_history after archive_span(s, 6) with t0..t{CROWDED_MILLISECOND - 1} all at 200 ms",
        await everything(aalis_memory, crowded),
        [f"t{i}" for i in range(CROWDED_MILLISECOND)],
    )
    keeps()
    await save_all(aalis_memory, SESSION, timeline("m0", "m1", "m2", "m3", "m4", "m5"))
    await aalis_memory.archive_span(SESSION, 5, [1, 3])
    # which messages left get_history, in any order (the order of get_history is HIST-02's)
    got = await active(aalis_memory, SESSION)
    aalis_check.that(
        same_records(got, ["m1", "m3", "m5"]),
        f"get_history after archive_span(s, 5, keep=[1, 3]): expected [m1, m3, m5] in any "
        f"order, got {describe(got)}",
    )
    aalis_check.equal(
        "get_full_history after archive_span(s, 5, keep=[1, 3])",
        await everything(aalis_memory, SESSION),
        ["m0", "m1", "m2", "m3", "m4", "m5"],
    )
    aalis_check.equal(
        "get_full_history(s, 3) after archive_span(s, 5, keep=[1, 3])",
        contents(await aalis_memory.get_full_history(SESSION, 3)),
        ["m3", "m4", "m5"],
    )


#: Counts and keep lists the contract never allows: each must raise ValueError.
_BAD_SPANS: Final[tuple[tuple[object, tuple[object, ...]], ...]] = (
    (-1, ()),
    (math.nan, ()),
    (1.5, ()),
    ("2", ()),
    (2, (-1,)),
    (2, (0.5,)),
    (2, ("0",)),
    (2, (math.nan,)),
)


@pytest.mark.aalis_spec("ARCH-11")
@pytest.mark.parametrize(("count", "keep"), _BAD_SPANS, ids=repr)
async def test_archive_bad_positions_raise_and_archive_nothing(
    aalis_memory: MemoryService, count: object, keep: tuple[object, ...], aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "b", "c"))
    with aalis_check.raises(f"archive_span(s, {count!r}, keep={list(keep)!r})", ValueError):
        await aalis_memory.archive_span(SESSION, count, keep)  # type: ignore[arg-type]  # bad on purpose
    aalis_check.equal(
        f"get_history after archive_span(s, {count!r}, keep={list(keep)!r})",
        await active(aalis_memory, SESSION),
        ["a", "b", "c"],
    )


#: A finite limit above every size used here, so this test does not lean on the math.inf rule.
_ALL = 10_000


def describe_size(seen: object) -> str:
    """What a torn read saw, in the words of the failure line: how many messages."""
    return f"{len(seen)} messages" if isinstance(seen, list) else repr(seen)


@requires.atomic_archive
@pytest.mark.aalis_spec("ARCH-10")
async def test_concurrent_readers_never_see_part_of_an_archive(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    saved = conversation("m", 210)
    await save_all(aalis_memory, SESSION, saved)
    after = [f"m{i}" for i in range(200, 210)]
    reads: list[Read] = [lambda: aalis_memory.get_history(SESSION, _ALL)]
    if callable(getattr(aalis_memory, "get_full_history", None)):
        reads.append(lambda: aalis_memory.get_full_history(SESSION, _ALL))
    watched = await watch_write(lambda: aalis_memory.archive_span(SESSION, 200), reads, readers=3)
    archived = watched.result()
    names = ("get_history", "get_full_history")
    torn = [f"{names[s.read]} saw {describe_size(s.value)}" for s in watched.torn()]
    aalis_check.that(
        not torn,
        f"archive_span(s, 200) of 210: expected readers to see 210 or 10 active messages "
        f"(and 210 in the full history), got {torn[:3]}",
    )
    stands_on("ARCH-01", "ARCH-07")  # which messages the span took, and the count, are theirs
    aalis_check.equal(
        "get_history after archive_span(s, 200) of 210",
        contents(await aalis_memory.get_history(SESSION, _ALL)),
        after,
    )
    aalis_check.equal("archive_span(s, 200) of 210", archived, 200)
    only_from_outside(aalis_memory, aalis_check)
