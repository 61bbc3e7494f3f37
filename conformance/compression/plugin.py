"""pytest plugin part for providers: ``--memory-compression-provider``, parametrization, fixtures.

Loaded by the main plugin. Without a selected provider the provider suite is not collected, so
a plain ``--memory-driver`` run checks storage only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import pytest

from aalis_memory.conformance.compression import (
    reference,  # noqa: F401 - registers the reference provider
    registry,
)
from aalis_memory.conformance.compression.harness import Harness
from aalis_memory.conformance.compression.registry import ProviderRegistration
from aalis_memory.conformance.registration.selection import select_or_usage_error, split_names
from aalis_memory.conformance.suites import PROVIDER

SELECTED: Final = pytest.StashKey[list[str]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("aalis-memory", "Aalis MemoryService conformance")
    group.addoption(
        "--memory-compression-provider",
        action="append",
        default=[],
        metavar="NAME",
        help="also run the compression provider suite against provider NAME (repeatable, comma "
        "lists, 'all'; the reference provider is 'summary')",
    )
    parser.addini(
        "aalis_compression_providers", "providers to run without --memory-compression-provider", "linelist"
    )


def pytest_configure(config: pytest.Config) -> None:
    registry.load_entry_points()
    config.stash[SELECTED] = requested_providers(config)


def requested_providers(config: pytest.Config) -> list[str]:
    """The provider names the run asks for, as given: ``--memory-compression-provider``, else
    the ini file's."""
    return split_names(config.getoption("--memory-compression-provider")) or split_names(
        config.getini("aalis_compression_providers")
    )


def selected_providers(config: pytest.Config) -> list[str]:
    return select_or_usage_error(registry.select, config.stash[SELECTED], "--memory-compression-provider")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The provider suite (:data:`~aalis_memory.conformance.suites.PROVIDER`) is collected only
    when a provider is selected: without one, nothing in its folder is."""
    if not config.stash[SELECTED] and collection_path.resolve().is_relative_to(PROVIDER.folder):
        return True
    return None


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "aalis_compression_provider" in metafunc.fixturenames:
        names = selected_providers(metafunc.config)
        metafunc.parametrize("aalis_compression_provider", names, ids=names)


@pytest.fixture
def aalis_compression_registration(aalis_compression_provider: str) -> ProviderRegistration:
    return registry.get(aalis_compression_provider)


@pytest.fixture
def aalis_compression(aalis_memory: Any, aalis_compression_registration: ProviderRegistration) -> Harness:
    """Builds the provider under test over ``memory`` with the kit's scripted summarizer."""
    return Harness(aalis_memory, aalis_compression_registration)
