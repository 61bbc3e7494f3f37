"""Omitted limits (LIM-05) and limits the contract never allows (LIM-06): this project's readings,
argued in the rule catalogue. Huge finite limits (LIM-07) are ordinary counts: a backend with a
64-bit LIMIT must not pass 2**63 on as it is. A backend whose numbers are doubles (a JavaScript
adapter) gets the huge limits its own callers can write: Number.MAX_SAFE_INTEGER and the doubles
2**63, 2**64 and 2**70."""

from __future__ import annotations

import math
from typing import Any, Final

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.checks import contents
from aalis_memory.conformance.differences import same_records
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.registration.transport import integer_limit
from aalis_memory.conformance.steps import Blocked
from aalis_memory.conformance.suite._builders import conversation, msg, save_all, timeline
from aalis_memory.conformance.suite._reads import active, witness
from aalis_memory.defaults import (
    DEFAULT_FULL_HISTORY_LIMIT,
    DEFAULT_HISTORY_LIMIT,
    DEFAULT_UPDATE_RECENT_LIMIT,
)
from aalis_memory.service import FullMemoryService, MemoryService
from aalis_memory.types import RecentMessagesAcrossSessionsQuery

SESSION = "s-lim"

#: Negative, NaN, fractional and non-numeric: each must raise ValueError.
BAD_LIMITS: Final[tuple[object, ...]] = (-1, -math.inf, math.nan, 2.5, "5")


@pytest.mark.aalis_spec("LIM-05")
async def test_history_default_limit(aalis_memory: MemoryService, aalis_check: Check) -> None:
    """The rule judges the default, not the window: an omitted limit reads what the default
    (:data:`~aalis_memory.defaults.DEFAULT_HISTORY_LIMIT`) reads (which messages that limit holds
    is HIST-04's)."""
    window, stored = DEFAULT_HISTORY_LIMIT, DEFAULT_HISTORY_LIMIT + 10
    await save_all(aalis_memory, SESSION, conversation("m", stored))
    aalis_check.equal(
        f"get_history(s) over m0..m{stored - 1}, beside get_history(s, {window})",
        contents(await aalis_memory.get_history(SESSION)),
        contents(await aalis_memory.get_history(SESSION, window)),
    )


