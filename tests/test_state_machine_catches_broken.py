"""The state machine alone (example tests deselected) catches every broken driver it can reach.

One subprocess runs ``-k state_machine`` against all broken drivers; each must fail, and the
failure's primary rule (the ``[ID ...]`` a user reads first, not just one of the rules involved)
must be one the driver declares. Drivers whose declared rules are all out of a sequential
machine's reach are listed with the reason instead of being dropped silently.
"""

from __future__ import annotations

from typing import Any, Final

import pytest
from test_broken_drivers import run_suite

from aalis_memory.conformance.statemachine import COVERED_RULES, OUT_OF_REACH
from broken_drivers import BROKEN, Broken, load_all

load_all()

#: Broken drivers the machine cannot catch although a declared rule is in COVERED_RULES, with
#: the reason (empty when it catches them all).
NOT_CAUGHT: Final[dict[str, str]] = {}


def unreachable(entry: Broken) -> str | None:
    """Why the machine cannot catch ``entry``, or ``None`` when it should."""
    if entry.name in NOT_CAUGHT:
        return NOT_CAUGHT[entry.name]
    if entry.breaks & set(COVERED_RULES):
        return None
    reasons = [f"{r}: {OUT_OF_REACH[r]}" for r in sorted(entry.breaks) if r in OUT_OF_REACH]
    others = sorted(r for r in entry.breaks if r not in OUT_OF_REACH)
    if others:
        reasons.append(f"{', '.join(others)}: not storage-contract rules the model covers")
    return "; ".join(reasons)


REACHABLE: Final = sorted(n for n, e in BROKEN.items() if unreachable(e) is None)


@pytest.fixture(scope="session")
def machine_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    workdir = tmp_path_factory.mktemp("broken-machine")
    code, data, output = run_suite(
        workdir, [f"broken-{name}" for name in REACHABLE], "--memory-strict", "-k", "state_machine",
        "--memory-hypothesis-profile=deep",
    )
    assert code == 1, f"the machine should fail on the broken drivers (exit {code}):\n{output[-3000:]}"
    return data


@pytest.mark.parametrize("name", REACHABLE)
def test_machine_catches(name: str, machine_report: dict[str, Any]) -> None:
    entry = BROKEN[name]
    verdicts = machine_report.get(f"broken-{name}", {})
    failing = {rule: result for rule, result in verdicts.items() if result["verdict"] == "fail"}
    assert failing, f"broken-{name} ({entry.why}) passed the state machine"
    # The report files a failure under its primary rule: every one must be a declared rule.
    assert set(failing) <= entry.breaks, (
        f"broken-{name} breaks {sorted(entry.breaks)}, but the machine blamed "
        f"{sorted(set(failing) - entry.breaks)}:\n"
        + "\n".join(m for r in failing.values() for m in r["messages"])
    )


def test_exclusions_name_existing_drivers_and_rules() -> None:
    """A stale exclusion would hide a driver the machine should now be asked to catch."""
    assert set(NOT_CAUGHT) <= set(BROKEN), sorted(set(NOT_CAUGHT) - set(BROKEN))
    assert set(OUT_OF_REACH).isdisjoint(COVERED_RULES)
