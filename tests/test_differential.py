"""Differential mode: one generated history against several drivers at once.

Run as a user would (a fresh interpreter, ``--memory-differential``): reference drivers of different
tiers agree, and a broken driver next to a reference one is named, with one of its own rules.
"""

from __future__ import annotations

import re
from pathlib import Path

from test_broken_drivers import run_suite

from broken_drivers import BROKEN, load_all

load_all()

ONLY_DIFFERENTIAL = ("--memory-strict", "--memory-differential", "-k", "test_state_machine_differential")


def test_reference_drivers_of_both_orderings_agree(tmp_path: Path) -> None:
    code, _, output = run_suite(tmp_path, ["inmemory", "sqlite"], *ONLY_DIFFERENTIAL)
    assert code == 0, output[-3000:]
    # It runs once, under the first driver; the second driver's copy says why it skipped.
    assert re.search(r"\b1 passed, 1 skipped\b", output), output[-2000:]


def test_a_broken_driver_is_named_with_its_rule(tmp_path: Path) -> None:
    name = "positions-skip-markers"
    code, data, output = run_suite(tmp_path, ["inmemory", f"broken-{name}"], *ONLY_DIFFERENTIAL)
    assert code == 1, output[-3000:]
    assert f"driver: broken-{name};" in output, output[-3000:]
    # The verdict is filed under the driver that disagreed, not the one the test ran under.
    failing = {rule for rule, result in data.get(f"broken-{name}", {}).items()
               if result["verdict"] == "fail"}
    assert failing, output[-3000:]
    assert failing <= BROKEN[name].breaks, (failing, output[-3000:])
    assert not any(r["verdict"] == "fail" for r in data.get("inmemory", {}).values()), data
