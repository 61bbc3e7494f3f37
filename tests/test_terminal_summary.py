"""What an author reads first: the terminal summary shows every failing check's cases (issue 23).

A many-case check (``"66 of 253 calls did not raise TypeError:"``) lists its cases under its
summary line, the first ten of them, then how many more and where the rest are; before, the line
stopped at the colon and only the JSON report had the calls.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_broken_drivers import run_suite

from aalis_memory.conformance.verdicts.render import MAX_CASES, cases, shorten
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
            found = cases(entry["message"])
            for case in found[:MAX_CASES]:
                assert f"- {shorten(case)}" in summary, (driver, rule, case)
                listed += 1
            if len(found) > MAX_CASES:
                assert f"and {len(found) - MAX_CASES} more (every case: " in summary
    assert listed >= MAX_CASES, summary  # the drivers really gave many-case findings


@pytest.mark.parametrize(("message", "expected"), [
    ("[X-01 SHOULD] 2 of 5 calls did not raise TypeError:\n  rule X-01: r\n  why: w\n"
     "  a(1): returned 1\n  b(2): returned 2", ["a(1): returned 1", "b(2): returned 2"]),
    ("[X-01 MUST] get_history(s): expected [], got [a]\n  rule X-01: r\n  cites: c", []),
])
def test_cases_are_the_lines_under_a_many_case_first_line(message: str, expected: list[str]
                                                         ) -> None:
    assert cases(message) == expected
