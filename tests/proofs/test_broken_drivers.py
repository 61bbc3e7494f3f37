"""The kit can fail: the default-mode suite flags exactly the declared rules of every broken
driver (the strict mode's turning advisories into failures is tests/kit/test_plugin.py's)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

import attrs
import frozen_matrix
import pytest

from aalis_memory.conformance.rules import CATALOGUE, Level
from broken_drivers import BROKEN, load_all
from reports import load_report, verdicts

TESTS_DIR = Path(__file__).resolve().parents[1]
load_all()


@attrs.frozen
class SuiteRun:
    """A run of the conformance suite in a fresh interpreter, started and not yet waited for."""

    process: subprocess.Popen[bytes]
    report: Path
    output: Path

    def finish(self, timeout: float = 600) -> tuple[int, dict[str, Any], str]:
        """Wait for the run; its exit code, JSON report and output."""
        try:
            self.process.wait(timeout=timeout)
        finally:
            self.stop()
        data = load_report(self.report) if self.report.exists() else {}
        return self.process.returncode, data, self.output.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        """End the run if it still runs (one that did not finish is never left running)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def start_suite(workdir: Path, drivers: list[str], *extra: str) -> SuiteRun:
    """Start the conformance suite on ``drivers`` in a fresh interpreter (output to a file, so
    that several runs at once never wait for a pipe to be read)."""
    report = workdir / "report.json"
    output = workdir / "output.txt"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS_DIR), os.environ.get("PYTHONPATH", "")])}
    with output.open("wb") as sink:
        process = subprocess.Popen(
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
                # its own temporary folder: pytest's default one is shared by every run on the
                # machine, and a later run would spend seconds deleting this one's thousands of
                # store folders
                f"--basetemp={workdir / 'basetemp'}",
                *extra,
            ],
            cwd=workdir,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    return SuiteRun(process, report, output)


def run_suite(workdir: Path, drivers: list[str], *extra: str) -> tuple[int, dict[str, Any], str]:
    """Run the conformance suite in a fresh interpreter; returns exit code, JSON report, output."""
    return start_suite(workdir, drivers, *extra).finish()


def run_in_parts(
    tmp_path_factory: pytest.TempPathFactory, name: str, drivers: list[str], parts: int, *extra: str
) -> dict[str, Any]:
    """The suite on ``drivers`` split into ``parts`` runs started at once, each of which must
    end with its verdicts (exit 1, or 0 for a selection of drivers that break only SHOULD
    rules in the default mode: each driver's own test says what it must fail); their reports
    merged, the drivers side by side. Each run stays well inside
    the time limit on a loaded machine, and the file holding them ends sooner (under
    ``--dist loadfile`` one worker runs all of a file's tests)."""
    runs = [
        start_suite(tmp_path_factory.mktemp(name), drivers[part::parts], *extra)
        for part in range(parts)
        if drivers[part::parts]
    ]
    try:
        finished = [run.finish() for run in runs]
    finally:
        for run in runs:
            run.stop()
    reports: dict[str, Any] = {}
    for code, data, output in finished:
        assert code in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED), (
            f"the suite on the broken drivers did not end with verdicts (exit {code}):\n{output[-3000:]}"
        )
        reports = {**data, "drivers": {**reports.get("drivers", {}), **data["drivers"]}}
    return reports


def selected(request: pytest.FixtureRequest, names: Iterable[str]) -> list[str]:
    """The ``names`` a session-wide fixture needs to run: those of the session's selected tests
    that use it (their ``name`` parameter). ``-k broken-driver-name``, ``-k RULE-ID`` (see
    ``rule_keywords``) or a test's node id then runs only those drivers, not all of them
    (CONTRIBUTING.md, "Fast feedback")."""
    wanted = set()
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        if (
            callspec is not None
            and "name" in callspec.params
            and request.fixturename in getattr(item, "fixturenames", ())
        ):
            wanted.add(callspec.params["name"])
    return [name for name in sorted(names) if name in wanted]


def rule_keywords(name: str) -> frozenset[str]:
    """The rule IDs ``-k`` matches on a test of broken driver ``name`` (tests/conftest.py adds
    them): ``-k LIM-05`` selects the broken drivers that declare LIM-05."""
    return BROKEN[name].breaks


@pytest.fixture(scope="session")
def default_report(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> dict[str, Any]:
    """The selected broken drivers (all of them in a whole run) in runs of the default mode,
    the one backend authors use."""
    return run_in_parts(
        tmp_path_factory,
        "broken",
        [f"broken-{name}" for name in selected(request, BROKEN)],
        PARTS,
        # The state machine names one likely rule per failure; its own check is
        # tests/proofs/test_state_machine_catches_broken.py. Exact sets are the example tests' promise.
        "-k",
        "not state_machine",
    )


#: Runs the broken drivers' default-mode suite is split into (see :func:`run_in_parts`).
PARTS: Final = 2


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


#: The frozen matrix of the default-mode sweep (tests/frozen_matrix.py).
SWEEP: Final = "broken-drivers"


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_verdict_matrix_unchanged(name: str, default_report: dict[str, Any]) -> None:
    """Every rule's verdict, caveats, blockers and tests, as frozen in tests/matrix/."""
    driver = f"broken-{name}"
    frozen_matrix.check(SWEEP, driver, frozen_matrix.driver_matrix(default_report, driver))


def test_the_frozen_matrix_holds_every_broken_driver() -> None:
    frozen_matrix.check_drivers(SWEEP, (f"broken-{name}" for name in BROKEN))
