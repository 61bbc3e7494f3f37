"""Driver registration: how a backend enters the kit.

A driver is an async (or sync) generator factory that yields a fresh, empty store for one test
and cleans up after it. It is registered with :func:`memory_driver` in a ``conftest.py`` or
exposed through the ``aalis_memory.drivers`` entry-point group. A server backend whose new store
costs a schema or a database may add a cheaper way to an empty store (``fresh=``, checked by the
kit: :mod:`aalis_memory.conformance.harness.fresh`).
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

#: The orders a history may come in (:attr:`Capabilities.ordering`).
Ordering: TypeAlias = Literal["timestamp", "write"]
#: How a ``commit_metadata`` batch is applied (:attr:`Capabilities.metadata_atomicity`).
MetadataAtomicity: TypeAlias = Literal["atomic", "ordered"]
#: How an ``archive_span`` is applied (:attr:`Capabilities.archive_atomicity`).
ArchiveAtomicity: TypeAlias = Literal["atomic", "partial"]
#: The backends the contract's documents describe (:attr:`DriverRegistration.documented_backend`).
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

    #: How a session's history is ordered: ``"timestamp"`` (by timestamp, one millisecond by
    #: write order) or ``"write"`` (write order only, which the documents grant the in-memory
    #: backend: it assumes timestamps grow with writes). Under ``"write"`` the checks of
    #: timestamp order are reported ``excluded by tier``.
    ordering: Ordering = attrs.field(default="timestamp", validator=_one_of("timestamp", "write"))
    #: How ``commit_metadata`` applies a batch: ``"atomic"`` (all or nothing whatever error makes
    #: it raise, COMMIT-04; never seen in part by a concurrent reader, COMMIT-05; whole or absent
    #: after a crash, CRASH-02) or ``"ordered"`` (op by op, stopping at the first error with the
    #: ops before it applied, which the documents grant the MongoDB backend).
    metadata_atomicity: MetadataAtomicity = attrs.field(
        default="atomic", validator=_one_of("atomic", "ordered")
    )
    #: How ``archive_span`` archives its span: ``"atomic"`` (never seen in part by a concurrent
    #: reader, ARCH-10, nor after a crash, CRASH-02) or ``"partial"`` (it may be, which the
    #: documents grant the MongoDB backend: one ``updateMany``, not a transaction).
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

    #: The driver's registered name (the one ``--memory-driver`` selects).
    name: str
    #: A new, empty folder for this store alone (one per test, per store of a state-machine
    #: history, per kill of the crash tests): keep a file-backed store under it, name a server's
    #: database after it. The kit never hands it out twice.
    tmp_path: Path
    #: The range cap to open the store with: a session range read returns at most this many
    #: messages, the earliest (RANGE-01). Small on purpose, so truncation is cheap to check.
    range_query_limit: int = KIT_RANGE_QUERY_LIMIT
    #: The cap to open the store with on a cross-session read's ``limit`` (CROSS-01, LIM-04).
    #: Small on purpose, like ``range_query_limit``.
    cross_session_max_limit: int = KIT_CROSS_SESSION_MAX_LIMIT
    #: What the driver's ``session_setup`` yielded (e.g. a MongoDB URI); empty without one.
    options: dict[str, Any] = attrs.field(factory=dict)
    #: The kit gives up on a driver call after this many seconds (``--memory-call-timeout``;
    #: ``None``: never); opening and closing a store get several times as long. A driver may size
    #: its own timeouts by it.
    call_timeout: float | None = DEFAULT_CALL_TIMEOUT


#: Raw payload kinds the kit may plant to check that reads survive unreadable entries.
RawMetadataKind: TypeAlias = Literal["not-json", "not-object"]

#: ``raw_metadata(store, namespace, key, kind)`` (plain or ``async``) plants an unreadable entry
#: bypassing the API. It returns ``False`` when that kind cannot exist in the backend (e.g. BSON
#: is never "not JSON").
RawMetadataHook: TypeAlias = Callable[[Any, str, str, RawMetadataKind], Awaitable[bool] | bool]

#: A driver factory: a generator function (``async def`` or ``def``) that takes the test's
#: :class:`DriverContext`, yields one fresh, empty store and closes it after the test. The kit
#: calls it once per test (and once per store of a state-machine history).
DriverFactory: TypeAlias = Callable[[DriverContext], AsyncIterator[Any] | Iterator[Any]]


#: ``session_setup(config)``: given the ``pytest.Config``, returns a context manager whose
#: value is a mapping (see :attr:`DriverRegistration.session_setup`).
SessionSetup: TypeAlias = Callable[[Any], AbstractContextManager[Mapping[str, Any]]]

#: ``crash_cleanup(ctx)``: see :attr:`DriverRegistration.crash_cleanup`.
CrashCleanup: TypeAlias = Callable[[DriverContext], Awaitable[None] | None]


@attrs.frozen(kw_only=True)
class DriverRegistration:
    """What :func:`memory_driver` returns and an entry point points at: a named driver, its
    factory, its declared tiers and its optional hooks."""

    #: The name ``--memory-driver=NAME`` selects; an entry point registers the object under the
    #: entry point's own name instead.
    name: str
    #: The decorated generator function that opens a fresh store for each test.
    factory: DriverFactory
    #: The tiers the driver declares (the strongest by default); the kit proves them.
    capabilities: Capabilities = attrs.field(factory=Capabilities)
    #: Raw access, optional: ``raw_metadata(store, namespace, key, kind)``, a plain or an
    #: ``async`` function, writes an unreadable metadata entry (``kind`` "not-json" or
    #: "not-object") straight into the storage of ``store`` (the object the factory yielded),
    #: bypassing the API, and returns ``True``; ``False`` when the backend cannot hold that kind
    #: (BSON is never "not JSON"); any other value is an error. The kit calls it in the middle of
    #: the tests of META-09, META-10, COMMIT-06 and CLR-06..08 (and of state-machine histories);
    #: without it those rules are ``unverified``.
    raw_metadata: RawMetadataHook | None = None
    #: ``session_setup(config)``, optional: given the ``pytest.Config``, it returns a context
    #: manager, entered once per test session before the driver's first test (at the session's
    #: start when the driver is named) and left at its end; the mapping it yields becomes
    #: ``DriverContext.options`` (e.g. the URI of a server it started). Raising
    #: ``pytest.skip.Exception`` in it skips every test of the driver with that reason (a usage
    #: error when the driver was named with ``--memory-driver``).
    session_setup: SessionSetup | None = None
    #: One line about the backend (by default the first line of the factory's docstring), kept
    #: on the registration for whoever lists drivers.
    description: str = ""
    #: Which backend of the documents this driver is ("inmemory", "sqlite", "mongodb"), if any:
    #: the documents grant some weaker tiers to one backend only. Named, it may declare that
    #: backend's and no other's (another is refused at registration: ``UngrantedTier``); unset,
    #: a tier the documents grant one backend only is warned about in the header and summary.
    documented_backend: DocumentedBackend | None = None
    #: Rules this driver is known to break, with the reason: reported ``known failure`` without
    #: failing the run; a listed rule that passes fails the run (remove the entry).
    known_failures: Mapping[str, str] = attrs.field(factory=dict)
    #: Declares the driver durable. A generator factory shaped like ``factory`` that opens the
    #: store named by ``ctx.tmp_path`` (kept in that folder, or on a server under a name made
    #: from it) as it is, creating it empty when there is none. Per kill, with a new empty folder
    #: as ``ctx.tmp_path``: a writer (a child process) calls it on that folder, so it creates the
    #: store, and writes until it is SIGKILLed; then the kit's process calls it again with the
    #: same ``ctx``, checks the store the killed writer left and closes it. It must be a
    #: module-level function importable by its module name or source file. A hook that raises
    #: for the writer leaves the crash rules ``unverified``, with its exception.
    reopen: DriverFactory | None = None
    #: Optional, with ``reopen``: ``crash_cleanup(ctx)`` (sync or async) is called in the kit's
    #: process after each kill, once the reopened store is closed (also when the kill could not
    #: be judged), with that kill's ``ctx`` (the same ``tmp_path`` the writer had): drop what the
    #: killed writer left outside ``ctx.tmp_path`` (a server's schema or database named after
    #: it, its server sessions, locks).
    crash_cleanup: CrashCleanup | None = None
    #: Optional: a cheaper way to a fresh store, a generator factory shaped like ``factory``
    #: (async or sync, independently of it) that may reuse storage: a pooled schema emptied
    #: between tests, a database cloned from a template. When it is given, the kit opens the
    #: store of every test with it instead of ``factory`` and checks that the store is empty
    #: before the test sees anything in it (:mod:`aalis_memory.conformance.harness.fresh`); a
    #: store that is not is a usage error, and the kit then opens the driver's later stores with
    #: ``factory``. It is never used for the crash tests' stores (``reopen``).
    fresh: DriverFactory | None = None
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
            raise ValueError(
                f"memory driver {self.name!r}: crash_cleanup= needs reopen= (it "
                "cleans up after the crash tests, which only a durable driver has)"
            )
        reason = self.skip_quick_scaling
        if reason is not None and not (isinstance(reason, str) and reason.strip()):
            raise ValueError(
                f"memory driver {self.name!r}: skip_quick_scaling= takes the reason "
                f"the quick scaling probe cannot run (a non-empty str), got {reason!r}"
            )


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
    fresh: DriverFactory | None = None,
    skip_quick_scaling: str | None = None,
) -> Callable[[DriverFactory], DriverRegistration]:
    """Register a driver factory under ``name`` (use in a ``conftest.py``).

    Returns the registration itself, so the same object can also be the target of an entry point.
    ``reopen`` declares the driver durable (see :attr:`DriverRegistration.reopen`, and
    :attr:`DriverRegistration.crash_cleanup`); ``fresh`` is a cheaper factory of empty stores
    (:attr:`DriverRegistration.fresh`). ``skip_quick_scaling``: why the driver cannot afford the
    quick scaling probe run by default (see :attr:`DriverRegistration.skip_quick_scaling`).
    """

    def register(factory: DriverFactory) -> DriverRegistration:
        for what, given in (("the factory", factory), ("fresh=", fresh)):
            if given is not None and not (
                inspect.isasyncgenfunction(given) or inspect.isgeneratorfunction(given)
            ):
                raise TypeError(
                    f"memory driver {name!r}: {what} must be a generator function that yields "
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
            fresh=fresh,
            skip_quick_scaling=skip_quick_scaling,
        )
        add_registration(registration)
        return registration

    return register
