"""The rule catalogue: every rule the kit checks, by stable ID (see SPEC_MAP.md)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from aalis_memory.conformance.rules import clearing, compression, messages, metadata, mongodb, strength
from aalis_memory.conformance.rules.out_of_scope import OUT_OF_SCOPE as _OUT_OF_SCOPE
from aalis_memory.conformance.rules.rule import Level, OutOfScope, Rule


def _index(*groups: tuple[Rule, ...]) -> Mapping[str, Rule]:
    catalogue: dict[str, Rule] = {}
    for group in groups:
        for rule in group:
            if rule.id in catalogue:
                raise ValueError(f"rule {rule.id} is defined twice")
            catalogue[rule.id] = rule
    return MappingProxyType(catalogue)


CATALOGUE: Mapping[str, Rule] = _index(
    messages.RULES,
    metadata.RULES,
    compression.RULES,
    compression.SERVICE_RULES,
    clearing.RULES,
    mongodb.RULES,
    strength.RULES,
)

#: Statements of the documents deliberately not tested, with the reason.
OUT_OF_SCOPE = _OUT_OF_SCOPE + mongodb.OUT_OF_SCOPE


def rule(rule_id: str) -> Rule:
    """The rule with this ID; an unknown ID is a bug in the suite, so it raises ``KeyError``."""
    try:
        return CATALOGUE[rule_id]
    except KeyError:
        raise KeyError(f"unknown rule ID {rule_id!r}: add it to aalis_memory.conformance.rules") from None


__all__ = ["CATALOGUE", "OUT_OF_SCOPE", "Level", "OutOfScope", "Rule", "rule"]
