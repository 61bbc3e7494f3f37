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

from aalis_memory.conformance.machine.attribution import (
    archive_exercises,
    archive_rules,
    clear_exercises,
    delete_exercises,
    update_exercises,
    update_rules,
)
from aalis_memory.conformance.machine.core import MachineCore
from aalis_memory.conformance.machine.derived_reads import DerivedReads
from aalis_memory.conformance.machine.failure import Raised
from aalis_memory.conformance.machine.inputs import (
    ALL,
    SAME_TEXT,
    SESSIONS,
    STRAY_TS,
)
from aalis_memory.conformance.machine.metadata_state import MetadataChecks
from aalis_memory.conformance.machine.snippets import Step
from aalis_memory.types import Message


class ChangeSteps:
    """Archives, clears, rewrites and deletions of stored messages."""

    def __init__(self, core: MachineCore, reads: DerivedReads, listings: MetadataChecks) -> None:
        self.core = core
        self.reads = reads
        self.listings = listings

    # -- archiving and clearing --------------------------------------------------------------

    def archive_span(
        self, session: str, count: int, keep: list[int], bad: tuple[object, list[object]] | None = None
    ) -> None:
        if "archive_span" not in self.core.stores.methods:
            return  # REQ-01 judges its absence
        if bad is None:
            self.archive(session, count, keep)
        elif "ARCH-11" not in self.core.tolerance and not self.core.skips(session):
            self.archive_bad_span(session, *bad)

    def archive(self, session: str, count: int, keep: list[int]) -> None:
        """Archive a span everywhere (watched, under an atomic tier) and check what it left."""
        if self.core.skips(session) or "archive_span" not in self.core.stores.methods:  # REQ-01 judges it
            return
        active = self.core.model.get_history(session, math.inf)
        stored = len(self.core.model.get_full_history(session, math.inf))
        # Counting archived rows as positions (ARCH-08) only matters if the span ends before them.
        earlier = stored > len(active)
        archived_before = earlier and count < stored
        rules = archive_rules(active, count, keep, archived_before)
        exercised = archive_exercises(active, count, keep, archived_before)
        expected = self.core.model.archive_span(session, count, keep)
        write = self.core.call_watched(
            "archive_span",
            (session, count, keep),
            [Step("get_history", (session, ALL))],
            self.core.declared.atomic_archive,
        )
        for _driver, actual in write.results:
            if isinstance(actual, Raised):
                self.core.expect_value(rules, write.results, expected)
        # The archived set decides the rule; a wrong count with the right set is ARCH-07.
        # get_history is checked first: with it right, a wrong full history lost archived rows.
        self.reads.check_session(session, rules, ["ARCH-09"])
        self.reads.check_others({session}, "MSG-01")
        # The right set, a wrong count: ARCH-07, unless earlier archives may have been counted.
        returned = ["ARCH-08", "ARCH-07"] if earlier else ["ARCH-07"]
        self.core.expect_value([*returned, *rules], write.results, expected)
        self.core.expect_whole(["ARCH-10"], write)
        self.core.credit_read(session, exercised, False)

    def archive_bad_span(self, session: str, count: object, keep: list[object]) -> None:
        """ARCH-11: a count or keep position no caller may pass raises and archives nothing."""
        model: Any = self.core.model  # handed what no caller may pass, on purpose
        try:
            model.archive_span(session, count, keep)
        except ValueError:
            pass
        else:
            raise AssertionError(f"the model accepted archive_span({count!r}, {keep!r})")
        self.core.expect_error(
            ["ARCH-11"], self.core.call("archive_span", session, count, keep), (ValueError,)
        )
        self.reads.check_session(session, ["ARCH-11"], ["ARCH-11"])
        if self.core.model.holds_messages(session):
            self.core.credit({"ARCH-11"})

    # Clearing matters once there is history, and a few times per history: Hypothesis favours
    # the rules it sorts first (few arguments, then by name), and unbounded, clearing would wipe
    # most histories before anything else happened to them. The precondition counts steps, not
    # stored messages: how many messages a deletion removes can depend on the store's clock
    # (stamped timestamps may or may not share a millisecond), and preconditions must be
    # deterministic.
    def clear(self, session: str, everything: bool) -> None:
        self.core.tally.clears += 1
        if not everything and "clear_session" not in self.core.stores.methods:
            return  # REQ-01 judges its absence
        metadata_held = self.core.model.holds_metadata()
        if everything and "clear_all" in self.core.stores.methods:
            cleared = any(self.core.model.holds_messages(s) for s in SESSIONS)
            self.core.model.clear_all()
            self.core.expect_value(["CLEAR-03"], self.core.call("clear_all"), None)
            self.reads.check_sessions([(other, ["CLEAR-03"], None) for other in SESSIONS])
            self.listings.check_metadata(["CLEAR-04"])
            self.core.credit(
                clear_exercises(
                    everything=True,
                    cleared=cleared,
                    archived=False,
                    others_hold=False,
                    metadata_held=metadata_held,
                )
            )
            return
        if "CLEAR-02" in self.core.tolerance:
            return
        exercised = clear_exercises(
            everything=False,
            cleared=self.core.model.holds_messages(session),
            archived=self.core.model.has_archived(session),
            metadata_held=metadata_held,
            others_hold=any(self.core.model.holds_messages(s) for s in SESSIONS if s != session),
        )
        self.core.model.clear_session(session)
        self.core.expect_value(["CLEAR-01"], self.core.call("clear_session", session), None)
        # CLEAR-01: its history empties; CLEAR-02: its archive too; MSG-06: other sessions stay.
        self.reads.check_sessions(
            [
                (other, ["CLEAR-01"], ["CLEAR-02"]) if other == session else (other, ["MSG-06"], None)
                for other in SESSIONS
            ]
        )
        self.listings.check_metadata(["CLEAR-02"])
        self.core.credit(exercised)

    # -- rewriting and deleting ----------------------------------------------------------------

    def update_message_content(self, session: str, old: str, new: str, limit: int | float | None) -> None:
        if self.core.skips(session):
            return
        new = old if new == SAME_TEXT else new
        if old == "":
            if "UPD-03" in self.core.tolerance:
                return
            results = self.core.call("update_message_content", session, "", new, limit)
            self.core.expect_error(["UPD-03"], results, (ValueError,))
            self.reads.check_session(session, ["UPD-03"])
            self.core.credit({"UPD-03"})
            return
        if limit != 0 and ("UPD-01" in self.core.tolerance or "UPD-02" in self.core.tolerance):
            return
        if limit is None and "LIM-05" in self.core.tolerance:
            return
        active = self.core.model.get_history(session, math.inf)
        stored = self.core.model.get_full_history(session, math.inf)
        rules = update_rules(active, stored, old, new, limit)
        exercised = update_exercises(active, stored, old, new, limit)
        expected = self.core.model.update_message_content(session, old, new, limit)
        after = self.core.model.get_full_history(session, math.inf)
        self.core.current.rewritten = {
            m.content for m, was in zip(after, stored, strict=True) if m.content != was.content
        }
        results = self.core.call("update_message_content", session, old, new, limit)
        self.core.expect_value(rules, results, expected)
        self.reads.check_session(session, rules)
        self.reads.check_others({session}, "MSG-01")
        # UPD-04: the messages it rewrote kept their timestamps (the state checks compared them).
        self.core.credit_read(
            session, {*exercised, *(["UPD-04"] if self.core.current.rewritten else [])}, False
        )

    def delete_messages_by_timestamps(
        self, session: str, picks: list[int], stray: bool, elsewhere: int | None = None
    ) -> None:
        if "DEL-01" in self.core.tolerance or self.core.skips(session):
            return
        stored = self.core.model.stored_timestamps(session)
        stamps = [stored[p % len(stored)] for p in picks] if stored else []
        if stray:
            stamps.append(STRAY_TS)  # never stored: deletes nothing
        foreign = sorted(t for s in SESSIONS if s != session for t in self.core.model.stored_timestamps(s))
        if elsewhere is not None and foreign:
            # A timestamp of another session (the oldest ones are the archived ones): only the
            # session filter keeps its messages, active and archived (MSG-06).
            stamps.append(foreign[elsewhere % len(foreign)])
        if not stamps and "DEL-02" in self.core.tolerance:
            return  # the one input DEL-02 alone decides; every other deletion still runs
        rules = ["DEL-02"] if not stamps else ["DEL-01"]
        exercised = delete_exercises(
            self.everything_in(session),
            stamps,
            [m for s in SESSIONS if s != session for m in self.everything_in(s)],
        )
        expected = self.core.model.delete_messages_by_timestamps(session, stamps)
        results = self.core.call("delete_messages_by_timestamps", session, stamps)
        for _driver, actual in results:
            if isinstance(actual, Raised):
                self.core.expect_value(rules, results, expected)
        # What was deleted decides the rule (another session touched is MSG-06); then the count.
        self.reads.check_sessions(
            [(other, rules if other == session else ["MSG-06"], None) for other in SESSIONS]
        )
        self.core.expect_value(rules, results, expected)
        self.core.credit_read(session, exercised, False)

    def everything_in(self, session: str) -> Sequence[Message]:
        """Every message the session stores, archived ones included."""
        return self.core.model.get_full_history(session, math.inf)


__all__ = ["ChangeSteps"]
