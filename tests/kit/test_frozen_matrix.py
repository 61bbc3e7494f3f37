"""The frozen verdict matrix's own pieces (tests/frozen_matrix.py): what an entry keeps, how a
difference reads, and that every frozen file is the JSON its writer makes."""

from __future__ import annotations

import json
from typing import Any

import frozen_matrix
import pytest


def rule(verdict: str, *tests: tuple[str, str, str], blocked_by: tuple[str, ...] = ()) -> dict[str, Any]:
    """A report's rule entry, with the run-specific fields an entry must leave out."""
    return {
        "level": "MUST",
        "text": "a rule",
        "verdict": verdict,
        "blocked_by": [{"rule": b, "verdict": "fail"} for b in blocked_by],
        "message": "expected [1] got [2] at 1733450000123",
        "cases": ["case at /tmp/pytest-of-x/1"],
        "caveats": [],
        "messages": ["expected [1] got [2] at 1733450000123"],
        "tests": [
            {"id": i, "verdict": v, "message": "m", "where": "w.py:1", "duration": 0.25, "blocker": b}
            for i, v, b in tests
        ],
    }


def report(**rules: dict[str, Any]) -> dict[str, Any]:
    return {"drivers": {"d": {"rules": rules}}}


def test_an_entry_keeps_the_verdicts_and_drops_what_a_run_measures() -> None:
    found = frozen_matrix.driver_matrix(
        report(
            **{
                "ARCH-01": rule(
                    "blocked",
                    ("b.py::t[d]", "blocked", "ARCH-02"),
                    ("a.py::t[d]", "pass", ""),
                    blocked_by=("ARCH-02",),
                )
            }
        ),
        "d",
    )
    assert found == {
        "ARCH-01": {
            "verdict": "blocked",
            "caveats": [],
            "blocked_by": ["ARCH-02: fail"],
            "tests": ["a.py::t: pass", "b.py::t: blocked (blocked by ARCH-02)"],
        }
    }


def test_an_unstable_rule_is_left_out() -> None:
    found = frozen_matrix.driver_matrix(
        report(**{"META-05": rule("pass"), "META-01": rule("pass")}), "d", ["META-05"]
    )
    assert list(found) == ["META-01"]


def test_a_difference_names_the_driver_the_rule_and_what_moved() -> None:
    before = frozen_matrix.driver_matrix(
        report(**{"A-01": rule("pass", ("t", "pass", "")), "A-02": rule("pass")}), "d"
    )
    after = frozen_matrix.driver_matrix(
        report(**{"A-01": rule("fail", ("t", "fail", "")), "A-03": rule("pass")}), "d"
    )
    assert frozen_matrix.differences("d", before, after) == [
        "d A-01: verdict pass -> fail",
        "d A-01: - test t: pass",
        "d A-01: + test t: fail",
        "d A-02: no longer reported (frozen: pass)",
        "d A-03: newly reported (pass)",
    ]
    assert frozen_matrix.differences("d", before, before) == []


def test_check_fails_with_the_diff(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frozen_matrix, "MATRIX_DIR", tmp_path / "tests" / "matrix")
    monkeypatch.delenv(frozen_matrix.FREEZE, raising=False)
    frozen_matrix.write("sweep", "stdio:d", {"A-01": frozen_matrix.entry(rule("pass"), "stdio:d")})
    assert frozen_matrix.frozen_drivers("sweep") == {"stdio:d": tmp_path / "tests/matrix/sweep/stdio_d.json"}
    frozen_matrix.check("sweep", "stdio:d", {"A-01": frozen_matrix.entry(rule("pass"), "stdio:d")})
    with pytest.raises(AssertionError, match=r"stdio:d A-01: verdict pass -> fail"):
        frozen_matrix.check("sweep", "stdio:d", {"A-01": frozen_matrix.entry(rule("fail"), "stdio:d")})
    monkeypatch.setenv(frozen_matrix.FREEZE, "1")
    frozen_matrix.check("sweep", "stdio:d", {"A-01": frozen_matrix.entry(rule("fail"), "stdio:d")})
    assert frozen_matrix.load("sweep", "stdio:d") == {"A-01": frozen_matrix.entry(rule("fail"), "stdio:d")}


def test_every_frozen_file_is_as_written() -> None:
    """A hand edit that breaks the one-rule-per-line layout (or the sorted keys) shows here."""
    files = sorted(frozen_matrix.MATRIX_DIR.glob("*/*.json"))
    assert files, f"no frozen matrix under {frozen_matrix.MATRIX_DIR}"
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert path.read_text(encoding="utf-8") == frozen_matrix.dump(data["driver"], data["rules"]), path
