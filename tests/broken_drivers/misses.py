"""Bugs the kit once let pass (issue 26): each is caught by exactly the rules it declares, now
that the suite's data reaches them (``tests/proofs/test_broken_drivers.py``, default mode: MUST rules
fail, SHOULD rules are advisories)."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence

from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.inmemory import InMemoryMemory, StoredMetadata
from aalis_memory.types import JsonObject, Message, MetadataPut, RecentMessageRecord
from broken_drivers import broken
from broken_drivers.messages import Query


# CONC-05 (SHOULD): "updated_at of a key never goes backwards while several tasks overwrite it";
# a stamp taken before the write lands after a newer one. commit_metadata is the reference one,
# so only the save_metadata phases of CONC-05's test see it.
@broken("save-metadata-stamp-race", "CONC-05")
class SaveMetadataStampRace(InMemoryMemory):
    """save_metadata stamps updated_at before the await of its write, whose round trip grows with
    the payload: an overwrite that stamped early can land after a later one, with a lower stamp."""

    async def save_metadata(self, namespace: str, key: str, data: JsonObject) -> None:
        [(op, text)] = sem.encode_batch([MetadataPut(namespace, key, data)])
        assert text is not None  # a put always has a payload
        previous = self._metadata.get(op.namespace, {}).get(op.key)
        stamp = sem.next_updated_at(None if previous is None else previous.updated_at)
        for _ in range(sum(text.encode()) % 3):  # the round trip of a real backend
            await asyncio.sleep(0)
        self._metadata.setdefault(op.namespace, {})[op.key] = StoredMetadata(text, stamp)


#: How many times the limit (or the range cap) the crowded reads below fetch before filtering.
OVERFETCH = 8


# CROSS-01: "returns exactly min(cap, matching messages), never fewer"; CROSS-02: "returns the
# newest N active messages": with the newest 8 x limit rows all failing the filters, fewer (or
# none) come back. The filters themselves are right (not CROSS-03..05), and math.inf fetches
# everything (not LIM-04).
@broken("cross-fetch-limit-times-8", "CROSS-01", "CROSS-02")
class CrossFetchLimitTimes8(InMemoryMemory):
    """A cross-session read fetches the newest limit x 8 active rows (no LIMIT for math.inf)
    and applies the filters afterwards: when more than that many newer rows fail the filters,
    fewer records come back than match, down to none."""

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        query = sem.check_query(query)
        limit = sem.check_limit(query.limit, sem.DEFAULT_CROSS_SESSION_MAX_LIMIT, "query.limit")
        fetched = self._newest_across_sessions(
            math.inf if limit == math.inf else limit * OVERFETCH, lambda _session_id, s: not s.archived
        )
        keep = sem.cross_session_filter(query)
        hits = [record for record in fetched if keep(record.session_id, record.message)]
        return sem.newest(hits, min(limit, self.cross_session_max_limit))


# RANGE-01 (MUST): "with more matching messages than the cap it returns exactly the cap, never
# fewer": a crowded range returns fewer. Not RANGE-04: what it returns passes roles and
# exclude_kinds, and each drops exactly what the rule says; not RANGE-03: what it returns is
# ascending and the earliest of what it fetched.
@broken("range-fetch-cap-times-8", "RANGE-01")
class RangeFetchCapTimes8(InMemoryMemory):
    """A range read fetches the earliest range_query_limit x 8 rows of the time range and
    applies roles and exclude_kinds afterwards: crowded by filtered rows, it returns fewer than
    the cap while more match."""

    async def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        session_id = sem.check_session_id(session_id)
        from_ts, to_ts, roles, exclude_kinds = sem.check_range(from_ts, to_ts, roles, exclude_kinds)
        in_range = sem.range_filter(from_ts, to_ts, None, None)
        rows = sorted(
            (s.message for s in self._sessions.get(session_id, ()) if in_range(s.message)), key=sem.stamp
        )[: self.range_query_limit * OVERFETCH]
        keep = sem.range_filter(from_ts, to_ts, roles, exclude_kinds)
        return self._copy_out([m for m in rows if keep(m)][: self.range_query_limit])
