"""Deliberately broken drivers: each breaks named rules, and the suite must catch exactly those.

A broken driver is a subclass of a reference driver with one behaviour changed. Declare it with
:func:`broken` in a module of this package listed in ``MODULES``; ``plugin.py`` registers every one
as ``broken-<name>`` and ``tests/proofs/test_broken_drivers.py`` runs the whole suite against them.

A subclass that overrides a whole method would also drop the reference driver's argument checks
and so break the hostile-input rules by accident; every broken store is therefore run behind
:class:`ArgumentChecks`, the reference drivers' own checks, unless it declares
``checks_arguments=False`` (the broken drivers whose bug *is* a missing check).
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Final, TypeVar

import attrs

from aalis_memory.conformance.harness.sync import CONTRACT_METHODS
from aalis_memory.conformance.registration.registry import Capabilities, DriverContext, DriverRegistration
from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.registrations import plant_inmemory
from aalis_memory.types import MetadataPut

#: Modules that declare broken drivers (one per rule group, each owned by its suite module).
MODULES: Final = (
    "messages",
    "metadata",
    "clearing",
    "catalogue",
    "robustness",
    "strength",
    "masking",
    "cascades",
    "cross_session",
    "aspects",
    "misses",
    "slow",
)

INMEMORY_CAPS: Final = Capabilities(ordering="write", metadata_atomicity="atomic", archive_atomicity="atomic")

C = TypeVar("C", bound=type)


@attrs.frozen
class Broken:
    name: str
    #: Exactly the rule IDs the strict suite must report as failing for this driver.
    breaks: frozenset[str]
    store_class: type
    capabilities: Capabilities
    why: str
    #: Run behind :class:`ArgumentChecks` (see the module docstring).
    checks_arguments: bool = True
    #: Declared rules no example test reaches for this driver, only the state machine (its
    #: check is tests/proofs/test_state_machine_catches_broken.py); the example suite must flag the rest.
    examples_miss: frozenset[str] = frozenset()
    #: Its bug shows only under the scaling probe's load: the quick probe runs for it.
    under_load: bool = False


BROKEN: dict[str, Broken] = {}


def broken(
    name: str,
    *rule_ids: str,
    capabilities: Capabilities = INMEMORY_CAPS,
    checks_arguments: bool = True,
    examples_miss: tuple[str, ...] = (),
    under_load: bool = False,
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
        BROKEN[name] = Broken(
            name,
            frozenset(rule_ids),
            cls,
            capabilities,
            doc,
            checks_arguments,
            frozenset(examples_miss),
            under_load,
        )
        return cls

    return register


def load_all() -> dict[str, Broken]:
    for module in MODULES:
        importlib.import_module(f"broken_drivers.{module}")
    return BROKEN


#: Why a broken driver that does not declare PERF-01 skips the quick scaling probe: its bug is
#: elsewhere, and its other code reads plainly, a scan here and there (a scan is what PERF-01
#: would see, a second bug where the driver declares one).
NOT_FOR_SPEED: Final = (
    "a one-bug driver whose other code is written plainly, not for speed "
    "(the slow ones of broken_drivers.slow run the probe)"
)


def registration(entry: Broken) -> DriverRegistration:
    """``entry`` as the driver ``broken-NAME`` (``plugin.py`` adds every one to the registry)."""
    return store_registration(
        f"broken-{entry.name}",
        entry.store_class,
        entry.capabilities,
        entry.why,
        checks_arguments=entry.checks_arguments,
        raw=hasattr(entry.store_class, "plant_raw_metadata"),
        skip_quick_scaling=None if "PERF-01" in entry.breaks or entry.under_load else NOT_FOR_SPEED,
    )


def store_registration(
    name: str,
    store_class: type,
    capabilities: Capabilities,
    description: str,
    *,
    checks_arguments: bool = True,
    raw: bool = True,
    skip_quick_scaling: str | None = None,
) -> DriverRegistration:
    """A store class taking the reference keyword arguments as the driver ``name``, behind the
    reference argument checks unless ``checks_arguments`` is off, with raw access if ``raw``
    (``skip_quick_scaling``: see ``DriverRegistration``)."""

    async def factory(ctx: DriverContext) -> AsyncIterator[Any]:
        store = store_class(
            range_query_limit=ctx.range_query_limit,
            cross_session_max_limit=ctx.cross_session_max_limit,
        )
        yield ArgumentChecks(store) if checks_arguments else store
        await store.close()

    return DriverRegistration(
        name=name,
        factory=factory,
        capabilities=capabilities,
        raw_metadata=plant_inmemory if raw else None,
        description=description,
        skip_quick_scaling=skip_quick_scaling,
    )


def _session(session_id: object, *_: object, **__: object) -> None:
    sem.check_session_id(session_id)


def _save_message(session_id: object, message: object, *_: object, **__: object) -> None:
    sem.prepare_message(session_id, message)


def _key(namespace: object, key: object, *_: object, **__: object) -> None:
    sem.check_key(namespace, key)


def _namespace(namespace: object, *_: object, **__: object) -> None:
    sem.check_namespace(namespace)


def _save_metadata(namespace: object, key: object, data: object, *_: object, **__: object) -> None:
    sem.check_ops([MetadataPut(*sem.check_key(namespace, key), data)])  # type: ignore[arg-type]
    _payload_is_object(data)


def _commit(ops: object, *_: object, **__: object) -> None:
    for op in sem.check_ops(ops):
        if isinstance(op, MetadataPut):
            _payload_is_object(op.data)


def _payload_is_object(data: object) -> None:
    """The payload's type only: its contents are what the metadata broken drivers get wrong."""
    if not isinstance(data, dict):
        raise TypeError(f"metadata data must be a dict, got {type(data).__name__}")


