"""The clearing rules can fail: a project's own clearing helper that breaks one of them is
caught on exactly that rule, when its conftest.py overrides the ``aalis_clear_helper`` fixture
(tests/broken_helpers.py). A broken store leaves them blocked instead (test_broken_drivers)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import frozen_matrix
import pytest
from broken_helpers import CONFTEST, HELPERS

from aalis_memory.conformance.rules import CATALOGUE, Level
from kit_run import KIT_PYTEST
from reports import load_report, verdicts

TESTS_DIR = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, dict[str, Any], str]]:
    """Every broken helper in a run of its own (one conftest.py each), all at once."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS_DIR), os.environ.get("PYTHONPATH", "")])}
    started = {}
    for name in HELPERS:
        workdir = tmp_path_factory.mktemp(f"helper-{name}")
        (workdir / "conftest.py").write_text(CONFTEST.format(name=name))
        started[name] = (
            workdir,
            subprocess.Popen(
                [
                    *KIT_PYTEST,
                    "--memory-driver=inmemory",
                    "--memory-rules=CLR-*",
                    "--memory-report=report.json",
                    f"--basetemp={workdir / 'basetemp'}",
                ],
                cwd=workdir,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            ),
        )
    done = {}
    for name, (workdir, proc) in started.items():
        output, _ = proc.communicate(timeout=600)
        report = workdir / "report.json"
        done[name] = (proc.returncode, load_report(report) if report.exists() else {}, output)
    return done


@pytest.mark.parametrize("name", sorted(HELPERS))
def test_a_broken_clearing_helper_fails_exactly_its_rules(
    name: str,
    runs: dict[str, tuple[int, dict[str, Any], str]],
) -> None:
    code, report, output = runs[name]
    assert code == 1, output[-3000:]
    found = verdicts(report, "inmemory")
    failing = {rule for rule, verdict in found.items() if verdict in ("fail", "advisory")}
    expected = set(HELPERS[name].breaks)
    assert failing == expected, (
        f"{name} ({HELPERS[name].why}): expected {sorted(expected)}, got {sorted(failing)}\n{output[-3000:]}"
    )
    assert all(CATALOGUE[rule].level is Level.MUST for rule in expected)


@pytest.mark.parametrize("name", sorted(HELPERS))
def test_verdict_matrix_unchanged(name: str, runs: dict[str, tuple[int, dict[str, Any], str]]) -> None:
    """Every rule's verdict, caveats, blockers and tests, as frozen in tests/matrix/ (the
    in-memory driver's, behind the broken helper, under ``--memory-rules=CLR-*``)."""
    _code, report, _output = runs[name]
    found = frozen_matrix.driver_matrix(report, "inmemory")
    frozen_matrix.check("broken-helpers", f"inmemory+{name}", found)


def test_the_frozen_matrix_holds_every_broken_helper() -> None:
    frozen_matrix.check_drivers("broken-helpers", (f"inmemory+{name}" for name in HELPERS))
