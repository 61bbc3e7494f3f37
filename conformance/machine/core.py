"""The machine's core: the stores it drives, calling them, comparing with the model, state checks.

Every step calls one contract method on every target store and on :class:`ContractModel`,
compares each result, then re-reads the state it may have changed. A mismatch raises
:class:`MachineFailure` naming the rules involved (:mod:`.attribution`), the first differing
result, and the history so far as a runnable snippet (:mod:`.snippets`). State reads (history,
count, full history) are checked before derived reads (range, cross-session), so a derived read
that fails on a verified state is blamed on its own rule. A comparison that held credits the
rules it depended on (:mod:`.ledger`); rules the run tolerates (:mod:`.tolerance`) are neither
compared nor credited.

The rule methods (the generated steps) live in :mod:`.message_steps` and :mod:`.metadata_steps`.
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
from typing import Any, ClassVar, TypeVar, cast

import attrs
from hypothesis.stateful import RuleBasedStateMachine, invariant

from aalis_memory.conformance.adapters import opened_store
from aalis_memory.conformance.checks import describe
from aalis_memory.conformance.concurrent_reads import ReadError, watch_write
from aalis_memory.conformance.contract_model import (
    ContractModel,
    ModelEntry,
    Ordering,
    cross_session_accepts,
    take_newest,
)
from aalis_memory.conformance.machine.attribution import (
    cross_exercises,
    cross_rules,
    cross_sweep_rules,
    cross_witness_rules,
    full_read_exercises,
    history_read_exercises,
    interleaving_only,
    list_mismatch_rules,
    listing_exercises,
    range_exercises,
    session_read_exercises,
)
from aalis_memory.conformance.machine.failure import LoggedCall, MachineFailure, Raised
from aalis_memory.conformance.machine.inputs import (
    NAMESPACES,
    ORIGINS,
    ROLES,
    SESSIONS,
    ZERO_PICK,
)
from aalis_memory.conformance.machine.ledger import CheckLedger
from aalis_memory.conformance.machine.snippets import Step, Watched, py, reproduction
from aalis_memory.conformance.machine.tolerance import Tolerance
from aalis_memory.conformance.registry import DriverContext, DriverRegistration
from aalis_memory.service import OPTIONAL_METHODS
from aalis_memory.types import Message, MetadataEntry, RecentMessageRecord, RecentMessagesAcrossSessionsQuery

#: Keys the machine adds to objects it passed in or got back (META-06: must not reach storage).
MUTATION_MARKERS = ("__mutated_after_save__", "__mutated_after_get__")

Results = list[tuple[str, Any]]
F = TypeVar("F", bound=Callable[..., None])


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def leaked(data: object) -> bool:
    """Whether stored ``data`` carries a mutation the caller made after handing it over."""
    return isinstance(data, dict) and any(m in data for m in MUTATION_MARKERS)


def logged(step: F) -> F:
    """Record each rule call so a failing history can be replayed and cut down (the minimizer)."""

    @functools.wraps(step)
    def record(self: MachineCore, **kwargs: Any) -> None:
        self.rule_log.append((step.__name__, kwargs))
        self.touched.clear()
        self.verified.clear()
        step(self, **kwargs)

    return cast(F, record)


@attrs.frozen
class Target:
    """One driver the machine runs: its registration and the context of the current test."""

    registration: DriverRegistration
    ctx: DriverContext

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


@attrs.frozen
class SeenStamp:
    """An entry's updated_at as a listing showed it, and that listing's place in the script."""

    created: int
    version: int
    updated_at: int
    index: int
    read: Step

    def restore(self, script: list[Step]) -> None:
        """Put the listing back where it ran: a later stamp is only wrong compared with it.

        Checking reads leave the script from its end, so every step before ``index`` is still
        in place and every later one was recorded after this read.
        """
        if not (self.index < len(script) and script[self.index] is self.read):
            script.insert(self.index, self.read)


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
        self.atomic_archive = (all(c.archive_atomicity == "atomic" for c in declared)
                               and "ARCH-10" not in self.tolerance)
        self.atomic_metadata = (all(c.metadata_atomicity == "atomic" for c in declared)
                                and "COMMIT-05" not in self.tolerance)
        self.stamp = 0
        self.model = ContractModel(
            ordering=self.ordering,
            range_query_limit=caps.range_query_limit,
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
        #: (driver, namespace, key) -> the updated_at last listed (META-05).
        self.seen_updated: dict[tuple[str, str, str], SeenStamp] = {}
        #: Sessions the current step called a method on, and those whose whole state it has
        #: checked since (the invariant re-reads only what the step may have changed).
        self.touched: set[str] = set()
        self.verified: set[str] = set()
        #: Unreadable entries (namespace, key) list_metadata_keys has already listed (META-10).
        self.listed_unreadable: set[tuple[str, str]] = set()
        self.runner = asyncio.Runner()
        self.loop = self.runner.get_loop()
        self.closing = contextlib.ExitStack()
        self.stores: list[OpenStore] = []
        try:
            for target in targets:
                tmp = Path(tempfile.mkdtemp(prefix="sm-", dir=target.ctx.tmp_path))
                ctx = attrs.evolve(target.ctx, tmp_path=tmp)
                store = self.closing.enter_context(
                    opened_store(target.registration, ctx, self.runner)
                )
                self.stores.append(OpenStore(target.name, store))
        except BaseException:
            self.teardown()
            raise
        #: Raw planting needs every store's hook (one store: differential stores could disagree).
        self.raw = not self.differential and all(
            t.registration.raw_metadata is not None for t in targets
        )
        self.optional = {
            name
            for name in OPTIONAL_METHODS
            if all(callable(getattr(s.store, name, None)) for s in self.stores)
        }

    def teardown(self) -> None:
        try:
            self.closing.close()
        finally:
            self.stores = []
            self.runner.close()

    # -- calling ---------------------------------------------------------------------------

    def call(self, method: str, *args: Any) -> Results:
        """Call ``method`` on every store; returns (driver, result or Raised) pairs."""
        self.script.append(Step(method, args))
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
        yield results
        del self.script[index]

    def call_watched(self, method: str, args: tuple[Any, ...], reads: Sequence[Step],
                     watch: bool) -> WriteOutcome:
        """Like :meth:`call`, and when ``watch``: a reader runs ``reads`` at every point where
        the write gives the event loop away (:func:`watch_write`). Torn reads are those that
        showed neither the store's state before the write nor its state after it (its own
        states, so a write that is wrong but whole is left to the rules of its result)."""
        if not watch:
            return WriteOutcome(self.call(method, *args), {}, False)
        self.script.append(Watched(method, args, reads=tuple(reads)))
        self.touch(method, args)
        results: Results = []
        torn: dict[str, list[str]] = {}
        changed = False
        for opened in self.stores:
            mine = copy.deepcopy(args) if self.differential else args
            store = opened.store
            watched = self.loop.run_until_complete(watch_write(
                functools.partial(getattr(store, method), *mine),
                [functools.partial(getattr(store, r.method), *r.args) for r in reads],
            ))
            error = watched.error
            results.append((opened.name, watched.value if error is None
                            else Raised(type(error), str(error))))
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

    def fail(self, rule_ids: Sequence[str], driver: str, what: str,
             polled: bool = False) -> MachineFailure:
        """The failure for ``rule_ids`` (tolerated ones left out); ``polled`` shows the reader
        of the last (watched) step."""
        involved = self.tolerance.blame(list(dict.fromkeys(r for r in rule_ids if r)))
        lines = [
            what,
            f"  driver: {driver}; rules involved: {', '.join(involved)}",
            "  reproduce (shrunk history, on a fresh store):",
            *(f"    {line}" for line in reproduction(self.script, polled)),
        ]
        return MachineFailure(involved, "\n".join(lines), driver, self.rule_log)

    def credit(self, rules: Iterable[str]) -> None:
        """A comparison that depended on ``rules`` held."""
        self.ledger.credit(r for r in rules if r not in self.tolerance)

    def credit_read(self, session: str, rules: Iterable[str], returned: bool) -> None:
        """A compared read of ``session``: its own ``rules`` and those of any session read."""
        others = any(self.model.holds_messages(s) for s in SESSIONS if s != session)
        self.credit({*rules, *session_read_exercises(
            returned=returned and "MSG-02" not in self.tolerance,
            unknown=not self.model.holds_messages(session), others_hold=others)})

    def expect_whole(self, rules: Sequence[str], write: WriteOutcome) -> None:
        """No reader saw part of a write the drivers declare atomic."""
        call = self.script[-1].call()
        for driver, seen in write.torn.items():
            raise self.fail(rules, driver, f"{call} is declared atomic, but a reader polling "
                            f"during it saw {seen[0]} ({len(seen)} torn reads)", polled=True)
        if write.changed:
            self.credit(rules)

    def expect_value(self, rules: Sequence[str], results: Results, expected: Any) -> None:
        """Every driver must have returned ``expected`` (and not raised)."""
        call = self.script[-1].call()
        want_seen = self.tolerance.compared(expected)
        for driver, actual in results:
            if isinstance(actual, Raised):
                raise self.fail(rules, driver, f"{call}: expected {describe(expected)}, raised "
                                f"{actual.error.__name__}: {actual.text}")
            if self.tolerance.compared(actual) != want_seen:
                want, got = describe(expected), describe(actual)
                if want == got:  # the difference is in fields the short form leaves out
                    want, got = py(expected), py(actual)
                raise self.fail(rules, driver, f"{call}: expected {want}, got {got}")

    def expect_error(self, rules: Sequence[str], results: Results,
                     errors: tuple[type[BaseException], ...]) -> None:
        self.script[-1] = attrs.evolve(self.script[-1], errors=errors)
        call = self.script[-1].call()
        names = " or ".join(e.__name__ for e in errors)
        for driver, actual in results:
            if not isinstance(actual, Raised):
                raise self.fail(rules, driver, f"{call}: expected {names}, returned "
                                f"{describe(actual)}")
            if not issubclass(actual.error, errors):
                raise self.fail(rules, driver, f"{call}: expected {names}, raised "
                                f"{actual.error.__name__}: {actual.text}")

    def mismatch_rules(self, session: str, expected: list[Message], actual: Any,
                       read: Sequence[str], order_rule: str, cause: Sequence[str]) -> list[str]:
        return list_mismatch_rules(session, expected, actual, owner=self.owner, read=read,
                                   order_rule=order_rule, cause=cause,
                                   unknown=self.unknown(session))

    def expect_messages(self, session: str, results: Results, expected: list[Message],
                        read: Sequence[str], order_rule: str, cause: Sequence[str],
                        interleaving: bool = False) -> None:
        """Every driver's message list must be ``expected``; a mismatch is raised under the
        rules :func:`list_mismatch_rules` picks (``interleaving``: a full history that only
        mixes its archived and active parts wrongly is ARCH-09, not ``order_rule``)."""
        want = self.tolerance.compared(expected)
        for driver, actual in results:
            if self.tolerance.compared(actual) != want:
                archived = self.model.archived_contents(session)
                order = ("ARCH-09" if interleaving and interleaving_only(expected, actual, archived)
                         else order_rule)
                rules = self.mismatch_rules(session, expected, actual, read, order, cause)
                self.expect_value(rules, [(driver, actual)], expected)

    def unknown(self, session: str) -> list[str]:
        """MSG-04 leads when the session holds nothing (never written, or cleared)."""
        return [] if self.model.holds_messages(session) else ["MSG-04"]

    def skips(self, session: str) -> bool:
        """With MSG-04 tolerated, a session that holds nothing is neither read nor written."""
        return "MSG-04" in self.tolerance and not self.model.holds_messages(session)

    # -- state checks ----------------------------------------------------------------------

    def check_session(self, session: str, cause: Sequence[str],
                      full_cause: Sequence[str] | None = None) -> None:
        self.check_sessions([(session, cause, full_cause)])

    def check_sessions(
        self, checks: Sequence[tuple[str, Sequence[str], Sequence[str] | None]]
    ) -> None:
        """History, count and full history of each session must match the model.

        The state reads of every session come before any derived read (range, cross-session):
        a step that damaged another session is then blamed on that step's rule for it, and a
        derived read that still fails is wrong on its own. Each checking read is dropped from
        the recorded script once it passed: only a failing read belongs in the reproduction.
        """
        for session, cause, full_cause in checks:
            self.check_state(session, cause, full_cause)
        for session, cause, full_cause in checks:
            self.sweep_range(session, [*(full_cause or ()), *cause, *self.unknown(session)])
        session, cause, full_cause = checks[0]
        self.sweep_cross_sessions([*(full_cause or ()), *cause, *self.unknown(session)])

    def check_state(self, session: str, cause: Sequence[str],
                    full_cause: Sequence[str] | None = None) -> None:
        """The session's stored state, through the reads that show all of it."""
        self.verified.add(session)
        if self.skips(session):
            return
        cause = [*cause, *self.unknown(session)]
        full_cause = cause if full_cause is None else [*full_cause, *cause]
        expected = self.model.get_history(session, math.inf)
        archived = self.model.archived_contents(session)
        with self.checking("get_history", session, math.inf) as results:
            self.expect_messages(session, results, expected, ("HIST-01", "LIM-02"), "HIST-02",
                                 cause)
        self.credit_read(session, history_read_exercises(expected, math.inf, bool(archived)),
                         bool(expected))
        if "count_history" in self.optional:
            want = self.model.count_history(session)
            with self.checking("count_history", session) as results:
                lead = self.unknown(session) if isinstance(results[0][1], Raised) else []
                self.expect_value([*lead, "COUNT-01", *cause], results, want)
            self.credit_read(session, {"COUNT-01"}, False)
        if "get_full_history" in self.optional:
            full = self.model.get_full_history(session, math.inf)
            with self.checking("get_full_history", session, math.inf) as results:
                self.expect_messages(session, results, full, ("FULL-01", "ARCH-09"), "FULL-02",
                                     full_cause, interleaving=True)
            self.credit_read(session, full_read_exercises(full, math.inf, archived), bool(full))
            if len(full) > 3:
                newest = self.model.get_full_history(session, 3)
                with self.checking("get_full_history", session, 3) as results:
                    self.expect_messages(session, results, newest, ("FULL-02",), "FULL-02", ())
                self.credit_read(session, full_read_exercises(full, 3, archived), True)

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
        history (unless the step checked it already) and the model's trimmed window."""
        for session in SESSIONS:
            if session not in self.touched or self.skips(session):
                continue
            expected = self.model.get_history(session, math.inf)
            archived = self.model.has_archived(session)
            if session not in self.verified:
                with self.checking("get_history", session, math.inf) as results:
                    self.expect_messages(session, results, expected, ("HIST-01", "MSG-01"),
                                         "HIST-02", self.unknown(session))
                self.credit_read(session, history_read_exercises(expected, math.inf, archived),
                                 bool(expected))
            if self.model.count_history(session) > 2:
                # HIST-03/04: a trimmed window, control records in between and before it.
                window = self.model.get_history(session, 2)
                with self.checking("get_history", session, 2) as results:
                    self.expect_messages(session, results, window, ("HIST-04", "HIST-03"),
                                         "HIST-02", ())
                self.credit_read(session, history_read_exercises(expected, 2, archived), True)
        self.touched.clear()

    # -- derived reads: range and cross-session ----------------------------------------------

    def stored_stamp(self, pick: int | None) -> int | float | None:
        """A timestamp some message has (picked by index), so inclusive bounds are exercised;
        :data:`ZERO_PICK` asks for 0 ms itself."""
        if pick is None:
            return None
        if pick == ZERO_PICK:
            return 0
        stamps = sorted(t for s in SESSIONS for t in self.model.stored_timestamps(s))
        return stamps[pick % len(stamps)] if stamps else ORIGINS[0]

    def range_agrees(self, actual: Any, expected: list[Message], hits: list[Message]) -> bool:
        """Whether a range read answered ``expected`` (``hits`` before the cap). With RANGE-03
        tolerated, order and which end a truncated answer keeps are not compared; its size
        still is, exactly (RANGE-01)."""
        seen = self.tolerance.compared(actual)
        if "RANGE-03" not in self.tolerance:
            return bool(seen == self.tolerance.compared(expected))
        if not isinstance(seen, list) or len(seen) != len(expected):
            return False
        pool = self.tolerance.compared(hits)
        return all(m in pool for m in seen) and len({repr(m) for m in seen}) == len(seen)

    def range_capped_wrong(self, session: str, actual: Any, hits: list[Message]) -> list[str]:
        """The rules a range answer of the wrong size is filed under, before any other: archived
        rows left out (RANGE-02), else a capped read that did not return exactly the cap
        (RANGE-01: returning fewer, or nothing, breaks it as surely as returning more)."""
        cap = self.model.range_query_limit
        if not isinstance(actual, list) or len(actual) == min(cap, len(hits)):
            return []
        archived = self.model.archived_contents(session)
        kept = [m for m in hits if m.content not in archived]
        if len(kept) < len(hits) and self.tolerance.compared(actual) == self.tolerance.compared(
                kept[:cap]):
            return ["RANGE-02"]  # exactly the answer without the archived rows
        return ["RANGE-01"] if len(hits) > cap else []

    def sweep_range(self, session: str, cause: Sequence[str]) -> None:
        """An unfiltered range read: the cap, archived rows, timestamp order.

        A failing sweep first re-checks the stored state: if it diverged, the step's ``cause``
        is to blame; if it is known to match, the read itself is, and ``cause`` is dropped.
        """
        if (self.skips(session) or "get_messages_by_session_range" not in self.optional
                or ("RANGE-02" in self.tolerance and self.model.has_archived(session))):
            return
        hits = self.model.session_range_hits(session, -math.inf, math.inf)
        expected = hits[: self.model.range_query_limit]
        with self.checking("get_messages_by_session_range", session, -math.inf,
                           math.inf) as results:
            for driver, actual in results:
                if not self.range_agrees(actual, expected, hits):
                    self.range_sweep_failed(session, driver, actual, expected, hits, cause)
        archived = self.model.archived_contents(session)
        self.credit_read(session, range_exercises(
            hits, hits, self.model.range_query_limit, (-math.inf, math.inf), archived,
            filtered=False), bool(expected))

    def sweep_cross_sessions(self, cause: Sequence[str]) -> None:
        """A cross-session read over every role, since the oldest stored timestamp (CROSS-05:
        inclusive); blamed like :meth:`sweep_range`. (Limit 0, LIM-01, is the cross-session
        step's.)"""
        if "get_recent_messages_across_sessions" not in self.optional or (
                "MSG-04" in self.tolerance
                and not any(self.model.holds_messages(s) for s in SESSIONS)):
            return
        since = None if "CROSS-05" in self.tolerance else self.stored_stamp(0)
        query = RecentMessagesAcrossSessionsQuery(limit=math.inf, roles=ROLES, since_ts=since)
        candidates, wanted = self.model.cross_session_candidates(query)
        with self.checking("get_recent_messages_across_sessions", query) as results:
            for driver, actual in results:
                why = (f"raised {actual.error.__name__}" if isinstance(actual, Raised)
                       else self.cross_verdict(candidates, wanted, actual))
                if why is not None:
                    blame = [] if self.verify_all_state(cause) else cause
                    rules = [
                        *self.cross_read_rules(driver, query, candidates, wanted, actual),
                        *cross_sweep_rules(candidates, actual, self.model.cross_session_max_limit,
                                           self.model.is_archived_content, blame),
                        *cross_rules(query, len(candidates), self.model.cross_session_max_limit),
                        *blame,
                    ]
                    raise self.fail(rules, driver, f"get_recent_messages_across_sessions("
                                    f"{py(query)}): {why}; got {describe(actual)}")
        self.credit_cross(query, candidates)

    def cross_verdict(self, candidates: list[RecentMessageRecord], wanted: int | float,
                      actual: Any) -> str | None:
        """Why ``actual`` is not a valid answer (``None``: it is). With CROSS-02 tolerated only
        its size is compared, exactly (CROSS-01, LIM-04), and only while nothing is archived."""
        if not isinstance(actual, list):
            return f"expected a list, got {describe(actual)}"
        if "CROSS-02" in self.tolerance:
            if any(self.model.has_archived(s) for s in SESSIONS):
                return None
            size = len(candidates) if wanted >= len(candidates) else int(wanted)
            return None if len(actual) == size else f"expected {size} records, got {len(actual)}"
        return cross_session_accepts(self.tolerance.compared(candidates), wanted,
                                     self.tolerance.compared(actual))

    def credit_cross(self, query: RecentMessagesAcrossSessionsQuery,
                     candidates: list[RecentMessageRecord]) -> None:
        """Credit a cross-session read that held: the rules :func:`cross_exercises` names."""
        def without(fields: tuple[str, ...]) -> list[RecentMessageRecord]:
            if fields == ("roles",) and set(query.roles or ()) >= set(ROLES):
                return candidates  # every role asked for: clearing roles changes nothing
            cleared: dict[str, Any] = {f: None for f in fields}
            if "roles" in fields:
                cleared["roles"] = ROLES
            return self.model.cross_session_candidates(attrs.evolve(query, **cleared))[0]

        rules = cross_exercises(query, candidates, self.model.cross_session_max_limit, without)
        if "CROSS-02" in self.tolerance:
            if any(self.model.has_archived(s) for s in SESSIONS):
                return  # nothing was compared (see cross_verdict)
            rules -= {"CROSS-03", "CROSS-04", "CROSS-05"}  # only sizes were compared
        elif candidates and query.limit != 0 and "MSG-02" not in self.tolerance:
            rules.add("MSG-02")
        self.credit(rules)

    def range_sweep_failed(self, session: str, driver: str, actual: Any, expected: list[Message],
                           hits: list[Message], cause: Sequence[str]) -> None:
        """Raise for an unfiltered range read that differs from the model, naming the rule."""
        blame = [] if self.verify_all_state(cause) else cause
        capped = len(hits) > len(expected)
        read = ["RANGE-01", "RANGE-03"] if capped else ["RANGE-02", "RANGE-03"]
        if capped and isinstance(actual, list) and len(actual) == len(expected):
            read.reverse()
        rules = self.mismatch_rules(session, expected, actual, read, "RANGE-03", blame)
        if capped and isinstance(actual, list):
            rules = [*read, *rules]  # over a full cap, the cap explains first
            archived = self.model.archived_contents(session)
            active = [m for m in hits if m.content not in archived]
            if actual == active[: len(expected)]:
                rules.insert(0, "RANGE-02")  # archived rows went missing
        self.expect_value([*self.range_capped_wrong(session, actual, hits), *rules],
                          [(driver, actual)], expected)

    def cross_read_rules(self, driver: str, query: RecentMessagesAcrossSessionsQuery,
                         candidates: list[RecentMessageRecord], wanted: int | float,
                         actual: Any) -> list[str]:
        """The filter rules a wrong cross-session answer is filed under, most certain first:
        records that no candidate explains, filters that fail alone, edges a filter missed."""
        extra, missing = cross_witness_rules(query, take_newest(candidates, wanted), candidates,
                                             actual, self.model.stored_message)
        return [*extra, *self.cross_limit_failing(driver, query),
                *self.cross_filters_failing(driver, query), *missing]

    def cross_limit_failing(self, driver: str,
                            query: RecentMessagesAcrossSessionsQuery) -> list[str]:
        """The limit rule, when the same query with limit math.inf is answered right: a limit
        above the cap (CROSS-01), 0 (LIM-01), or the newest N below it (CROSS-02)."""
        if query.limit == math.inf:
            return []
        unlimited = attrs.evolve(query, limit=math.inf)
        candidates, wanted = self.model.cross_session_candidates(unlimited)
        actual = self.probe(driver, "get_recent_messages_across_sessions", unlimited)
        if isinstance(actual, Raised) or self.cross_verdict(candidates, wanted, actual):
            return []
        cap = self.model.cross_session_max_limit
        return ["CROSS-01" if query.limit > cap else "LIM-01" if query.limit == 0 else "CROSS-02"]

    def cross_filters_failing(self, driver: str,
                              query: RecentMessagesAcrossSessionsQuery) -> list[str]:
        """Rules of the query's filters that fail on their own (probed only after a failure).

        Each filter is asked alone, over every role; the unfiltered read must pass first, or no
        single filter is to blame.
        """
        def wrong(**fields: Any) -> bool:
            probe = RecentMessagesAcrossSessionsQuery(limit=math.inf, **{"roles": ROLES, **fields})
            candidates, wanted = self.model.cross_session_candidates(probe)
            actual = self.probe(driver, "get_recent_messages_across_sessions", probe)
            return (isinstance(actual, Raised)
                    or self.cross_verdict(candidates, wanted, actual) is not None)

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

    def range_filters_failing(self, driver: str, session: str, low: float, high: float,
                              roles: list[str] | None, exclude_kinds: list[str] | None
                              ) -> list[str]:
        """As :meth:`cross_filters_failing`, for a range read: bounds, roles, kinds alone."""
        def wrong(*args: Any) -> bool:
            hits = self.model.session_range_hits(session, *args)
            actual = self.probe(driver, "get_messages_by_session_range", session, *args)
            return not self.range_agrees(actual, hits[: self.model.range_query_limit], hits)

        unbounded = (-math.inf, math.inf)
        if wrong(*unbounded, None, None):
            return []
        filters: list[tuple[str, tuple[Any, ...]]] = [
            ("RANGE-02", (low, high, None, None)),
            ("RANGE-04", (*unbounded, roles, None)),
            ("RANGE-04", (*unbounded, None, exclude_kinds)),
        ]
        return [rule_id for rule_id, args in filters
                if args != (*unbounded, None, None) and wrong(*args)]

    # -- metadata state ----------------------------------------------------------------------

    def check_metadata(self, cause: Sequence[str], lead: Sequence[str] = ()) -> None:
        """Every namespace lists what the model holds (and updated_at moves as it must).

        ``lead``: rules a step diagnosed for certain (a batch that wrote across namespaces),
        blamed before what a listing alone suggests.
        """
        self.listed_unreadable = {(ns, key) for ns, key in self.listed_unreadable
                                  if key in self.model.unreadable_keys(ns)}
        for namespace in NAMESPACES:
            expected = self.model.list_metadata_versions(namespace)
            with self.checking("list_metadata", namespace) as results:
                for driver, actual in results:
                    self.check_listing(driver, namespace, expected, actual, cause, lead)
            unreadable = bool(self.model.unreadable_keys(namespace))
            others = any(self.model.list_metadata_keys(ns) for ns in NAMESPACES if ns != namespace)
            self.credit(listing_exercises([e.entry.data for e in expected], unreadable, others))
            if "list_metadata_keys" in self.optional:
                keys = self.model.list_metadata_keys(namespace)
                # A clear never touches metadata: any change after it is the clear's fault. So is
                # losing an unreadable key this listing showed before: the step lost it.
                clearing = any(r.startswith("CLEAR-") for r in cause)
                shown = {(namespace, key) for key in self.model.unreadable_keys(namespace)}
                rules = ([*cause, "META-10"] if clearing or (shown and shown <= self.listed_unreadable)
                         else ["META-10", *cause])
                with self.checking("list_metadata_keys", namespace) as results:
                    self.expect_value([*lead, *rules], results, keys)
                self.listed_unreadable |= shown
                if unreadable:
                    self.credit({"META-10"})

    def check_listing(self, driver: str, namespace: str, expected: list[ModelEntry], actual: Any,
                      cause: Sequence[str], lead: Sequence[str] = ()) -> None:
        call = f"list_metadata({namespace!r})"
        want = [(e.entry.key, e.entry.data) for e in expected]
        unreadable = self.model.unreadable_keys(namespace)
        if isinstance(actual, Raised) or not isinstance(actual, list):
            corrupt = ["META-09"] if unreadable else []  # one bad entry broke the whole listing
            raise self.fail([*lead, *corrupt, "META-02", *cause], driver,
                            f"{call}: got {describe(actual)}")
        if "META-04" in self.tolerance:
            actual = sorted(actual, key=lambda e: str(getattr(e, "key", "")))
        got = [(e.key, e.data) for e in actual if isinstance(e, MetadataEntry)]
        if got != want:
            if any(key in unreadable for key, _ in got):
                rules = ["META-09", *cause]  # an unreadable entry was listed, not skipped
            elif any(leaked(data) for _, data in got):
                rules = ["META-06", *cause]  # a caller's mutation reached storage
            elif sorted(map(repr, got)) == sorted(map(repr, want)):
                rules = ["META-04", *cause]
            elif [k for k, _ in got] == [k for k, _ in want]:
                rules = ["META-07", "META-06", *cause]
            elif not self.entries_match(driver, namespace, {k for k, _ in got + want}):
                rules = [*cause, "META-02"]  # the stored entries diverged: the write's fault
            else:
                rules = ["META-02", *cause]  # get_metadata agrees: the listing is wrong
            raise self.fail([*lead, *rules], driver, f"{call}: expected {want!r}, got {got!r}")
        if "META-05" not in self.tolerance:
            self.check_stamps(driver, namespace, expected, actual, cause)

    def check_stamps(self, driver: str, namespace: str, expected: list[ModelEntry],
                     actual: list[MetadataEntry], cause: Sequence[str]) -> None:
        """META-05: updated_at is integer epoch ms and grows on every overwrite, only then."""
        call = f"list_metadata({namespace!r})"
        for model_entry, entry in zip(expected, actual, strict=False):
            ident = (driver, namespace, entry.key)
            if not isinstance(entry.updated_at, int) or isinstance(entry.updated_at, bool):
                raise self.fail(["META-05"], driver,
                                f"{call}: updated_at of {entry.key!r} is {entry.updated_at!r}, "
                                "not integer epoch ms")
            previous = self.seen_updated.get(ident)
            if previous is not None and previous.created == model_entry.created:
                stamp = previous.updated_at
                if model_entry.version > previous.version and entry.updated_at <= stamp:
                    previous.restore(self.script)
                    raise self.fail(["META-05"], driver,
                                    f"{call}: {entry.key!r} was overwritten but updated_at "
                                    f"stayed {entry.updated_at} (was {stamp})")
                if model_entry.version == previous.version and entry.updated_at != stamp:
                    rejected = [r for r in cause if r in ("COMMIT-04", "META-08")]
                    previous.restore(self.script)
                    raise self.fail([*rejected, "META-05"], driver,
                                    f"{call}: {entry.key!r} was not written but updated_at "
                                    f"moved from {stamp} to {entry.updated_at}")
                if model_entry.version > previous.version:
                    self.credit({"META-05"})  # an overwrite, and its stamp grew
            self.seen_updated[ident] = SeenStamp(model_entry.created, model_entry.version,
                                                 entry.updated_at, len(self.script) - 1,
                                                 self.script[-1])

    def entries_match(self, driver: str, namespace: str, keys: set[str]) -> bool:
        """Whether get_metadata of each key agrees with the model (probed after a failure)."""
        return all(self.probe(driver, "get_metadata", namespace, key)
                   == self.model.get_metadata(namespace, key) for key in keys)


def _shown(value: Any) -> str:
    """A watched read's result for a failure line (a read that raised shows its error)."""
    if isinstance(value, ReadError):
        return f"raised {value.error.__name__}: {value.text}"
    return describe(value)


__all__ = [
    "MUTATION_MARKERS",
    "MachineCore",
    "OpenStore",
    "Results",
    "SeenStamp",
    "Target",
    "WriteOutcome",
    "leaked",
    "logged",
    "now_ms",
]
