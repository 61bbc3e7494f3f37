"""What the kit does about other plugins of a run: only what a run of its suites needs.

pytest-asyncio warns in every run, from its own ``pytest_configure``, while its
``asyncio_default_fixture_loop_scope`` option is unset: a ``PytestDeprecationWarning`` about the
event loop of *async fixtures*, and an internal error under ``-W error`` (which
``tox -e conformance`` and many CI jobs run with). The kit's suites use no pytest-asyncio fixture
and run their tests on their own loop (:class:`~.collection.SuiteModule`), so in a run of them the
warning is about nothing the run does, and an author running them from an empty folder has no
configuration file to set the option in.

So in a run that selects a driver or a compression provider, the kit ignores that one warning
(by category, message and module) before pytest-asyncio's hook emits it. It does not set the
option instead: pytest has no public way for a plugin to set another plugin's ini value
(``config.inicfg`` is deprecated since pytest 9), and any value it picked would change how the
project's own async fixtures run (``function`` breaks a module-scoped one; ``fixture-scope``, the
behaviour of the unset option, exists only in recent pytest-asyncio). A run without the kit's
suites is left alone, so the project's own test runs still get pytest-asyncio's advice; a project
that sets the option never meets the filter.
"""

from __future__ import annotations

import warnings
from typing import Final

import pytest

from aalis_memory.conformance.compression.plugin import requested_providers
from aalis_memory.conformance.registration.selection import requested_drivers

#: The start of pytest-asyncio's warning about its unset option (0.24 to 1.x; the rest of the
#: text has changed between versions).
ASYNCIO_LOOP_SCOPE_UNSET: Final = 'The configuration option "asyncio_default_fixture_loop_scope" is unset'


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Runs before pytest-asyncio's ``pytest_configure``, so the filter is in place when it
    warns. pytest calls the configure hooks inside its own ``warnings.catch_warnings``: the
    filter does not outlive the run."""
    if requested_drivers(config) or requested_providers(config):
        warnings.filterwarnings(
            "ignore",
            message=ASYNCIO_LOOP_SCOPE_UNSET,
            category=pytest.PytestDeprecationWarning,
            module=r"pytest_asyncio\.",
        )
