"""A run that selected no driver, in a project that registers its own: the summary says how to
run them (a user who forgot ``--memory-driver`` otherwise sees only their own tests pass)."""

from __future__ import annotations

from typing import Any

import pytest

from aalis_memory.conformance.registration import registry
from aalis_memory.conformance.registration.selection import SELECTED


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Drivers registered by the user's project but not selected: say how to run them."""
    if config.stash.get(SELECTED, []):
        return
    own = sorted(
        name
        for name, reg in registry.registered().items()
        if not getattr(reg.factory, "__module__", "").startswith("aalis_memory.")
    )
    if own:
        terminalreporter.write_line(
            f"aalis-memory: driver(s) {', '.join(own)} registered but none selected: run the "
            f"conformance suite with --memory-driver={','.join(own)}"
        )
