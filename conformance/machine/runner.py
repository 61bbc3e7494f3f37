"""Running the machine for a test: strict or not, what was checked, what was advisory.

:func:`run_machine` runs the generated histories under a profile and returns a
:class:`MachineRun`: the checks performed per rule, the advisories, and the failure that ends the
run, if any (minimized). In strict mode the first divergence of either level is that failure.
Otherwise a divergence on a SHOULD rule becomes an advisory and the run starts over with that
rule tolerated (:mod:`.tolerance`), until it passes or fails on a MUST rule: a SHOULD quirk can
no longer hide a MUST bug further down the history.

Nor does a failure hide what breaks after it, nor pass what it kept from being looked at: every
rule the machine can fail can be tolerated past its failure (:meth:`Tolerance.past_failure`),
and the histories run again, under the ``ci`` profile, with each failed rule tolerated in turn,
at most :data:`MAX_JUDGING_RUNS` times. The failure that ended the first run is the one raised;
the later ones are in :attr:`MachineRun.later` and in its text. A round of histories that ended
in a failure credits nothing (:meth:`CheckLedger.round`): the rules reported checked are those
a round that ran all its histories checked, so a rule checked only before a failure (say, one
whose checks then stood on a state a tolerated write rule broke, and were no longer made) is
not run, not passed.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from typing import Final, Protocol, cast

import attrs
from hypothesis import settings
from hypothesis.errors import Flaky
from hypothesis.stateful import RuleBasedStateMachine, run_state_machine_as_test

from aalis_memory.conformance.machine.blame import minimized
from aalis_memory.conformance.machine.budget import run_rounds
from aalis_memory.conformance.machine.core import MachineConfig
from aalis_memory.conformance.machine.failure import Advisory, MachineFailure
from aalis_memory.conformance.machine.ledger import CheckLedger
from aalis_memory.conformance.machine.local_constants import without_local_constants
from aalis_memory.conformance.machine.machine import MachineFactory, MemoryMachine
from aalis_memory.conformance.machine.stores import Target
from aalis_memory.conformance.machine.tolerance import TOLERATIONS, Tolerance
from aalis_memory.conformance.rules import Level


class RunOnce(Protocol):
    """Runs the machines of one factory under one settings object (:func:`run_minimized`, or a
    test's)."""

    def __call__(self, machine: MachineFactory, chosen: settings, *, ledger: CheckLedger) -> None: ...


def machine_for(
    targets: Sequence[Target], tolerance: Tolerance | None = None, ledger: CheckLedger | None = None
) -> MachineFactory:
    """The machines bound to ``targets`` (one driver, or several for differential mode),
    tolerating ``tolerance`` and crediting their checks to ``ledger`` (one of its own if none)."""
    return MachineFactory(
        MachineConfig(
            tuple(targets),
            tolerance or Tolerance(),
            ledger if ledger is not None else CheckLedger(),
        )
    )


@attrs.frozen
class MachineRun:
    """What a run found: the rules it checked (``{rule_id: checks}``), the SHOULD rules it found
    broken and went on past, and the failure that ended it (``None``: it passed); ``later``: the
    failures the judging after it found, ``capped``: whether it stopped at
    :data:`MAX_JUDGING_RUNS` with a failure still to go past."""

    rounds: int
    checked: dict[str, int]
    advisories: tuple[Advisory, ...]
    failure: MachineFailure | None
    later: tuple[MachineFailure, ...] = ()
    capped: bool = False


def run_minimized(machine: MachineFactory, chosen: settings, *, ledger: CheckLedger | None = None) -> None:
    """Run ``machine`` under ``chosen``; a failure is re-raised with its history minimized (no
    checks credited while the minimizer replays it).

    A divergence that did not come back when Hypothesis ran its history again (a stamp from a
    clock that jitters, state shared across stores) reaches here wrapped in Hypothesis's
    ``Flaky``: it is still that rule's failure, raised as such with a note that it may not
    repeat, never an error of the whole test (which would fail every rule the machine covers).
    """
    notes: list[str] = []
    try:
        # a factory of machines, as Hypothesis calls it (its annotation asks for a class)
        run_state_machine_as_test(cast(type[RuleBasedStateMachine], machine), settings=chosen)
        return
    except MachineFailure as raised:
        failure = raised
    except Flaky as flaky:
        inner = _machine_failure(flaky)
        if inner is None:
            raise
        failure, notes = inner, [FLAKY_NOTE]
    shrunk = minimized(machine, failure, ledger)
    raise (shrunk.noting(notes) if notes else shrunk) from None


#: Told after the reproduction of a failure Hypothesis could not make happen again.
FLAKY_NOTE: Final = (
    "  not repeatable: when Hypothesis ran this history again it did not diverge, so it "
    "depends on something the history does not fix (the clock, timing, state shared between "
    "stores); the reproduction may not show it on every run"
)


def _machine_failure(error: BaseException) -> MachineFailure | None:
    """The machine's failure inside Hypothesis's report of a flaky one (its sub-exceptions,
    their causes), if it holds one."""
    pending: list[BaseException] = [error]
    seen: set[int] = set()
    while pending:
        current = pending.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, MachineFailure):
            return current
        linked = (*getattr(current, "exceptions", ()), current.__cause__, current.__context__)
        pending += [e for e in linked if isinstance(e, BaseException)]
    return None


