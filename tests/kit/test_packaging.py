"""The built distributions say what the kit is: license, classifiers, URLs, the declared floors,
and SPEC_MAP.md inside the wheel. Built once per run with ``python -m build`` (see kit_dist)."""

from __future__ import annotations

import email
import email.message
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest
from trove_classifiers import classifiers as KNOWN_CLASSIFIERS

from kit_dist import REPO, Dists, built_dists

SPEC_MAP_IN_WHEEL = "aalis_memory/conformance/SPEC_MAP.md"


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Dists:
    return built_dists(tmp_path_factory)


@pytest.fixture(scope="module")
def metadata(dists: Dists) -> email.message.Message:
    with zipfile.ZipFile(dists.wheel) as wheel:
        (name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
        return email.message_from_bytes(wheel.read(name))


def project() -> dict[str, Any]:
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    found: dict[str, Any] = data["project"]
    return found


def test_the_build_does_not_warn(dists: Dists) -> None:
    """setuptools warns about a deprecated license table, unknown keys, missing files..."""
    warnings = [
        line
        for line in dists.log.splitlines()
        if re.search(r"Warning\b|deprecat", line, re.I) and "byte-compiling is disabled" not in line
    ]  # distutils' note, not a problem
    assert not warnings, "\n".join(warnings)


def test_the_license_is_an_spdx_expression_with_its_file(
    dists: Dists, metadata: email.message.Message
) -> None:
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert not [c for c in metadata.get_all("Classifier") or [] if c.startswith("License ::")]
    with zipfile.ZipFile(dists.wheel) as wheel:
        (name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert wheel.read(name) == (REPO / "LICENSE").read_bytes()
    assert "MIT License" in (REPO / "LICENSE").read_text(encoding="utf-8")


def test_classifiers_are_known_and_name_pytest_the_pythons_and_typing(
    metadata: email.message.Message,
) -> None:
    found = metadata.get_all("Classifier") or []
    unknown = [c for c in found if c not in KNOWN_CLASSIFIERS]
    assert not unknown, f"PyPI would refuse these classifiers: {unknown}"
    wanted = {
        "Framework :: Pytest",
        "Typing :: Typed",
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.12",
        "Programming Language :: Python :: 3.13",
    }
    assert wanted <= set(found), wanted - set(found)
    floor = re.fullmatch(r">=3\.(\d+)", metadata["Requires-Python"])
    assert floor, metadata["Requires-Python"]
    versions = sorted(
        int(c.rsplit(".", 1)[1])
        for c in found
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    )
    assert versions[0] == int(floor.group(1)), "the oldest classifier is requires-python's floor"


def test_project_urls(metadata: email.message.Message) -> None:
    urls = dict(u.split(", ", 1) for u in metadata.get_all("Project-URL") or [])
    assert {"Homepage", "Source", "Issues", "Documentation"} <= set(urls), urls
    assert all(u.startswith("https://") for u in urls.values()), urls


def test_the_wheel_declares_the_floors_pyproject_declares(metadata: email.message.Message) -> None:
    """tox -e lowest installs exactly these floors; hypothesis below 6.100.3 crawls (see git log)."""
    requires = [r for r in metadata.get_all("Requires-Dist") or [] if "extra ==" not in r]
    assert sorted(requires) == sorted(project()["dependencies"])
    assert "hypothesis>=6.100.3" in requires


def test_the_wheel_and_sdist_ship_the_repository_spec_map(dists: Dists) -> None:
    repo_copy = (REPO / "SPEC_MAP.md").read_bytes()
    with zipfile.ZipFile(dists.wheel) as wheel:
        assert wheel.read(SPEC_MAP_IN_WHEEL) == repo_copy
        names = wheel.namelist()
    assert "aalis_memory/py.typed" in names
    assert "aalis_memory/conformance/verdicts/report.schema.json" in names
    assert "aalis_memory/drivers/stdio/protocol.schema.json" in names
    assert not [n for n in names if n.split("/")[0] not in ("aalis_memory",) and ".dist-info/" not in n], (
        "only the aalis_memory namespace is installed"
    )
    with tarfile.open(dists.sdist) as sdist:
        member = next(m for m in sdist.getmembers() if m.name.endswith("/SPEC_MAP.md"))
        extracted = sdist.extractfile(member)
        assert extracted is not None
        assert extracted.read() == repo_copy


def test_mypy_checks_the_installed_layout_directly(dists: Dists, tmp_path: Path) -> None:
    """``mypy -p aalis_memory`` on the wheel's files as installed, found without MYPYPATH: the
    layout an editable install cannot give mypy (its import hook is invisible to it)."""
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[dev]')")
    with zipfile.ZipFile(dists.wheel) as wheel:
        wheel.extractall(tmp_path / "site")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(REPO / "pyproject.toml"),
            "--cache-dir",
            str(tmp_path / "cache"),
            "-p",
            "aalis_memory",
        ],
        cwd=tmp_path / "site",
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"Success: no issues found in \d+ source files", proc.stdout), proc.stdout
