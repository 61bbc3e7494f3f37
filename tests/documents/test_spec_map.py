"""SPEC_MAP.md is current and complete, every rule shows its ground, and the checker can fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from aalis_memory.conformance.__main__ import main
from aalis_memory.conformance.checks import ConformanceFailure, fail
from aalis_memory.conformance.docgen import spec_map
from aalis_memory.conformance.machine.attribution import COVERED_RULES
from aalis_memory.conformance.rules import CATALOGUE, OUT_OF_SCOPE
from aalis_memory.conformance.rules.rule import (
    EVERY_BACKEND,
    MAX_PHRASE,
    MUST,
    SHOULD,
    Rule,
    cite,
    must,
    should,
)

REPO = Path(__file__).resolve().parents[2]


def spec_dir() -> Path | None:
    """The documents: ``../shared/spec`` beside the repository (or beside a parent of it, for a
    worktree); ``None`` when this checkout has no copy of them."""
    for parent in REPO.parents:
        candidate = parent / "shared" / "spec"
        if all((candidate / f).is_file() for f in ("api-memory.zh.md", "plugin-memory-mongodb.zh.md")):
            return candidate
    return None


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


def fake_checkout(root: Path) -> Path:
    (root / "tests").mkdir(parents=True)
    (root / "pyproject.toml").write_text(f'[project]\nname = "{spec_map.PROJECT_NAME}"\n')
    return root


def test_cli_check_fails_on_a_stale_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = fake_checkout(tmp_path)
    (repo / "SPEC_MAP.md").write_text("stale\n", encoding="utf-8")
    assert main(["spec-map", "--repo", str(repo), "--check"]) == 1
    assert "stale" in capsys.readouterr().err


@pytest.mark.parametrize("layout", ["empty", "tests-only", "other-project"])
def test_cli_outside_the_repository_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], layout: str
) -> None:
    """Run from an installed package (any directory but a checkout), the map cannot see the
    tests of the rules checked in tests/: one line says so, nothing is written."""
    if layout != "empty":
        (tmp_path / "tests").mkdir()
    if layout == "other-project":
        (tmp_path / "pyproject.toml").write_text('[project]\nname = "mybackend"\n')
    for extra in ([], ["--check"]):
        assert main(["spec-map", "--repo", str(tmp_path), *extra]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert len(err.strip().splitlines()) == 1
        assert "needs a checkout of the kit's repository" in err
    assert not (tmp_path / "SPEC_MAP.md").exists()


# -- every rule shows its ground ----------------------------------------------------------------


def test_every_must_rule_cites_and_every_should_rule_reads() -> None:
    for rule in CATALOGUE.values():
        if rule.level is MUST:
            assert rule.cites, f"{rule.id}: a MUST rule cites the words it rests on"
            assert rule.reading is None, f"{rule.id}: a MUST rule is stated, not read"
        else:
            assert rule.reading is not None, f"{rule.id}: a SHOULD rule states its reading"
            assert rule.reading.point, rule.id
            assert rule.reading.argument, rule.id
            assert "\n" not in rule.reading.argument, rule.id


def test_every_cited_phrase_is_in_its_document() -> None:
    folder = spec_dir()
    if folder is None:
        pytest.skip(
            f"the documents are not beside this checkout ({REPO.parent / 'shared' / 'spec'} "
            "is absent): citations cannot be checked here"
        )
    assert spec_map.citation_problems(folder) == []


def test_a_drifted_citation_is_reported(tmp_path: Path) -> None:
    (tmp_path / "api-memory.zh.md").write_text("核心方法 \n条数只数对话消息\n压缩服务 \n压成才落定\n")
    (tmp_path / "plugin-memory-mongodb.zh.md").write_text("特性 \n")
    catalogue = {
        "A-01": must("A-01", "in place", cite("api-memory", "核心方法", "条数只数对话消息")),
        "A-02": must("A-02", "wrong section", cite("api-memory", "核心方法", "压成才落定")),
        "A-03": must("A-03", "drifted", cite("api-memory", "压缩服务", "压成才落定了", "settled")),
        "A-04": must("A-04", "no section", cite("plugin-memory-mongodb", "配置", "x", "x")),
    }
    found = spec_map.citation_problems(tmp_path, catalogue)
    assert [line.split(":")[0] for line in found] == ["A-02", "A-03", "A-04"]


def test_citations_are_clauses_not_paragraphs() -> None:
    with pytest.raises(ValueError, match="one clause"):
        cite("api-memory", "核心方法", "条" * (MAX_PHRASE + 1))
    with pytest.raises(ValueError, match="no section"):
        cite("api-memory", "配置", "条数")
    with pytest.raises(ValueError, match="unknown document"):
        cite("READING_NOTES", "1", "x")


def test_no_rule_points_at_a_file_users_cannot_open() -> None:
    """The reading notes and upstream notes are not shipped: the catalogue carries its reasons."""
    texts = [f"{r.source} {r.summary} {r.ground()}" for r in CATALOGUE.values()]
    texts += [f"{o.source} {o.statement} {o.reason}" for o in OUT_OF_SCOPE]
    texts.append((REPO / "SPEC_MAP.md").read_text(encoding="utf-8"))
    texts.append((REPO / "README.md").read_text(encoding="utf-8"))
    for text in texts:
        assert "READING_NOTES" not in text, text[:200]
        assert "UPSTREAM_NOTES" not in text, text[:200]


def test_a_rule_stated_only_by_the_mongodb_document_does_not_bind_every_backend() -> None:
    for rule in CATALOGUE.values():
        documents = {c.document for c in rule.cites}
        if rule.level is MUST and documents == {"plugin-memory-mongodb"}:
            assert rule.binds != EVERY_BACKEND, rule.id
    assert CATALOGUE["RANGE-01"].binds.feature == "range cap"
    assert CATALOGUE["CROSS-01"].binds.feature == "cross-session cap"


@pytest.mark.parametrize("rule_id", ["HIST-03", "LIM-05"])
def test_a_failure_shows_the_rule_and_its_ground(rule_id: str) -> None:
    rule = CATALOGUE[rule_id]
    failure = fail(rule_id, "get_history(s, 2): expected [a], got []\n  driver: x")
    assert isinstance(failure, ConformanceFailure)
    assert failure.rule is rule
    lines = str(failure).splitlines()
    assert lines[0] == f"[{rule_id} {rule.level.value}] get_history(s, 2): expected [a], got []"
    assert lines[1] == f"  rule {rule_id}: {rule.summary}"
    if rule.level is MUST:
        assert all(c.phrase in lines[2] for c in rule.cites)
    else:
        assert rule.reading is not None
        assert rule.reading.argument in lines[2]
    assert lines[3] == "  driver: x"


def test_rules_of_other_modules_keep_the_old_signature() -> None:
    """Rules written as ``Rule(id, level, source, summary)`` still build (the ground test above
    then asks for their citation or reading)."""
    old = Rule("X-01", SHOULD, "somewhere", "a rule")
    assert old.ground() == "(no ground given; source: somewhere)"
    assert should("X-02", "a rule", point="p", argument="a").reading is not None
