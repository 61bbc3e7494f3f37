"""``--memory-stdio-command``: the adapter process it starts becomes a driver of the run."""

from __future__ import annotations

import shlex
from typing import Final

import pytest

from aalis_memory.conformance.registration import registry
from aalis_memory.drivers.stdio import StdioBridgeError, stdio_driver
from aalis_memory.drivers.stdio.driver import probe

#: The name ``--memory-stdio-command`` registers its adapter under.
STDIO_DRIVER: Final = "stdio"


def register_stdio(command: str | None, names: list[str]) -> list[str]:
    """``--memory-stdio-command``: the adapter it starts becomes the driver ``stdio:NAME``, NAME
    being the one its handshake gives (the name handed to ``serve()``), so every output names
    the backend; ``--memory-driver=stdio`` (or that full name) selects it. The selected names,
    ``stdio`` replaced by the full one."""
    asked = [n for n in names if n == STDIO_DRIVER or n.startswith(f"{STDIO_DRIVER}:")]
    if command is None:
        if asked and not all(n in registry.registered() for n in asked):
            raise pytest.UsageError(
                f"--memory-driver={asked[0]}: give the adapter's command with "
                '--memory-stdio-command (e.g. --memory-stdio-command="node dist/adapter.js")'
            )
        return names
    argv = shlex.split(command)
    if not argv:
        raise pytest.UsageError("--memory-stdio-command: empty command")
    try:
        hello = probe(STDIO_DRIVER, argv)
        full = f"{STDIO_DRIVER}:{hello['adapter']}"
        stdio_driver(full, argv, hello=hello)
    except StdioBridgeError as exc:
        raise pytest.UsageError(f"--memory-stdio-command: the adapter failed its handshake: {exc}") from None
    wrong = [n for n in asked if n not in (STDIO_DRIVER, full)]
    if wrong:
        raise pytest.UsageError(
            f"--memory-driver={wrong[0]}: the adapter of --memory-stdio-command is {full!r}"
        )
    return list(dict.fromkeys(full if n in asked else n for n in names))
