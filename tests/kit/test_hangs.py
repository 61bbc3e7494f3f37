"""Hangs (issue 23): a hanging driver method costs one limit a run, never the run.

Each run is an author's run in a fresh interpreter, with the kit's default per-call limit unless
said otherwise, bounded by the subprocess timeout: the runs of one test go side by side (they
mostly wait), and each must end within :data:`RUN_TIMEOUT_S`.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Final

import pytest
from hanging_drivers import HANGING_CLASSES

from aalis_memory.conformance.registration.registry import DEFAULT_CALL_TIMEOUT
from reports import conformance_summary, load_report

#: Each run must end within this (the issue's bound; a run without the kit's care takes minutes).
RUN_TIMEOUT_S: Final = 60.0

POSIX_ONLY: Final = pytest.mark.skipif(
    sys.platform == "win32", reason="the main thread is woken out of a blocking call by a signal"
)

DRIVERS = (
    HANGING_CLASSES
    + '''
import signal
import time

CAPS = Capabilities(ordering="write")


def store(cls, ctx):
    return cls(range_query_limit=ctx.range_query_limit,
               cross_session_max_limit=ctx.cross_session_max_limit)


class BlocksLoop(InMemoryMemory):
    """count_history blocks the event loop for longer than the limit, then answers."""

    async def count_history(self, session_id):
        time.sleep(BLOCK_S)
        return await super().count_history(session_id)


class BlocksForever(InMemoryMemory):
    """count_history takes a threading lock it holds already: the loop never comes back."""

    def __init__(self, **caps):
        super().__init__(**caps)
        self._lock = threading.Lock()

    async def count_history(self, session_id):
        with self._lock, self._lock:
            return await super().count_history(session_id)


class Unstoppable(InMemoryMemory):
    """count_history blocks every signal, then sleeps in one long C call: nothing reaches it."""

    async def count_history(self, session_id):
        signal.pthread_sigmask(signal.SIG_BLOCK, set(signal.Signals))
        time.sleep(3600)


class MetadataHangs(InMemoryMemory):
    """get_metadata awaits an event that never fires (the hostile-input checks call it often)."""

    async def get_metadata(self, namespace, key):
        await asyncio.Event().wait()


class MetadataBlocksForever(InMemoryMemory):
    """get_metadata takes a threading lock it holds already: the kit stops using the driver."""

    def __init__(self, **caps):
        super().__init__(**caps)
        self._lock = threading.Lock()

    async def get_metadata(self, namespace, key):
        with self._lock, self._lock:
            return await super().get_metadata(namespace, key)


BLOCK_S = LIMIT + 2


def register(name, cls):
    @memory_driver(name, capabilities=CAPS)
    async def factory(ctx):
        yield store(cls, ctx)


register("hang-async", HangsAsync)
register("block-loop", BlocksLoop)
register("block-forever", BlocksForever)
register("unstoppable", Unstoppable)
register("meta-hangs", MetadataHangs)
register("meta-blocks-forever", MetadataBlocksForever)


@memory_driver("hang-sync", capabilities=CAPS)
def hang_sync(ctx):
    yield store(HangsSync, ctx)
'''
)


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeini("[pytest]\n")
    pytester.makeconftest(DRIVERS.replace("LIMIT", repr(DEFAULT_CALL_TIMEOUT)))
    return pytester


def run_side_by_side(
    project: pytest.Pytester, runs: dict[str, list[str]]
) -> dict[str, subprocess.CompletedProcess[str]]:
    """Each run of ``runs`` (name: pytest arguments) in its own interpreter, all at once; a run
    not over within :data:`RUN_TIMEOUT_S` fails the test."""
    started = {
        name: subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pytest",
                "-p",
                "no:cacheprovider",
                f"--basetemp={project.path / ('tmp-' + name)}",
                *args,
            ],
            cwd=project.path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, args in runs.items()
    }
    deadline = time.monotonic() + RUN_TIMEOUT_S
    done: dict[str, subprocess.CompletedProcess[str]] = {}
    try:
        for name, process in started.items():
            try:
                out, err = process.communicate(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pytest.fail(f"the run of {name} did not end within {RUN_TIMEOUT_S:g} s")
            done[name] = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    finally:
        for process in started.values():
            if process.poll() is None:
                process.kill()
                process.communicate()
    return done


def summary_of(run: subprocess.CompletedProcess[str]) -> str:
    assert "aalis memory conformance" in run.stdout, run.stdout + run.stderr
    return conformance_summary(run.stdout)


def cause_lines(summary: str, method: str) -> list[str]:
    """The summary lines that report a failure (listed or grouped) naming ``method``."""
    return [
        line
        for line in summary.splitlines()
        if re.match(r"  (FAIL|ADVISORY|ONE CAUSE|BLOCKED|KNOWN FAILURE) ", line) and method in line
    ]


def assert_judged_after(report: Path, driver: str) -> None:
    """The driver after the hanging one was judged in full: every rule it ran passed."""
    rules = load_report(report)["drivers"][driver]["rules"]
    failing = {r: e["verdict"] for r, e in rules.items() if e["verdict"] in ("fail", "advisory", "blocked")}
    assert not failing, failing
    assert rules["COUNT-01"]["verdict"] == "pass"


HANGS: Final = {
    # driver: what its one summary line says of count_history
    "hang-async": f"did not return within {DEFAULT_CALL_TIMEOUT:g} s",
    "hang-sync": f"did not return within {DEFAULT_CALL_TIMEOUT:g} s",
    "block-loop": "blocked the event loop for ",
    "block-forever": f"blocked the event loop for more than {2 * DEFAULT_CALL_TIMEOUT:g} s "
    "and the kit interrupted it",
}


@POSIX_ONLY
def test_each_kind_of_hang_costs_one_limit_and_the_next_driver_is_judged(
    project: pytest.Pytester,
) -> None:
    """With the default limit: an async method that never returns, one that blocks the loop
    past the limit, one that blocks it forever, and a sync method that never returns. Each is
    named once in the summary; its many later calls failed at once, or the run could not have
    ended in time (count_history is called in dozens of tests: 10 s each would be minutes)."""
    runs = run_side_by_side(
        project,
        {
            driver: [
                f"--memory-driver={driver},inmemory",
                "-k",
                "not state_machine",
                f"--memory-report={project.path / (driver + '.json')}",
            ]
            for driver in HANGS
        },
    )
    for driver, how in HANGS.items():
        run = runs[driver]
        assert run.returncode == pytest.ExitCode.TESTS_FAILED, run.stdout + run.stderr
        summary = summary_of(run)
        causes = cause_lines(summary, "count_history")
        # The scaling probe (PERF-01, one test) times count_history too: the hang keeps it from
        # judging at all, a line of its own, blocked by the rule the hang was charged to.
        causes = [line for line in causes if not line.startswith("  BLOCKED PERF-01 by COUNT-01 ")]
        # A hang met first in a step of another rule's test (block-forever: the run stops there)
        # blocks that test; the blocker is charged with the hang (a blocker is always a rule
        # that failed), so the one cause is COUNT-01's line, and the blocked test names it.
        causes = [line for line in causes if not re.match(r"  BLOCKED [A-Z]+-\d+ by COUNT-01 \(fail\)", line)]
        assert len(causes) == 1, (driver, causes)
        assert f"count_history('s-hist') {how}" in causes[0], causes
        assert_judged_after(project.path / f"{driver}.json", "inmemory")
        rules = load_report(project.path / f"{driver}.json")["drivers"][driver]["rules"]
        # The hang is charged to COUNT-01 alone; later calls end at once, blocked by it, never
        # a failure (or a failing case) of another rule.
        naming = [t for e in rules.values() for t in e["tests"] if "count_history" in t["message"]]
        failed_by_it = {
            r
            for r, e in rules.items()
            for t in e["tests"]
            if t["verdict"] in ("fail", "advisory") and "count_history" in t["message"]
        }
        blocked = [t for t in naming if t["verdict"] == "blocked"]
        assert {t["blocker"] for t in blocked} <= {"COUNT-01"}, blocked
        if driver == "block-forever":
            # Stopped at its first hang: no later test ran. That hang may be met by a read the
            # test catches (a witness), which COUNT-01 cannot fail any more: that test is then
            # blocked by COUNT-01, and the run says it stopped using the driver.
            assert failed_by_it <= {"COUNT-01"}, failed_by_it
            assert failed_by_it or blocked, naming
            assert f"not run (driver '{driver}' was stopped: count_history('s-hist') " in summary
            assert re.search(
                rf"^STOPPED {driver}: the kit stopped using this driver .*; \d+ of "
                r"its \d+ rules could not be run",
                summary,
                re.M,
            ), summary
        else:
            assert f"driver '{driver}': count_history('s-hist') {how}" in causes[0], causes
            assert rules["COUNT-01"]["verdict"] == "fail", rules["COUNT-01"]
            assert failed_by_it == {"COUNT-01"}, failed_by_it
            assert blocked, f"{driver}: no later call of count_history was blocked by COUNT-01"
            assert all(f"count_history('s-hist') {how}" in t["message"] for t in blocked), blocked
            assert "later calls of count_history are blocked by it" in blocked[0]["message"]


@POSIX_ONLY
def test_a_call_nothing_can_stop_ends_its_process_with_the_cause(
    project: pytest.Pytester,
) -> None:
    """A call that blocks the loop and takes no signal cannot be interrupted: its process ends
    with the cause on the terminal. Under pytest-xdist the worker is replaced, the driver's
    other tests are not run (with the cause) and the next driver is judged."""
    pytest.importorskip("xdist")
    report = project.path / "report.json"
    common = ["-k", "not state_machine", "--memory-call-timeout=1"]
    runs = run_side_by_side(
        project,
        {
            "alone": ["--memory-driver=unstoppable,inmemory", *common],
            "xdist": [
                "--memory-driver=unstoppable,inmemory",
                *common,
                "-n",
                "1",
                f"--memory-report={report}",
            ],
        },
    )
    said = "aalis-memory: driver 'unstoppable': count_history('s-hist') has blocked the event loop for"
    alone = runs["alone"]
    assert alone.returncode == pytest.ExitCode.INTERRUPTED, alone.stdout + alone.stderr
    assert said in alone.stderr, alone.stdout + alone.stderr
    assert "did not stop when the kit interrupted it" in alone.stderr
    assert "aalis memory conformance" not in alone.stdout  # the process ended mid-run
    xdist = runs["xdist"]
    assert xdist.returncode == pytest.ExitCode.TESTS_FAILED, xdist.stdout + xdist.stderr
    assert said in xdist.stderr + xdist.stdout
    assert "worker 'gw0' crashed" in xdist.stdout
    assert "not run (driver 'unstoppable' was stopped: count_history('s-hist') has blocked" in (
        summary_of(xdist)
    )
    assert_judged_after(report, "inmemory")


@POSIX_ONLY
def test_a_run_that_stopped_using_a_driver_fails_and_says_how_many_rules_it_did_not_run(
    project: pytest.Pytester,
) -> None:
    """get_metadata blocks the loop for good: the kit interrupts it and runs none of the
    driver's later tests. That run judged a fraction of the rules and must not be green."""
    report = project.path / "stopped.json"
    run = run_side_by_side(
        project,
        {
            "stopped": [
                "--memory-driver=meta-blocks-forever",
                "-k",
                "not state_machine",
                "--memory-call-timeout=1",
                f"--memory-report={report}",
            ]
        },
    )["stopped"]
    assert run.returncode == pytest.ExitCode.TESTS_FAILED, run.stdout + run.stderr
    rules = load_report(report)["drivers"]["meta-blocks-forever"]["rules"]
    not_run = [
        r
        for r, e in rules.items()
        if e["verdict"] == "not run" and "was stopped: get_metadata(" in e["message"]
    ]
    assert len(not_run) > len(rules) // 2, not_run
    found = re.search(
        r"^STOPPED meta-blocks-forever: the kit stopped using this driver \(was "
        r"stopped: get_metadata\(.*\); (\d+) of its (\d+) rules could not be run",
        summary_of(run),
        re.M,
    )
    assert found, summary_of(run)
    assert (int(found[1]), int(found[2])) == (len(not_run), len(rules))


