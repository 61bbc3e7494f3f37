"""The run's start: a driver the user named that cannot be provisioned is a usage error, before
any test runs, and the run's processes get one folder they all see."""

from __future__ import annotations

from pathlib import Path

import pytest

from aalis_memory.conformance.harness.run_state import RUN_STATE
from aalis_memory.conformance.harness.session_options import SESSION_OPTIONS
from aalis_memory.conformance.registration import registry
from aalis_memory.conformance.registration.selection import SELECTED, selected_drivers


def pytest_sessionstart(session: pytest.Session) -> None:
    """A driver the user named that cannot be provisioned (no server, a missing package) is a
    usage error, once, saying what was tried: a run that tested nothing must not end green.
    Drivers brought in by ``all`` may still skip."""
    config = session.config
    if config.stash.get(SELECTED, []):
        config.stash[RUN_STATE].shared = _shared_folder(config)
    named = [name for name in config.stash.get(SELECTED, []) if name != "all"]
    if not named or hasattr(config, "workerinput"):  # xdist workers: the controller checked
        return
    options = config.stash[SESSION_OPTIONS]
    for name in selected_drivers(config):
        registration = registry.get(name)
        if name not in named or registration.session_setup is None:
            continue
        try:
            options.for_driver(registration)
        except pytest.skip.Exception as exc:
            raise pytest.UsageError(
                f"--memory-driver={name}: the driver cannot be provisioned: {exc.msg}"
            ) from None


def _shared_folder(config: pytest.Config) -> Path | None:
    """A folder of this run that all its processes see: the base temporary folder (a
    pytest-xdist worker's is a subfolder of the controller's)."""
    factory = getattr(config, "_tmp_path_factory", None)
    if factory is None:
        return None
    base = Path(factory.getbasetemp())
    return (base.parent if hasattr(config, "workerinput") else base) / "aalis-memory-unusable"
