"""What an author reads first: the terminal summary shows every failing check's cases (issue 23).

A many-case check (``"66 of 253 calls did not raise TypeError:"``) lists its cases under its
summary line, the first ten of them, then how many more and where the rest are; before, the line
stopped at the colon and only the JSON report had the calls.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_broken_drivers import run_suite

from aalis_memory.conformance.checks import ConformanceFailure, every_case, expect
from aalis_memory.conformance.verdicts.model import Outcome, RuleVerdict, Verdict
from aalis_memory.conformance.verdicts.terminal import MAX_CASES, driver_summary, shorten
from reports import conformance_summary, rules

#: Broken drivers whose failures and advisories list many cases (HOST-01, HOST-02, HOST-04).
MANY_CASES = ("broken-host-query-injection", "broken-arg-save-dict-as-message")


def test_every_advisory_and_failure_shows_its_cases(tmp_path: Path) -> None:
    code, data, output = run_suite(tmp_path, list(MANY_CASES), "-k", "not state_machine")
    assert code in (0, 1), output[-3000:]
    summary = conformance_summary(output)
    listed = 0
    for driver in MANY_CASES:
        for rule, entry in rules(data, driver).items():
            if entry["verdict"] not in ("fail", "advisory"):
                continue
            found = entry["cases"]
            for case in found[:MAX_CASES]:
                assert f"- {shorten(case)}" in summary, (driver, rule, case)
                listed += 1
            if len(found) > MAX_CASES:
                assert f"and {len(found) - MAX_CASES} more (every case: " in summary
    assert listed >= MAX_CASES, summary  # the drivers really gave many-case findings


def test_a_many_case_check_carries_its_cases_as_data() -> None:
    """Each failing case travels as its own item, beside the message that lists them too: the
    summary never parses them back out of the text."""

    def check() -> None:
        with every_case("HOST-01", "calls failed") as each:
            for value in (1, 2, 3):
                with each.case():
                    expect("HOST-01", value == 2, f"call({value}): returned {value}")

    with pytest.raises(ConformanceFailure) as raised:
        check()
    assert raised.value.cases == ("call(1): returned 1", "call(3): returned 3")
    assert raised.value.detail.startswith("2 of 3 calls failed:\n  call(1): returned 1\n")


def test_each_line_names_its_rule_once() -> None:
    """The reports frame a failure with its rule (``[LIM-05 SHOULD] ...``); the terminal line
    already names the rule and its verdict, so it renders the record without the framing (issue
    34: the line said ``FAIL LIM-05: [LIM-05 SHOULD] ...``)."""
    test = "limits.py::test_full_history_default_limit_is_200[x]"
    failed = Outcome(
        verdict=Verdict.FAIL,
        rule="LIM-05",
        test=test,
        detail="get_full_history(s): expected 200, got 50",
        framed=True,
    )
    known = Outcome(
        verdict=Verdict.KNOWN_FAILURE,
        rule="MSG-02",
        test=test,
        detail="images lost",
        framed=True,
        known="a reason",
    )
    settled = Outcome(
        verdict=Verdict.BLOCKED,
        rule="HIST-02",
        test=test,
        detail="get_history(s, 5): out of order",
        framed=True,
        blocker="HIST-05",
        read_through=True,
    )
    per_rule = {one.rule: RuleVerdict([one]) for one in (failed, known, settled)}
    assert failed.message.startswith("[LIM-05 SHOULD] get_full_history(s)")  # the reports' text
    lines = [x for x in driver_summary("x", per_rule) if x.startswith(("  FAIL", "  KNOWN", "  BLOCKED"))]
    assert lines == [
        "  FAIL LIM-05: get_full_history(s): expected 200, got 50",
        "  KNOWN FAILURE MSG-02: known failure (a reason): images lost",
        "  BLOCKED HIST-02 by HIST-05 (not run): the check read the store through it, which this "
        "driver breaks; it found: get_history(s, 5): out of order",
    ], lines
    for line in lines:
        named = re.findall(r"\b[A-Z]+-\d+\b", line)
        assert len(named) == len(set(named)), line
