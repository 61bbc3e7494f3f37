"""Where the state machine checks a cap (RANGE-01, CROSS-01), a read must return exactly
``min(cap, available)``: returning fewer, or nothing, fails like returning more.

The broken stores live here, not in ``broken_drivers``: only the machine's promise is tested.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from aalis_memory.conformance.machine.core import Target
from aalis_memory.conformance.machine.runner import run_machine
from aalis_memory.conformance.registry import Capabilities, DriverContext, DriverRegistration
from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.types import Message, RecentMessageRecord, RecentMessagesAcrossSessionsQuery


class RangeOverCapReturnsNothing(InMemoryMemory):
    """A range read with more matches than the cap answers [] instead of the earliest cap."""

    async def get_messages_by_session_range(
        self, session_id: str, from_ts: int | float, to_ts: int | float,
        roles: Sequence[str] | None = None, exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        keep = sem.range_filter(from_ts, to_ts, roles, exclude_kinds)
        if sum(1 for s in self._sessions.get(session_id, ()) if keep(s.message)) \
                > self.range_query_limit:
            return []
        return await super().get_messages_by_session_range(session_id, from_ts, to_ts, roles,
                                                           exclude_kinds)


class CrossOverCapReturnsNothing(InMemoryMemory):
    """A cross-session read asking for more than the cap (a number, not inf) answers []."""

    async def get_recent_messages_across_sessions(
        self, query: RecentMessagesAcrossSessionsQuery
    ) -> list[RecentMessageRecord]:
        if query.limit != math.inf and query.limit > self.cross_session_max_limit:
            return []
        return await super().get_recent_messages_across_sessions(query)


def registration(cls: type[InMemoryMemory]) -> DriverRegistration:
    async def factory(ctx: DriverContext) -> AsyncIterator[Any]:
        yield cls(range_query_limit=ctx.range_query_limit,
                  cross_session_max_limit=ctx.cross_session_max_limit)

    return DriverRegistration(
        name=cls.__name__, factory=factory,
        capabilities=Capabilities(ordering="write", metadata_atomicity="atomic",
                                  archive_atomicity="atomic"),
    )


@pytest.mark.parametrize(("cls", "rule_id"), [
    (RangeOverCapReturnsNothing, "RANGE-01"),
    (CrossOverCapReturnsNothing, "CROSS-01"),
])
def test_an_empty_answer_over_the_cap_fails_its_rule(
    cls: type[InMemoryMemory], rule_id: str, tmp_path: Path
) -> None:
    reg = registration(cls)
    run = run_machine([Target(reg, DriverContext(name=reg.name, tmp_path=tmp_path))],
                      profile="ci", strict=True)
    assert run.failure is not None, f"{cls.__name__} passed the state machine"
    assert run.failure.rule.id == rule_id, str(run.failure)
