"""A failure does not end the judging (issue 21): every rule the machine can fail is tolerated past
its failure, the histories run again, and no rule reads ``pass`` by default.

After the failure that ends a run, the runner tolerates the failed rule and runs the histories
again under the ``ci`` profile, once per rule found broken, at most ``MAX_JUDGING_RUNS`` times. A
rule with no toleration of its own is tolerated with its inputs unchanged: a divergence it is
involved in is not held against the others, and when it says what a write does, the rest of that
history is not checked (the store may no longer hold what the model does). A round of histories
that ended in a failure credits nothing, so a rule checked only before a failure is not passed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import settings
from test_broken_drivers import run_suite

from aalis_memory.conformance.machine.core import Target
from aalis_memory.conformance.machine.failure import MachineFailure
from aalis_memory.conformance.machine.ledger import CheckLedger
from aalis_memory.conformance.machine.machine import MachineFactory
from aalis_memory.conformance.machine.runner import (
    FLAKY_NOTE,
    MAX_JUDGING_RUNS,
    machine_for,
    run_machine,
    run_minimized,
)
from aalis_memory.conformance.machine.tolerance import TOLERATIONS, Tolerance
from aalis_memory.conformance.registration.registry import DriverContext, DriverRegistration
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.drivers.semantics import now_ms
from aalis_memory.types import Message
from broken_drivers import BROKEN, INMEMORY_CAPS, load_all, registration
from broken_drivers.masking import KEEP_IGNORED, STALE_COUNT_KEEP_IGNORED
from reports import failing, messages, verdicts

load_all()

BOTH = "count-stale-after-archive-keep-ignored"


def target(name: str, tmp_path: Path) -> Target:
    reg = registration(BROKEN[name])
    return Target(reg, DriverContext(name=reg.name, tmp_path=tmp_path))


def test_the_driver_declares_what_it_breaks() -> None:
    assert BROKEN[BOTH].breaks == frozenset(STALE_COUNT_KEEP_IGNORED)


@pytest.mark.parametrize("strict", [True, False])
def test_both_must_failures_are_reported(strict: bool, tmp_path: Path) -> None:
    """A stale count after archive_span (COUNT-01) and an archive that ignores keep (ARCH-02):
    whichever the machine meets first, the judging after it finds the other."""
    run = run_machine([target(BOTH, tmp_path)], profile="ci", strict=strict)
    assert run.failure is not None
    found = [run.failure.rule.id, *(f.rule.id for f in run.later)]
    assert "COUNT-01" in found, str(run.failure)
    assert set(found) & set(KEEP_IGNORED), str(run.failure)
    assert set(found) <= BROKEN[BOTH].breaks, str(run.failure)
    assert not run.capped
    assert not set(found) & set(run.checked), "a rule found broken is never reported checked"
    text = str(run.failure)
    for failure in run.later:
        assert f"[{failure.rule.id} MUST]" in text, text  # the later failures are told, with
    assert text.count("reproduce (shrunk history") == 1 + len(run.later)  # their reproductions


def test_the_report_shows_both_and_passes_neither(tmp_path: Path) -> None:
    """Through the plugin, the machine alone: the first failure fails its rule, the text names
    the later one, and neither reads pass."""
    code, report, output = run_suite(tmp_path, [f"broken-{BOTH}"], "-k", "state_machine")
    assert code == 1, output[-3000:]
    failed = failing(report, f"broken-{BOTH}")
    assert len(failed) == 1, sorted(failed)
    [(first, outcomes)] = failed.items()
    text = "\n".join(messages(outcomes))
    other = "COUNT-01" if first != "COUNT-01" else "ARCH-02"
    assert f"[{other} MUST]" in text or (
        first == "COUNT-01" and any(f"[{r} MUST]" in text for r in KEEP_IGNORED)
    ), text
    found = verdicts(report, f"broken-{BOTH}")
    assert found.get("COUNT-01") != "pass", found
    assert found.get("ARCH-02") != "pass", found


def test_a_rule_checked_only_before_a_state_corrupting_failure_is_not_passed(
    tmp_path: Path,
) -> None:
    """clear_session that keeps archived messages (CLEAR-02, a write: the store then holds what
    the model does not): CLEAR-01 is checked in the histories before that failure only (past
    it, no clear_session runs), so the machine alone reports it not run, never pass. (CLEAR-02
    is a SHOULD: strict, it is the failure that ends the run; in the default mode the run
    starts over past it as an advisory, and the same holds.)"""
    code, report, output = run_suite(
        tmp_path, ["broken-clear-session-keeps-archived"], "-k", "state_machine", "--memory-strict"
    )
    assert code == 1, output[-3000:]
    found = verdicts(report, "broken-clear-session-keeps-archived")
    assert found.get("CLEAR-02") == "fail", found
    assert found.get("CLEAR-01") == "not run", found


# -- the runner, scripted: which rounds count, and the cap ---------------------------------


def scripted(rounds: list[tuple[list[str], str | None]]) -> tuple[Any, list[Tolerance]]:
    """A stand-in for the memory machine: round ``i`` credits ``rounds[i][0]`` and then fails on
    ``rounds[i][1]`` (``None``: passes). Records each round's tolerance."""
    seen: list[Tolerance] = []

    def run_once(machine: MachineFactory, chosen: settings, *, ledger: CheckLedger) -> None:
        del chosen
        assert isinstance(machine, MachineFactory)
        tolerance = machine.config.tolerance
        seen.append(tolerance)
        credits, failing_rule = rounds[len(seen) - 1]
        ledger.credit(r for r in credits if r not in tolerance)
        if failing_rule is not None:
            raise MachineFailure([failing_rule], f"{failing_rule} broke", "scripted", [], ["pass"])

    return run_once, seen


