"""Controls that follow the documents get no MUST failure: a backend with no range cap (RANGE-01
binds only backends with one) and a lenient-JSON backend whose batches are all or nothing
(COMMIT-04 asks all or nothing, not which payloads to refuse: that is META-08, a SHOULD). Neither
in the example tests nor in the state machine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import frozen_matrix
import pytest
from test_broken_drivers import run_suite

from aalis_memory.conformance.machine.core import Target
from aalis_memory.conformance.machine.runner import run_machine
from aalis_memory.conformance.registration.registry import DriverContext
from aalis_memory.conformance.rules import CATALOGUE, Level
from broken_drivers.controls import CONTROLS, registration
from reports import verdicts


@pytest.fixture(scope="session")
def control_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every control in one default-mode run of the example tests."""
    workdir: Path = tmp_path_factory.mktemp("controls")
    code, data, output = run_suite(
        workdir, [f"control-{name}" for name in sorted(CONTROLS)], "-k", "not state_machine"
    )
    assert data, f"no report was written (exit {code}):\n{output[-3000:]}"
    return data


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_a_control_has_no_failure(name: str, control_report: dict[str, Any]) -> None:
    entry = CONTROLS[name]
    found = verdicts(control_report, f"control-{name}")
    assert found, f"control-{name} is not in the report"
    failing = sorted(rule for rule, verdict in found.items() if verdict == "fail")
    assert not failing, f"control-{name} ({entry.why}) fails {failing}"
    got = {rule: found.get(rule) for rule in entry.expected}
    assert got == dict(entry.expected), f"control-{name} ({entry.why})"


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_verdict_matrix_unchanged(name: str, control_report: dict[str, Any]) -> None:
    """Every rule's verdict, caveats, blockers and tests, as frozen in tests/matrix/."""
    driver = f"control-{name}"
    frozen_matrix.check("controls", driver, frozen_matrix.driver_matrix(control_report, driver))


def test_the_frozen_matrix_holds_every_control() -> None:
    frozen_matrix.check_drivers("controls", (f"control-{name}" for name in CONTROLS))


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_the_machine_fails_no_control(name: str, tmp_path: Path) -> None:
    """The state machine, in the default mode: no failure, and no rule the control stands at the
    edge of checked where the example tests exclude it (a control without a range cap never
    has a read expected to be cut) nor advised where the example tests pass it."""
    entry = CONTROLS[name]
    reg = registration(entry)
    run = run_machine(
        [Target(reg, DriverContext(name=reg.name, tmp_path=tmp_path))], profile="ci", strict=False
    )
    assert run.failure is None, f"control-{name} ({entry.why}): {run.failure}"
    excluded = {
        rule for rule, verdict in entry.expected.items() if verdict != "pass" and verdict != "advisory"
    }
    assert not excluded & set(run.checked), sorted(excluded & set(run.checked))
    advised = {a.rule for a in run.advisories}
    assert all(CATALOGUE[rule].level is Level.SHOULD for rule in advised), advised
    assert advised <= {rule for rule, verdict in entry.expected.items() if verdict == "advisory"}
