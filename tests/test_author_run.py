"""The backend author's run (issue 12): bounded, focused, one cause one message.

Each test is a run an author makes from an empty directory, with a driver written as an author
would write it.
"""

from __future__ import annotations

import pytest

from reports import load_report

pytestmark = pytest.mark.usefixtures("isolated")


@pytest.fixture
def isolated(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\n")


HANGING = '''
import asyncio
import threading

from aalis_memory.conformance import Capabilities, memory_driver
from aalis_memory.drivers.inmemory import InMemoryMemory


class HangsAsync(InMemoryMemory):
    """count_history awaits an event that never fires."""

    async def count_history(self, session_id):
        await asyncio.Event().wait()


class SyncInMemory:
    """Plain methods over the reference store."""

    def __init__(self, **caps):
        self._inner = InMemoryMemory(**caps)
        self._loop = asyncio.new_event_loop()

    def __getattr__(self, name):
        method = getattr(self._inner, name)
        return lambda *args, **kwargs: self._loop.run_until_complete(method(*args, **kwargs))


class HangsSync(SyncInMemory):
    """A blocking count_history that never returns."""

    def count_history(self, session_id):
        threading.Event().wait()


@memory_driver("hang-async", capabilities=Capabilities(ordering="write"))
async def hang_async(ctx):
    yield HangsAsync(range_query_limit=ctx.range_query_limit,
                     cross_session_max_limit=ctx.cross_session_max_limit)


@memory_driver("hang-sync", capabilities=Capabilities(ordering="write"))
def hang_sync(ctx):
    yield HangsSync(range_query_limit=ctx.range_query_limit,
                    cross_session_max_limit=ctx.cross_session_max_limit)
'''


@pytest.mark.parametrize("driver", ["hang-async", "hang-sync"])
def test_a_hanging_method_fails_its_tests_in_bounded_time(
    pytester: pytest.Pytester, driver: str
) -> None:
    pytester.makeconftest(HANGING)
    report = pytester.path / "report.json"
    # The subprocess timeout bounds the whole run: a stuck worker thread must not keep it alive.
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", f"--memory-driver={driver}", "--memory-call-timeout=0.5",
        "-k", "count_history or test_history_is_ascending", f"--memory-report={report}",
        timeout=120,
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()
    result.stdout.fnmatch_lines([
        f"*CallTimeout: driver '{driver}': count_history('s-hist') did not return within 0.5 s*",
    ])
    rules = load_report(report)["drivers"][driver]["rules"]
    assert rules["COUNT-01"]["verdict"] == "fail"
    assert "did not return within 0.5 s" in rules["COUNT-01"]["message"]
    # Methods that return are still judged: the run went on after the timeouts.
    assert result.parseoutcomes().get("passed", 0) >= 1, result.stdout.str()
