"""Properties of the pure pieces: limit handling, history windows, archive position arithmetic.

The model (conformance/machine/contract_model.py) and the drivers' shared logic
(drivers/semantics.py) are written independently; here they must agree with each other and
with the arithmetic the notes state.
"""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aalis_memory.conformance.machine import contract_model as model
from aalis_memory.drivers import semantics as sem
from aalis_memory.types import CONTROL_KINDS, Message

LIMITS = st.one_of(st.none(), st.integers(0, 60), st.just(math.inf))
BAD_LIMITS = st.one_of(
    st.integers(max_value=-1),
    st.floats().filter(lambda f: math.isnan(f) or f < 0 or (math.isfinite(f) and f != int(f))),
    st.text(max_size=3),
    st.booleans(),
)
ACTIVE = st.lists(st.sampled_from([None, None, "note", *sorted(CONTROL_KINDS)]), max_size=20).map(
    lambda kinds: [Message(role="user", content=f"m{i}", kind=k) for i, k in enumerate(kinds)]
)


@given(LIMITS, st.integers(1, 300))
def test_valid_limits_agree(limit: int | float | None, default: int) -> None:
    got = model.effective_limit(limit, default)
    assert got == sem.check_limit(limit, default, "limit")
    assert got == (default if limit is None else limit)


@given(BAD_LIMITS)
def test_bad_limits_raise_value_error(limit: object) -> None:
    with pytest.raises(ValueError, match="limit"):
        model.effective_limit(limit, 50)
    with pytest.raises(ValueError, match="limit"):
        sem.check_limit(limit, 50, "limit")


@given(st.lists(st.integers(), max_size=30), LIMITS.filter(lambda x: x is not None))
def test_take_newest_is_a_suffix_of_the_right_length(items: list[int], limit: float) -> None:
    got = model.take_newest(items, limit)
    assert len(got) == min(limit, len(items))
    assert got == items[len(items) - len(got) :]
    assert got == sem.newest(items, limit)


@given(ACTIVE, st.one_of(st.integers(0, 25), st.just(math.inf)))
def test_history_window(active: list[Message], limit: float) -> None:
    got = model.history_window(active, limit)
    assert got == sem.history_window(active, limit)
    if limit == 0:
        assert got == []  # LIM-01
        return
    assert got == active[len(active) - len(got) :]  # a suffix, in order (HIST-02)
    conversation = [m for m in active if m.kind not in CONTROL_KINDS]
    kept = [m for m in got if m.kind not in CONTROL_KINDS]
    assert len(kept) == min(limit, len(conversation))  # HIST-03: only conversation counts
    if len(conversation) > limit:
        # HIST-04: the window starts right after the (limit+1)-th newest conversation message.
        before = active[len(active) - len(got) - 1]
        assert before.kind not in CONTROL_KINDS
    else:
        assert got == active  # HIST-05: leading control records included


@given(st.integers(0, 30), st.integers(0, 40), st.lists(st.integers(0, 45), max_size=10))
def test_archive_positions(active: int, count: int, keep: list[int]) -> None:
    got = model.archived_positions(active, count, keep)
    assert got == sem.archive_positions(active, count, keep)
    span = min(count, active)  # ARCH-04, ARCH-05
    assert got == sorted(set(got))
    assert all(0 <= p < span for p in got)  # ARCH-01: the earliest positions only
    assert not set(got) & set(keep)  # ARCH-02
    # READING_NOTES #9 / ARCH-06 / ARCH-07: min(count, active) - |{k in keep : k < span}|.
    assert len(got) == span - len({k for k in keep if k < span})


def test_model_does_not_import_the_reference_logic() -> None:
    """The model must stay independent of the drivers so it can catch their shared bugs."""
    assert model.__file__ is not None
    tree = ast.parse(Path(model.__file__).read_text(encoding="utf-8"))
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [name for name in imported if name.startswith("aalis_memory.drivers")]
