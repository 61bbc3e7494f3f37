"""A driver's session resources (its registration's ``session_setup``: a server, a connection
string), entered once per run when its first test asks, and closed when the run ends."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any, Final

import pytest

from aalis_memory.conformance.registration.registry import DriverRegistration

SESSION_OPTIONS: Final = pytest.StashKey["SessionOptions"]()


class SessionOptions:
    """Per-driver session resources (``session_setup``), entered once, closed at the end."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._stack = contextlib.ExitStack()
        self._options: dict[str, Mapping[str, Any]] = {}
        self._skips: dict[str, str] = {}

    def for_driver(self, registration: DriverRegistration) -> Mapping[str, Any]:
        name = registration.name
        if name in self._skips:
            pytest.skip(self._skips[name])
        if name not in self._options:
            if registration.session_setup is None:
                self._options[name] = {}
            else:
                try:
                    self._options[name] = self._stack.enter_context(registration.session_setup(self._config))
                except pytest.skip.Exception as exc:
                    self._skips[name] = str(exc.msg)
                    raise
        return self._options[name]

    def close(self) -> None:
        self._stack.close()
