"""Running drivers: sync stores lifted to the async contract, every call under a time limit.

A hanging driver method must cost one failed test, not the whole run: every contract call the
kit makes goes through :class:`GuardedStore`, which gives up after the per-call limit and names
the driver, the method and its arguments. A sync store runs on a daemon worker thread, so a call
stuck forever neither blocks Ctrl-C nor keeps the process alive at exit.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import inspect
import itertools
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final

from aalis_memory.conformance.checks import describe
from aalis_memory.conformance.registry import DriverContext, DriverRegistration, RawMetadataKind
from aalis_memory.service import OPTIONAL_METHODS, REQUIRED_METHODS

CONTRACT_METHODS = REQUIRED_METHODS + OPTIONAL_METHODS

#: Opening or closing a store may connect, migrate or build indexes: it gets this many calls' time.
OPEN_CLOSE_FACTOR: Final = 6


#: The note the kit adds to an exception a driver call raised, naming the call.
RAISED_BY: Final = "raised by driver call "


class CallTimeout(Exception):
    """A driver call did not return within the kit's per-call time limit."""


#: Drivers that cannot be used at all in this process (no store opens, a required method is
#: missing), with the cause: reported once, at the first test, and the rest are not run.
UNUSABLE: dict[str, str] = {}


def unusable(name: str, cause: str) -> None:
    UNUSABLE.setdefault(name, cause)


#: Driver calls in progress, by id: (what, started at). Shown when the run is interrupted.
IN_FLIGHT: dict[int, tuple[Described, float]] = {}
_ids = itertools.count()


def in_flight() -> list[str]:
    """The calls in progress right now, with how long each has been running."""
    now = time.monotonic()
    return [f"{what()} (running for {now - started:.1f} s)"
            for what, started in list(IN_FLIGHT.values())]


@contextmanager
def _tracked(what: Described) -> Iterator[None]:
    call_id = next(_ids)
    IN_FLIGHT[call_id] = (what, time.monotonic())
    try:
        yield
    finally:
        IN_FLIGHT.pop(call_id, None)


#: A call's description, rendered only when it is shown (a timeout, an error, Ctrl-C): the
#: arguments may be large or deeply nested, and most calls are never shown.
Described = Callable[[], str]


def _render_call(driver: str, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    shown = [_safe(a) for a in args] + [f"{k}={_safe(v)}" for k, v in kwargs.items()]
    return f"driver {driver!r}: {method}({', '.join(shown)})"


def _safe(value: Any) -> str:
    """``describe(value)``, or its type when it cannot be shown (a payload nested too deep)."""
    try:
        return describe(value)
    except (RecursionError, ValueError, TypeError):
        return f"<{type(value).__name__}>"


class DaemonWorker(concurrent.futures.Executor):
    """One daemon thread running submitted calls in order (a sync store's only thread).

    Unlike ``ThreadPoolExecutor`` its thread is never joined at interpreter exit, so a driver
    call that never returns cannot keep the process alive.
    """

    def __init__(self, name: str = "aalis-sync-driver") -> None:
        self._calls: queue.SimpleQueue[
            tuple[concurrent.futures.Future[Any], Callable[[], Any]] | None
        ] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (job := self._calls.get()) is not None:
            future, call = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(call())
            except BaseException as exc:
                future.set_exception(exc)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
               ) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._calls.put((future, functools.partial(fn, *args, **kwargs)))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._calls.put(None)
        if wait:
            self._thread.join()


class SyncStoreAdapter:
    """Presents a store with plain methods as the async contract.

    Every call runs on one dedicated worker thread, in submission order: a sync store never sees
    two calls at once (so it needs no locking, and thread-bound handles such as sqlite3
    connections stay on their thread), and each call is as atomic as the store makes it. Only the
    contract methods the store really has are exposed, so optional-method detection by presence
    keeps working through the adapter.
    """

    def __init__(self, store: Any, worker: DaemonWorker | None = None) -> None:
        self.wrapped = store
        self._worker = worker or DaemonWorker()
        for name in CONTRACT_METHODS:
            method = getattr(store, name, None)
            if callable(method):
                setattr(self, name, self._lift(method))

    def __getattr__(self, name: str) -> Any:
        if name in CONTRACT_METHODS:
            raise AttributeError(name)
        return getattr(self.wrapped, name)

    def _lift(self, method: Callable[..., Any]) -> Callable[..., Any]:
        if inspect.iscoroutinefunction(method):
            return method

        @functools.wraps(method)
        async def call(*args: Any, **kwargs: Any) -> Any:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(
                self._worker, functools.partial(method, *args, **kwargs)
            )

        return call

    def shutdown(self, wait: bool = True) -> None:
        """Stop the worker thread once the store is no longer used."""
        self._worker.shutdown(wait=wait)


