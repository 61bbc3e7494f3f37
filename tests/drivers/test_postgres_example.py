"""examples/postgres-backend, run the way its author runs it: ``pytest`` from a copy of its
folder, which starts a PostgreSQL server for the run and takes every test's store from the
``fresh=`` pool. The kit's CI does not install PostgreSQL or asyncpg (its time budget): there the
test is skipped, saying which is missing; where both are, it runs.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from reports import conformance_summary, load_report, verdicts

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "postgres-backend"


def _server_module() -> ModuleType:
    """The example's ``postgres_memory.server``, from its file (the example is not installed)."""
    pytest.importorskip(
        "asyncpg",
        reason="asyncpg is not installed (pip install asyncpg): the "
        "PostgreSQL example's store and server use it",
    )
    path = EXAMPLE / "src" / "postgres_memory" / "server.py"
    spec = importlib.util.spec_from_file_location("postgres_example_server", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_postgres_example_passes_with_its_fresh_store_pool(tmp_path: Path) -> None:
    if _server_module().find_binaries() is None:
        pytest.skip(
            "no PostgreSQL server binaries (initdb, postgres) in /usr/lib/postgresql/*/bin "
            "or on PATH (apt-get install postgresql): the example starts its own server"
        )
    copy = tmp_path / "postgres-backend"
    shutil.copytree(
        EXAMPLE, copy, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".venv")
    )
    report = tmp_path / "report.json"
    env = {**os.environ, "PYTHONPATH": str(copy / "src")}
    env.pop("POSTGRES_MEMORY_FRESH", None)
    env.pop("POSTGRES_MEMORY_DSN", None)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", f"--memory-report={report}", f"--basetemp={tmp_path / 'basetemp'}"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output[-4000:]
    summary = conformance_summary(output)
    assert "USAGE ERROR" not in summary, summary
    found = verdicts(load_report(report), "postgres")
    by_verdict: dict[str, set[str]] = {}
    for rule, verdict in found.items():
        by_verdict.setdefault(verdict, set()).add(rule)
    assert not by_verdict.get("fail"), by_verdict
    assert not by_verdict.get("advisory"), by_verdict
    assert not by_verdict.get("unverified"), by_verdict
    # durable (writers killed and their schemas dropped), raw access, every optional method
    assert {
        "CRASH-01",
        "CRASH-02",
        "META-09",
        "META-10",
        "COMMIT-06",
        "CROSS-01",
        "UPD-01",
        "DEL-01",
    } <= by_verdict["pass"], by_verdict
