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

from aalis_memory.conformance.docgen import spec_map
from aalis_memory.conformance.rules import CATALOGUE, Rule
from clauses import CLAUSES, NO_CASE, PENDING_CASES, Case

REPO = Path(__file__).resolve().parents[2]


def text_hash(rule: Rule) -> str:
    """What an entry records of the text it was written against: a change of the text (a new
    clause, another example) changes it, so the entry must be read again."""
    return hashlib.sha256(rule.summary.encode("utf-8")).hexdigest()[:8]


@attrs.frozen
class Named:
    """A case an entry names: ``test`` (``name`` or ``Class::name``), and a ``label`` its source
    holds (a case of a table, an input, a phrase of its message), empty for the whole test."""

    test: str
    label: str

    @classmethod
    def parse(cls, written: str) -> Named:
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


@attrs.frozen
class _Module:
    """One module's lines, top-level definitions by name, and where its imported names come from."""

    lines: list[str]
    tree: ast.Module
    defined: dict[str, ast.stmt]
    imported: dict[str, tuple[str, str]]

    def segment(self, node: ast.stmt) -> str:
        """The source of ``node``, its decorators included (a test's case table may be there)."""
        decorators = getattr(node, "decorator_list", [])
        first = min([node.lineno, *(d.lineno for d in decorators)])
        return "\n".join(self.lines[first - 1 : node.end_lineno])


@functools.cache
def _module(path: Path) -> _Module:
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
    return _Module(source.splitlines(), tree, defined, imported)


def _module_file(name: str) -> Path | None:
    """The file of a module of the kit (wherever it is installed) or of tests/; no other module
    is read."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    origin = None if spec is None or spec.origin is None else Path(spec.origin)
    if origin is None or origin.suffix != ".py":
        return None
    return origin if name.startswith("aalis_memory.") or origin.is_relative_to(REPO / "tests") else None


@attrs.frozen
class _Definition:
    """Where a name is defined: its file, its source, and the names it uses in turn."""

    path: Path
    source: str
    uses: frozenset[str]


@functools.cache
def _definition(path: Path, name: str) -> _Definition | None:
    """The definition ``name`` (``Class::method`` too) stands for in the module at ``path``, in it
    or in the module it is imported from."""
    module = _module(path)
    node = _function(module.tree, name) if "::" in name else module.defined.get(name)
    if node is None:
        origin = module.imported.get(name)
        file = None if origin is None else _module_file(origin[0])
        return None if origin is None or file is None else _definition(file, origin[1])
    uses = frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
    return _Definition(path, module.segment(node), uses)


#: How many definitions away from the test a label may be found (the test, the helper it calls,
#: the table that helper reads).
_DEPTH = 3


def case_source(path: Path, test: str) -> str | None:
    """The source of ``test`` in ``path`` and of the definitions it uses, up to :data:`_DEPTH`
    steps away, in its module or in a module of the kit (or of tests/) it imports them from: the
    tables and helpers its cases come from. ``None`` when there is no such test."""
    start = _definition(path, test)
    if start is None:
        return None
    found = {(start.path, test): start}
    frontier = [start]
    for _ in range(_DEPTH):
        following = []
        for definition in frontier:
            for name in sorted(definition.uses):
                used = _definition(definition.path, name)
                if used is not None and (used.path, name) not in found:
                    found[used.path, name] = used
                    following.append(used)
        frontier = following
    return "\n".join(d.source for d in found.values())


def _tests_of(found: Mapping[str, set[spec_map.TestRef]], rule_id: str) -> dict[str, Path]:
    return {ref.name: REPO / ref.path for ref in found.get(rule_id, set())}


#: The table's type: per ``"AREA-NN <hash>"``, each clause's case.
Table = Mapping[str, Mapping[str, Case]]


def entries(table: Table) -> dict[str, tuple[str, Mapping[str, Case]]]:
    """The table by rule ID: the hash its entry was read against and its clauses."""
    split = (key.partition(" ") for key in table)
    return {rule_id: (written_for, table[f"{rule_id} {written_for}"]) for rule_id, _, written_for in split}


def problems(
    table: Table,
    catalogue: Mapping[str, Rule],
    found: Mapping[str, set[spec_map.TestRef]],
    pending: frozenset[tuple[str, str]] = frozenset(),
) -> Iterator[str]:
    """What is wrong with ``table``, one line each: a rule without an entry, an entry of no
    rule, an entry read against another text, a clause the text does not hold, a case that does
    not exist or sits in a test not charged to the rule. A pending case (another branch adds it)
    may be missing, and must leave the pending list once it exists."""
    by_rule = entries(table)
    for rule_id, rule in catalogue.items():
        if rule_id not in by_rule:
            yield (
                f'{rule_id} has no entry in tests/clauses.py: add "{rule_id} {text_hash(rule)}" '
                "with the clauses of its text, each with the case of its test that exercises it"
            )
    for rule_id in sorted(set(by_rule) - set(catalogue)):
        yield f"tests/clauses.py has an entry for {rule_id}, which is not in the catalogue"
    for rule_id, (written_for, clauses) in by_rule.items():
        if rule_id in catalogue:
            tests = _tests_of(found, rule_id)
            yield from _entry_problems(catalogue[rule_id], written_for, clauses, tests, pending)


def _entry_problems(
    rule: Rule,
    written_for: str,
    clauses: Mapping[str, Case],
    tests: Mapping[str, Path],
    pending: frozenset[tuple[str, str]],
) -> Iterator[str]:
    """What is wrong with one rule's entry (see :func:`problems`)."""
    if written_for != text_hash(rule):
        yield (
            f"{rule.id}'s text changed since its entry was read against it: read its clauses "
            f"again against {rule.summary!r} (a new clause needs a case), then write its key "
            f'as "{rule.id} {text_hash(rule)}"'
        )
    if not clauses:
        yield f"{rule.id}'s entry lists no clause"
    for clause, written in clauses.items():
        if not clause.strip() or clause not in rule.summary:
            yield f"{rule.id}: the clause {clause!r} is not in its text (quote it verbatim)"
        yield from _case_problems(rule.id, clause, written, tests, (rule.id, clause) in pending)


