"""The generated steps that change stored messages: archives, clears, content rewrites and
deletions by timestamp.

Like the saves (:mod:`.message_steps`), each one calls the driver and the model, compares,
re-checks every session it may have changed (the others too: a write reaches only what it
names), and credits the rules the comparison depended on; a tolerated rule turns off the inputs
only it decides.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from aalis_memory.conformance.machine.attribution import (
    archive_exercises,
    archive_rules,
    clear_exercises,
    delete_exercises,
    update_exercises,
    update_rules,
)
from aalis_memory.conformance.machine.core import logged
from aalis_memory.conformance.machine.derived_reads import DerivedReads
from aalis_memory.conformance.machine.failure import Raised
from aalis_memory.conformance.machine.inputs import (
    ALL,
    BAD_SPANS,
    LIMITS,
    MAX_CLEARS,
    NEW_TEXTS,
    OLD_TEXTS,
    SAME_TEXT,
    SESSIONS,
    STRAY_TS,
)
from aalis_memory.conformance.machine.metadata_state import MetadataState
from aalis_memory.conformance.machine.snippets import Step
from aalis_memory.types import Message


class ChangeSteps(DerivedReads, MetadataState):
    """Archives, clears, rewrites and deletions of stored messages."""

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
        if "archive_span" not in self.stores.methods:
            return  # REQ-01 judges its absence
        if bad is None:
            self.archive(session, count, keep)
        elif "ARCH-11" not in self.tolerance and not self.skips(session):
            self.archive_bad_span(session, *bad)

    def archive(self, session: str, count: int, keep: list[int]) -> None:
        """Archive a span everywhere (watched, under an atomic tier) and check what it left."""
        if self.skips(session) or "archive_span" not in self.stores.methods:  # REQ-01 judges it
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
            "archive_span",
            (session, count, keep),
            [Step("get_history", (session, ALL))],
            self.declared.atomic_archive,
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
    @precondition(lambda self: len(self.history.rule_log) >= 6 and self.tally.clears < MAX_CLEARS)
    @rule(session=st.sampled_from(SESSIONS), everything=st.integers(0, 2).map(lambda n: n == 2))
    @logged
    def clear(self, session: str, everything: bool) -> None:
        self.tally.clears += 1
        if not everything and "clear_session" not in self.stores.methods:
            return  # REQ-01 judges its absence
        metadata_held = self.model.holds_metadata()
        if everything and "clear_all" in self.stores.methods:
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

    # -- rewriting and deleting ----------------------------------------------------------------

    @precondition(lambda self: "update_message_content" in self.stores.methods)
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
        self.current.rewritten = {
            m.content for m, was in zip(after, stored, strict=True) if m.content != was.content
        }
        results = self.call("update_message_content", session, old, new, limit)
        self.expect_value(rules, results, expected)
        self.check_session(session, rules)
        self.check_others({session}, "MSG-01")
        # UPD-04: the messages it rewrote kept their timestamps (the state checks compared them).
        self.credit_read(session, {*exercised, *(["UPD-04"] if self.current.rewritten else [])}, False)

    @precondition(lambda self: "delete_messages_by_timestamps" in self.stores.methods)
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


__all__ = ["ChangeSteps"]
