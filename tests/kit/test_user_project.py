"""The kit inside an ordinary user project (issue 13): other async plugins, the user's own
fixture and marker names, CI reports. Each test is a throwaway project run by pytester."""

from __future__ import annotations

import os
import re
import shutil

import pytest

from reports import load_report

#: A correct async backend whose store is bound to the event loop it was opened on (as an
#: AsyncMongoClient or an asyncio.Lock-guarded connection pool is): run on another loop, it fails.
LOOP_BOUND = """
import asyncio

from aalis_memory.conformance import Capabilities, memory_driver
from aalis_memory.drivers.inmemory import InMemoryMemory


class LoopBound(InMemoryMemory):
    def __init__(self, **caps):
        super().__init__(**caps)
        self.loop = asyncio.get_running_loop()

    def __getattribute__(self, name):
        attr = super().__getattribute__(name)
        if name.startswith("_") or not asyncio.iscoroutinefunction(attr):
            return attr

        async def checked(*args, **kwargs):
            if asyncio.get_running_loop() is not self.loop:
                raise RuntimeError("store used on a different event loop than it was opened on")
            return await attr(*args, **kwargs)

        return checked


@memory_driver("loop-bound", capabilities=Capabilities(ordering="write"))
async def loop_bound(ctx):
    yield LoopBound(range_query_limit=ctx.range_query_limit,
                    cross_session_max_limit=ctx.cross_session_max_limit)
"""


@pytest.mark.parametrize(
    "ini",
    [
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n",
        "[pytest]\nasyncio_mode = strict\nasyncio_default_fixture_loop_scope = function\n",
    ],
)
def test_other_async_plugins_leave_the_suite_alone(pytester: pytest.Pytester, ini: str) -> None:
    pytest.importorskip("pytest_asyncio")
    pytest.importorskip("anyio")
    pytester.makeini(ini)
    pytester.makeconftest(LOOP_BOUND)
    report = pytester.path / "report.json"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "-p",
        "asyncio",
        "-p",
        "anyio",
        "--memory-driver=loop-bound",
        "--memory-strict",
        f"--memory-report={report}",
    )
    assert result.ret == 0, result.stdout.str()[-3000:]
    verdicts = load_report(report)["drivers"]["loop-bound"]["rules"]
    assert not [r for r, e in verdicts.items() if e["verdict"] == "fail"]


def _asyncio_loop_scope_warning(result: pytest.RunResult) -> bool:
    said = result.stdout.str() + result.stderr.str()
    return "PytestDeprecationWarning" in said and "asyncio_default_fixture_loop_scope" in said


def test_pytest_asyncio_adds_no_warning_to_a_run_of_the_suite(pytester: pytest.Pytester) -> None:
    """pytest-asyncio warns in every run while its ``asyncio_default_fixture_loop_scope`` is
    unset. A run of the suite from an empty folder uses none of its fixtures and has no file to
    set the option in: it prints no such warning, and passes under ``-W error`` (as
    ``tox -e conformance`` runs). A run without the suite still gets pytest-asyncio's advice."""
    pytest.importorskip("pytest_asyncio")
    plugins = ("-p", "no:cacheprovider", "-p", "asyncio")
    without_kit = pytester.runpytest_subprocess(*plugins, "-p", "no:aalis_memory", "--co")
    if not _asyncio_loop_scope_warning(without_kit):
        pytest.skip("this pytest-asyncio does not warn about its unset loop scope")
    assert _asyncio_loop_scope_warning(pytester.runpytest_subprocess(*plugins, "--co"))
    result = pytester.runpytest_subprocess(
        *plugins,
        "-W",
        "error",
        "--memory-driver=inmemory",
        "--memory-strict",
        "-k",
        "HIST-01",
    )
    assert result.ret == 0, (result.stdout.str() + result.stderr.str())[-3000:]
    assert not _asyncio_loop_scope_warning(result)
    result.stdout.fnmatch_lines(["*passed*"])


#: A user project with fixtures and markers named like the ones the kit used to add, each of
#: which would break a suite test that picked it up.
USER_PROJECT = """
import pytest

from aalis_memory.conformance import Capabilities, memory_driver
from aalis_memory.drivers.inmemory import InMemoryMemory

NAMES = ["memory", "memory_raw", "memory_ctx", "memory_loop", "memory_registration",
         "memory_strict", "memory_driver_name", "compression", "compression_registration",
         "compression_provider_name", "mongodb_server", "mongodb_database", "store", "driver"]

for _name in NAMES:
    def _hijack(request):
        raise RuntimeError(f"the user's own fixture {request.fixturename!r} was used by the kit")
    globals()[_name] = pytest.fixture(name=_name)(_hijack)


def pytest_runtest_setup(item):
    for name in ("requires", "spec", "conformance"):
        if item.get_closest_marker(name) is not None:
            pytest.skip(f"the user's hook for the {name!r} marker caught a kit test")


@memory_driver("mine", capabilities=Capabilities(ordering="write"))
async def mine(ctx):
    yield InMemoryMemory(range_query_limit=ctx.range_query_limit,
                         cross_session_max_limit=ctx.cross_session_max_limit)
"""


