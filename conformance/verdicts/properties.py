"""The property protocol between a test, the judging of its phases and the process that writes
the summary: named properties on pytest's reports, holding the kit's records as objects. They
become data only where a report leaves its process (the reporter's pytest-xdist hooks), and
JSON text in the JUnit file, whose writer takes ``str()`` of each property."""

from __future__ import annotations

from typing import Final

import pytest

from aalis_memory.conformance.item_properties import (
    PROP_ADVISORIES as PROP_ADVISORIES,
)
from aalis_memory.conformance.item_properties import (
    PROP_CHECKED as PROP_CHECKED,
)
from aalis_memory.conformance.item_properties import (
    PROP_EXAMPLES as PROP_EXAMPLES,
)
from aalis_memory.conformance.item_properties import (
    PROP_NOTES as PROP_NOTES,
)
from aalis_memory.conformance.item_properties import (
    Structured as Structured,
)
from aalis_memory.conformance.item_properties import (
    attach as attach,
)
from aalis_memory.conformance.item_properties import (
    read_prop as read_prop,
)

#: The phase's records (:class:`~aalis_memory.conformance.verdicts.model.Outcomes`): what it
#: says of each rule of its driver (in JUnit: the records, as JSON).
PROP_OUTCOMES: Final = "aalis_outcomes"
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
