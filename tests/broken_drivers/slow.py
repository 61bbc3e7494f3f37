"""Drivers that are correct but slow: every answer right, the cost growing with the data.

They are kept apart from ``BROKEN``: the default suite has nothing to say about them (their
answers are the reference driver's); only the scaling probe (``--memory-scaling``, PERF-01) can,
and ``tests/test_scaling_probe.py`` checks that it does.
"""

from __future__ import annotations

from typing import Final

from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.service import Limit
from aalis_memory.types import Message
from broken_drivers import INMEMORY_CAPS, Broken

#: Name -> the driver, registered as ``broken-NAME`` like the broken drivers.
SLOW: Final[dict[str, Broken]] = {}


class HistorySortsTheSession(InMemoryMemory):
    """get_history sorts a copy of the whole session on every call: O(n) for 20 messages."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        session_id = sem.check_session_id(session_id)
        effective = sem.check_limit(limit, sem.DEFAULT_HISTORY_LIMIT, "limit")
        every = sorted(self._active(session_id),
                       key=lambda stored: (sem.stamp(stored.message), stored.seq))
        return self._copy_out(sem.history_window([s.message for s in every], effective))


SLOW["history-sorts-session"] = Broken(
    "history-sorts-session", frozenset({"PERF-01"}), HistorySortsTheSession, INMEMORY_CAPS,
    (HistorySortsTheSession.__doc__ or "").split("\n")[0],
)
