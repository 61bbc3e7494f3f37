"""Drivers that are correct but slow: every answer right, the cost growing with the session.

Only the scaling probe (PERF-01) can tell them from the reference drivers. The quick probe runs
by default, so ``tests/proofs/test_broken_drivers.py`` expects exactly PERF-01 of them; the full probe
(``--memory-scaling``) is ``tests/proofs/test_scaling_probe.py``'s. Every other broken driver declares
``skip_quick_scaling`` (see :func:`broken_drivers.registration`): their one bug is elsewhere, and
the code around it is written plainly, not for speed.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.service import Limit
from aalis_memory.types import Message
from broken_drivers import broken


# PERF-01 (SHOULD): "get_history(s, 20) ... takes about as long on a large session as on a small
# one": it decodes every message of the session, as a backend that selects the session's rows
# and cuts the window in its own code does.
@broken("history-reads-session", "PERF-01")
class HistoryReadsTheSession(InMemoryMemory):
    """get_history reads (copies out) every active message of the session, then cuts the window
    from them: O(n) for 20 messages."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        session_id = sem.check_session_id(session_id)
        effective = sem.check_limit(limit, sem.DEFAULT_HISTORY_LIMIT, "limit")
        every = self._copy_out([stored.message for stored in self._active(session_id)])
        return sem.history_window(every, effective)


# PERF-01 (SHOULD): the same words; the session is sorted again on every call.
@broken("history-sorts-session", "PERF-01")
class HistorySortsTheSession(InMemoryMemory):
    """get_history sorts a copy of the whole session on every call: O(n) for 20 messages."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        session_id = sem.check_session_id(session_id)
        effective = sem.check_limit(limit, sem.DEFAULT_HISTORY_LIMIT, "limit")
        every = sorted(self._active(session_id), key=lambda stored: (sem.stamp(stored.message), stored.seq))
        return self._copy_out(sem.history_window([s.message for s in every], effective))


class MaxConnectionsError(Exception):
    """What a client with a connection pool raises when every connection is taken (redis-py's
    ``MaxConnectionsError``)."""


#: Saves in flight that the pool below holds; the scaling probe fills with 200 at once.
POOL: Final = 150


@broken("save-max-connections", "MSG-01", under_load=True)
class SaveMaxConnections(InMemoryMemory):
    """save_message takes a connection from a pool of 150 and raises MaxConnectionsError when
    none is free: the scaling probe's 200 saves in flight lose some. A failure of the save's
    own rule (MSG-01: a saved message is stored), never a PERF-01 timing finding (issue 35)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._in_flight = 0

    async def save_message(self, session_id: str, message: Message) -> None:
        if self._in_flight >= POOL:
            raise MaxConnectionsError("Too many connections")
        self._in_flight += 1
        try:
            await asyncio.sleep(0)  # the round trip to the server
            await super().save_message(session_id, message)
        finally:
            self._in_flight -= 1