def run_machine(
    targets: Sequence[Target],
    *,
    profile: str = "ci",
    budget: float | None = None,
    strict: bool = True,
    clock: Callable[[], float] = time.monotonic,
    run_once: RunOnce = run_minimized,
    progress: Callable[[str], None] | None = None,
) -> MachineRun:
    """Run the machine over ``targets`` under ``profile`` (``budget``: seconds, random profiles
    only); outside ``strict`` mode, go on past broken SHOULD rules as advisories.

    The failure that ends the run does not end the judging: the rule found broken is tolerated
    and the histories run again under the ``ci`` profile (:data:`JUDGING_PROFILE`), and so on
    for each rule found broken, at most :data:`MAX_JUDGING_RUNS` times. A rule found broken is
    not reported as checked; outside strict mode a SHOULD rule found so is an advisory, any
    other one a later failure (:attr:`MachineRun.later`, and told in the failure's text).
    """
    ledger = CheckLedger()
    tolerance = Tolerance()
    advisories: list[Advisory] = []
    later: list[MachineFailure] = []
    deadline = None if budget is None else clock() + budget
    rounds = 0
    judging = 0
    ending: MachineFailure | None = None
    stop: str | None = None
    while True:
        once = functools.partial(_round, run_once, machine_for(targets, tolerance, ledger), ledger)
        try:
            with without_local_constants():
                if ending is None:
                    rounds += run_rounds(once, profile, deadline, clock, progress)
                else:
                    judging += 1
                    run_rounds(once, JUDGING_PROFILE, None, clock)
        except MachineFailure as failure:
            rule_id = failure.rule.id
            advisory = not strict and failure.rule.level is Level.SHOULD
            if ending is None and not (advisory and rule_id in TOLERATIONS):
                ending = failure
            elif advisory:
                advisories.append(
                    Advisory(rule_id, failure.detail, failure.driver if len(targets) > 1 else None)
                )
            else:
                later.append(failure)
            ledger.ignore(rule_id)
            if rule_id in tolerance:
                stop = f"{rule_id} failed again although tolerated: the judging stopped there"
                break
            if ending is not None and judging >= MAX_JUDGING_RUNS:
                stop = (
                    f"the judging stopped at its cap of {MAX_JUDGING_RUNS} more runs, with "
                    f"{rule_id} still failing: a rule those runs did not check to the end is "
                    "reported not run by the state machine"
                )
                break
            tolerance = tolerance.past_failure(rule_id)
            continue
        break
    if ending is not None:
        ending = ending.noting(_judging_notes(judging, later, advisories, stop))
    return MachineRun(
        rounds,
        ledger.as_property(),
        tuple(advisories),
        ending,
        tuple(later),
        capped=stop is not None and judging >= MAX_JUDGING_RUNS,
    )


def _round(run_once: RunOnce, machine: MachineFactory, ledger: CheckLedger, chosen: settings) -> None:
    """One round of histories; its credits count only if it ends without a failure."""
    with ledger.round():
        run_once(machine, chosen, ledger=ledger)


def _judging_notes(
    runs: int, later: Sequence[MachineFailure], advisories: Sequence[Advisory], stop: str | None
) -> list[str]:
    """What the judging after the failure that ended a run found, as lines of its text."""
    if runs == 0:
        return []
    found = ", ".join(f"{f.rule.id} ({f.rule.level.value})" for f in later) or "no other failure"
    lines = [
        f"  judged on past it ({runs} more run(s) of the {JUDGING_PROFILE} profile, each "
        f"failed rule tolerated): {found}"
    ]
    if advisories:
        lines.append(f"  advisories: {', '.join(a.rule for a in advisories)}")
    if stop is not None:
        lines.append(f"  {stop}")
    for failure in later:
        lines += [f"  | {line}" for line in str(failure).splitlines()]
    return lines


#: The profile of the runs that go on judging after the failure that ends a run: they decide
#: whether the rules credited before it keep their pass (the deeper search is the job of a run
#: that passes).
JUDGING_PROFILE: Final = "ci"
#: How many runs the judging after a failure may take: a driver that breaks more rules gets the
#: first ones found, and the rest of its rules are reported not run by the state machine.
MAX_JUDGING_RUNS: Final = 5


__all__ = [
    "FLAKY_NOTE",
    "JUDGING_PROFILE",
    "MAX_JUDGING_RUNS",
    "MachineRun",
    "MemoryMachine",
    "machine_for",
    "run_machine",
    "run_minimized",
]
