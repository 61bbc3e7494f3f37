"""Each suite test names its rule once, in its ``aalis_spec`` marker (issue 34).

Its checks go through the checker bound to that rule (``aalis_check``, or ``aalis_checks`` for a
marker of several rules: :mod:`aalis_memory.conformance.check`), so a check cannot name a rule at
all, let alone the wrong one. A test names another rule only for what it stands on. This test reads
both suites and fails on a test that names its own rule again (in code, a string, its docstring or
a comment), names another rule outside what it stands on, or checks through an unbound function;
and on a suite module that imports one of those functions.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path
from typing import Final

import pytest

from aalis_memory.conformance.check import Check, checks_of, only_check
from aalis_memory.conformance.checks import ConformanceFailure
from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.conformance.suites import SUITES

#: The calls that name what a test stands on: the only places a test names another rule.
STANDS_ON: Final = frozenset({"stands_on", "calls_stand_on", "confirmed", "Blocked"})
#: The keyword naming the rule a check's read stands on (``Check.fields(read_rule=...)``).
STANDS_ON_KEYWORDS: Final = frozenset({"read_rule"})
#: The functions that take the rule as an argument: the suite checks through a bound checker.
UNBOUND: Final = frozenset(
    {
        "expect_equal",
        "expect_fields",
        "expect",
        "expect_raises",
        "expect_no_failures",
        "every_case",
        "fail",
        "set_aside",
        "unverified_part",
    }
)
#: Where they live.
UNBOUND_MODULES: Final = frozenset({"aalis_memory.conformance.checks", "aalis_memory.conformance.steps"})
#: A rule ID as the catalogue spells them.
_IDS: Final = "|".join(re.escape(i) for i in sorted(CATALOGUE, key=len, reverse=True))
RULE_ID: Final = re.compile(rf"\b(?:{_IDS})\b")


def marker_rules(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str] | None:
    """The rules a test's ``aalis_spec`` marker names as literals (``None``: no such marker, or
    one built from a list, as the state machine's)."""
    found: list[str] = []
    for decorator in function.decorator_list:
        if isinstance(decorator, ast.Call) and getattr(decorator.func, "attr", None) == "aalis_spec":
            named = [
                a.value for a in decorator.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
            ]
            if len(named) != len(decorator.args):
                return None
            found += named
    return found or None


