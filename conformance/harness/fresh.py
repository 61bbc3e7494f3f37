"""Fresh stores made cheaply (a driver's ``fresh=`` hook), and the check that each one is empty.

A server backend's new store may cost a schema or a database made and dropped per test; its
``fresh=`` hook may instead hand the kit a pooled one emptied with ``TRUNCATE``, or a database
cloned from a template. A shortcut that leaves state behind would turn into wrong verdicts (a
history test reading a message an earlier test saved), so the kit reads every such store, with
the contract's own reads, before the test can see anything in it:

- when the store is handed over, one cross-session read of the newest active message of every
  session (``get_recent_messages_across_sessions``, all roles; when the store has it), which
  also sees what an earlier run left;
- before the test's first call that names a session id or a namespace on that store, that
  session (``get_full_history``, else ``get_history``) or namespace (``list_metadata_keys``,
  else ``list_metadata``): what the test reads there is then its own.

Anything found is a usage error of the hook (:class:`FreshStoreLeak`), never a verdict: the
test that got the store is not judged, the run fails saying so, and the driver's later stores
in the process come from its ``factory``, so the rest of the run is judged on stores made from
nothing. It costs one read per session and namespace a test uses (a few per test), and nothing
for drivers without the hook. A read that raises for one id is skipped for it (its own tests
judge it); one that does not return within the limit is left out for the rest of the process.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Final

import attrs
from _pytest.outcomes import Failed  # pytest.fail.Exception, named so a class can extend it

from aalis_memory.conformance.harness.health import CallTimeout
from aalis_memory.conformance.harness.sync import CONTRACT_METHODS
from aalis_memory.conformance.registration.registry import DriverFactory, DriverRegistration
from aalis_memory.methods import METHODS
from aalis_memory.types import MetadataDel, MetadataPut
from aalis_memory.types import RecentMessagesAcrossSessionsQuery as Query

#: How many records the check asks for per read (enough to say what was left).
LOOK: Final = 100
#: Every role of the contract: the cross-session read must not filter anything out.
_ROLES: Final = ("user", "assistant", "system", "tool")
#: The reads that see a session's messages, best first (archived ones too, then active only),
#: and a namespace's entries (unreadable ones too, then readable only).
SESSION_READS: Final = ("get_full_history", "get_history")
NAMESPACE_READS: Final = ("list_metadata_keys", "list_metadata")
#: The methods whose first argument is a session id, and those whose first is a namespace.
_BY_SESSION: Final = frozenset(m.name for m in METHODS if m.scope == "session")
_BY_NAMESPACE: Final = frozenset(m.name for m in METHODS if m.scope == "namespace")
#: The attribute of a guarded store that holds its :class:`Checker`.
CHECKER: Final = "_aalis_fresh_checker"


class FreshStoreLeak(Failed):
    """A store the driver's ``fresh=`` hook handed over held something: a usage error of the
    hook, reported as such (the test is not judged), never a failure of a contract rule. One of
    pytest's own outcomes (not an ``Exception``), so that no ``except Exception`` of a test or of
    the state machine takes it for the driver's answer, and shown without a traceback."""

    def __init__(self, driver: str, hook: str, left: str) -> None:
        self.driver = driver
        self.left = left
        super().__init__(
            f"driver {driver!r}: the fresh= hook {hook}() handed the kit a store that was not "
            f"empty: {left}. A fresh store must hold nothing an earlier store of the driver "
            "wrote (empty every table of a pooled schema, clone only a template nobody writes). "
            "The test that got it was not judged; the kit opens this driver's later stores with "
            "its factory instead",
            pytrace=False,
        )

    def __str__(self) -> str:
        return str(self.msg)


@attrs.define(eq=False)
class FreshState:
    """What one run learnt of the drivers' ``fresh=`` hooks (part of the run's
    :class:`~aalis_memory.conformance.harness.run_state.RunState`)."""

    #: Drivers whose hook handed over a store that was not empty: the first leak. Their later
    #: stores come from the factory.
    leaked: dict[str, FreshStoreLeak] = attrs.field(factory=dict)
    #: Leaks found since the reporter last took them (the test running when they were found is
    #: not judged: see :meth:`take_found`).
    found: list[FreshStoreLeak] = attrs.field(factory=list)
    #: Reads that did not return within the limit in a check, per driver: left out of its later
    #: checks (the tests of those methods judge them; a check only uses what answers).
    hung_reads: dict[str, set[str]] = attrs.field(factory=dict)

    def shortcut(self, registration: DriverRegistration) -> DriverFactory | None:
        """The hook to open the driver's next store with, ``None`` for its factory (no hook, or
        it leaked once in this run)."""
        if registration.fresh is None or registration.name in self.leaked:
            return None
        return registration.fresh

    def take_found(self) -> list[FreshStoreLeak]:
        """The leaks found since the last call (the reporter asks at the end of each phase)."""
        found, self.found = self.found, []
        return found


