"""The kit can fail: the default-mode suite flags exactly the declared rules of every broken
driver (the strict mode's turning advisories into failures is tests/test_plugin.py's)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from aalis_memory.conformance.rules import CATALOGUE, Level
from broken_drivers import BROKEN, load_all
from reports import load_report, verdicts

TESTS_DIR = Path(__file__).resolve().parent
load_all()


def run_suite(workdir: Path, drivers: list[str], *extra: str) -> tuple[int, dict[str, Any], str]:
    """Run the conformance suite in a fresh interpreter; returns exit code, JSON report, output."""
    report = workdir / "report.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS_DIR), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "broken_drivers.plugin",
            "-p",
            "no:cacheprovider",
            "-q",
            "--no-header",
            f"--memory-driver={','.join(drivers)}",
            f"--memory-report={report}",
            # its own temporary folder: pytest's default one is shared by every run on the machine,
            # and a later run would spend seconds deleting this one's thousands of store folders
            f"--basetemp={workdir / 'basetemp'}",
            *extra,
        ],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    data = load_report(report) if report.exists() else {}
    return proc.returncode, data, proc.stdout + proc.stderr


@pytest.fixture(scope="session")
def default_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every broken driver in one run of the default mode, the one backend authors use."""
    workdir = tmp_path_factory.mktemp("broken")
    code, data, output = run_suite(
        workdir,
        [f"broken-{name}" for name in sorted(BROKEN)],
        # The state machine names one likely rule per failure; its own check is
        # tests/test_state_machine_catches_broken.py. Exact sets are the example tests' promise.
        "-k",
        "not state_machine",
    )
    assert code == 1, f"the suite should fail on the broken drivers (exit {code}):\n{output[-3000:]}"
    return data


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_suite_flags_exactly_the_broken_rules(name: str, default_report: dict[str, Any]) -> None:
    """A broken MUST rule fails, a broken SHOULD rule is an advisory, nothing else is blamed."""
    entry = BROKEN[name]
    found = verdicts(default_report, f"broken-{name}")
    failing = {rule for rule, verdict in found.items() if verdict == "fail"}
    advised = {rule for rule, verdict in found.items() if verdict == "advisory"}
    expected = set(entry.breaks - entry.examples_miss)
    musts = {rule for rule in expected if CATALOGUE[rule].level is Level.MUST}
    assert (failing, advised) == (musts, expected - musts), (
        f"broken-{name} ({entry.why}): expected fail {sorted(musts)} and advisory "
        f"{sorted(expected - musts)}, got fail {sorted(failing)}, advisory "
        f"{sorted(advised)}"
    )
