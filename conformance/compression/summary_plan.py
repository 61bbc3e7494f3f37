"""Pure planning for a summary compression: where to split, and which picked originals stay.

Kept apart from the I/O so every number the provider promises (the token budget, the half
history limit, whole tool exchanges) can be tested without a store or a model.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Final, TypeAlias

import attrs

from aalis_memory.types import Message

#: Counts a message's tokens; hosts pass their tokenizer's.
TokenCounter: TypeAlias = Callable[[Message], int]

DEFAULT_PICKS_RATIO: Final = 0.1
_CHARS_PER_TOKEN: Final = 4


def approximate_tokens(message: Message) -> int:
    """A tokenizer-free estimate: about four characters of text, arguments and reasoning each."""
    parts = [message.content or ""]
    if isinstance(message.reasoning_content, str):
        parts.append(message.reasoning_content)
    if message.tool_calls:
        parts.append(json.dumps(list(message.tool_calls), ensure_ascii=False))
    chars = sum(len(part) for part in parts)
    return max(1, math.ceil(chars / _CHARS_PER_TOKEN))


def _call_ids(message: Message) -> set[str]:
    return {str(call.get("id")) for call in message.tool_calls or () if call.get("id") is not None}


def tool_exchanges(messages: Sequence[Message]) -> list[tuple[int, ...]]:
    """Partition positions into units that must stay together.

    An assistant message carrying tool calls and the ``tool`` replies right after it form one
    unit; every other message is a unit of its own.
    """
    units: list[list[int]] = []
    open_calls = False
    for position, message in enumerate(messages):
        if message.role == "tool" and open_calls and units:
            units[-1].append(position)
            continue
        units.append([position])
        open_calls = message.role == "assistant" and bool(message.tool_calls)
    return [tuple(unit) for unit in units]


def _open(messages: Sequence[Message], unit: tuple[int, ...]) -> bool:
    """A tool exchange still waiting for a reply to one of its calls."""
    head = messages[unit[0]]
    if not head.tool_calls:
        return False
    calls = _call_ids(head)
    if not calls:
        return len(unit) == 1
    return not calls <= {messages[p].tool_call_id for p in unit[1:]}


def split_point(snapshot: Sequence[Message]) -> int:
    """How many leading positions to compress: all of them, unless the history ends in a tool
    exchange still waiting for replies, which stays whole on the kept side."""
    conversation = [p for p, m in enumerate(snapshot) if not m.is_control]
    if not conversation:
        return len(snapshot)
    messages = [snapshot[p] for p in conversation]
    last = tool_exchanges(messages)[-1]
    if _open(messages, last):
        return conversation[last[0]]
    return len(snapshot)


@attrs.frozen(kw_only=True)
class PickLimits:
    """What the kept originals may cost: tokens (the budget) and messages (``None``: no cap)."""

    tokens: float
    messages: int | None = None


def pick_limits(
    compressed: Sequence[Message],
    counter: TokenCounter,
    ratio: float = DEFAULT_PICKS_RATIO,
    history_limit: int | None = None,
    post_split_conversation: int = 0,
) -> PickLimits:
    """The token budget is ``ratio`` of the compressed conversation; with a history limit the
    picks and the post-split conversation together stay within half of it (rounded down)."""
    budget = ratio * sum(counter(m) for m in compressed)
    if not history_limit:
        return PickLimits(tokens=budget)
    return PickLimits(tokens=budget, messages=max(0, history_limit // 2 - post_split_conversation))


def check_picks(picks: Iterable[object], size: int) -> list[int]:
    """The summarizer's picks, in its order, without repeats; raises on an impossible one."""
    if isinstance(picks, str | bytes):
        raise TypeError(f"picks must be positions, got {picks!r}")
    checked: list[int] = []
    for pick in picks:
        if isinstance(pick, bool) or not isinstance(pick, int):
            raise TypeError(f"a pick must be an int position, got {pick!r}")
        if not 0 <= pick < size:
            raise ValueError(f"pick {pick} is outside the {size} messages given")
        if pick not in checked:
            checked.append(pick)
    return checked


def choose_picks(
    messages: Sequence[Message],
    picks: Sequence[int],
    counter: TokenCounter,
    limits: PickLimits,
) -> list[int]:
    """Positions (ascending) of the originals to keep.

    Each pick brings its whole tool exchange; units are taken in the summarizer's order and one
    that does not fit the remaining tokens or messages is skipped, so a later, smaller one may
    still fit.
    """
    unit_of = {p: unit for unit in tool_exchanges(messages) for p in unit}
    kept: list[int] = []
    tokens = 0
    for pick in picks:
        unit = unit_of[pick]
        if unit[0] in kept:
            continue
        cost = sum(counter(messages[p]) for p in unit)
        if tokens + cost > limits.tokens:
            continue
        if limits.messages is not None and len(kept) + len(unit) > limits.messages:
            continue
        kept.extend(unit)
        tokens += cost
    return sorted(kept)


__all__ = [
    "DEFAULT_PICKS_RATIO",
    "PickLimits",
    "TokenCounter",
    "approximate_tokens",
    "check_picks",
    "choose_picks",
    "pick_limits",
    "split_point",
    "tool_exchanges",
]
