"""A blocker is always a rule that failed (issue 35: CLEAR-01 was "blocked by HIST-05 (pass)").

Over every frozen matrix the kit keeps, each blocker a rule or a test names has itself failed
(or was blocked in turn by one that did); and the judging charges a step's failure to the rule
the step stands on when nothing else failed it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

import frozen_matrix
import pytest

from aalis_memory.conformance.verdicts.model import (
    Outcome,
    RuleVerdict,
    Verdict,
    charge_blockers,
    resolve_leaning,
)

#: What a blocker's own verdict may be: failed, or blocked by one that failed.
FAILED_OR_BLOCKED: Final = frozenset({"fail", "advisory", "known failure", "blocked"})

MATRICES: Final = sorted(frozen_matrix.MATRIX_DIR.glob("*/*.json"))


def _root(rule: str, matrix: frozen_matrix.Matrix, seen: frozenset[str] = frozenset()) -> str:
    """Where a chain of blockers ends: the verdict of the rule that failed."""
    entry = matrix.get(rule)
    if entry is None:
        return "not reported"
    if entry["verdict"] != "blocked" or rule in seen:
        return str(entry["verdict"])
    blockers = [b.split(": ")[0] for b in entry["blocked_by"]]
    return _root(blockers[0], matrix, seen | {rule}) if blockers else "blocked by nothing"


@pytest.mark.parametrize("path", MATRICES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_blocker_failed(path: Path) -> None:
    sweep, driver = path.parent.name, json.loads(path.read_text(encoding="utf-8"))["driver"]
    matrix = frozen_matrix.load(sweep, driver)
    assert matrix is not None
    wrong = []
    for rule, entry in sorted(matrix.items()):
        named = {b.split(": ")[0] for b in entry["blocked_by"]}
        named |= {t.rsplit("(blocked by ", 1)[1].rstrip(")") for t in entry["tests"] if "(blocked by " in t}
        for blocker in sorted(named):
            state = matrix.get(blocker, {}).get("verdict", "not reported")
            if state not in FAILED_OR_BLOCKED:
                wrong.append(f"{rule} blocked by {blocker} ({state})")
            elif _root(blocker, matrix) not in FAILED_OR_BLOCKED - {"blocked"}:
                wrong.append(f"{rule} blocked by {blocker}, whose chain ends in {_root(blocker, matrix)}")
    assert not wrong, f"{sweep}/{driver}: " + "; ".join(wrong)


def _outcome(rule: str, verdict: Verdict, test: str, **fields: object) -> Outcome:
    return Outcome(verdict=verdict, rule=rule, test=test, driver="d", **fields)  # type: ignore[arg-type]


def test_a_step_s_failure_is_charged_to_the_rule_it_stands_on() -> None:
    blocked = _outcome(
        "CLEAR-01", Verdict.BLOCKED, "t_clear", blocker="HIST-05", cause="get_history(s, 10) raised"
    )
    per_rule = {
        "CLEAR-01": RuleVerdict([blocked]),
        "HIST-05": RuleVerdict([_outcome("HIST-05", Verdict.PASS, "t_hist")]),
    }
    added = charge_blockers(per_rule, strict=True)
    assert per_rule["HIST-05"].verdict is Verdict.FAIL, per_rule["HIST-05"]
    assert [(o.rule, o.test) for o in added] == [("HIST-05", "t_clear")]
    assert "get_history(s, 10) raised" in per_rule["HIST-05"].message
    # a SHOULD rule outside strict mode: an advisory, like any failed check of it
    should = {"A": RuleVerdict([_outcome("A", Verdict.BLOCKED, "t", blocker="META-05", cause="x")])}
    charge_blockers(should, strict=False)
    assert should["META-05"].verdict is Verdict.ADVISORY


def test_a_blocker_that_failed_is_left_as_it_is() -> None:
    failed = _outcome("HIST-05", Verdict.FAIL, "t_hist")
    per_rule = {
        "CLEAR-01": RuleVerdict([_outcome("CLEAR-01", Verdict.BLOCKED, "t", blocker="HIST-05", cause="c")]),
        "HIST-05": RuleVerdict([failed]),
        # read through a rule the driver breaks: settled by the leaning, never charged
        "ARCH-02": RuleVerdict(
            [_outcome("ARCH-02", Verdict.BLOCKED, "t2", blocker="HIST-01", read_through=True)]
        ),
    }
    assert charge_blockers(per_rule, strict=True) == []
    assert per_rule["HIST-05"].outcomes == [failed]
    assert "HIST-01" not in per_rule


def test_stopped_at_names_the_check_as_blocked() -> None:
    """Issue 35: a partial pass named ARCH-06 as where its test stopped, though ARCH-06's check
    there was blocked by ARCH-02 (it read the store through ARCH-02, which the driver breaks)."""
    stopped = _outcome("ARCH-03", Verdict.UNVERIFIED, "t_keep", stopped_at="ARCH-06")
    per_rule = {
        "ARCH-06": RuleVerdict([_outcome("ARCH-06", Verdict.FAIL, "t_keep", leaned=("ARCH-02",))]),
        "ARCH-03": RuleVerdict([stopped, _outcome("ARCH-03", Verdict.PASS, "t_other")]),
        "ARCH-02": RuleVerdict([_outcome("ARCH-02", Verdict.FAIL, "t_keep_list")]),
    }
    changed = resolve_leaning(per_rule)
    assert per_rule["ARCH-06"].verdict is Verdict.BLOCKED
    now = per_rule["ARCH-03"].outcomes[0]
    assert (stopped, now) in changed  # the JUnit file is mended with it too
    assert now.message == (
        "not checked: the test stopped first at a check of ARCH-06, which was blocked by ARCH-02"
    ), now.message
