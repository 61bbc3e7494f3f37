"""Property tests of compression_line and compression_due, one clause of §触发判定 per test."""

from __future__ import annotations

import math
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from aalis_memory import (
    CompressionLines,
    CompressionUsage,
    compression_due,
    compression_line,
)

tokens = st.integers(min_value=0, max_value=2_000_000)
#: Windows and budgets are at least 1 token, so every line drawn here is positive.
positive_tokens = st.integers(min_value=1, max_value=2_000_000)
ratios = st.floats(min_value=0.01, max_value=2.0, allow_nan=False, allow_infinity=False)
off = st.sampled_from([None, 0, 0.0])
counts = st.integers(min_value=0, max_value=10_000)


@st.composite
def usages(draw: st.DrawFn, /, **fixed: Any) -> CompressionUsage:
    fields: dict[str, Any] = {
        "used": draw(tokens),
        "context_window": draw(positive_tokens),
        "token_budget": draw(positive_tokens),
        "compressible": draw(tokens),
        "trimmed": draw(st.booleans()),
        "history_messages": draw(counts),
    }
    fields.update(fixed)
    return CompressionUsage(**fields)


def line_of(usage: CompressionUsage, ratio: float) -> float:
    return compression_line(usage, ratio)


# -- compression_line ---------------------------------------------------------------------


@pytest.mark.aalis_spec("CMP-01")
@given(usages(), ratios)
def test_line_is_the_smaller_of_ratio_and_budget(usage: CompressionUsage, ratio: float) -> None:
    line = compression_line(usage, ratio)
    assert line == min(ratio * usage.context_window, usage.token_budget)
    assert line <= usage.token_budget


@pytest.mark.aalis_spec("CMP-01")
@given(positive_tokens, positive_tokens)
def test_line_above_budget_is_capped_at_budget(window: int, budget: int) -> None:
    usage = CompressionUsage(
        used=0,
        context_window=window,
        token_budget=budget,
        compressible=0,
        trimmed=False,
        history_messages=0,
    )
    ratio = 2.0 * budget / window + 1  # always above the budget
    assert compression_line(usage, ratio) == budget


@pytest.mark.aalis_spec("CMP-02")
@given(usages(), off)
def test_line_without_ratio_is_the_budget(usage: CompressionUsage, ratio: float | None) -> None:
    assert compression_line(usage, ratio) == usage.token_budget


# -- usage dimension ------------------------------------------------------------------------


@pytest.mark.aalis_spec("CMP-03")
@given(usages(trimmed=False, history_messages=0), ratios, st.integers(0, 1000))
def test_reaching_the_line_fires_with_enough_compressible(
    usage: CompressionUsage, ratio: float, extra: int
) -> None:
    line = line_of(usage, ratio)
    hit = attrs.evolve(usage, used=line + extra, compressible=line / 2 + extra)
    assert compression_due(hit, CompressionLines(compress_at=ratio))


@pytest.mark.aalis_spec("CMP-03")
@given(usages(trimmed=False, history_messages=0), ratios)
def test_exactly_at_the_line_and_exactly_half_fires(usage: CompressionUsage, ratio: float) -> None:
    line = line_of(usage, ratio)
    edge = attrs.evolve(usage, used=line, compressible=line / 2)
    assert compression_due(edge, CompressionLines(compress_at=ratio))


@pytest.mark.aalis_spec("CMP-03")
@given(usages(trimmed=False, history_messages=0), ratios)
def test_just_below_the_line_does_not_fire(usage: CompressionUsage, ratio: float) -> None:
    line = line_of(usage, ratio)
    below = attrs.evolve(usage, used=math.nextafter(line, 0.0), compressible=line)
    assert not compression_due(below, CompressionLines(compress_at=ratio))


@pytest.mark.aalis_spec("CMP-04")
@given(usages(trimmed=True, history_messages=0, used=0), ratios)
def test_trimmed_fires_below_the_line(usage: CompressionUsage, ratio: float) -> None:
    line = line_of(usage, ratio)
    trimmed = attrs.evolve(usage, compressible=line / 2)
    assert compression_due(trimmed, CompressionLines(compress_at=ratio))


@pytest.mark.aalis_spec("CMP-05")
@given(usages(history_messages=0), ratios, st.integers(0, 1000))
def test_compressible_below_half_never_fires(usage: CompressionUsage, ratio: float, extra: int) -> None:
    line = line_of(usage, ratio)
    starved = attrs.evolve(usage, used=line + extra, compressible=math.nextafter(line / 2, 0.0))
    assert not compression_due(starved, CompressionLines(compress_at=ratio))


