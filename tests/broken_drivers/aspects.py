"""Value bugs that used to spill into other rules' checks: each one returns a wrong value (never
an error), and must fail only the rules whose words that value contradicts.

A check judges one aspect of what a read returns (which records, their order, the window, a
field); a rule not about order compares records without their order, and a check that reads
through another rule's method stands on that rule (``steps.stands_on``, ``steps.observing``). So
a newest-first history is HIST-02's alone, not also MSG-01's ("one session never sees another's
messages") or LIM-02's.
"""

from __future__ import annotations

from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.service import Limit
from aalis_memory.types import Message
from broken_drivers import broken


@broken("history-newest-first", "HIST-02")
class HistoryNewestFirst(InMemoryMemory):
    """get_history returns the right window, newest message first.

    HIST-02: "get_history is ascending by time" is what it contradicts. The window (HIST-03..05),
    the records (HIST-01, MSG-01, LIM-02, LIM-07) and every rule read through get_history hold:
    each sees the right messages.
    """

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return list(reversed(await super().get_history(session_id, limit)))


def _cut_at_nul(session_id: str) -> str:
    return session_id.split("\x00", 1)[0]


@broken("session-ids-cut-at-nul", "INPUT-05")
class SessionIdsCutAtNul(InMemoryMemory):
    r"""Session ids end at their first NUL character (a C string in the storage layer), so
    's-nul\x00tail' and 's-nul' are one session.

    INPUT-05: "NUL characters round-trip unchanged in content, ids, ...". MSG-01 holds for ids
    without NUL, and every other rule's ids have none.
    """

    async def save_message(self, session_id: str, message: Message) -> None:
        await super().save_message(_cut_at_nul(session_id), message)

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return await super().get_history(_cut_at_nul(session_id), limit)