def _range(
    session_id: object,
    from_ts: object,
    to_ts: object,
    roles: object = None,
    exclude_kinds: object = None,
    *_: object,
) -> None:
    sem.check_session_id(session_id)
    sem.check_range(from_ts, to_ts, roles, exclude_kinds)


def _rewrite(session_id: object, old_text: object, new_text: object, *_: object, **__: object) -> None:
    """Types and text only: an empty ``old_text`` is what update-accepts-empty-old-text gets
    wrong on purpose."""
    sem.check_session_id(session_id)
    for what, text in (("old_text", old_text), ("new_text", new_text)):
        if not isinstance(text, str):
            raise TypeError(f"{what} must be a str, got {type(text).__name__}")
        sem.check_unicode(text, what)


def _delete(session_id: object, timestamps: object, *_: object, **__: object) -> None:
    sem.check_session_id(session_id)
    sem.check_timestamps(timestamps)


def _query(query: object, *_: object, **__: object) -> None:
    sem.check_query(query)


#: The argument checks of each contract method (limits, counts and payload contents are left
#: to the store: the broken drivers of those rules get them wrong on purpose).
_CHECKS: Final[dict[str, Callable[..., None]]] = {
    "save_message": _save_message,
    "get_history": _session,
    "count_history": _session,
    "get_full_history": _session,
    "archive_span": _session,
    "clear_session": _session,
    "get_messages_by_session_range": _range,
    "update_message_content": _rewrite,
    "delete_messages_by_timestamps": _delete,
    "get_recent_messages_across_sessions": _query,
    "save_metadata": _save_metadata,
    "get_metadata": _key,
    "delete_metadata": _key,
    "list_metadata": _namespace,
    "list_metadata_keys": _namespace,
    "commit_metadata": _commit,
}


class ArgumentChecks:
    """A broken store behind the reference drivers' argument checks (values pass unchanged)."""

    def __init__(self, store: Any) -> None:
        self.wrapped = store
        for name in CONTRACT_METHODS:
            method = getattr(store, name, None)
            if callable(method):
                setattr(self, name, self._checked(_CHECKS.get(name), method))

    def __getattr__(self, name: str) -> Any:
        if name in CONTRACT_METHODS:
            raise AttributeError(name)
        return getattr(self.wrapped, name)

    @staticmethod
    def _checked(
        check: Callable[..., None] | None, method: Callable[..., Awaitable[Any]]
    ) -> Callable[..., Awaitable[Any]]:
        async def call(*args: Any, **kwargs: Any) -> Any:
            if check is not None:
                check(*args, **kwargs)
            return await method(*args, **kwargs)

        return call