@POSIX_ONLY
def test_later_calls_of_a_hanging_method_are_blocked_never_cases_of_another_rule(
    project: pytest.Pytester,
) -> None:
    """get_metadata never returns, and the hostile-input checks call it many times: the hang is
    charged to one rule (where it first happened); every later call is blocked by that rule,
    so no other rule fails, or counts a timeout among its failing cases."""
    report = project.path / "blocked.json"
    run = run_side_by_side(
        project,
        {
            "blocked": [
                "--memory-driver=meta-hangs",
                "-k",
                "not state_machine",
                "--memory-call-timeout=0.5",
                f"--memory-report={report}",
            ]
        },
    )["blocked"]
    assert run.returncode == pytest.ExitCode.TESTS_FAILED, run.stdout + run.stderr
    rules = load_report(report)["drivers"]["meta-hangs"]["rules"]
    naming = [
        (rule, test)
        for rule, entry in rules.items()
        for test in entry["tests"]
        if "get_metadata" in test["message"]
    ]
    charged = {rule for rule, test in naming if test["verdict"] in ("fail", "advisory")}
    assert len(charged) == 1, charged
    (first,) = charged
    blocked = [(rule, test) for rule, test in naming if test["verdict"] == "blocked"]
    assert blocked, "no later call of get_metadata was blocked"
    assert {test["blocker"] for _rule, test in blocked} == {first}
    assert all(test["verdict"] in ("fail", "advisory", "blocked") for _rule, test in naming)
    assert rules["HOST-01"]["verdict"] not in ("fail", "advisory"), rules["HOST-01"]
    assert any(test["verdict"] == "blocked" for test in rules["HOST-01"]["tests"])
    assert len(cause_lines(summary_of(run), "get_metadata")) == 2  # the hang, and one BLOCKED
