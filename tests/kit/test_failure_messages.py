"""Failure lines a driver author reads: expected vs actual that actually differ on the page."""

from __future__ import annotations

import pytest

from aalis_memory.conformance.checks import ConformanceFailure, every_case, expect_equal
from aalis_memory.types import Message


def test_a_difference_in_a_field_the_short_form_omits_is_named() -> None:
    saved = Message(role="user", content="hi", timestamp=1, images=("a.png",))
    read = Message(role="user", content="hi", timestamp=1)
    with pytest.raises(ConformanceFailure) as failure:
        expect_equal("MSG-02", "get_history(s, 10)", [read], [saved])
    first = str(failure.value).splitlines()[0]
    assert first == "[MSG-02 SHOULD] get_history(s, 10): item 0 .images: expected ('a.png',), got None"


def test_a_visible_difference_keeps_the_short_form() -> None:
    with pytest.raises(ConformanceFailure) as failure:
        expect_equal("HIST-01", "get_history(s, 10)", [], [Message(role="user", content="x", timestamp=5)])
    assert str(failure.value).splitlines()[0] == (
        "[HIST-01 MUST] get_history(s, 10): expected [user@5:'x'], got []"
    )


def _parity_cases(rule_id: str, failing_rule: str) -> None:
    with every_case(rule_id, "cases failed") as cases:
        for value in (1, 2, 3):
            with cases.case():
                expect_equal(failing_rule, f"case {value}", value % 2, 0)


def test_every_bad_case_is_listed() -> None:
    with pytest.raises(ConformanceFailure) as failure:
        _parity_cases("META-08", "META-08")
    lines = str(failure.value).splitlines()
    assert lines[0] == "[META-08 SHOULD] 2 of 3 cases failed:"
    assert lines[-2:] == ["  case 1: expected 0, got 1", "  case 3: expected 0, got 1"]


def test_another_rule_failing_inside_a_case_is_not_swallowed() -> None:
    with pytest.raises(ConformanceFailure) as failure:
        _parity_cases("META-08", "META-01")
    assert failure.value.rule.id == "META-01"
    assert "case 1" in str(failure.value).splitlines()[0]
