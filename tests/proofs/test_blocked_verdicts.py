"""Each rule judged on its own (issue 21): a broken basic behaviour fails its own rule, and the
rules whose tests needed it are ``blocked`` by it, never failed or passed.

Two drivers of ``broken_drivers.cascades``, in one default-mode run as an author runs the kit:
one with only the required methods and no ``archive_span``, one whose ``get_history(s, inf)``
raises. Every output (terminal, JSON, Markdown, JUnit) must say the same.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from test_broken_drivers import run_suite

from reports import conformance_summary, rules, verdicts

NO_ARCHIVE = "broken-required-only-no-archive"
INF_RAISES = "broken-history-infinity-raises"
DROPS_MARKERS = "broken-history-drops-leading-markers"
#: The archive_span rules whose every test calls it (ARCH-09 also needs get_full_history, which
#: this minimal backend lacks: not implemented).
NEED_ARCHIVE = {f"ARCH-{n:02d}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 10, 11)}


@pytest.fixture(scope="module")
def cascade_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str, Path]:
    workdir = tmp_path_factory.mktemp("cascades")
    code, data, output = run_suite(
        workdir,
        [NO_ARCHIVE, INF_RAISES, DROPS_MARKERS],
        f"--memory-report={workdir / 'matrix.md'}",
        f"--junitxml={workdir / 'junit.xml'}",
    )
    assert code == 1, output[-3000:]
    return data, output, workdir


@pytest.mark.parametrize(
    ("driver", "broken"),
    [
        (NO_ARCHIVE, "REQ-01"),
        (INF_RAISES, "LIM-02"),
        (DROPS_MARKERS, "HIST-05"),
    ],
)
def test_the_broken_rule_fails_and_no_other(
    cascade_run: tuple[dict[str, Any], str, Path], driver: str, broken: str
) -> None:
    found = verdicts(cascade_run[0], driver)
    judged_bad = {rule: v for rule, v in found.items() if v in ("fail", "advisory")}
    assert judged_bad == {broken: "fail"}, judged_bad


def test_rules_that_need_a_missing_method_are_blocked_by_req_01(
    cascade_run: tuple[dict[str, Any], str, Path],
) -> None:
    entries = rules(cascade_run[0], NO_ARCHIVE)
    blocked = {rule for rule, entry in entries.items() if entry["verdict"] == "blocked"}
    assert blocked >= NEED_ARCHIVE, sorted(NEED_ARCHIVE - blocked)
    for rule in NEED_ARCHIVE:
        assert entries[rule]["blocked_by"] == [{"rule": "REQ-01", "verdict": "fail"}], rule
        assert "archive_span() is not there" in entries[rule]["message"], entries[rule]
    # Rules whose tests need nothing missing are judged: metadata, plain history reads.
    assert {entries[r]["verdict"] for r in ("META-01", "HIST-03", "LIM-01")} == {"pass"}
    # A many-case check that met the missing method in some cases is a partial pass.
    assert entries["MSG-06"]["verdict"] == "partial pass", entries["MSG-06"]


def test_every_output_says_blocked(cascade_run: tuple[dict[str, Any], str, Path]) -> None:
    _data, output, workdir = cascade_run
    summary = conformance_summary(output)
    line = next(x for x in summary.splitlines() if x.strip().startswith("BLOCKED ARCH-01"))
    assert "by REQ-01 (fail)" in line, line
    assert re.search(r"\d+ blocked\b.* in [\d.]+s", output), output[-500:]  # pytest's count
    matrix = (workdir / "matrix.md").read_text(encoding="utf-8")
    header = next(x for x in matrix.splitlines() if x.startswith("| rule | level |"))
    row = next(x for x in matrix.splitlines() if x.startswith("| ARCH-01 | MUST |"))
    cell = dict(zip(header.split("|"), row.split("|"), strict=True))[f" `{NO_ARCHIVE}` "]
    assert cell.strip() == "🚧", (header, row)
    assert f"`{NO_ARCHIVE}` **ARCH-01** (blocked by REQ-01 (fail))" in matrix
    properties = {
        p.get("value")
        for p in ET.parse(workdir / "junit.xml").iter("property")
        if p.get("name") == "aalis_rule"
    }
    assert "ARCH-01 MUST blocked" in properties
    # Structured properties are JSON a CI tool can read, not Python reprs (issue 23).
    outcomes = [
        p.get("value", "")
        for p in ET.parse(workdir / "junit.xml").iter("property")
        if p.get("name") == "aalis_outcomes"
    ]
    assert outcomes
    assert all(isinstance(json.loads(v), list) for v in outcomes), outcomes[:2]


def test_an_observation_reads_with_a_finite_limit(
    cascade_run: tuple[dict[str, Any], str, Path],
) -> None:
    """get_history(s, inf) raising fails LIM-02 alone: the other tests read "everything" with a
    finite limit, so none of them is even blocked."""
    found = verdicts(cascade_run[0], INF_RAISES)
    assert not [rule for rule, v in found.items() if v in ("blocked", "partial pass")]


def test_a_check_that_read_through_a_broken_rule_is_blocked_by_it(
    cascade_run: tuple[dict[str, Any], str, Path],
) -> None:
    """get_history drops a whole history's leading markers (HIST-05): the ARCH-03 checks that
    read an archived history starting with a marker through it failed, but the failure is
    HIST-05's. They are blocked by it; ARCH-03's other check held: a partial pass."""
    data, _output, workdir = cascade_run
    entry = rules(data, DROPS_MARKERS)["ARCH-03"]
    assert entry["verdict"] == "partial pass", entry
    assert entry["blocked_by"] == [{"rule": "HIST-05", "verdict": "fail"}], entry
    blocked = [t for t in entry["tests"] if t["verdict"] == "blocked"]
    assert blocked, entry["tests"]
    assert all(
        t["blocker"] == "HIST-05" and "read the store through HIST-05" in t["message"] for t in blocked
    ), blocked
    cases = {c.get("name", ""): c for c in ET.parse(workdir / "junit.xml").iter("testcase")}
    mended = cases[f"test_archive_counts_markers_as_positions[{DROPS_MARKERS}]"]
    assert {p.get("value") for p in mended.iter("property")} >= {"ARCH-03 MUST blocked"}
