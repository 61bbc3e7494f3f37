"""Running drivers: sync stores lifted to the async contract, every call under a time limit.

A hanging driver method must cost one limit, not the whole run: every contract call the kit
makes goes through :class:`GuardedStore`, which gives up after the per-call limit and names the
driver, the method and its arguments. From then on the method is known to hang (the run's
:attr:`~.run_state.RunState.hung`): its later calls on that driver end at once, for the rest of the
process, blocked by the rule the hang is charged to (a test of that rule fails it again, with the
same cause).
A sync store runs on a daemon worker thread, so a call stuck forever neither blocks Ctrl-C nor
keeps the process alive at exit. An async method that blocks the event loop itself is caught by
the watchdog (:mod:`.watchdog`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import inspect
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final

import attrs

from aalis_memory.conformance import steps
from aalis_memory.conformance.harness import fresh
from aalis_memory.conformance.harness.health import (
    CallTimeout,
    Described,
    Hung,
    charged_rule,
    render_call,
)
from aalis_memory.conformance.harness.run_state import RunState
from aalis_memory.conformance.harness.sync import CONTRACT_METHODS, DaemonWorker, SyncStoreAdapter
from aalis_memory.conformance.harness.watchdog import WATCHDOG, LoopBlocked, Watch
from aalis_memory.conformance.registration.registry import DriverContext, DriverRegistration, RawMetadataKind
from aalis_memory.service import REQUIRED_METHODS

#: Opening or closing a store may connect, migrate or build indexes: it gets this many calls' time.
OPEN_CLOSE_FACTOR: Final = 6


#: The note the kit adds to an exception a driver call raised, naming the call (for the reader
#: of a traceback; the judging reads :func:`raised_by`).
RAISED_BY: Final = "raised by driver call "


@attrs.frozen
class DriverCall:
    """The driver call an exception came out of: its method, and the call as shown."""

    method: str
    shown: str


#: The attribute an exception a driver call raised carries its :class:`DriverCall` in.
_CALL: Final = "aalis_memory_driver_call"


def raised_by(exc: BaseException) -> DriverCall | None:
    """The driver call ``exc`` came out of, if a guarded call let it through."""
    found = getattr(exc, _CALL, None)
    return found if isinstance(found, DriverCall) else None


class GuardedStore:
    """The store as the suite sees it: each contract method under the per-call time limit.

    Only the methods the store has are exposed (optional-method detection keeps working);
    ``wrapped`` is the driver's own object, for hooks that reach around the API. A call that is
    a setup or observation step of the running test (:mod:`aalis_memory.conformance.steps`) and fails raises
    :class:`~aalis_memory.conformance.steps.Blocked` instead: its failure is not the test's rule.
    """

    def __init__(self, store: Any, driver: str, timeout: float | None, state: RunState) -> None:
        self._store = store
        self.wrapped = getattr(store, "wrapped", store)
        self._driver = driver
        self._timeout = timeout
        self._state = state
        #: A call gave up while its thread may still run it: the store cannot be closed safely.
        self.stuck = False
        #: The hang the kit had to interrupt: every later call on this store is blocked by it.
        self._stopped_by: Hung | None = None

    @property
    def sync(self) -> bool:
        """Whether the driver's methods are plain (run one at a time on the kit's worker thread):
        the kit then cannot see what another connection would see in the middle of a call."""
        return isinstance(self._store, SyncStoreAdapter)

    def __getattr__(self, name: str) -> Any:
        """A contract method the store has, guarded on first use and kept (most tests call a
        few of them: guarding all of them at every store's opening cost more than the calls)."""
        if name in CONTRACT_METHODS:
            method = getattr(self._store, name, None)
            if callable(method):
                guarded = self._guard(name, method)
                setattr(self, name, guarded)
                return guarded
            running = steps.current()
            absent = running.missing(name) if running is not None else None
            raise absent if absent is not None else AttributeError(name)
        return getattr(self._store, name)

    def _guard(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        key = (self._driver, name)

        @functools.wraps(method)
        async def call(*args: Any, **kwargs: Any) -> Any:
            what = functools.partial(render_call, self._driver, name, args, kwargs)
            running = steps.current()
            blocker = running.blocker_of(name, args, kwargs) if running is not None else None
            with self._state.tracked(what):
                try:
                    if self._stopped_by is not None:
                        raise self._stopped_by.stopped()
                    hung = self._state.hung.get(key)
                    if hung is not None:  # known to hang: charged once, blocked from now on
                        raise hung.later_call(under_test=blocker is None)
                    try:
                        return await within(
                            self._timeout,
                            method(*args, **kwargs),
                            what,
                            driver=self._driver,
                            state=self._state,
                        )
                    except CallTimeout as exc:
                        raise self._hung(name, what, exc, charged_rule(name, args, kwargs, blocker)) from None
                except Exception as exc:
                    if not isinstance(exc, CallTimeout | steps.Blocked) and raised_by(exc) is None:
                        shown = what()
                        setattr(exc, _CALL, DriverCall(name, shown))
                        exc.add_note(f"{RAISED_BY}{shown}")
                    if blocker is None or isinstance(exc, steps.Blocked):
                        raise
                    hung = self._state.hung.get(key)
                    if isinstance(exc, CallTimeout) and hung is not None:  # one text per method
                        raise hung.blocked() from exc
                    raise steps.Blocked(
                        blocker,
                        what().removeprefix(f"driver {self._driver!r}: "),
                        f"raised {type(exc).__name__}: {exc}",
                    ) from exc

        return call

    def _hung(self, name: str, what: Described, exc: CallTimeout, charged: str) -> CallTimeout:
        """A call of ``name`` timed out: the method is known to hang from now on."""
        hung = self._state.hung.setdefault(
            (self._driver, name),
            Hung(self._driver, name, what().removeprefix(f"driver {self._driver!r}: "), exc.how, charged),
        )
        if exc.interrupted:  # its thread was stopped mid-call: nothing it holds can be trusted
            self.stuck = True
            self._stopped_by = hung
            self._state.unusable(
                self._driver, f"was stopped: {hung.call} {exc.how} and the kit had to interrupt it"
            )
            running = steps.current()
            for rule in sorted(running.rules if running is not None else ()):
                # a test that catches the timeout (a witness read) cannot pass in full
                steps.set_aside(rule, hung.stopped())
        elif isinstance(self._store, SyncStoreAdapter):
            self.stuck = True
        return hung.first(exc)


async def within(
    timeout: float | None,
    awaitable: Any,
    what: str | Described,
    grace: float | None = None,
    driver: str = "",
    *,
    state: RunState,
) -> Any:
    """``await awaitable``, or :class:`CallTimeout` naming ``what`` after ``timeout`` seconds.

    The loop is watched meanwhile (:mod:`.watchdog`): a call that blocks it for ``timeout``
    fails as a timeout when it returns, and one still blocking it ``grace`` (default:
    ``timeout``) later is interrupted. One that cannot be brought back ends the process, after
    ``state`` has stopped using ``driver``.
    """
    if timeout is None:
        return await awaitable
    described: Described = functools.partial(str, what) if isinstance(what, str) else what
    # The limit is the watchdog's to enforce (it cancels the call's task, as asyncio.timeout
    # would, but without a timer on the loop per call); in the calling task (no wait_for task):
    # scheduling stays what the driver makes it.
    task = asyncio.current_task()
    cancelling = task.cancelling() if task is not None else 0
    watch_id = WATCHDOG.start(
        described,
        timeout,
        timeout if grace is None else grace,
        sys._getframe(),
        driver,
        state.stopped,
        task,
    )
    watch: Watch | None = None
    try:
        result = await awaitable
    except asyncio.CancelledError:
        watch = WATCHDOG.stop(watch_id)
        if watch is None or not watch.expiring:
            raise
        watch.expiring = False
        if task is not None and task.uncancel() > cancelling:  # cancelled from outside too
            raise
        raise CallTimeout(
            f"{described()} did not return within {timeout:g} s {_LIMIT_NOTE}",
            how=f"did not return within {timeout:g} s",
        ) from None
    except LoopBlocked:
        watch = WATCHDOG.stop(watch_id)
        limit = timeout + (watch.grace if watch is not None else 0.0)
        raise CallTimeout(
            f"{described()} blocked the event loop for more than {limit:g} s and the kit "
            f"interrupted it ({_BLOCKING_NOTE}; {_LIMIT_NOTE.strip('()')})",
            how=f"blocked the event loop for more than {limit:g} s",
            interrupted=True,
        ) from None
    finally:
        watch = WATCHDOG.stop(watch_id) if watch is None else watch
        if watch is not None and watch.expiring and task is not None:
            # cancelled past its limit, but the call ended otherwise: the kit's cancel is taken back
            watch.expiring = False
            task.uncancel()
    if watch is not None and watch.overran:
        raise CallTimeout(
            f"{described()} blocked the event loop for {watch.blocked:.1f} s, longer than the "
            f"per-call limit ({_BLOCKING_NOTE}; {_LIMIT_NOTE.strip('()')})",
            how=f"blocked the event loop for more than {timeout:g} s",
        )
    return result


_LIMIT_NOTE: Final = "(the kit's per-call limit, --memory-call-timeout; 0 disables it)"
_BLOCKING_NOTE: Final = (
    "an async method must not block: time.sleep, a threading lock or sync "
    "I/O hold the whole loop; await asyncio.sleep, an asyncio lock or "
    "asyncio.to_thread instead"
)


def as_async(store: Any) -> Any:
    """The store itself when it is async already, else a :class:`SyncStoreAdapter`."""
    methods = [getattr(store, n) for n in CONTRACT_METHODS if callable(getattr(store, n, None))]
    if all(inspect.iscoroutinefunction(m) for m in methods):
        return store
    return SyncStoreAdapter(store)


async def plant_raw(
    registration: DriverRegistration, store: Any, namespace: str, key: str, kind: RawMetadataKind
) -> bool:
    """Plant an unreadable metadata entry through the driver's ``raw_metadata`` hook.

    The hook answers ``True`` (planted) or ``False`` (this backend cannot hold such an entry);
    anything else is a broken hook, not a silent skip.
    """
    hook = registration.raw_metadata
    if hook is None:
        raise LookupError(f"driver {registration.name!r} registers no raw_metadata hook")
    await fresh.before_raw(store, namespace)  # a store from a fresh= hook checks it first
    result = hook(getattr(store, "wrapped", store), namespace, key, kind)
    planted = await result if inspect.isawaitable(result) else result
    if not isinstance(planted, bool):
        raise TypeError(
            f"driver {registration.name!r}: the raw_metadata hook returned {planted!r}; it must "
            f"return True (the {kind} entry was written) or False (this backend cannot hold one)"
        )
    return planted


def missing_required(store: Any) -> list[str]:
    """Required contract methods the store lacks."""
    return [name for name in REQUIRED_METHODS if not callable(getattr(store, name, None))]


@contextmanager
def opened_store(
    registration: DriverRegistration,
    ctx: DriverContext,
    runner: asyncio.Runner,
    *,
    mark_unusable: bool = True,
    state: RunState | None = None,
) -> Iterator[Any]:
    """A fresh store from the driver's factory, async-shaped and guarded, closed afterwards.

    Async factories run on ``runner``'s loop; sync factories open, use and close their store on
    one worker thread, the same thread every adapted call runs on. A store that cannot be opened
    makes the driver unusable for the run (``state``; a fresh one outside a run of the plugin),
    unless ``mark_unusable`` is off (the crash tests' reopen hook: its failure leaves only the
    crash rules unverified).
    A driver's ``fresh=`` hook, when it has one, makes the store instead of its factory, and the
    store is checked empty before it is handed over (:mod:`.fresh`).
    """
    state = RunState() if state is None else state
    name = registration.name
    limit = None if ctx.call_timeout is None else ctx.call_timeout * OPEN_CLOSE_FACTOR
    shortcut = state.fresh.shortcut(registration)
    factory = (shortcut or registration.factory)(ctx)
    worker = None if isinstance(factory, AsyncIterator) else DaemonWorker()
    try:
        opening = f"driver {name!r}: opening a store"
        if isinstance(factory, AsyncIterator):
            opened = runner.run(within(limit, _first(factory), opening, ctx.call_timeout, name, state=state))
        else:
            assert worker is not None
            opened = _result(worker.submit(next, factory), limit, opening)
    except Exception as exc:
        if mark_unusable:
            state.unusable(name, f"could not open a store: {type(exc).__name__}: {exc}")
        if worker is not None:
            worker.shutdown(wait=False)
        raise
    store = as_async(opened) if worker is None else SyncStoreAdapter(opened, worker)
    guarded = GuardedStore(store, name, ctx.call_timeout, state)
    try:
        if shortcut is not None:
            fresh.ensure_empty(
                registration,
                store,
                guarded,
                runner,
                lambda call, what: within(
                    ctx.call_timeout, call, f"driver {name!r}: {what}", driver=name, state=state
                ),
                state.fresh,
            )
        yield guarded
    finally:
        try:
            # closing would wait behind a stuck call forever; one that hung once is not retried
            if not guarded.stuck and (name, CLOSING) not in state.hung:
                _close(factory, worker, runner, name, limit, ctx.call_timeout, state)
        finally:
            if isinstance(store, SyncStoreAdapter):
                store.shutdown(wait=False)  # a daemon thread: it ends once its queue drains


#: The method of a store's closing in :attr:`RunState.hung`.
CLOSING: Final = "closing a store"


def _close(
    factory: Any,
    worker: DaemonWorker | None,
    runner: asyncio.Runner,
    name: str,
    limit: float | None,
    call_limit: float | None,
    state: RunState,
) -> None:
    closing = f"driver {name!r}: {CLOSING}"
    try:
        if isinstance(factory, AsyncIterator):
            runner.run(within(limit, _finish(factory, name), closing, call_limit, name, state=state))
        else:
            assert worker is not None
            _result(worker.submit(_finish_sync, factory, name), limit, closing)
    except CallTimeout as exc:
        hung = state.hung.setdefault((name, CLOSING), Hung(name, CLOSING, CLOSING, exc.how))
        raise CallTimeout(
            f"{exc}; the kit no longer closes this driver's stores in this run",
            cause=hung.cause,
            how=hung.how,
        ) from None


def _result(future: concurrent.futures.Future[Any], timeout: float | None, what: str) -> Any:
    try:
        return future.result(timeout)
    except concurrent.futures.TimeoutError:
        raise CallTimeout(
            f"{what} did not finish within {timeout:g} s", how=f"did not finish within {timeout:g} s"
        ) from None


async def _first(agen: AsyncIterator[Any]) -> Any:
    return await anext(agen)


async def _finish(agen: AsyncIterator[Any], name: str) -> None:
    try:
        await anext(agen)
    except StopAsyncIteration:
        return
    raise RuntimeError(f"driver {name!r}: the factory must yield exactly one store")


def _finish_sync(gen: Iterator[Any], name: str) -> None:
    try:
        next(gen)
    except StopIteration:
        return
    raise RuntimeError(f"driver {name!r}: the factory must yield exactly one store")