def test_the_users_fixture_and_marker_names_never_reach_the_suite(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeini("[pytest]\n")
    pytester.makeconftest(USER_PROJECT)
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--memory-driver=mine",
        "--memory-strict",
        "--memory-compression-provider=summary",
        "-rs",
    )
    assert result.ret == 0, result.stdout.str()[-3000:]
    assert "the user's" not in result.stdout.str()


def test_every_name_the_kit_adds_is_prefixed(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\n")
    fixtures = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--fixtures")
    sections = re.split(r"^-+ fixtures defined from ([\w.]+) -+$", fixtures.stdout.str(), flags=re.M)
    kit = [
        name
        for module, body in zip(sections[1::2], sections[2::2], strict=True)
        if module.startswith("aalis_memory")
        for name in re.findall(r"^(\w+)(?: \[\w+ scope\])? -- ", body, re.M)
    ]
    assert len(kit) >= 8, fixtures.stdout.str()
    assert all(name.startswith("aalis_") for name in kit), kit
    markers = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--markers")
    ours = [line for line in markers.stdout.lines if "conformance" in line or "rule" in line]
    assert ours
    assert all(line.startswith("@pytest.mark.aalis_") for line in ours), ours
    help_text = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--help").stdout.str()
    section = help_text.split("Aalis MemoryService conformance:", 1)[1].split("\n\n", 1)[0]
    options = re.findall(r"^\s+(--[\w-]+)", section, re.M)
    assert options
    assert all(o.startswith("--memory-") for o in options), options
    inis = re.findall(r"^\s+(\w*(?:memory|compression)\w*) \(", help_text, re.M)
    assert inis
    assert all(name.startswith("aalis_") for name in inis), inis


def test_a_named_driver_that_cannot_be_provisioned_is_an_error(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No server anywhere: --memory-driver=mongodb is one usage error saying what to do; the
    same driver brought in by 'all' is reported not run and the run goes on."""
    pytester.makeini("[pytest]\n")
    paths = os.environ.get("PATH", "").split(os.pathsep)
    bare = [p for p in paths if not any(shutil.which(tool, path=p) for tool in ("ferretdb", "mongod"))]
    monkeypatch.setenv("PATH", os.pathsep.join(bare))
    monkeypatch.delenv("AALIS_MEMORY_MONGODB_URI", raising=False)
    named = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--memory-driver=mongodb")
    assert named.ret == pytest.ExitCode.USAGE_ERROR, named.stdout.str()
    named.stderr.fnmatch_lines(
        [
            "ERROR: --memory-driver=mongodb: the driver cannot be provisioned: no MongoDB server *"
            "--memory-mongodb-uri*",
        ]
    )
    report = pytester.path / "report.json"
    every = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--memory-driver=all",
        "-k",
        "test_history_is_ascending",
        f"--memory-report={report}",
    )
    assert every.ret == pytest.ExitCode.OK, every.stdout.str()
    mongodb = load_report(report)["drivers"]["mongodb"]["rules"]
    assert mongodb["HIST-02"]["verdict"] == "not run"
    assert "no MongoDB server" in mongodb["HIST-02"]["message"]


FREEZE_PROBE = """
import gc
import pytest

@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    print(f"frozen objects after collection: {gc.get_freeze_count()}")
"""


def test_only_a_run_of_the_suite_freezes_what_it_imported(pytester: pytest.Pytester) -> None:
    """A run of the suite keeps the objects its imports and collection made out of the garbage
    collector's passes (a sixth of an in-memory run, docs/benchmarks.md); a run without a driver,
    the user's own tests, is left as it was."""
    pytester.makeini("[pytest]\n")
    pytester.makeconftest(FREEZE_PROBE)
    pytester.makepyfile(test_own="def test_own():\n    pass\n")
    counts: dict[str, int] = {}
    for name, options in (("suite", ["--memory-driver=inmemory", "-k", "test_own"]), ("own", [])):
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s", *options)
        assert result.ret == pytest.ExitCode.OK, result.stdout.str()
        found = re.search(r"frozen objects after collection: (\d+)", result.stdout.str())
        assert found is not None, result.stdout.str()
        counts[name] = int(found.group(1))
    assert counts["own"] == 0, counts
    assert counts["suite"] > 10_000, counts
