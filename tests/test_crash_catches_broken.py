"""The crash tests can fail: each broken durable store is caught on exactly its rule, SQLite on none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_broken_drivers import run_suite

from broken_drivers.durable import BREAKS
from reports import verdicts

SUITE = Path(__file__).resolve().parents[1] / "conformance" / "suite" / "crash.py"


@pytest.fixture(scope="module")
def crash_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    workdir = tmp_path_factory.mktemp("crash")
    _code, data, output = run_suite(
        workdir, ["sqlite", *sorted(BREAKS)], "--memory-strict", "-p", "broken_drivers.durable",
        str(SUITE),
    )
    assert data, output[-3000:]
    return data


@pytest.mark.parametrize("driver", ["sqlite", *sorted(BREAKS)])
def test_crash_rules_flag_exactly_the_broken_one(driver: str, crash_report: dict[str, Any]) -> None:
    found = verdicts(crash_report, driver)
    failing = {rule for rule, verdict in found.items() if verdict == "fail"}
    expected = {BREAKS[driver]} if driver in BREAKS else set()
    assert failing == expected, f"{driver}: expected failures {expected}, got {failing}: {found}"
