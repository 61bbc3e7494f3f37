"""The machine's core: the stores it drives, calling them, comparing with the model, state checks.

Every step calls one contract method on every target store and on :class:`ContractModel`,
compares each result, then re-reads the state it may have changed. A mismatch raises
:class:`MachineFailure` naming the rules involved (:mod:`.attribution`), the first differing
result, and the history so far as a runnable snippet (:mod:`.snippets`). State reads (history,
count, full history) are checked before derived reads (range, cross-session), so a derived read
that fails on a verified state is blamed on its own rule. A comparison that held credits the
rules it depended on (:mod:`.ledger`); rules the run tolerates (:mod:`.tolerance`) are neither
compared nor credited. A divergence only tolerated rules explain is excused
(:class:`ToleratedDivergence`): a read step goes on, any other step ends the checking of its
history there (the store may no longer hold what the model does), so no later check of that
history is credited or blamed.

The checks of derived reads and of metadata live in :mod:`.derived_reads` and
:mod:`.metadata_state`; the generated steps in :mod:`.message_steps` and :mod:`.metadata_steps`.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import math
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar, Final, TypeVar, cast

import attrs
from hypothesis.stateful import RuleBasedStateMachine, invariant

from aalis_memory.conformance.checks import describe
from aalis_memory.conformance.harness.adapters import opened_store
from aalis_memory.conformance.harness.run_state import RunState
from aalis_memory.conformance.harness.steps import REQUIRED_RULE, MissingRequired
from aalis_memory.conformance.machine.attribution import (
    Origin,
    field_exercises,
    full_read_exercises,
    history_read_exercises,
    interleaving_only,
    list_mismatch_rules,
    session_read_exercises,
)
from aalis_memory.conformance.machine.contract_model import (
    ContractModel,
    Ordering,
)
from aalis_memory.conformance.machine.failure import (
    LoggedCall,
    MachineFailure,
    Raised,
    ToleratedDivergence,
)
from aalis_memory.conformance.machine.inputs import (
    ALL,
    ORIGINS,
    SESSIONS,
)
from aalis_memory.conformance.machine.ledger import CheckLedger
from aalis_memory.conformance.machine.snippets import Step, Watched, py, reproduction_for
from aalis_memory.conformance.machine.tolerance import Tolerance
from aalis_memory.conformance.probes.concurrent_reads import ReadError, watch_write
from aalis_memory.conformance.registration.registry import DriverContext, DriverRegistration
from aalis_memory.service import OPTIONAL_METHODS, REQUIRED_METHODS
from aalis_memory.types import CONTROL_KINDS, Message

#: Keys the machine adds to objects it passed in or got back (META-06: must not reach storage).
MUTATION_MARKERS = ("__mutated_after_save__", "__mutated_after_get__")

Results = list[tuple[str, Any]]

#: The model's range cap when the drivers declare none (``range_cap=False``): no read is cut.
NO_RANGE_CAP: Final = 2**62
#: The reads whose limit is their second argument, and the rule math.inf as that limit is under.
INFINITY_RULES: Final = {"get_history": "LIM-02", "get_full_history": "LIM-02"}
F = TypeVar("F", bound=Callable[..., None])
#: The steps that only read: a divergence excused in one left the stored state as it was.
READ_STEPS: Final = frozenset(
    {
        "get_history",
        "get_full_history",
        "get_messages_by_session_range",
        "get_recent_messages_across_sessions",
        "get_metadata",
    }
)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def leaked(data: object) -> bool:
    """Whether stored ``data`` carries a mutation the caller made after handing it over."""
    return isinstance(data, dict) and any(m in data for m in MUTATION_MARKERS)


def logged(step: F) -> F:
    """Record each rule call so a failing history can be replayed and cut down (the minimizer);
    a derailed history runs no more steps, and an excused divergence ends the step (and, but in
    a read step, the history: :meth:`MachineCore.excused`)."""

    @functools.wraps(step)
    def record(self: MachineCore, **kwargs: Any) -> None:
        self.rule_log.append((step.__name__, kwargs))
        self.touched.clear()
        self.verified.clear()
        self.fresh.clear()
        self.rewritten.clear()
        if self.derailed:
            return
        try:
            step(self, **kwargs)
        except ToleratedDivergence as divergence:
            self.excused(divergence, derail=step.__name__ not in READ_STEPS)

    return cast(F, record)


@attrs.frozen
class Target:
    """One driver the machine runs: its registration, the context of the current test and the
    run's state (a fresh one outside a run of the plugin)."""

    registration: DriverRegistration
    ctx: DriverContext
    state: RunState = attrs.field(factory=RunState)

    @property
    def name(self) -> str:
        return self.registration.name


