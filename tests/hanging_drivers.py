"""Drivers whose count_history hangs, as conftest source for pytester runs (an author's style):
shared by the runs of tests/kit/test_author_run.py and tests/kit/test_hangs.py."""

from __future__ import annotations

from typing import Final

#: An async method that never returns, and a sync one (run on the kit's worker thread).
HANGING_CLASSES: Final = '''
import asyncio
import threading

from aalis_memory.conformance import Capabilities, memory_driver
from aalis_memory.drivers.inmemory import InMemoryMemory


class HangsAsync(InMemoryMemory):
    """count_history awaits an event that never fires."""

    async def count_history(self, session_id):
        await asyncio.Event().wait()


class SyncInMemory:
    """Plain methods over the reference store."""

    def __init__(self, **caps):
        self._inner = InMemoryMemory(**caps)
        self._loop = asyncio.new_event_loop()

    def __getattr__(self, name):
        method = getattr(self._inner, name)
        return lambda *args, **kwargs: self._loop.run_until_complete(method(*args, **kwargs))


class HangsSync(SyncInMemory):
    """A blocking count_history that never returns."""

    def count_history(self, session_id):
        threading.Event().wait()
'''
