"""The generated message steps: saves, and the window reads of a session's history.

Each step calls the driver and the model, compares, re-checks the state it may have changed, and
credits the rules the comparison depended on. A tolerated rule (non-strict rerun) turns off the
inputs only it decides: see :data:`~aalis_memory.conformance.machine.tolerance.TOLERATIONS`. The
steps that change stored messages are in :mod:`.change_steps`, the range and cross-session reads
in :mod:`.query_steps`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final, TypeGuard, cast

import attrs

from aalis_memory.conformance.checks import describe
from aalis_memory.conformance.machine.attribution import (
    full_read_exercises,
    history_read_exercises,
)
from aalis_memory.conformance.machine.core import MachineCore, now_ms
from aalis_memory.conformance.machine.derived_reads import DerivedReads
from aalis_memory.conformance.machine.inputs import (
    ALL,
    BAD_LIMITS,
    PLAIN_SPEC,
    MessageSpec,
    build_message,
)
from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.types import Message

#: The rules that fix which messages a window read returns, besides its limit (the catalogue's
#: ``window`` rules of each window read).
WINDOW_RULES: Final = {
    method: tuple(r.id for r in CATALOGUE.values() if r.machine and r.window and method in (r.subjects or ()))
    for method in ("get_history", "get_full_history")
}


class MessageSteps:
    """The saves and the window reads."""

    def __init__(self, core: MachineCore, reads: DerivedReads) -> None:
        self.core = core
        self.reads = reads

    # -- saving ------------------------------------------------------------------------------

    def next_timestamp(self, spec: MessageSpec) -> int | float:
        """The generated timestamp of the next message: the history's origin first, then a
        step further each time (``late`` goes back, for timestamp-ordered drivers only)."""
        # TS-01 tolerated: whole steps only, so no timestamp is fractional.
        cursor = self.core.clock.advance(
            math.ceil(spec.step) if "TS-01" in self.core.tolerance else spec.step
        )
        if self.core.declared.ordering == "timestamp":
            return cursor - spec.late  # late arrivals only where they are ordered
        return cursor

    def save_one(self, session: str, spec: MessageSpec, timestamp: int | float | None = None) -> bool:
        """Save one generated message everywhere; returns whether the store stamped it."""
        self.core.tally.counter += 1
        message = build_message(self.core.tally.counter, spec, None)
        # One store-stamped message per history: two could share a millisecond or not, by the
        # clock, and a history must fail (or pass) the same way every time it is replayed.
        stamp_now = (
            spec.stamp_now
            and not self.core.stores.differential
            and timestamp is None
            and not self.core.clock.stamped
            and "MSG-03" not in self.core.tolerance
        )
        if not stamp_now:
            stamp = self.next_timestamp(spec) if timestamp is None else timestamp
            message = attrs.evolve(message, timestamp=stamp)
        before = now_ms()
        results = self.core.call("save_message", session, message)
        after = now_ms()
        self.core.expect_value(["MSG-01", "MSG-02"], results, None)
        if stamp_now:
            self.core.clock.stamped = True
            stamped = self.observe_stamp(session, message, before, after)
            self.core.clock.store_stamped(stamped, follow=self.core.declared.ordering == "write")
        self.core.model.save_message(session, message)
        self.core.current.fresh[message.content] = "stamped" if stamp_now else "save"
        if message.content is not None:
            self.core.tally.owner[message.content] = session
        return stamp_now

    def observe_stamp(self, session: str, message: Message, before: int, after: int) -> int:
        """MSG-03: the stamp is the save time; it is the newest, so last in the history. A
        history whose last message is not the one saved lost it: that is the read's rule (a
        control record: the whole history keeps it, HIST-05) or the history's (MSG-01), never
        MSG-03's; one that holds it elsewhere put it out of order (HIST-02), unless its stamp
        is wrong (MSG-03: the order follows from the stamp)."""

        def stamped_now(stamp: object) -> TypeGuard[int]:
            return isinstance(stamp, int) and before <= stamp <= after

        with self.core.checking("get_history", session, ALL) as results:
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
                raise self.core.blame.disagreement(
                    lost,
                    driver,
                    f"get_history({session!r}, {ALL}) right after save_message of "
                    f"{describe(message)}: its last message is {describe(last)}",
                )
            stamp = getattr(last, "timestamp", None)
            if not stamped_now(stamp):
                raise self.core.blame.disagreement(
                    ["MSG-03"],
                    driver,
                    f"save_message without timestamp between {before} and {after} "
                    f"ms: stored timestamp {stamp!r}",
                )
        self.core.credit({"MSG-03"})
        return stamp

    def save_messages(self, session: str, specs: list[MessageSpec]) -> None:
        stamped = False
        for spec in specs:
            stamped = self.save_one(session, spec) or stamped
        cause = ["MSG-03"] if stamped else ["MSG-02"]
        self.reads.check_session(session, [*cause, "MSG-01"])
        self.reads.check_others({session}, "MSG-01")

    def save_conversation(self, session: str, specs: list[MessageSpec]) -> None:
        """Plain user/assistant turns: what cross-session reads and limits mostly see."""
        for index, spec in enumerate(specs):
            role = "user" if index % 2 == 0 else "assistant"
            self.save_one(session, attrs.evolve(spec, role=role, kind=None))
        self.reads.check_session(session, ["MSG-02", "MSG-01"])
        self.reads.check_others({session}, "MSG-01")

    def save_at_one_moment(self, sessions: list[str], spec: MessageSpec) -> None:
        """One message in each of several sessions, all in the same millisecond: ties across
        sessions, which cross-session reads break by write order (CROSS-02)."""
        stamp = self.next_timestamp(attrs.evolve(spec, late=0))
        for session in sessions:
            self.save_one(session, attrs.evolve(spec, stamp_now=False), timestamp=stamp)
        self.reads.check_sessions([(s, ["MSG-02", "MSG-01"], None) for s in sessions])
        self.reads.check_others(set(sessions), "MSG-01")

    def save_long_run(self, session: str, size: int, marker_every: int) -> None:
        """A run past the default window (``DEFAULT_HISTORY_LIMIT``) in one step: omitted limits are the
        documented defaults (LIM-05) and math.inf is not one of them (LIM-02)."""
        self.core.tally.long_runs += 1
        for index in range(size):
            control = marker_every and index % marker_every == marker_every - 1
            role = "user" if index % 2 == 0 else "assistant"
            spec = attrs.evolve(PLAIN_SPEC, role=role, kind="event-marker" if control else None)
            self.save_one(session, spec)
        self.check_limits(session)
        self.reads.check_session(session, ["MSG-02", "MSG-01"])
        self.reads.check_others({session}, "MSG-01")

    def check_limits(self, session: str) -> None:
        """Omitted and infinite limits of the window reads, each against the model.

        math.inf read as the default window, or raising where a finite limit does not, is
        LIM-02's fault, a wrong default window LIM-05's (once math.inf passed); anything else is
        left to the state checks that follow.
        """
        active = self.core.model.get_history(session, math.inf)
        full = self.core.model.get_full_history(session, math.inf)
        archived = self.core.model.archived_contents(session)

        def history(limit: float | None) -> set[str]:
            return history_read_exercises(active, limit, bool(archived))

        def full_history(limit: float | None) -> set[str]:
            return full_read_exercises(full, limit, archived)

        reads: list[
            tuple[str, Callable[[str, object], list[Message]], Callable[[float | None], set[str]]]
        ] = [("get_history", self.core.model.get_history, history)]
        if "get_full_history" in self.core.stores.methods:
            reads.append(("get_full_history", self.core.model.get_full_history, full_history))
        limits: list[tuple[float | None, str]] = [(math.inf, "LIM-02")]
        if "LIM-05" not in self.core.tolerance:
            limits.append((None, "LIM-05"))
        for method, model_read, exercised in reads:
            for limit, rule_id in limits:
                expected = model_read(session, limit)
                with self.core.checking(method, session, limit) as results:
                    wrong = [
                        (driver, actual)
                        for driver, actual in results
                        if self.core.tolerance.compared(actual) != self.core.tolerance.compared(expected)
                    ]
                    if wrong and (
                        limit is None
                        or wrong[0][1] == model_read(session, None)
                        or self.core.infinity_at_fault(*wrong[0]) is not None
                    ):
                        # A window rule tolerated past its failure may explain a default window
                        # too: it excuses the divergence (named only then, so the blame of a run
                        # tolerating none stays as it is).
                        window = [r for r in WINDOW_RULES[method] if r in self.core.tolerance.failed]
                        self.core.expect_value([rule_id, *window], wrong[:1], expected)
                if wrong:
                    return  # not a limit's fault: the state checks that follow tell
                self.core.credit(exercised(limit) & {"LIM-02", "LIM-05"})

    # -- the window reads --------------------------------------------------------------------

    def get_history(self, session: str, limit: object) -> None:
        if self.core.skips(session):
            return
        if limit in BAD_LIMITS or limit != limit:
            if "LIM-06" in self.core.tolerance:
                return
            self.core.expect_error(["LIM-06"], self.core.call("get_history", session, limit), (ValueError,))
            self.core.credit({"LIM-06"})
            return
        if limit is None and "LIM-05" in self.core.tolerance:
            return
        valid = cast(int | float | None, limit)  # the bad ones returned above
        expected = self.core.model.get_history(session, valid)
        results = self.core.call("get_history", session, valid)
        read = (
            ("LIM-01",)
            if valid == 0
            else ("LIM-02", "HIST-05")
            if valid == math.inf
            else ("HIST-04", "HIST-03", "HIST-05")
        )
        self.core.expect_messages(
            session,
            results,
            expected,
            read,
            "HIST-02",
            (),
            as_default=(self.core.model.get_history(session, None) if valid == math.inf else None),
        )
        active = self.core.model.get_history(session, math.inf)
        self.core.credit_read(
            session,
            history_read_exercises(active, valid, self.core.model.has_archived(session)),
            bool(expected),
        )

    def get_full_history(self, session: str, limit: int | float | None) -> None:
        if (limit is None and "LIM-05" in self.core.tolerance) or self.core.skips(session):
            return
        expected = self.core.model.get_full_history(session, limit)
        results = self.core.call("get_full_history", session, limit)
        read = (
            ("LIM-01",)
            if limit == 0
            else ("LIM-02", "FULL-02", "FULL-01")
            if limit == math.inf
            else ("FULL-02", "FULL-01")
        )
        self.core.expect_messages(
            session,
            results,
            expected,
            read,
            "FULL-02",
            (),
            as_default=(self.core.model.get_full_history(session, None) if limit == math.inf else None),
        )
        full = self.core.model.get_full_history(session, math.inf)
        self.core.credit_read(
            session,
            full_read_exercises(full, limit, self.core.model.archived_contents(session)),
            bool(expected),
        )


__all__ = ["MessageSteps"]
