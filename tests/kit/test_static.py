"""ruff and mypy --strict stay clean (the `lint` and `type` tox environments, run in CI too)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SOURCES = ["contract", "conformance", "drivers", "fixtures", "tests", "mutation", "benchmarks"]


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[dev]')")
    proc = subprocess.run([ruff, "check", *SOURCES], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format_is_clean() -> None:
    """One layout for every file, so a diff shows what changed, not how it was wrapped."""
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[dev]')")
    proc = subprocess.run([ruff, "format", "--check", *SOURCES], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def installed_layout(root: Path) -> Path:
    """A tree of links shaped like the installed package, so mypy sees `aalis_memory.*` (and the
    mutation tooling beside it)."""
    package = root / "aalis_memory"
    package.mkdir()
    for item in (REPO / "contract").iterdir():
        if item.suffix in (".py", ".typed"):
            (package / item.name).symlink_to(item)
    for name in ("conformance", "drivers", "fixtures"):
        (package / name).symlink_to(REPO / name)
    (root / "mutation").symlink_to(REPO / "mutation")  # the tooling, importable as `mutation`
    (root / "benchmarks").symlink_to(REPO / "benchmarks")  # and `benchmarks`
    return root


def test_mypy_strict_is_clean(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[dev]')")
    root = installed_layout(tmp_path)
    env = {**os.environ, "MYPYPATH": f"{root}{os.pathsep}{REPO / 'tests'}"}
    base = [
        sys.executable,
        "-m",
        "mypy",
        "--config-file",
        str(REPO / "pyproject.toml"),
        "--strict",
        "--cache-dir",
        str(tmp_path / ".mypy_cache"),
    ]
    package = subprocess.run(
        [*base, "-p", "aalis_memory"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert package.returncode == 0, package.stdout + package.stderr
    # The helpers at the top of tests/, then each folder of test modules on its own: a test module
    # imports the helpers and its neighbours by their plain names, as pytest puts both folders on
    # sys.path.
    top = REPO / "tests"
    folders = sorted(p.parent for p in top.glob("*/test_*.py"))
    groups = {top: [p for p in top.rglob("*.py") if not any(f in p.parents for f in folders)]}
    groups.update({folder: sorted(folder.glob("*.py")) for folder in dict.fromkeys(folders)})
    for folder, files in groups.items():
        path = os.pathsep.join(dict.fromkeys([str(root), str(top), str(folder)]))
        tests = subprocess.run(
            [*base, "--explicit-package-bases", *sorted(str(f.relative_to(folder)) for f in files)],
            cwd=folder,
            env={**env, "MYPYPATH": path},
            capture_output=True,
            text=True,
        )
        assert tests.returncode == 0, f"{folder}:\n{tests.stdout}{tests.stderr}"
    tooling = subprocess.run(
        [*base, "-p", "mutation", "-p", "benchmarks"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert tooling.returncode == 0, tooling.stdout + tooling.stderr


EXAMPLE = REPO / "examples" / "json-file-backend"


def test_the_example_backend_is_ruff_and_mypy_clean(tmp_path: Path) -> None:
    """Backend authors copy it: it passes its own ruff and mypy --strict settings."""
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[dev]')")
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[dev]')")
    lint = subprocess.run([ruff, "check", "."], cwd=EXAMPLE, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    root = installed_layout(tmp_path)
    env = {**os.environ, "MYPYPATH": f"{root}{os.pathsep}{EXAMPLE / 'src'}"}
    typed = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(EXAMPLE / "pyproject.toml"),
            "--no-incremental",
            "--cache-dir",
            str(tmp_path / ".mypy_cache"),
            "-p",
            "jsonfile_memory",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert typed.returncode == 0, typed.stdout + typed.stderr


def _short_constants(path: Path) -> list[str]:
    """Module-level names of one or two capital letters bound to a value other than a TypeVar."""
    import ast

    found: list[str] = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.Assign):
            continue
        value = node.value
        if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "TypeVar":
            continue
        found.extend(
            f"{path.relative_to(REPO)}:{node.lineno}: {target.id}"
            for target in node.targets
            if isinstance(target, ast.Name) and len(target.id) <= 2 and target.id.isupper()
        )
    return found


def test_no_one_letter_module_constants() -> None:
    """A constant says what it holds (SESSION, API_DOC), so a reader never looks up what `S` was."""
    found = [
        hit
        for folder in SOURCES[:4]
        for path in sorted((REPO / folder).rglob("*.py"))
        for hit in _short_constants(path)
    ]
    assert not found, "module constants named by one or two letters:\n" + "\n".join(found)
