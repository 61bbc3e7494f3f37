"""Every clause of a rule's text is a case of that rule's own test (tests/clauses.py lists them).

A rule whose text gives an example its test never tries can pass for a driver that breaks the
example (issue 35: the range [0, 0] was charged to another rule only). The table names, for each
rule of the catalogue, the clauses of its text and the case of its test that exercises each; this
test proves the table whole and true: every rule has an entry, the entry was written against the
rule's present text (its hash), each clause quotes that text, and each case exists, in a test
charged to the rule (its ``aalis_spec`` marker), holding the label the entry names.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import attrs
import pytest
from clauses import CLAUSES, NO_CASE, PENDING_FROM_BUGS, Entry

from aalis_memory.conformance.docgen import spec_map
from aalis_memory.conformance.rules import CATALOGUE, Rule

REPO = Path(__file__).resolve().parents[2]


def text_hash(rule: Rule) -> str:
    """What an entry records of the text it was written against: a change of the text (a new
    clause, another example) changes it, so the entry must be read again."""
    return hashlib.sha256(rule.summary.encode("utf-8")).hexdigest()[:8]


@attrs.frozen
class Case:
    """A case an entry names: ``test`` (``name`` or ``Class::name``), and a ``label`` its source
    holds (a case of a table, an input, a phrase of its message), empty for the whole test."""

    test: str
    label: str

    @classmethod
    def parse(cls, written: str) -> Case:
        test, _, label = written.partition(": ")
        return cls(test.strip(), label.strip())


def _function(tree: ast.Module, test: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    scope: list[ast.stmt] = tree.body
    *classes, name = test.split("::")
    for class_name in classes:
        found = [s for s in scope if isinstance(s, ast.ClassDef) and s.name == class_name]
        if not found:
            return None
        scope = found[0].body
    return next(
        (s for s in scope if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == name),
        None,
    )


def _segment(source: str, node: ast.stmt) -> str:
    lines = source.splitlines()
    decorators = getattr(node, "decorator_list", [])
    first = min([node.lineno, *(d.lineno for d in decorators)])
    return "\n".join(lines[first - 1 : node.end_lineno])


@attrs.frozen
class _Module:
    """One module's top-level definitions by name, and where its imported names come from."""

    source: str
    defined: dict[str, ast.stmt]
    imported: dict[str, tuple[str, str]]

    @classmethod
    def read(cls, path: Path) -> _Module:
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        defined: dict[str, ast.stmt] = {}
        imported: dict[str, tuple[str, str]] = {}
        for stmt in tree.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                defined[stmt.name] = stmt
            elif isinstance(stmt, ast.Assign | ast.AnnAssign):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                defined.update({t.id: stmt for t in targets if isinstance(t, ast.Name)})
            elif isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.level == 0:
                imported.update({a.asname or a.name: (stmt.module, a.name) for a in stmt.names})
        return cls(source, defined, imported)


@functools.cache
def _module(path: Path) -> _Module:
    return _Module.read(path)


def _module_file(name: str) -> Path | None:
    """The file of an importable module of the kit or of tests/ (others are not searched)."""
    if not name.startswith("aalis_memory.") and "." in name:
        return None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    origin = None if spec is None else spec.origin
    return Path(origin) if origin and origin.endswith(".py") and "site-packages" not in origin else None


#: How many definitions away from the test a label may be found (a test, the helper it calls,
#: the table that helper reads).
_DEPTH = 3


def case_source(path: Path, test: str) -> str | None:
    """The source of ``test`` in ``path`` (its decorators included) and of the definitions it
    uses, up to :data:`_DEPTH` steps away, in its module or a module of the kit it imports them
    from (the tables and helpers its cases come from); ``None`` when there is no such test."""
    module = _module(path)
    function = _function(ast.parse(module.source), test)
    if function is None:
        return None
    parts = [_segment(module.source, function)]
    seen: set[tuple[Path, str]] = set()
    frontier = [(path, module, function)]
    for _ in range(_DEPTH):
        following: list[tuple[Path, _Module, ast.stmt]] = []
        for where, mod, node in frontier:
            for name in sorted({n.id for n in ast.walk(node) if isinstance(n, ast.Name)}):
                found = _definition(where, mod, name)
                if found is None or (found[0], name) in seen:
                    continue
                seen.add((found[0], name))
                parts.append(_segment(found[1].source, found[2]))
                following.append(found)
        frontier = following
    return "\n".join(parts)


def _definition(path: Path, module: _Module, name: str) -> tuple[Path, _Module, ast.stmt] | None:
    if name in module.defined:
        return path, module, module.defined[name]
    if name in module.imported:
        origin, original = module.imported[name]
        file = _module_file(origin)
        if file is not None:
            other = _module(file)
            if original in other.defined:
                return file, other, other.defined[original]
    return None


def _tests_of(found: Mapping[str, set[spec_map.TestRef]], rule_id: str) -> dict[str, Path]:
    return {ref.name: REPO / ref.path for ref in found.get(rule_id, set())}


