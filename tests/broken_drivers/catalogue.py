"""Broken stores for the checks the catalogue work added or changed: exact caps (RANGE-01,
CROSS-01), kinds coming back (MSG-05) and timestamps kept by a rewrite (UPD-04).

Each is caught by exactly the rules it lists (``tests/proofs/test_broken_drivers.py``, in the default
mode: MUST rules fail, SHOULD rules are advisories). The required-methods rule (REQ-01) has a
broken store here too: the missing method fails REQ-01 alone, and the tests that need it are
blocked by REQ-01 (``tests/proofs/test_blocked_verdicts.py``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import attrs

from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.service import Limit
from aalis_memory.types import ABSENT, CONTROL_KINDS, Message, RecentMessageRecord
from broken_drivers import broken
from broken_drivers.messages import Query, Ranging, RewriteVariant


@broken("range-empty-over-cap", "RANGE-01")
class RangeEmptyOverCap(Ranging):
    """A range holding more messages than the cap reads as empty (overflow treated as refusal)."""

    def _cut(self, hits: list[Message]) -> list[Message]:
        return [] if len(hits) > self.range_query_limit else hits


@broken("cross-empty-over-cap", "CROSS-01")
class CrossEmptyOverCap(InMemoryMemory):
    """Narrows math.inf to the cap, but a finite limit above it reads as empty once more
    messages match than the cap allows."""

    async def get_recent_messages_across_sessions(self, query: Query) -> list[RecentMessageRecord]:
        limit = sem.check_limit(query.limit, sem.DEFAULT_CROSS_SESSION_MAX_LIMIT, "query.limit")
        cap = self.cross_session_max_limit
        if limit != math.inf and limit > cap:
            matches = sem.cross_session_filter(query)
            everything = self._newest_across_sessions(
                limit, lambda session_id, s: not s.archived and matches(session_id, s.message)
            )
            if len(everything) > cap:
                return []
        return await super().get_recent_messages_across_sessions(query)


def _control_kinds_only(messages: list[Message]) -> list[Message]:
    return [m if m.kind in CONTROL_KINDS else attrs.evolve(m, kind=None) for m in messages]


@broken("drops-custom-kinds", "MSG-05")
class DropsCustomKinds(InMemoryMemory):
    """Keeps a marker flag instead of the kind: reads give event-marker back, every other kind
    (poke, outbound-image, ...) comes back as no kind. Filters still see the stored kind."""

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return _control_kinds_only(await super().get_history(session_id, limit))

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return _control_kinds_only(await super().get_full_history(session_id, limit))

    async def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        return _control_kinds_only(
            await super().get_messages_by_session_range(session_id, from_ts, to_ts, roles, exclude_kinds)
        )


@broken("update-restamps", "UPD-04")
class UpdateRestamps(RewriteVariant):
    """A rewritten message gets the time of the rewrite as its timestamp (an upsert that sets
    every column), though it keeps its place.

    UPD-04: a rewrite "never changes a message's timestamp". The history it is read through keeps
    the right messages in the right order (HIST-01, HIST-02 hold); the state machine names UPD-04
    by where the stamp changed, the rewrite.
    """

    def stored_after(self, message: Message, rewritten: str) -> Message:
        return attrs.evolve(message, content=rewritten, timestamp=time.time_ns() // 1_000_000)


@broken("missing-clear-session", "REQ-01")
class MissingClearSession(InMemoryMemory):
    """Implements every method but clear_session (a backend that left "clear" for later)."""

    def __getattribute__(self, name: str) -> Any:
        if name == "clear_session":
            raise AttributeError(name)
        return super().__getattribute__(name)


@broken("null-reasoning-on-full-reads", "MSG-07")
class NullReasoningOnFullReads(InMemoryMemory):
    """The read of archived history returns a message without content, saved without
    reasoning_content, with reasoning_content None (an absent field returned as null)."""

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        return [
            attrs.evolve(m, reasoning_content=None)
            if m.content is None and m.reasoning_content is ABSENT
            else m
            for m in await super().get_full_history(session_id, limit)
        ]


@broken("null-reasoning-on-every-read", "MSG-07", "MSG-02")
class NullReasoningOnEveryRead(InMemoryMemory):
    """A message saved without reasoning_content is stored, and so read back through every read,
    with reasoning_content None (a column that is NULL for "not given").

    MSG-07 ("comes back absent, not as null") and MSG-02 ("absent fields come back absent") are
    what it contradicts. The rules whose checks read such messages back (a kept position, an
    untouched rewrite, isolation, NUL and nesting round-trips) judge their own aspect, or what
    the store showed before the call: the null is not the archive's, the rewrite's or a copy's.
    """

    def _copy_in(self, message: Message) -> Message:
        stored = super()._copy_in(message)
        return attrs.evolve(stored, reasoning_content=None) if stored.reasoning_content is ABSENT else stored
