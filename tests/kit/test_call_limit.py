"""The kit's per-call limit (``within``): the watchdog cancels a call past its limit, and only
that cancellation is the kit's timeout; the driver's own errors and cancellations stay theirs."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from aalis_memory.conformance.harness.adapters import within
from aalis_memory.conformance.harness.health import CallTimeout
from aalis_memory.conformance.harness.run_state import RunState

LIMIT = 0.2


def run(body: Any) -> Any:
    return asyncio.run(body())


def test_a_call_past_its_limit_times_out_and_leaves_its_task_usable() -> None:
    async def body() -> tuple[str, int, str]:
        with pytest.raises(CallTimeout) as raised:
            await within(LIMIT, asyncio.sleep(30), "slow()", state=RunState())
        task = asyncio.current_task()
        assert task is not None
        await asyncio.sleep(0)  # no cancellation is left pending on the task
        return (
            str(raised.value),
            task.cancelling(),
            await within(LIMIT, _value("next"), "next()", state=RunState()),
        )

    text, cancelling, after = run(body)
    assert "slow() did not return within 0.2 s" in text
    assert (cancelling, after) == (0, "next")


def test_the_drivers_own_timeout_error_is_its_own() -> None:
    async def raises() -> None:
        raise TimeoutError("the driver's own")

    async def body() -> None:
        await within(LIMIT, raises(), "raises()", state=RunState())

    with pytest.raises(TimeoutError, match="the driver's own") as raised:
        run(body)
    assert not isinstance(raised.value, CallTimeout)


def test_a_cancellation_from_outside_is_not_a_timeout() -> None:
    async def body() -> str:
        inner = asyncio.ensure_future(within(30, asyncio.sleep(30), "waits()", state=RunState()))
        await asyncio.sleep(0.01)
        inner.cancel()
        try:
            await inner
        except asyncio.CancelledError:
            return "cancelled"
        return "returned"

    assert run(body) == "cancelled"


def test_a_call_that_swallows_the_cancel_returns_and_the_cancel_is_taken_back() -> None:
    async def stubborn() -> str:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            return "went on"
        return "slept"

    async def body() -> tuple[str, int]:
        value = await within(LIMIT, stubborn(), "stubborn()", state=RunState())
        task = asyncio.current_task()
        assert task is not None
        return value, task.cancelling()

    assert run(body) == ("went on", 0)


async def _value(value: str) -> str:
    return value