@attrs.frozen
class OpenStore:
    """A store opened for one example (closed by the machine's exit stack)."""

    name: str
    store: Any


@attrs.frozen
class WriteOutcome:
    """A write on every store: each result, the torn reads per driver (watched writes only), and
    whether the write changed what the watching reads show (then the tier was put to the test)."""

    results: Results
    torn: dict[str, list[str]]
    changed: bool


class MachineCore(RuleBasedStateMachine):
    """Drives ``TARGETS`` and the model with one generated history (see ``machine_for``).

    ``TOLERANCE`` names the rules this run does not compare (a non-strict rerun past an
    advisory); ``LEDGER`` collects the checks performed, over every example of the run.
    """

    TARGETS: ClassVar[tuple[Target, ...]] = ()
    TOLERANCE: ClassVar[Tolerance] = Tolerance()
    LEDGER: ClassVar[CheckLedger | None] = None

    def __init__(self) -> None:
        super().__init__()
        targets = self.TARGETS
        if not targets:
            raise RuntimeError("machine_for() builds a machine with at least one target")
        self.tolerance = self.TOLERANCE
        self.ledger = self.LEDGER if self.LEDGER is not None else CheckLedger()
        self.differential = len(targets) > 1
        self.ordering: Ordering = (
            "timestamp"
            if all(t.registration.capabilities.ordering == "timestamp" for t in targets)
            else "write"
        )
        caps = targets[0].ctx
        declared = [t.registration.capabilities for t in targets]
        #: Writes a reader may never see half of (ARCH-10, COMMIT-05): watched by call_watched.
        self.atomic_archive = (
            all(c.archive_atomicity == "atomic" for c in declared) and "ARCH-10" not in self.tolerance
        )
        self.atomic_metadata = (
            all(c.metadata_atomicity == "atomic" for c in declared) and "COMMIT-05" not in self.tolerance
        )
        #: RANGE-01 binds only drivers that declare a range cap: without one (range_cap=False)
        #: the model cuts nothing and no read is expected to be cut. When some of the drivers
        #: cut and others do not, range reads over the cap are not compared (``range_unjudged``).
        self.range_capped = all(c.range_cap for c in declared)
        self.range_cut_declared = caps.range_query_limit
        self.range_mixed = not self.range_capped and any(c.range_cap for c in declared)
        self.stamp = 0
        self.model = ContractModel(
            ordering=self.ordering,
            range_query_limit=caps.range_query_limit if self.range_capped else NO_RANGE_CAP,
            cross_session_max_limit=caps.cross_session_max_limit,
            clock=lambda: self.stamp,
        )
        self.script: list[Step] = []
        self.rule_log: list[LoggedCall] = []
        #: content -> session it was saved in (contents are unique), to spot foreign messages.
        self.owner: dict[str, str] = {}
        self.counter = 0
        self.long_runs = 0
        self.clears = 0
        #: Whether a message of this history was stamped by the store (see save_one).
        self.stamped = False
        self.cursor: int | float = ORIGINS[0]
        #: Whether a generated timestamp was handed out (the first one is the origin itself).
        self.started = False
        #: Sessions the current step called a method on, and those whose whole state it has
        #: checked since (the invariant re-reads only what the step may have changed).
        self.touched: set[str] = set()
        self.verified: set[str] = set()
        #: Messages (by content) the current step saved, and how ("stamped": the store chose
        #: the timestamp), and those it rewrote: where a changed field comes from (its origin,
        #: :meth:`origin_of`). Each step checks the state it changed, so the step that finds a
        #: field changed is the one that changed it.
        self.fresh: dict[str | None, Origin] = {}
        self.rewritten: set[str | None] = set()
        #: Set when a divergence a tolerated rule excused may have left the store unlike the
        #: model: the history's later steps are not run (nothing on that state is judged).
        self.derailed = False
        self.runner = asyncio.Runner()
        self.loop = self.runner.get_loop()
        self.closing = contextlib.ExitStack()
        self.stores: list[OpenStore] = []
        try:
            for target in targets:
                tmp = Path(tempfile.mkdtemp(prefix="sm-", dir=target.ctx.tmp_path))
                ctx = attrs.evolve(target.ctx, tmp_path=tmp)
                store = self.closing.enter_context(
                    opened_store(target.registration, ctx, self.runner, state=target.state)
                )
                self.stores.append(OpenStore(target.name, store))
        except BaseException:
            self.teardown()
            raise
        #: Raw planting needs every store's hook (one store: differential stores could disagree).
        self.raw = not self.differential and all(t.registration.raw_metadata is not None for t in targets)
        #: The methods every store has: optional ones, and the required ones whose steps the
        #: machine can leave out (archive_span, clear_session: REQ-01 fails their absence and
        #: the histories go on without them). Without another required method no history can
        #: be checked: the run is blocked by REQ-01.
        self.optional = {
            name
            for name in (*OPTIONAL_METHODS, *REQUIRED_METHODS)
            if all(callable(getattr(s.store, name, None)) for s in self.stores)
        }
        lacking = [
            n
            for n in REQUIRED_METHODS
            if n not in self.optional and n not in ("archive_span", "clear_session")
        ]
        if lacking:
            self.teardown()
            raise MissingRequired(
                REQUIRED_RULE,
                f"{', '.join(lacking)}()",
                "is not there: the driver lacks this required method",
            )

    def teardown(self) -> None:
        try:
            self.closing.close()
        finally:
            self.stores = []
            self.runner.close()

    # -- calling ---------------------------------------------------------------------------

    def call(self, method: str, *args: Any) -> Results:
        """Call ``method`` on every store; returns (driver, result or Raised) pairs."""
        # A copy: a store that keeps the caller's objects would let a later edit of one (the
        # machine marks what it got back, META-06) rewrite the call the reproduction prints.
        self.script.append(Step(method, copy.deepcopy(args)))
        self.touch(method, args)
        results: Results = []
        for opened in self.stores:
            fn = getattr(opened.store, method)
            try:
                value = self.loop.run_until_complete(
                    fn(*(copy.deepcopy(args) if self.differential else args))
                )
            except Exception as exc:
                value = Raised(type(exc), str(exc))
            results.append((opened.name, value))
        return results

    def touch(self, method: str, args: tuple[Any, ...]) -> None:
        """Note the sessions a call reaches: the invariant re-reads them after the step."""
        if method == "clear_all":
            self.touched.update(SESSIONS)
        elif args and args[0] in SESSIONS and not method.endswith("metadata"):
            self.touched.add(args[0])

    @contextlib.contextmanager
    def checking(self, method: str, *args: Any) -> Iterator[Results]:
        """A read made only to check the state: it stays in the reproduction only when a check
        inside the block fails, so a snippet ends with the read that shows the bug."""
        results = self.call(method, *args)
        index = len(self.script) - 1
        try:
            yield results
        except ToleratedDivergence:
            del self.script[index]  # no failure shows this read
            raise
        del self.script[index]

    def call_watched(
        self, method: str, args: tuple[Any, ...], reads: Sequence[Step], watch: bool
    ) -> WriteOutcome:
        """Like :meth:`call`, and when ``watch``: a reader runs ``reads`` at every point where
        the write gives the event loop away (:func:`watch_write`). Torn reads are those that
        showed neither the store's state before the write nor its state after it (its own
        states, so a write that is wrong but whole is left to the rules of its result)."""
        if not watch:
            return WriteOutcome(self.call(method, *args), {}, False)
        self.script.append(Watched(method, copy.deepcopy(args), reads=tuple(reads)))
        self.touch(method, args)
        results: Results = []
        torn: dict[str, list[str]] = {}
        changed = False
        for opened in self.stores:
            mine = copy.deepcopy(args) if self.differential else args
            store = opened.store
            watched = self.loop.run_until_complete(
                watch_write(
                    functools.partial(getattr(store, method), *mine),
                    [functools.partial(getattr(store, r.method), *r.args) for r in reads],
                )
            )
            error = watched.error
            results.append((opened.name, watched.value if error is None else Raised(type(error), str(error))))
            changed = changed or watched.before != watched.after
            seen = [
                f"{reads[s.read].call()} = {_shown(s.value)} (before: "
                f"{_shown(watched.before[s.read])}, after: {_shown(watched.after[s.read])})"
                for s in watched.torn()
            ]
            if seen:
                torn[opened.name] = seen
        return WriteOutcome(results, torn, changed)

    def probe(self, driver: str, method: str, *args: Any) -> Any:
        """One read on one driver's store, not recorded: diagnosis after a failure."""
        opened = next(o for o in self.stores if o.name == driver)
        try:
            return self.loop.run_until_complete(getattr(opened.store, method)(*args))
        except Exception as exc:
            return Raised(type(exc), str(exc))

    # -- failing, comparing, crediting -----------------------------------------------------

    def fail(
        self, rule_ids: Sequence[str], driver: str, what: str, polled: bool = False
    ) -> MachineFailure | ToleratedDivergence:
        """The failure for ``rule_ids`` (tolerated ones left out); ``polled`` shows the reader
        of the last (watched) step. A divergence only tolerated rules explain is excused
        instead (:meth:`Tolerance.excusing`)."""
        rules = list(dict.fromkeys(r for r in rule_ids if r))
        if self.tolerance.excuses(rules):
            return ToleratedDivergence(rules, self.tolerance.derails(rules))
        involved = self.tolerance.blame(rules)
        return MachineFailure(
            involved, what, driver, self.rule_log, reproduction_for(self.TARGETS, driver, self.script, polled)
        )

    def refail(self, failure: MachineFailure) -> MachineFailure | ToleratedDivergence:
        """``failure`` as :meth:`fail` would have made it (after a diagnosis reblamed it)."""
        if self.tolerance.excuses(failure.involved):
            return ToleratedDivergence(failure.involved, self.tolerance.derails(failure.involved))
        return failure

    def excused(self, divergence: ToleratedDivergence, derail: bool) -> None:
        """A step ended at a divergence a tolerated rule explains: with ``derail`` (or when the
        rule says what a write does) the rest of the history is not checked."""
        if derail or divergence.derails:
            self.derailed = True

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
        call = self.script[-1].call()
        for driver, seen in write.torn.items():
            raise self.fail(
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
        call = self.script[-1].call()
        want_seen = self.tolerance.compared(expected)
        for driver, actual in results:
            if isinstance(actual, Raised):
                raise self.fail(
                    rules,
                    driver,
                    f"{call}: expected {describe(expected)}, raised {actual.error.__name__}: {actual.text}",
                )
            if self.tolerance.compared(actual) != want_seen:
                want, got = describe(expected), describe(actual)
                if want == got:  # the difference is in fields the short form leaves out
                    want, got = py(expected), py(actual)
                raise self.fail(rules, driver, f"{call}: expected {want}, got {got}")

    def expect_error(
        self, rules: Sequence[str], results: Results, errors: tuple[type[BaseException], ...]
    ) -> None:
        self.script[-1] = attrs.evolve(self.script[-1], errors=errors)
        call = self.script[-1].call()
        names = " or ".join(e.__name__ for e in errors)
        for driver, actual in results:
            if not isinstance(actual, Raised):
                raise self.fail(rules, driver, f"{call}: expected {names}, returned {describe(actual)}")
            if not issubclass(actual.error, errors):
                raise self.fail(
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
            owner=self.owner,
            read=read,
            order_rule=order_rule,
            cause=cause,
            unknown=self.unknown(session),
            origin=self.origin_of,
            compared=self.tolerance.compared,
        )

    def origin_of(self, message: Message) -> Origin:
        """Where ``message`` (as the model holds it) got its fields in the current step: its
        rewrite, its save, or neither (``None``)."""
        if message.content in self.rewritten:
            return "rewrite"
        return self.fresh.get(message.content)

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
        step = self.script[-1] if self.script else None
        if (
            not isinstance(actual, Raised)
            or step is None
            or step.method not in INFINITY_RULES
            or len(step.args) < 2
            or step.args[1] != math.inf
        ):
            return None
        finite = self.probe(driver, step.method, step.args[0], ALL, *step.args[2:])
        return None if isinstance(finite, Raised) else INFINITY_RULES[step.method]

    def unknown(self, session: str) -> list[str]:
        """MSG-04 leads when the session holds nothing (never written, or cleared)."""
        return [] if self.model.holds_messages(session) else ["MSG-04"]

    def skips(self, session: str) -> bool:
        """With MSG-04 tolerated, a session that holds nothing is neither read nor written."""
        return "MSG-04" in self.tolerance and not self.model.holds_messages(session)

    # -- state checks ----------------------------------------------------------------------

    def check_state(
        self, session: str, cause: Sequence[str], full_cause: Sequence[str] | None = None
    ) -> None:
        """The session's stored state, through the reads that show all of it."""
        self.verified.add(session)
        if self.skips(session):
            return
        cause = [*cause, *self.unknown(session)]
        full_cause = cause if full_cause is None else [*full_cause, *cause]
        expected = self.model.get_history(session, ALL)
        archived = self.model.archived_contents(session)
        with self.checking("get_history", session, ALL) as results:
            try:
                self.expect_messages(session, results, expected, ("HIST-01", "HIST-05"), "HIST-02", cause)
            except MachineFailure as failure:
                if not self.shows_archived(session, results, failure.driver, expected):
                    raise
                raise self.refail(failure.reblamed(["HIST-01"])) from None
        self.credit_read(
            session,
            history_read_exercises(expected, ALL, bool(archived)) | field_exercises(expected),
            bool(expected),
        )
        if "count_history" in self.optional and "COUNT-01" not in self.tolerance:
            want = self.model.count_history(session)
            with self.checking("count_history", session) as results:
                lead = self.unknown(session) if isinstance(results[0][1], Raised) else []
                self.expect_value([*lead, "COUNT-01", *cause], results, want)
            self.credit_read(session, {"COUNT-01"}, False)
        if "get_full_history" in self.optional:
            full = self.model.get_full_history(session, ALL)
            with self.checking("get_full_history", session, ALL) as results:
                self.expect_messages(
                    session, results, full, ("FULL-01", "ARCH-09"), "FULL-02", full_cause, interleaving=True
                )
            self.credit_read(
                session, full_read_exercises(full, ALL, archived) | field_exercises(full), bool(full)
            )
            if len(full) > 3:
                newest = self.model.get_full_history(session, 3)
                with self.checking("get_full_history", session, 3) as results:
                    self.expect_messages(session, results, newest, ("FULL-02",), "FULL-02", ())
                self.credit_read(session, full_read_exercises(full, 3, archived), True)

    def shows_archived(
        self, session: str, results: Results, driver: str | None, expected: list[Message]
    ) -> bool:
        """Whether the whole history ``driver`` returned (in ``results``) is ``expected`` and
        conversation messages the model holds archived, while its count_history agrees with the
        model: the store archived them (the count reads the active set) and get_history returned
        them anyway, the read's membership rule (HIST-01), not the step that archived them."""
        actual = next((value for name, value in results if name == driver), None)
        if driver is None or not isinstance(actual, list) or "count_history" not in self.optional:
            return False
        want = {repr(m.content) for m in expected}
        extra = [m for m in actual if repr(getattr(m, "content", None)) not in want]
        archived = self.model.archived_contents(session)
        return (
            bool(extra)
            and want <= {repr(getattr(m, "content", None)) for m in actual}
            and all(getattr(m, "content", None) in archived for m in extra)
            and any(getattr(m, "kind", None) not in CONTROL_KINDS for m in extra)
            and self.probe(driver, "count_history", session) == self.model.count_history(session)
        )

    def verify_all_state(self, cause: Sequence[str]) -> bool:
        """After a derived read failed: re-check every session's state (raising, with ``cause``,
        if it diverged); whether the state is fully known to match the model."""
        with self.ledger.paused():
            for session in SESSIONS:
                self.check_state(session, cause)
        return "get_full_history" in self.optional

    @invariant()
    def histories_match_model(self) -> None:
        """After every step, each session it called a method on still has the model's active
        history (unless the step checked it already) and the model's trimmed window.

        An excused divergence ends the history (the first read may be the only check of what
        the step wrote), except in the window of a session whose whole history held."""
        if self.derailed:
            return
        try:
            self.check_windows()
        except ToleratedDivergence as divergence:
            self.excused(divergence, derail=True)

    def check_windows(self) -> None:
        """The checks of :meth:`histories_match_model`."""
        for session in SESSIONS:
            if session not in self.touched or self.skips(session):
                continue
            expected = self.model.get_history(session, ALL)
            archived = self.model.has_archived(session)
            if session not in self.verified:
                with self.checking("get_history", session, ALL) as results:
                    self.expect_messages(
                        session, results, expected, ("HIST-01", "MSG-01"), "HIST-02", self.unknown(session)
                    )
                self.credit_read(session, history_read_exercises(expected, ALL, archived), bool(expected))
            if self.model.count_history(session) > 2:
                # HIST-03/04: a trimmed window, control records in between and before it.
                window = self.model.get_history(session, 2)
                try:
                    with self.checking("get_history", session, 2) as results:
                        self.expect_messages(session, results, window, ("HIST-04", "HIST-03"), "HIST-02", ())
                except ToleratedDivergence as divergence:
                    self.excused(divergence, derail=False)  # a read of a state that held
                    continue
                self.credit_read(session, history_read_exercises(expected, 2, archived), True)
        self.touched.clear()


def _shown(value: Any) -> str:
    """A watched read's result for a failure line (a read that raised shows its error)."""
    if isinstance(value, ReadError):
        return f"raised {value.error.__name__}: {value.text}"
    return describe(value)


__all__ = [
    "MUTATION_MARKERS",
    "READ_STEPS",
    "MachineCore",
    "OpenStore",
    "Results",
    "Target",
    "WriteOutcome",
    "leaked",
    "logged",
    "now_ms",
]
