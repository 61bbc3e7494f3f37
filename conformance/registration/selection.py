"""Which registered drivers a run tests: the names it asks for (``--memory-driver``, else the
ini file's ``aalis_memory_drivers``), kept once each, and the selection they make of the
registry (``all`` expanded). The suite, the provider kit and the MongoDB fixtures read it, so
it lives with the registry, above them all."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import pytest

from aalis_memory.conformance.registration import registry

#: The names the run selects, as given (``stdio`` replaced by its adapter's full name).
SELECTED: Final = pytest.StashKey[list[str]]()


def requested_drivers(config: pytest.Config) -> list[str]:
    """The driver names the run asks for, as given: ``--memory-driver``, else the ini file's."""
    return split_names(config.getoption("--memory-driver")) or split_names(
        config.getini("aalis_memory_drivers")
    )


def split_names(values: list[str]) -> list[str]:
    """The names of a repeatable option of comma lists (or an ini line list), in order, once each."""
    names: list[str] = []
    for value in values:
        for name in value.split(","):
            name = name.strip()
            if name and name not in names:
                names.append(name)
    return names


def selected_drivers(config: pytest.Config) -> list[str]:
    """The selected driver names, ``all`` expanded; unknown names are a usage error."""
    return select_or_usage_error(registry.select, config.stash[SELECTED], "--memory-driver")


def select_or_usage_error(
    select: Callable[[list[str]], list[str]], names: list[str], option: str
) -> list[str]:
    try:
        return select(names)
    except LookupError as exc:
        raise pytest.UsageError(f"{option}: {exc}") from None
