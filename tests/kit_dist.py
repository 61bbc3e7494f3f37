"""The kit as users get it: its sdist and wheel built once per test session, and a fresh virtual
environment with that wheel installed, shared by the packaging and example-backend tests.

Both are built lazily under pytest's session temp folder and reused by every test that asks, so
the slow steps (a PEP 517 build, a venv, pip) happen once per run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import attrs
import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "json-file-backend"
#: A build or an install that takes longer than this is a hang, not a slow machine.
STEP_TIMEOUT_S = 600


@attrs.frozen
class Dists:
    sdist: Path
    wheel: Path
    #: What the build printed (setuptools' warnings among it).
    log: str


@attrs.frozen
class FreshEnv:
    root: Path
    python: Path

    @property
    def bin(self) -> Path:
        return self.python.parent

    def run(
        self, *argv: str | Path, cwd: Path, timeout: float = STEP_TIMEOUT_S
    ) -> subprocess.CompletedProcess[str]:
        """Run in the venv as an activated shell would: its bin first on PATH, no PYTHONPATH."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
        env["PATH"] = f"{self.bin}{os.pathsep}{env.get('PATH', '')}"
        env["VIRTUAL_ENV"] = str(self.root)
        return subprocess.run(
            [str(a) for a in argv],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )


def _checked(proc: subprocess.CompletedProcess[str], what: str) -> subprocess.CompletedProcess[str]:
    assert proc.returncode == 0, f"{what} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    return proc


def built_dists(factory: pytest.TempPathFactory) -> Dists:
    """``python -m build``: the sdist, then the wheel built FROM that sdist (so the sdist must
    carry everything the wheel ships, SPEC_MAP.md included)."""
    out = factory.getbasetemp() / "kit-dist"
    log = out / "build.log"
    if not log.exists():
        out.mkdir(exist_ok=True)
        proc = _checked(
            subprocess.run(
                [sys.executable, "-m", "build", "--outdir", str(out), str(REPO)],
                capture_output=True,
                text=True,
                timeout=STEP_TIMEOUT_S,
                check=False,
            ),
            "python -m build",
        )
        log.write_text(proc.stdout + proc.stderr, encoding="utf-8")
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return Dists(sdist=sdist, wheel=wheel, log=log.read_text(encoding="utf-8"))


def example_copy(factory: pytest.TempPathFactory) -> Path:
    """A copy of examples/json-file-backend: pip builds a local project in place, and its
    build/ and egg-info must not land in the repository."""
    target = factory.getbasetemp() / "json-file-backend"
    if not target.exists():
        shutil.copytree(
            EXAMPLE, target, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".venv")
        )
    return target


def user_env(factory: pytest.TempPathFactory) -> FreshEnv:
    """A new venv holding what a backend author installs: the kit's built wheel (its
    dependencies from the package index) and the example backend, which registers itself."""
    root = factory.getbasetemp() / "kit-venv"
    python = root / "bin" / "python"
    done = root / "installed"
    if not done.exists():
        wheel = built_dists(factory).wheel
        venv.EnvBuilder(with_pip=True, clear=True).create(root)
        env = FreshEnv(root, python)
        _checked(
            env.run(
                python,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                wheel,
                example_copy(factory),
                cwd=root,
            ),
            "pip install into the fresh venv",
        )
        done.write_text(str(wheel), encoding="utf-8")
    return FreshEnv(root, python)
