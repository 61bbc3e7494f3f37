"""The state machine files a disagreement by its aspect and its origin (issue 26).

A message that came back with another timestamp is a field-value disagreement, whatever it does to
the history read through it (membership, order, a window): its rule is the one of the operation
that changed it, a rewrite (UPD-04) or the save (TS-01 for 0, below it or a fraction, MSG-03 for a
stamp the store chose). A SHOULD reading found so is an advisory outside strict mode and never
turns into a MUST failure over its consequences.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import attrs
import pytest

from aalis_memory.conformance.machine.attribution import (
    Origin,
    field_rules,
    first_changed,
    list_mismatch_rules,
)
from aalis_memory.conformance.machine.core import Target
from aalis_memory.conformance.machine.runner import MachineRun, run_machine
from aalis_memory.conformance.registration.registry import DriverContext, load_entry_points
from aalis_memory.conformance.registration.registry import get as get_driver
from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.sqlite import SqliteMemory
from aalis_memory.types import Message
from broken_drivers import BROKEN, load_all, registration

load_all()

NOW = 1_796_000_000_000
READ = ("HIST-01", "HIST-05")


def msg(content: str, ts: float, kind: str | None = None) -> Message:
    return Message(role="user", content=content, timestamp=ts, kind=kind)


def blamed(
    expected: list[Message],
    actual: list[Message],
    origins: dict[str, Origin],
    cause: tuple[str, ...] = ("MSG-02", "MSG-01"),
) -> list[str]:
    """The rules a get_history of ``actual`` where ``expected`` was due is filed under."""
    return list_mismatch_rules(
        "s",
        expected,
        actual,
        owner={},
        read=READ,
        order_rule="HIST-02",
        cause=cause,
        unknown=[],
        origin=lambda m: origins.get(m.content or ""),
    )


def test_a_timestamp_changed_at_save_is_the_saves_rule_not_the_reads() -> None:
    zero, one = msg("zero", 0), msg("one", 1)
    restamped = msg("zero", NOW)
    # Write order: the same list, one timestamp off.
    assert blamed([zero, one], [restamped, one], {"zero": "save"}) == ["TS-01"]
    # Timestamp order: the restamped message moved last; the order is its consequence.
    assert blamed([zero, one], [one, restamped], {"zero": "save"}) == ["TS-01"]
    # A window missing a message: the changed field of the one both hold comes first.
    assert blamed([zero, one], [restamped], {"zero": "save"}) == ["TS-01"]
    # A stamp the store chose, and a plain positive timestamp, are not TS-01's.
    assert blamed([msg("a", 5)], [msg("a", NOW)], {"a": "stamped"}) == ["MSG-03"]
    assert blamed([msg("a", 5)], [msg("a", NOW)], {"a": "save"}) == ["MSG-02"]
    assert blamed([msg("a", 1.5)], [msg("a", 1)], {"a": "save"}) == ["TS-01"]  # rounded


def test_a_timestamp_changed_at_rewrite_is_upd_04_alone() -> None:
    before, after = msg("x ", 1000), msg("x ", NOW)
    assert blamed([before], [after], {"x ": "rewrite"}, ("UPD-02", "UPD-01", "LIM-03")) == ["UPD-04"]
    # Even at 0: the rewrite restamped it, the save had kept it.
    assert blamed([msg("x ", 0)], [after], {"x ": "rewrite"}) == ["UPD-04"]


def test_other_fields_are_theirs() -> None:
    marker = msg("m", 1, kind="note")
    assert field_rules(marker, msg("m", 1), "save") == ["MSG-05"]
    media = Message(role="user", content="i", timestamp=1, images=("img://1",))
    assert field_rules(media, msg("i", 1), "save") == ["MSG-02"]
    assert field_rules(media, msg("i", 1), "rewrite") == ["UPD-02", "MSG-02"]
    # Origin unknown (an earlier step, or a read): the step's rules follow the field's.
    assert field_rules(media, msg("i", 1), None, ("ARCH-01",)) == ["MSG-02", "ARCH-01"]


def test_membership_and_order_still_theirs() -> None:
    a, b = msg("a", 1), msg("b", 2)
    assert first_changed([a, b], [b, a]) is None
    assert blamed([a, b], [b, a], {})[0] == "HIST-02"
    assert blamed([a], [a, b], {}, ())[0] == "HIST-01"  # an archived message came back


def machine_run(name: str, tmp_path: Path, *, strict: bool) -> MachineRun:
    reg = registration(BROKEN[name])
    return run_machine(
        [Target(reg, DriverContext(name=reg.name, tmp_path=tmp_path))], profile="ci", strict=strict
    )


@pytest.mark.parametrize("strict", [False, True])
def test_update_restamps_is_upd_04_only(tmp_path: Path, strict: bool) -> None:
    run = machine_run("update-restamps", tmp_path, strict=strict)
    assert run.failure is not None, "broken-update-restamps passed the state machine"
    assert run.failure.involved == ("UPD-04",), str(run.failure)
    assert not run.later, [str(f) for f in run.later]
    assert not run.advisories, [a.rule for a in run.advisories]


def test_timestamp_zero_restamped_is_an_advisory_of_ts_01_and_no_failure(tmp_path: Path) -> None:
    run = machine_run("ts-zero-restamped", tmp_path, strict=False)
    assert run.failure is None, str(run.failure)
    assert [a.rule for a in run.advisories] == ["TS-01"]
    # Past the advisory, the rest was judged (on whole, positive timestamps) and held.
    assert {"HIST-01", "HIST-02", "MSG-02", "UPD-04"} <= set(run.checked)
    assert "TS-01" not in run.checked


def test_timestamp_zero_restamped_strict_fails_ts_01_only(tmp_path: Path) -> None:
    run = machine_run("ts-zero-restamped", tmp_path, strict=True)
    assert run.failure is not None
    assert run.failure.involved == ("TS-01",), str(run.failure)
    assert not run.later, [str(f) for f in run.later]


class SqliteZeroRestamped(SqliteMemory):
    """ts-zero-restamped on the timestamp-ordered tier: the restamped message also moves
    to the end of every history, which is the restamp's consequence, not an order bug."""

    async def save_message(self, session_id: str, message: Message) -> None:
        if message.timestamp == 0:
            message = attrs.evolve(message, timestamp=sem.now_ms())
        await super().save_message(session_id, message)


async def sqlite_zero_restamped(ctx: DriverContext) -> AsyncIterator[SqliteMemory]:
    store = await SqliteZeroRestamped.open(
        ctx.tmp_path / "memory.sqlite3",
        range_query_limit=ctx.range_query_limit,
        cross_session_max_limit=ctx.cross_session_max_limit,
    )
    try:
        yield store
    finally:
        await store.close()


@pytest.mark.parametrize("strict", [False, True])
def test_a_restamp_that_reorders_is_still_ts_01(tmp_path: Path, strict: bool) -> None:
    load_entry_points()
    reg = attrs.evolve(
        get_driver("sqlite"), name="sqlite-zero-restamped", factory=sqlite_zero_restamped, reopen=None
    )
    run = run_machine(
        [Target(reg, DriverContext(name=reg.name, tmp_path=tmp_path))], profile="ci", strict=strict
    )
    if strict:
        assert run.failure is not None
        assert run.failure.involved == ("TS-01",), str(run.failure)
    else:
        assert run.failure is None, str(run.failure)
        assert [a.rule for a in run.advisories] == ["TS-01"]
    assert not run.later, [str(f) for f in run.later]
