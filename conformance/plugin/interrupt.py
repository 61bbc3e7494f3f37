"""Ctrl-C during a run names the driver calls that were in progress."""

from __future__ import annotations

import pytest

from aalis_memory.conformance.harness.run_state import RunState


class CallsInFlight:
    """Ctrl-C during a run names the driver calls that were in progress (a plugin object: the
    interrupt hook is handed no config to find the run's state in)."""

    def __init__(self, state: RunState) -> None:
        self._state = state

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        calls = self._state.in_flight()
        if calls:
            lines = "\n".join(f"  {call}" for call in calls)
            print(f"\naalis-memory: interrupted during driver call(s):\n{lines}", flush=True)
