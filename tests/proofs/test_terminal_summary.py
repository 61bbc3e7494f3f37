"""What an author reads first: the terminal summary shows every failing check's cases (issue 23).

A many-case check (``"66 of 253 calls did not raise TypeError:"``) lists its cases under its
summary line, the first ten of them, then how many more and where the rest are; before, the line
stopped at the colon and only the JSON report had the calls.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_broken_drivers import run_suite

from aalis_memory.conformance.checks import ConformanceFailure, every_case, expect
from aalis_memory.conformance.verdicts.render import MAX_CASES, shorten
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
