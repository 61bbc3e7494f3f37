"""The state machine stays thin: composition instead of a mixin diamond, one machine module that
reads in one sitting, and one entry point for blame (issue 34)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Final

import pytest

MACHINE: Final = Path(__file__).resolve().parents[2] / "conformance" / "machine"
#: Bases a class may have besides its one project base.
ALLOWED: Final = frozenset({"RuleBasedStateMachine", "object", "Protocol", "Generic", "Exception"})
MODULES: Final = sorted(MACHINE.glob("*.py"))


def classes(path: Path) -> list[ast.ClassDef]:
    return [n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, ast.ClassDef)]


def base_name(base: ast.expr) -> str:
    node = base.value if isinstance(base, ast.Subscript) else base
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_class_has_two_project_bases(path: Path) -> None:
    for cls in classes(path):
        project = [base_name(b) for b in cls.bases if base_name(b) not in ALLOWED]
        assert len(project) <= 1, f"{path.name}: {cls.name} has the project bases {project}"


def test_one_state_machine_of_a_few_hundred_lines() -> None:
    machines = [
        (path.name, cls.name)
        for path in MODULES
        for cls in classes(path)
        if any(base_name(b) == "RuleBasedStateMachine" for b in cls.bases)
    ]
    assert machines == [("machine.py", "MemoryMachine")], machines
    lines = len((MACHINE / "machine.py").read_text(encoding="utf-8").splitlines())
    assert lines <= 400, f"machine.py has {lines} lines: move step bodies to their step objects"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_only_the_blame_service_makes_a_failure(path: Path) -> None:
    """A step hands its disagreement to ``Blame.disagreement``; it never builds the failure (or
    the excuse) itself, so tolerance, attribution and reproduction are decided in one place."""
    if path.name in ("blame.py", "failure.py"):
        return
    tree = ast.parse(path.read_text(encoding="utf-8"))
    made = sorted(
        {
            base_name(node.func)
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and base_name(node.func) in ("MachineFailure", "ToleratedDivergence")
        }
    )
    assert not made, f"{path.name} builds {made}: hand the disagreement to the blame service"


def test_the_machine_draws_without_local_constants() -> None:
    """The one private function of Hypothesis the machine replaces while it draws is still there,
    the draws inside see no local constants, and it is put back (a project's own Hypothesis
    tests keep theirs)."""
    from hypothesis.internal.conjecture import providers

    from aalis_memory.conformance.machine.local_constants import HOOK, without_local_constants

    original = getattr(providers, HOOK, None)
    assert callable(original), f"Hypothesis has no {HOOK}() any more: see local_constants.py"
    with without_local_constants():
        assert len(getattr(providers, HOOK)()) == 0
    assert getattr(providers, HOOK) is original
