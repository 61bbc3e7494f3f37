"""Values at the edge of existing rules that mutation testing found unchecked (issue 16).

``True`` is an ``int`` to Python, so ``isinstance(limit, int)`` lets it through as 1; ``math.inf``
is a valid limit but not a position, so a count of ``inf`` must be refused, not read as "all";
and back-to-back overwrites cannot tell a write-time ``updated_at`` from a counter.
"""

from __future__ import annotations

import math

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.suite._builders import save_all, timeline
from aalis_memory.conformance.suite._metadata_reads import entry, now_ms_ceil, wait_past
from aalis_memory.conformance.suite._reads import active
from aalis_memory.service import FullMemoryService, MemoryService

SESSION = "s-edges"


@pytest.mark.aalis_spec("LIM-06")
async def test_bool_limit_raises(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "b"))
    with aalis_check.raises("get_history(s, True)", ValueError):
        await aalis_memory.get_history(SESSION, True)


@requires.get_full_history
@pytest.mark.aalis_spec("LIM-06")
async def test_bool_full_history_limit_raises(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "b"))
    with aalis_check.raises("get_full_history(s, True)", ValueError):
        await aalis_memory.get_full_history(SESSION, True)


@pytest.mark.aalis_spec("ARCH-11")
async def test_archive_count_inf_or_bool_raises_and_archives_nothing(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "b", "c"))
    spans: list[tuple[object, tuple[object, ...]]] = [(math.inf, ()), (True, ()), (2, (True,))]
    for count, keep in spans:
        call = f"archive_span(s, {count!r}, keep={list(keep)!r})"
        with aalis_check.raises(call, ValueError):
            await aalis_memory.archive_span(SESSION, count, keep)  # type: ignore[arg-type]  # bad on purpose
        aalis_check.equal(f"get_history after {call}", await active(aalis_memory, SESSION), ["a", "b", "c"])


@pytest.mark.aalis_spec("META-05")
async def test_updated_at_follows_the_clock_not_a_counter(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    """An overwrite begun a few ms after the first save returned: updated_at grows by at least
    that time (a counter grows by 1). A difference of two stamps, so a server's own clock,
    however far off the kit's, is judged by its rate alone."""
    await aalis_memory.save_metadata("ns-edges", "k", {"v": 0})
    first = await entry(aalis_memory, "ns-edges", "k")
    returned = now_ms_ceil()
    assert first is not None
    began = await wait_past(returned, 3)
    await aalis_memory.save_metadata("ns-edges", "k", {"v": 1})
    second = await entry(aalis_memory, "ns-edges", "k")
    grew = None if second is None else second.updated_at - first.updated_at
    aalis_check.that(
        grew is not None and grew >= began - returned,
        f"updated_at of an overwrite begun {began - returned} ms after the first save "
        f"returned: expected it to grow by at least {began - returned} ms (the write time, not "
        f"a counter), it grew by {grew} ({first.updated_at} -> "
        f"{None if second is None else second.updated_at})",
    )
