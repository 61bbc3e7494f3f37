"""The property protocol between the worker that runs a test and the process that writes the
summary: plain data on the test report (xdist-safe), JSON text where it is structured, so a CI
tool reading the JUnit file can read it back too."""

from __future__ import annotations

import json
from typing import Any, Final

import pytest

from aalis_memory.conformance.verdicts.model import Verdict

#: Report properties (xdist-safe: plain data on the test report).
PROP_RULES: Final = "aalis_rules"
PROP_DRIVER: Final = "aalis_driver"
#: ``[{"rule", "verdict", "message", "where", "cause"}, ...]``: what this phase of the test
#: says of each rule (see :func:`judged`).
PROP_OUTCOMES: Final = "aalis_outcomes"
#: Set by a time-budgeted state-machine run: how many histories it checked (shown in the summary).
PROP_EXAMPLES: Final = "aalis_state_machine_examples"
#: Set by a test that checks many rules but not all of them every run (the state machine):
#: ``{rule_id: number of checks performed}``. Only rules with a positive count can pass.
PROP_CHECKED: Final = "aalis_checked"
#: Set by a test that records SHOULD divergences and goes on (non-strict state machine):
#: ``[{"rule": rule_id, "message": text}, ...]``; each becomes an advisory of its rule.
PROP_ADVISORIES: Final = "aalis_advisories"
#: Set by a test whose pass carries findings worth reading (the scaling probe's timings):
#: ``{rule_id: text}``; the text becomes the message of the rule's pass.
PROP_NOTES: Final = "aalis_notes"
#: Set on a test the kit did not run because it had stopped using the driver (see
#: ``health.UNUSABLE``): the cause. The run then fails, and says how many rules went untested.
PROP_STOPPED: Final = "aalis_stopped"
#: Set on a test that got a store the driver's ``fresh=`` hook left state in (a usage error of
#: the hook, see ``harness.fresh``): the error. The test is not judged and the run fails.
PROP_USAGE_ERROR: Final = "aalis_usage_error"
#: JUnit-visible properties: one per rule of the test (``"ARCH-01 MUST pass"``) and one for
#: the whole test (its worst verdict).
PROP_JUNIT_RULE: Final = "aalis_rule"
PROP_JUNIT_VERDICT: Final = "aalis_verdict"

#: The name of the test that drives every selected driver at once (``--memory-differential``).
DIFFERENTIAL: Final = "test_state_machine_differential"

#: The test status word of a SHOULD failure outside strict mode.
ADVISORY: Final = "advisory"
#: The test status word of a test a failed setup or observation step kept from judging.
BLOCKED: Final = "blocked"

Judged = dict[str, Any]

#: The properties whose values are JSON text (see :func:`attach`).
_JSON_PROPS: Final = frozenset({PROP_RULES, PROP_OUTCOMES, PROP_EXAMPLES, PROP_CHECKED,
                                PROP_ADVISORIES, PROP_NOTES})


def judged(rule: str, verdict: Verdict, message: str = "", where: str = "", cause: str = "",
           blocker: str = "", leaned: list[str] | None = None) -> Judged:
    """One rule's outcome in one test phase. ``cause`` groups failures that share one exception
    (type, text and driver method) into one summary line; ``blocker`` is the rule a blocked
    outcome waits on; ``leaned`` the rules a failed check's reads stood on."""
    return {"rule": rule, "verdict": verdict.value, "message": message, "where": where,
            "cause": cause, "blocker": blocker, "leaned": leaned or []}


def spec_ids(item: pytest.Item | pytest.Collector) -> list[str]:
    return [str(arg) for mark in item.iter_markers("aalis_spec") for arg in mark.args]


def driver_of(item: pytest.Item) -> str | None:
    """What a test judges: its driver, or ``provider@driver`` for the compression-provider
    suite (a provider's verdicts are its own, apart from the storage verdicts of the driver)."""
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    driver = callspec.params.get("aalis_memory_driver")
    provider = callspec.params.get("aalis_compression_provider")
    return f"{provider}@{driver}" if driver is not None and provider is not None else driver


def attach(properties: list[tuple[str, Any]], name: str, value: Any) -> None:
    """Add a test property; a structured value travels as JSON text. JUnit XML writes each
    property of a test as ``str(value)``: JSON is what a CI tool can read back, a repr is not."""
    properties.append((name, value if isinstance(value, str) else json.dumps(value)))


def read_prop(properties: list[tuple[str, Any]], name: str) -> Any:
    for key, value in properties:
        if key == name:
            return json.loads(value) if name in _JSON_PROPS else value
    return None
