"""Whole histories of calls checked against the executable model of the contract.

The example tests check one rule at a time; here a Hypothesis state machine
(:mod:`aalis_memory.conformance.machine`) drives each selected driver and
:mod:`aalis_memory.conformance.machine.contract_model` side by side, with a fresh store per example made
by the driver's own factory on the machine's event loop. ``--memory-hypothesis-profile`` picks the
budget (``--memory-hypothesis-minutes`` bounds a thorough run by time instead);
``--memory-differential`` also runs one history against all selected drivers at once.

The marker lists every rule the machine *can* check; the test reports which ones it *did* check
(``PROP_CHECKED``, per rule the number of checks that held) and, outside strict mode, the SHOULD
rules it found broken and went on past (``PROP_ADVISORIES``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from aalis_memory.conformance.harness.run_state import RunState
from aalis_memory.conformance.harness.session_options import SESSION_OPTIONS
from aalis_memory.conformance.item_properties import PROP_ADVISORIES, PROP_CHECKED, PROP_EXAMPLES, attach
from aalis_memory.conformance.machine.attribution import COVERED_RULES
from aalis_memory.conformance.machine.budget import BUDGET_ROUND
from aalis_memory.conformance.machine.core import Target
from aalis_memory.conformance.machine.runner import run_machine
from aalis_memory.conformance.registration.registry import DriverContext, DriverRegistration
from aalis_memory.conformance.registration.registry import get as get_driver
from aalis_memory.conformance.registration.selection import selected_drivers


def _run(request: pytest.FixtureRequest, targets: list[Target], strict: bool) -> None:
    """Run the machine over ``targets`` with the profile and time budget the user chose, and
    attach what it checked and what it found advisory to the test's report."""
    minutes = request.config.getoption("--memory-hypothesis-minutes")
    profile = str(request.config.getoption("--memory-hypothesis-profile"))
    run = run_machine(
        targets,
        profile=profile,
        strict=strict,
        budget=None if minutes is None else minutes * 60,
        progress=None if profile == "ci" else _progress(request, targets),
    )
    attach(request.node.user_properties, PROP_CHECKED, run.checked)
    if run.advisories:
        attach(request.node.user_properties, PROP_ADVISORIES, [a.as_property() for a in run.advisories])
    if minutes is not None:
        attach(request.node.user_properties, PROP_EXAMPLES, run.rounds * BUDGET_ROUND)
    if run.failure is not None:
        raise run.failure


def _progress(request: pytest.FixtureRequest, targets: list[Target]) -> Callable[[str], None]:
    """Progress lines of a long run, straight to the terminal (captured output would hide them
    until the test ends); silent where there is no terminal, as in an xdist worker."""
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    names = ", ".join(t.name for t in targets)

    def say(line: str) -> None:
        if reporter is not None:
            reporter.write_line(f"state machine [{names}]: {line}")

    return say


@pytest.mark.aalis_spec(*COVERED_RULES)
def test_state_machine(
    request: pytest.FixtureRequest,
    aalis_memory_registration: DriverRegistration,
    aalis_memory_ctx: DriverContext,
    aalis_memory_strict: bool,
    aalis_memory_run_state: RunState,
) -> None:
    _run(
        request,
        [Target(aalis_memory_registration, aalis_memory_ctx, aalis_memory_run_state)],
        aalis_memory_strict,
    )


@pytest.mark.aalis_spec(*COVERED_RULES)
def test_state_machine_differential(
    request: pytest.FixtureRequest,
    aalis_memory_driver: str,
    aalis_memory_strict: bool,
    aalis_memory_run_state: RunState,
    tmp_path: Path,
) -> None:
    """One history, every selected driver: any disagreement outside the declared tiers fails.

    It runs once, under the first selected driver's name; the failure names the driver that
    disagreed with the model (and so with the others).
    """
    if not request.config.getoption("--memory-differential"):
        pytest.skip("differential mode is off (pass --memory-differential)")
    names = selected_drivers(request.config)
    if len(names) < 2:
        pytest.skip("differential mode needs at least two --memory-driver names")
    if aalis_memory_driver != names[0]:
        pytest.skip(f"the differential history runs once, under driver {names[0]!r}")
    options = request.config.stash[SESSION_OPTIONS]
    targets = []
    for name in names:
        registration = get_driver(name)
        folder = tmp_path / name
        folder.mkdir()
        ctx = DriverContext(name=name, tmp_path=folder, options=dict(options.for_driver(registration)))
        targets.append(Target(registration, ctx, aalis_memory_run_state))
    _run(request, targets, aalis_memory_strict)
