"""The machine's core: what one history holds, calling the stores, comparing with the model,
crediting.

A :class:`MachineCore` holds a few objects, each with one job: the contract model (what the
stores must hold), the stores and what their drivers declare (:mod:`.stores`), the bookkeeping of
the history (:mod:`.bookkeeping`: its clock, counts, the current step's marks, the record a
failure is reproduced from, what the metadata checks remember) and the blame service
(:mod:`.blame`). The run's configuration is plain data (:class:`MachineConfig`): the targets, the
tolerated rules and the ledger the checks are credited to.

Every step calls one contract method on every target store and on :class:`ContractModel`,
compares each result, then re-reads the state it may have changed. A mismatch is handed to the
blame service with the rules involved (:mod:`.attribution`) and what differed; it returns the
failure to raise, or the excuse when only tolerated rules explain it. A comparison that held
credits the rules it depended on (:mod:`.ledger`); rules the run tolerates (:mod:`.tolerance`)
are neither compared nor credited.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final

import attrs

from aalis_memory.conformance.checks import describe
from aalis_memory.conformance.machine.attribution import (
    interleaving_only,
    list_mismatch_rules,
    session_read_exercises,
)
from aalis_memory.conformance.machine.blame import Blame
from aalis_memory.conformance.machine.bookkeeping import Clock, CurrentStep, History, MetadataBook, Tally
from aalis_memory.conformance.machine.contract_model import ContractModel
from aalis_memory.conformance.machine.copies import copied
from aalis_memory.conformance.machine.failure import Raised, ToleratedDivergence
from aalis_memory.conformance.machine.inputs import ALL, SESSIONS
from aalis_memory.conformance.machine.ledger import CheckLedger
from aalis_memory.conformance.machine.snippets import Step, Watched, py
from aalis_memory.conformance.machine.stores import (
    Declared,
    OpenStore,
    Results,
    Stores,
    Target,
    WriteOutcome,
)
from aalis_memory.conformance.machine.tolerance import Tolerance
from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.types import Message

#: Keys the machine adds to objects it passed in or got back (META-06: must not reach storage).
MUTATION_MARKERS = ("__mutated_after_save__", "__mutated_after_get__")

#: The model's range cap when the drivers declare none (``range_cap=False``): no read is cut.
NO_RANGE_CAP: Final = 2**62
#: The reads whose limit is their second argument, and the rule math.inf as that limit is under
#: (the catalogue's ``infinity`` rule of each).
INFINITY_RULES: Final = {
    method: r.id
    for r in CATALOGUE.values()
    if r.machine and r.infinity
    for method in sorted(r.subjects or ())
}


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def leaked(data: object) -> bool:
    """Whether stored ``data`` carries a mutation the caller made after handing it over."""
    return isinstance(data, dict) and any(m in data for m in MUTATION_MARKERS)


@attrs.frozen
class MachineConfig:
    """What one run binds the machine to: the drivers it drives (one, or several for
    differential mode), the rules it tolerates (a non-strict rerun past an advisory, or the
    judging past a failure) and the ledger its checks are credited to, over every example."""

    targets: tuple[Target, ...]
    tolerance: Tolerance = attrs.field(factory=Tolerance)
    ledger: CheckLedger = attrs.field(factory=CheckLedger)


class MachineCore:
    """What one history holds (the model, the stores, its bookkeeping) and how it calls the
    stores, compares their answers with the model and credits the checks that held; every
    disagreement goes to :attr:`blame`. The machine and its step and check objects share one."""

    def __init__(self, config: MachineConfig) -> None:
        if not config.targets:
            raise RuntimeError("the machine drives at least one target")
        self.config = config
        self.targets = targets = config.targets
        self.tolerance = config.tolerance
        self.ledger = config.ledger
        self.declared = Declared.of(targets, self.tolerance)
        self.clock = clock = Clock()
        caps = targets[0].ctx
        self.model = ContractModel(
            ordering=self.declared.ordering,
            range_query_limit=caps.range_query_limit if self.declared.range_capped else NO_RANGE_CAP,
            cross_session_max_limit=caps.cross_session_max_limit,
            clock=lambda: clock.stamp,
        )
        self.tally = Tally()
        self.current = CurrentStep()
        self.history = History()
        self.metadata = MetadataBook()
        self.blame = Blame(targets, self.tolerance, self.history)
        self.stores = Stores(targets)  # last: what it opened is closed by teardown

    def teardown(self) -> None:
        self.stores.close()

    # -- calling ---------------------------------------------------------------------------

    def call(self, method: str, *args: Any) -> Results:
        """Call ``method`` on every store, recorded in the script; returns (driver, result or
        Raised) pairs."""
        # A copy: a store that keeps the caller's objects would let a later edit of one (the
        # machine marks what it got back, META-06) rewrite the call the reproduction prints.
        self.history.script.append(Step(method, copied(args)))
        self.current.touch(method, args)
        return self.stores.call(method, args)

    @contextlib.contextmanager
    def checking(self, method: str, *args: Any) -> Iterator[Results]:
        """A read made only to check the state: it stays in the reproduction only when a check
        inside the block fails, so a snippet ends with the read that shows the bug."""
        results = self.call(method, *args)
        script = self.history.script
        index = len(script) - 1
        try:
            yield results
        except ToleratedDivergence:
            del script[index]  # no failure shows this read
            raise
        del script[index]

    def call_watched(
        self, method: str, args: tuple[Any, ...], reads: Sequence[Step], watch: bool
    ) -> WriteOutcome:
        """Like :meth:`call`, and when ``watch``: a reader polls ``reads`` during the write
        (:meth:`Stores.watched`)."""
        if not watch:
            return WriteOutcome(self.call(method, *args), {}, False)
        self.history.script.append(Watched(method, copied(args), reads=tuple(reads)))
        self.current.touch(method, args)
        return self.stores.watched(method, args, reads)

    # -- failing, comparing, crediting -----------------------------------------------------

    def credit(self, rules: Iterable[str]) -> None:
        """A comparison that depended on ``rules`` held."""
        self.ledger.credit(r for r in rules if r not in self.tolerance)

    def credit_read(self, session: str, rules: Iterable[str], returned: bool) -> None:
        """A compared read of ``session``: its own ``rules`` and those of any session read."""
        others = any(self.model.holds_messages(s) for s in SESSIONS if s != session)
        self.credit(
            {
                *rules,
                *session_read_exercises(
                    returned=returned and "MSG-02" not in self.tolerance,
                    unknown=not self.model.holds_messages(session),
                    others_hold=others,
                ),
            }
        )

    def expect_whole(self, rules: Sequence[str], write: WriteOutcome) -> None:
        """No reader saw part of a write the drivers declare atomic."""
        call = self.history.script[-1].call()
        for driver, seen in write.torn.items():
            raise self.blame.disagreement(
                rules,
                driver,
                f"{call} is declared atomic, but a reader polling "
                f"during it saw {seen[0]} ({len(seen)} torn reads)",
                polled=True,
            )
        if write.changed:
            self.credit(rules)

    def expect_value(self, rules: Sequence[str], results: Results, expected: Any) -> None:
        """Every driver must have returned ``expected`` (and not raised)."""
        want_seen = self.tolerance.compared(expected)
        for driver, actual in results:
            if isinstance(actual, Raised):
                raise self.blame.disagreement(
                    rules,
                    driver,
                    f"{self.history.script[-1].call()}: expected {describe(expected)}, "
                    f"raised {actual.error.__name__}: {actual.text}",
                )
            if self.tolerance.compared(actual) != want_seen:
                want, got = describe(expected), describe(actual)
                if want == got:  # the difference is in fields the short form leaves out
                    want, got = py(expected), py(actual)
                call = self.history.script[-1].call()  # shown only when it failed
                raise self.blame.disagreement(rules, driver, f"{call}: expected {want}, got {got}")

    def expect_error(
        self, rules: Sequence[str], results: Results, errors: tuple[type[BaseException], ...]
    ) -> None:
        self.history.script[-1] = attrs.evolve(self.history.script[-1], errors=errors)
        call = self.history.script[-1].call()
        names = " or ".join(e.__name__ for e in errors)
        for driver, actual in results:
            if not isinstance(actual, Raised):
                raise self.blame.disagreement(
                    rules, driver, f"{call}: expected {names}, returned {describe(actual)}"
                )
            if not issubclass(actual.error, errors):
                raise self.blame.disagreement(
                    rules, driver, f"{call}: expected {names}, raised {actual.error.__name__}: {actual.text}"
                )

    def mismatch_rules(
        self,
        session: str,
        expected: list[Message],
        actual: Any,
        read: Sequence[str],
        order_rule: str,
        cause: Sequence[str],
    ) -> list[str]:
        return list_mismatch_rules(
            session,
            expected,
            actual,
            owner=self.tally.owner,
            read=read,
            order_rule=order_rule,
            cause=cause,
            unknown=self.unknown(session),
            origin=self.current.origin_of,
            compared=self.tolerance.compared,
        )

    def expect_messages(
        self,
        session: str,
        results: Results,
        expected: list[Message],
        read: Sequence[str],
        order_rule: str,
        cause: Sequence[str],
        interleaving: bool = False,
        as_default: list[Message] | None = None,
    ) -> None:
        """Every driver's message list must be ``expected``; a mismatch is raised under the
        rules :func:`list_mismatch_rules` picks (``interleaving``: a full history that only
        mixes its archived and active parts wrongly is ARCH-09, not ``order_rule``).

        ``as_default``: what the same read answers with its limit omitted; a math.inf read that
        answers exactly that, short of ``expected``, took math.inf for the default (LIM-02).
        """
        want = self.tolerance.compared(expected)
        for driver, actual in results:
            seen = self.tolerance.compared(actual)
            if seen != want:
                archived = self.model.archived_contents(session)
                order = (
                    "ARCH-09"
                    if interleaving and interleaving_only(expected, actual, archived)
                    else order_rule
                )
                rules = self.mismatch_rules(session, expected, actual, read, order, cause)
                if as_default is not None and seen == self.tolerance.compared(as_default):
                    rules.insert(0, "LIM-02")
                infinity = self.infinity_at_fault(driver, actual)
                if infinity is not None:
                    rules.insert(0, infinity)
                self.expect_value(rules, [(driver, actual)], expected)

    def infinity_at_fault(self, driver: str, actual: Any) -> str | None:
        """The limit rule, when the last call read with limit math.inf and raised while the same
        read with a finite limit above every history (:data:`ALL`) does not: the read failed on
        Infinity (LIM-02), not on the session (an empty one would otherwise point at MSG-04)."""
        script = self.history.script
        step = script[-1] if script else None
        if (
            not isinstance(actual, Raised)
            or step is None
            or step.method not in INFINITY_RULES
            or len(step.args) < 2
            or step.args[1] != math.inf
        ):
            return None
        finite = self.stores.probe(driver, step.method, step.args[0], ALL, *step.args[2:])
        return None if isinstance(finite, Raised) else INFINITY_RULES[step.method]

    def unknown(self, session: str) -> list[str]:
        """MSG-04 leads when the session holds nothing (never written, or cleared)."""
        return [] if self.model.holds_messages(session) else ["MSG-04"]

    def skips(self, session: str) -> bool:
        """With MSG-04 tolerated, a session that holds nothing is neither read nor written."""
        return "MSG-04" in self.tolerance and not self.model.holds_messages(session)


__all__ = [
    "MUTATION_MARKERS",
    "MachineConfig",
    "MachineCore",
    "OpenStore",
    "Results",
    "Target",
    "WriteOutcome",
    "leaked",
    "now_ms",
]
