"""The property protocol between a test, the judging of its phases and the process that writes
the summary: named properties on pytest's reports, holding the kit's records as objects. They
become data only where a report leaves its process (the reporter's pytest-xdist hooks), and
JSON text in the JUnit file, whose writer takes ``str()`` of each property."""

from __future__ import annotations

import json
from typing import Any, Final

import attrs
import pytest


@attrs.frozen
class Structured:
    """A structured test property (how many checks ran, the advisories, notes): the value itself
    within the process, JSON text in ``str()``."""

    value: Any

    def __str__(self) -> str:
        return json.dumps(self.value)


#: The phase's records (:class:`~aalis_memory.conformance.verdicts.model.Outcomes`): what it
#: says of each rule of its driver (in JUnit: the records, as JSON).
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


def attach(properties: list[tuple[str, object]], name: str, value: Any) -> None:
    """Add a test property for the judging: a structured value travels as itself (as JSON text
    only in the JUnit file)."""
    properties.append((name, value if isinstance(value, str) else Structured(value)))


def read_prop(properties: list[tuple[str, object]], name: str) -> Any:
    for key, value in properties:
        if key == name:
            return value.value if isinstance(value, Structured) else value
    return None
