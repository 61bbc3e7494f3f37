"""The state machine reports only the rules it really checked (issue 9, point 2).

Its test is marked with every rule it *can* check; ``PROP_CHECKED`` says which ones a run *did*
check. A driver with only the required methods, no raw hook and weak tiers must get no credit for
the optional methods, the raw-access rules or the atomic tiers; the in-memory reference driver,
which has all of them, must get credit for each.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final

import pytest

from aalis_memory.conformance.machine.core import Target
from aalis_memory.conformance.machine.runner import MachineRun, run_machine
from aalis_memory.conformance.registry import (
    Capabilities,
    DriverContext,
    DriverRegistration,
    load_entry_points,
)
from aalis_memory.conformance.registry import get as get_driver
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.service import REQUIRED_METHODS

#: Rules only optional methods, a raw hook or an atomic tier let the machine check.
NEEDS_MORE: Final = frozenset({
    "COUNT-01",                                  # count_history
    "FULL-01", "FULL-02", "ARCH-09",             # get_full_history
    "RANGE-01", "RANGE-02", "RANGE-03", "RANGE-04",
    "CROSS-01", "CROSS-02", "CROSS-03", "CROSS-04", "CROSS-05", "LIM-04",
    "UPD-01", "UPD-02", "UPD-03", "LIM-03",      # update_message_content
    "DEL-01", "DEL-02",                          # delete_messages_by_timestamps
    "CLEAR-03", "CLEAR-04",                      # clear_all
    "META-09", "META-10", "COMMIT-06",           # the raw_metadata hook (and list_metadata_keys)
    "ARCH-10", "COMMIT-05",                      # atomic tiers, watched writes
})


class RequiredOnly:
    """The in-memory reference driver behind the required methods only."""

    def __init__(self, **caps: int) -> None:
        self._store = InMemoryMemory(**caps)

    def __getattr__(self, name: str) -> Any:
        if name not in REQUIRED_METHODS:
            raise AttributeError(name)
        return getattr(self._store, name)


async def required_only(ctx: DriverContext) -> AsyncIterator[Any]:
    yield RequiredOnly(range_query_limit=ctx.range_query_limit,
                       cross_session_max_limit=ctx.cross_session_max_limit)


MINIMAL: Final = DriverRegistration(
    name="required-only",
    factory=required_only,
    capabilities=Capabilities(ordering="write", metadata_atomicity="ordered",
                              archive_atomicity="partial"),
)


def run(registration: DriverRegistration, tmp_path: Path) -> MachineRun:
    ctx = DriverContext(name=registration.name, tmp_path=tmp_path)
    result = run_machine([Target(registration, ctx)], profile="ci", strict=True)
    assert result.failure is None, str(result.failure)
    return result


def test_a_minimal_driver_gets_no_credit_for_what_it_lacks(tmp_path: Path) -> None:
    checked = run(MINIMAL, tmp_path).checked
    assert not set(checked) & NEEDS_MORE, sorted(set(checked) & NEEDS_MORE)
    # What it has was checked, the limit rule on a read of 0 included.
    assert {"HIST-01", "HIST-04", "ARCH-01", "ARCH-07", "META-01", "COMMIT-01", "LIM-01"} <= set(
        checked)
    assert all(count > 0 for count in checked.values())


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory: pytest.TempPathFactory) -> MachineRun:
    load_entry_points()
    return run(get_driver("inmemory"), tmp_path_factory.mktemp("inmemory"))


@pytest.mark.parametrize("rule_id", sorted(NEEDS_MORE))
def test_the_reference_driver_gets_credit_for_each(rule_id: str, reference_run: MachineRun) -> None:
    assert reference_run.checked.get(rule_id, 0) > 0, reference_run.checked
