"""The same driver gets the same verdict matrix on every run (issue 35): the reference drivers
(inmemory, sqlite, mongodb on the server the kit provisions) and the TypeScript reference
through the bridge, three runs at once, each compared with the others and with the frozen
matrices.

Only the rules with a phase that hangs on timing are run again; the rest of every matrix is a
pure function of the driver's answers, and is already compared with its frozen copy on every
CI run (tests/root_matrix.py for the reference drivers, tests/drivers/test_stdio_bridge.py for
the TypeScript reference). The scan of the suite for clock-dependent phases found these (the
state machine aside: its histories are seeded):

- META-05: the same-millisecond phase (arranged in the kit's process, never claimed beyond);
- CONC-05: waits for the clock so that another commit stamps a later millisecond;
- COMMIT-05, ARCH-10: readers that may land inside a write (they land where it yields);
- MSG-02: stamps read against the kit's clock around a save without a timestamp.
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path
from typing import Any, Final

import frozen_matrix
import pytest
from root_matrix import SWEEP as ROOT_SWEEP
from test_stdio_bridge import REFERENCE, built  # noqa: F401  # ``built``: the fixture

from kit_run import KIT_PYTEST
from reports import load_report

RUNS: Final = 3
TIMED: Final = ("META-05", "CONC-05", "COMMIT-05", "ARCH-10", "MSG-02")
PYTHON_DRIVERS: Final = ("inmemory", "sqlite", "mongodb")


def _run(folder: Path, argv: list[str]) -> tuple[subprocess.Popen[bytes], Path]:
    folder.mkdir()
    with (folder / "output.txt").open("wb") as output:
        proc = subprocess.Popen(
            [
                *KIT_PYTEST,
                "--memory-strict",
                f"--memory-rules={','.join(TIMED)}",
                "-k",
                "not state_machine",
                f"--memory-report={folder / 'report.json'}",
                f"--basetemp={folder / 'tmp'}",
                *argv,
            ],
            cwd=folder,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    return proc, folder


@pytest.fixture(scope="module")
def reports(built: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:  # noqa: F811
    """Each run's report: the Python reference drivers and the TypeScript reference, every run
    started at once (from empty folders, as a backend author runs the suite)."""
    base = tmp_path_factory.mktemp("three-runs")
    node = shlex.join(["node", str(built / "reference.js")])
    started = [
        _run(base / f"python-{run}", [f"--memory-driver={','.join(PYTHON_DRIVERS)}"]) for run in range(RUNS)
    ] + [
        _run(base / f"typescript-{run}", ["--memory-driver=stdio", f"--memory-stdio-command={node}"])
        for run in range(RUNS)
    ]
    found = []
    for proc, folder in started:
        proc.wait(timeout=600)
        output = (folder / "output.txt").read_text(encoding="utf-8")
        assert proc.returncode == 0, output[-4000:]
        found.append(load_report(folder / "report.json"))
    return found


def _timed(matrix: frozen_matrix.Matrix) -> frozen_matrix.Matrix:
    """The timed rules' entries, without the state machine's lines (not run here) and with the
    test ids as a run from an empty folder names them."""
    return {
        rule: {
            **entry,
            "tests": sorted(
                t.removeprefix("conformance/suite/")
                for t in entry["tests"]
                if "::test_state_machine" not in t
            ),
        }
        for rule, entry in matrix.items()
        if rule in TIMED
    }


@pytest.mark.parametrize("driver", [*PYTHON_DRIVERS, REFERENCE])
def test_three_runs_give_the_frozen_matrix(reports: list[dict[str, Any]], driver: str) -> None:
    runs = [_timed(frozen_matrix.driver_matrix(r, driver)) for r in reports if driver in r["drivers"]]
    assert len(runs) == RUNS, f"{driver} is in {len(runs)} of the {RUNS} runs' reports"
    if all(entry["verdict"] == "not run" for entry in runs[0].values()):
        pytest.skip(f"{driver}: none of its tests ran (its server was not available?)")
    for run, found in enumerate(runs[1:], start=2):
        changed = frozen_matrix.differences(driver, runs[0], found)
        assert not changed, f"run 1 -> run {run}:\n" + "\n".join(changed)
    frozen = frozen_matrix.load("typescript" if driver == REFERENCE else ROOT_SWEEP, driver)
    assert frozen is not None
    changed = frozen_matrix.differences(driver, _timed(frozen), runs[0])
    assert not changed, "frozen -> the three runs:\n" + "\n".join(changed)
