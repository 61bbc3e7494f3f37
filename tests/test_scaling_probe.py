"""The scaling probe (PERF-01) tells a driver that reads its whole session per call from the
reference drivers, and stays out of the way when it is off.

Judged on the drivers, never on the kit's own speed: the test asserts only verdicts. The slow
driver sorts the whole session on every get_history, O(n); the reference drivers seek. At 100x
the data that is about 25x against 1x, each side far from the 5x line, so a loaded machine moves
neither across it (the medians of interleaved repetitions take out bursts of load).
"""

from __future__ import annotations

from pathlib import Path

from test_broken_drivers import run_suite

from broken_drivers.slow import SLOW
from reports import rules

SLOW_DRIVER = f"broken-{next(iter(SLOW))}"
#: Small enough for a kit test (a few seconds per driver), 100x apart.
SIZES = "200,20000,50,5000"


def test_the_probe_flags_a_session_scan_and_not_the_reference_drivers(tmp_path: Path) -> None:
    code, data, output = run_suite(
        tmp_path, [SLOW_DRIVER, "inmemory", "sqlite"], "--memory-rules=PERF-01",
        "--memory-scaling", f"--memory-scaling-sizes={SIZES}",
    )
    assert code == 0, output[-3000:]  # an advisory does not fail the default mode
    slow = rules(data, SLOW_DRIVER)["PERF-01"]
    assert slow["verdict"] == "advisory", slow
    assert "get_history(s, 20) grew" in slow["message"], slow["message"]
    for call in ("count_history", "archive_span", "get_metadata"):
        assert f"{call}(s" not in slow["message"].split("\n")[0], slow["message"]
    for reference in ("inmemory", "sqlite"):
        entry = rules(data, reference)["PERF-01"]
        assert entry["verdict"] == "pass", entry
        # the timings are in the report even when the rule passes
        assert "get_history(s, 20):" in entry["message"], entry
        assert "count_history(s):" in entry["message"], entry


def test_without_the_option_the_probe_is_not_run(tmp_path: Path) -> None:
    code, data, output = run_suite(tmp_path, [SLOW_DRIVER], "--memory-rules=PERF-01")
    assert code == 0, output[-3000:]
    entry = rules(data, SLOW_DRIVER)["PERF-01"]
    assert entry["verdict"] == "not run", entry
    assert "--memory-scaling" in entry["message"], entry


def test_bad_sizes_are_a_usage_error(tmp_path: Path) -> None:
    code, _, output = run_suite(tmp_path, ["inmemory"], "--memory-scaling-sizes=50000,1000,1,2")
    assert code == 4, output[-3000:]
    assert "--memory-scaling-sizes" in output
