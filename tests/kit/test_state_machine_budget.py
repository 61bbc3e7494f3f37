"""A time-budgeted thorough run: rounds until the budget is spent, and only for random profiles.

The clock is injected, so how many rounds run is decided by the test, not by machine speed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule, run_state_machine_as_test

from aalis_memory.conformance.machine.budget import BUDGET_ROUND
from aalis_memory.conformance.machine.ledger import CheckLedger
from aalis_memory.conformance.machine.machine import MachineFactory
from aalis_memory.conformance.machine.runner import run_machine


class Counting(RuleBasedStateMachine):
    """A machine that cannot fail and counts the examples (one instance per example)."""

    examples: ClassVar[int] = 0

    def __init__(self) -> None:
        super().__init__()
        type(self).examples += 1

    @rule(n=st.integers())  # an unbounded argument: Hypothesis never runs out of examples
    def step(self, n: int) -> None:
        del n


def run_counting(machine: MachineFactory, chosen: settings, *, ledger: CheckLedger) -> None:
    """Stands in for the memory machine: the runner's budget loop is what is tested."""
    del machine, ledger
    run_state_machine_as_test(Counting, settings=chosen)


def ticking(*readings: float) -> Iterator[float]:
    yield from readings
    raise AssertionError("the clock was read more often than the budget loop needs")


@pytest.mark.parametrize(
    ("readings", "rounds"),
    [
        ((0.0, 5.0, 11.0), 2),  # start, after round 1 (in budget), after round 2 (spent)
        ((0.0, 10.0), 1),  # spent exactly at the end of round 1
        ((0.0, 1.0, 2.0, 3.0, 30.0), 4),
    ],
)
def test_rounds_run_until_the_budget_is_spent(readings: tuple[float, ...], rounds: int) -> None:
    Counting.examples = 0
    clock = ticking(*readings)
    run = run_machine([], profile="thorough", budget=10.0, clock=lambda: next(clock), run_once=run_counting)
    assert run.rounds == rounds
    assert run.failure is None
    assert Counting.examples == rounds * BUDGET_ROUND


@pytest.mark.parametrize("profile", ["ci", "deep"])
def test_a_budget_on_a_derandomized_profile_is_refused(profile: str) -> None:
    with pytest.raises(ValueError, match="derandomized"):
        run_machine([], profile=profile, budget=1.0, run_once=run_counting)


def test_a_long_run_says_how_far_it_is() -> None:
    """A budgeted run prints a line every PROGRESS_EVERY seconds: histories checked, time left."""
    clock = ticking(0.0, 1.0, 2.0, 40.0, 75.0, 100.0)
    lines: list[str] = []
    run = run_machine(
        [],
        profile="thorough",
        budget=100.0,
        clock=lambda: next(clock),
        run_once=run_counting,
        progress=lines.append,
    )
    assert run.rounds == 5
    assert lines == [
        f"{3 * BUDGET_ROUND} histories checked, 60 s left",
        f"{4 * BUDGET_ROUND} histories checked, 25 s left",
    ]


def test_an_unbudgeted_long_run_says_what_it_will_do() -> None:
    lines: list[str] = []
    run_machine([], profile="deep", run_once=run_counting, progress=lines.append)
    assert lines == ["300 histories of up to 40 steps (profile deep)"]
