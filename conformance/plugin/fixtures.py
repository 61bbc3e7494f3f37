"""The fixtures a suite test takes: the store, its context, raw access, the clearing helper, the
scaling sizes, the run's state."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from aalis_memory.clearing import ClearNamespaces, clear_metadata_namespaces
from aalis_memory.conformance import steps
from aalis_memory.conformance.check import Check, checks_of, only_check
from aalis_memory.conformance.harness.adapters import opened_store, plant_raw
from aalis_memory.conformance.harness.run_state import RUN_STATE, RunState
from aalis_memory.conformance.harness.session_options import SESSION_OPTIONS
from aalis_memory.conformance.plugin.options import SCALING, STRICT
from aalis_memory.conformance.probes.scaling import ScalingSizes
from aalis_memory.conformance.registration import registry
from aalis_memory.conformance.registration.registry import (
    DriverContext,
    DriverRegistration,
    RawMetadataKind,
)
from aalis_memory.conformance.registration.requirements import unmet
from aalis_memory.conformance.verdicts import properties
from aalis_memory.conformance.verdicts.model import Verdict, skip


@pytest.fixture
def aalis_memory_loop() -> Iterator[asyncio.Runner]:
    """One event loop per test: the store is opened, used and closed on it."""
    with asyncio.Runner() as runner:
        yield runner


@pytest.fixture
def aalis_memory_registration(aalis_memory_driver: str) -> DriverRegistration:
    """The registration of the driver this test runs against."""
    return registry.get(aalis_memory_driver)


@pytest.fixture(scope="session")
def aalis_memory_folders(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """Makes each test's store its own new folder. Not pytest's ``tmp_path``: that one lists the
    whole base folder for the next free number every time, so a run of thousands of tests (the
    kit's own run of every broken driver holds 24,000) slowed down as it went."""
    base = tmp_path_factory.mktemp("aalis-memory")
    numbers = itertools.count()

    def folder(test: str) -> Path:
        made = base / f"{next(numbers):06d}-{re.sub(r'[^A-Za-z0-9_.-]', '_', test)[:40]}"
        made.mkdir()
        return made

    return folder


@pytest.fixture
def aalis_memory_run_state(request: pytest.FixtureRequest) -> RunState:
    """The run's state: the drivers the kit stopped using, the methods that hung, the calls in
    flight (:mod:`aalis_memory.conformance.harness.run_state`)."""
    return request.config.stash[RUN_STATE]


@pytest.fixture
def aalis_memory_ctx(
    request: pytest.FixtureRequest,
    aalis_memory_registration: DriverRegistration,
    aalis_memory_folders: Callable[[str], Path],
    aalis_memory_run_state: RunState,
) -> DriverContext:
    """The context handed to the driver factory."""
    cause = aalis_memory_run_state.unusable_cause(aalis_memory_registration.name)
    if cause is not None:
        pytest.skip(
            f"driver {aalis_memory_registration.name!r} {cause} (reported once, at the "
            "test where it happened)"
        )
    options = request.config.stash[SESSION_OPTIONS].for_driver(aalis_memory_registration)
    return DriverContext(
        name=aalis_memory_registration.name,
        tmp_path=aalis_memory_folders(request.node.name),
        options=dict(options),
        call_timeout=call_timeout(request.config),
    )


def call_timeout(config: pytest.Config) -> float | None:
    """The per-call limit in seconds (``None``: no limit)."""
    seconds = float(config.getoption("--memory-call-timeout"))
    return seconds if seconds > 0 else None


@pytest.fixture
def aalis_memory(
    request: pytest.FixtureRequest,
    aalis_memory_registration: DriverRegistration,
    aalis_memory_ctx: DriverContext,
    aalis_memory_loop: asyncio.Runner,
    aalis_memory_run_state: RunState,
) -> Iterator[Any]:
    """A fresh, empty store of the selected driver, async whatever the driver's style.

    While the test runs, its calls of methods its rules are not about are steps
    (:mod:`aalis_memory.conformance.steps`): a driver lacking a required method (REQ-01 fails)
    has every test judged that does not need the method, and the tests that do are blocked by
    REQ-01. It is ``Any`` here because it has
    exactly the methods the driver has; each test types it as the protocol whose methods it
    calls (``MemoryService``, or ``FullMemoryService`` for an optional one).
    """
    with opened_store(
        aalis_memory_registration, aalis_memory_ctx, aalis_memory_loop, state=aalis_memory_run_state
    ) as store:
        wanted = [str(arg) for mark in request.node.iter_markers("aalis_requires") for arg in mark.args]
        missing_requirement = unmet(wanted, aalis_memory_registration, store)
        if missing_requirement is not None:
            skip(*missing_requirement)
        with steps.judging(request.node, properties.spec_ids(request.node)):
            yield store


class RawAccess:
    """Reaches a store's storage without the API, through the driver's raw_metadata hook."""

    def __init__(self, registration: DriverRegistration, store: Any) -> None:
        self._registration = registration
        self._store = store

    async def plant_metadata(self, namespace: str, key: str, kind: RawMetadataKind) -> None:
        """Plant an unreadable entry; skip when this kind cannot exist in the backend."""
        if self._registration.raw_metadata is None:
            skip(
                Verdict.UNVERIFIED,
                f"no raw access (driver {self._registration.name!r} registers no raw_metadata hook)",
            )
        if not await plant_raw(self._registration, self._store, namespace, key, kind):
            skip(Verdict.UNVERIFIED, f"driver {self._registration.name!r} cannot hold a {kind} entry")


@pytest.fixture
def aalis_memory_raw(aalis_memory_registration: DriverRegistration, aalis_memory: Any) -> RawAccess:
    """Raw access to the store under test (tests using it say so when it is missing)."""
    return RawAccess(aalis_memory_registration, aalis_memory)


@pytest.fixture
def aalis_clear_helper() -> ClearNamespaces:
    """The clearing helper (``clear_metadata_namespaces``) the CLR-04..08 tests run over the
    store under test: the contract's own. A project that ships its own implementation of the
    helper overrides this fixture in its conftest.py, and the CLR rules judge that one."""
    return clear_metadata_namespaces


@pytest.fixture
def aalis_memory_scaling(
    request: pytest.FixtureRequest,
    aalis_memory_registration: DriverRegistration,
    aalis_memory_ctx: DriverContext,
) -> ScalingSizes:
    """The scaling probe's plan: the quick one unless ``--memory-scaling`` asks for the full one.
    A driver whose registration declares ``skip_quick_scaling`` is not run by the quick one (a
    skip without a verdict prefix: ``not run``, with its reason). Asked after the driver's
    context, so an unusable driver is reported as such first."""
    plan = request.config.stash[SCALING]
    reason = aalis_memory_registration.skip_quick_scaling
    if plan.quick and reason is not None:
        pytest.skip(
            f"driver {aalis_memory_registration.name!r} skips the quick scaling probe "
            f"(skip_quick_scaling): {reason}; --memory-scaling runs the full probe"
        )
    return plan


@pytest.fixture
def aalis_check(request: pytest.FixtureRequest) -> Check:
    """The checks of the rule the test's ``aalis_spec`` marker names, bound to it: the test
    names its rule there and nowhere else (:mod:`aalis_memory.conformance.check`)."""
    return only_check(properties.spec_ids(request.node), request.node.nodeid)


@pytest.fixture
def aalis_checks(request: pytest.FixtureRequest) -> tuple[Check, ...]:
    """One bound :class:`~aalis_memory.conformance.check.Check` per rule of a marker that names
    several, in the marker's order."""
    return checks_of(properties.spec_ids(request.node))


@pytest.fixture
def aalis_memory_strict(request: pytest.FixtureRequest) -> bool:
    return request.config.stash[STRICT]
