"""Deliberately broken drivers: each breaks named rules, and the suite must catch exactly those.

A broken driver is a subclass of a reference driver with one behaviour changed. Declare it with
:func:`broken` in a module of this package listed in ``MODULES``; ``plugin.py`` registers every one
as ``broken-<name>`` and ``tests/test_broken_drivers.py`` runs the whole suite against them.
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, Callable
from typing import Any, Final, TypeVar

import attrs

from aalis_memory.conformance.registry import Capabilities, DriverContext, DriverRegistration
from aalis_memory.drivers.registrations import plant_inmemory

#: Modules that declare broken drivers (one per rule group, each owned by its suite module).
MODULES: Final = ("messages", "metadata", "clearing", "masking")

INMEMORY_CAPS: Final = Capabilities(
    ordering="write", metadata_atomicity="atomic", archive_atomicity="atomic"
)

C = TypeVar("C", bound=type)


@attrs.frozen
class Broken:
    name: str
    #: Exactly the rule IDs the strict suite must report as failing for this driver.
    breaks: frozenset[str]
    store_class: type
    capabilities: Capabilities
    why: str
    #: Declared rules no example test reaches for this driver, only the state machine (its
    #: check is tests/test_state_machine_catches_broken.py); the example suite must flag the rest.
    examples_miss: frozenset[str] = frozenset()


BROKEN: dict[str, Broken] = {}


def broken(
    name: str, *rule_ids: str, capabilities: Capabilities = INMEMORY_CAPS,
    examples_miss: tuple[str, ...] = (),
) -> Callable[[C], C]:
    """Declare ``cls`` (a store class taking the reference keyword arguments) as broken."""

    def register(cls: C) -> C:
        if name in BROKEN:
            raise ValueError(f"broken driver {name!r} declared twice")
        if not rule_ids:
            raise ValueError(f"broken driver {name!r} must name the rules it breaks")
        if not set(examples_miss) <= set(rule_ids):
            raise ValueError(f"broken driver {name!r}: examples_miss names undeclared rules")
        doc = (cls.__doc__ or "").strip().split("\n")[0]
        BROKEN[name] = Broken(name, frozenset(rule_ids), cls, capabilities, doc,
                              frozenset(examples_miss))
        return cls

    return register


def load_all() -> dict[str, Broken]:
    for module in MODULES:
        importlib.import_module(f"broken_drivers.{module}")
    return BROKEN


def registration(entry: Broken) -> DriverRegistration:
    """``entry`` as the driver ``broken-NAME`` (``plugin.py`` adds every one to the registry)."""

    async def factory(ctx: DriverContext) -> AsyncIterator[Any]:
        store = entry.store_class(
            range_query_limit=ctx.range_query_limit,
            cross_session_max_limit=ctx.cross_session_max_limit,
        )
        yield store
        await store.close()

    return DriverRegistration(
        name=f"broken-{entry.name}",
        factory=factory,
        capabilities=entry.capabilities,
        raw_metadata=plant_inmemory if hasattr(entry.store_class, "plant_raw_metadata") else None,
        description=entry.why,
    )
