"""Drivers whose one bug sits under many tests' setup or observation steps (issue 21).

Each breaks one basic behaviour that other rules' tests lean on: a required method missing, a
read of the whole history with ``math.inf`` raising. The suite must fail the broken rule and
report every rule whose tests needed it ``blocked`` by it, and no other rule may fail
(``tests/proofs/test_blocked_verdicts.py`` checks the blocked part; ``tests/proofs/test_broken_drivers.py``
the failing part).
"""

from __future__ import annotations

import math
from typing import Any

from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.service import OPTIONAL_METHODS, Limit
from aalis_memory.types import Message
from broken_drivers import broken


class OnlyRequired(InMemoryMemory):
    """Exactly the required methods, and no optional one (a first, minimal backend)."""

    #: Required methods this backend also lacks.
    lacking: frozenset[str] = frozenset()

    def __getattribute__(self, name: str) -> Any:
        if name in OPTIONAL_METHODS or name in type(self).lacking:
            raise AttributeError(name)
        return super().__getattribute__(name)


@broken("required-only-no-archive", "REQ-01")
class RequiredOnlyNoArchive(OnlyRequired):
    """Only the required methods, and archive_span left out (compression cannot run on it)."""

    lacking = frozenset({"archive_span"})


@broken("history-infinity-raises", "LIM-02")
class HistoryInfinityRaises(InMemoryMemory):
    """get_history(session, math.inf) raises TypeError (the limit reaches int() unchecked)."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        if limit == math.inf:
            raise TypeError("cannot convert float infinity to integer")
        return await super().get_history(session_id, limit)


@broken("history-drops-leading-markers", "HIST-05")
class HistoryDropsLeadingMarkers(InMemoryMemory):
    """A whole history (no more conversation messages than the limit) comes back without the
    control records before its first conversation message: a read every other test observes
    through, so their failures are HIST-05's (blocked), not theirs."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        found = await super().get_history(session_id, limit)
        everything = await super().get_history(session_id, math.inf)
        if len(found) != len(everything):
            return found
        first = next((i for i, m in enumerate(found) if not m.is_control), len(found))
        return found[first:]
