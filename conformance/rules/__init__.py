"""The rule catalogue: every rule the kit checks, by stable ID (see SPEC_MAP.md).

Every module of this package that defines ``RULES`` (and optionally ``OUT_OF_SCOPE``) joins the
catalogue, so a new group of rules is a new module here and nothing else. The modules listed in
``ORDER`` come first, in that order (it is the order of SPEC_MAP.md); any other follows by name.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Mapping
from types import MappingProxyType, ModuleType
from typing import Final

from aalis_memory.conformance.rules.out_of_scope import OUT_OF_SCOPE as _OUT_OF_SCOPE
from aalis_memory.conformance.rules.rule import Level, OutOfScope, Rule

#: Catalogue modules in map order; modules not named here come after them, sorted by name.
ORDER: Final = ("required", "messages", "metadata", "compression", "events", "clearing", "mongodb")
#: Modules of this package that hold the rule type and shared lists, not rules.
_NOT_RULES: Final = frozenset({"rule", "out_of_scope", "english"})


def _modules() -> list[ModuleType]:
    names = [m.name for m in pkgutil.iter_modules(__path__) if m.name not in _NOT_RULES]
    ordered = [n for n in ORDER if n in names] + sorted(n for n in names if n not in ORDER)
    return [importlib.import_module(f"{__name__}.{name}") for name in ordered]


def _index(groups: Iterable[tuple[Rule, ...]]) -> Mapping[str, Rule]:
    catalogue: dict[str, Rule] = {}
    for group in groups:
        for rule in group:
            if rule.id in catalogue:
                raise ValueError(f"rule {rule.id} is defined twice")
            catalogue[rule.id] = rule
    return MappingProxyType(catalogue)


_MODULES: Final = _modules()

CATALOGUE: Mapping[str, Rule] = _index(getattr(m, "RULES", ()) for m in _MODULES)

#: Statements of the documents deliberately not tested, with the reason.
OUT_OF_SCOPE: tuple[OutOfScope, ...] = _OUT_OF_SCOPE + tuple(
    item for m in _MODULES for item in getattr(m, "OUT_OF_SCOPE", ())
)


def rule(rule_id: str) -> Rule:
    """The rule with this ID; an unknown ID is a bug in the suite, so it raises ``KeyError``."""
    try:
        return CATALOGUE[rule_id]
    except KeyError:
        raise KeyError(f"unknown rule ID {rule_id!r}: add it to aalis_memory.conformance.rules") from None


__all__ = ["CATALOGUE", "OUT_OF_SCOPE", "Level", "OutOfScope", "Rule", "rule"]
