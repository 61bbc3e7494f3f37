"""``python -m benchmarks --quick`` runs and prints a ratio line for every operation and size.

Only the shape of the output is checked: timings belong to the machine, never to a test."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from benchmarks.run import OPERATIONS, QUICK_PLAN  # noqa: E402

#: ``sqlite   n=200     get_history(20)   driver 0.1 ms  raw 0.05 ms  ratio  2.00x ...``
RATIO_LINE = re.compile(r"^sqlite\s+n=([\d,]+)\s+(.+?)\s+driver\s+[\d.]+ ms\s.*\sratio\s+[\d.]+x")


def test_quick_run_prints_a_ratio_for_every_operation() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--drivers=sqlite"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    found = [match.groups() for line in lines if (match := RATIO_LINE.match(line)) is not None]
    expected = [(f"{size:,}", operation) for size in QUICK_PLAN.sizes for operation in OPERATIONS]
    assert found == expected, proc.stdout
    assert any("peak memory" in line and " ratio " in line for line in lines), proc.stdout
