"""The generated message steps: saves, the window reads, archives, clears, range and cross-session
reads, content rewrites and deletions by timestamp.

Each step calls the driver and the model, compares, re-checks the state it may have changed, and
credits the rules the comparison depended on. A tolerated rule (non-strict rerun) turns off the
inputs only it decides: see :data:`~aalis_memory.conformance.machine.tolerance.TOLERATIONS`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeGuard, cast

import attrs
from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from aalis_memory.conformance.checks import describe
from aalis_memory.conformance.machine.attribution import (
    archive_exercises,
    archive_rules,
    clear_exercises,
    cross_rules,
    delete_exercises,
    full_read_exercises,
    history_read_exercises,
    range_exercises,
    update_exercises,
    update_rules,
)
from aalis_memory.conformance.machine.contract_model import CROSS_DEFAULT_ROLES
from aalis_memory.conformance.machine.core import logged, now_ms
from aalis_memory.conformance.machine.derived_reads import DerivedReads
from aalis_memory.conformance.machine.failure import Raised
from aalis_memory.conformance.machine.inputs import (
    ALL,
    BAD_LIMITS,
    BAD_SPANS,
    CROSS_LIMITS,
    LIMITS,
    MAX_CLEARS,
    MAX_LONG_RUNS,
    MESSAGE_SPECS,
    NEW_TEXTS,
    OLD_TEXTS,
    ORIGINS,
    PLAIN_SPEC,
    PLATFORMS,
    QUERY_KINDS,
    ROLES,
    SAME_TEXT,
    SESSIONS,
    STAMP_PICKS,
    STRAY_TS,
    ZERO_PICK,
    MessageSpec,
    build_message,
)
from aalis_memory.conformance.machine.metadata_state import MetadataState
from aalis_memory.conformance.machine.snippets import Step, py
from aalis_memory.types import Message, RecentMessagesAcrossSessionsQuery

#: The rules that fix which messages a window read returns, besides its limit.
WINDOW_RULES: Final = {
    "get_history": ("HIST-04", "HIST-03", "HIST-05"),
    "get_full_history": ("FULL-02", "FULL-01", "ARCH-09"),
}


class MessageSteps(DerivedReads, MetadataState):
    """The message half of the machine's steps."""

    # -- saving ------------------------------------------------------------------------------

    def next_timestamp(self, spec: MessageSpec) -> int | float:
        """The generated timestamp of the next message: the history's origin first, then a
        step further each time (``late`` goes back, for timestamp-ordered drivers only)."""
        if self.started:
            # TS-01 tolerated: whole steps only, so no timestamp is fractional.
            self.cursor += math.ceil(spec.step) if "TS-01" in self.tolerance else spec.step
        self.started = True
        if self.ordering == "timestamp":
            return self.cursor - spec.late  # late arrivals only where they are ordered
        return self.cursor

    def save_one(self, session: str, spec: MessageSpec, timestamp: int | float | None = None) -> bool:
        """Save one generated message everywhere; returns whether the store stamped it."""
        self.counter += 1
        message = build_message(self.counter, spec, None)
        # One store-stamped message per history: two could share a millisecond or not, by the
        # clock, and a history must fail (or pass) the same way every time it is replayed.
        stamp_now = (
            spec.stamp_now
            and not self.differential
            and timestamp is None
            and not self.stamped
            and "MSG-03" not in self.tolerance
        )
        if not stamp_now:
            stamp = self.next_timestamp(spec) if timestamp is None else timestamp
            message = attrs.evolve(message, timestamp=stamp)
        before = now_ms()
        results = self.call("save_message", session, message)
        after = now_ms()
        self.expect_value(["MSG-01", "MSG-02"], results, None)
        if stamp_now:
            self.stamped = True
            stamped = self.observe_stamp(session, message, before, after)
            self.stamp = stamped
            if self.ordering == "write":
                self.cursor = max(self.cursor, stamped)
        self.model.save_message(session, message)
        self.fresh[message.content] = "stamped" if stamp_now else "save"
        if message.content is not None:
            self.owner[message.content] = session
        return stamp_now

    def observe_stamp(self, session: str, message: Message, before: int, after: int) -> int:
        """MSG-03: the stamp is the save time; it is the newest, so last in the history. A
        history whose last message is not the one saved lost it: that is the read's rule (a
        control record: the whole history keeps it, HIST-05) or the history's (MSG-01), never
        MSG-03's; one that holds it elsewhere put it out of order (HIST-02), unless its stamp
        is wrong (MSG-03: the order follows from the stamp)."""

        def stamped_now(stamp: object) -> TypeGuard[int]:
            return isinstance(stamp, int) and before <= stamp <= after

        with self.checking("get_history", session, ALL) as results:
            driver, history = results[0]
            listed = history if isinstance(history, list) else []
            last = listed[-1] if listed else None
            if getattr(last, "content", None) != message.content:
                held = [m for m in listed if getattr(m, "content", None) == message.content]
                lost = (
                    ["MSG-01", "HIST-05"]
                    if not held
                    else ["HIST-02"]
                    if stamped_now(getattr(held[0], "timestamp", None))
                    else ["MSG-03", "HIST-02"]
                )
                if not held and message.is_control:
                    lost.reverse()
                raise self.fail(
                    lost,
                    driver,
                    f"get_history({session!r}, {ALL}) right after save_message of "
                    f"{describe(message)}: its last message is {describe(last)}",
                )
            stamp = getattr(last, "timestamp", None)
            if not stamped_now(stamp):
                raise self.fail(
                    ["MSG-03"],
                    driver,
                    f"save_message without timestamp between {before} and {after} "
                    f"ms: stored timestamp {stamp!r}",
                )
        self.credit({"MSG-03"})
        return stamp

    @rule(session=st.sampled_from(SESSIONS), specs=st.lists(MESSAGE_SPECS, min_size=1, max_size=6))
    @logged
    def save_messages(self, session: str, specs: list[MessageSpec]) -> None:
        stamped = False
        for spec in specs:
            stamped = self.save_one(session, spec) or stamped
        cause = ["MSG-03"] if stamped else ["MSG-02"]
        self.check_session(session, [*cause, "MSG-01"])
        self.check_others({session}, "MSG-01")

    @rule(session=st.sampled_from(SESSIONS), specs=st.lists(MESSAGE_SPECS, min_size=2, max_size=6))
    @logged
    def save_conversation(self, session: str, specs: list[MessageSpec]) -> None:
        """Plain user/assistant turns: what cross-session reads and limits mostly see."""
        for index, spec in enumerate(specs):
            role = "user" if index % 2 == 0 else "assistant"
            self.save_one(session, attrs.evolve(spec, role=role, kind=None))
        self.check_session(session, ["MSG-02", "MSG-01"])
        self.check_others({session}, "MSG-01")

    @rule(
        sessions=st.lists(st.sampled_from(SESSIONS), min_size=2, max_size=3, unique=True), spec=MESSAGE_SPECS
    )
    @logged
    def save_at_one_moment(self, sessions: list[str], spec: MessageSpec) -> None:
        """One message in each of several sessions, all in the same millisecond: ties across
        sessions, which cross-session reads break by write order (CROSS-02)."""
        stamp = self.next_timestamp(attrs.evolve(spec, late=0))
        for session in sessions:
            self.save_one(session, attrs.evolve(spec, stamp_now=False), timestamp=stamp)
        self.check_sessions([(s, ["MSG-02", "MSG-01"], None) for s in sessions])
        self.check_others(set(sessions), "MSG-01")

    @precondition(lambda self: self.long_runs < MAX_LONG_RUNS and len(self.rule_log) >= 20)
    @rule(
        session=st.sampled_from(SESSIONS), size=st.integers(55, 70), marker_every=st.sampled_from((0, 7, 11))
    )
    @logged
    def save_long_run(self, session: str, size: int, marker_every: int) -> None:
        """A run past the default window (50) in one step: omitted limits are the documented
        defaults (LIM-05) and math.inf is not one of them (LIM-02)."""
        self.long_runs += 1
        for index in range(size):
            control = marker_every and index % marker_every == marker_every - 1
            role = "user" if index % 2 == 0 else "assistant"
            spec = attrs.evolve(PLAIN_SPEC, role=role, kind="event-marker" if control else None)
            self.save_one(session, spec)
        self.check_limits(session)
        self.check_session(session, ["MSG-02", "MSG-01"])
        self.check_others({session}, "MSG-01")

    def check_limits(self, session: str) -> None:
        """Omitted and infinite limits of the window reads, each against the model.

        math.inf read as the default window, or raising where a finite limit does not, is
        LIM-02's fault, a wrong default window LIM-05's (once math.inf passed); anything else is
        left to the state checks that follow.
        """
        active = self.model.get_history(session, math.inf)
        full = self.model.get_full_history(session, math.inf)
        archived = self.model.archived_contents(session)

        def history(limit: float | None) -> set[str]:
            return history_read_exercises(active, limit, bool(archived))

        def full_history(limit: float | None) -> set[str]:
            return full_read_exercises(full, limit, archived)

        reads: list[
            tuple[str, Callable[[str, object], list[Message]], Callable[[float | None], set[str]]]
        ] = [("get_history", self.model.get_history, history)]
        if "get_full_history" in self.optional:
            reads.append(("get_full_history", self.model.get_full_history, full_history))
        limits: list[tuple[float | None, str]] = [(math.inf, "LIM-02")]
        if "LIM-05" not in self.tolerance:
            limits.append((None, "LIM-05"))
        for method, model_read, exercised in reads:
            for limit, rule_id in limits:
                expected = model_read(session, limit)
                with self.checking(method, session, limit) as results:
                    wrong = [
                        (driver, actual)
                        for driver, actual in results
                        if self.tolerance.compared(actual) != self.tolerance.compared(expected)
                    ]
                    if wrong and (
                        limit is None
                        or wrong[0][1] == model_read(session, None)
                        or self.infinity_at_fault(*wrong[0]) is not None
                    ):
                        # A window rule tolerated past its failure may explain a default window
                        # too: it excuses the divergence (named only then, so the blame of a run
                        # tolerating none stays as it is).
                        window = [r for r in WINDOW_RULES[method] if r in self.tolerance.failed]
                        self.expect_value([rule_id, *window], wrong[:1], expected)
                if wrong:
                    return  # not a limit's fault: the state checks that follow tell
                self.credit(exercised(limit) & {"LIM-02", "LIM-05"})

    # -- the window reads --------------------------------------------------------------------

    @rule(session=st.sampled_from(SESSIONS), limit=LIMITS | st.sampled_from(BAD_LIMITS))
    @logged
    def get_history(self, session: str, limit: object) -> None:
        if self.skips(session):
            return
        if limit in BAD_LIMITS or limit != limit:
            if "LIM-06" in self.tolerance:
                return
            self.expect_error(["LIM-06"], self.call("get_history", session, limit), (ValueError,))
            self.credit({"LIM-06"})
            return
        if limit is None and "LIM-05" in self.tolerance:
            return
        valid = cast(int | float | None, limit)  # the bad ones returned above
        expected = self.model.get_history(session, valid)
        results = self.call("get_history", session, valid)
        read = (
            ("LIM-01",)
            if valid == 0
            else ("LIM-02", "HIST-05")
            if valid == math.inf
            else ("HIST-04", "HIST-03", "HIST-05")
        )
        self.expect_messages(
            session,
            results,
            expected,
            read,
            "HIST-02",
            (),
            as_default=(self.model.get_history(session, None) if valid == math.inf else None),
        )
        active = self.model.get_history(session, math.inf)
        self.credit_read(
            session, history_read_exercises(active, valid, self.model.has_archived(session)), bool(expected)
        )

    @precondition(lambda self: "get_full_history" in self.optional)
    @rule(session=st.sampled_from(SESSIONS), limit=LIMITS)
    @logged
    def get_full_history(self, session: str, limit: int | float | None) -> None:
        if (limit is None and "LIM-05" in self.tolerance) or self.skips(session):
            return
        expected = self.model.get_full_history(session, limit)
        results = self.call("get_full_history", session, limit)
        read = (
            ("LIM-01",)
            if limit == 0
            else ("LIM-02", "FULL-02", "FULL-01")
            if limit == math.inf
            else ("FULL-02", "FULL-01")
        )
        self.expect_messages(
            session,
            results,
            expected,
            read,
            "FULL-02",
            (),
            as_default=(self.model.get_full_history(session, None) if limit == math.inf else None),
        )
        full = self.model.get_full_history(session, math.inf)
        self.credit_read(
            session, full_read_exercises(full, limit, self.model.archived_contents(session)), bool(expected)
        )

    # -- archiving and clearing --------------------------------------------------------------

    @rule(
        session=st.sampled_from(SESSIONS),
        count=st.sampled_from((0, 1, 2, 3, 5, 8, 13)),
        keep=st.lists(st.integers(0, 10), max_size=4),
        bad=st.one_of(st.none(), st.none(), st.none(), st.sampled_from(BAD_SPANS)),
    )
    @logged
    def archive_span(
        self, session: str, count: int, keep: list[int], bad: tuple[object, list[object]] | None = None
    ) -> None:
        if "archive_span" not in self.optional:
            return  # REQ-01 judges its absence
        if bad is None:
            self.archive(session, count, keep)
        elif "ARCH-11" not in self.tolerance and not self.skips(session):
            self.archive_bad_span(session, *bad)

    def archive(self, session: str, count: int, keep: list[int]) -> None:
        """Archive a span everywhere (watched, under an atomic tier) and check what it left."""
        if self.skips(session) or "archive_span" not in self.optional:  # REQ-01 judges it
            return
        active = self.model.get_history(session, math.inf)
        stored = len(self.model.get_full_history(session, math.inf))
        # Counting archived rows as positions (ARCH-08) only matters if the span ends before them.
        earlier = stored > len(active)
        archived_before = earlier and count < stored
        rules = archive_rules(active, count, keep, archived_before)
        exercised = archive_exercises(active, count, keep, archived_before)
        expected = self.model.archive_span(session, count, keep)
        write = self.call_watched(
            "archive_span", (session, count, keep), [Step("get_history", (session, ALL))], self.atomic_archive
        )
        for _driver, actual in write.results:
            if isinstance(actual, Raised):
                self.expect_value(rules, write.results, expected)
        # The archived set decides the rule; a wrong count with the right set is ARCH-07.
        # get_history is checked first: with it right, a wrong full history lost archived rows.
        self.check_session(session, rules, ["ARCH-09"])
        self.check_others({session}, "MSG-01")
        # The right set, a wrong count: ARCH-07, unless earlier archives may have been counted.
        returned = ["ARCH-08", "ARCH-07"] if earlier else ["ARCH-07"]
        self.expect_value([*returned, *rules], write.results, expected)
        self.expect_whole(["ARCH-10"], write)
        self.credit_read(session, exercised, False)

    def archive_bad_span(self, session: str, count: object, keep: list[object]) -> None:
        """ARCH-11: a count or keep position no caller may pass raises and archives nothing."""
        model: Any = self.model  # handed what no caller may pass, on purpose
        try:
            model.archive_span(session, count, keep)
        except ValueError:
            pass
        else:
            raise AssertionError(f"the model accepted archive_span({count!r}, {keep!r})")
        self.expect_error(["ARCH-11"], self.call("archive_span", session, count, keep), (ValueError,))
        self.check_session(session, ["ARCH-11"], ["ARCH-11"])
        if self.model.holds_messages(session):
            self.credit({"ARCH-11"})

    # Clearing matters once there is history, and a few times per history: Hypothesis favours
    # the rules it sorts first (few arguments, then by name), and unbounded, clearing would wipe
    # most histories before anything else happened to them. The precondition counts steps, not
    # stored messages: how many messages a deletion removes can depend on the store's clock
    # (stamped timestamps may or may not share a millisecond), and preconditions must be
    # deterministic.
    @precondition(lambda self: len(self.rule_log) >= 6 and self.clears < MAX_CLEARS)
    @rule(session=st.sampled_from(SESSIONS), everything=st.integers(0, 2).map(lambda n: n == 2))
    @logged
    def clear(self, session: str, everything: bool) -> None:
        self.clears += 1
        if not everything and "clear_session" not in self.optional:
            return  # REQ-01 judges its absence
        metadata_held = self.model.holds_metadata()
        if everything and "clear_all" in self.optional:
            cleared = any(self.model.holds_messages(s) for s in SESSIONS)
            self.model.clear_all()
            self.expect_value(["CLEAR-03"], self.call("clear_all"), None)
            self.check_sessions([(other, ["CLEAR-03"], None) for other in SESSIONS])
            self.check_metadata(["CLEAR-04"])
            self.credit(
                clear_exercises(
                    everything=True,
                    cleared=cleared,
                    archived=False,
                    others_hold=False,
                    metadata_held=metadata_held,
                )
            )
            return
        if "CLEAR-02" in self.tolerance:
            return
        exercised = clear_exercises(
            everything=False,
            cleared=self.model.holds_messages(session),
            archived=self.model.has_archived(session),
            metadata_held=metadata_held,
            others_hold=any(self.model.holds_messages(s) for s in SESSIONS if s != session),
        )
        self.model.clear_session(session)
        self.expect_value(["CLEAR-01"], self.call("clear_session", session), None)
        # CLEAR-01: its history empties; CLEAR-02: its archive too; MSG-06: other sessions stay.
        self.check_sessions(
            [
                (other, ["CLEAR-01"], ["CLEAR-02"]) if other == session else (other, ["MSG-06"], None)
                for other in SESSIONS
            ]
        )
        self.check_metadata(["CLEAR-02"])
        self.credit(exercised)

    # -- derived reads -----------------------------------------------------------------------

    def session_stamp(self, session: str, pick: int) -> int | float:
        """A timestamp of ``session`` picked by index (so inclusive bounds really matter), or
        0 ms itself for :data:`ZERO_PICK`."""
        if pick == ZERO_PICK:
            return 0
        stamps = sorted(self.model.stored_timestamps(session)) or [ORIGINS[0]]
        return stamps[pick % len(stamps)]

    @precondition(lambda self: "get_messages_by_session_range" in self.optional)
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

    @precondition(lambda self: "get_recent_messages_across_sessions" in self.optional)
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

    # -- rewriting and deleting ----------------------------------------------------------------

    @precondition(lambda self: "update_message_content" in self.optional)
    @rule(
        session=st.sampled_from(SESSIONS),
        old=st.sampled_from(OLD_TEXTS),
        new=st.sampled_from(NEW_TEXTS),
        limit=LIMITS,
    )
    @logged
    def update_message_content(self, session: str, old: str, new: str, limit: int | float | None) -> None:
        if self.skips(session):
            return
        new = old if new == SAME_TEXT else new
        if old == "":
            if "UPD-03" in self.tolerance:
                return
            results = self.call("update_message_content", session, "", new, limit)
            self.expect_error(["UPD-03"], results, (ValueError,))
            self.check_session(session, ["UPD-03"])
            self.credit({"UPD-03"})
            return
        if limit != 0 and ("UPD-01" in self.tolerance or "UPD-02" in self.tolerance):
            return
        if limit is None and "LIM-05" in self.tolerance:
            return
        active = self.model.get_history(session, math.inf)
        stored = self.model.get_full_history(session, math.inf)
        rules = update_rules(active, stored, old, new, limit)
        exercised = update_exercises(active, stored, old, new, limit)
        expected = self.model.update_message_content(session, old, new, limit)
        after = self.model.get_full_history(session, math.inf)
        self.rewritten = {m.content for m, was in zip(after, stored, strict=True) if m.content != was.content}
        results = self.call("update_message_content", session, old, new, limit)
        self.expect_value(rules, results, expected)
        self.check_session(session, rules)
        self.check_others({session}, "MSG-01")
        # UPD-04: the messages it rewrote kept their timestamps (the state checks compared them).
        self.credit_read(session, {*exercised, *(["UPD-04"] if self.rewritten else [])}, False)

    @precondition(lambda self: "delete_messages_by_timestamps" in self.optional)
    @rule(
        session=st.sampled_from(SESSIONS),
        picks=st.lists(st.integers(0, 12), max_size=3),
        stray=st.booleans(),
        elsewhere=st.one_of(st.none(), st.integers(0, 12)),
    )
    @logged
    def delete_messages_by_timestamps(
        self, session: str, picks: list[int], stray: bool, elsewhere: int | None = None
    ) -> None:
        if "DEL-01" in self.tolerance or self.skips(session):
            return
        stored = self.model.stored_timestamps(session)
        stamps = [stored[p % len(stored)] for p in picks] if stored else []
        if stray:
            stamps.append(STRAY_TS)  # never stored: deletes nothing
        foreign = sorted(t for s in SESSIONS if s != session for t in self.model.stored_timestamps(s))
        if elsewhere is not None and foreign:
            # A timestamp of another session (the oldest ones are the archived ones): only the
            # session filter keeps its messages, active and archived (MSG-06).
            stamps.append(foreign[elsewhere % len(foreign)])
        if not stamps and "DEL-02" in self.tolerance:
            return  # the one input DEL-02 alone decides; every other deletion still runs
        rules = ["DEL-02"] if not stamps else ["DEL-01"]
        exercised = delete_exercises(
            self.everything_in(session),
            stamps,
            [m for s in SESSIONS if s != session for m in self.everything_in(s)],
        )
        expected = self.model.delete_messages_by_timestamps(session, stamps)
        results = self.call("delete_messages_by_timestamps", session, stamps)
        for _driver, actual in results:
            if isinstance(actual, Raised):
                self.expect_value(rules, results, expected)
        # What was deleted decides the rule (another session touched is MSG-06); then the count.
        self.check_sessions([(other, rules if other == session else ["MSG-06"], None) for other in SESSIONS])
        self.expect_value(rules, results, expected)
        self.credit_read(session, exercised, False)

    def everything_in(self, session: str) -> Sequence[Message]:
        """Every message the session stores, archived ones included."""
        return self.model.get_full_history(session, math.inf)


__all__ = ["MessageSteps"]
