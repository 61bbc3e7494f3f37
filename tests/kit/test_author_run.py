"""The backend author's run (issue 12): bounded, focused, one cause one message.

Each test is a run an author makes from an empty directory, with a driver written as an author
would write it.
"""

from __future__ import annotations

import sys

import pytest
from hanging_drivers import HANGING_CLASSES

from reports import conformance_summary, load_report

pytestmark = pytest.mark.usefixtures("isolated")


@pytest.fixture
def isolated(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\n")


HANGING = (
    HANGING_CLASSES
    + """

@memory_driver("hang-async", capabilities=Capabilities(ordering="write"))
async def hang_async(ctx):
    yield HangsAsync(range_query_limit=ctx.range_query_limit,
                     cross_session_max_limit=ctx.cross_session_max_limit)


@memory_driver("hang-sync", capabilities=Capabilities(ordering="write"))
def hang_sync(ctx):
    yield HangsSync(range_query_limit=ctx.range_query_limit,
                    cross_session_max_limit=ctx.cross_session_max_limit)
"""
)


@pytest.mark.parametrize("driver", ["hang-async", "hang-sync"])
def test_a_hanging_method_fails_its_tests_in_bounded_time(pytester: pytest.Pytester, driver: str) -> None:
    pytester.makeconftest(HANGING)
    report = pytester.path / "report.json"
    # The subprocess timeout bounds the whole run: a stuck worker thread must not keep it alive.
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        f"--memory-driver={driver}",
        "--memory-call-timeout=0.5",
        "-k",
        "count_history or test_history_is_ascending",
        f"--memory-report={report}",
        timeout=120,
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            f"*CallTimeout: driver '{driver}': count_history('s-hist') did not return within 0.5 s*",
        ]
    )
    rules = load_report(report)["drivers"][driver]["rules"]
    assert rules["COUNT-01"]["verdict"] == "fail"
    assert "did not return within 0.5 s" in rules["COUNT-01"]["message"]
    # Methods that return are still judged: the run went on after the timeouts.
    assert result.parseoutcomes().get("passed", 0) >= 1, result.stdout.str()


UNUSABLE = """
from aalis_memory.conformance import Capabilities, memory_driver


@memory_driver("cannot-open", capabilities=Capabilities(ordering="write"))
async def cannot_open(ctx):
    raise ConnectionRefusedError("the server at db.invalid:1 refused the connection")
    yield
"""


@pytest.mark.parametrize(
    ("driver", "cause"),
    [
        ("cannot-open", "could not open a store: ConnectionRefusedError: the server at db.invalid:1"),
    ],
)
def test_an_unusable_driver_is_reported_once(pytester: pytest.Pytester, driver: str, cause: str) -> None:
    pytester.makeconftest(UNUSABLE)
    report = pytester.path / "report.json"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        f"--memory-driver={driver}",
        f"--memory-report={report}",
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()
    outcomes = result.parseoutcomes()
    assert outcomes.get("errors", 0) + outcomes.get("failed", 0) == 1, outcomes
    assert outcomes.get("passed", 0) == 0, outcomes
    assert result.stdout.str().count(cause) <= 4, result.stdout.str()  # the error, not per test
    rules = load_report(report)["drivers"][driver]["rules"]
    not_run = [r for r, e in rules.items() if e["verdict"] == "not run"]
    assert len(not_run) >= len(rules) - 3
    assert all(cause in rules[r]["message"] for r in not_run), rules[not_run[0]]


