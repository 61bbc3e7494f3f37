"""A SHOULD quirk no longer hides a MUST bug (issue 9, point 1), in the default, non-strict mode.

The drivers of ``broken_drivers/masking.py`` share a stale ``count_history`` after deletions
(COUNT-01, MUST); the others also break SHOULD rules the state machine meets first. Run as a
backend author would, from an empty directory (no ini file, so not strict), the whole suite must
end with COUNT-01 failing and exit 1 for all of them, and the state machine must report each SHOULD
quirk it went on past as an advisory of its own rule.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from test_broken_drivers import run_suite

from aalis_memory.conformance.machine.core import Target
from aalis_memory.conformance.machine.runner import run_machine
from aalis_memory.conformance.registration.registry import DriverContext
from aalis_memory.conformance.rules import CATALOGUE, Level
from aalis_memory.conformance.verdicts.properties import PROP_ADVISORIES, PROP_CHECKED
from broken_drivers import BROKEN, load_all, registration
from broken_drivers.masking import (
    PLUS_DROPPED_MEDIA,
    PLUS_EMPTY_DELETE_RAISES,
    PLUS_LENIENT_LIMITS,
    STALE_COUNT,
)
from reports import failing, messages

load_all()

MASKING = {
    "count-stale-after-delete": STALE_COUNT,
    "count-stale-drops-media": PLUS_DROPPED_MEDIA,
    "count-stale-lenient-limits": PLUS_LENIENT_LIMITS,
    # Tolerating DEL-02 stops only deletions by an empty list: the others still leave the count
    # stale (issue 21).
    "count-stale-empty-delete-raises": PLUS_EMPTY_DELETE_RAISES,
}


def properties(junit: Path) -> dict[str, dict[str, Any]]:
    """Per test id (``name`` attribute), its user properties, values parsed back (structured
    ones are JSON text, what a CI tool reading JUnit XML can parse too)."""
    found: dict[str, dict[str, Any]] = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        props = {p.get("name", ""): p.get("value", "") for p in case.iter("property")}
        parsed: dict[str, Any] = {}
        for key, text in props.items():
            try:
                parsed[key] = json.loads(text)
            except ValueError:
                parsed[key] = text
        found[case.get("name", "")] = parsed
    return found


@pytest.fixture(scope="module")
def default_mode_run(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[int, dict[str, Any], str, dict[str, dict[str, Any]]]:
    workdir = tmp_path_factory.mktemp("masking")  # empty: no ini, so the default mode
    junit = workdir / "junit.xml"
    code, report, output = run_suite(workdir, [f"broken-{name}" for name in MASKING], f"--junitxml={junit}")
    return code, report, output, properties(junit)


def test_the_drivers_declare_what_they_break() -> None:
    for name, rules in MASKING.items():
        assert BROKEN[name].breaks == frozenset(rules)


def test_default_mode_exits_1(
    default_mode_run: tuple[int, dict[str, Any], str, dict[str, dict[str, Any]]],
) -> None:
    code, _, output, _ = default_mode_run
    assert code == 1, output[-3000:]


@pytest.mark.parametrize("name", sorted(MASKING))
def test_count_01_fails_behind_the_should_quirks(
    name: str,
    default_mode_run: tuple[int, dict[str, Any], str, dict[str, dict[str, Any]]],
) -> None:
    _, report, output, _ = default_mode_run
    failed = failing(report, f"broken-{name}")
    assert "COUNT-01" in failed, (sorted(failed), output[-3000:])
    assert any("delete_messages_by_timestamps" in m for m in messages(failed["COUNT-01"])), (
        "the COUNT-01 reproduction should show the deletion that left the count stale"
    )


@pytest.mark.parametrize("name", sorted(MASKING))
def test_each_should_quirk_is_an_advisory_of_its_rule(
    name: str,
    default_mode_run: tuple[int, dict[str, Any], str, dict[str, dict[str, Any]]],
) -> None:
    _, _, output, props = default_mode_run
    own = props.get(f"test_state_machine[broken-{name}]")
    assert own is not None, sorted(props)[:20]
    advisories = own.get(PROP_ADVISORIES, [])
    should = {r for r in MASKING[name] if CATALOGUE[r].level is Level.SHOULD}
    found = {a["rule"] for a in advisories}
    # The machine went past at least one quirk to reach COUNT-01 (which quirks it met first
    # depends on the generated histories), and blamed no rule the driver does not break.
    assert found <= should, (advisories, output[-3000:])
    assert bool(found) == bool(should), (advisories, output[-3000:])
    for advisory in advisories:
        assert "reproduce (shrunk history" in advisory["message"], advisory
    # A tolerated rule is reported as an advisory, never as checked.
    assert not set(own.get(PROP_CHECKED, {})) & should


@pytest.mark.parametrize("strict", [True, False])
def test_strict_mode_still_stops_at_the_first_divergence(strict: bool, tmp_path: Path) -> None:
    """In process, the same driver both ways: strict ends at the SHOULD quirk, default goes on."""
    reg = registration(BROKEN["count-stale-drops-media"])
    run = run_machine(
        [Target(reg, DriverContext(name=reg.name, tmp_path=tmp_path))], profile="ci", strict=strict
    )
    assert run.failure is not None
    if strict:
        assert run.failure.rule.id == "MSG-02", str(run.failure)
        assert run.advisories == ()
    else:
        assert run.failure.rule.id == "COUNT-01", str(run.failure)
        assert [a.rule for a in run.advisories] == ["MSG-02"]