@requires.get_full_history
@pytest.mark.aalis_spec("LIM-05")
async def test_full_history_default_limit(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    """An omitted limit reads what the default (:data:`~aalis_memory.defaults.DEFAULT_FULL_HISTORY_LIMIT`)
    reads (which messages that holds is FULL-02's)."""
    window, stored = DEFAULT_FULL_HISTORY_LIMIT, DEFAULT_FULL_HISTORY_LIMIT + 10
    await save_all(aalis_memory, SESSION, conversation("m", stored))
    aalis_check.equal(
        f"get_full_history(s) over m0..m{stored - 1}, beside get_full_history(s, {window})",
        contents(await aalis_memory.get_full_history(SESSION)),
        contents(await aalis_memory.get_full_history(SESSION, window)),
    )


@requires.update_message_content
@pytest.mark.aalis_spec("LIM-05")
async def test_update_default_recent_limit(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    """An omitted ``recent_limit`` rewrites the newest
    :data:`~aalis_memory.defaults.DEFAULT_UPDATE_RECENT_LIMIT` messages."""
    recent, stored = DEFAULT_UPDATE_RECENT_LIMIT, DEFAULT_UPDATE_RECENT_LIMIT + 10
    await save_all(aalis_memory, SESSION, [msg(f"cat {i}", 1000 + i) for i in range(stored)])
    changed = await aalis_memory.update_message_content(SESSION, "cat", "dog")
    aalis_check.equal(f"update_message_content(s, cat, dog) over {stored} matches", changed, recent)
    aalis_check.equal(
        "get_history after update_message_content(s, cat, dog)",
        await active(aalis_memory, SESSION, 1000),
        [f"cat {i}" for i in range(stored - recent)] + [f"dog {i}" for i in range(stored - recent, stored)],
    )


#: Finite limits at and past the end of a signed 64-bit integer (an SQL LIMIT's type).
HUGE_LIMITS: Final = (("2**63 - 1", 2**63 - 1), ("2**63", 2**63), ("2**64", 2**64), ("2**70", 2**70))


def huge_limits(aalis_memory: MemoryService) -> tuple[tuple[str, int | float], ...]:
    """:data:`HUGE_LIMITS` as the store's transport carries them: past its largest integer, the
    largest one it holds and the huge limits as the doubles its callers would pass."""
    largest = integer_limit(aalis_memory)
    if largest is None:
        return HUGE_LIMITS
    return (
        (f"{largest} (the largest integer its numbers hold)", largest),
        *((name, float(limit)) for name, limit in HUGE_LIMITS if float(limit) == limit),
    )


def _whole_read_rule(method: str, got: list[str | None]) -> str:
    """The rule an unlimited read of [a (archived), b, c] broke, by what it got wrong."""
    if method == "get_history" and "a" in got:
        return "HIST-01"
    if method == "get_full_history" and "a" not in got:
        return "FULL-01"
    return "LIM-02"


@pytest.mark.aalis_spec("LIM-07")
async def test_huge_finite_limits_read_everything(aalis_memory: MemoryService, aalis_check: Check) -> None:
    """A huge count reads the whole history. The rule says only that the size of a count does not
    matter: when a huge count reads something else and ``math.inf`` (read aside, never a step)
    reads the very same, the difference is in which records the read holds, LIM-02's, HIST-01's
    or FULL-01's, and this case is blocked by that rule."""
    await save_all(aalis_memory, SESSION, timeline("a", "b", "c"))
    await aalis_memory.archive_span(SESSION, 1)
    whole = {"get_history": ["b", "c"]}
    if callable(getattr(aalis_memory, "get_full_history", None)):
        whole["get_full_history"] = ["a", "b", "c"]
    for method, expected in whole.items():
        read = getattr(aalis_memory, method)
        for name, limit in huge_limits(aalis_memory):
            got = contents(await read(SESSION, limit))
            if not same_records(got, expected) and same_records(got, await _unlimited(read)):
                aalis_check.block_case(
                    Blocked(
                        _whole_read_rule(method, got),
                        f"{method}(s, inf)",
                        f"reads {got} too, not the whole history {expected}",
                    ),
                )
                break
            aalis_check.equal(f"{method}(s, {name})", got, expected)


async def _unlimited(read: Any) -> list[str | None]:
    """``read(S, math.inf)`` as a witness (``[None]`` when it raises: it then matches no read)."""
    found = await witness(lambda: read(SESSION, math.inf))
    return [None] if found is None else contents(found)


@requires.update_message_content
@pytest.mark.aalis_spec("LIM-07")
async def test_huge_finite_recent_limits_rewrite_everything(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    words = ("cat", "dog", "cow", "elk", "owl")
    await save_all(aalis_memory, SESSION, timeline("cat a", "cat b"))
    for (name, limit), old, new in zip(huge_limits(aalis_memory), words[:-1], words[1:], strict=True):
        changed = await aalis_memory.update_message_content(SESSION, old, new, limit)
        aalis_check.equal(f"update_message_content(s, {old}, {new}, {name})", changed, 2)
    aalis_check.equal(
        "get_history after the rewrites", await active(aalis_memory, SESSION), ["owl a", "owl b"]
    )


@pytest.mark.aalis_spec("LIM-06")
@pytest.mark.parametrize("limit", BAD_LIMITS, ids=repr)
async def test_history_bad_limit_raises(
    aalis_memory: MemoryService, limit: object, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "b"))
    with aalis_check.raises(f"get_history(s, {limit!r})", ValueError):
        await aalis_memory.get_history(SESSION, limit)  # type: ignore[arg-type]  # a bad limit on purpose
    aalis_check.equal(
        f"get_history after get_history(s, {limit!r})", await active(aalis_memory, SESSION), ["a", "b"]
    )


@requires.get_full_history
@pytest.mark.aalis_spec("LIM-06")
@pytest.mark.parametrize("limit", BAD_LIMITS, ids=repr)
async def test_full_history_bad_limit_raises(
    aalis_memory: FullMemoryService, limit: object, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "b"))
    with aalis_check.raises(f"get_full_history(s, {limit!r})", ValueError):
        await aalis_memory.get_full_history(SESSION, limit)  # type: ignore[arg-type]  # a bad limit on purpose


@requires.update_message_content
@pytest.mark.aalis_spec("LIM-06")
@pytest.mark.parametrize("limit", BAD_LIMITS, ids=repr)
async def test_update_bad_recent_limit_raises_and_changes_nothing(
    aalis_memory: FullMemoryService, limit: object, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, timeline("cat a", "cat b"))
    with aalis_check.raises(f"update_message_content(s, cat, dog, {limit!r})", ValueError):
        await aalis_memory.update_message_content(SESSION, "cat", "dog", limit)  # type: ignore[arg-type]  # on purpose
    aalis_check.equal(
        f"get_history after update_message_content(..., {limit!r})",
        await active(aalis_memory, SESSION),
        ["cat a", "cat b"],
    )


@requires.get_recent_messages_across_sessions
@pytest.mark.aalis_spec("LIM-06")
@pytest.mark.parametrize("limit", BAD_LIMITS, ids=repr)
async def test_cross_session_bad_limit_raises(
    aalis_memory: FullMemoryService, limit: object, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "b"))
    query = RecentMessagesAcrossSessionsQuery(limit=limit)  # type: ignore[arg-type]
    with aalis_check.raises(f"cross-session read with limit={limit!r}", ValueError):
        await aalis_memory.get_recent_messages_across_sessions(query)