def test_credits_of_a_round_that_failed_do_not_count() -> None:
    """HIST-04 was checked only before ARCH-02 failed (a write rule with no toleration): the run
    past it does not check it, so it is not reported checked."""
    run_once, seen = scripted([(["HIST-04", "MSG-01"], "ARCH-02"), (["MSG-01"], None)])
    run = run_machine([], profile="ci", run_once=run_once)
    assert run.failure is not None
    assert run.failure.rule.id == "ARCH-02"
    assert run.checked == {"MSG-01": 1}
    assert "ARCH-02" not in TOLERATIONS
    assert "ARCH-02" in seen[1].failed
    assert "judged on past it (1 more run(s)" in str(run.failure)


def test_the_judging_stops_at_its_cap_and_says_so() -> None:
    rules = ["ARCH-01", "ARCH-02", "ARCH-03", "ARCH-04", "ARCH-05", "ARCH-06", "ARCH-07", "ARCH-08"]
    run_once, seen = scripted([(["MSG-01"], rule) for rule in rules])
    run = run_machine([], profile="ci", run_once=run_once)
    assert len(seen) == 1 + MAX_JUDGING_RUNS
    assert run.capped
    assert [f.rule.id for f in run.later] == rules[1 : 1 + MAX_JUDGING_RUNS]
    assert run.checked == {}, "every round failed: none ran all its histories"
    assert f"cap of {MAX_JUDGING_RUNS} more runs" in str(run.failure)


def test_a_passing_run_is_not_judged_again() -> None:
    run_once, seen = scripted([(["MSG-01"], None)])
    run = run_machine([], profile="ci", run_once=run_once)
    assert (run.failure, run.later, run.capped, len(seen)) == (None, (), False, 1)
    assert run.checked == {"MSG-01": 1}


# -- tolerating a rule past its failure ----------------------------------------------------


def test_tolerance_past_a_failure() -> None:
    tolerance = Tolerance().past_failure("ARCH-02").past_failure("COUNT-01")
    assert "ARCH-02" in tolerance.failed
    assert "COUNT-01" not in tolerance.failed  # it has a toleration of its own
    assert tolerance.excuses(["HIST-01", "ARCH-02"])  # may be ARCH-02's: not held against HIST-01
    assert tolerance.derails(["HIST-01", "ARCH-02"])  # a write: the store may differ now
    assert not tolerance.excuses(["COUNT-01", "ARCH-05"])  # COUNT-01 is narrowed, not excusing
    assert tolerance.excuses(["COUNT-01"])  # only tolerated rules involved
    reads = Tolerance().past_failure("HIST-04")
    assert reads.excuses(["LIM-05", "HIST-04"])
    assert not reads.derails(["LIM-05", "HIST-04"])  # a read: the stored state is as modelled


def test_a_tolerated_write_rule_derails_instead_of_blaming_others(tmp_path: Path) -> None:
    """keep-ignored with ARCH-02 tolerated past its failure: its wrong archives no longer fail
    the run, and what they left behind is blamed on no other rule."""
    machine = machine_for(
        [target("keep-ignored", tmp_path)], Tolerance().past_failure("ARCH-02"), CheckLedger()
    )
    run_minimized(machine, settings.get_profile("aalis-memory-ci"))


# -- a divergence Hypothesis cannot repeat -------------------------------------------------


def stamps_early_once() -> DriverRegistration:
    """A driver whose very first stamp of a message saved without a timestamp is a second
    before the save (MSG-03), and never again: a clock that jumps once. Hypothesis's second run
    of the failing history then passes, and it reports the failure as flaky."""

    class StampsEarlyOnce(InMemoryMemory):
        jittered = False

        async def save_message(self, session_id: str, message: Message) -> None:
            if message.timestamp is None and not StampsEarlyOnce.jittered:
                StampsEarlyOnce.jittered = True
                message = attrs.evolve(message, timestamp=now_ms() - 1000)
            await super().save_message(session_id, message)

    async def factory(ctx: DriverContext) -> AsyncIterator[InMemoryMemory]:
        yield StampsEarlyOnce(
            range_query_limit=ctx.range_query_limit, cross_session_max_limit=ctx.cross_session_max_limit
        )

    return DriverRegistration(name="stamps-early-once", factory=factory, capabilities=INMEMORY_CAPS)


@pytest.mark.parametrize("strict", [True, False])
def test_a_divergence_that_does_not_repeat_is_still_its_rules_alone(strict: bool, tmp_path: Path) -> None:
    """A flaky MSG-03 divergence is MSG-03's failure (strict) or advisory (default mode), told
    as not repeatable: never an error of the machine's test, which would fail every rule it
    covers."""
    reg = stamps_early_once()
    run = run_machine(
        [Target(reg, DriverContext(name=reg.name, tmp_path=tmp_path))], profile="ci", strict=strict
    )
    if strict:
        assert run.failure is not None
        assert run.failure.rule.id == "MSG-03", str(run.failure)
        assert FLAKY_NOTE in str(run.failure), str(run.failure)
        assert not run.later, [f.rule.id for f in run.later]
    else:
        assert run.failure is None, str(run.failure)
        assert [a.rule for a in run.advisories] == ["MSG-03"], run.advisories
        assert FLAKY_NOTE in run.advisories[0].message
