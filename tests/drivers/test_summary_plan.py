"""Properties of the pure planning behind SummaryCompression (budget, half limit, tool units)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aalis_memory.conformance.compression.summary_plan import (
    PickLimits,
    approximate_tokens,
    check_picks,
    choose_picks,
    pick_limits,
    split_point,
    tool_exchanges,
)
from aalis_memory.types import Message


def tokens(message: Message) -> int:
    return len(message.content or "")


def call(call_id: str) -> dict[str, object]:
    return {"id": call_id, "type": "function", "function": {"name": "f", "arguments": "{}"}}


@st.composite
def histories(draw: st.DrawFn) -> list[Message]:
    """Conversations of plain messages and complete or partial tool exchanges."""
    out: list[Message] = []
    for n in range(draw(st.integers(1, 12))):
        text = "x" * draw(st.integers(1, 30))
        if draw(st.booleans()):
            out.append(Message(role=draw(st.sampled_from(["user", "assistant"])), content=text))
            continue
        ids = [f"c{n}-{i}" for i in range(draw(st.integers(1, 3)))]
        out.append(Message(role="assistant", content=text, tool_calls=[call(i) for i in ids]))
        for reply in ids[: draw(st.integers(0, len(ids)))]:
            out.append(Message(role="tool", content=text, tool_call_id=reply))
    return out


@pytest.mark.aalis_spec("CSV-05", "CSV-06", "CSV-18")
@given(histories(), st.data(), st.floats(0, 1), st.integers(0, 8))
def test_chosen_picks_respect_every_limit(
    messages: list[Message], data: st.DataObject, ratio: float, cap: int
) -> None:
    picks = data.draw(st.lists(st.integers(0, len(messages) - 1), unique=True))
    limits = PickLimits(tokens=ratio * sum(tokens(m) for m in messages), messages=cap)
    kept = choose_picks(messages, picks, tokens, limits)
    assert sum(tokens(messages[p]) for p in kept) <= limits.tokens
    assert len(kept) <= cap
    for unit in tool_exchanges(messages):
        assert set(unit) <= set(kept) or not set(unit) & set(kept)
    assert set(kept) <= {p for pick in picks for u in tool_exchanges(messages) if pick in u for p in u}


@pytest.mark.aalis_spec("CSV-19")
def test_picks_are_taken_in_order_skipping_what_no_longer_fits() -> None:
    messages = [Message(role="user", content=c) for c in ["aaaa", "bb", "cccccc", "d"]]
    assert choose_picks(messages, [2, 0, 1, 3], tokens, PickLimits(tokens=7)) == [2, 3]
    assert choose_picks(messages, [0, 1], tokens, PickLimits(tokens=99, messages=1)) == [0]


@pytest.mark.aalis_spec("CSV-18")
@given(histories())
def test_split_never_leaves_an_open_exchange_behind(messages: list[Message]) -> None:
    split = split_point(messages)
    units = tool_exchanges(messages)
    last = units[-1]
    head = messages[last[0]]
    answered = {messages[p].tool_call_id for p in last[1:]}
    is_open = bool(head.tool_calls) and not {c["id"] for c in head.tool_calls or ()} <= answered
    assert split == (last[0] if is_open else len(messages))


@pytest.mark.aalis_spec("CSV-06")
@given(st.integers(1, 500), st.integers(0, 300))
def test_half_limit_cap(limit: int, late: int) -> None:
    limits = pick_limits([], tokens, history_limit=limit, post_split_conversation=late)
    assert limits.messages == max(0, limit // 2 - late)
    assert pick_limits([], tokens, history_limit=None).messages is None


@pytest.mark.aalis_spec("CSV-05")
@given(st.lists(st.text(max_size=50), min_size=1, max_size=10), st.floats(0, 1))
def test_budget_is_the_share_of_the_compressed_tokens(texts: list[str], ratio: float) -> None:
    messages = [Message(role="user", content=t) for t in texts]
    assert pick_limits(messages, tokens, ratio=ratio).tokens == ratio * sum(map(len, texts))


@pytest.mark.aalis_spec("CSV-05")
def test_default_counter_counts_text_arguments_and_reasoning() -> None:
    assert approximate_tokens(Message(role="user", content=None)) == 1
    assert approximate_tokens(Message(role="user", content="x" * 40)) == 10
    with_call = Message(role="assistant", content="", tool_calls=[call("a" * 100)])
    assert approximate_tokens(with_call) > 25
    thinking = Message(role="assistant", content="x" * 4, reasoning_content="y" * 40)
    assert approximate_tokens(thinking) == 11


@pytest.mark.aalis_spec("CSV-19")
@pytest.mark.parametrize(
    ("picks", "error"),
    [("01", TypeError), ([True], TypeError), ([1.0], TypeError), ([3], ValueError), ([-1], ValueError)],
)
def test_impossible_picks_are_refused(picks: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        check_picks(picks, 3)  # type: ignore[arg-type]


def test_repeated_picks_count_once() -> None:
    assert check_picks([2, 0, 2], 3) == [2, 0]
