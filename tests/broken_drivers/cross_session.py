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


@broken("cross-cut-before-filter", "CROSS-01", "CROSS-02")
class CrossCutBeforeFilter(InMemoryMemory):
    """Takes the newest min(limit, cap) active messages first and filters those (the LIMIT in the
    inner query), so a filtered read returns fewer records than asked, down to none.

    CROSS-01 ("exactly min(cap, matching messages), never fewer") and CROSS-02 ("the newest N
    active messages"). Not LIM-04: math.inf is "narrowed to" the cap, reading exactly as
    limit=cap does (how many that read returns is CROSS-01's). Its filters themselves are right:
    not CROSS-03..05.
    """

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        limit = sem.check_limit(query.limit, sem.DEFAULT_CROSS_SESSION_MAX_LIMIT, "query.limit")
        newest = self._newest_across_sessions(
            min(limit, self.cross_session_max_limit), lambda _session_id, s: not s.archived
        )
        keep = sem.cross_session_filter(query)
        return [record for record in newest if keep(record.session_id, record.message)]


@broken("cross-capped-recent-list", "CROSS-01", "CROSS-02")
class CrossCappedRecentList(InMemoryMemory):
    """The cross-session read looks only at a store-wide list of the newest
    ``cross_session_max_limit`` active messages (a capped "recent" list, trimmed on every write),
    filters that list and returns the newest ``limit`` of what is left: when the filters drop
    some of those newest messages, it returns fewer than there are.

    Decided from the rules' words before any run:
    CROSS-01: "it returns exactly min(cap, matching messages), never fewer": above the cap, a
    filtered read comes back short.
    CROSS-02: "returns the newest N active messages": within the cap, a filtered read comes back
    short, older matching messages left out.
    Not LIM-04: math.inf is "narrowed to the backend's cross_session_max_limit" (it reads exactly
    as limit=cap does, never more). Not LIM-01 (0 reads nothing) nor CROSS-03..05 (each filter
    keeps and drops what it should; only the list it filters is short).
    """

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        query = sem.check_query(query)
        limit = sem.check_limit(query.limit, sem.DEFAULT_CROSS_SESSION_MAX_LIMIT, "query.limit")
        recent = self._newest_across_sessions(self.cross_session_max_limit, lambda _s, s: not s.archived)
        keep = sem.cross_session_filter(query)
        matching = [record for record in recent if keep(record.session_id, record.message)]
        return sem.newest(matching, min(limit, self.cross_session_max_limit))