def test_one_rule_is_selected_by_its_id(pytester: pytest.Pytester) -> None:
    report = pytester.path / "report.json"
    by_id = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--memory-driver=inmemory",
        "--memory-rules=ARCH-07,COUNT-*",
        f"--memory-report={report}",
    )
    assert by_id.ret == 0, by_id.stdout.str()
    rules = load_report(report)["drivers"]["inmemory"]["rules"]
    assert {r for r, e in rules.items() if e["verdict"] == "pass"} == {"ARCH-07", "COUNT-01"}
    assert all(e["verdict"] == "not run" for r, e in rules.items() if r not in ("ARCH-07", "COUNT-01"))
    # -k takes rule IDs too: each suite test carries its rules as keywords.
    by_keyword = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--memory-driver=inmemory",
        "-k",
        "ARCH-07 and not state",
        "--co",
        "-q",
    )
    ids = [line for line in by_keyword.stdout.lines if "::" in line]
    assert ids, by_keyword.stdout.str()
    assert all("archive" in line for line in ids), ids
    unknown = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--memory-driver=inmemory", "--memory-rules=ARC-07"
    )
    assert unknown.ret == pytest.ExitCode.USAGE_ERROR
    unknown.stderr.fnmatch_lines(["*--memory-rules: ARC-07 matches no rule of the catalogue*"])


SLICE_BUG = '''
import math

from aalis_memory.conformance import Capabilities, memory_driver
from aalis_memory.defaults import DEFAULT_HISTORY_LIMIT
from aalis_memory.drivers.inmemory import InMemoryMemory


class SliceInf(InMemoryMemory):
    """rows[-limit:]: fails on math.inf, and accepts a negative limit (LIM-06)."""

    async def get_history(self, session_id, limit=None):
        rows = await super().get_history(session_id, math.inf)
        wanted = DEFAULT_HISTORY_LIMIT if limit is None else limit
        return rows[-wanted:] if wanted else []


def register(name, known):
    @memory_driver(name, capabilities=Capabilities(ordering="write"), known_failures=known)
    async def factory(ctx):
        yield SliceInf(range_query_limit=ctx.range_query_limit,
                       cross_session_max_limit=ctx.cross_session_max_limit)


register("slice-known", {"LIM-06": "we accept any limit"})
register("slice-stale", {"META-01": "an entry left over after the fix"})
'''


def test_one_cause_is_one_line_and_known_failures_are_declared(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(SLICE_BUG)
    report = pytester.path / "report.json"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--memory-driver=slice-known,slice-stale",
        f"--memory-report={report}",
        "-k",
        "not state_machine",
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    summary = conformance_summary(result.stdout.str())
    # The TypeError of rows[-inf:] is LIM-02's alone: the other rules' tests read "everything"
    # with a finite limit, so they neither fail nor are blocked by it (issue 21).
    causes = [line for line in summary.splitlines() if "TypeError: slice indices" in line]
    assert len(causes) == 2, summary
    assert all(line.strip().startswith("FAIL LIM-02: ") and "get_history(" in line for line in causes), causes
    rules = load_report(report)["drivers"]
    assert rules["slice-known"]["rules"]["LIM-06"]["verdict"] == "known failure"
    assert "we accept any limit" in rules["slice-known"]["rules"]["LIM-06"]["message"]
    assert rules["slice-stale"]["rules"]["LIM-06"]["verdict"] == "advisory"
    # A listed rule that passes fails the run and says to remove the entry.
    result.stdout.fnmatch_lines(
        [
            "FIXED slice-stale META-01: listed in known_failures * but it passed; remove the entry",
        ]
    )
    result.stdout.fnmatch_lines(["rerun one rule: pytest --memory-driver=* --memory-rules=*"])


def test_a_driver_known_only_for_its_failures_runs_green(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        SLICE_BUG.replace('{"LIM-06": "we accept any limit"}', '{"LIM-06": "any limit", "LIM-02": "inf"}')
    )
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--memory-driver=slice-known",
        "--memory-rules=LIM-02,LIM-06",
    )
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    assert result.parseoutcomes().get("xfailed", 0) >= 1


COLLIDING = """
from aalis_memory.conformance import memory_driver
from aalis_memory.drivers.inmemory import InMemoryMemory


@memory_driver("inmemory")
async def mine(ctx):
    yield InMemoryMemory()
"""


def test_a_name_registered_twice_is_one_usage_error_naming_both(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(COLLIDING)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--memory-driver=inmemory")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: memory driver 'inmemory' is registered twice: at conftest.py:5 and at "
            "*registrations.py:*; rename one of them",
        ]
    )
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


