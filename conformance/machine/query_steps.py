"""The generated range and cross-session reads: filters, bounds, limits and caps.

Each read is compared with the model's answer; one that differs is diagnosed by the probes of
:mod:`.derived_reads` (the filter that fails alone, a cap, archived rows) before it is filed under
a rule. A tolerated rule turns off the inputs only it decides.
"""

from __future__ import annotations

import math

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from aalis_memory.conformance.checks import describe
from aalis_memory.conformance.machine.attribution import (
    cross_rules,
    range_exercises,
)
from aalis_memory.conformance.machine.contract_model import CROSS_DEFAULT_ROLES
from aalis_memory.conformance.machine.core import logged
from aalis_memory.conformance.machine.derived_reads import DerivedReads
from aalis_memory.conformance.machine.failure import Raised
from aalis_memory.conformance.machine.inputs import (
    CROSS_LIMITS,
    ORIGINS,
    PLATFORMS,
    QUERY_KINDS,
    ROLES,
    SESSIONS,
    STAMP_PICKS,
    ZERO_PICK,
    whitelist,
)
from aalis_memory.conformance.machine.snippets import py
from aalis_memory.types import RecentMessagesAcrossSessionsQuery


class QuerySteps(DerivedReads):
    """The range and cross-session reads."""

    def session_stamp(self, session: str, pick: int) -> int | float:
        """A timestamp of ``session`` picked by index (so inclusive bounds really matter), or
        0 ms itself for :data:`ZERO_PICK`."""
        if pick == ZERO_PICK:
            return 0
        stamps = sorted(self.model.stored_timestamps(session)) or [ORIGINS[0]]
        return stamps[pick % len(stamps)]

    @precondition(lambda self: "get_messages_by_session_range" in self.stores.methods)
    @rule(
        session=st.sampled_from(SESSIONS),
        bounds=st.tuples(STAMP_PICKS, STAMP_PICKS),
        unbounded=st.sampled_from(("none", "none", "from", "to")),
        roles=st.one_of(st.none(), st.lists(st.sampled_from(ROLES), max_size=2)),
        exclude_kinds=st.one_of(st.none(), st.lists(st.sampled_from(QUERY_KINDS), max_size=2)),
    )
    @logged
    def get_messages_by_session_range(
        self,
        session: str,
        bounds: tuple[int, int],
        unbounded: str,
        roles: list[str] | None,
        exclude_kinds: list[str] | None,
    ) -> None:
        if self.skips(session):
            return
        roles = whitelist(roles)
        if "RANGE-04" in self.tolerance:
            roles = exclude_kinds = None
        low: int | float = self.session_stamp(session, bounds[0])
        high: int | float = self.session_stamp(session, bounds[1])
        if unbounded == "from" or "RANGE-02" in self.tolerance:
            low = -math.inf
        if unbounded == "to" or "RANGE-02" in self.tolerance:
            high = math.inf
        if "RANGE-02" in self.tolerance and self.model.has_archived(session):
            return
        cap = self.model.range_query_limit
        hits = self.model.session_range_hits(session, low, high, roles, exclude_kinds)
        if self.range_unjudged(hits):
            return
        expected = hits[:cap]
        results = self.call("get_messages_by_session_range", session, low, high, roles, exclude_kinds)
        capped = len(hits) > cap
        read: tuple[str, ...] = ("RANGE-01", "RANGE-03") if capped else ("RANGE-02", "RANGE-04")
        filtered = roles is not None or bool(exclude_kinds)
        read = ("RANGE-04", *read) if filtered else (*read, "RANGE-02")
        for driver, actual in results:
            if self.range_agrees(actual, expected, hits):
                continue
            if isinstance(actual, list) and len(actual) > cap:
                raise self.fail(
                    ["RANGE-01"], driver, f"range read returned {len(actual)} messages, cap is {cap}"
                )
            if capped and isinstance(actual, list) and len(actual) == len(expected):
                read = ("RANGE-03", *read)  # the right number, the wrong end kept
            missing = [m for m in expected if isinstance(actual, list) and m not in actual]
            if missing and all(m.timestamp in (low, high) for m in missing):
                read = ("RANGE-02", *read)  # only messages on a bound went missing
            read = (
                *self.range_filters_failing(driver, session, low, high, roles, exclude_kinds),
                *self.range_capped_wrong(session, actual, hits),
                *read,
            )
            rules = self.mismatch_rules(session, expected, actual, read, "RANGE-03", ())
            self.expect_value(rules, [(driver, actual)], expected)
        unfiltered = self.model.session_range_hits(session, low, high)
        self.credit_read(
            session,
            range_exercises(
                hits, unfiltered, cap, (low, high), self.model.archived_contents(session), filtered
            ),
            bool(expected),
        )

    @precondition(lambda self: "get_recent_messages_across_sessions" in self.stores.methods)
    @rule(
        limit=st.sampled_from(CROSS_LIMITS),
        since=st.one_of(st.none(), STAMP_PICKS),
        platform=st.sampled_from(PLATFORMS),
        exclude=st.one_of(st.none(), st.lists(st.sampled_from(SESSIONS), max_size=2)),
        roles=st.one_of(st.none(), st.lists(st.sampled_from(ROLES), max_size=3)),
        kinds=st.one_of(st.none(), st.lists(st.sampled_from(QUERY_KINDS), max_size=2)),
        exclude_kinds=st.one_of(st.none(), st.lists(st.sampled_from(QUERY_KINDS), max_size=2)),
    )
    @logged
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
        if "MSG-04" in self.tolerance and not any(self.model.holds_messages(s) for s in SESSIONS):
            return
        roles, kinds = whitelist(roles), whitelist(kinds)
        if roles is None and "CROSS-03" in self.tolerance:
            roles = list(CROSS_DEFAULT_ROLES)
        if "CROSS-04" in self.tolerance:
            kinds = exclude_kinds = None
        if "CROSS-05" in self.tolerance:
            since = platform = exclude = None
        query = RecentMessagesAcrossSessionsQuery(
            limit=limit,
            since_ts=self.stored_stamp(since),
            platform=platform,
            exclude_session_ids=exclude,
            roles=roles,
            kinds=kinds,
            exclude_kinds=exclude_kinds,
        )
        candidates, wanted = self.model.cross_session_candidates(query)
        rules = cross_rules(query, len(candidates), self.model.cross_session_max_limit)
        results = self.call("get_recent_messages_across_sessions", query)
        for driver, actual in results:
            if isinstance(actual, Raised):
                raise self.fail(
                    rules,
                    driver,
                    f"cross-session read {py(query)} raised {actual.error.__name__}: {actual.text}",
                )
            why = self.cross_verdict(candidates, wanted, actual)
            if why is not None:
                expected = self.model.get_recent_messages_across_sessions(query)
                rules = [*self.cross_read_rules(driver, query, candidates, wanted, actual), *rules]
                raise self.fail(
                    rules,
                    driver,
                    f"get_recent_messages_across_sessions({py(query)})"
                    f": {why}; expected e.g. {describe(expected)}, got "
                    f"{describe(actual)}",
                )
        self.credit_cross(query, candidates)


__all__ = ["QuerySteps"]
