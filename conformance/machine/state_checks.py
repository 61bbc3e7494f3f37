"""The session state checks: after a step, the stored state of what it may have changed.

A step checks the sessions it changed through the reads that show all of their state (history,
count, full history: :meth:`StateChecks.check_state`); after every step the invariant
(:meth:`StateChecks.histories_match_model`) re-reads each session the step called a method on
that it did not check already, and the trimmed window of each. State reads come before derived
reads (:mod:`.derived_reads`), so a derived read that fails on a verified state is blamed on its
own rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from aalis_memory.conformance.machine.attribution import (
    field_exercises,
    full_read_exercises,
    history_read_exercises,
)
from aalis_memory.conformance.machine.core import MachineCore
from aalis_memory.conformance.machine.failure import MachineFailure, Raised, ToleratedDivergence
from aalis_memory.conformance.machine.inputs import ALL, SESSIONS
from aalis_memory.conformance.machine.stores import Results
from aalis_memory.types import CONTROL_KINDS, Message


class StateChecks:
    """Checks of the sessions' stored state against the model, and the invariant that runs them."""

    def __init__(self, core: MachineCore) -> None:
        self.core = core

    def check_state(
        self, session: str, cause: Sequence[str], full_cause: Sequence[str] | None = None
    ) -> None:
        """The session's stored state, through the reads that show all of it."""
        self.core.current.verified.add(session)
        if self.core.skips(session):
            return
        cause = [*cause, *self.core.unknown(session)]
        full_cause = cause if full_cause is None else [*full_cause, *cause]
        expected = self.core.model.get_history(session, ALL)
        archived = self.core.model.archived_contents(session)
        with self.core.checking("get_history", session, ALL) as results:
            try:
                self.core.expect_messages(
                    session, results, expected, ("HIST-01", "HIST-05"), "HIST-02", cause
                )
            except MachineFailure as failure:
                if not self.shows_archived(session, results, failure.driver, expected):
                    raise
                raise self.core.blame.disagreement(
                    ["HIST-01", *failure.involved], failure.driver or "", failure.what, rediagnosed=failure
                ) from None
        self.core.credit_read(
            session,
            history_read_exercises(expected, ALL, bool(archived)) | field_exercises(expected),
            bool(expected),
        )
        if "count_history" in self.core.stores.methods and "COUNT-01" not in self.core.tolerance:
            want = self.core.model.count_history(session)
            with self.core.checking("count_history", session) as results:
                lead = self.core.unknown(session) if isinstance(results[0][1], Raised) else []
                self.core.expect_value([*lead, "COUNT-01", *cause], results, want)
            self.core.credit_read(session, {"COUNT-01"}, False)
        if "get_full_history" in self.core.stores.methods:
            full = self.core.model.get_full_history(session, ALL)
            with self.core.checking("get_full_history", session, ALL) as results:
                self.core.expect_messages(
                    session, results, full, ("FULL-01", "ARCH-09"), "FULL-02", full_cause, interleaving=True
                )
            self.core.credit_read(
                session, full_read_exercises(full, ALL, archived) | field_exercises(full), bool(full)
            )
            if len(full) > 3:
                newest = self.core.model.get_full_history(session, 3)
                with self.core.checking("get_full_history", session, 3) as results:
                    self.core.expect_messages(session, results, newest, ("FULL-02",), "FULL-02", ())
                self.core.credit_read(session, full_read_exercises(full, 3, archived), True)

    def shows_archived(
        self, session: str, results: Results, driver: str | None, expected: list[Message]
    ) -> bool:
        """Whether the whole history ``driver`` returned (in ``results``) is ``expected`` and
        conversation messages the model holds archived, while its count_history agrees with the
        model: the store archived them (the count reads the active set) and get_history returned
        them anyway, the read's membership rule (HIST-01), not the step that archived them."""
        actual = next((value for name, value in results if name == driver), None)
        if driver is None or not isinstance(actual, list) or "count_history" not in self.core.stores.methods:
            return False
        want = {repr(m.content) for m in expected}
        extra = [m for m in actual if repr(getattr(m, "content", None)) not in want]
        archived = self.core.model.archived_contents(session)
        return (
            bool(extra)
            and want <= {repr(getattr(m, "content", None)) for m in actual}
            and all(getattr(m, "content", None) in archived for m in extra)
            and any(getattr(m, "kind", None) not in CONTROL_KINDS for m in extra)
            and self.core.stores.probe(driver, "count_history", session)
            == self.core.model.count_history(session)
        )

    def verify_all_state(self, cause: Sequence[str]) -> bool:
        """After a derived read failed: re-check every session's state (raising, with ``cause``,
        if it diverged); whether the state is fully known to match the model."""
        with self.core.ledger.paused():
            for session in SESSIONS:
                self.check_state(session, cause)
        return "get_full_history" in self.core.stores.methods

    def histories_match_model(self) -> None:
        """After every step, each session it called a method on still has the model's active
        history (unless the step checked it already) and the model's trimmed window.

        An excused divergence ends the history (the first read may be the only check of what
        the step wrote), except in the window of a session whose whole history held."""
        if self.core.history.derailed:
            return
        try:
            self.check_windows()
        except ToleratedDivergence as divergence:
            self.core.blame.excused(divergence, derail=True)

    def check_windows(self) -> None:
        """The checks of :meth:`histories_match_model`."""
        for session in SESSIONS:
            if session not in self.core.current.touched or self.core.skips(session):
                continue
            expected = self.core.model.get_history(session, ALL)
            archived = self.core.model.has_archived(session)
            if session not in self.core.current.verified:
                with self.core.checking("get_history", session, ALL) as results:
                    self.core.expect_messages(
                        session,
                        results,
                        expected,
                        ("HIST-01", "MSG-01"),
                        "HIST-02",
                        self.core.unknown(session),
                    )
                self.core.credit_read(
                    session, history_read_exercises(expected, ALL, archived), bool(expected)
                )
            if self.core.model.count_history(session) > 2:
                # HIST-03/04: a trimmed window, control records in between and before it.
                window = self.core.model.get_history(session, 2)
                try:
                    with self.core.checking("get_history", session, 2) as results:
                        self.core.expect_messages(
                            session, results, window, ("HIST-04", "HIST-03"), "HIST-02", ()
                        )
                except ToleratedDivergence as divergence:
                    self.core.blame.excused(divergence, derail=False)  # a read of a state that held
                    continue
                self.core.credit_read(session, history_read_exercises(expected, 2, archived), True)
        self.core.current.touched.clear()


__all__ = ["StateChecks"]
