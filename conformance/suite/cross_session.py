"""get_recent_messages_across_sessions: the limit rule of api-memory §核心方法 (LIM-01, LIM-04),
the cap of plugin-memory-mongodb §配置 (CROSS-01, binding every backend with such a cap) and this
project's reading of the filters (CROSS-02..05), one filter at a time and all of them combined."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.checks import describe
from aalis_memory.conformance.registration.registry import DriverContext
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.suite._builders import msg, save_all
from aalis_memory.conformance.suite._reads import records
from aalis_memory.defaults import DEFAULT_CROSS_SESSION_ROLES
from aalis_memory.service import FullMemoryService, MemoryService
from aalis_memory.types import Message, RecentMessageRecord
from aalis_memory.types import RecentMessagesAcrossSessionsQuery as Query

SESSION_A = "x-a"
SESSION_B = "x-b"
SESSION_C = "x-c"

pytestmark = requires.get_recent_messages_across_sessions


async def _three_sessions(aalis_memory: MemoryService) -> None:
    """Nine user/assistant messages spread over three sessions, timestamps 100..900."""
    await save_all(
        aalis_memory, SESSION_A, [msg("a1", 100), msg("a4", 400, role="assistant"), msg("a7", 700)]
    )
    await save_all(
        aalis_memory, SESSION_B, [msg("b2", 200), msg("b5", 500), msg("b8", 800, role="assistant")]
    )
    await save_all(
        aalis_memory, SESSION_C, [msg("c3", 300, role="assistant"), msg("c6", 600), msg("c9", 900)]
    )


async def _read(aalis_memory: FullMemoryService, **query: Any) -> list[tuple[str, str | None]]:
    return records(await aalis_memory.get_recent_messages_across_sessions(Query(**query)))


@pytest.mark.aalis_spec("LIM-01")
async def test_cross_session_limit_zero_is_empty(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await _three_sessions(aalis_memory)
    aalis_check.equal("cross-session read with limit=0", await _read(aalis_memory, limit=0), [])


#: The nine messages of :func:`_three_sessions`, oldest first, as (session id, content).
THREE_SESSIONS: list[tuple[str, str | None]] = [
    (SESSION_A, "a1"),
    (SESSION_B, "b2"),
    (SESSION_C, "c3"),
    (SESSION_A, "a4"),
    (SESSION_B, "b5"),
    (SESSION_C, "c6"),
    (SESSION_A, "a7"),
    (SESSION_B, "b8"),
    (SESSION_C, "c9"),
]


async def _inf_narrowed(
    aalis_memory: FullMemoryService,
    query: Query,
    got: Sequence[tuple[str, str | None]],
    want: Sequence[tuple[str, str | None]],
    cap: int,
) -> tuple[bool, str]:
    """LIM-04's aspect alone: a read with ``limit=math.inf`` (``got``) does not escape the cap.
    It holds when it returns no more than the cap, and either the right records (``want``) or
    exactly what the same read with ``limit=cap`` returns: how many a capped read returns is
    CROSS-01's and CROSS-02's, however short it comes back."""
    shown = (
        f"cross-session read with {_shown(query)} (cross_session_max_limit={cap}, the cap in DriverContext)"
    )
    if len(got) > cap:
        return False, f"{shown}: {len(got)} records, more than the cap: math.inf escaped it"
    if list(got) == list(want):
        return True, ""
    as_cap = records(await aalis_memory.get_recent_messages_across_sessions(attrs.evolve(query, limit=cap)))
    return as_cap == list(got), (
        f"{shown}: got {describe(got)}, while the same read with limit={cap} returns "
        f"{describe(as_cap)}: math.inf is not read as the cap"
    )


@pytest.mark.aalis_spec("LIM-04")
async def test_cross_session_inf_is_capped(
    aalis_memory: FullMemoryService, aalis_memory_ctx: DriverContext, aalis_check: Check
) -> None:
    cap = aalis_memory_ctx.cross_session_max_limit
    await _three_sessions(aalis_memory)
    query = Query(limit=math.inf)
    got = records(await aalis_memory.get_recent_messages_across_sessions(query))
    aalis_check.that(*await _inf_narrowed(aalis_memory, query, got, THREE_SESSIONS[-cap:], cap))


@pytest.mark.aalis_spec("CROSS-01")
@pytest.mark.parametrize(("over", "available"), [(2, 9), (1, 9), (2, 3)])
async def test_cross_session_limit_above_cap_is_narrowed(
    aalis_memory: FullMemoryService,
    aalis_memory_ctx: DriverContext,
    over: int,
    available: int,
    aalis_check: Check,
) -> None:
    """Narrowed, not refused: exactly ``min(cap, matching)`` records come back."""
    cap = aalis_memory_ctx.cross_session_max_limit
    if available == 9:
        await _three_sessions(aalis_memory)
    else:
        await save_all(
            aalis_memory, SESSION_A, [msg("a1", 100), msg("a4", 400, role="assistant"), msg("a7", 700)]
        )
    got = await _read(aalis_memory, limit=cap + over)
    aalis_check.that(
        len(got) == min(cap, available),
        f"cross-session read with limit={cap + over} over {available} matching messages, "
        f"cross_session_max_limit={cap} (the cap in DriverContext): expected exactly "
        f"{min(cap, available)} records, got {len(got)}",
    )


@pytest.mark.aalis_spec("CROSS-02")
async def test_cross_session_newest_ascending(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await _three_sessions(aalis_memory)
    aalis_check.equal(
        "cross-session read with limit=4",
        await _read(aalis_memory, limit=4),
        [(SESSION_C, "c6"), (SESSION_A, "a7"), (SESSION_B, "b8"), (SESSION_C, "c9")],
    )
    aalis_check.equal(
        "cross-session read with limit=1", await _read(aalis_memory, limit=1), [(SESSION_C, "c9")]
    )


@pytest.mark.aalis_spec("CROSS-02")
async def test_cross_session_skips_archived(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await _three_sessions(aalis_memory)
    await aalis_memory.archive_span(SESSION_C, 3, [1])
    aalis_check.equal(
        "cross-session read with limit=3 after archiving c3, c9",
        await _read(aalis_memory, limit=3),
        [(SESSION_C, "c6"), (SESSION_A, "a7"), (SESSION_B, "b8")],
    )


@pytest.mark.aalis_spec("CROSS-02")
async def test_cross_session_orders_by_timestamp_not_writes(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION_B, [msg("b3", 300)])
    await save_all(aalis_memory, SESSION_A, [msg("a1", 100), msg("a4", 400)])
    await save_all(aalis_memory, SESSION_C, [msg("c2", 200)])
    aalis_check.equal(
        "cross-session read with limit=3",
        await _read(aalis_memory, limit=3),
        [(SESSION_C, "c2"), (SESSION_B, "b3"), (SESSION_A, "a4")],
    )


@pytest.mark.aalis_spec("CROSS-02")
async def test_cross_session_same_millisecond_newest_write_wins(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION_A, [msg("a1", 500)])
    await save_all(aalis_memory, SESSION_B, [msg("b2", 500)])
    await save_all(aalis_memory, SESSION_A, [msg("a3", 500)])
    aalis_check.equal(
        "cross-session read with limit=1 over a1, b2, a3 all at ms 500",
        await _read(aalis_memory, limit=1),
        [(SESSION_A, "a3")],
    )
    aalis_check.equal(
        "cross-session read with limit=2 over a1, b2, a3 all at ms 500",
        await _read(aalis_memory, limit=2),
        [(SESSION_B, "b2"), (SESSION_A, "a3")],
    )


@pytest.mark.aalis_spec("CROSS-03")
async def test_cross_session_roles(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    stored = [
        msg("u", 100),
        msg("s", 200, role="system"),
        msg("t", 300, role="tool"),
        msg("a", 400, role="assistant"),
        msg("n", 500, role="notice"),
    ]
    await save_all(aalis_memory, SESSION_A, stored)
    # A limit that takes every message stored: which roles pass is the filter's alone, never
    # which newest messages a limit picks (CROSS-02's).
    aalis_check.equal(
        "cross-session read without roles",
        await _read(aalis_memory, limit=5),
        [(SESSION_A, m.content) for m in stored if m.role in DEFAULT_CROSS_SESSION_ROLES],
    )
    aalis_check.equal(
        "cross-session read with roles=['system', 'notice']",
        await _read(aalis_memory, limit=5, roles=["system", "notice"]),
        [(SESSION_A, "s"), (SESSION_A, "n")],
    )
    aalis_check.equal(
        "cross-session read with roles=['tool']",
        await _read(aalis_memory, limit=5, roles=["tool"]),
        [(SESSION_A, "t")],
    )


@pytest.mark.aalis_spec("CROSS-04")
async def test_cross_session_kinds(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(
        aalis_memory,
        SESSION_A,
        [
            msg("plain", 100),
            msg("poke", 200, kind="poke"),
            msg("recall", 300, kind="group_recall"),
            msg("img", 400, role="assistant", kind="outbound-image"),
            msg("plain2", 500),
        ],
    )
    aalis_check.equal(
        "cross-session read with kinds=['poke', 'outbound-image']",
        await _read(aalis_memory, limit=5, kinds=["poke", "outbound-image"]),
        [(SESSION_A, "poke"), (SESSION_A, "img")],
    )
    aalis_check.equal(
        "cross-session read with exclude_kinds=['poke']",
        await _read(aalis_memory, limit=5, exclude_kinds=["poke"]),
        [(SESSION_A, "plain"), (SESSION_A, "recall"), (SESSION_A, "img"), (SESSION_A, "plain2")],
    )
    aalis_check.equal(
        "cross-session read with kinds=['poke', 'group_recall'], exclude_kinds=['poke']",
        await _read(aalis_memory, limit=5, kinds=["poke", "group_recall"], exclude_kinds=["poke"]),
        [(SESSION_A, "recall")],
    )


@pytest.mark.aalis_spec("CROSS-05")
async def test_cross_session_since_ts_is_inclusive(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await _three_sessions(aalis_memory)
    aalis_check.equal(
        "cross-session read with since_ts=700",
        await _read(aalis_memory, limit=5, since_ts=700),
        [(SESSION_A, "a7"), (SESSION_B, "b8"), (SESSION_C, "c9")],
    )
    aalis_check.equal(
        "cross-session read with since_ts=901",
        await _read(aalis_memory, limit=5, since_ts=901),
        [],
    )


@pytest.mark.aalis_spec("CROSS-05")
async def test_cross_session_platform(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(
        aalis_memory,
        SESSION_A,
        [
            msg("q1", 100, metadata={"platform": "qq"}),
            msg("t1", 200, metadata={"platform": "telegram"}),
            msg("none", 300),
            msg("q2", 400, role="assistant", metadata={"platform": "qq", "group": "g"}),
            msg("other", 500, metadata={"channel": "qq"}),
        ],
    )
    aalis_check.equal(
        "cross-session read with platform='qq'",
        await _read(aalis_memory, limit=5, platform="qq"),
        [(SESSION_A, "q1"), (SESSION_A, "q2")],
    )


@pytest.mark.aalis_spec("CROSS-05")
async def test_cross_session_excluded_sessions(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    """Five messages and a limit of five: which sessions are dropped is the filter's alone, never
    which newest messages a limit picks (CROSS-02's; crowded reads are judged below)."""
    await save_all(aalis_memory, SESSION_A, [msg("a1", 100), msg("a4", 400, role="assistant")])
    await save_all(aalis_memory, SESSION_B, [msg("b2", 200), msg("b5", 500)])
    await save_all(aalis_memory, SESSION_C, [msg("c3", 300, role="assistant")])
    aalis_check.equal(
        "cross-session read with exclude_session_ids=[x-c, x-a]",
        await _read(aalis_memory, limit=5, exclude_session_ids=[SESSION_C, SESSION_A]),
        [(SESSION_B, "b2"), (SESSION_B, "b5")],
    )
    aalis_check.equal(
        "cross-session read with exclude_session_ids=[x-c]",
        await _read(aalis_memory, limit=5, exclude_session_ids=[SESSION_C]),
        [(SESSION_A, "a1"), (SESSION_B, "b2"), (SESSION_A, "a4"), (SESSION_B, "b5")],
    )


# -- the filters combined, under the limit and the cap ---------------------------------------
#
# One store of mixed messages, read with several filters at once and limits below, at and above
# the cap. Each rule is judged in a test of its own over every read, so a driver that breaks one
# aspect is still checked, and reported, on all the others. A read that breaks a filter rule is
# that rule's finding only: the count and the choice of records are judged on reads that return
# matching records alone.

SESSION_D = "x-d"
MIXED_SESSIONS = (SESSION_A, SESSION_B, SESSION_C, SESSION_D)
MIXED_COUNT = 160
#: Periods 4 (sessions), 3, 5 and 7 have no common factor, so every combination recurs.
MIXED_ROLES = ("user", "assistant", "system")
MIXED_KINDS: tuple[str | None, ...] = (None, "poke", None, "outbound-image", "group_recall")
MIXED_PLATFORMS: tuple[str | None, ...] = ("qq", "qq", "telegram", None, "qq", "telegram", "qq")
#: Between two saved timestamps: the inclusive edge of since_ts is its own test's.
SINCE = 1405
#: Each read's filters; every one mixes filters of at least two rules.
COMBINED: tuple[dict[str, Any], ...] = (
    {"platform": "qq", "exclude_session_ids": [SESSION_A]},
    {"since_ts": SINCE, "platform": "telegram", "exclude_session_ids": [SESSION_B, SESSION_C]},
    {"since_ts": SINCE, "exclude_session_ids": [SESSION_D], "roles": ["user", "system"]},
    {"platform": "qq", "roles": ["assistant"], "exclude_kinds": ["poke"]},
    {"exclude_session_ids": [SESSION_A], "kinds": ["poke", "outbound-image"], "exclude_kinds": ["poke"]},
    {"since_ts": SINCE, "exclude_session_ids": [SESSION_B], "exclude_kinds": ["group_recall", "poke"]},
    {
        "since_ts": SINCE,
        "platform": "qq",
        "exclude_session_ids": [SESSION_C],
        "roles": ["user", "assistant", "system"],
        "kinds": ["poke", "group_recall", "outbound-image"],
        "exclude_kinds": ["outbound-image"],
    },
)
FILTER_RULES = ("CROSS-03", "CROSS-04", "CROSS-05")
#: What each filter rule covers, for failure lines.
FILTER_NAMES = {
    "CROSS-03": "roles",
    "CROSS-04": "kinds / exclude_kinds",
    "CROSS-05": "since_ts / platform / exclude_session_ids",
}

Saved = tuple[str, Message]


async def _mixed(aalis_memory: MemoryService) -> list[Saved]:
    """MIXED_COUNT messages over four sessions, timestamps 1000, 1010, ... in write order."""
    saved: list[Saved] = []
    for i in range(MIXED_COUNT):
        platform = MIXED_PLATFORMS[i % len(MIXED_PLATFORMS)]
        message = msg(
            f"m{i}",
            1000 + 10 * i,
            role=MIXED_ROLES[i % len(MIXED_ROLES)],
            kind=MIXED_KINDS[i % len(MIXED_KINDS)],
            metadata=None if platform is None else {"platform": platform},
        )
        saved.append((MIXED_SESSIONS[i % len(MIXED_SESSIONS)], message))
    for session_id, message in saved:
        await aalis_memory.save_message(session_id, message)
    return saved


def _combined_queries(cap: int) -> list[Query]:
    return [Query(limit=limit, **filters) for filters in COMBINED for limit in (2, cap, cap + 2, math.inf)]


def _filters(query: Query) -> dict[str, Callable[[Saved], bool]]:
    """The kit's reading of each filter rule, as a predicate on a saved (session, message)."""
    roles = ("user", "assistant") if query.roles is None else query.roles
    excluded_kinds = query.exclude_kinds or ()
    excluded_sessions = query.exclude_session_ids or ()

    def kinds(saved: Saved) -> bool:
        kind = saved[1].kind
        return (query.kinds is None or kind in query.kinds) and (kind is None or kind not in excluded_kinds)

    def window(saved: Saved) -> bool:
        session_id, message = saved
        platform = (message.metadata or {}).get("platform")
        return (
            (query.since_ts is None or (message.timestamp or 0) >= query.since_ts)
            and (query.platform is None or platform == query.platform)
            and session_id not in excluded_sessions
        )

    return {"CROSS-03": lambda saved: saved[1].role in roles, "CROSS-04": kinds, "CROSS-05": window}


def _shown(query: Query) -> str:
    fields = [(f.name, getattr(query, f.name)) for f in attrs.fields(Query)]
    return ", ".join(
        f"{name}={describe(list(value) if isinstance(value, tuple) else value)}"
        for name, value in fields
        if value is not None
    )


def _matching(query: Query, saved: list[Saved]) -> list[Saved]:
    """The saved records every filter of ``query`` keeps, oldest first."""
    filters = _filters(query)
    return [s for s in saved if all(f(s) for f in filters.values())]


def _newest(matching: list[Saved], query: Query, cap: int) -> list[Saved]:
    """What the read must return of ``matching``: its newest min(limit, cap)."""
    wanted = min(query.limit, cap)
    return matching[-int(wanted) :] if wanted < len(matching) else matching


async def _judge_inf(
    aalis_memory: FullMemoryService,
    query: Query,
    saved: list[Saved],
    found: list[RecentMessageRecord],
    cap: int,
) -> tuple[bool, str] | None:
    """LIM-04's verdict on one read (``None`` for a finite limit, which it says nothing about)."""
    if query.limit != math.inf:
        return None
    want = [(s, m.content) for s, m in _newest(_matching(query, saved), query, cap)]
    return await _inf_narrowed(aalis_memory, query, records(found), want, cap)


def _judge(
    rule_id: str, query: Query, saved: list[Saved], found: list[RecentMessageRecord], cap: int
) -> tuple[bool, str] | None:
    """Whether the read ``found`` keeps ``rule_id`` (with the failure line), or ``None`` when it
    says nothing about that rule."""
    filters = _filters(query)
    matching = _matching(query, saved)
    place = {(s[0], s[1].content): i for i, s in enumerate(matching)}
    index = {(s[0], s[1].content): s for s in saved}
    got = [(r.session_id, r.message.content) for r in found]
    want = _newest(matching, query, cap)

    def line() -> str:  # only a failure shows it: most reads hold
        return (
            f"cross-session read with {_shown(query)} (cap {cap}, {len(matching)} matching): "
            f"expected {describe([(s, m.content) for s, m in want])}, got {describe(got)}"
        )

    # Matching records left out while older ones came back.
    positions = [place[key] for key in got if key in place]
    skipped = [
        matching[p] for p in range(min(positions, default=len(matching)), len(matching)) if p not in positions
    ]
    kindless_skipped = bool(skipped) and bool(query.exclude_kinds) and all(s[1].kind is None for s in skipped)
    if rule_id in FILTER_RULES:
        if rule_id == "CROSS-04" and not (query.kinds or query.exclude_kinds):
            return None
        wrong = [key for key in got if key in index and not filters[rule_id](index[key])]
        if wrong:
            return False, f"{line()}; {describe(wrong)} fail its {FILTER_NAMES[rule_id]}"
        if rule_id == "CROSS-04" and kindless_skipped:
            return False, (
                f"{line()}; kind-less {describe([(s, m.content) for s, m in skipped])} "
                "left out although exclude_kinds keeps them"
            )
        return True, ""
    if len(positions) < len(got) or kindless_skipped:
        return None  # a record no filter lets through, or a kind-less one left out: their rules'
    # Asking for more than the cap, math.inf included, is CROSS-01's count; LIM-04 judges only
    # whether math.inf escapes the cap (_inf_narrowed).
    count_rule = "CROSS-01" if query.limit > cap else "CROSS-02"
    count = min(query.limit, cap, len(matching))
    if rule_id == "CROSS-02":
        if skipped or positions != sorted(positions):
            return False, f"{line()}; not the newest matching records, ascending"
    elif rule_id != count_rule:
        return None
    if rule_id == count_rule and len(got) != count:
        return False, f"{line()}; expected exactly {count} records, got {len(got)}"
    return True, ""


async def _verdict(
    aalis_memory: FullMemoryService,
    rule_id: str,
    query: Query,
    saved: list[Saved],
    found: list[RecentMessageRecord],
    cap: int,
) -> tuple[bool, str] | None:
    """``rule_id``'s verdict on one read, ``None`` when the read says nothing about it."""
    if rule_id == "LIM-04":
        return await _judge_inf(aalis_memory, query, saved, found, cap)
    return _judge(rule_id, query, saved, found, cap)


async def _combined(aalis_memory: FullMemoryService, cap: int, check: Check) -> None:
    saved = await _mixed(aalis_memory)
    with check.every_case("cross-session reads with combined filters went wrong") as cases:
        for query in _combined_queries(cap):
            found = await aalis_memory.get_recent_messages_across_sessions(query)
            verdict = await _verdict(aalis_memory, check.rule_id, query, saved, list(found), cap)
            if verdict is not None:
                with cases.case():
                    check.that(*verdict)


@pytest.mark.aalis_spec("CROSS-01")
async def test_cross_session_combined_filters_above_the_cap(
    aalis_memory: FullMemoryService, aalis_memory_ctx: DriverContext, aalis_check: Check
) -> None:
    """A finite limit above the cap: exactly min(cap, matching) of the filtered records."""
    await _combined(aalis_memory, aalis_memory_ctx.cross_session_max_limit, aalis_check)


@pytest.mark.aalis_spec("LIM-04")
async def test_cross_session_combined_filters_inf(
    aalis_memory: FullMemoryService, aalis_memory_ctx: DriverContext, aalis_check: Check
) -> None:
    """math.inf does not escape the cap: no more than it, and read as the cap is."""
    await _combined(aalis_memory, aalis_memory_ctx.cross_session_max_limit, aalis_check)


@pytest.mark.aalis_spec("CROSS-02")
async def test_cross_session_combined_filters_newest(
    aalis_memory: FullMemoryService, aalis_memory_ctx: DriverContext, aalis_check: Check
) -> None:
    """The newest matching records, ascending; within the cap, exactly limit of them."""
    await _combined(aalis_memory, aalis_memory_ctx.cross_session_max_limit, aalis_check)


@pytest.mark.aalis_spec("CROSS-03")
async def test_cross_session_combined_filters_roles(
    aalis_memory: FullMemoryService, aalis_memory_ctx: DriverContext, aalis_check: Check
) -> None:
    await _combined(aalis_memory, aalis_memory_ctx.cross_session_max_limit, aalis_check)


@pytest.mark.aalis_spec("CROSS-04")
async def test_cross_session_combined_filters_kinds(
    aalis_memory: FullMemoryService, aalis_memory_ctx: DriverContext, aalis_check: Check
) -> None:
    await _combined(aalis_memory, aalis_memory_ctx.cross_session_max_limit, aalis_check)


@pytest.mark.aalis_spec("CROSS-05")
async def test_cross_session_combined_filters_window(
    aalis_memory: FullMemoryService, aalis_memory_ctx: DriverContext, aalis_check: Check
) -> None:
    """since_ts, platform and exclude_session_ids hold together and with the other filters."""
    await _combined(aalis_memory, aalis_memory_ctx.cross_session_max_limit, aalis_check)


# -- crowded filters ----------------------------------------------------------------------------
#
# A few old matching messages under many newer ones that one filter drops: a read that fetches
# some multiple of the limit and filters afterwards finds none of the old ones. Each crowding
# message fails exactly one filter of each read (the others let it through), so every filter is
# crowded on its own.

#: The session of the matching messages and the session of the crowd.
QUIET = "x-quiet"
CROWD = "x-crowd"
#: Crowding messages, newer than every matching one: many times every limit the reads ask for.
CROWD_COUNT = 60
#: Roles that let the crowd (role tool) through, where the read's subject is another filter.
WITH_TOOL = ["user", "assistant", "tool"]
#: Each read's filters: exactly one of them drops the crowd.
CROWDED: tuple[dict[str, Any], ...] = (
    {"exclude_session_ids": [CROWD], "roles": WITH_TOOL},
    {"platform": "qq", "roles": WITH_TOOL},
    {},  # the default roles, user and assistant
    {"roles": ["user", "assistant"]},
    {"exclude_kinds": ["poke"], "roles": WITH_TOOL},
    {"kinds": ["outbound-image", "group_recall"], "roles": WITH_TOOL},
)


async def _crowded(aalis_memory: MemoryService) -> list[Saved]:
    """Four old messages that pass every crowded read (two kind-less, two of kinds a kinds
    whitelist names), then CROWD_COUNT newer tool messages of kind poke on another platform in
    the crowd session."""
    qq = {"platform": "qq"}
    saved: list[Saved] = [
        (QUIET, msg("q0", 1000, metadata=qq)),
        (QUIET, msg("q1", 1010, role="assistant", kind="outbound-image", metadata=qq)),
        (QUIET, msg("q2", 1020, metadata=qq)),
        (QUIET, msg("q3", 1030, role="assistant", kind="group_recall", metadata=qq)),
    ]
    saved += [
        (CROWD, msg(f"n{i}", 2000 + 10 * i, role="tool", kind="poke", metadata={"platform": "telegram"}))
        for i in range(CROWD_COUNT)
    ]
    for session_id, message in saved:
        await aalis_memory.save_message(session_id, message)
    return saved


async def _crowded_reads(aalis_memory: FullMemoryService, cap: int, check: Check) -> None:
    saved = await _crowded(aalis_memory)
    with check.every_case("cross-session reads crowded by newer filtered-out messages went wrong") as cases:
        for filters in CROWDED:
            for limit in (2, cap, cap + 2, math.inf):
                query = Query(limit=limit, **filters)
                found = await aalis_memory.get_recent_messages_across_sessions(query)
                verdict = await _verdict(aalis_memory, check.rule_id, query, saved, list(found), cap)
                if verdict is not None:
                    with cases.case():
                        check.that(*verdict)


@pytest.mark.aalis_spec("CROSS-02")
async def test_cross_session_crowded_filters_newest(
    aalis_memory: FullMemoryService, aalis_memory_ctx: DriverContext, aalis_check: Check
) -> None:
    """Within the cap: the newest limit matching records, however many newer ones are
    filtered out."""
    await _crowded_reads(aalis_memory, aalis_memory_ctx.cross_session_max_limit, aalis_check)


@pytest.mark.aalis_spec("CROSS-01")
async def test_cross_session_crowded_filters_above_the_cap(
    aalis_memory: FullMemoryService, aalis_memory_ctx: DriverContext, aalis_check: Check
) -> None:
    """Above the cap: exactly min(cap, matching) records, however many newer ones are
    filtered out."""
    await _crowded_reads(aalis_memory, aalis_memory_ctx.cross_session_max_limit, aalis_check)


@pytest.mark.aalis_spec("LIM-04")
async def test_cross_session_crowded_filters_inf(
    aalis_memory: FullMemoryService, aalis_memory_ctx: DriverContext, aalis_check: Check
) -> None:
    """math.inf does not escape the cap, however many newer records are filtered out: no more
    than it, and read as the cap is."""
    await _crowded_reads(aalis_memory, aalis_memory_ctx.cross_session_max_limit, aalis_check)
