"""SPEC_MAP.md is current, complete, and its checker can fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from aalis_memory.conformance import spec_map
from aalis_memory.conformance.__main__ import main
from aalis_memory.conformance.machine.attribution import COVERED_RULES
from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.conformance.rules.rule import MUST, Rule

REPO = Path(__file__).resolve().parent.parent


def test_spec_map_is_current_and_complete() -> None:
    found = spec_map.scan(spec_map.default_roots(REPO), relative_to=REPO)
    issues = spec_map.problems(found)
    assert not issues, "\n".join(issues.lines())
    current = (REPO / "SPEC_MAP.md").read_text(encoding="utf-8")
    assert current == spec_map.render(found), (
        "SPEC_MAP.md is stale: run `python -m aalis_memory.conformance spec-map`"
    )


def test_every_rule_is_listed_once() -> None:
    text = (REPO / "SPEC_MAP.md").read_text(encoding="utf-8")
    for rule_id in CATALOGUE:
        assert text.count(f"| {rule_id} |") == 1, rule_id


def _write_tests(folder: Path, body: str) -> Path:
    folder.mkdir()
    (folder / "test_x.py").write_text(body, encoding="utf-8")
    return folder


def test_checker_reports_untested_and_unknown_rules(tmp_path: Path) -> None:
    tests = _write_tests(
        tmp_path / "t",
        "import pytest\n"
        "pytestmark = [pytest.mark.aalis_spec('A-01')]\n"
        "@pytest.mark.aalis_spec('ZZ-99')\n"
        "async def test_a(memory): ...\n"
        "class TestB:\n"
        "    @pytest.mark.aalis_spec('A-02')\n"
        "    def test_b(self): ...\n",
    )
    catalogue = {
        "A-01": Rule("A-01", MUST, "s", "one"),
        "A-02": Rule("A-02", MUST, "s", "two"),
        "A-03": Rule("A-03", MUST, "s", "three"),
    }
    found = spec_map.scan([tests], relative_to=tmp_path)
    assert {k: sorted(r.name for r in v) for k, v in found.items()} == {
        "A-01": ["TestB::test_b", "test_a"],
        "A-02": ["TestB::test_b"],
        "ZZ-99": ["test_a"],
    }
    issues = spec_map.problems(found, catalogue)
    assert issues.untested == ["A-03"]
    assert list(issues.unknown) == ["ZZ-99"]


def test_starred_marks_read_the_imported_rule_tuple(tmp_path: Path) -> None:
    """``spec(*COVERED_RULES)`` lists the state machine under every rule it checks; a name the
    kit does not define as a tuple of IDs adds nothing."""
    tests = _write_tests(
        tmp_path / "t",
        "import pytest\n"
        "from aalis_memory.conformance.machine.attribution import COVERED_RULES as RULES, archive_rules\n"
        "@pytest.mark.aalis_spec('A-01', *RULES)\n"
        "def test_a(): ...\n"
        "@pytest.mark.aalis_spec(*archive_rules)\n"
        "def test_b(): ...\n",
    )
    found = spec_map.scan([tests], relative_to=tmp_path)
    assert set(found) == {"A-01", *COVERED_RULES}
    assert all(refs == {spec_map.TestRef("t/test_x.py", "test_a")} for refs in found.values())


def test_cli_check_fails_on_a_stale_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "SPEC_MAP.md").write_text("stale\n", encoding="utf-8")
    assert main(["spec-map", "--repo", str(tmp_path), "--check"]) == 1
    assert "stale" in capsys.readouterr().err
