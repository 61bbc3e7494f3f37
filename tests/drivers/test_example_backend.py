"""examples/json-file-backend, run the way its author would run it: the kit's built wheel and the
backend installed into a fresh virtual environment, ``pytest --memory-driver=json-file`` from the
backend's own directory, the driver found through its entry point alone.

Slow (a build, a venv, pip and a full suite run, about two minutes) but part of the normal run on
purpose: it is the only test that proves the published wheel works for a third-party backend.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
from pathlib import Path

import pytest

from aalis_memory.service import OPTIONAL_METHODS
from kit_dist import EXAMPLE, FreshEnv, example_copy, user_env
from reports import load_report, verdicts


def _implemented_optional() -> set[str]:
    """The optional methods the example's store class defines, read from its source (the example
    is not installed here)."""
    tree = ast.parse((EXAMPLE / "src/jsonfile_memory/store.py").read_text(encoding="utf-8"))
    store = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "JsonFileMemory")
    return {n.name for n in store.body if isinstance(n, ast.AsyncFunctionDef)} & set(OPTIONAL_METHODS)


#: What the example implements of the optional methods (its README says the same).
IMPLEMENTED_OPTIONAL = _implemented_optional()
#: The rules about the optional methods it leaves out.
UNIMPLEMENTED_RULES = (
    "CROSS-01",
    "CROSS-02",
    "CROSS-03",
    "CROSS-04",
    "CROSS-05",
    "UPD-01",
    "UPD-02",
    "UPD-03",
    "DEL-01",
    "DEL-02",
)


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> FreshEnv:
    return user_env(tmp_path_factory)


@pytest.fixture(scope="module")
def author_run(env: FreshEnv, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """One suite run, from the backend's directory; its output and the report folder."""
    reports = tmp_path_factory.mktemp("json-file-reports")
    proc = env.run(
        "pytest",
        "--memory-driver=json-file",
        f"--memory-report={reports / 'report.json'}",
        f"--memory-report={reports / 'report.md'}",
        cwd=example_copy(tmp_path_factory),
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    return output, reports


def test_the_example_is_outside_the_kit() -> None:
    """A third-party package: its own project and import name, nothing under aalis_memory."""
    pyproject = (EXAMPLE / "pyproject.toml").read_text(encoding="utf-8")
    assert 'name = "aalis-memory-jsonfile"' in pyproject
    assert '[project.entry-points."aalis_memory.drivers"]' in pyproject
    packages = {
        p.name
        for p in (EXAMPLE / "src").iterdir()
        if p.is_dir() and p.suffix != ".egg-info" and p.name != "__pycache__"
    }
    assert packages == {"jsonfile_memory"}
    assert "aalis-memory-jsonfile" not in {d.metadata["Name"] for d in importlib.metadata.distributions()}, (
        "the example must not be installed into the kit's own environment"
    )


def test_the_example_passes_from_its_own_directory(author_run: tuple[str, Path]) -> None:
    output, _ = author_run
    assert "json-file: " in output, output
    assert " 0 fail," in output, output
    summary = next(line for line in output.splitlines() if "json-file: " in line)
    assert "known failure" not in summary, summary


def test_its_json_report_holds_the_verdicts_it_declares(author_run: tuple[str, Path]) -> None:
    _, reports = author_run
    report = load_report(reports / "report.json")
    assert set(report["drivers"]) == {"json-file"}
    found = verdicts(report, "json-file")
    by_verdict: dict[str, set[str]] = {}
    for rule, verdict in found.items():
        by_verdict.setdefault(verdict, set()).add(rule)
    assert not by_verdict.get("known failure"), by_verdict
    assert "LIM-05" in by_verdict["pass"], by_verdict
    assert not by_verdict.get("fail"), by_verdict
    assert not by_verdict.get("advisory"), by_verdict
    # The raw_metadata hook is there, so the unreadable-entry rules are checked, not unverified.
    assert {"META-09", "META-10", "COMMIT-06"} <= by_verdict["pass"], by_verdict
    assert not by_verdict.get("unverified"), by_verdict
    # Rules of optional methods it leaves out: each of their own tests says "not implemented".
    for rule in UNIMPLEMENTED_RULES:
        own = [
            t
            for t in report["drivers"]["json-file"]["rules"][rule]["tests"]
            if not t["id"].startswith("state_machine.py::")
        ]
        assert own, rule
        assert {t["verdict"] for t in own} == {"not implemented"}, (rule, own)
    assert len(by_verdict["pass"]) >= 50, by_verdict


def test_its_readme_names_the_optional_methods_it_has() -> None:
    readme = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    bullet = readme.split("- **Optional methods**:", 1)[1].split("\n- ", 1)[0]
    assert set(re.findall(r"`(\w+)`", bullet)) == IMPLEMENTED_OPTIONAL, bullet
    assert {"clear_all", "count_history", "get_full_history"} <= IMPLEMENTED_OPTIONAL


def test_rules_of_missing_methods_read_not_implemented(author_run: tuple[str, Path]) -> None:
    _, reports = author_run
    found = verdicts(load_report(reports / "report.json"), "json-file")
    assert {rule: found[rule] for rule in UNIMPLEMENTED_RULES} == dict.fromkeys(
        UNIMPLEMENTED_RULES, "not implemented"
    )


def test_its_markdown_report_is_the_conformance_matrix(author_run: tuple[str, Path]) -> None:
    _, reports = author_run
    text = (reports / "report.md").read_text(encoding="utf-8")
    for wanted in ("json-file", "LIM-05", "pass"):
        assert wanted in text, text[:2000]


def test_the_wheel_installed_there_ships_spec_map(env: FreshEnv, tmp_path: Path) -> None:
    """The installed kit carries the rule map, byte for byte the repository's generated one."""
    proc = env.run(
        env.python,
        "-c",
        "import importlib.resources as r, sys; "
        "sys.stdout.buffer.write(r.files('aalis_memory.conformance')"
        ".joinpath('SPEC_MAP.md').read_bytes())",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    repo_copy = (EXAMPLE.parent.parent / "SPEC_MAP.md").read_text(encoding="utf-8")
    assert proc.stdout == repo_copy
