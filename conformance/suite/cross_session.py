"""get_recent_messages_across_sessions: the limit rule of api-memory §核心方法 (LIM-01, LIM-04),
the cap of plugin-memory-mongodb §配置 (CROSS-01, binding every backend with such a cap) and this
project's reading of the filters (CROSS-02..05)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from aalis_memory.conformance.checks import expect, expect_equal
from aalis_memory.conformance.registry import DriverContext
from aalis_memory.conformance.requirements import requires
from aalis_memory.conformance.suite._build import msg, save_all
from aalis_memory.conformance.suite._views import records
from aalis_memory.types import RecentMessagesAcrossSessionsQuery as Query

A = "x-a"
B = "x-b"
C = "x-c"

pytestmark = requires.get_recent_messages_across_sessions


async def _three_sessions(aalis_memory: Any) -> None:
    """Nine user/assistant messages spread over three sessions, timestamps 100..900."""
    await save_all(aalis_memory, A, [msg("a1", 100), msg("a4", 400, role="assistant"), msg("a7", 700)])
    await save_all(aalis_memory, B, [msg("b2", 200), msg("b5", 500), msg("b8", 800, role="assistant")])
    await save_all(aalis_memory, C, [msg("c3", 300, role="assistant"), msg("c6", 600), msg("c9", 900)])


async def _read(aalis_memory: Any, **query: Any) -> list[tuple[str, str | None]]:
    return records(await aalis_memory.get_recent_messages_across_sessions(Query(**query)))


@pytest.mark.aalis_spec("LIM-01")
async def test_cross_session_limit_zero_is_empty(aalis_memory: Any) -> None:
    await _three_sessions(aalis_memory)
    expect_equal("LIM-01", "cross-session read with limit=0", await _read(aalis_memory, limit=0), [])


@pytest.mark.aalis_spec("LIM-04")
async def test_cross_session_inf_is_capped(aalis_memory: Any, aalis_memory_ctx: DriverContext) -> None:
    cap = aalis_memory_ctx.cross_session_max_limit
    await _three_sessions(aalis_memory)
    got = await _read(aalis_memory, limit=math.inf)
    expect("LIM-04", len(got) == min(cap, 9),
           f"cross-session read with limit=inf over 9 messages, cross_session_max_limit={cap} "
           f"(the cap in DriverContext): expected {min(cap, 9)} records, got {len(got)}")


@pytest.mark.aalis_spec("CROSS-01")
@pytest.mark.parametrize(("over", "available"), [(2, 9), (1, 9), (2, 3)])
async def test_cross_session_limit_above_cap_is_narrowed(
    aalis_memory: Any, aalis_memory_ctx: DriverContext, over: int, available: int
) -> None:
    """Narrowed, not refused: exactly ``min(cap, matching)`` records come back."""
    cap = aalis_memory_ctx.cross_session_max_limit
    if available == 9:
        await _three_sessions(aalis_memory)
    else:
        await save_all(aalis_memory, A, [msg("a1", 100), msg("a4", 400, role="assistant"),
                                         msg("a7", 700)])
    got = await _read(aalis_memory, limit=cap + over)
    expect("CROSS-01", len(got) == min(cap, available),
           f"cross-session read with limit={cap + over} over {available} matching messages, "
           f"cross_session_max_limit={cap} (the cap in DriverContext): expected exactly "
           f"{min(cap, available)} records, got {len(got)}")


@pytest.mark.aalis_spec("CROSS-02")
async def test_cross_session_newest_ascending(aalis_memory: Any) -> None:
    await _three_sessions(aalis_memory)
    expect_equal("CROSS-02", "cross-session read with limit=4", await _read(aalis_memory, limit=4),
                 [(C, "c6"), (A, "a7"), (B, "b8"), (C, "c9")])
    expect_equal("CROSS-02", "cross-session read with limit=1", await _read(aalis_memory, limit=1),
                 [(C, "c9")])


@pytest.mark.aalis_spec("CROSS-02")
async def test_cross_session_skips_archived(aalis_memory: Any) -> None:
    await _three_sessions(aalis_memory)
    await aalis_memory.archive_span(C, 3, [1])
    expect_equal("CROSS-02", "cross-session read with limit=3 after archiving c3, c9",
                 await _read(aalis_memory, limit=3), [(C, "c6"), (A, "a7"), (B, "b8")])


@pytest.mark.aalis_spec("CROSS-02")
async def test_cross_session_orders_by_timestamp_not_writes(aalis_memory: Any) -> None:
    await save_all(aalis_memory, B, [msg("b3", 300)])
    await save_all(aalis_memory, A, [msg("a1", 100), msg("a4", 400)])
    await save_all(aalis_memory, C, [msg("c2", 200)])
    expect_equal("CROSS-02", "cross-session read with limit=3", await _read(aalis_memory, limit=3),
                 [(C, "c2"), (B, "b3"), (A, "a4")])


@pytest.mark.aalis_spec("CROSS-02")
async def test_cross_session_same_millisecond_newest_write_wins(aalis_memory: Any) -> None:
    await save_all(aalis_memory, A, [msg("a1", 500)])
    await save_all(aalis_memory, B, [msg("b2", 500)])
    await save_all(aalis_memory, A, [msg("a3", 500)])
    expect_equal("CROSS-02", "cross-session read with limit=1 over a1, b2, a3 all at ms 500",
                 await _read(aalis_memory, limit=1), [(A, "a3")])
    expect_equal("CROSS-02", "cross-session read with limit=2 over a1, b2, a3 all at ms 500",
                 await _read(aalis_memory, limit=2), [(B, "b2"), (A, "a3")])


@pytest.mark.aalis_spec("CROSS-03")
async def test_cross_session_roles(aalis_memory: Any) -> None:
    await save_all(aalis_memory, A, [
        msg("u", 100), msg("s", 200, role="system"), msg("t", 300, role="tool"),
        msg("a", 400, role="assistant"), msg("n", 500, role="notice"),
    ])
    expect_equal("CROSS-03", "cross-session read without roles", await _read(aalis_memory, limit=4),
                 [(A, "u"), (A, "a")])
    expect_equal("CROSS-03", "cross-session read with roles=['system', 'notice']",
                 await _read(aalis_memory, limit=4, roles=["system", "notice"]),
                 [(A, "s"), (A, "n")])
    expect_equal("CROSS-03", "cross-session read with roles=['tool']",
                 await _read(aalis_memory, limit=4, roles=["tool"]), [(A, "t")])


@pytest.mark.aalis_spec("CROSS-04")
async def test_cross_session_kinds(aalis_memory: Any) -> None:
    await save_all(aalis_memory, A, [
        msg("plain", 100), msg("poke", 200, kind="poke"), msg("recall", 300, kind="group_recall"),
        msg("img", 400, role="assistant", kind="outbound-image"), msg("plain2", 500),
    ])
    expect_equal("CROSS-04", "cross-session read with kinds=['poke', 'outbound-image']",
                 await _read(aalis_memory, limit=5, kinds=["poke", "outbound-image"]),
                 [(A, "poke"), (A, "img")])
    expect_equal("CROSS-04", "cross-session read with exclude_kinds=['poke']",
                 await _read(aalis_memory, limit=5, exclude_kinds=["poke"]),
                 [(A, "plain"), (A, "recall"), (A, "img"), (A, "plain2")])
    expect_equal("CROSS-04", "cross-session read with kinds=['poke', 'group_recall'], "
                 "exclude_kinds=['poke']",
                 await _read(aalis_memory, limit=5, kinds=["poke", "group_recall"],
                             exclude_kinds=["poke"]),
                 [(A, "recall")])


@pytest.mark.aalis_spec("CROSS-05")
async def test_cross_session_since_ts_is_inclusive(aalis_memory: Any) -> None:
    await _three_sessions(aalis_memory)
    expect_equal("CROSS-05", "cross-session read with since_ts=700",
                 await _read(aalis_memory, limit=5, since_ts=700),
                 [(A, "a7"), (B, "b8"), (C, "c9")])
    expect_equal("CROSS-05", "cross-session read with since_ts=901",
                 await _read(aalis_memory, limit=5, since_ts=901), [])


@pytest.mark.aalis_spec("CROSS-05")
async def test_cross_session_platform(aalis_memory: Any) -> None:
    await save_all(aalis_memory, A, [
        msg("q1", 100, metadata={"platform": "qq"}),
        msg("t1", 200, metadata={"platform": "telegram"}),
        msg("none", 300),
        msg("q2", 400, role="assistant", metadata={"platform": "qq", "group": "g"}),
        msg("other", 500, metadata={"channel": "qq"}),
    ])
    expect_equal("CROSS-05", "cross-session read with platform='qq'",
                 await _read(aalis_memory, limit=5, platform="qq"), [(A, "q1"), (A, "q2")])


@pytest.mark.aalis_spec("CROSS-05")
async def test_cross_session_excluded_sessions(aalis_memory: Any) -> None:
    await _three_sessions(aalis_memory)
    expect_equal("CROSS-05", "cross-session read with exclude_session_ids=[x-c, x-a]",
                 await _read(aalis_memory, limit=5, exclude_session_ids=[C, A]),
                 [(B, "b2"), (B, "b5"), (B, "b8")])
    expect_equal("CROSS-05", "cross-session read with limit=2, exclude_session_ids=[x-c]",
                 await _read(aalis_memory, limit=2, exclude_session_ids=[C]),
                 [(A, "a7"), (B, "b8")])
