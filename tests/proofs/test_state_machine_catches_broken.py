"""The state machine alone (example tests deselected) catches every broken driver it can reach.

One subprocess runs ``-k state_machine`` against all broken drivers; each must fail, and the
failure's primary rule (the ``[ID ...]`` a user reads first, not just one of the rules involved)
must be one the driver declares. A driver none of whose declared rules the machine covers is
listed with the reason instead of being dropped silently.
"""

from __future__ import annotations

import asyncio
import inspect
import textwrap
from pathlib import Path
from typing import Any, Final

import attrs
import frozen_matrix
import pytest
from test_broken_drivers import rule_keywords as rule_keywords  # -k RULE-ID (tests/conftest.py)
from test_broken_drivers import run_in_parts, selected

from aalis_memory.conformance.harness.adapters import opened_store
from aalis_memory.conformance.machine.attribution import COVERED_RULES
from aalis_memory.conformance.registration.registry import DriverContext, DriverRegistration
from aalis_memory.conformance.registration.registry import get as get_driver
from broken_drivers import BROKEN, Broken, load_all, registration
from reports import failing, messages

load_all()

#: Broken drivers the machine cannot catch although a declared rule is in COVERED_RULES, with
#: the reason (empty when it catches them all).
NOT_CAUGHT: Final[dict[str, str]] = {
    "cross-empty-over-cap": "needs a finite limit above cross_session_max_limit with more matching "
    "messages than the cap; the deep profile's histories rarely hold one "
    "(the example test CROSS-01 catches it)",
    "json-list-keys-unchecked": "its payloads are sets, NaN and bytes, never a non-string key "
    "inside a list (the example tests' UNSERIALIZABLE catalogue has it)",
    "json-recursion-error": "its payloads are sets, NaN and bytes, never one nested too deep "
    "(the example tests' UNSERIALIZABLE catalogue has it)",
    "history-emptied-raises": "the machine files a cleared session's failed read under MSG-04 (an "
    "unknown session reads as empty), where the example tests' steps stand on HIST-05 (the rule "
    "of a read with a finite limit), which is what this driver is for: a blocker that failed",
    "save-max-connections": "its bug shows only with more than 150 saves in flight at once, which "
    "a history never makes (the scaling probe's fill does)",
    "limit-bool-is-one": "its bad limits are -1, 1.5, NaN and '3', never a bool",
    "archive-count-inf-is-all": "its bad counts never include math.inf",
    "meta-updated-at-counter": "a history runs within milliseconds, where previous + 1 and the "
    "write time cannot be told apart",
    "range-fetch-cap-times-8": "needs more than 8 x range_query_limit messages of one session "
    "that a range read's filters drop, ahead of more matching ones than the cap; its histories "
    "rarely hold that many (the example test RANGE-01 catches it)",
    "same-ms-counter-unpadded": "needs more than ten messages of one session in one millisecond; "
    "its histories rarely write that many at one timestamp (the example tests of HIST-02, "
    "FULL-02, RANGE-03, ARCH-01 and ARCH-09 write twelve)",
    "ts-since-zero-ignored": "since_ts=0 differs from no since_ts only when a message below 0 is "
    "among the newest asked for; its histories rarely combine the two (the example test TS-03 "
    "catches it)",
}


def unreachable(entry: Broken) -> str | None:
    """Why the machine cannot catch ``entry``, or ``None`` when it should."""
    if entry.name in NOT_CAUGHT:
        return NOT_CAUGHT[entry.name]
    if entry.breaks & set(COVERED_RULES):
        return None
    return f"{', '.join(sorted(entry.breaks))}: not storage-contract rules the model covers"


REACHABLE: Final = sorted(n for n, e in BROKEN.items() if unreachable(e) is None)


#: Runs the machine's broken drivers are split into, started at once: each run stays well inside
#: its time limit, however many drivers the machine can reach (on a loaded machine one run of
#: all of them did not), and the file ends sooner (see ``run_in_parts``).
PARTS: Final = 3


