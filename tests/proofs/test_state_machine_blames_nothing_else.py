"""The state machine blames no rule a broken driver does not break, on the drivers it cannot
catch too.

tests/proofs/test_state_machine_catches_broken.py runs the machine on the broken drivers it can catch;
the default-mode sweep (tests/proofs/test_broken_drivers.py) leaves the machine out. The drivers in
neither still meet the machine in an author's run, so here it runs alone over each of them, in
the default mode and profile authors use: no failure and no advisory outside the declared rules,
but for the overlaps listed below with their reason (the bug's value contradicts the words of a
broader rule the machine covers as well as those of the narrower one the example tests judge).
"""

from __future__ import annotations

from typing import Any, Final

import pytest
from test_broken_drivers import start_suite
from test_state_machine_catches_broken import unreachable

from broken_drivers import BROKEN, load_all
from reports import verdicts

load_all()

#: Drivers the machine cannot catch on their declared rules.
UNREACHABLE: Final = sorted(name for name, entry in BROKEN.items() if unreachable(entry) is not None)

#: Rules outside a driver's declared ones that the machine may blame, each with the words its
#: bug contradicts (TS-03, the narrower rule, is the example tests' and not the machine's).
OVERLAPS: Final[dict[str, dict[str, str]]] = {
    "ts-delete-rounds": {
        "DEL-01": "deleting the message at 2 for [1.5] deletes one whose timestamp is not listed",
    },
    "ts-range-zero-unbounded": {
        "RANGE-02": "a read of [0, 0] that returns a message below 0 is not the inclusive range",
    },
    "history-emptied-raises": {
        "MSG-04": "a cleared session holds no message, which the contract's model reads as a session "
        "never written; a read of it that raises does not read it as empty",
    },
    "ts-since-zero-ignored": {
        "CROSS-05": "since_ts=0 that keeps a message below 0 does not keep only timestamps >= 0",
    },
}


@pytest.fixture(scope="session")
def unreachable_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The machine alone on every driver it cannot catch, in one default-mode run."""
    run = start_suite(
        tmp_path_factory.mktemp("broken-unreachable"),
        [f"broken-{name}" for name in UNREACHABLE],
        "-k",
        "state_machine",
    )
    code, data, output = run.finish()
    assert data, f"no report was written (exit {code}):\n{output[-3000:]}"
    return data


@pytest.mark.parametrize("name", UNREACHABLE)
def test_the_machine_blames_only_declared_rules(name: str, unreachable_report: dict[str, Any]) -> None:
    entry = BROKEN[name]
    found = verdicts(unreachable_report, f"broken-{name}")
    assert found, f"broken-{name} is not in the report"
    blamed = {rule for rule, verdict in found.items() if verdict in ("fail", "advisory")}
    allowed = entry.breaks | set(OVERLAPS.get(name, {}))
    assert blamed <= allowed, (
        f"broken-{name} ({entry.why}) breaks {sorted(entry.breaks)}, but the state machine "
        f"blamed {sorted(blamed - allowed)}"
    )


def test_overlaps_name_drivers_the_machine_cannot_catch() -> None:
    """A stale overlap would let the machine blame that rule unseen."""
    assert set(OVERLAPS) <= set(UNREACHABLE), sorted(set(OVERLAPS) - set(UNREACHABLE))
