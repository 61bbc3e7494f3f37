"""Every reason in the terminal (issue 27): a partial pass, a blocked rule, a rule its test did not
reach and an unverified rule each show why, on their summary line, in a default-mode run."""

from __future__ import annotations

from pathlib import Path

from test_broken_drivers import run_suite

from reports import conformance_summary


def test_each_partial_blocked_and_unverified_verdict_shows_its_reason(tmp_path: Path) -> None:
    code, _data, output = run_suite(
        tmp_path, ["broken-keep-ignored"], "--memory-rules=ARCH-*,CROSS-02,CRASH-*", "-k", "not state_machine"
    )
    assert code == 1, output[-3000:]
    summary = conformance_summary(output)
    lines = summary.splitlines()

    def line_of(start: str) -> str:
        found = [line.strip() for line in lines if line.strip().startswith(start)]
        assert found, f"no summary line starts with {start!r}:\n{summary}"
        return found[0]

    # blocked: by which rule, with that rule's verdict, and what the check found
    assert "by ARCH-02 (fail)" in line_of("BLOCKED ARCH-06"), summary
    # a partial pass: which part, and why
    partly = line_of("PARTIAL PASS, partly blocked")
    assert "(by ARCH-02)" in partly, partly
    assert "ARCH-03" in partly, partly
    # a rule its test stopped short of is "not reached", never "unverified"
    reached = line_of("PARTIAL PASS, partly not reached")
    # ARCH-06's check there is blocked by ARCH-02 (broken), so the stop names both
    assert "(the test stopped first at a check of ARCH-06, which was blocked by ARCH-02)" in reached, reached
    assert "ARCH-07" in reached, reached
    assert not any("unverified (not checked" in line for line in lines), summary
    # unverified: what the kit could not check here, and why
    assert "declares no durability" in line_of("unverified ("), summary
    # each rule --memory-rules left out is listed once, under one wording
    unselected = [line for line in lines if "not selected (--memory-rules)" in line]
    assert len(unselected) == 1, summary
    assert "its tests were deselected" not in summary, summary
    # the two counts of the output say what they count
    counts = line_of("counts: the lines above count rules, pytest's line below counts tests")
    assert "blocked rules" in counts, counts
