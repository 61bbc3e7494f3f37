"""The derived reads the machine checks after every step: range and cross-session.

After a step changed some sessions, their state reads (:meth:`StateChecks.check_state`) are
checked first, then an unfiltered range read of each and one cross-session read over all of them.
A derived read that fails is blamed on the step only if the state itself diverged (re-checked
then); on a verified state it is wrong on its own, and the diagnosis names the part that is:
the cap, archived rows, the limit, or the one filter that fails alone.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Sequence
from typing import Any

import attrs

from aalis_memory.conformance.checks import describe
from aalis_memory.conformance.machine.attribution import (
    cross_exercises,
    cross_rules,
    cross_sweep_rules,
    cross_witness_rules,
    range_exercises,
)
from aalis_memory.conformance.machine.contract_model import cross_session_accepts, take_newest
from aalis_memory.conformance.machine.core import MachineCore
from aalis_memory.conformance.machine.failure import Raised
from aalis_memory.conformance.machine.inputs import ALL, ORIGINS, ROLES, SESSIONS, ZERO_PICK
from aalis_memory.conformance.machine.snippets import py
from aalis_memory.conformance.machine.state_checks import StateChecks
from aalis_memory.types import Message, RecentMessageRecord, RecentMessagesAcrossSessionsQuery


def _record_key(record: Any) -> tuple[Any, Any]:
    return (getattr(record, "session_id", None), getattr(getattr(record, "message", None), "content", None))


class DerivedReads:
    """State checks of whole steps, and the range and cross-session reads that follow them."""

    def __init__(self, core: MachineCore, state: StateChecks) -> None:
        self.core = core
        self.state = state

    def check_session(
        self, session: str, cause: Sequence[str], full_cause: Sequence[str] | None = None
    ) -> None:
        self.check_sessions([(session, cause, full_cause)])

    def check_sessions(self, checks: Sequence[tuple[str, Sequence[str], Sequence[str] | None]]) -> None:
        """History, count and full history of each session must match the model.

        The state reads of every session come before any derived read (range, cross-session):
        a step that damaged another session is then blamed on that step's rule for it, and a
        derived read that still fails is wrong on its own. Each checking read is dropped from
        the recorded script once it passed: only a failing read belongs in the reproduction.
        """
        for session, cause, full_cause in checks:
            self.state.check_state(session, cause, full_cause)
        for session, cause, full_cause in checks:
            self.sweep_range(session, [*(full_cause or ()), *cause, *self.core.unknown(session)])
        session, cause, full_cause = checks[0]
        self.sweep_cross_sessions([*(full_cause or ()), *cause, *self.core.unknown(session)])

    def check_others(self, named: Collection[str], rule_id: str) -> None:
        """After a write that named the sessions ``named``: every other session's messages,
        active and archived, are as they were. A difference is ``rule_id``'s: MSG-06 after
        clear_session and deletions (the methods it names), MSG-01 (history is kept per session)
        after saves, archives and content rewrites."""
        others = [s for s in SESSIONS if s not in named and not self.core.skips(s)]
        for other in others:
            self.core.current.verified.add(other)
            cause = [rule_id, *self.core.unknown(other)]
            with self.core.checking("get_history", other, ALL) as results:
                self.core.expect_messages(
                    other,
                    results,
                    self.core.model.get_history(other, ALL),
                    ("HIST-01", "HIST-05"),
                    "HIST-02",
                    cause,
                )
            if "get_full_history" in self.core.stores.methods:
                with self.core.checking("get_full_history", other, ALL) as results:
                    self.core.expect_messages(
                        other,
                        results,
                        self.core.model.get_full_history(other, ALL),
                        ("FULL-01", "ARCH-09"),
                        "FULL-02",
                        cause,
                        interleaving=True,
                    )
        if any(self.core.model.holds_messages(s) for s in others):
            self.core.credit({rule_id})

    def stored_stamp(self, pick: int | None) -> int | float | None:
        """A timestamp some message has (picked by index), so inclusive bounds are exercised;
        :data:`ZERO_PICK` asks for 0 ms itself."""
        if pick is None:
            return None
        if pick == ZERO_PICK:
            return 0
        stamps = sorted(t for s in SESSIONS for t in self.core.model.stored_timestamps(s))
        return stamps[pick % len(stamps)] if stamps else ORIGINS[0]

    def range_agrees(self, actual: Any, expected: list[Message], hits: list[Message]) -> bool:
        """Whether a range read answered ``expected`` (``hits`` before the cap). With RANGE-03
        tolerated, order and which end a truncated answer keeps are not compared; its size
        still is, exactly (RANGE-01)."""
        seen = self.core.tolerance.compared(actual)
        if "RANGE-03" not in self.core.tolerance:
            return bool(seen == self.core.tolerance.compared(expected))
        if not isinstance(seen, list) or len(seen) != len(expected):
            return False
        pool = self.core.tolerance.compared(hits)
        return all(m in pool for m in seen) and len({repr(m) for m in seen}) == len(seen)

    def range_unjudged(self, hits: Sequence[Message]) -> bool:
        """Whether a range read over ``hits`` is left uncompared: with drivers of which some
        declare a range cap and some none, a read over the cap has no one right answer."""
        return self.core.declared.range_mixed and len(hits) > self.core.declared.range_cut

    def range_capped_wrong(self, session: str, actual: Any, hits: list[Message]) -> list[str]:
        """The rules a range answer of the wrong size is filed under, before any other: archived
        rows left out (RANGE-02), else a capped read that did not return exactly the cap
        (RANGE-01: returning fewer, or nothing, breaks it as surely as returning more)."""
        cap = self.core.model.range_query_limit
        if not isinstance(actual, list) or len(actual) == min(cap, len(hits)):
            return []
        archived = self.core.model.archived_contents(session)
        kept = [m for m in hits if m.content not in archived]
        if len(kept) < len(hits) and self.core.tolerance.compared(actual) == self.core.tolerance.compared(
            kept[:cap]
        ):
            return ["RANGE-02"]  # exactly the answer without the archived rows
        return ["RANGE-01"] if len(hits) > cap else []

    def sweep_range(self, session: str, cause: Sequence[str]) -> None:
        """An unfiltered range read: the cap, archived rows, timestamp order.

        A failing sweep first re-checks the stored state: if it diverged, the step's ``cause``
        is to blame; if it is known to match, the read itself is, and ``cause`` is dropped.
        """
        if (
            self.core.skips(session)
            or "get_messages_by_session_range" not in self.core.stores.methods
            or ("RANGE-02" in self.core.tolerance and self.core.model.has_archived(session))
        ):
            return
        hits = self.core.model.session_range_hits(session, -math.inf, math.inf)
        if self.range_unjudged(hits):
            return
        expected = hits[: self.core.model.range_query_limit]
        with self.core.checking("get_messages_by_session_range", session, -math.inf, math.inf) as results:
            for driver, actual in results:
                if not self.range_agrees(actual, expected, hits):
                    self.range_sweep_failed(session, driver, actual, expected, hits, cause)
        archived = self.core.model.archived_contents(session)
        self.core.credit_read(
            session,
            range_exercises(
                hits, hits, self.core.model.range_query_limit, (-math.inf, math.inf), archived, filtered=False
            ),
            bool(expected),
        )

    def sweep_cross_sessions(self, cause: Sequence[str]) -> None:
        """A cross-session read over every role, since the oldest stored timestamp (CROSS-05:
        inclusive), asking for more than the cap: math.inf (LIM-04) after odd steps, a number
        (CROSS-01) after even ones. Blamed like :meth:`sweep_range`. (Limit 0, LIM-01, is the
        cross-session step's.)"""
        if "get_recent_messages_across_sessions" not in self.core.stores.methods or (
            "MSG-04" in self.core.tolerance and not any(self.core.model.holds_messages(s) for s in SESSIONS)
        ):
            return
        since = None if "CROSS-05" in self.core.tolerance else self.stored_stamp(0)
        limit = (
            math.inf if len(self.core.history.rule_log) % 2 else self.core.model.cross_session_max_limit + 3
        )
        query = RecentMessagesAcrossSessionsQuery(limit=limit, roles=ROLES, since_ts=since)
        candidates, wanted = self.core.model.cross_session_candidates(query)
        with self.core.checking("get_recent_messages_across_sessions", query) as results:
            for driver, actual in results:
                why = (
                    f"raised {actual.error.__name__}"
                    if isinstance(actual, Raised)
                    else self.cross_verdict(candidates, wanted, actual)
                )
                if why is not None:
                    blame = [] if self.state.verify_all_state(cause) else cause
                    rules = [
                        *self.cross_read_rules(driver, query, candidates, wanted, actual),
                        *cross_sweep_rules(
                            candidates,
                            actual,
                            self.core.model.cross_session_max_limit,
                            self.core.model.is_archived_content,
                            blame,
                        ),
                        *cross_rules(query, len(candidates), self.core.model.cross_session_max_limit),
                        *blame,
                    ]
                    raise self.core.blame.disagreement(
                        rules,
                        driver,
                        f"get_recent_messages_across_sessions({py(query)}): {why}; got {describe(actual)}",
                    )
        self.credit_cross(query, candidates)

    def cross_verdict(
        self, candidates: list[RecentMessageRecord], wanted: int | float, actual: Any
    ) -> str | None:
        """Why ``actual`` is not a valid answer (``None``: it is). With CROSS-02 tolerated only
        its size is compared, exactly (CROSS-01, LIM-04), and only while nothing is archived."""
        if not isinstance(actual, list):
            return f"expected a list, got {describe(actual)}"
        if "CROSS-02" in self.core.tolerance:
            if any(self.core.model.has_archived(s) for s in SESSIONS):
                return None
            size = len(candidates) if wanted >= len(candidates) else int(wanted)
            return None if len(actual) == size else f"expected {size} records, got {len(actual)}"
        return cross_session_accepts(
            self.core.tolerance.compared(candidates), wanted, self.core.tolerance.compared(actual)
        )

    def credit_cross(
        self, query: RecentMessagesAcrossSessionsQuery, candidates: list[RecentMessageRecord]
    ) -> None:
        """Credit a cross-session read that held: the rules :func:`cross_exercises` names."""

        def without(fields: tuple[str, ...]) -> list[RecentMessageRecord]:
            if fields == ("roles",) and set(query.roles or ()) >= set(ROLES):
                return candidates  # every role asked for: clearing roles changes nothing
            cleared: dict[str, Any] = {f: None for f in fields}
            if "roles" in fields:
                cleared["roles"] = ROLES
            return self.core.model.cross_session_candidates(attrs.evolve(query, **cleared))[0]

        rules = cross_exercises(query, candidates, self.core.model.cross_session_max_limit, without)
        if "CROSS-02" in self.core.tolerance:
            if any(self.core.model.has_archived(s) for s in SESSIONS):
                return  # nothing was compared (see cross_verdict)
            rules -= {"CROSS-03", "CROSS-04", "CROSS-05"}  # only sizes were compared
        elif candidates and query.limit != 0 and "MSG-02" not in self.core.tolerance:
            rules.add("MSG-02")
        self.core.credit(rules)

    def range_sweep_failed(
        self,
        session: str,
        driver: str,
        actual: Any,
        expected: list[Message],
        hits: list[Message],
        cause: Sequence[str],
    ) -> None:
        """Raise for an unfiltered range read that differs from the model, naming the rule."""
        blame = [] if self.state.verify_all_state(cause) else cause
        capped = len(hits) > len(expected)
        read = ["RANGE-01", "RANGE-03"] if capped else ["RANGE-02", "RANGE-03"]
        if capped and isinstance(actual, list) and len(actual) == len(expected):
            read.reverse()
        rules = self.core.mismatch_rules(session, expected, actual, read, "RANGE-03", blame)
        if capped and isinstance(actual, list):
            rules = [*read, *rules]  # over a full cap, the cap explains first
            archived = self.core.model.archived_contents(session)
            active = [m for m in hits if m.content not in archived]
            if actual == active[: len(expected)]:
                rules.insert(0, "RANGE-02")  # archived rows went missing
        self.core.expect_value(
            [*self.range_capped_wrong(session, actual, hits), *rules], [(driver, actual)], expected
        )

    def cross_read_rules(
        self,
        driver: str,
        query: RecentMessagesAcrossSessionsQuery,
        candidates: list[RecentMessageRecord],
        wanted: int | float,
        actual: Any,
    ) -> list[str]:
        """The filter rules a wrong cross-session answer is filed under, most certain first:
        too few records that are all the newest of the right ones (the count's rule, never a
        filter's: the filters let through only what they should), records that no candidate
        explains, filters that fail alone, edges a filter missed."""
        newest = take_newest(candidates, wanted)
        if self.crowded_out(query, candidates, wanted, actual):
            cap = self.core.model.cross_session_max_limit
            over = query.limit > cap and len(candidates) > cap
            # Too few is the count's (CROSS-01), math.inf's included: LIM-04 is only that inf
            # does not escape the cap, which a short answer does not contradict.
            return ["CROSS-01" if over else "CROSS-02"]
        extra, missing = cross_witness_rules(
            query, newest, candidates, actual, self.core.model.stored_message
        )
        return [
            *extra,
            *self.cross_limit_failing(driver, query),
            *self.cross_filters_failing(driver, query),
            *missing,
        ]

    def crowded_out(
        self,
        query: RecentMessagesAcrossSessionsQuery,
        candidates: list[RecentMessageRecord],
        wanted: int | float,
        actual: Any,
    ) -> bool:
        """Whether ``actual`` is too short in exactly the way of a read that took the newest
        ``wanted`` active records first and filtered those: the filters kept what they should
        (their rules hold), the count did not (CROSS-01/02's words, LIM-04's)."""
        if not isinstance(actual, list) or not 0 < len(actual) < min(wanted, len(candidates)):
            return False
        everything = attrs.evolve(
            query,
            limit=math.inf,
            roles=tuple(ROLES),
            kinds=None,
            exclude_kinds=None,
            since_ts=None,
            platform=None,
            exclude_session_ids=None,
        )
        every, _ = self.core.model.cross_session_candidates(everything)
        kept = {_record_key(r) for r in candidates}
        cut_first = [r for r in take_newest(every, wanted) if _record_key(r) in kept]
        return Counter(map(_record_key, actual)) == Counter(map(_record_key, cut_first))

    def cross_limit_failing(self, driver: str, query: RecentMessagesAcrossSessionsQuery) -> list[str]:
        """The limit rule, when the same query with limit math.inf is answered right: a limit
        above the cap (CROSS-01), 0 (LIM-01), or the newest N below it (CROSS-02)."""
        if query.limit == math.inf:
            return []
        unlimited = attrs.evolve(query, limit=math.inf)
        candidates, wanted = self.core.model.cross_session_candidates(unlimited)
        actual = self.core.stores.probe(driver, "get_recent_messages_across_sessions", unlimited)
        if isinstance(actual, Raised) or self.cross_verdict(candidates, wanted, actual):
            return []
        cap = self.core.model.cross_session_max_limit
        return ["CROSS-01" if query.limit > cap else "LIM-01" if query.limit == 0 else "CROSS-02"]

    def cross_filters_failing(self, driver: str, query: RecentMessagesAcrossSessionsQuery) -> list[str]:
        """Rules of the query's filters that fail on their own (probed only after a failure).

        Each filter is asked alone, over every role; the unfiltered read must pass first, or no
        single filter is to blame.
        """

        def wrong(**fields: Any) -> bool:
            probe = RecentMessagesAcrossSessionsQuery(limit=math.inf, **{"roles": ROLES, **fields})
            candidates, wanted = self.core.model.cross_session_candidates(probe)
            actual = self.core.stores.probe(driver, "get_recent_messages_across_sessions", probe)
            return isinstance(actual, Raised) or self.cross_verdict(candidates, wanted, actual) is not None

        if wrong():
            return []
        filters: list[tuple[str, dict[str, Any]]] = [
            ("CROSS-04", {"kinds": query.kinds, "exclude_kinds": query.exclude_kinds}),
            ("CROSS-05", {"since_ts": query.since_ts}),
            ("CROSS-05", {"platform": query.platform}),
            ("CROSS-05", {"exclude_session_ids": query.exclude_session_ids}),
        ]
        active = [(r, f) for r, f in filters if any(v is not None for v in f.values())]
        if query.roles != ROLES:  # None too: the default roles are a filter (CROSS-03)
            active.insert(0, ("CROSS-03", {"roles": query.roles}))
        return [rule_id for rule_id, fields in active if wrong(**fields)]

    def range_filters_failing(
        self,
        driver: str,
        session: str,
        low: float,
        high: float,
        roles: list[str] | None,
        exclude_kinds: list[str] | None,
    ) -> list[str]:
        """As :meth:`cross_filters_failing`, for a range read: bounds, roles, kinds alone."""

        def wrong(*args: Any) -> bool:
            hits = self.core.model.session_range_hits(session, *args)
            if self.range_unjudged(hits):
                return False
            actual = self.core.stores.probe(driver, "get_messages_by_session_range", session, *args)
            return not self.range_agrees(actual, hits[: self.core.model.range_query_limit], hits)

        unbounded = (-math.inf, math.inf)
        if wrong(*unbounded, None, None):
            return []
        filters: list[tuple[str, tuple[Any, ...]]] = [
            ("RANGE-02", (low, high, None, None)),
            ("RANGE-04", (*unbounded, roles, None)),
            ("RANGE-04", (*unbounded, None, exclude_kinds)),
        ]
        return [rule_id for rule_id, args in filters if args != (*unbounded, None, None) and wrong(*args)]


__all__ = ["DerivedReads"]
