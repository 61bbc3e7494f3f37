"""Driver registration: how a backend enters the kit.

A driver is an async (or sync) generator factory that yields a fresh, empty store for one test
and cleans up after it. It is registered with :func:`memory_driver` in a ``conftest.py`` or
exposed through the ``aalis_memory.drivers`` entry-point group.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Final, Literal, TypeAlias

import attrs

from aalis_memory.conformance.registration.named_registry import NamedRegistry
from aalis_memory.conformance.registration.tiers import check_granted

Ordering: TypeAlias = Literal["timestamp", "write"]
MetadataAtomicity: TypeAlias = Literal["atomic", "ordered"]
ArchiveAtomicity: TypeAlias = Literal["atomic", "partial"]
DocumentedBackend: TypeAlias = Literal["inmemory", "sqlite", "mongodb"]

ENTRY_POINT_GROUP: Final = "aalis_memory.drivers"

#: Default per-call time limit in seconds (``--memory-call-timeout``).
DEFAULT_CALL_TIMEOUT: Final = 10.0

#: Caps the kit hands to drivers: small, so truncation is cheap to exercise.
KIT_RANGE_QUERY_LIMIT: Final = 7
KIT_CROSS_SESSION_MAX_LIMIT: Final = 5


def _one_of(*allowed: str) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    def check(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value not in allowed:
            raise ValueError(f"{attribute.name} must be one of {allowed}, got {value!r}")

    return check


@attrs.frozen(kw_only=True)
class Capabilities:
    """The tiers a driver declares; the kit then proves them rather than trusting them."""

    ordering: Ordering = attrs.field(default="timestamp", validator=_one_of("timestamp", "write"))
    metadata_atomicity: MetadataAtomicity = attrs.field(
        default="atomic", validator=_one_of("atomic", "ordered")
    )
    archive_atomicity: ArchiveAtomicity = attrs.field(
        default="atomic", validator=_one_of("atomic", "partial")
    )
    #: Whether the backend cuts a session range read at a cap (``ctx.range_query_limit``).
    #: ``False`` declares a backend with no range cap: the cap's rule (RANGE-01, which binds
    #: only backends with one) is then reported ``excluded by tier``. The MongoDB backend of the
    #: documents always has one.
    range_cap: bool = attrs.field(default=True, validator=attrs.validators.instance_of(bool))


@attrs.frozen(kw_only=True)
class DriverContext:
    """What the kit gives a driver factory for one test."""

    name: str
    tmp_path: Path
    range_query_limit: int = KIT_RANGE_QUERY_LIMIT
    cross_session_max_limit: int = KIT_CROSS_SESSION_MAX_LIMIT
    #: Driver-specific settings the plugin resolved (e.g. a MongoDB URI); empty by default.
    options: dict[str, Any] = attrs.field(factory=dict)
    #: The kit gives up on a driver call after this many seconds (``None``: never); opening and
    #: closing a store get several times as long. A driver may size its own timeouts by it.
    call_timeout: float | None = DEFAULT_CALL_TIMEOUT


#: Raw payload kinds the kit may plant to check that reads survive unreadable entries.
RawMetadataKind: TypeAlias = Literal["not-json", "not-object"]

#: ``raw_metadata(store, namespace, key, kind)`` plants an unreadable entry bypassing the API.
#: It returns ``False`` when that kind cannot exist in the backend (e.g. BSON is never "not JSON").
RawMetadataHook: TypeAlias = Callable[[Any, str, str, RawMetadataKind], Awaitable[bool] | bool]

DriverFactory: TypeAlias = Callable[
    [DriverContext], AsyncIterator[Any] | Iterator[Any]
]


SessionSetup: TypeAlias = Callable[[Any], AbstractContextManager[Mapping[str, Any]]]

#: ``crash_cleanup(ctx)``: see :attr:`DriverRegistration.crash_cleanup`.
CrashCleanup: TypeAlias = Callable[[DriverContext], Awaitable[None] | None]


@attrs.frozen(kw_only=True)
class DriverRegistration:
    """A named driver: its factory, declared tiers, and optional raw-access hook."""

    name: str
    factory: DriverFactory
    capabilities: Capabilities = attrs.field(factory=Capabilities)
    raw_metadata: RawMetadataHook | None = None
    #: Entered once per test session before the driver's first test; what it yields becomes
    #: ``DriverContext.options`` (e.g. the URI of a server it started). Raising
    #: ``pytest.skip.Exception`` in it skips every test of the driver with that reason.
    session_setup: SessionSetup | None = None
    description: str = ""
    #: Which backend of the documents this driver is ("inmemory", "sqlite", "mongodb"), if any:
    #: the documents grant some weaker tiers to one backend only (see ``conformance.tiers``).
    documented_backend: DocumentedBackend | None = None
    #: Rules this driver is known to break, with the reason: reported ``known failure`` without
    #: failing the run; a listed rule that passes fails the run (remove the entry).
    known_failures: Mapping[str, str] = attrs.field(factory=dict)
    #: Declares the driver durable. A generator factory shaped like ``factory`` that opens the
    #: store kept under ``ctx.tmp_path`` *as it is*. Per kill, with a new empty folder as
    #: ``ctx.tmp_path``: a child process calls it on the empty folder (it must create the store
    #: there) and writes until it is SIGKILLed; then the kit's process calls it on the folder the
    #: killed writer left, checks the store and closes it. It must be a module-level function
    #: importable by its module name or source file. A hook that raises leaves the crash rules
    #: ``unverified``, with its exception.
    reopen: DriverFactory | None = None
    #: Optional, with ``reopen``: ``crash_cleanup(ctx)`` (sync or async) is called in the kit's
    #: process after each kill, once the reopened store is closed (also when the kill could not
    #: be judged), with that kill's ``ctx``: drop what a killed writer left outside
    #: ``ctx.tmp_path`` (a server's database named after it, locks, sessions).
    crash_cleanup: CrashCleanup | None = None
    #: Why the driver cannot afford the quick scaling probe (PERF-01) that runs by default
    #: (filling 8,100 messages is too slow on its server, say): PERF-01 is then reported
    #: ``not run`` with this reason, unless ``--memory-scaling`` asks for the full probe.
    skip_quick_scaling: str | None = None

    def __attrs_post_init__(self) -> None:
        # A tier the documents grant only to another backend, declared with documented_backend
        # naming this one, contradicts the registration itself: refused here, so that it
        # surfaces where the driver is registered (a conftest, an entry point, a bridge).
        check_granted(self.name, self.capabilities, self.documented_backend)
        if self.crash_cleanup is not None and self.reopen is None:
            raise ValueError(f"memory driver {self.name!r}: crash_cleanup= needs reopen= (it "
                             "cleans up after the crash tests, which only a durable driver has)")
        reason = self.skip_quick_scaling
        if reason is not None and not (isinstance(reason, str) and reason.strip()):
            raise ValueError(f"memory driver {self.name!r}: skip_quick_scaling= takes the reason "
                             f"the quick scaling probe cannot run (a non-empty str), got {reason!r}")


_REGISTRY: NamedRegistry[DriverRegistration] = NamedRegistry(
    "memory driver", ENTRY_POINT_GROUP, DriverRegistration, "@memory_driver"
)
add_registration = _REGISTRY.add
load_entry_points = _REGISTRY.load_entry_points
conflicts = _REGISTRY.conflicts
registered = _REGISTRY.registered
get = _REGISTRY.get
select = _REGISTRY.select


def memory_driver(
    name: str,
    *,
    capabilities: Capabilities | None = None,
    raw_metadata: RawMetadataHook | None = None,
    session_setup: SessionSetup | None = None,
    description: str = "",
    documented_backend: DocumentedBackend | None = None,
    known_failures: Mapping[str, str] | None = None,
    reopen: DriverFactory | None = None,
    crash_cleanup: CrashCleanup | None = None,
    skip_quick_scaling: str | None = None,
) -> Callable[[DriverFactory], DriverRegistration]:
    """Register a driver factory under ``name`` (use in a ``conftest.py``).

    Returns the registration itself, so the same object can also be the target of an entry point.
    ``reopen`` declares the driver durable (see :attr:`DriverRegistration.reopen`, and
    :attr:`DriverRegistration.crash_cleanup`). ``skip_quick_scaling``: why the driver cannot
    afford the quick scaling probe run by default (see
    :attr:`DriverRegistration.skip_quick_scaling`).
    """

    def register(factory: DriverFactory) -> DriverRegistration:
        if not (inspect.isasyncgenfunction(factory) or inspect.isgeneratorfunction(factory)):
            raise TypeError(
                f"memory driver {name!r}: the factory must be a generator function that yields "
                "one fresh store (async def ... yield, or def ... yield)"
            )
        registration = DriverRegistration(
            name=name,
            factory=factory,
            capabilities=capabilities or Capabilities(),
            raw_metadata=raw_metadata,
            session_setup=session_setup,
            description=description or (inspect.getdoc(factory) or "").split("\n")[0],
            documented_backend=documented_backend,
            known_failures=dict(known_failures or {}),
            reopen=reopen,
            crash_cleanup=crash_cleanup,
            skip_quick_scaling=skip_quick_scaling,
        )
        add_registration(registration)
        return registration

    return register