def test_a_registered_driver_without_selection_gets_a_hint(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(COLLIDING.replace('"inmemory"', '"mine"'))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    result.stdout.fnmatch_lines(
        [
            "aalis-memory: driver(s) mine registered but none selected: run the conformance suite "
            "with --memory-driver=mine",
        ]
    )


def test_a_raw_hook_must_say_whether_it_planted(pytester: pytest.Pytester) -> None:
    pytester.makeconftest("""
from aalis_memory.conformance import Capabilities, memory_driver
from aalis_memory.drivers.inmemory import InMemoryMemory


def forgetful_hook(store, namespace, key, kind):
    store.plant_raw_metadata(namespace, key, "{not json")  # and returns nothing


@memory_driver("forgetful", capabilities=Capabilities(ordering="write"),
               raw_metadata=forgetful_hook)
async def forgetful(ctx):
    yield InMemoryMemory()
""")
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--memory-driver=forgetful",
        "--memory-rules=META-09",
        "-k",
        "not state_machine",
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "*TypeError: driver 'forgetful': the raw_metadata hook returned None; it must return "
            "True (the * entry was written) or False (this backend cannot hold one)*",
        ]
    )


def test_the_catalogue_at_a_terminal(pytester: pytest.Pytester) -> None:
    listed = pytester.run(sys.executable, "-m", "aalis_memory.conformance", "rules", "ARCH-0*")
    assert listed.ret == 0
    assert [line.split()[0] for line in listed.outlines if line] == [f"ARCH-0{n}" for n in range(1, 10)]
    explained = pytester.run(sys.executable, "-m", "aalis_memory.conformance", "explain", "arch-10")
    assert explained.ret == 0, explained.errlines
    explained.stdout.fnmatch_lines(
        [
            "ARCH-10 (MUST): A driver declaring archive_atomicity='atomic' *",
            "  ground: api-memory §核心方法 “*” (*)",  # the cited words, then their English
            "  tests:",
            "    */suite/archive.py::test_*",
            "  run only it: pytest --memory-driver=NAME --memory-rules=ARCH-10",
        ]
    )
    # not in the catalogue on purpose: ARCH-99 (what explain says of an ID it lacks)
    unknown = pytester.run(sys.executable, "-m", "aalis_memory.conformance", "explain", "ARCH-99")
    assert unknown.ret == 2
    unknown.stderr.fnmatch_lines(["explain: no rule 'ARCH-99' in the catalogue; did you mean *"])


LENIENT = """
import json

from aalis_memory.conformance import Capabilities, memory_driver
from aalis_memory.drivers.inmemory import InMemoryMemory


class Lenient(InMemoryMemory):
    async def save_metadata(self, namespace, key, data):
        json.dumps(data, default=repr)  # 'serializable' with repr: sets, bytes, objects pass
        self.plant_raw_metadata(namespace, key, json.dumps(data, default=repr))


@memory_driver("lenient", capabilities=Capabilities(
    ordering="write", metadata_atomicity="atomic", archive_atomicity="atomic"))
async def lenient(ctx):
    yield Lenient(range_query_limit=ctx.range_query_limit,
                  cross_session_max_limit=ctx.cross_session_max_limit)
"""


def test_every_bad_case_is_reported_in_one_run(pytester: pytest.Pytester) -> None:
    """Point 5: a driver that stores several kinds of bad payload sees all of them at once."""
    pytester.makeconftest(LENIENT)
    report = pytester.path / "report.json"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--memory-driver=lenient",
        "--memory-rules=META-08",
        f"--memory-report={report}",
    )
    message = load_report(report)["drivers"]["lenient"]["rules"]["META-08"]["message"]
    first, *cases = message.splitlines()
    bad = [line for line in cases if line.startswith("  save_metadata(")]
    assert "payloads JSON cannot hold were not refused cleanly" in first, result.stdout.str()
    assert len(bad) >= 3, message
    assert first.startswith(f"[META-08 SHOULD] {len(bad)} of "), message