def _case_problems(
    rule_id: str, clause: str, written: str, tests: Mapping[str, Path], pending: bool
) -> Iterator[str]:
    if written.startswith(NO_CASE):
        if not written.removeprefix(NO_CASE).strip():
            yield f"{rule_id}: {clause!r} has no case and no reason why"
        return
    case = Named.parse(written)
    path = tests.get(case.test)
    source = None if path is None else case_source(path, case.test)
    if source is None:
        missing = f"{rule_id}: {clause!r} names {case.test}, which is no test charged to {rule_id}"
    elif case.label and case.label not in source:
        missing = f"{rule_id}: {clause!r} names the case {case.label!r}, which {case.test} does not hold"
    else:
        if pending:
            yield f"{rule_id}: {clause!r} is covered now: take it out of PENDING_CASES"
        return
    if not pending:
        yield missing


@pytest.fixture(scope="module")
def found() -> dict[str, set[spec_map.TestRef]]:
    return spec_map.scan(spec_map.default_roots(REPO), relative_to=REPO)


def test_every_clause_of_every_rule_has_a_case(found: dict[str, set[spec_map.TestRef]]) -> None:
    wrong = list(problems(CLAUSES, CATALOGUE, found, PENDING_CASES))
    assert not wrong, "\n".join(wrong)


def test_pending_cases_are_clauses_of_the_table() -> None:
    by_rule = entries(CLAUSES)
    stray = [(rule_id, clause) for rule_id, clause in PENDING_CASES if clause not in by_rule[rule_id][1]]
    assert not stray, f"PENDING_CASES names clauses the table lacks: {stray}"


# -- the checker can fail ---------------------------------------------------------------------

_RULE = CATALOGUE["ARCH-04"]
_KEY = f"ARCH-04 {text_hash(_RULE)}"
_CASE = "test_archive_count_zero_archives_nothing"
_GOOD: dict[str, dict[str, Case]] = {_KEY: {"count 0 archives nothing": _CASE}}
_PENDING = frozenset({("ARCH-04", "count 0 archives nothing")})


@pytest.mark.parametrize(
    ("table", "pending", "expected"),
    [
        ({}, frozenset(), "ARCH-04 has no entry"),
        ({**_GOOD, "ZZZ-01 00000000": {"x": "test_x"}}, frozenset(), "ZZZ-01, which is not in the catalogue"),
        ({"ARCH-04 00000000": _GOOD[_KEY]}, frozenset(), "ARCH-04's text changed"),
        ({_KEY: {"count 1": _CASE}}, frozenset(), "is not in its text"),
        ({_KEY: {"": _CASE}}, frozenset(), "is not in its text"),
        ({_KEY: {"count 0": "test_history_is_ascending"}}, frozenset(), "no test charged to ARCH-04"),
        ({_KEY: {"count 0": f"{_CASE}: no such label"}}, frozenset(), "does not hold"),
        ({_KEY: {"count 0": NO_CASE}}, frozenset(), "no reason why"),
        ({_KEY: {}}, frozenset(), "lists no clause"),
        (_GOOD, _PENDING, "take it out of PENDING_CASES"),
    ],
)
def test_the_checker_finds_each_fault(
    found: dict[str, set[spec_map.TestRef]],
    table: dict[str, dict[str, Case]],
    pending: frozenset[tuple[str, str]],
    expected: str,
) -> None:
    catalogue = {"ARCH-04": _RULE}
    wrong = "\n".join(problems(table, catalogue, found, pending))
    assert re.search(re.escape(expected), wrong), wrong
    assert not list(problems(_GOOD, catalogue, found))


def test_a_pending_case_may_be_missing(found: dict[str, set[spec_map.TestRef]]) -> None:
    """Until the branch that adds it merges, a pending case that does not exist yet is no fault."""
    table = {_KEY: {"count 0 archives nothing": f"{_CASE}: a case not written yet"}}
    assert not list(problems(table, {"ARCH-04": _RULE}, found, _PENDING))
    assert list(problems(table, {"ARCH-04": _RULE}, found))