#: ``within(awaitable, what)``: the awaitable under the kit's per-call limit.
Within = Callable[[Awaitable[Any], str], Awaitable[Any]]


class Checker:
    """The reads that check one store from the hook, each session and namespace once."""

    def __init__(
        self, registration: DriverRegistration, store: Any, within: Within, state: FreshState
    ) -> None:
        self._driver = registration.name
        self._state = state
        self._hook = getattr(registration.fresh, "__qualname__", "fresh")
        self._store = store
        self._within = within
        #: Ids checked, or being checked (a task that names one meanwhile waits for it).
        self._checks: dict[tuple[str, str], asyncio.Future[None]] = {}

    async def handed_over(self) -> None:
        """The store as the hook handed it over: no active message in any session."""
        recent = await self._read("get_recent_messages_across_sessions", Query(limit=1, roles=_ROLES))
        if recent:
            session = getattr(recent[0], "session_id", "?")
            self._leak(f"session {session!r} holds an active message (get_recent_messages_across_sessions)")

    async def before(self, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Check what ``method(*args, **kwargs)`` names, unless already checked."""
        for kind, name in _named(method, args, kwargs):
            key = (kind, name)
            pending = self._checks.get(key)
            if pending is None:
                pending = self._checks[key] = asyncio.get_running_loop().create_future()
                try:
                    await self._check(kind, name)
                finally:
                    pending.set_result(None)
            await pending

    async def _check(self, kind: str, name: str) -> None:
        reads = SESSION_READS if kind == "session" else NAMESPACE_READS
        for method in reads:
            # a read the driver lacks, or one that raised or hung: the next one may still tell
            found = await self._read(method, name, *((LOOK,) if kind == "session" else ()))
            if found is None:
                continue
            if found:
                count = f"{LOOK} or more" if len(found) >= LOOK else str(len(found))
                what = "message(s)" if kind == "session" else "key(s)"
                self._leak(
                    f"{kind} {name!r} holds {count} {what} before the test's first call on it ({method})"
                )
            return

    async def _read(self, method: str, *args: Any) -> list[Any] | None:
        call = getattr(self._store, method, None)
        if not callable(call) or method in self._state.hung_reads.get(self._driver, ()):
            return None
        try:
            return list(await self._within(call(*args), f"{method}{args!r}"))
        except CallTimeout:
            self._state.hung_reads.setdefault(self._driver, set()).add(method)
        except Exception:  # the method's own tests judge it; the next read tells, else none
            pass
        return None

    def _leak(self, left: str) -> None:
        leak = FreshStoreLeak(self._driver, self._hook, left)
        self._state.leaked.setdefault(self._driver, leak)
        self._state.found.append(leak)
        raise leak


def _named(method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Iterable[tuple[str, str]]:
    """The session ids and namespaces (``str`` ones: others are refused) a call names."""
    if method in _BY_SESSION:
        value = args[0] if args else kwargs.get("session_id")
        return [("session", value)] if isinstance(value, str) else []
    if method in _BY_NAMESPACE:
        value = args[0] if args else kwargs.get("namespace")
        return [("namespace", value)] if isinstance(value, str) else []
    if method == "commit_metadata":
        ops = args[0] if args else kwargs.get("ops")
        # only a list or tuple is looked into: iterating a generator would use it up
        return list(
            dict.fromkeys(
                ("namespace", op.namespace)
                for op in (ops if isinstance(ops, list | tuple) else ())
                if isinstance(op, MetadataPut | MetadataDel) and isinstance(op.namespace, str)
            )
        )
    return []


def ensure_empty(
    registration: DriverRegistration,
    store: Any,
    guarded: Any,
    runner: asyncio.Runner,
    within: Within,
    state: FreshState,
) -> None:
    """Check a store the hook handed over, then have ``guarded`` (what the test calls) check
    each session and namespace before its first call on it. ``store`` is the async-shaped
    store the reads go to (outside the test's steps: no call here is one the test judges), on
    ``runner``'s loop, each read bounded by ``within``; what is found goes to ``state``.
    Raises :class:`FreshStoreLeak`."""
    checker = Checker(registration, store, within, state)
    runner.run(checker.handed_over())
    setattr(guarded, CHECKER, checker)
    for method in CONTRACT_METHODS:
        call = getattr(guarded, method, None)
        if callable(call):
            setattr(guarded, method, _checked(checker, method, call))


def _checked(
    checker: Checker, method: str, call: Callable[..., Awaitable[Any]]
) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(call)
    async def checked(*args: Any, **kwargs: Any) -> Any:
        await checker.before(method, args, kwargs)
        return await call(*args, **kwargs)

    return checked


async def before_raw(store: Any, namespace: object) -> None:
    """A raw-access hook is about to write into ``namespace`` around the API: check it first,
    as a call of the test would (the entry planted there is the test's own)."""
    checker = getattr(store, CHECKER, None)
    if isinstance(checker, Checker):
        await checker.before("save_metadata", (namespace,), {})
