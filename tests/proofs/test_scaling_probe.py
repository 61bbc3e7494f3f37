"""The scaling probe (PERF-01) tells a driver that reads its whole session per call from the
reference drivers: the quick probe in every default run, the full one with --memory-scaling; a
driver that declares skip_quick_scaling is reported not run, with its reason.

Judged on the drivers, never on the kit's own speed: the runs assert only verdicts and texts.
The slow drivers read (or sort) the whole session on every get_history, O(n); the reference
drivers seek. At the quick probe's 80x the data that projects to about 50x against 1x, each side
far from the 5x line, and a call over it is timed again before it is judged (see
conformance/probes/scaling.py); the pure tests below pin how the growth is projected.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_broken_drivers import run_suite

from aalis_memory.conformance.probes.scaling import FULL, GROWTH_LIMIT, QUICK, Growth
from aalis_memory.conformance.registration.registry import DriverRegistration
from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.drivers.stdio import schema as protocol
from aalis_memory.drivers.stdio.driver import stdio_driver
from broken_drivers import BROKEN, NOT_FOR_SPEED, load_all, registration
from reports import conformance_summary, rules

load_all()
READS = "broken-history-reads-session"
SORTS = "broken-history-sorts-session"
#: A broken driver whose bug is elsewhere: it declares skip_quick_scaling.
SKIPS = "broken-keep-ignored"
#: Small enough for a kit test (a few seconds per driver), 100x apart.
FULL_SIZES = "200,20000,50,5000"


def test_the_default_run_flags_a_session_read_and_not_the_reference_drivers(
    tmp_path: Path,
) -> None:
    code, data, output = run_suite(tmp_path, [READS, SKIPS, "inmemory", "sqlite"], "--memory-rules=PERF-01")
    assert code == 0, output[-3000:]  # an advisory does not fail the default mode
    slow = rules(data, READS)["PERF-01"]
    assert slow["verdict"] == "advisory", slow
    headline = slow["message"].split("\n")[0]
    assert headline.startswith("[PERF-01 SHOULD] get_history(s, 20) grew "), headline
    assert "from 1,000 to 50,000 messages on that line" in headline, headline
    for call in ("count_history", "archive_span", "get_metadata"):
        assert f"{call}(s" not in headline, headline
    assert "more than 5x in each of 3 rounds" in slow["message"], slow["message"]
    for reference in ("inmemory", "sqlite"):
        entry = rules(data, reference)["PERF-01"]
        assert entry["verdict"] == "pass", entry
        # the timings are in the report even when the rule passes, and say which probe ran
        assert "the quick probe, run by default" in entry["message"], entry
        assert "get_history(s, 20): " in entry["message"], entry
        assert "8,000 messages" in entry["message"], entry
        assert "count_history(s): " in entry["message"], entry
    # A declared skip: not run, its reason in the report and in the terminal summary.
    skipped = rules(data, SKIPS)["PERF-01"]
    assert skipped["verdict"] == "not run", skipped
    assert NOT_FOR_SPEED in skipped["message"], skipped
    assert "skip_quick_scaling" in skipped["message"], skipped
    summary = conformance_summary(output)
    assert (
        f"not run (driver '{SKIPS}' skips the quick scaling probe (skip_quick_scaling): "
        f"{NOT_FOR_SPEED}; --memory-scaling runs the full probe): PERF-01"
    ) in summary, summary


def test_the_full_probe_flags_a_session_sort_and_runs_a_declared_skip(tmp_path: Path) -> None:
    code, data, output = run_suite(
        tmp_path,
        [SORTS, SKIPS, "inmemory"],
        "--memory-rules=PERF-01",
        "--memory-scaling",
        f"--memory-scaling-sizes={FULL_SIZES}",
    )
    assert code == 0, output[-3000:]
    slow = rules(data, SORTS)["PERF-01"]
    assert slow["verdict"] == "advisory", slow
    headline = slow["message"].split("\n")[0]
    assert headline.startswith("[PERF-01 SHOULD] get_history(s, 20) grew "), headline
    assert "on that line" not in slow["message"], slow["message"]  # measured, not projected
    assert "20,000 messages" in slow["message"], slow["message"]
    entry = rules(data, "inmemory")["PERF-01"]
    assert entry["verdict"] == "pass", entry
    assert "quick probe" not in entry["message"], entry
    # skip_quick_scaling skips the quick probe only: the full one, asked for, runs.
    assert rules(data, SKIPS)["PERF-01"]["verdict"] != "not run", rules(data, SKIPS)["PERF-01"]


def test_bad_sizes_are_a_usage_error(tmp_path: Path) -> None:
    code, _, output = run_suite(tmp_path, ["inmemory"], "--memory-scaling-sizes=50000,1000,1,2")
    assert code == 4, output[-3000:]
    assert "--memory-scaling-sizes" in output


def _growth(small: float, large: float, *, quick: bool = True) -> Growth:
    judged_at = (FULL.small_messages, FULL.large_messages) if quick else None
    plan = QUICK if quick else FULL
    return Growth(
        "get_history(s, 20)",
        "messages",
        (plan.small_messages, plan.large_messages),
        small,
        large,
        20,
        20,
        judged_at,
    )


def test_the_quick_probe_projects_a_round_trip_hidden_growth() -> None:
    """The backend of issue 27: a round trip t0 and a per-message cost c with get_history 16x
    from 1,000 to 50,000 messages (c = t0 * 15 / 34,000). At the quick sizes it measures only
    about 4.3x, under the line; projected to the full sizes it is the 16x the full probe saw."""
    t0, c = 1.0, 15 / 34_000

    def cost(messages: int) -> float:
        return t0 + c * messages

    growth = _growth(cost(QUICK.small_messages), cost(QUICK.large_messages))
    assert growth.factor < GROWTH_LIMIT
    assert growth.judged == pytest.approx(cost(50_000) / cost(1_000))
    assert growth.too_slow
    measured = _growth(cost(QUICK.small_messages), cost(QUICK.large_messages), quick=False)
    assert not measured.too_slow  # what judging the quick sizes' ratio would have said


@pytest.mark.parametrize(
    ("large", "flagged"), [(0.8, False), (1.0, False), (1.3, False), (1.6, False), (1.8, True)]
)
def test_a_flat_call_stays_under_the_line_until_its_large_median_is_far_off(
    large: float, flagged: bool
) -> None:
    """The noise the projection carries: a seek is over the line only when its large median is
    about 1.7 times its small one (a smaller large median projects no growth at all)."""
    growth = _growth(1.0, large)
    assert growth.too_slow is flagged, growth.judged
    if large <= 1.0:
        assert growth.judged == 1.0


def test_results_of_different_sizes_are_not_judged() -> None:
    growth = Growth("get_history(s, 20)", "messages", (100, 8000), 1.0, 50.0, 20, 19, (1000, 50000))
    assert not growth.too_slow
    assert "not judged" in growth.render()


def test_the_rule_names_both_probes_sizes() -> None:
    text = CATALOGUE["PERF-01"].summary
    for size in (
        FULL.small_messages,
        FULL.large_messages,
        FULL.small_keys,
        FULL.large_keys,
        QUICK.small_messages,
        QUICK.large_messages,
        QUICK.small_keys,
        QUICK.large_keys,
    ):
        assert f"{size:,}" in text, (size, text)
    assert f"{GROWTH_LIMIT:g}x" in text, text


def test_skip_quick_scaling_takes_a_reason() -> None:
    entry = BROKEN[SKIPS.removeprefix("broken-")]
    declared = registration(entry)
    assert declared.skip_quick_scaling == NOT_FOR_SPEED
    assert registration(BROKEN[READS.removeprefix("broken-")]).skip_quick_scaling is None
    for bad in ("", "  ", 3):
        with pytest.raises(ValueError, match="skip_quick_scaling"):
            DriverRegistration(name="x", factory=declared.factory, skip_quick_scaling=bad)  # type: ignore[arg-type]


def test_an_adapter_declares_the_skip_in_its_handshake() -> None:
    """``skipQuickScaling`` is a valid handshake field and becomes the registration's reason;
    ``stdio_driver(..., skip_quick_scaling=)`` wins over it."""
    hello = {
        "protocolVersion": 1,
        "adapter": "skips",
        "methods": [],
        "rawMetadata": False,
        "capabilities": {
            "ordering": "timestamp",
            "metadataAtomicity": "atomic",
            "archiveAtomicity": "atomic",
        },
        "skipQuickScaling": "each save is a network round trip",
    }
    assert protocol.result_errors("hello", hello) == []
    assert protocol.result_errors("hello", {**hello, "skipQuickScaling": ""}) != []
    never_started = [sys.executable, "-c", "raise SystemExit(3)"]  # hello= is given: not probed
    declared = stdio_driver("scaling-skip-by-handshake", never_started, hello=hello)
    assert declared.skip_quick_scaling == "each save is a network round trip"
    given = stdio_driver(
        "scaling-skip-by-argument", never_started, hello=hello, skip_quick_scaling="a shared CI server"
    )
    assert given.skip_quick_scaling == "a shared CI server"
