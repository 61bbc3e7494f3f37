"""The pytest plugin (entry point ``pytest11``): options, suite collection, driver fixtures.

This module is the one pytest registers: it holds every hook and fixture of its parts (the
options, :mod:`.options`, and the modules it names; the collection, :mod:`.collection`; the
fixtures, :mod:`.fixtures`; a failing stdio test's transcript, :mod:`.transcripts`).

``pytest --memory-driver=NAME`` in any directory adds the installed suite to the run and
parametrizes every suite test over the selected drivers. Without the option nothing is added.
"""

from __future__ import annotations

from aalis_memory.conformance.harness.session_options import SessionOptions
from aalis_memory.conformance.plugin.collection import (
    pytest_collect_directory,
    pytest_collect_file,
    pytest_collection_finish,
    pytest_collection_modifyitems,
    pytest_generate_tests,
    pytest_ignore_collect,
    pytest_pycollect_makemodule,
    pytest_pyfunc_call,
)
from aalis_memory.conformance.plugin.fixtures import (
    RawAccess,
    aalis_check,
    aalis_checks,
    aalis_clear_helper,
    aalis_memory,
    aalis_memory_ctx,
    aalis_memory_folders,
    aalis_memory_loop,
    aalis_memory_raw,
    aalis_memory_registration,
    aalis_memory_run_state,
    aalis_memory_scaling,
    aalis_memory_strict,
)
from aalis_memory.conformance.plugin.hint import pytest_terminal_summary
from aalis_memory.conformance.plugin.interrupt import CallsInFlight
from aalis_memory.conformance.plugin.options import (
    pytest_addoption,
    pytest_configure,
    pytest_report_header,
    pytest_unconfigure,
)
from aalis_memory.conformance.plugin.provisioning import pytest_sessionstart
from aalis_memory.conformance.plugin.transcripts import pytest_runtest_makereport
from aalis_memory.conformance.registration.selection import selected_drivers

#: The provider half of the kit (``--memory-compression-provider``) lives in its own plugin module;
#: what the kit does about other plugins of the run, in another (its hook must run first).
pytest_plugins = [
    "aalis_memory.conformance.compression.plugin",
    "aalis_memory.conformance.plugin.other_plugins",
]

__all__ = [
    "CallsInFlight",
    "RawAccess",
    "SessionOptions",
    "aalis_check",
    "aalis_checks",
    "aalis_clear_helper",
    "aalis_memory",
    "aalis_memory_ctx",
    "aalis_memory_folders",
    "aalis_memory_loop",
    "aalis_memory_raw",
    "aalis_memory_registration",
    "aalis_memory_run_state",
    "aalis_memory_scaling",
    "aalis_memory_strict",
    "pytest_addoption",
    "pytest_collect_directory",
    "pytest_collect_file",
    "pytest_collection_finish",
    "pytest_collection_modifyitems",
    "pytest_configure",
    "pytest_generate_tests",
    "pytest_ignore_collect",
    "pytest_pycollect_makemodule",
    "pytest_pyfunc_call",
    "pytest_report_header",
    "pytest_runtest_makereport",
    "pytest_sessionstart",
    "pytest_terminal_summary",
    "pytest_unconfigure",
    "selected_drivers",
]
