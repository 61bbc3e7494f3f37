"""The required methods (api-memory §核心方法: the methods declared without ``?``; archive_span is
"必填", compression has no fallback without it).

The test opens the driver's store itself: the ``aalis_memory`` fixture refuses a store that lacks
a required method before any test body runs.
"""

from __future__ import annotations

import asyncio

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.harness.adapters import missing_required, opened_store
from aalis_memory.conformance.harness.run_state import RunState
from aalis_memory.conformance.registration.registry import DriverContext, DriverRegistration


@pytest.mark.aalis_spec("REQ-01")
def test_every_required_method_is_there(
    aalis_memory_registration: DriverRegistration,
    aalis_memory_ctx: DriverContext,
    aalis_memory_loop: asyncio.Runner,
    aalis_memory_run_state: RunState,
    aalis_check: Check,
) -> None:
    with opened_store(
        aalis_memory_registration, aalis_memory_ctx, aalis_memory_loop, state=aalis_memory_run_state
    ) as store:
        missing = missing_required(store)
    aalis_check.that(
        not missing,
        f"driver {aalis_memory_registration.name!r} lacks required method(s) "
        f"{', '.join(missing)}: every backend has all nine",
    )