def _callee(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _standing(function: ast.AST) -> set[int]:
    """The nodes inside a stands-on call or keyword: a rule named there is one the test stands on."""
    inside: set[int] = set()
    for node in ast.walk(function):
        roots: list[ast.AST] = []
        if isinstance(node, ast.Call) and _callee(node) in STANDS_ON:
            roots = [*node.args, *(k.value for k in node.keywords)]
        elif isinstance(node, ast.keyword) and node.arg in STANDS_ON_KEYWORDS:
            roots = [node.value]
        inside |= {id(n) for root in roots for n in ast.walk(root)}
    return inside


def _comments(source: str) -> list[tuple[int, str]]:
    """Each comment of ``source`` with its line."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return [(t.start[0], t.string) for t in tokens if t.type == tokenize.COMMENT]


def problems(source: str, where: str) -> list[str]:
    """``where:line: what is wrong`` for each test of ``source`` that names its rule again or
    names another outside what it stands on, and each unbound check the module uses."""
    tree = ast.parse(source)
    comments = _comments(source)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in UNBOUND_MODULES:
            found += [
                f"{where}:{node.lineno}: imports {a.name} from {node.module}: check through the bound checker"
                for a in node.names
                if a.name in UNBOUND
            ]
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        own = marker_rules(function)
        if own is None:
            continue
        name = f"{where}:{{}}: {function.name}"
        decorators = {id(n) for d in function.decorator_list for n in ast.walk(d)}
        standing = _standing(function)
        for node in ast.walk(function):
            if id(node) in decorators:
                continue
            if isinstance(node, ast.Call) and _callee(node) in UNBOUND and isinstance(node.func, ast.Name):
                found.append(
                    f"{name.format(node.lineno)} checks with {_callee(node)}(), not its bound checker"
                )
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            for rule_id in RULE_ID.findall(node.value):
                if rule_id in own:
                    found.append(f"{name.format(node.lineno)} names its own rule {rule_id} again")
                elif id(node) not in standing and node.value == rule_id:
                    found.append(f"{name.format(node.lineno)} names {rule_id} outside what it stands on")
        last = function.end_lineno or function.lineno
        for line, comment in comments:
            if not function.lineno <= line <= last:
                continue
            found += [
                f"{name.format(line)} names its own rule {r} again (a comment)"
                for r in RULE_ID.findall(comment)
                if r in own
            ]
    return found


def suite_modules() -> list[Path]:
    return [path for suite in SUITES for path in sorted(suite.folder.glob("*.py"))]


def test_both_suites_are_read() -> None:
    names = {(p.parent.name, p.name) for p in suite_modules()}
    assert {("suite", "limits.py"), ("suite", "service.py")} <= names, sorted(names)


@pytest.mark.parametrize("path", suite_modules(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_test_names_its_rule_once(path: Path) -> None:
    found = problems(path.read_text(encoding="utf-8"), path.name)
    assert not found, "\n".join(found)


# -- the reader's own tests: each thing it must catch, and what it must let through -----------

GOOD: Final = '''
@pytest.mark.aalis_spec("ARCH-08")
async def test_positions(aalis_memory, aalis_check):
    """Positions are taken at call time (which messages a read holds is HIST-01's)."""
    stands_on("HIST-02")  # the positions follow the timestamp order of HIST-02
    calls_stand_on({"list_metadata": "META-09"})
    aalis_check.fields("get_history", got, saved, read_rule="HIST-05")
    raise Blocked("ARCH-01", "get_history", "failed")
'''


def test_a_test_naming_its_rule_once_passes() -> None:
    assert problems(GOOD, "good.py") == []


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('    expect_equal("ARCH-08", "get_history", got, want)', "checks with expect_equal()"),
        ('    aalis_check.that(ok, "ARCH-08 broke")', "names its own rule ARCH-08 again"),
        ('    """ARCH-08 judges the positions."""', "names its own rule ARCH-08 again"),
        ("    pass  # as ARCH-08 says", "names its own rule ARCH-08 again (a comment)"),
        ('    helper(aalis_memory, "ARCH-07")', "names ARCH-07 outside what it stands on"),
    ],
)
def test_what_the_reader_catches(body: str, expected: str) -> None:
    source = (
        f'@pytest.mark.aalis_spec("ARCH-08")\nasync def test_positions(aalis_memory, aalis_check):\n{body}\n'
    )
    found = problems(source, "bad.py")
    assert any(expected in line for line in found), found


def test_an_unbound_check_imported_is_caught() -> None:
    found = problems("from aalis_memory.conformance.checks import contents, expect_equal\n", "bad.py")
    assert found == [
        "bad.py:1: imports expect_equal from aalis_memory.conformance.checks: check through the bound checker"
    ]


# -- the bound checker ----------------------------------------------------------------------


def test_a_bound_check_fails_its_own_rule() -> None:
    with pytest.raises(ConformanceFailure) as failure:
        Check("ARCH-07").equal("archive_span(s, 2)", 1, 2)
    assert failure.value.rule.id == "ARCH-07"
    assert failure.value.detail == "archive_span(s, 2): expected 2, got 1"


def test_a_checker_is_bound_to_a_catalogue_rule() -> None:
    with pytest.raises(ValueError, match="unknown rule ID 'NOPE-1'"):
        Check("NOPE-1")


def test_one_checker_is_for_a_test_of_one_rule() -> None:
    assert only_check(["ARCH-07"], "test_x") == Check("ARCH-07")
    with pytest.raises(TypeError, match=r"test_x names \['ARCH-04', 'ARCH-07'\].*aalis_checks"):
        only_check(["ARCH-04", "ARCH-07"], "test_x")
    assert checks_of(["ARCH-04", "ARCH-07"]) == (Check("ARCH-04"), Check("ARCH-07"))
