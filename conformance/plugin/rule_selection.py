"""``--memory-rules``: the rules a run selects, checked against the catalogue when the run starts
(a pattern that names no rule is a usage error, not a run that quietly tests nothing)."""

from __future__ import annotations

import fnmatch
from typing import Final

import pytest

from aalis_memory.conformance.rules import CATALOGUE

RULES: Final = pytest.StashKey["RuleSelection"]()


class RuleSelection:
    """The rules ``--memory-rules`` selected (every rule when it was not given)."""

    def __init__(self, patterns: list[str]) -> None:
        self.patterns = patterns

    def __call__(self, rule_id: str) -> bool:
        return not self.patterns or any(fnmatch.fnmatchcase(rule_id, p) for p in self.patterns)


def rule_selection(patterns: list[str]) -> RuleSelection:
    """A selection whose every pattern names at least one rule of the catalogue."""
    upper = [p.upper() for p in patterns]
    unknown = [p for p in upper if not any(fnmatch.fnmatchcase(r, p) for r in CATALOGUE)]
    if unknown:
        raise pytest.UsageError(
            f"--memory-rules: {', '.join(unknown)} matches no rule of the catalogue (list them "
            "with `python -m aalis_memory.conformance rules`)"
        )
    return RuleSelection(upper)