@pytest.fixture(scope="session")
def machine_report(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> dict[str, Any]:
    """The selected reachable broken drivers (all of them in a whole run) under the state
    machine alone, strict, with the deep profile."""
    return run_in_parts(
        tmp_path_factory,
        "broken-machine",
        [f"broken-{name}" for name in selected(request, REACHABLE)],
        PARTS,
        "--memory-strict",
        "-k",
        "state_machine",
        "--memory-hypothesis-profile=deep",
    )


@pytest.mark.parametrize("name", REACHABLE)
def test_machine_catches(name: str, machine_report: dict[str, Any]) -> None:
    entry = BROKEN[name]
    failed = failing(machine_report, f"broken-{name}")
    assert failed, f"broken-{name} ({entry.why}) passed the state machine"
    # The report files a failure under its primary rule: every one must be a declared rule.
    assert set(failed) <= entry.breaks, (
        f"broken-{name} breaks {sorted(entry.breaks)}, but the machine blamed "
        f"{sorted(set(failed) - entry.breaks)}:\n"
        + "\n".join(m for r in failed.values() for m in messages(r))
    )


#: Replays of a printed reproduction before it is found not to show its bug.
REPLAYS: Final = 20


@pytest.mark.parametrize("name", REACHABLE)
def test_printed_reproduction_runs_and_shows_the_bug(
    name: str, machine_report: dict[str, Any], tmp_path: Path
) -> None:
    """The snippet in the failure is Python a user can paste: run on a fresh store of the broken
    driver and of the reference driver of the same ordering, the calls' results differ."""
    shown = [m for r in failing(machine_report, f"broken-{name}").values() for m in messages(r)]
    if not shown:
        pytest.skip(f"broken-{name} was not caught (test_machine_catches says why)")
    source = snippet(shown[0])
    entry = BROKEN[name]
    reference = get_driver("inmemory" if entry.capabilities.ordering == "write" else "sqlite")
    # A bug that shows only when two calls meet in one millisecond (meta-updated-at-wall-clock)
    # shows in most replays, not in each: on a loaded machine a replay's calls may straddle
    # one. The snippet must show it in one of REPLAYS; a deterministic bug shows at the first.
    for replay in range(REPLAYS):
        broken_calls = run_snippet(source, registration(entry), tmp_path / f"broken-{replay}")
        reference_calls = run_snippet(source, reference, tmp_path / f"reference-{replay}")
        if broken_calls != reference_calls:
            return
    pytest.fail(
        f"the reproduction printed for broken-{name} gives the same results on {reference.name} "
        f"in {REPLAYS} replays:\n{source}\nresults: {broken_calls}"
    )


def snippet(message: str) -> str:
    """The reproduction block of a state-machine failure message, dedented."""
    lines = message.split("\n")
    start = next(i for i, line in enumerate(lines) if "reproduce (shrunk history" in line) + 1
    body = [line for line in lines[start:] if line.startswith("    ")]
    return textwrap.dedent("\n".join(body))


def run_snippet(source: str, reg: DriverRegistration, folder: Path) -> list[tuple[str, Any]]:
    """Run ``reproduce`` from ``source`` on a fresh store of ``reg``; every call's result."""
    namespace: dict[str, Any] = {}
    exec(compile(source, "<reproduction>", "exec"), namespace)  # the text the user would paste
    calls: list[tuple[str, Any]] = []
    folder.mkdir()
    with (
        asyncio.Runner() as runner,
        opened_store(reg, DriverContext(name=reg.name, tmp_path=folder), runner) as store,
    ):
        recorder = Recorder(store, calls)

        async def plant(target: Recorder, *args: Any) -> None:
            assert reg.raw_metadata is not None, f"{reg.name} has no raw hook"
            planted = reg.raw_metadata(target.wrapped, *args)
            calls.append(("plant", await planted if inspect.isawaitable(planted) else planted))

        reproduce = namespace["reproduce"]
        params = inspect.signature(reproduce).parameters
        try:
            runner.run(reproduce(recorder, plant) if "plant" in params else reproduce(recorder))
        except Exception as exc:  # a raising call is recorded; the reproduction stops there
            calls.append(("stopped", type(exc).__name__))
    return comparable(calls)


class Recorder:
    """A store whose every call's result (or error type) is logged."""

    def __init__(self, wrapped: Any, calls: list[tuple[str, Any]]) -> None:
        self.wrapped = wrapped
        self.calls = calls

    def __getattr__(self, method: str) -> Any:
        target = getattr(self.wrapped, method)

        async def call(*args: Any) -> Any:
            try:
                value = await target(*args)
            except Exception as exc:
                self.calls.append((method, f"raised {type(exc).__name__}"))
                raise
            self.calls.append((method, value))
            return value

        return call


def comparable(calls: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """``calls`` with epoch readings (stamped timestamps, updated_at) replaced by their unit and
    rank in the run: two runs never share a millisecond, but a frozen or a seconds stamp shows."""
    readings: set[int] = set()

    def walk(value: Any, replace: bool) -> Any:
        if attrs.has(type(value)):
            return type(value).__name__, walk(attrs.asdict(value, recurse=False), replace)
        if isinstance(value, dict):
            return {key: walk(item, replace) for key, item in value.items()}
        if isinstance(value, list):
            return [walk(item, replace) for item in value]
        if isinstance(value, tuple):  # kept apart from a list: a tuple handed back shows (META-07)
            return tuple(walk(item, replace) for item in value)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 10**9:
            if not replace:
                readings.add(value)
                return value
            rank = sorted(readings).index(value)
            return f"epoch-{'ms' if value >= 10**12 else 's'}#{rank}"
        return value

    walk(calls, replace=False)
    return [walk(call, replace=True) for call in calls]


#: The frozen matrix of the machine's sweep (tests/frozen_matrix.py).
SWEEP: Final = "broken-drivers-machine"


@pytest.mark.parametrize("name", REACHABLE)
def test_verdict_matrix_unchanged(name: str, machine_report: dict[str, Any]) -> None:
    """Every rule's verdict, caveats, blockers and tests under the machine, as frozen in
    tests/matrix/."""
    driver = f"broken-{name}"
    frozen_matrix.check(SWEEP, driver, frozen_matrix.driver_matrix(machine_report, driver))


def test_the_frozen_matrix_holds_every_reachable_driver() -> None:
    frozen_matrix.check_drivers(SWEEP, (f"broken-{name}" for name in REACHABLE))


def test_exclusions_name_existing_drivers_and_rules() -> None:
    """A stale exclusion would hide a driver the machine should now be asked to catch."""
    assert set(NOT_CAUGHT) <= set(BROKEN), sorted(set(NOT_CAUGHT) - set(BROKEN))
