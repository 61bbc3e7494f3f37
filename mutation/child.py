"""One pytest run with one mutant in place: ``python -m mutation.child SPEC.json``.

The mutant is compiled from the AST (original line numbers kept) and served by a meta-path
finder under the real module name before anything imports it; the file on disk is untouched.
Every failing test id is appended to the spec's ``failures`` file as it happens, so a run killed
by the timeout still tells which tests it had already failed.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import json
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any


class _MutantLoader(importlib.abc.Loader):
    def __init__(self, code: Any) -> None:
        self.code = code

    def exec_module(self, module: ModuleType) -> None:
        exec(self.code, module.__dict__)


class MutantFinder(importlib.abc.MetaPathFinder):
    """Serves ``name`` from compiled ``code`` (its ``__file__`` stays the real path)."""

    def __init__(self, name: str, path: str, code: Any) -> None:
        self.name = name
        self.path = path
        self.code = code

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.name:
            return None
        spec = importlib.util.spec_from_loader(fullname, _MutantLoader(self.code), origin=self.path)
        if spec is not None:
            spec.has_location = True
        return spec


def group_of(nodeid: str) -> str:
    """The group a test belongs to: the state machine, the example tests, or the kit's tests."""
    if "state_machine.py::" in nodeid:
        return "state machine"
    return "kit" if nodeid.startswith("tests/") else "examples"


class FailureRecorder:
    """pytest plugin: appends the node id of every failed or erroring test to ``path``, and skips
    the rest of a group once one of its tests failed (``-x`` per group: the other groups still
    run, so the report can tell which groups kill a mutant)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.failed_groups: set[str] = set()

    def pytest_runtest_setup(self, item: Any) -> None:
        if group_of(item.nodeid) in self.failed_groups:
            import pytest

            pytest.skip("an earlier test of this group already failed")

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.failed:
            self.failed_groups.add(group_of(report.nodeid))
            with self.path.open("a", encoding="utf-8") as out:
                out.write(report.nodeid + "\n")


def main(argv: Sequence[str]) -> int:
    spec = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    if spec["tree"] is not None:
        # The parent built the mutated module (or, for the baseline, parsed the same text the
        # mutants came from): editing the file or the tool during a run cannot shift a mutant.
        tree = pickle.loads(Path(spec["tree"]).read_bytes())
        code = compile(tree, spec["path"], "exec")
        if spec["module"] in sys.modules:
            raise RuntimeError(f"{spec['module']} was imported before the mutant was in place")
        sys.meta_path.insert(0, MutantFinder(spec["module"], spec["path"], code))
    import pytest

    return int(pytest.main(spec["pytest_args"], plugins=[FailureRecorder(Path(spec["failures"]))]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
