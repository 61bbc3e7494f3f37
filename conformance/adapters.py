"""Running drivers: sync stores are lifted to the async contract through a worker thread."""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable
from typing import Any

from aalis_memory.service import OPTIONAL_METHODS, REQUIRED_METHODS

CONTRACT_METHODS = REQUIRED_METHODS + OPTIONAL_METHODS


class SyncStoreAdapter:
    """Presents a store with plain methods as the async contract, one worker-thread call each.

    Only the contract methods the store really has are exposed, so optional-method detection by
    presence keeps working through the adapter.
    """

    def __init__(self, store: Any) -> None:
        self.wrapped = store
        for name in CONTRACT_METHODS:
            method = getattr(store, name, None)
            if callable(method):
                setattr(self, name, _lift(method))

    def __getattr__(self, name: str) -> Any:
        if name in CONTRACT_METHODS:
            raise AttributeError(name)
        return getattr(self.wrapped, name)


def _lift(method: Callable[..., Any]) -> Callable[..., Any]:
    if inspect.iscoroutinefunction(method):
        return method

    @functools.wraps(method)
    async def call(*args: Any, **kwargs: Any) -> Any:
        return await asyncio.to_thread(method, *args, **kwargs)

    return call


def as_async(store: Any) -> Any:
    """The store itself when it is async already, else a :class:`SyncStoreAdapter`."""
    methods = [getattr(store, n) for n in CONTRACT_METHODS if callable(getattr(store, n, None))]
    if all(inspect.iscoroutinefunction(m) for m in methods):
        return store
    return SyncStoreAdapter(store)


def missing_required(store: Any) -> list[str]:
    """Required contract methods the store lacks."""
    return [name for name in REQUIRED_METHODS if not callable(getattr(store, name, None))]