class GuardedStore:
    """The store as the suite sees it: each contract method under the per-call time limit.

    Only the methods the store has are exposed (optional-method detection keeps working);
    ``wrapped`` is the driver's own object, for hooks that reach around the API.
    """

    def __init__(self, store: Any, driver: str, timeout: float | None) -> None:
        self._store = store
        self.wrapped = getattr(store, "wrapped", store)
        self._driver = driver
        self._timeout = timeout
        #: A call gave up while its thread may still run it: the store cannot be closed safely.
        self.stuck = False
        for name in CONTRACT_METHODS:
            method = getattr(store, name, None)
            if callable(method):
                setattr(self, name, self._guard(name, method))

    def __getattr__(self, name: str) -> Any:
        if name in CONTRACT_METHODS:
            raise AttributeError(name)
        return getattr(self._store, name)

    def _guard(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        async def call(*args: Any, **kwargs: Any) -> Any:
            what = functools.partial(_render_call, self._driver, name, args, kwargs)
            with _tracked(what):
                try:
                    return await within(self._timeout, method(*args, **kwargs), what)
                except CallTimeout:
                    self.stuck = isinstance(self._store, SyncStoreAdapter)
                    raise
                except Exception as exc:
                    if not any(n.startswith(RAISED_BY) for n in getattr(exc, "__notes__", ())):
                        exc.add_note(f"{RAISED_BY}{what()}")
                    raise

        return call


async def within(timeout: float | None, awaitable: Any, what: str | Described) -> Any:
    """``await awaitable``, or :class:`CallTimeout` naming ``what`` after ``timeout`` seconds."""
    if timeout is None:
        return await awaitable
    try:  # in the calling task (no wait_for task): scheduling stays what the driver makes it
        async with asyncio.timeout(timeout):
            return await awaitable
    except TimeoutError:
        raise CallTimeout(
            f"{what if isinstance(what, str) else what()} did not return within {timeout:g} s "
            "(the kit's per-call limit, "
            "--memory-call-timeout; 0 disables it)"
        ) from None


def as_async(store: Any) -> Any:
    """The store itself when it is async already, else a :class:`SyncStoreAdapter`."""
    methods = [getattr(store, n) for n in CONTRACT_METHODS if callable(getattr(store, n, None))]
    if all(inspect.iscoroutinefunction(m) for m in methods):
        return store
    return SyncStoreAdapter(store)


async def plant_raw(registration: DriverRegistration, store: Any, namespace: str, key: str,
                    kind: RawMetadataKind) -> bool:
    """Plant an unreadable metadata entry through the driver's ``raw_metadata`` hook.

    The hook answers ``True`` (planted) or ``False`` (this backend cannot hold such an entry);
    anything else is a broken hook, not a silent skip.
    """
    hook = registration.raw_metadata
    if hook is None:
        raise LookupError(f"driver {registration.name!r} registers no raw_metadata hook")
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
    registration: DriverRegistration, ctx: DriverContext, runner: asyncio.Runner
) -> Iterator[Any]:
    """A fresh store from the driver's factory, async-shaped and guarded, closed afterwards.

    Async factories run on ``runner``'s loop; sync factories open, use and close their store on
    one worker thread, the same thread every adapted call runs on.
    """
    name = registration.name
    limit = None if ctx.call_timeout is None else ctx.call_timeout * OPEN_CLOSE_FACTOR
    factory = registration.factory(ctx)
    worker = None if isinstance(factory, AsyncIterator) else DaemonWorker()
    try:
        opening = f"driver {name!r}: opening a store"
        if isinstance(factory, AsyncIterator):
            opened = runner.run(within(limit, _first(factory), opening))
        else:
            assert worker is not None
            opened = _result(worker.submit(next, factory), limit, opening)
    except Exception as exc:
        unusable(name, f"could not open a store: {type(exc).__name__}: {exc}")
        if worker is not None:
            worker.shutdown(wait=False)
        raise
    store = as_async(opened) if worker is None else SyncStoreAdapter(opened, worker)
    guarded = GuardedStore(store, name, ctx.call_timeout)
    try:
        yield guarded
    finally:
        try:
            if not guarded.stuck:  # closing would wait behind the stuck call forever
                closing = f"driver {name!r}: closing a store"
                if isinstance(factory, AsyncIterator):
                    runner.run(within(limit, _finish(factory, name), closing))
                else:
                    assert worker is not None
                    _result(worker.submit(_finish_sync, factory, name), limit, closing)
        finally:
            if isinstance(store, SyncStoreAdapter):
                store.shutdown(wait=False)  # a daemon thread: it ends once its queue drains


def _result(future: concurrent.futures.Future[Any], timeout: float | None, what: str) -> Any:
    try:
        return future.result(timeout)
    except concurrent.futures.TimeoutError:
        raise CallTimeout(f"{what} did not finish within {timeout:g} s") from None


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
