"""Every rule ID the kit names outside the catalogue is one the catalogue has.

Rule IDs are written by hand all over the kit: test markers, ``stands_on`` and ``calls_stand_on``
calls, the rules a step leans on (``conformance.steps``), broken drivers' declarations, docstrings
and the docs. A renamed or mistyped ID there would quietly lean on, declare or point to nothing,
so this test reads them all against the catalogue.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.conformance.rules.rule import should
from aalis_memory.conformance.steps import SUBJECTS, also_stood_on, leaned_on
from aalis_memory.service import OPTIONAL_METHODS, REQUIRED_METHODS
from aalis_memory.types import Message

REPO = Path(__file__).resolve().parents[2]
#: The catalogue itself (it may name retired IDs, saying they are not reused).
CATALOGUE_DIR: Final = REPO / "conformance" / "rules"
CODE_DIRS: Final = ("conformance", "drivers", "fixtures", "contract", "tests", "mutation", "benchmarks")

#: A line holding this exempts the IDs after it in its file: an ID a test asks for because the
#: catalogue lacks it.
ON_PURPOSE: Final = "not in the catalogue on purpose:"
# not in the catalogue on purpose: ARCH-98 CLR-97 (the checker's own tests below)

_PREFIXES: Final = "|".join(sorted({i.rsplit("-", 1)[0] for i in CATALOGUE}, key=len, reverse=True))
#: Every catalogue ID has a number of this many digits; one of another width is not an ID
#: (ISO-8601 is no ISO rule, nor SHA-256 anything).
(_WIDTH,) = {len(i.rsplit("-", 1)[1]) for i in CATALOGUE}
_NUMBER: Final = rf"\d{{{_WIDTH}}}(?!\w)"
#: An ID of one of the catalogue's groups, or a range of them (``CLR-04..09``, ``HIST-01..HIST-05``).
RULE_ID: Final = re.compile(rf"(?<![\w-])({_PREFIXES})-({_NUMBER})(?:\.\.(?:({_PREFIXES})-)?({_NUMBER}))?")


def ids_in(line: str) -> Iterator[str]:
    """The rule IDs ``line`` names, a range by its two ends."""
    for group, number, last_group, last in RULE_ID.findall(line):
        yield f"{group}-{number}"
        if last:
            yield f"{last_group or group}-{last}"


def unknown_ids(text: str, where: str) -> list[str]:
    """``where:line: ID`` for every rule ID ``text`` names that the catalogue lacks, except those
    a line of it lists after :data:`ON_PURPOSE`."""
    lines = text.splitlines()
    exempt = {i for line in lines if ON_PURPOSE in line for i in ids_in(line.split(ON_PURPOSE, 1)[1])}
    return [
        f"{where}:{n}: {rule_id}"
        for n, line in enumerate(lines, 1)
        for rule_id in ids_in(line)
        if rule_id not in CATALOGUE and rule_id not in exempt
    ]


def scanned() -> list[Path]:
    """The kit's code outside the catalogue, and the docs written by hand."""
    code = [p for d in CODE_DIRS for p in sorted((REPO / d).rglob("*.py")) if CATALOGUE_DIR not in p.parents]
    return [*code, REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").glob("*.md"))]


def test_every_rule_id_outside_the_catalogue_is_in_it() -> None:
    files = scanned()
    assert REPO / "conformance" / "steps.py" in files
    assert REPO / "tests" / "broken_drivers" / "__init__.py" in files
    assert not any(CATALOGUE_DIR in p.parents for p in files)
    found = [u for p in files for u in unknown_ids(p.read_text(encoding="utf-8"), str(p.relative_to(REPO)))]
    assert not found, "rule IDs the catalogue lacks:\n" + "\n".join(found)


def test_the_checker_names_each_unknown_id_by_file_and_line() -> None:
    text = (
        "ARCH-01 holds (HIST-01..05, CLR-04..CLR-09)\n"
        "it stands on ARCH-98; the clearing rules CLR-04..97\n"
        "UTF-8, ISO-8601, SHA-256, ARCH-0*, f'ARCH-0{n}', XARCH-99, ARCH-1\n"
    )
    assert unknown_ids(text, "x.py") == ["x.py:2: ARCH-98", "x.py:2: CLR-97"]
    assert unknown_ids(text + f"# {ON_PURPOSE} ARCH-98\n", "x.py") == ["x.py:2: CLR-97"]


def test_subjects_name_contract_methods() -> None:
    with pytest.raises(ValueError, match="no contract method"):
        should("X-01", "a rule", point="p", argument="a", subjects={"get_histroy"})


def test_a_step_leans_on_a_rule_that_judges_its_method() -> None:
    """A failed step blocks its test by a rule whose own tests call that method under test: a
    rule that does not judge it could never fail for what the step did."""

    def judges(rule_id: str, method: str) -> bool:
        return rule_id in CATALOGUE and method in SUBJECTS.get(rule_id, {method})

    odd = Message(role="user", content="x", timestamp=0)
    cases: list[tuple[object, ...]] = [
        ("s",),
        ("s", math.inf),
        ("s", None),
        ("s", 5),
        ("s", 3, [0]),
        ("s", odd),
    ]
    for method in REQUIRED_METHODS + OPTIONAL_METHODS:
        for args in cases:
            leans = [leaned_on(method, args, {}), *also_stood_on(method, args, {})]
            assert all(judges(r, method) for r in leans), (method, args, leans)