def problems(
    table: Mapping[str, Entry],
    catalogue: Mapping[str, Rule],
    found: Mapping[str, set[spec_map.TestRef]],
    pending: frozenset[tuple[str, str]] = frozenset(),
) -> Iterator[str]:
    """What is wrong with ``table``, one line each: a rule without an entry, an entry of no
    rule, an entry written against another text, a clause the text does not hold, a case that
    does not exist or sits in a test not charged to the rule. A pending case (another branch
    adds it) may be missing, and must be unpended once it exists."""
    for rule_id, rule in catalogue.items():
        if rule_id not in table:
            yield (
                f"{rule_id} has no entry in tests/clauses.py: list the clauses of its text, each "
                f"with the case of its test that exercises it, under the hash {text_hash(rule)!r}"
            )
    for rule_id in sorted(set(table) - set(catalogue)):
        yield f"tests/clauses.py has an entry for {rule_id}, which is not in the catalogue"
    for rule_id, (written_for, clauses) in table.items():
        rule = catalogue.get(rule_id)
        if rule is None:
            continue
        if written_for != text_hash(rule):
            yield (
                f"{rule_id}'s text changed since its entry was written: read its clauses again "
                f"against {rule.summary!r} (a new clause needs a case), then write its hash "
                f"{text_hash(rule)!r}"
            )
        if not clauses:
            yield f"{rule_id}'s entry lists no clause"
        tests = _tests_of(found, rule_id)
        for clause, written in clauses.items():
            if clause not in rule.summary:
                yield f"{rule_id}: the clause {clause!r} is not in its text (quote it verbatim)"
            yield from _case_problems(rule_id, clause, written, tests, (rule_id, clause) in pending)


def _case_problems(rule_id: str, clause: str, written: str, tests: Mapping[str, Path], pending: bool) -> Iterator[str]:
    if written.startswith(NO_CASE):
        if not written.removeprefix(NO_CASE).strip():
            yield f"{rule_id}: {clause!r} has no case and no reason why"
        return
    case = Case.parse(written)
    path = tests.get(case.test)
    source = None if path is None else case_source(path, case.test)
    if source is None:
        missing = f"{rule_id}: {clause!r} names {case.test}, which is no test charged to {rule_id}"
    elif case.label and case.label not in source:
        missing = f"{rule_id}: {clause!r} names the case {case.label!r}, which {case.test} does not hold"
    else:
        if pending:
            yield f"{rule_id}: {clause!r} is covered now: take it out of PENDING_FROM_BUGS"
        return
    if not pending:
        yield missing


@pytest.fixture(scope="module")
def found() -> dict[str, set[spec_map.TestRef]]:
    return spec_map.scan(spec_map.default_roots(REPO), relative_to=REPO)


def test_every_clause_of_every_rule_has_a_case(found: dict[str, set[spec_map.TestRef]]) -> None:
    wrong = list(problems(CLAUSES, CATALOGUE, found, PENDING_FROM_BUGS))
    assert not wrong, "\n".join(wrong)


def test_pending_cases_are_clauses_of_the_table() -> None:
    stray = [pair for pair in PENDING_FROM_BUGS if pair[1] not in CLAUSES.get(pair[0], (None, {}))[1]]
    assert not stray, f"PENDING_FROM_BUGS names clauses the table lacks: {stray}"


def test_the_table_names_clauses_not_whole_texts() -> None:
    """A clause is a part of the text (or the whole of a one-clause rule), never empty."""
    empty = [rule_id for rule_id, (_, clauses) in CLAUSES.items() for clause in clauses if not clause.strip()]
    assert not empty


# -- the checker can fail ---------------------------------------------------------------------

_RULE = CATALOGUE["ARCH-04"]
_GOOD: dict[str, Entry] = {"ARCH-04": (text_hash(_RULE), {"count 0 archives nothing": "test_archive_count_zero_archives_nothing"})}


@pytest.mark.parametrize(
    ("table", "pending", "expected"),
    [
        ({}, frozenset(), "ARCH-04 has no entry"),
        ({**_GOOD, "ZZZ-01": ("0", {"x": "test_x"})}, frozenset(), "ZZZ-01, which is not in the catalogue"),
        ({"ARCH-04": ("00000000", _GOOD["ARCH-04"][1])}, frozenset(), "ARCH-04's text changed"),
        ({"ARCH-04": (_GOOD["ARCH-04"][0], {"count 1": "test_archive_count_zero_archives_nothing"})}, frozenset(), "is not in its text"),
        ({"ARCH-04": (_GOOD["ARCH-04"][0], {"count 0": "test_history_is_ascending"})}, frozenset(), "no test charged to ARCH-04"),
        ({"ARCH-04": (_GOOD["ARCH-04"][0], {"count 0": "test_archive_count_zero_archives_nothing: no such label"})}, frozenset(), "does not hold"),
        ({"ARCH-04": (_GOOD["ARCH-04"][0], {"count 0": NO_CASE})}, frozenset(), "no reason why"),
        ({"ARCH-04": (_GOOD["ARCH-04"][0], {})}, frozenset(), "lists no clause"),
        (_GOOD, frozenset({("ARCH-04", "count 0 archives nothing")}), "take it out of PENDING_FROM_BUGS"),
    ],
)
def test_the_checker_finds_each_fault(
    found: dict[str, set[spec_map.TestRef]], table: dict[str, Entry], pending: frozenset[tuple[str, str]], expected: str
) -> None:
    catalogue = {"ARCH-04": _RULE}
    wrong = "\n".join(problems(table, catalogue, found, pending))
    assert re.search(re.escape(expected), wrong), wrong
    assert not list(problems(_GOOD, catalogue, found))
