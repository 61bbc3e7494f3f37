"""docs/contract.md is current and says what a backend author needs; every cited phrase carries
its English rendering wherever it is shown (SPEC_MAP.md, ``explain``, failure messages)."""

from __future__ import annotations

import shutil
from pathlib import Path

import attrs
import pytest

import aalis_memory
from aalis_memory.conformance.__main__ import main
from aalis_memory.conformance.docgen import contract_doc, rule_cli, spec_map
from aalis_memory.conformance.failure_text import failure_text
from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.conformance.rules.english import ENGLISH
from aalis_memory.conformance.rules.rule import MUST, cite, must
from aalis_memory.methods import camel
from aalis_memory.service import OPTIONAL_METHODS, REQUIRED_METHODS
from aalis_memory.types import Message, RecentMessagesAcrossSessionsQuery

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / contract_doc.OUTPUT
CITATIONS = [(rule.id, c) for rule in CATALOGUE.values() for c in rule.cites]


# -- docs/contract.md ----------------------------------------------------------------------------


def test_contract_doc_is_current() -> None:
    assert contract_doc.unknown_rule_ids() == []
    assert DOC.read_text(encoding="utf-8") == contract_doc.generate(REPO), (
        "docs/contract.md is stale: run `python -m aalis_memory.conformance contract-doc`"
    )


def test_every_method_has_both_signatures_and_its_rules() -> None:
    text = DOC.read_text(encoding="utf-8")
    ts = {
        m.name: m
        for m in contract_doc.ts_interfaces((REPO / contract_doc.TS_CONTRACT).read_text(encoding="utf-8"))[
            "MemoryService"
        ]
    }
    for method in REQUIRED_METHODS + OPTIONAL_METHODS:
        required = method in REQUIRED_METHODS
        heading = f"### `{method}` ({'required' if required else 'optional'})"
        assert heading in text, heading
        section = text.split(heading, 1)[1].split("\n### ", 1)[0]
        assert f"async def {method}(" in section
        member = ts[camel(method)]
        assert member.optional is not required, f"{method}: TypeScript and Python disagree"
        assert f"{camel(method)}{'' if required else '?'}(" in section
        assert "| Rule | Level |" in section, f"{method} lists no rule"


def test_the_element_types_host_04_checks_are_written_down() -> None:
    """HOST-04 refuses a Message whose ``images``, ``audios``, ``segments`` or ``tool_calls`` hold
    elements of the wrong type: the contract says what the elements are, in Python and in
    TypeScript."""
    text = DOC.read_text(encoding="utf-8")
    rows = {
        line.split("|")[1].strip(): line
        for line in text.splitlines()
        if line.startswith("| `") and "Message" not in line
    }
    for name in ("images", "audios"):
        assert "tuple[str, ...] \\| None" in rows[f"`{name}`"]
        assert f"{name}?: string[]" in rows[f"`{name}`"]
    for name, key in (("segments", "segments"), ("tool_calls", "toolCalls")):
        assert "tuple[JsonObject, ...]" in rows[f"`{name}`"]
        assert f"{key}?: Record<string, unknown>[]" in rows[f"`{name}`"]
        assert "each element a JSON object" in rows[f"`{name}`"]
    for name in ("images", "audios"):
        assert "each element a ``str``" in rows[f"`{name}`"]


@pytest.mark.parametrize("cls", [Message, RecentMessagesAcrossSessionsQuery])
def test_every_field_is_described_in_the_docstring(cls: type) -> None:
    """``help(aalis_memory.Message)`` says what each field holds, element types included."""
    _, described = contract_doc.field_docs(cls)
    assert set(described) == {f.name for f in attrs.fields(cls)}


def test_rule_references_expand_ranges_and_groups() -> None:
    ids = contract_doc.rule_ids("cut (RANGE-01..03); the filters are CROSS-03..CROSS-05; HOST-*")
    assert ids[:6] == ["RANGE-01", "RANGE-02", "RANGE-03", "CROSS-03", "CROSS-04", "CROSS-05"]
    assert set(ids[6:]) == {i for i in CATALOGUE if i.startswith("HOST-")}
    assert contract_doc.rule_ids("ZZ-01 and ARCH-01..ZZ-02") == ["ZZ-01", "ARCH-01", "ZZ-02"]


def test_the_readme_points_to_the_contract() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "docs/contract.md" in readme
    assert "help(aalis_memory.FullMemoryService)" in readme
    assert aalis_memory.FullMemoryService.__doc__


def _fake_checkout(root: Path) -> Path:
    (root / "tests").mkdir(parents=True)
    (root / "pyproject.toml").write_text(f'[project]\nname = "{spec_map.PROJECT_NAME}"\n')
    ts = root / contract_doc.TS_CONTRACT
    ts.parent.mkdir(parents=True)
    shutil.copy(REPO / contract_doc.TS_CONTRACT, ts)
    return root


def test_cli_writes_then_checks_then_fails_on_a_stale_doc(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _fake_checkout(tmp_path)
    assert main(["contract-doc", "--repo", str(repo), "--check"]) == 1
    assert "stale" in capsys.readouterr().err
    assert main(["contract-doc", "--repo", str(repo)]) == 0
    assert main(["contract-doc", "--repo", str(repo), "--check"]) == 0
    written = repo / contract_doc.OUTPUT
    written.write_text(written.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    assert main(["contract-doc", "--repo", str(repo), "--check"]) == 1


def test_cli_outside_the_repository_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["contract-doc", "--repo", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "needs a checkout of the kit's repository" in err
    assert not (tmp_path / contract_doc.OUTPUT).exists()


# -- English renderings of the cited words --------------------------------------------------------


def test_every_citation_has_an_english_rendering() -> None:
    missing = [
        f"{rule_id}: {c.phrase}" for rule_id, c in CITATIONS if not c.english.strip() or "\n" in c.english
    ]
    assert missing == []
    assert all(c.english == ENGLISH[c.phrase] for _, c in CITATIONS)


def test_no_rendering_is_left_over() -> None:
    """A rendering whose phrase no rule cites any longer is removed with the citation."""
    assert set(ENGLISH) == {c.phrase for _, c in CITATIONS}


def test_a_phrase_without_a_rendering_is_refused() -> None:
    with pytest.raises(ValueError, match="no English rendering"):
        cite("api-memory", "核心方法", "没有译文的短语")
    with pytest.raises(ValueError, match="no English rendering"):
        cite("api-memory", "核心方法", "条数只数对话消息", " ")
    given = cite("api-memory", "核心方法", "没有译文的短语", "a phrase with no rendering")
    assert given.render() == "api-memory §核心方法 “没有译文的短语” (a phrase with no rendering)"


def test_the_english_is_shown_in_spec_map_explain_and_failures() -> None:
    spec = (REPO / "SPEC_MAP.md").read_text(encoding="utf-8")
    for rule_id, citation in CITATIONS:
        shown = f"“{citation.phrase}” ({citation.english})"
        row = next(line for line in spec.splitlines() if line.startswith(f"| {rule_id} |"))
        assert shown.replace("|", "\\|") in row, rule_id
    rule = CATALOGUE["HIST-03"]
    assert rule.level is MUST
    explained = "\n".join(rule_cli.explain("HIST-03", REPO))
    failure = failure_text(rule, "get_history(s, 2): expected [a], got []")
    for citation in rule.cites:
        assert f"“{citation.phrase}” ({citation.english})" in explained
        assert f"“{citation.phrase}” ({citation.english})" in failure
    made = must("X-01", "x", cite("api-memory", "核心方法", "不占条数"))
    assert "(" + ENGLISH["不占条数"] + ")" in made.ground()
