"""How a failure of a rule reads: its ID and level, what happened, the rule and its ground."""

from __future__ import annotations

from aalis_memory.conformance.rules import Rule


def failure_text(rule: Rule, detail: str) -> str:
    """``[ID LEVEL] first line``, then the rule and its ground, then the rest of ``detail``, so
    a failure can be fixed without SPEC_MAP.md."""
    first, *rest = detail.split("\n", 1)
    lines = [
        f"[{rule.id} {rule.level.value}] {first}",
        f"  rule {rule.id}: {rule.summary}",
        f"  {'cites' if rule.reading is None else 'why'}: {rule.ground()}",
    ]
    return "\n".join([*lines, *rest] if rest and rest[0] else lines)


__all__ = ["failure_text"]
