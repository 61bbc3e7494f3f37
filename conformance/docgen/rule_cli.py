"""``python -m aalis_memory.conformance rules`` and ``explain ID``: the catalogue at a terminal.

Works from an installed package: the tests of a rule are read from the installed suites (and from
the repository's ``tests/`` when run inside a checkout).
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

from aalis_memory.conformance.docgen import spec_map
from aalis_memory.conformance.rules import CATALOGUE, Rule
from aalis_memory.conformance.suites import SUITES


def list_rules(patterns: list[str]) -> list[str]:
    """One line per rule: ID, level, whom it binds, its text (patterns filter by ID)."""
    wanted = [p.upper() for p in patterns] or ["*"]
    return [
        f"{rule.id:<10} {rule.level.value:<6} {rule.summary}"
        for rule in CATALOGUE.values()
        if any(fnmatch.fnmatchcase(rule.id, p) for p in wanted)
    ]


def tests_of(rule_id: str, cwd: Path) -> list[str]:
    """The tests that check ``rule_id``, as IDs pytest takes back: the installed suites' (by
    absolute path), and the repository's own when ``cwd`` is a checkout of the kit."""
    tests: list[str] = []
    for suite in SUITES:
        found = spec_map.scan([suite.folder], relative_to=suite.folder)
        tests += [f"{suite.folder / ref.path}::{ref.name}" for ref in found.get(rule_id, set())]
    if spec_map.is_repository(cwd):
        own = spec_map.scan([cwd / "tests"], relative_to=cwd)
        tests += [f"{ref.path}::{ref.name}" for ref in own.get(rule_id, set())]
    return sorted(tests)


def explain(rule_id: str, cwd: Path) -> list[str]:
    """The rule, its ground (cited words, or the reading and its argument), whom it binds,
    the tests that check it and the command that runs only them."""
    rule: Rule | None = CATALOGUE.get(rule_id.upper())
    if rule is None:
        close = fnmatch.filter(CATALOGUE, f"{rule_id.upper().split('-')[0]}-*")
        hint = f"; did you mean {', '.join(close[:6])}?" if close else ""
        raise LookupError(f"no rule {rule_id!r} in the catalogue{hint}")
    lines = [
        f"{rule.id} ({rule.level.value}): {rule.summary}",
        f"  binds: {rule.binding()}",
        f"  ground: {rule.ground()}",
        "  tests:",
    ]
    lines += [f"    {test}" for test in tests_of(rule.id, cwd)] or ["    (none)"]
    lines.append(f"  run only it: pytest --memory-driver=NAME --memory-rules={rule.id}")
    return lines
