"""The kit can fail: the strict suite flags exactly the declared rules of every broken driver."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from broken_drivers import BROKEN, load_all

TESTS_DIR = Path(__file__).resolve().parent
load_all()


def run_suite(workdir: Path, drivers: list[str], *extra: str) -> tuple[int, dict[str, Any], str]:
    """Run the conformance suite in a fresh interpreter; returns exit code, JSON report, output."""
    report = workdir / "report.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS_DIR), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run(
        [
            sys.executable, "-m", "pytest", "-p", "broken_drivers.plugin", "-p", "no:cacheprovider",
            "-q", "--no-header", f"--memory-driver={','.join(drivers)}",
            f"--memory-report={report}", *extra,
        ],
        cwd=workdir, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    data = json.loads(report.read_text()) if report.exists() else {}
    return proc.returncode, data, proc.stdout + proc.stderr


@pytest.fixture(scope="session")
def strict_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    workdir = tmp_path_factory.mktemp("broken")
    code, data, output = run_suite(
        workdir, [f"broken-{name}" for name in sorted(BROKEN)], "--memory-strict",
        # The state machine names one likely rule per failure; its own check is
        # tests/test_state_machine_catches_broken.py. Exact sets are the example tests' promise.
        "-k", "not state_machine",
    )
    assert code == 1, f"the suite should fail on the broken drivers (exit {code}):\n{output[-3000:]}"
    return data


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_suite_flags_exactly_the_broken_rules(name: str, strict_report: dict[str, Any]) -> None:
    entry = BROKEN[name]
    verdicts = strict_report.get(f"broken-{name}", {})
    failing = {rule for rule, result in verdicts.items() if result["verdict"] == "fail"}
    expected = set(entry.breaks - entry.examples_miss)
    assert failing == expected, (
        f"broken-{name} ({entry.why}): expected failures {sorted(expected)}, "
        f"suite reported {sorted(failing)}"
    )
