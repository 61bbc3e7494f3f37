"""The generated range and cross-session reads: filters, bounds, limits and caps.

Each read is compared with the model's answer; one that differs is diagnosed by the probes of
:mod:`.derived_reads` (the filter that fails alone, a cap, archived rows) before it is filed under
a rule. A tolerated rule turns off the inputs only it decides.
"""

from __future__ import annotations

import math

from aalis_memory.conformance.checks import describe
from aalis_memory.conformance.machine.attribution import (
    cross_rules,
    range_exercises,
)
from aalis_memory.conformance.machine.contract_model import CROSS_DEFAULT_ROLES
from aalis_memory.conformance.machine.core import MachineCore
from aalis_memory.conformance.machine.derived_reads import DerivedReads
from aalis_memory.conformance.machine.failure import Raised
from aalis_memory.conformance.machine.inputs import (
    ORIGINS,
    SESSIONS,
    ZERO_PICK,
    whitelist,
)
from aalis_memory.conformance.machine.snippets import py
from aalis_memory.types import RecentMessagesAcrossSessionsQuery


class QuerySteps:
    """The range and cross-session reads."""

    def __init__(self, core: MachineCore, reads: DerivedReads) -> None:
        self.core = core
        self.reads = reads

    def session_stamp(self, session: str, pick: int) -> int | float:
        """A timestamp of ``session`` picked by index (so inclusive bounds really matter), or
        0 ms itself for :data:`ZERO_PICK`."""
        if pick == ZERO_PICK:
            return 0
        stamps = sorted(self.core.model.stored_timestamps(session)) or [ORIGINS[0]]
        return stamps[pick % len(stamps)]

    def get_messages_by_session_range(
        self,
        session: str,
        bounds: tuple[int, int],
        unbounded: str,
        roles: list[str] | None,
        exclude_kinds: list[str] | None,
    ) -> None:
        if self.core.skips(session):
            return
        roles = whitelist(roles)
        if "RANGE-04" in self.core.tolerance:
            roles = exclude_kinds = None
        low: int | float = self.session_stamp(session, bounds[0])
        high: int | float = self.session_stamp(session, bounds[1])
        if unbounded == "from" or "RANGE-02" in self.core.tolerance:
            low = -math.inf
        if unbounded == "to" or "RANGE-02" in self.core.tolerance:
            high = math.inf
        if "RANGE-02" in self.core.tolerance and self.core.model.has_archived(session):
            return
        cap = self.core.model.range_query_limit
        hits = self.core.model.session_range_hits(session, low, high, roles, exclude_kinds)
        if self.reads.range_unjudged(hits):
            return
        expected = hits[:cap]
        results = self.core.call("get_messages_by_session_range", session, low, high, roles, exclude_kinds)
        capped = len(hits) > cap
        read: tuple[str, ...] = ("RANGE-01", "RANGE-03") if capped else ("RANGE-02", "RANGE-04")
        filtered = roles is not None or bool(exclude_kinds)
        read = ("RANGE-04", *read) if filtered else (*read, "RANGE-02")
        for driver, actual in results:
            if self.reads.range_agrees(actual, expected, hits):
                continue
            if isinstance(actual, list) and len(actual) > cap:
                raise self.core.blame.disagreement(
                    ["RANGE-01"], driver, f"range read returned {len(actual)} messages, cap is {cap}"
                )
            if capped and isinstance(actual, list) and len(actual) == len(expected):
                read = ("RANGE-03", *read)  # the right number, the wrong end kept
            missing = [m for m in expected if isinstance(actual, list) and m not in actual]
            if missing and all(m.timestamp in (low, high) for m in missing):
                read = ("RANGE-02", *read)  # only messages on a bound went missing
            read = (
                *self.reads.range_filters_failing(driver, session, low, high, roles, exclude_kinds),
                *self.reads.range_capped_wrong(session, actual, hits),
                *read,
            )
            rules = self.core.mismatch_rules(session, expected, actual, read, "RANGE-03", ())
            self.core.expect_value(rules, [(driver, actual)], expected)
        unfiltered = self.core.model.session_range_hits(session, low, high)
        self.core.credit_read(
            session,
            range_exercises(
                hits, unfiltered, cap, (low, high), self.core.model.archived_contents(session), filtered
            ),
            bool(expected),
        )

    def get_recent_messages_across_sessions(
        self,
        limit: int | float,
        since: int | None,
        platform: str | None,
        exclude: list[str] | None,
        roles: list[str] | None,
        kinds: list[str] | None,
        exclude_kinds: list[str] | None,
    ) -> None:
        if "MSG-04" in self.core.tolerance and not any(self.core.model.holds_messages(s) for s in SESSIONS):
            return
        roles, kinds = whitelist(roles), whitelist(kinds)
        if roles is None and "CROSS-03" in self.core.tolerance:
            roles = list(CROSS_DEFAULT_ROLES)
        if "CROSS-04" in self.core.tolerance:
            kinds = exclude_kinds = None
        if "CROSS-05" in self.core.tolerance:
            since = platform = exclude = None
        query = RecentMessagesAcrossSessionsQuery(
            limit=limit,
            since_ts=self.reads.stored_stamp(since),
            platform=platform,
            exclude_session_ids=exclude,
            roles=roles,
            kinds=kinds,
            exclude_kinds=exclude_kinds,
        )
        candidates, wanted = self.core.model.cross_session_candidates(query)
        rules = cross_rules(query, len(candidates), self.core.model.cross_session_max_limit)
        results = self.core.call("get_recent_messages_across_sessions", query)
        for driver, actual in results:
            if isinstance(actual, Raised):
                raise self.core.blame.disagreement(
                    rules,
                    driver,
                    f"cross-session read {py(query)} raised {actual.error.__name__}: {actual.text}",
                )
            why = self.reads.cross_verdict(candidates, wanted, actual)
            if why is not None:
                expected = self.core.model.get_recent_messages_across_sessions(query)
                rules = [*self.reads.cross_read_rules(driver, query, candidates, wanted, actual), *rules]
                raise self.core.blame.disagreement(
                    rules,
                    driver,
                    f"get_recent_messages_across_sessions({py(query)})"
                    f": {why}; expected e.g. {describe(expected)}, got "
                    f"{describe(actual)}",
                )
        self.reads.credit_cross(query, candidates)


__all__ = ["QuerySteps"]
