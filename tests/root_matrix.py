"""The reference drivers' frozen verdict matrix, read from the kit's own whole run.

The repository-root run (``python -m pytest``, the README's command) runs the conformance suite
strict on the reference drivers beside the kit's tests (``aalis_memory_drivers`` and
``aalis_compression_providers`` in pyproject.toml): inmemory, sqlite, mongodb and the summary
provider over each. Their verdicts exist only once every test has run, so no test can read
them. This plugin has that run write its JSON report to a temporary file too, and at its end
compares every driver's matrix in it with ``tests/matrix/reference-strict/``
(tests/frozen_matrix.py): a difference is printed rule by rule and fails the run. It costs no
extra run of the suite, only the reading of one report.

Only a whole run is compared: no paths, ``-k``, ``-m``, ``--lf``, ``--memory-driver`` or
``--memory-rules`` narrowed it, nothing was deselected and it was not stopped early (a narrowed
run reports rules ``not run`` that a whole run judges). ``AALIS_FREEZE_MATRIX=1`` records the
matrices of such a run instead.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any, Final

import frozen_matrix
import pytest

from reports import load_report

#: The frozen matrices of the root run.
SWEEP: Final = "reference-strict"

#: Rules left out of a driver's comparison, none since issue 35: META-05's same-millisecond
#: phase, which once hung on how fast the MongoDB server answered, is now never claimed over a
#: server (a partial pass every run) and always arranged in the kit's process.
UNSTABLE: Final[dict[str, tuple[str, ...]]] = {}

_REPORT: Final = pytest.StashKey[Path]()
_SESSION: Final = pytest.StashKey[pytest.Session]()
#: Why the run was narrowed (deselections are seen only as they happen).
_NARROWED: Final = pytest.StashKey[list[str]]()


def whole_run(config: pytest.Config) -> bool:
    """Whether nothing on the command line narrowed the run (its deselections are counted
    apart, in :func:`pytest_deselected`)."""
    option = config.option
    return (
        config.args_source is pytest.Config.ArgsSource.TESTPATHS
        and not option.keyword
        and not option.markexpr
        and not getattr(option, "lf", False)
        and not option.collectonly
        and not config.getoption("--memory-driver")
        and not config.getoption("--memory-rules")
    )


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or not whole_run(config):
        return  # an xdist worker writes no report; the controller adds up the verdicts
    folder = Path(tempfile.mkdtemp(prefix="aalis-root-matrix-"))
    config.stash[_REPORT] = folder / "report.json"
    config.stash[_NARROWED] = []
    config.option.memory_report = [*config.getoption("--memory-report"), str(config.stash[_REPORT])]


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_SESSION] = session


def pytest_deselected(items: list[pytest.Item]) -> None:
    if items:
        config = items[0].config
        if _NARROWED in config.stash:
            config.stash[_NARROWED].append(f"{len(items)} test(s) deselected")


@pytest.hookimpl(trylast=True)  # after the kit's reporter has written the report
def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if _REPORT not in config.stash:
        return
    report = config.stash[_REPORT]
    session = config.stash[_SESSION]
    if session.shouldstop or session.shouldfail or config.stash[_NARROWED] or not report.exists():
        shutil.rmtree(report.parent, ignore_errors=True)
        return
    lines = compare(load_report(report))
    terminalreporter.write_sep("=", "frozen verdict matrix (tests/matrix/reference-strict)")
    for line in lines:
        terminalreporter.write_line(line)
    if any(line.startswith("CHANGED") for line in lines) and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    if session.exitstatus == pytest.ExitCode.OK:
        shutil.rmtree(report.parent, ignore_errors=True)
    else:  # the summary above may point at it for a failing rule's every case
        terminalreporter.write_line(f"the whole run's report is kept: {report}")


def compare(report: dict[str, Any]) -> list[str]:
    """One line per driver of the whole run: unchanged, recorded, or ``CHANGED`` with its diff."""
    if not report.get("strict"):
        return ["not compared: the run was not strict (tests/matrix/reference-strict is)"]
    lines = []
    drivers = sorted(report["drivers"])
    for driver in drivers:
        found = frozen_matrix.driver_matrix(report, driver, UNSTABLE.get(driver, ()))
        if all(entry["verdict"] == "not run" for entry in found.values()):
            lines.append(f"{driver}: not compared, none of its tests ran (its server was not available?)")
            continue
        if frozen_matrix.freezing():
            frozen_matrix.write(SWEEP, driver, found)
            lines.append(f"{driver}: recorded ({frozen_matrix.FREEZE}=1)")
            continue
        frozen = frozen_matrix.load(SWEEP, driver)
        if frozen is None:
            lines.append(f"CHANGED {driver}: no frozen matrix; record it with {frozen_matrix.FREEZE}=1")
            continue
        changed = frozen_matrix.differences(driver, frozen, found)
        lines.append(f"CHANGED {driver}: {len(changed)} difference(s)" if changed else f"{driver}: unchanged")
        lines.extend(f"  {line}" for line in changed)
    gone = sorted(set(frozen_matrix.frozen_drivers(SWEEP)) - set(drivers))
    if gone:
        lines.append(f"CHANGED frozen but not in the run: {gone}")
    if lines and any(line.startswith("CHANGED") for line in lines):
        lines.append(
            f"If the change is meant, refresh with {frozen_matrix.FREEZE}=1 python -m pytest and give its "
            "reason in CHANGELOG.md (CONTRIBUTING.md, 'The frozen verdict matrix')."
        )
    return lines
