"""get_history, count_history and get_full_history (api-memory §核心方法)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from aalis_memory.conformance.checks import contents, expect_equal
from aalis_memory.conformance.requirements import requires
from aalis_memory.conformance.suite._build import conversation, marker, msg, save_all, turn

S = "s-hist"


@pytest.mark.spec("LIM-01")
async def test_history_limit_zero_is_empty(memory: Any) -> None:
    await save_all(memory, S, conversation("m", 3))
    expect_equal("LIM-01", "get_history(s, 0)", contents(await memory.get_history(S, 0)), [])


@pytest.mark.spec("LIM-02")
async def test_history_limit_inf_is_everything(memory: Any) -> None:
    await save_all(memory, S, conversation("m", 60))
    got = await memory.get_history(S, math.inf)
    expect_equal("LIM-02", "len(get_history(s, inf)) of 60", len(got), 60)


@pytest.mark.spec("HIST-03", "HIST-04")
async def test_history_limit_counts_only_conversation(memory: Any) -> None:
    await save_all(
        memory,
        S,
        [msg("a", 1), marker("d1", 2), msg("b", 3), turn("t1", 4), marker("d2", 5), msg("c", 6)],
    )
    expect_equal(
        "HIST-03",
        "get_history(s, 2) over [a, d1, b, t1, d2, c]",
        contents(await memory.get_history(S, 2)),
        ["d1", "b", "t1", "d2", "c"],
    )
    expect_equal(
        "HIST-04",
        "get_history(s, 1) over [a, d1, b, t1, d2, c]",
        contents(await memory.get_history(S, 1)),
        ["t1", "d2", "c"],
    )
