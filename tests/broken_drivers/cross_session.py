"""Broken cross-session reads that only filters used together reveal: each is caught by exactly
the rules it lists (``tests/proofs/test_broken_drivers.py``, default mode: MUST rules fail, SHOULD rules
are advisories)."""

from __future__ import annotations

import attrs

from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.types import RecentMessageRecord
from broken_drivers import broken
from broken_drivers.messages import Query


@broken("cross-platform-drops-exclusions", "CROSS-05")
class CrossPlatformDropsExclusions(InMemoryMemory):
    """With a platform given, the read takes a per-platform query path that forgets
    exclude_session_ids (each filter alone works)."""

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        if query.platform is not None:
            query = attrs.evolve(query, exclude_session_ids=None)
        return await super().get_recent_messages_across_sessions(query)


@broken("cross-cut-before-filter", "CROSS-01", "LIM-04", "CROSS-02")
class CrossCutBeforeFilter(InMemoryMemory):
    """Takes the newest min(limit, cap) active messages first and filters those (the LIMIT in the
    inner query), so a filtered read returns fewer records than asked, down to none.

    CROSS-01 ("exactly min(cap, matching messages), never fewer"), LIM-04 (an unlimited read is
    "narrowed to" the cap, read as CROSS-01 reads it: exactly the cap) and CROSS-02 ("the newest N
    active messages"). Its filters themselves are right: not CROSS-03..05.
    """

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        limit = sem.check_limit(query.limit, sem.DEFAULT_CROSS_SESSION_MAX_LIMIT, "query.limit")
        newest = self._newest_across_sessions(
            min(limit, self.cross_session_max_limit), lambda _session_id, s: not s.archived
        )
        keep = sem.cross_session_filter(query)
        return [record for record in newest if keep(record.session_id, record.message)]
