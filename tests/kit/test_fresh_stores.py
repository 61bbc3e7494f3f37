"""The ``fresh=`` shortcut (issue 27): a driver may hand the kit a pooled store emptied between
tests, and the kit checks every such store before a test uses it. A shortcut that leaves state
behind is a usage error of the hook, never a verdict: the test that got the store is not judged,
no rule is charged, the run fails saying so, and the driver's later stores come from its factory.

Each run is an author's, from an empty folder, with the drivers in its ``conftest.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from aalis_memory.conformance import Capabilities, memory_driver
from reports import conformance_summary, load_report, verdicts

pytestmark = pytest.mark.usefixtures("isolated")


@pytest.fixture
def isolated(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\n")


#: Stores kept for the next test and emptied in between, as a pooled schema is truncated: an
#: async driver whose reset leaves one archived message behind (a TRUNCATE that forgets the
#: archive), and a correct sync one.
POOLED = '''
from pathlib import Path

from aalis_memory.conformance import Capabilities, memory_driver
from aalis_memory.drivers.inmemory import InMemoryMemory

CAPS = Capabilities(ordering="write")


class Pooled(InMemoryMemory):
    """An in-memory store the next test gets again, emptied (a pooled schema's TRUNCATE)."""

    def empty(self, forget_archive=False):
        kept = next(((sid, [r for r in records if r.archived][:1])
                     for sid, records in self._sessions.items()
                     if any(r.archived for r in records)), None)
        self._sessions.clear()
        self._metadata.clear()
        self._counts.clear()
        if forget_archive and kept is not None:  # the bug: an archived message stays behind
            self._sessions[kept[0]] = kept[1]


def new(ctx):
    return Pooled(range_query_limit=ctx.range_query_limit,
                  cross_session_max_limit=ctx.cross_session_max_limit)


LEAKY_POOL = []


async def leaky_fresh(ctx):
    store = LEAKY_POOL.pop() if LEAKY_POOL else new(ctx)
    store.empty(forget_archive=True)
    yield store
    LEAKY_POOL.append(store)


@memory_driver("fresh-leaky", capabilities=CAPS, fresh=leaky_fresh)
async def fresh_leaky(ctx):
    yield new(ctx)


class FullReadRaises(Pooled):
    """get_full_history and the cross-session read raise whatever they are asked (more bugs: the
    checks' first reads), and its reset leaves an active message behind, which get_history shows."""

    async def get_full_history(self, session_id, limit=200):
        raise RuntimeError("full reads are broken")

    async def get_recent_messages_across_sessions(self, query):
        raise RuntimeError("cross-session reads are broken")

    def empty(self, forget_archive=False):
        kept = next(((sid, [r for r in records if not r.archived][:1])
                     for sid, records in self._sessions.items()
                     if any(not r.archived for r in records)), None)
        super().empty()
        if forget_archive and kept is not None:  # an active message stays behind
            self._sessions[kept[0]] = kept[1]


RAISING_POOL = []


async def leaky_raising_fresh(ctx):
    store = RAISING_POOL.pop() if RAISING_POOL else FullReadRaises(
        range_query_limit=ctx.range_query_limit,
        cross_session_max_limit=ctx.cross_session_max_limit)
    store.empty(forget_archive=True)
    yield store
    RAISING_POOL.append(store)


@memory_driver("fresh-leaky-raising", capabilities=CAPS, fresh=leaky_raising_fresh)
async def fresh_leaky_raising(ctx):
    yield FullReadRaises(range_query_limit=ctx.range_query_limit,
                         cross_session_max_limit=ctx.cross_session_max_limit)


def done(coroutine):
    """The result of a coroutine of the in-memory store, which never waits."""
    try:
        coroutine.send(None)
    except StopIteration as stop:
        return stop.value
    coroutine.close()
    raise RuntimeError("the in-memory store waited")


class SyncPooled:
    """Plain methods over a pooled in-memory store."""

    def __init__(self, ctx):
        self.inner = new(ctx)

    def __getattr__(self, name):
        method = getattr(self.inner, name)
        return lambda *args, **kwargs: done(method(*args, **kwargs))


SYNC_POOL = []
REUSED = []


def sync_fresh(ctx):
    store = SYNC_POOL.pop() if SYNC_POOL else None
    if store is None:
        store = SyncPooled(ctx)
    else:
        REUSED.append(ctx.tmp_path.name)
    store.inner.empty()
    yield store
    SYNC_POOL.append(store)


@memory_driver("fresh-sync", capabilities=CAPS, fresh=sync_fresh)
def fresh_sync(ctx):
    yield SyncPooled(ctx)


def pytest_sessionfinish(session):
    Path("reused.txt").write_text(str(len(REUSED)))
'''


def _run(pytester: pytest.Pytester, drivers: str, *select: str) -> tuple[int, str, Path]:
    pytester.makeconftest(POOLED)
    report = pytester.path / "report.json"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        f"--memory-driver={drivers}",
        f"--memory-report={report}",
        *select,
        timeout=300,
    )
    return result.ret, result.stdout.str(), report


#: A quick slice of the suite: tests that write messages and metadata, and REQ-01's, which
#: opens its own store (a leak found inside a test's call, not its setup).
SLICE = ("--memory-rules=MSG-0*,META-0*,REQ-01,ARCH-0*", "-k", "not state_machine")


def test_a_fresh_store_that_holds_a_message_is_a_usage_error(pytester: pytest.Pytester) -> None:
    code, output, report = _run(pytester, "fresh-leaky,fresh-sync", *SLICE)
    summary = conformance_summary(output)
    assert code == pytest.ExitCode.TESTS_FAILED, output
    found = re.findall(r"^USAGE ERROR (\S+): (.*)$", summary, re.M)
    assert [driver for driver, _ in found] == ["fresh-leaky"], summary
    text = found[0][1]
    assert "the fresh= hook leaky_fresh() handed the kit a store that was not empty: session " in text, text
    assert "holds 1 message(s) before the test's first call on it (get_full_history)" in text, text
    assert "; 1 test(s) not judged: " in text, text
    data = load_report(report)
    for driver in ("fresh-leaky", "fresh-sync"):
        found_verdicts = verdicts(data, driver)
        charged = {
            rule
            for rule, verdict in found_verdicts.items()
            if verdict not in ("pass", "not run", "not implemented", "excluded by tier", "unverified")
        }
        assert not charged, (driver, {r: found_verdicts[r] for r in charged})
    # the test that got the store is not judged; the later ones ran on the factory's stores
    leaky = data["drivers"]["fresh-leaky"]["rules"]
    not_judged = [
        test
        for entry in leaky.values()
        for test in entry["tests"]
        if test["message"].startswith("not judged: ")
    ]
    assert len({t["id"] for t in not_judged}) == 1, not_judged
    assert sum(e["verdict"] == "pass" for e in leaky.values()) >= 10, leaky
    # the correct sync pool was used (its stores reused) and found empty every time
    assert int((pytester.path / "reused.txt").read_text()) >= 10


def test_a_check_read_that_raises_hands_over_to_the_next_read(pytester: pytest.Pytester) -> None:
    """A driver whose get_full_history raises still has its leak found, through get_history: a
    raising read never lets a leaked store through to be judged."""
    code, output, _report = _run(pytester, "fresh-leaky-raising", *SLICE)
    summary = conformance_summary(output)
    assert code == pytest.ExitCode.TESTS_FAILED, output
    assert re.search(
        r"^USAGE ERROR fresh-leaky-raising: .*holds 1 message\(s\) before the test's first call on it "
        r"\(get_history\)",
        summary,
        re.M,
    ), summary


def test_a_leak_found_inside_the_state_machine_is_a_usage_error(
    pytester: pytest.Pytester,
) -> None:
    """The machine opens a store per generated history: the leak surfaces inside Hypothesis,
    whatever it makes of an example that raised once, and still charges no rule."""
    code, output, report = _run(pytester, "fresh-leaky", "-k", "state_machine and not differential")
    summary = conformance_summary(output)
    assert code == pytest.ExitCode.TESTS_FAILED, output
    assert "USAGE ERROR fresh-leaky: driver 'fresh-leaky': the fresh= hook leaky_fresh()" in summary, summary
    found = verdicts(load_report(report), "fresh-leaky")
    assert "fail" not in found.values(), found
    assert "pass" not in found.values(), found  # its one test was not judged


def test_fresh_must_be_a_generator_factory() -> None:
    async def not_a_generator(ctx: object) -> object:
        return ctx

    with pytest.raises(TypeError, match="fresh= must be a generator function"):

        @memory_driver("fresh-wrong", capabilities=Capabilities(), fresh=not_a_generator)  # type: ignore[arg-type]
        async def wrong(ctx: object) -> object:
            yield ctx