@pytest.mark.aalis_spec("CMP-06")
@given(usages(history_messages=0), off, st.integers(0, 10**9))
def test_no_ratio_means_no_usage_trigger(usage: CompressionUsage, ratio: float | None, over: int) -> None:
    flooded = attrs.evolve(usage, used=usage.token_budget + over, compressible=over + 10**9)
    assert not compression_due(flooded, CompressionLines(compress_at=ratio))
    assert not compression_due(attrs.evolve(flooded, trimmed=True), CompressionLines())


# -- count dimension ------------------------------------------------------------------------


@pytest.mark.aalis_spec("CMP-07")
@given(usages(used=0, compressible=0, trimmed=False), st.integers(1, 5000), st.integers(0, 50))
def test_count_fires_at_and_above_the_limit(usage: CompressionUsage, limit: int, extra: int) -> None:
    lines = CompressionLines(history_limit=limit)
    assert compression_due(attrs.evolve(usage, history_messages=limit + extra), lines)
    assert not compression_due(attrs.evolve(usage, history_messages=limit - 1), lines)


@pytest.mark.aalis_spec("CMP-07")
@given(usages(used=0, compressible=0, trimmed=False), st.sampled_from([None, 0]))
def test_count_off_never_fires(usage: CompressionUsage, limit: int | None) -> None:
    assert not compression_due(usage, CompressionLines(history_limit=limit))


# -- either dimension ------------------------------------------------------------------------


@pytest.mark.aalis_spec("CMP-08")
@given(usages(trimmed=False), ratios, st.integers(1, 5000))
def test_either_dimension_suffices(usage: CompressionUsage, ratio: float, limit: int) -> None:
    line = line_of(usage, ratio)
    lines = CompressionLines(compress_at=ratio, history_limit=limit)
    usage_only = attrs.evolve(usage, used=line, compressible=line, history_messages=limit - 1)
    count_only = attrs.evolve(usage, used=0, compressible=0, history_messages=limit)
    neither = attrs.evolve(usage, used=0, compressible=0, history_messages=limit - 1)
    assert compression_due(usage_only, lines)
    assert compression_due(count_only, lines)
    assert not compression_due(neither, lines)


@pytest.mark.aalis_spec("CMP-08")
def test_worked_example() -> None:
    usage = CompressionUsage(
        used=70_000,
        context_window=100_000,
        token_budget=90_000,
        compressible=35_000,
        trimmed=False,
        history_messages=12,
    )
    assert compression_line(usage, 0.7) == 70_000
    at_70 = CompressionLines(compress_at=0.7)
    assert compression_due(usage, at_70)
    assert not compression_due(attrs.evolve(usage, compressible=34_999), at_70)
    both = CompressionLines(compress_at=0.7, history_limit=12)
    assert compression_due(attrs.evolve(usage, compressible=0), both)
    assert compression_line(usage, 0.95) == 90_000


# -- bad input -------------------------------------------------------------------------------

GOOD: dict[str, Any] = {
    "used": 1,
    "context_window": 10,
    "token_budget": 8,
    "compressible": 1,
    "trimmed": False,
    "history_messages": 0,
}


@pytest.mark.aalis_spec("CMP-09")
@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("used", -1, ValueError),
        ("used", math.nan, ValueError),
        ("used", "10", TypeError),
        ("context_window", True, TypeError),
        ("token_budget", None, TypeError),
        ("compressible", -0.5, ValueError),
        ("trimmed", 1, TypeError),
        ("history_messages", 1.5, TypeError),
        ("history_messages", -1, ValueError),
    ],
)
def test_bad_usage_is_refused(field: str, value: Any, error: type[Exception]) -> None:
    with pytest.raises(error, match=field):
        CompressionUsage(**{**GOOD, field: value})


@pytest.mark.aalis_spec("CMP-09")
@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"compress_at": -0.1}, ValueError),
        ({"compress_at": math.nan}, ValueError),
        ({"compress_at": math.inf}, ValueError),
        ({"compress_at": "0.7"}, TypeError),
        ({"history_limit": -1}, ValueError),
        ({"history_limit": 2.0}, TypeError),
        ({"history_limit": False}, TypeError),
    ],
)
def test_bad_lines_are_refused(fields: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        CompressionLines(**fields)


@pytest.mark.aalis_spec("CMP-09")
def test_bad_arguments_to_the_functions_are_refused() -> None:
    usage = CompressionUsage(**GOOD)
    with pytest.raises(ValueError, match="compress_at"):
        compression_line(usage, -1)
    with pytest.raises(TypeError):
        compression_due(GOOD, CompressionLines())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        compression_due(usage, {"compress_at": 0.5})  # type: ignore[arg-type]
