"""The mutation tool (``python -m mutation``) finds, keys and serves mutants as it promises."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from mutation.child import FailureRecorder, MutantFinder, group_of
from mutation.operators import mutants, mutated_tree
from mutation.run import EQUIVALENT_FILE, TARGETS, load_equivalents, select, stale_equivalents

SOURCE = '''"""Module docstring."""
LIMIT: int = 50


def window(items: list[int], limit: int = 0) -> list[int]:
    """Docstring."""
    if limit < 0:
        raise ValueError(f"bad limit {limit}")
    kept = list(items)
    return kept[-limit:] if limit and len(kept) > limit else kept
'''


def test_points_are_listed_with_function_and_texts() -> None:
    found = {(m.function, m.operator, m.original, m.mutated) for m in mutants("demo", SOURCE)}
    assert ("<module>", "constant", "50", "51") in found
    assert ("window", "compare", "limit < 0", "limit <= 0") in found
    assert ("window", "remove", 'raise ValueError(f"bad limit {limit}")', "pass") in found
    assert ("window", "unwrap", "list(items)", "items") in found
    assert ("window", "drop-operand", "limit and len(kept) > limit", "len(kept) > limit") in found
    assert ("window", "skip-branch", "if limit < 0:", "if False:") in found
    originals = [m.original for m in mutants("demo", SOURCE)]
    assert not any("Docstring" in text for text in originals)
    assert [t for t in originals if "bad limit" in t] == ['raise ValueError(f"bad limit {limit}")']
    assert "int" not in originals
    assert "list[int]" not in originals


def test_keys_survive_unrelated_edits_and_indexes_apply() -> None:
    before = mutants("demo", SOURCE)
    after = mutants("demo", "import os\n\n\n" + SOURCE.replace('"""Module docstring."""\n', ""))
    assert [m.key for m in before] == [m.key for m in after]
    assert [m.line for m in before] != [m.line for m in after]
    for m in before:
        compile(mutated_tree(SOURCE, m.index), "demo.py", "exec")


def test_a_served_mutant_replaces_the_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "demo_mutated.py").write_text(SOURCE, encoding="utf-8")
    index = next(m.index for m in mutants("demo", SOURCE) if m.original == "50")
    code = compile(mutated_tree(SOURCE, index), str(tmp_path / "demo_mutated.py"), "exec")
    monkeypatch.setattr(sys, "meta_path", [MutantFinder("demo_mutated", "x", code), *sys.meta_path])
    monkeypatch.delitem(sys.modules, "demo_mutated", raising=False)
    module = importlib.import_module("demo_mutated")
    assert module.LIMIT == 51
    assert (tmp_path / "demo_mutated.py").read_text(encoding="utf-8") == SOURCE


def test_failures_are_recorded_by_group(tmp_path: Path) -> None:
    assert group_of("conformance/suite/state_machine.py::test_state_machine[inmemory]") == "state machine"
    assert group_of("tests/drivers/test_reference_settings.py::test_default_caps[sqlite]") == "kit"
    assert group_of("conformance/suite/history.py::test_x[inmemory]") == "examples"
    recorder = FailureRecorder(tmp_path / "failures")

    class Report:
        failed = True
        nodeid = "conformance/suite/history.py::test_x[inmemory]"

    recorder.pytest_runtest_logreport(Report())
    assert (tmp_path / "failures").read_text(encoding="utf-8").splitlines() == [Report.nodeid]
    assert recorder.failed_groups == {"examples"}


def test_samples_are_seeded() -> None:
    found = mutants("demo", SOURCE)
    assert select(found, 3, 16, None) == select(found, 3, 16, None)
    assert len(select(found, 3, 16, None)) == 3
    assert select(found, None, 16, "compare") == [m for m in found if "compare" in m.key]


def test_equivalent_list_is_reviewed_and_current() -> None:
    entries = load_equivalents()
    assert all(e.reason.strip() for e in entries), EQUIVALENT_FILE
    assert not stale_equivalents(entries, list(TARGETS)), "entries that match no mutant: remove them"
