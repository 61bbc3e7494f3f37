"""When to compress: the trigger arithmetic of api-memory §触发判定, as pure functions.

Hosts call :func:`compression_due` after every model call; keeping it pure (no clocks, no retry
state) lets the same numbers decide in the agent, in a UI usage bar and in tests.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import attrs


def _number(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    """Token amounts: non-negative real numbers (``math.inf`` allowed, NaN and bool refused)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{attribute.name} must be a number, got {value!r}")
    if math.isnan(value) or value < 0:
        raise ValueError(f"{attribute.name} must be a non-negative number, got {value!r}")


def _count(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{attribute.name} must be an int, got {value!r}")
    if value < 0:
        raise ValueError(f"{attribute.name} must be non-negative, got {value!r}")


def _flag(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"{attribute.name} must be a bool, got {value!r}")


def check_ratio(value: object, what: str = "compress_at") -> float | None:
    """A compression line as a share of the window: ``None`` or a finite non-negative number."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{what} must be a number or None, got {value!r}")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{what} must be a finite non-negative number, got {value!r}")
    return float(value)


def _ratio(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    check_ratio(value, attribute.name)


def _optional_count(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None:
        _count(instance, attribute, value)


@attrs.frozen(kw_only=True)
class CompressionUsage:
    """What one model call used (tokens), and how long the session's history is."""

    #: Input tokens of this call.
    used: int | float = attrs.field(validator=_number)
    #: The model's context window (tokens).
    context_window: int | float = attrs.field(validator=_number)
    #: The hard-trim ceiling (tokens).
    token_budget: int | float = attrs.field(validator=_number)
    #: Tokens of history and tool results before trimming: what a full compression can remove.
    compressible: int | float = attrs.field(validator=_number)
    #: The hard trim ran: content was about to be dropped.
    trimmed: bool = attrs.field(validator=_flag)
    #: Conversation messages in the session's active history (control records excluded).
    history_messages: int = attrs.field(validator=_count)


@attrs.frozen(kw_only=True)
class CompressionLines:
    """The session's two lines; ``None`` or 0 switches a dimension off."""

    #: Usage line as a share of the context window.
    compress_at: float | None = attrs.field(default=None, validator=_ratio)
    #: Conversation-message count line.
    history_limit: int | None = attrs.field(default=None, validator=_optional_count)


class WindowAndBudget(Protocol):
    """The two fields :func:`compression_line` reads (a ``CompressionUsage`` has them)."""

    @property
    def context_window(self) -> int | float: ...

    @property
    def token_budget(self) -> int | float: ...


def compression_line(usage: WindowAndBudget, compress_at: float | None) -> float:
    """The usage line in tokens; without a positive ``compress_at`` it is only the budget cap.

    The trim budget wins when the ratio would put the line above it, so compression always comes
    before hard trimming.
    """
    ratio = check_ratio(compress_at)
    budget = usage.token_budget
    if ratio is None or ratio == 0:
        return budget
    return min(ratio * usage.context_window, budget)


def usage_due(usage: CompressionUsage, compress_at: float | None) -> bool:
    """The usage dimension alone: at the line or trimmed, and enough to gain (hysteresis)."""
    ratio = check_ratio(compress_at)
    if ratio is None or ratio == 0:
        return False
    line = compression_line(usage, ratio)
    reached = usage.used >= line or usage.trimmed
    return reached and usage.compressible >= line / 2


def count_due(usage: CompressionUsage, history_limit: int | None) -> bool:
    """The count dimension alone: conversation messages reached a positive limit."""
    return bool(history_limit) and usage.history_messages >= (history_limit or 0)


def compression_due(usage: CompressionUsage, lines: CompressionLines) -> bool:
    """True when either dimension reached its line; retry timing is the caller's business."""
    if not isinstance(usage, CompressionUsage):
        raise TypeError(f"usage must be a CompressionUsage, got {type(usage).__name__}")
    if not isinstance(lines, CompressionLines):
        raise TypeError(f"lines must be CompressionLines, got {type(lines).__name__}")
    return usage_due(usage, lines.compress_at) or count_due(usage, lines.history_limit)


__all__ = [
    "CompressionLines",
    "CompressionUsage",
    "WindowAndBudget",
    "check_ratio",
    "compression_due",
    "compression_line",
    "count_due",
    "usage_due",
]
