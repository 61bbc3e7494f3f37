"""Running drivers: sync stores are lifted to the async contract through a worker thread."""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from aalis_memory.conformance.registry import DriverContext, DriverRegistration
from aalis_memory.service import OPTIONAL_METHODS, REQUIRED_METHODS

CONTRACT_METHODS = REQUIRED_METHODS + OPTIONAL_METHODS


class SyncStoreAdapter:
    """Presents a store with plain methods as the async contract.

    Every call runs on one dedicated worker thread, in submission order: a sync store never sees
    two calls at once (so it needs no locking, and thread-bound handles such as sqlite3
    connections stay on their thread), and each call is as atomic as the store makes it. Only the
    contract methods the store really has are exposed, so optional-method detection by presence
    keeps working through the adapter.
    """

    def __init__(self, store: Any, worker: ThreadPoolExecutor | None = None) -> None:
        self.wrapped = store
        self._worker = worker or new_worker()
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

    def shutdown(self) -> None:
        """Stop the worker thread once the store is no longer used."""
        self._worker.shutdown(wait=True)


def new_worker() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="aalis-sync-driver")


def as_async(store: Any) -> Any:
    """The store itself when it is async already, else a :class:`SyncStoreAdapter`."""
    methods = [getattr(store, n) for n in CONTRACT_METHODS if callable(getattr(store, n, None))]
    if all(inspect.iscoroutinefunction(m) for m in methods):
        return store
    return SyncStoreAdapter(store)


def missing_required(store: Any) -> list[str]:
    """Required contract methods the store lacks."""
    return [name for name in REQUIRED_METHODS if not callable(getattr(store, name, None))]


@contextmanager
def opened_store(
    registration: DriverRegistration, ctx: DriverContext, runner: asyncio.Runner
) -> Iterator[Any]:
    """A fresh store from the driver's factory, async-shaped, closed by the factory afterwards.

    Async factories run on ``runner``'s loop; sync factories open, use and close their store on
    one worker thread, the same thread every adapted call runs on.
    """
    factory = registration.factory(ctx)
    if isinstance(factory, AsyncIterator):
        store = as_async(runner.run(_first(factory)))
        try:
            yield store
        finally:
            try:
                runner.run(_finish(factory, registration.name))
            finally:
                if isinstance(store, SyncStoreAdapter):
                    store.shutdown()
        return
    worker = new_worker()
    try:
        adapter = SyncStoreAdapter(worker.submit(next, factory).result(), worker)
        try:
            yield adapter
        finally:
            worker.submit(_finish_sync, factory, registration.name).result()
    finally:
        worker.shutdown(wait=True)


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
