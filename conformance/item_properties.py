"""What a test hands the judging besides its checks: named properties on its item (how many
checks the state machine ran per rule, its advisories, the scaling probe's notes). This module sits
above the suite so a test can attach them without importing the verdicts, which read them."""

from __future__ import annotations

import json
from typing import Any, Final

import attrs


@attrs.frozen
class Structured:
    """A structured test property (how many checks ran, the advisories, notes): the value itself
    within the process, JSON text in ``str()``."""

    value: Any

    def __str__(self) -> str:
        return json.dumps(self.value)


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


def attach(properties: list[tuple[str, object]], name: str, value: Any) -> None:
    """Add a test property for the judging: a structured value travels as itself (as JSON text
    only in the JUnit file)."""
    properties.append((name, value if isinstance(value, str) else Structured(value)))


def read_prop(properties: list[tuple[str, object]], name: str) -> Any:
    for key, value in properties:
        if key == name:
            return value.value if isinstance(value, Structured) else value
    return None
