"""Where the state machine checks a cap (RANGE-01, CROSS-01), a read must return exactly
``min(cap, available)``: returning fewer, or nothing, fails like returning more.

The range store is the catalogue's ``range-empty-over-cap``; the cross-session one lives here (its
catalogue twin empties only when more messages match than the cap, which the machine rarely
generates), since only the machine's promise is tested.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from aalis_memory.conformance.machine.core import Target
from aalis_memory.conformance.machine.runner import run_machine
from aalis_memory.conformance.registration.registry import Capabilities, DriverContext, DriverRegistration
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.types import RecentMessageRecord, RecentMessagesAcrossSessionsQuery
from broken_drivers import BROKEN, load_all
from broken_drivers import registration as broken_registration


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
        yield cls(
            range_query_limit=ctx.range_query_limit, cross_session_max_limit=ctx.cross_session_max_limit
        )

    return DriverRegistration(
        name=cls.__name__,
        factory=factory,
        capabilities=Capabilities(ordering="write", metadata_atomicity="atomic", archive_atomicity="atomic"),
    )


load_all()


@pytest.mark.parametrize(
    ("reg", "rule_id"),
    [
        (broken_registration(BROKEN["range-empty-over-cap"]), "RANGE-01"),
        (registration(CrossOverCapReturnsNothing), "CROSS-01"),
    ],
    ids=["range", "cross"],
)
def test_an_empty_answer_over_the_cap_fails_its_rule(
    reg: DriverRegistration, rule_id: str, tmp_path: Path
) -> None:
    run = run_machine(
        [Target(reg, DriverContext(name=reg.name, tmp_path=tmp_path))], profile="ci", strict=True
    )
    assert run.failure is not None, f"{reg.name} passed the state machine"
    assert run.failure.rule.id == rule_id, str(run.failure)
