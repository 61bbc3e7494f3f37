"""A driver with plain (sync) methods, lifted onto the event loop: its calls run one at a time on a
daemon worker thread of the kit's."""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import inspect
import queue
import threading
from collections.abc import Callable
from typing import Any

from aalis_memory.service import OPTIONAL_METHODS, REQUIRED_METHODS

#: Every method of the contract, required and optional.
CONTRACT_METHODS = REQUIRED_METHODS + OPTIONAL_METHODS


class DaemonWorker(concurrent.futures.Executor):
    """One daemon thread running submitted calls in order (a sync store's only thread).

    Unlike ``ThreadPoolExecutor`` its thread is never joined at interpreter exit, so a driver
    call that never returns cannot keep the process alive.
    """

    def __init__(self, name: str = "aalis-sync-driver") -> None:
        self._calls: queue.SimpleQueue[tuple[concurrent.futures.Future[Any], Callable[[], Any]] | None] = (
            queue.SimpleQueue()
        )
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

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
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
            return await loop.run_in_executor(self._worker, functools.partial(method, *args, **kwargs))

        return call

    def shutdown(self, wait: bool = True) -> None:
        """Stop the worker thread once the store is no longer used."""
        self._worker.shutdown(wait=wait)
