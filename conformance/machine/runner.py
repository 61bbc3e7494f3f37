"""Running the machine for a test: strict or not, what was checked, what was advisory.

:func:`run_machine` runs the generated histories under a profile and returns a
:class:`MachineRun`: the checks performed per rule, the advisories, and the failure that ends the
run, if any (minimized). In strict mode the first divergence of either level is that failure.
Otherwise a divergence on a SHOULD rule becomes an advisory and the run starts over with that
rule tolerated (:mod:`.tolerance`), until it passes or fails on a MUST rule: a SHOULD quirk can
no longer hide a MUST bug further down the history.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Sequence
from typing import Protocol

import attrs
from hypothesis import settings
from hypothesis.stateful import RuleBasedStateMachine, run_state_machine_as_test

from aalis_memory.conformance.machine.budget import run_rounds
from aalis_memory.conformance.machine.core import Target
from aalis_memory.conformance.machine.failure import Advisory, MachineFailure
from aalis_memory.conformance.machine.ledger import CheckLedger
from aalis_memory.conformance.machine.memory_machine import MemoryMachine
from aalis_memory.conformance.machine.minimizer import minimize
from aalis_memory.conformance.machine.tolerance import TOLERATIONS, Tolerance
from aalis_memory.conformance.rules import Level


class RunOnce(Protocol):
    """Runs one machine class under one settings object (:func:`run_minimized`, or a test's)."""

    def __call__(self, machine: type[RuleBasedStateMachine], chosen: settings, *,
                 ledger: CheckLedger) -> None: ...


def machine_for(targets: Sequence[Target], tolerance: Tolerance | None = None,
                ledger: CheckLedger | None = None) -> type[MemoryMachine]:
    """A machine class bound to ``targets`` (one driver, or several for differential mode),
    tolerating ``tolerance`` and crediting its checks to ``ledger``."""
    names = "_".join(t.name for t in targets).replace("-", "_")
    return type(f"MemoryMachine_{names}", (MemoryMachine,), {
        "TARGETS": tuple(targets), "TOLERANCE": tolerance or Tolerance(), "LEDGER": ledger,
    })


@attrs.frozen
class MachineRun:
    """What a run found: the rules it checked (``{rule_id: checks}``), the SHOULD rules it found
    broken and went on past, and the failure that ended it (``None``: it passed)."""

    rounds: int
    checked: dict[str, int]
    advisories: tuple[Advisory, ...]
    failure: MachineFailure | None


def run_minimized(machine: type[RuleBasedStateMachine], chosen: settings, *,
                  ledger: CheckLedger | None = None) -> None:
    """Run ``machine`` under ``chosen``; a failure is re-raised with its history minimized (no
    checks credited while the minimizer replays it)."""
    try:
        run_state_machine_as_test(machine, settings=chosen)
    except MachineFailure as failure:
        with ledger.paused() if ledger is not None else contextlib.nullcontext():
            raise minimize(machine, failure) from None


def run_machine(targets: Sequence[Target], *, profile: str = "ci", budget: float | None = None,
                strict: bool = True, clock: Callable[[], float] = time.monotonic,
                run_once: RunOnce = run_minimized,
                progress: Callable[[str], None] | None = None) -> MachineRun:
    """Run the machine over ``targets`` under ``profile`` (``budget``: seconds, random profiles
    only); outside ``strict`` mode, go on past broken SHOULD rules as advisories."""
    ledger = CheckLedger()
    tolerance = Tolerance()
    advisories: list[Advisory] = []
    deadline = None if budget is None else clock() + budget
    rounds = 0
    while True:
        machine = machine_for(targets, tolerance, ledger)
        try:
            rounds += run_rounds(functools.partial(run_once, machine, ledger=ledger), profile,
                                 deadline, clock, progress)
        except MachineFailure as failure:
            rule_id = failure.rule.id
            if (strict or failure.rule.level is not Level.SHOULD or rule_id in tolerance
                    or rule_id not in TOLERATIONS):
                return MachineRun(rounds, ledger.as_property(), tuple(advisories), failure)
            advisories.append(Advisory(rule_id, str(failure),
                                       failure.driver if len(targets) > 1 else None))
            tolerance = tolerance.adding(rule_id)
            ledger.ignore(rule_id)
            continue
        return MachineRun(rounds, ledger.as_property(), tuple(advisories), None)


__all__ = ["MachineRun", "MemoryMachine", "machine_for", "run_machine", "run_minimized"]
