"""The crash tests can fail: each broken durable store is caught on exactly its rule, SQLite on
none; a store whose only bug is in a read the crash checks make fails that read's rule alone;
a reopen hook that raises leaves the crash rules unverified, with its error shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_broken_drivers import run_suite

from aalis_memory.conformance.suite.crash import KILLS
from broken_drivers.durable import (
    BREAKS,
    CLEANED,
    CLEANED_MARK,
    READ_BUG_CRASH,
    READ_BUGS,
    REFUSAL,
    REFUSES_EMPTY,
    REQUIRED_ONLY,
    UNVERIFIED,
)
from reports import conformance_summary, load_report, verdicts

SUITE = Path(__file__).resolve().parents[2] / "conformance" / "suite" / "crash.py"
#: The tests of the reads the crash checks make (get_history, get_full_history): run beside them,
#: so that a read's own bug is seen failing its own rule.
READS = SUITE.with_name("history.py")


@pytest.fixture(scope="module")
def crash_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str, Path]:
    workdir = tmp_path_factory.mktemp("crash")
    _code, data, output = run_suite(
        workdir,
        ["sqlite", CLEANED, *sorted(BREAKS), *sorted(READ_BUGS), *sorted(UNVERIFIED)],
        "--memory-strict",
        "-p",
        "broken_drivers.durable",
        str(SUITE),
        str(READS),
    )
    assert data, output[-3000:]
    return data, output, workdir


@pytest.mark.parametrize("driver", ["sqlite", CLEANED, *sorted(BREAKS), *sorted(READ_BUGS)])
def test_crash_rules_flag_exactly_the_broken_one(
    driver: str,
    crash_run: tuple[dict[str, Any], str, Path],
) -> None:
    found = verdicts(crash_run[0], driver)
    failing = {rule for rule, verdict in found.items() if verdict == "fail"}
    broken = {**BREAKS, **READ_BUGS}
    expected = {broken[driver]} if driver in broken else set()
    assert failing == expected, f"{driver}: expected failures {expected}, got {failing}: {found}"


@pytest.mark.parametrize("driver", sorted(READ_BUGS))
def test_a_read_bug_never_fails_a_crash_rule(
    driver: str,
    crash_run: tuple[dict[str, Any], str, Path],
) -> None:
    """The crash checks read what survived through get_history and get_full_history: they judge
    which records are there, not their order (a newest-first history passes them), and a finding
    stands on the rules of the reads it compared (a full history without its archived messages
    blocks CRASH-01 by FULL-01, the rule that failed)."""
    data = crash_run[0]
    found = verdicts(data, driver)
    assert {rule: found.get(rule) for rule in READ_BUG_CRASH[driver]} == READ_BUG_CRASH[driver], found
    rules = data["drivers"][driver]["rules"]
    for rule, verdict in READ_BUG_CRASH[driver].items():
        if verdict == "blocked":
            assert [b["rule"] for b in rules[rule]["blocked_by"]] == [READ_BUGS[driver]], rules[rule]


def test_a_reopen_hook_that_raises_leaves_the_crash_rules_unverified_with_its_error(
    crash_run: tuple[dict[str, Any], str, Path],
) -> None:
    """The hook refuses the empty folder the kit starts each writer on: no write was judged, so
    neither rule may fail (nor pass); the summary line names the hook's exception and where it
    was raised, and the report holds its traceback."""
    data, output, _workdir = crash_run
    crash = {rule: v for rule, v in verdicts(data, REFUSES_EMPTY).items() if rule.startswith("CRASH-")}
    assert crash == UNVERIFIED[REFUSES_EMPTY]
    summary = conformance_summary(output)
    line = next(
        (
            line
            for line in summary.splitlines()
            if line.startswith("  unverified (") and REFUSES_EMPTY in line
        ),
        "",
    )
    assert f"FileNotFoundError: {REFUSAL}" in line, summary
    assert "in reopen_refusing_empty" in line, line
    entry = data["drivers"][REFUSES_EMPTY]["rules"]["CRASH-02"]
    assert "Traceback (most recent call last)" in entry["message"], entry["message"]


def test_crash_cleanup_runs_once_after_every_kill(
    crash_run: tuple[dict[str, Any], str, Path],
) -> None:
    """The driver's ``crash_cleanup(ctx)`` ran once in each kill's folder (only that driver
    leaves the mark), and the kills it cleaned up after were judged."""
    data, _output, workdir = crash_run
    assert set(verdicts(data, CLEANED).values()) == {"pass"}, verdicts(data, CLEANED)
    marks = sorted(mark.parent.name for mark in (workdir / "basetemp").rglob(CLEANED_MARK))
    assert marks == [f"kill-{n:03d}" for n in range(KILLS)], marks


NO_ATOMIC_TIER = """
from aalis_memory.conformance import Capabilities, memory_driver
from aalis_memory.drivers.inmemory import InMemoryMemory


@memory_driver("weak", capabilities=Capabilities(metadata_atomicity="ordered", archive_atomicity="partial"))
async def weak(ctx):
    yield InMemoryMemory(range_query_limit=ctx.range_query_limit,
                         cross_session_max_limit=ctx.cross_session_max_limit)
"""


def test_a_driver_with_no_atomic_tier_is_not_bound_by_crash_02(pytester: pytest.Pytester) -> None:
    """CRASH-02 binds atomic tiers only: a driver declaring none is excluded by tier, whether or
    not it is durable (CRASH-01, for durable stores, is unverified without a reopen hook)."""
    pytester.makeini("[pytest]\n")
    pytester.makeconftest(NO_ATOMIC_TIER)
    report = pytester.path / "report.json"
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--memory-driver=weak", f"--memory-report={report}", "-k", "sigkill"
    )
    found = verdicts(load_report(report), "weak")
    assert (found.get("CRASH-02"), found.get("CRASH-01")) == ("excluded by tier", "unverified"), (
        result.stdout.str()[-3000:]
    )


def test_a_store_without_the_full_history_leaves_the_crash_rules_unverified(
    crash_run: tuple[dict[str, Any], str, Path],
) -> None:
    """Its writer archives, and only get_full_history tells an archived message from a lost one:
    a store without it is not judged (never an AttributeError charged to CRASH-01)."""
    data, output, _workdir = crash_run
    crash = {rule: v for rule, v in verdicts(data, REQUIRED_ONLY).items() if rule.startswith("CRASH-")}
    assert crash == UNVERIFIED[REQUIRED_ONLY], output[-3000:]
    assert "does not implement" in data["drivers"][REQUIRED_ONLY]["rules"]["CRASH-01"]["message"]
