"""A Hypothesis state machine that drives real stores and the model side by side.

Every step calls one contract method on every target store and on :class:`ModelMemory`, compares
each result, and checks invariants afterwards. A mismatch raises :class:`ConformanceFailure` naming
the rules involved, the first differing result, and the failing history as a runnable snippet,
cut down by :func:`minimize` (replaying logged rule calls; much faster than Hypothesis's own
shrinker on long stateful runs). The primary rule is the one of the operation that made store
and model diverge: state reads (history, count, full history) are checked before derived reads
(range, cross-session), a derived read that fails on a verified state is blamed on its own rule
(and on the query filter that fails alone), and minimize() may narrow the rules involved.
Writes a driver declares atomic run with a reader polling them (:func:`watch_write`), so torn
archives and batches (ARCH-10, COMMIT-05) are found in whole histories too.
Several targets at once is the differential mode: one model, one history, and every driver must
agree with it (histories then stay valid for every declared tier: non-decreasing timestamps when
any driver is write-ordered, no store-stamped timestamps).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import inspect
import math
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar, Final, TypeVar, cast

import attrs
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from aalis_memory.conformance.adapters import opened_store
from aalis_memory.conformance.checks import ConformanceFailure, describe
from aalis_memory.conformance.model import ModelMemory, Ordering, cross_session_accepts
from aalis_memory.conformance.registry import DriverContext, DriverRegistration
from aalis_memory.conformance.rules import rule as catalogue_rule
from aalis_memory.service import OPTIONAL_METHODS
from aalis_memory.types import (
    ABSENT,
    CONTROL_KINDS,
    JsonObject,
    Message,
    MetadataDel,
    MetadataEntry,
    MetadataOp,
    MetadataPut,
    RecentMessageRecord,
    RecentMessagesAcrossSessionsQuery,
)

#: Few sessions, two differing only by case (ids are case-sensitive strings, MSG-01).
SESSIONS: Final = ("s0", "s1", "S0")
ROLES: Final = ("user", "assistant", "system", "tool")
#: "turn-record" is a lookalike, not a control kind: a driver must count it as conversation.
KINDS: Final = (None, None, None, "event-marker", "turn-record", "note")
WORDS: Final = ("alpha", "beta", "Alpha", "gamma")
OLD_TEXTS: Final = ("a", "alpha", "Alpha", "ta", "zz", "")
NEW_TEXTS: Final = ("", "A", "zz", "ALPHA", "alpha")  # "alpha": a rewrite to the same text
#: Namespaces, one a prefix of the others (a namespace is matched whole, META-02).
NAMESPACES: Final = ("ns", "ns2", "ns:x")
KEYS: Final = ("k1", "k$2", "k.3")
JSON_KEYS: Final = ("a", "b.c", "$d", "ü")
#: Payloads that cannot be stored as JSON: each must reject its whole batch.
BAD_PAYLOADS: Final = ("set", "nan", "bytes")
#: archive_span inputs outside the contract (count, keep): each must raise ValueError (ARCH-11).
#: Valid keep positions sit before a bad one, so a store that applies part of it shows.
BAD_SPANS: Final[tuple[tuple[object, list[object]], ...]] = (
    (-1, []), (math.nan, []), (1.5, []), ("2", []), (True, []),
    (3, [0, -1]), (3, [1, 0.5]), (3, ["0"]), (3, [math.nan]),
)
#: Long runs (see save_long_run) one example may save: each costs ~60 saves.
MAX_LONG_RUNS: Final = 1
#: First generated timestamp; a save without timestamp is stamped far later (real epoch ms).
BASE_TS: Final = 1_000
LIMITS: Final = st.one_of(st.none(), st.integers(0, 4), st.just(math.inf))
#: Limits the caller promises never to pass; the reference reading raises ValueError (LIM-06).
BAD_LIMITS: Final = (-1, 1.5, math.nan, "3")

#: Every rule the machine can report (the suite test's spec marker).
COVERED_RULES: Final = (
    "LIM-01", "LIM-02", "LIM-03", "LIM-04", "LIM-05", "LIM-06",
    "MSG-01", "MSG-02", "MSG-03", "MSG-04",
    "HIST-01", "HIST-02", "HIST-03", "HIST-04", "HIST-05", "COUNT-01", "FULL-01", "FULL-02",
    "ARCH-01", "ARCH-02", "ARCH-03", "ARCH-04", "ARCH-05", "ARCH-06", "ARCH-07", "ARCH-08",
    "ARCH-09", "ARCH-10", "ARCH-11", "CLEAR-01", "CLEAR-02", "CLEAR-03", "CLEAR-04",
    "RANGE-01", "RANGE-02", "RANGE-03", "RANGE-04",
    "CROSS-01", "CROSS-02", "CROSS-03", "CROSS-04", "CROSS-05",
    "UPD-01", "UPD-02", "UPD-03", "DEL-01", "DEL-02",
    "META-01", "META-02", "META-03", "META-04", "META-05", "META-06", "META-07", "META-08",
    "META-09", "META-10", "META-11",
    "COMMIT-01", "COMMIT-02", "COMMIT-03", "COMMIT-04", "COMMIT-05", "COMMIT-06",
)


#: What a reproduction snippet needs in scope (it is printed above every snippet).
SNIPPET_IMPORTS: Final = (
    "import asyncio, contextlib, math",
    "from aalis_memory.types import (Message, MetadataDel, MetadataPut,",
    "                                RecentMessagesAcrossSessionsQuery)",
)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


# -- snippets ------------------------------------------------------------------------------


def py(value: Any) -> str:
    """Python source for a contract value, absent fields left out, so snippets stay short."""
    if isinstance(value, Message):
        parts = [f"role={value.role!r}", f"content={value.content!r}"]
        for field in attrs.fields(Message)[2:]:
            item = getattr(value, field.name)
            if item is not None and item is not ABSENT:
                parts.append(f"{field.name}={py(item)}")
        return f"Message({', '.join(parts)})"
    if isinstance(value, RecentMessagesAcrossSessionsQuery):
        parts = [f"limit={py(value.limit)}"]
        for field in attrs.fields(RecentMessagesAcrossSessionsQuery)[1:]:
            item = getattr(value, field.name)
            if item is not None:
                parts.append(f"{field.name}={py(item)}")
        return f"RecentMessagesAcrossSessionsQuery({', '.join(parts)})"
    if isinstance(value, MetadataPut):
        return f"MetadataPut({value.namespace!r}, {value.key!r}, {py(value.data)})"
    if isinstance(value, MetadataDel):
        return f"MetadataDel({value.namespace!r}, {value.key!r})"
    if isinstance(value, float) and math.isinf(value):
        return "math.inf" if value > 0 else "-math.inf"
    if isinstance(value, float) and math.isnan(value):
        return "math.nan"
    if isinstance(value, list):
        return "[" + ", ".join(py(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(py(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {py(v)}" for k, v in value.items()) + "}"
    if isinstance(value, set):
        return "{" + ", ".join(py(v) for v in sorted(value, key=repr)) + "}"
    return repr(value)


# -- targets -------------------------------------------------------------------------------


@attrs.frozen
class Target:
    """One driver the machine runs: its registration and the context of the current test."""

    registration: DriverRegistration
    ctx: DriverContext

    @property
    def name(self) -> str:
        return self.registration.name


@attrs.frozen
class _Open:
    """A store opened for one example (closed by the machine's exit stack)."""

    name: str
    store: Any


@attrs.frozen
class Step:
    """One recorded store call, rendered as Python only when a failure is reported."""

    method: str
    args: tuple[Any, ...]
    #: Errors the call must raise: the snippet suppresses them and goes on, like the machine.
    errors: tuple[type[BaseException], ...] = attrs.field(default=(), kw_only=True)

    def call(self) -> str:
        return f"{self.method}({', '.join(py(a) for a in self.args)})"

    def awaited(self, call: str) -> str:
        if not self.errors:
            return f"await {call}"
        names = ", ".join(e.__name__ for e in self.errors)
        return f"with contextlib.suppress({names}): await {call}  # must raise {names}"

    def __str__(self) -> str:
        return self.awaited(f"store.{self.call()}")

    def render(self, polled: bool) -> str:
        return str(self)


@attrs.frozen
class CallerMutates(Step):
    """A call after which the caller changes an object it handed over or got back (META-06)."""

    marker: str = ""

    def __str__(self) -> str:
        if self.method == "save_metadata":
            *head, data = self.args
            return "\n        ".join((
                f"data = {py(data)}",
                f"await store.{self.method}({', '.join(py(a) for a in head)}, data)",
                f"data[{self.marker!r}] = True  # the caller reuses its object",
            ))
        return "\n        ".join((
            f"got = await store.{self.call()}",
            f"if isinstance(got, dict): got[{self.marker!r}] = True  # the caller edits it",
        ))


@attrs.frozen
class Planted(Step):
    """An unreadable entry written around the API, through the registration's raw hook."""

    def __str__(self) -> str:
        return f"await plant(store, {', '.join(py(a) for a in self.args)})"


@attrs.frozen
class Watched(Step):
    """A write run with a reader polling ``reads`` at every await it makes (atomic tiers)."""

    reads: tuple[Step, ...] = ()

    def render(self, polled: bool) -> str:
        """The polling reader is shown only for the write a torn read was reported on."""
        if not polled:
            return str(self)
        polls = "; ".join(f"seen.append(await store.{read.call()})" for read in self.reads)
        return "\n        ".join((
            "seen = []  # each read must show the state before the write or the one after it",
            f"writer = asyncio.ensure_future(store.{self.call()})",
            "while not writer.done():",
            f"    {polls}; await asyncio.sleep(0)",
            self.awaited("writer"),
        ))


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


@attrs.frozen
class Raised:
    """A call that raised: only the error type is compared."""

    error: type[BaseException]
    text: str


# -- generated inputs ----------------------------------------------------------------------


@attrs.frozen
class MessageSpec:
    """What a save step draws; the machine turns it into a Message with a unique content tag."""

    role: str
    kind: str | None
    words: tuple[str, ...]
    shape: int
    #: Milliseconds after the previous generated timestamp (0 makes a same-ms tie).
    step: int
    #: Milliseconds before it (late arrival; timestamp-ordered drivers only).
    late: int
    stamp_now: bool


MESSAGE_SPECS: Final = st.builds(
    MessageSpec,
    role=st.sampled_from(ROLES),
    kind=st.sampled_from(KINDS),
    words=st.lists(st.sampled_from(WORDS), min_size=0, max_size=3).map(tuple),
    shape=st.integers(0, 5),
    step=st.integers(0, 2),
    late=st.one_of(st.just(0), st.integers(0, 4)),
    stamp_now=st.integers(0, 9).map(lambda n: n == 9),
)

JSON_VALUES: Final = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["x", "ünï", ""]),
    lambda inner: st.lists(inner, max_size=2)
    | st.dictionaries(st.sampled_from(JSON_KEYS), inner, max_size=2),
    max_leaves=4,
)
JSON_OBJECTS: Final = st.dictionaries(st.sampled_from(JSON_KEYS), JSON_VALUES, max_size=3)


def _bad_payload(kind: str) -> JsonObject:
    values: dict[str, Any] = {"set": {1, 2}, "nan": math.nan, "bytes": b"raw"}
    return {"a": 1, "bad": values[kind]}


OPS: Final = st.lists(
    st.tuples(
        st.sampled_from(("put", "put", "del")),
        st.sampled_from(NAMESPACES),
        st.sampled_from(KEYS),
        JSON_OBJECTS,
    ),
    max_size=4,
)


# -- the machine ---------------------------------------------------------------------------

F = TypeVar("F", bound=Callable[..., None])


def logged(step: F) -> F:
    """Record each rule call so a failing history can be replayed and cut down (see minimize)."""

    @functools.wraps(step)
    def record(self: MemoryMachine, **kwargs: Any) -> None:
        self.rule_log.append((step.__name__, kwargs))
        step(self, **kwargs)

    return cast(F, record)



class MemoryMachine(RuleBasedStateMachine):
    """Drives ``TARGETS`` and the model with one generated history (see :func:`machine_for`)."""

    TARGETS: ClassVar[tuple[Target, ...]] = ()

    def __init__(self) -> None:
        super().__init__()
        targets = self.TARGETS
        if not targets:
            raise RuntimeError("machine_for() builds a machine with at least one target")
        self.differential = len(targets) > 1
        self.ordering: Ordering = (
            "timestamp"
            if all(t.registration.capabilities.ordering == "timestamp" for t in targets)
            else "write"
        )
        caps = targets[0].ctx
        declared = [t.registration.capabilities for t in targets]
        #: Writes a reader may never see half of (ARCH-10, COMMIT-05): watched by call_watched.
        self.atomic_archive = all(c.archive_atomicity == "atomic" for c in declared)
        self.atomic_metadata = all(c.metadata_atomicity == "atomic" for c in declared)
        self.stamp = 0
        self.model = ModelMemory(
            ordering=self.ordering,
            range_query_limit=caps.range_query_limit,
            cross_session_max_limit=caps.cross_session_max_limit,
            clock=lambda: self.stamp,
        )
        self.script: list[Step] = []
        self.rule_log: list[tuple[str, dict[str, Any]]] = []
        #: content -> session it was saved in (contents are unique), to spot foreign messages.
        self.owner: dict[str, str] = {}
        self.counter = 0
        self.long_runs = 0
        self.cursor = BASE_TS
        #: (driver, namespace, key) -> the updated_at last listed (META-05).
        self.seen_updated: dict[tuple[str, str, str], SeenStamp] = {}
        self.runner = asyncio.Runner()
        self.loop = self.runner.get_loop()
        self.closing = contextlib.ExitStack()
        self.stores: list[_Open] = []
        try:
            for target in targets:
                tmp = Path(tempfile.mkdtemp(prefix="sm-", dir=target.ctx.tmp_path))
                ctx = attrs.evolve(target.ctx, tmp_path=tmp)
                store = self.closing.enter_context(
                    opened_store(target.registration, ctx, self.runner)
                )
                self.stores.append(_Open(target.name, store))
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

    # -- calling and comparing ------------------------------------------------------------

    def call(self, method: str, *args: Any) -> list[tuple[str, Any]]:
        """Call ``method`` on every store; returns (driver, result or Raised) pairs."""
        self.script.append(Step(method, args))
        results: list[tuple[str, Any]] = []
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

    @contextlib.contextmanager
    def checking(self, method: str, *args: Any) -> Iterator[list[tuple[str, Any]]]:
        """A read made only to check the state: it stays in the reproduction only when a check
        inside the block fails, so a snippet ends with the read that shows the bug."""
        results = self.call(method, *args)
        index = len(self.script) - 1
        yield results
        del self.script[index]

    def call_watched(self, method: str, args: tuple[Any, ...], reads: Sequence[Step],
                     watch: bool) -> tuple[list[tuple[str, Any]], dict[str, list[str]]]:
        """Like :meth:`call`, and when ``watch``: a reader runs ``reads`` at every point where
        the write gives the event loop away. Returns the results, and per driver the reads that
        showed neither the state before the write nor the one after it (its own states, so a
        write that is wrong but whole is left to the rules of its result)."""
        if not watch:
            return self.call(method, *args), {}
        self.script.append(Watched(method, args, reads=tuple(reads)))
        results: list[tuple[str, Any]] = []
        torn: dict[str, list[str]] = {}
        for opened in self.stores:
            mine = copy.deepcopy(args) if self.differential else args
            value, seen = self.loop.run_until_complete(watch_write(opened.store, method, mine,
                                                                   reads))
            results.append((opened.name, value))
            if seen:
                torn[opened.name] = seen
        return results, torn

    def expect_whole(self, rules: Sequence[str], torn: dict[str, list[str]]) -> None:
        """No reader saw part of a write the drivers declare atomic."""
        call = self.script[-1].call()
        for driver, seen in torn.items():
            raise self.fail(rules, driver, f"{call} is declared atomic, but a reader polling "
                            f"during it saw {seen[0]} ({len(seen)} torn reads)", polled=True)

    def fail(self, rule_ids: Sequence[str], driver: str, what: str,
             polled: bool = False) -> ConformanceFailure:
        """The failure for ``rule_ids``; ``polled`` shows the reader of the last (watched) step."""
        involved = list(dict.fromkeys(r for r in rule_ids if r))
        last = len(self.script) - 1
        planting = any(isinstance(step, Planted) for step in self.script)
        lines = [
            f"{what}",
            f"  driver: {driver}; rules involved: {', '.join(involved)}",
            "  reproduce (shrunk history, on a fresh store):",
            *(f"    {line}" for line in SNIPPET_IMPORTS),
            "    async def reproduce(store, plant):  # plant: your raw_metadata hook, awaitable"
            if planting else "    async def reproduce(store):",
            *(f"        {step.render(polled and i == last)}" for i, step in enumerate(self.script)),
        ]
        failure = ConformanceFailure(catalogue_rule(involved[0]), "\n".join(lines), driver)
        failure.rule_log = list(self.rule_log)  # type: ignore[attr-defined]
        failure.involved = involved  # type: ignore[attr-defined]
        return failure

    def expect_value(
        self, rules: Sequence[str], results: list[tuple[str, Any]], expected: Any
    ) -> None:
        """Every driver must have returned ``expected`` (and not raised)."""
        call = self.script[-1].call()
        for driver, actual in results:
            if isinstance(actual, Raised):
                raise self.fail(rules, driver, f"{call}: expected {describe(expected)}, raised "
                                f"{actual.error.__name__}: {actual.text}")
            if actual != expected:
                want, got = describe(expected), describe(actual)
                if want == got:  # the difference is in fields the short form leaves out
                    want, got = py(expected), py(actual)
                raise self.fail(rules, driver, f"{call}: expected {want}, got {got}")

    def expect_error(self, rules: Sequence[str], results: list[tuple[str, Any]],
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

    def model_call(self, method: str, *args: Any) -> Any:
        return getattr(self.model, method)(*args)

    def history_rules(self, session: str, expected: list[Message], actual: Any,
                      read: Sequence[str], order_rule: str, cause: Sequence[str]) -> list[str]:
        """Rule IDs for a list mismatch: order, fields, or membership (then ``cause`` first)."""
        if not isinstance(actual, list):
            return [*self.unknown(session), *cause, *read]
        if any(self.owner.get(getattr(m, "content", None) or "", session) != session
               for m in actual):
            return ["MSG-01", *cause, *read]
        want = [m.content for m in expected]
        got = [getattr(m, "content", None) for m in actual]
        if want == got:
            stamped = any(
                getattr(a, "timestamp", None) != e.timestamp for a, e in zip(actual, expected, strict=False)
            )
            return ["MSG-03" if stamped and "MSG-03" in cause else "MSG-02", *read, *cause]
        if sorted(map(str, want)) == sorted(map(str, got)):
            return [order_rule, *read, *cause]
        return [*cause, *read]

    def expect_messages(self, session: str, results: list[tuple[str, Any]],
                        expected: list[Message], read: Sequence[str], order_rule: str,
                        cause: Sequence[str], interleaving: bool = False) -> None:
        """Every driver's message list must be ``expected``; a mismatch is raised under the
        rules :meth:`history_rules` picks (``interleaving``: a full history that only mixes its
        archived and active parts wrongly is ARCH-09, not ``order_rule``)."""
        for driver, actual in results:
            if actual != expected:
                order = ("ARCH-09" if interleaving
                         and self.interleaving_only(session, expected, actual) else order_rule)
                rules = self.history_rules(session, expected, actual, read, order, cause)
                self.expect_value(rules, [(driver, actual)], expected)

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
            self.sweep_reads(session, [*(full_cause or ()), *cause, *self.unknown(session)])

    def check_state(self, session: str, cause: Sequence[str],
                    full_cause: Sequence[str] | None = None) -> None:
        """The session's stored state, through the reads that show all of it."""
        cause = [*cause, *self.unknown(session)]
        full_cause = cause if full_cause is None else [*full_cause, *cause]
        expected = self.model.get_history(session, math.inf)
        with self.checking("get_history", session, math.inf) as results:
            self.expect_messages(session, results, expected, ("HIST-01", "LIM-02"), "HIST-02",
                                 cause)
        if "count_history" in self.optional:
            want = self.model.count_history(session)
            with self.checking("count_history", session) as results:
                lead = self.unknown(session) if isinstance(results[0][1], Raised) else []
                self.expect_value([*lead, "COUNT-01", *cause], results, want)
        if "get_full_history" in self.optional:
            full = self.model.get_full_history(session, math.inf)
            with self.checking("get_full_history", session, math.inf) as results:
                self.expect_messages(session, results, full, ("FULL-01", "ARCH-09"), "FULL-02",
                                     full_cause, interleaving=True)
            if len(full) > 3:
                newest = self.model.get_full_history(session, 3)
                with self.checking("get_full_history", session, 3) as results:
                    self.expect_messages(session, results, newest, ("FULL-02",), "FULL-02", ())

    def interleaving_only(self, session: str, expected: list[Message], actual: Any) -> bool:
        """Whether ``actual`` keeps the archived and the active messages each in order and only
        interleaves them wrongly (ARCH-09 rather than a plain order bug)."""
        if not isinstance(actual, list) or len(actual) != len(expected):
            return False
        archived = {m.content for m in expected if self.model.is_archived_content(session,
                                                                                  m.content)}
        if not archived or sorted(map(repr, actual)) != sorted(map(repr, expected)):
            return False
        for keep in (True, False):
            want = [m for m in expected if (m.content in archived) == keep]
            got = [m for m in actual if (getattr(m, "content", None) in archived) == keep]
            if want != got:
                return False
        return True

    def verify_all_state(self, cause: Sequence[str]) -> bool:
        """After a derived read failed: re-check every session's state (raising, with ``cause``,
        if it diverged); whether the state is fully known to match the model."""
        for session in SESSIONS:
            self.check_state(session, cause)
        return "get_full_history" in self.optional

    def probe(self, driver: str, method: str, *args: Any) -> Any:
        """One read on one driver's store, not recorded: diagnosis after a failure."""
        opened = next(o for o in self.stores if o.name == driver)
        try:
            return self.loop.run_until_complete(getattr(opened.store, method)(*args))
        except Exception as exc:
            return Raised(type(exc), str(exc))

    def check_metadata(self, cause: Sequence[str]) -> None:
        """Every namespace lists what the model holds; updated_at is checked by invariants."""
        for namespace in NAMESPACES:
            expected = self.model.list_metadata_versions(namespace)
            with self.checking("list_metadata", namespace) as results:
                for driver, actual in results:
                    self.check_listing(driver, namespace, expected, actual, cause)
            if "list_metadata_keys" in self.optional:
                keys = self.model.list_metadata_keys(namespace)
                # A clear never touches metadata: any change after it is the clear's fault.
                clearing = any(r.startswith("CLEAR-") for r in cause)
                rules = [*cause, "META-10"] if clearing else ["META-10", *cause]
                with self.checking("list_metadata_keys", namespace) as results:
                    self.expect_value(rules, results, keys)

    def check_listing(self, driver: str, namespace: str, expected: list[Any], actual: Any,
                      cause: Sequence[str]) -> None:
        call = f"list_metadata({namespace!r})"
        want = [(e.entry.key, e.entry.data) for e in expected]
        unreadable = self.model.unreadable_keys(namespace)
        if isinstance(actual, Raised) or not isinstance(actual, list):
            lead = ["META-09"] if unreadable else []  # one bad entry broke the whole listing
            raise self.fail([*lead, "META-02", *cause], driver, f"{call}: got {describe(actual)}")
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
            raise self.fail(rules, driver, f"{call}: expected {want!r}, got {got!r}")
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
            self.seen_updated[ident] = SeenStamp(model_entry.created, model_entry.version,
                                                 entry.updated_at, len(self.script) - 1,
                                                 self.script[-1])

    def entries_match(self, driver: str, namespace: str, keys: set[str]) -> bool:
        """Whether get_metadata of each key agrees with the model (probed after a failure)."""
        return all(self.probe(driver, "get_metadata", namespace, key)
                   == self.model.get_metadata(namespace, key) for key in keys)

    # -- message steps --------------------------------------------------------------------

    def next_timestamp(self, spec: MessageSpec) -> int:
        self.cursor += spec.step
        if self.ordering == "timestamp":
            return max(0, self.cursor - spec.late)  # late arrivals only where they are ordered
        return self.cursor

    @initialize(seed=st.lists(st.tuples(st.sampled_from(SESSIONS), MESSAGE_SPECS), max_size=14))
    @logged
    def seed_history(self, seed: list[tuple[str, MessageSpec]]) -> None:
        for session, spec in seed:
            self.save_one(session, spec)
        for session in SESSIONS:
            self.check_session(session, ["MSG-02", "MSG-01"])

    @rule(session=st.sampled_from(SESSIONS),
          specs=st.lists(MESSAGE_SPECS, min_size=1, max_size=6))
    @logged
    def save_messages(self, session: str, specs: list[MessageSpec]) -> None:
        stamped = False
        for spec in specs:
            stamped = self.save_one(session, spec) or stamped
        cause = ["MSG-03"] if stamped else ["MSG-02"]
        self.check_session(session, [*cause, "MSG-01"])

    @rule(session=st.sampled_from(SESSIONS),
          specs=st.lists(MESSAGE_SPECS, min_size=2, max_size=6))
    @logged
    def save_conversation(self, session: str, specs: list[MessageSpec]) -> None:
        """Plain user/assistant turns: what cross-session reads and limits mostly see."""
        for index, spec in enumerate(specs):
            role = "user" if index % 2 == 0 else "assistant"
            self.save_one(session, attrs.evolve(spec, role=role, kind=None))
        self.check_session(session, ["MSG-02", "MSG-01"])

    @precondition(lambda self: self.long_runs < MAX_LONG_RUNS and len(self.rule_log) >= 20)
    @rule(session=st.sampled_from(SESSIONS), size=st.integers(55, 70),
          marker_every=st.sampled_from((0, 7, 11)))
    @logged
    def save_long_run(self, session: str, size: int, marker_every: int) -> None:
        """A run past the default window (50) in one step: omitted limits are the documented
        defaults (LIM-05) and math.inf is not one of them (LIM-02)."""
        self.long_runs += 1
        for index in range(size):
            control = marker_every and index % marker_every == marker_every - 1
            role = "user" if index % 2 == 0 else "assistant"
            spec = attrs.evolve(PLAIN_SPEC, role=role,
                                kind="event-marker" if control else None)
            self.save_one(session, spec)
        self.check_limits(session)
        self.check_session(session, ["MSG-02", "MSG-01"])

    def check_limits(self, session: str) -> None:
        """Omitted and infinite limits of the window reads, each against the model.

        math.inf read as the default window is LIM-02's fault, a wrong default window LIM-05's
        (once math.inf passed); anything else is left to the state checks that follow.
        """
        reads = [("get_history", self.model.get_history)]
        if "get_full_history" in self.optional:
            reads.append(("get_full_history", self.model.get_full_history))
        for method, model_read in reads:
            for limit, rule_id in ((math.inf, "LIM-02"), (None, "LIM-05")):
                expected = model_read(session, limit)
                with self.checking(method, session, limit) as results:
                    wrong = [(driver, actual) for driver, actual in results if actual != expected]
                    if wrong and (limit is None or wrong[0][1] == model_read(session, None)):
                        self.expect_value([rule_id], wrong[:1], expected)
                if wrong:
                    return  # not a limit's fault: the state checks that follow tell

    def stored_stamp(self, index: int | None) -> int | float | None:
        """A timestamp some message has (by index), so inclusive bounds are exercised."""
        if index is None:
            return None
        stamps = sorted(t for s in SESSIONS for t in self.model.stored_timestamps(s))
        return stamps[index % len(stamps)] if stamps else BASE_TS

    def save_one(self, session: str, spec: MessageSpec) -> bool:
        """Save one generated message everywhere; returns whether the store stamped it."""
        self.counter += 1
        message = build_message(self.counter, spec, None)
        stamp_now = spec.stamp_now and not self.differential
        if not stamp_now:
            message = attrs.evolve(message, timestamp=self.next_timestamp(spec))
        before = now_ms()
        results = self.call("save_message", session, message)
        after = now_ms()
        self.expect_value(["MSG-01", "MSG-02"], results, None)
        if stamp_now:
            stamped = self.observe_stamp(session, before, after)
            self.stamp = stamped
            if self.ordering == "write":
                self.cursor = max(self.cursor, stamped)
        self.model.save_message(session, message)
        if message.content is not None:
            self.owner[message.content] = session
        return stamp_now

    def observe_stamp(self, session: str, before: int, after: int) -> int:
        """MSG-03: the stamp is the save time; it is the newest, so last in the history."""
        with self.checking("get_history", session, math.inf) as results:
            driver, history = results[0]
            last = history[-1] if isinstance(history, list) and history else None
            stamp = getattr(last, "timestamp", None)
            if not isinstance(stamp, int) or not before <= stamp <= after:
                raise self.fail(["MSG-03"], driver,
                                f"save_message without timestamp between {before} and {after} "
                                f"ms: stored timestamp {stamp!r}")
        return stamp

    @rule(session=st.sampled_from(SESSIONS), limit=LIMITS | st.sampled_from(BAD_LIMITS))
    @logged
    def get_history(self, session: str, limit: object) -> None:
        if limit in BAD_LIMITS or limit != limit:
            self.expect_error(["LIM-06"], self.call("get_history", session, limit), (ValueError,))
            return
        expected = self.model_call("get_history", session, limit)
        results = self.call("get_history", session, limit)
        read = ("LIM-01",) if limit == 0 else ("HIST-04", "HIST-03", "HIST-05")
        self.expect_messages(session, results, expected, read, "HIST-02", ())

    @precondition(lambda self: "get_full_history" in self.optional)
    @rule(session=st.sampled_from(SESSIONS), limit=LIMITS)
    @logged
    def get_full_history(self, session: str, limit: int | float | None) -> None:
        expected = self.model_call("get_full_history", session, limit)
        results = self.call("get_full_history", session, limit)
        read = ("LIM-01",) if limit == 0 else ("FULL-02", "FULL-01")
        self.expect_messages(session, results, expected, read, "FULL-02", ())

    @rule(
        session=st.sampled_from(SESSIONS),
        count=st.sampled_from((0, 1, 2, 3, 5, 8, 13)),
        keep=st.lists(st.integers(0, 10), max_size=4),
        bad=st.one_of(st.none(), st.none(), st.none(), st.sampled_from(BAD_SPANS)),
    )
    @logged
    def archive_span(self, session: str, count: int, keep: list[int],
                     bad: tuple[object, list[object]] | None = None) -> None:
        if bad is not None:
            self.archive_bad_span(session, *bad)
            return
        active = self.model.get_history(session, math.inf)
        stored = len(self.model.get_full_history(session, math.inf))
        # Counting archived rows as positions (ARCH-08) only matters if the span ends before them.
        earlier = stored > len(active)
        archived_before = earlier and count < stored
        rules = archive_rules(active, count, keep, archived_before)
        expected = self.model_call("archive_span", session, count, keep)
        results, torn = self.call_watched("archive_span", (session, count, keep),
                                          [Step("get_history", (session, math.inf))],
                                          self.atomic_archive)
        for _driver, actual in results:
            if isinstance(actual, Raised):
                self.expect_value(rules, results, expected)
        # The archived set decides the rule; a wrong count with the right set is ARCH-07.
        # get_history is checked first: with it right, a wrong full history lost archived rows.
        self.check_session(session, rules, ["ARCH-09"])
        # The right set, a wrong count: ARCH-07, unless earlier archives may have been counted.
        returned = ["ARCH-08", "ARCH-07"] if earlier else ["ARCH-07"]
        self.expect_value([*returned, *rules], results, expected)
        self.expect_whole(["ARCH-10"], torn)

    def archive_bad_span(self, session: str, count: object, keep: list[object]) -> None:
        """ARCH-11: a count or keep position no caller may pass raises and archives nothing."""
        try:
            self.model_call("archive_span", session, count, keep)
        except ValueError:
            pass
        else:
            raise AssertionError(f"the model accepted archive_span({count!r}, {keep!r})")
        self.expect_error(["ARCH-11"], self.call("archive_span", session, count, keep),
                          (ValueError,))
        self.check_session(session, ["ARCH-11"], ["ARCH-11"])

    # Clearing matters once there is history. The precondition counts steps, not stored
    # messages: how many messages a deletion removes can depend on the store's clock (stamped
    # timestamps may or may not share a millisecond), and preconditions must be deterministic.
    @precondition(lambda self: len(self.rule_log) >= 6)
    @rule(session=st.sampled_from(SESSIONS), everything=st.integers(0, 2).map(lambda n: n == 2))
    @logged
    def clear(self, session: str, everything: bool) -> None:
        if everything and "clear_all" in self.optional:
            self.model.clear_all()
            self.expect_value(["CLEAR-03"], self.call("clear_all"), None)
            self.check_sessions([(other, ["CLEAR-03"], None) for other in SESSIONS])
            self.check_metadata(["CLEAR-04"])
            return
        self.model.clear_session(session)
        self.expect_value(["CLEAR-01"], self.call("clear_session", session), None)
        # CLEAR-01: its history empties; CLEAR-02: its archive too, and other sessions stay.
        self.check_sessions([(other, ["CLEAR-01" if other == session else "CLEAR-02"],
                              ["CLEAR-02"]) for other in SESSIONS])
        self.check_metadata(["CLEAR-02"])

    @precondition(lambda self: "get_messages_by_session_range" in self.optional)
    @rule(
        session=st.sampled_from(SESSIONS),
        bounds=st.tuples(st.integers(0, 30), st.integers(0, 30)),
        unbounded=st.sampled_from(("none", "none", "from", "to")),
        roles=st.one_of(st.none(), st.lists(st.sampled_from(ROLES), max_size=2)),
        exclude_kinds=st.one_of(st.none(), st.lists(st.sampled_from(KINDS[3:]), max_size=2)),
    )
    @logged
    def get_messages_by_session_range(
        self, session: str, bounds: tuple[int, int], unbounded: str,
        roles: list[str] | None, exclude_kinds: list[str] | None,
    ) -> None:
        # Bounds are stored timestamps (picked by index), so inclusive ends really matter.
        stamps = sorted(self.model.stored_timestamps(session)) or [BASE_TS]
        low: int | float = stamps[bounds[0] % len(stamps)]
        high: int | float = stamps[bounds[1] % len(stamps)]
        if unbounded == "from":
            low = -math.inf
        if unbounded == "to":
            high = math.inf
        expected = self.model_call(
            "get_messages_by_session_range", session, low, high, roles, exclude_kinds
        )
        results = self.call("get_messages_by_session_range", session, low, high, roles,
                            exclude_kinds)
        hits = self.model.session_range_hits(session, low, high, roles, exclude_kinds)
        capped = len(hits) > self.model.range_query_limit
        read: tuple[str, ...] = ("RANGE-01", "RANGE-03") if capped else ("RANGE-02", "RANGE-04")
        filtered = roles is not None or bool(exclude_kinds)
        read = ("RANGE-04", *read) if filtered else (*read, "RANGE-02")
        for driver, actual in results:
            if isinstance(actual, list) and len(actual) > self.model.range_query_limit:
                raise self.fail(["RANGE-01"], driver, f"range read returned {len(actual)} "
                                f"messages, cap is {self.model.range_query_limit}")
            if actual != expected:
                if capped and isinstance(actual, list) and len(actual) == len(expected):
                    read = ("RANGE-03", *read)  # the right number, the wrong end kept
                missing = [m for m in expected if isinstance(actual, list) and m not in actual]
                if missing and all(m.timestamp in (low, high) for m in missing):
                    read = ("RANGE-02", *read)  # only messages on a bound went missing
                read = (*self.range_filters_failing(driver, session, low, high, roles,
                                                    exclude_kinds), *read)
                rules = self.history_rules(session, expected, actual, read, "RANGE-03", ())
                self.expect_value(rules, [(driver, actual)], expected)

    @precondition(lambda self: "get_recent_messages_across_sessions" in self.optional)
    @rule(
        limit=st.one_of(st.integers(0, 6), st.just(math.inf)),
        since=st.one_of(st.none(), st.integers(0, 40)),
        platform=st.sampled_from((None, "qq", "tg")),
        exclude=st.one_of(st.none(), st.lists(st.sampled_from(SESSIONS), max_size=2)),
        roles=st.one_of(st.none(), st.lists(st.sampled_from(ROLES), max_size=3)),
        kinds=st.one_of(st.none(), st.lists(st.sampled_from(KINDS[3:]), max_size=2)),
        exclude_kinds=st.one_of(st.none(), st.lists(st.sampled_from(KINDS[3:]), max_size=2)),
    )
    @logged
    def get_recent_messages_across_sessions(
        self, limit: int | float, since: int | None, platform: str | None,
        exclude: list[str] | None, roles: list[str] | None, kinds: list[str] | None,
        exclude_kinds: list[str] | None,
    ) -> None:
        query = RecentMessagesAcrossSessionsQuery(
            limit=limit, since_ts=self.stored_stamp(since), platform=platform,
            exclude_session_ids=exclude, roles=roles, kinds=kinds, exclude_kinds=exclude_kinds,
        )
        candidates, wanted = self.model.cross_session_candidates(query)
        rules = cross_rules(query, len(candidates), self.model.cross_session_max_limit)
        results = self.call("get_recent_messages_across_sessions", query)
        for driver, actual in results:
            if isinstance(actual, Raised):
                raise self.fail(rules, driver, f"cross-session read {py(query)} raised "
                                f"{actual.error.__name__}: {actual.text}")
            why = cross_session_accepts(candidates, wanted, actual)
            if why is not None:
                expected = self.model.get_recent_messages_across_sessions(query)
                rules = [*self.cross_filters_failing(driver, query), *rules]
                raise self.fail(rules, driver, f"get_recent_messages_across_sessions({py(query)})"
                                f": {why}; expected e.g. {describe(expected)}, got "
                                f"{describe(actual)}")

    @precondition(lambda self: "update_message_content" in self.optional)
    @rule(
        session=st.sampled_from(SESSIONS),
        old=st.sampled_from(OLD_TEXTS),
        new=st.sampled_from(NEW_TEXTS),
        limit=LIMITS,
    )
    @logged
    def update_message_content(
        self, session: str, old: str, new: str, limit: int | float | None
    ) -> None:
        if old == "":
            results = self.call("update_message_content", session, "", new, limit)
            self.expect_error(["UPD-03"], results, (ValueError,))
            self.check_session(session, ["UPD-03"])
            return
        rules = update_rules(self.model, session, old, limit)
        expected = self.model_call("update_message_content", session, old, new, limit)
        results = self.call("update_message_content", session, old, new, limit)
        self.expect_value(rules, results, expected)
        self.check_session(session, rules)

    @precondition(lambda self: "delete_messages_by_timestamps" in self.optional)
    @rule(
        session=st.sampled_from(SESSIONS),
        picks=st.lists(st.integers(0, 12), max_size=3),
        stray=st.booleans(),
    )
    @logged
    def delete_messages_by_timestamps(self, session: str, picks: list[int], stray: bool) -> None:
        stored = self.model.stored_timestamps(session)
        stamps = [stored[p % len(stored)] for p in picks] if stored else []
        if stray:
            stamps.append(BASE_TS - 1)  # never stored: deletes nothing
        rules = ["DEL-02"] if not stamps else ["DEL-01", "DEL-02"]
        expected = self.model_call("delete_messages_by_timestamps", session, stamps)
        results = self.call("delete_messages_by_timestamps", session, stamps)
        for _driver, actual in results:
            if isinstance(actual, Raised):
                self.expect_value(rules, results, expected)
        # What was deleted decides the rule (another session touched is DEL-02); then the count.
        self.check_sessions([(other, rules if other == session else ["DEL-02"], None)
                             for other in SESSIONS])
        self.expect_value(rules, results, expected)

    # -- metadata steps -------------------------------------------------------------------

    @rule(namespace=st.sampled_from(NAMESPACES), key=st.sampled_from(KEYS), data=JSON_OBJECTS,
          bad=st.one_of(st.none(), st.sampled_from(BAD_PAYLOADS)))
    @logged
    def save_metadata(
        self, namespace: str, key: str, data: JsonObject, bad: str | None
    ) -> None:
        if bad is not None:
            results = self.call("save_metadata", namespace, key, _bad_payload(bad))
            self.expect_error(["META-08"], results, (TypeError, ValueError))
            self.check_metadata(["META-08"])
            return
        self.stamp += 1
        self.model.save_metadata(namespace, key, copy.deepcopy(data))
        passed = copy.deepcopy(data)
        self.script.append(CallerMutates("save_metadata", (namespace, key, copy.deepcopy(data)),
                                         marker=MUTATION_MARKERS[0]))
        results = []
        for opened in self.stores:
            mine = copy.deepcopy(passed)
            try:
                value = self.loop.run_until_complete(
                    opened.store.save_metadata(namespace, key, mine)
                )
            except Exception as exc:
                value = Raised(type(exc), str(exc))
            mine[MUTATION_MARKERS[0]] = True  # META-06: must not reach storage
            results.append((opened.name, value))
        self.expect_value(["META-01"], results, None)
        self.check_metadata(["META-01", "META-06", "META-07"])

    @rule(namespace=st.sampled_from(NAMESPACES), key=st.sampled_from(KEYS))
    @logged
    def get_metadata(self, namespace: str, key: str) -> None:
        if key in self.model.unreadable_keys(namespace):
            return  # what reading an unreadable entry gives is not specified
        expected = self.model.get_metadata(namespace, key)
        results = self.call("get_metadata", namespace, key)
        self.script[-1] = CallerMutates("get_metadata", (namespace, key), marker=MUTATION_MARKERS[1])
        lead = ["META-06"] if any(leaked(actual) for _, actual in results) else []
        self.expect_value([*lead, "META-01", "META-07"], results, expected)
        for _driver, actual in results:
            if isinstance(actual, dict):
                actual[MUTATION_MARKERS[1]] = True  # META-06: must not reach storage
        with self.checking("get_metadata", namespace, key) as again:
            self.expect_value(["META-06"], again, expected)

    @rule(namespace=st.sampled_from(NAMESPACES), key=st.sampled_from(KEYS))
    @logged
    def delete_metadata(self, namespace: str, key: str) -> None:
        stored = (self.model.get_metadata(namespace, key) is not None
                  or key in self.model.unreadable_keys(namespace))
        rules = ["META-03"] if stored else ["META-11"]  # META-11: a missing key is a no-op
        self.model.delete_metadata(namespace, key)
        self.expect_value(rules, self.call("delete_metadata", namespace, key), None)
        self.check_metadata(rules)

    @precondition(lambda self: self.raw)
    @rule(namespace=st.sampled_from(NAMESPACES), key=st.sampled_from(KEYS),
          kind=st.sampled_from(("not-json", "not-object")), then_del=st.booleans())
    @logged
    def plant_unreadable(self, namespace: str, key: str, kind: str, then_del: bool) -> None:
        """An entry no read can decode, planted around the API: listings skip it (META-09), its
        key is still listed (META-10), and a batch del removes it (COMMIT-06)."""
        for target, opened in zip(self.TARGETS, self.stores, strict=True):
            hook = target.registration.raw_metadata
            assert hook is not None
            store = getattr(opened.store, "wrapped", opened.store)
            result = hook(store, namespace, key, cast(Any, kind))
            planted = self.loop.run_until_complete(result) if inspect.isawaitable(result) \
                else result
            if not planted:
                return  # the backend cannot hold this kind: nothing changed
        self.script.append(Planted("plant", (namespace, key, kind)))
        self.model.plant_unreadable(namespace, key)
        self.check_metadata(["META-09"])
        if then_del:
            batch: list[MetadataOp] = [MetadataDel(namespace, key)]
            self.model.commit_metadata(batch)
            self.expect_value(["COMMIT-06"], self.call("commit_metadata", batch), None)
            self.check_metadata(["COMMIT-06"])

    @rule(ops=OPS, bad_at=st.one_of(st.none(), st.integers(0, 4)),
          bad=st.sampled_from(BAD_PAYLOADS))
    @logged
    def commit_metadata(
        self, ops: list[tuple[str, str, str, JsonObject]], bad_at: int | None, bad: str
    ) -> None:
        batch: list[MetadataOp] = [
            MetadataPut(ns, key, data) if kind == "put" else MetadataDel(ns, key)
            for kind, ns, key, data in ops
        ]
        if bad_at is not None:
            batch.insert(min(bad_at, len(batch)), MetadataPut(NAMESPACES[1], "bad", _bad_payload(bad)))
        self.stamp += 1
        missing_del = any(
            isinstance(op, MetadataDel) and self.model.get_metadata(op.namespace, op.key) is None
            for op in batch
        )
        try:
            self.model.commit_metadata(copy.deepcopy(batch))
            rejected = False
        except (TypeError, ValueError):
            rejected = True
        unreadable = any(isinstance(op, MetadataDel)
                         and op.key in self.model.unreadable_keys(op.namespace) for op in batch)
        spaces = sorted({op.namespace for op in batch})
        results, torn = self.call_watched("commit_metadata", (batch,),
                                          [Step("list_metadata", (ns,)) for ns in spaces],
                                          self.atomic_metadata)
        if rejected:
            rules = ["COMMIT-04", *(["COMMIT-03"] if missing_del else [])]
            if any(isinstance(a, Raised) and not issubclass(a.error, (TypeError, ValueError))
                   for _, a in results):
                rules.reverse()  # another error than the payload's: the rest of the batch raised
            self.expect_error(rules, results, (TypeError, ValueError))
        else:
            first = "COMMIT-06" if unreadable else "COMMIT-03" if missing_del else "COMMIT-01"
            self.expect_value([first], results, None)
            rules = [*(["COMMIT-06"] if unreadable else []), *commit_rules(batch)]
            if self.foreign_entries(batch):
                rules.insert(0, "COMMIT-02")
        self.check_metadata(rules)
        self.expect_whole(["COMMIT-05"], torn)

    def foreign_entries(self, batch: Sequence[MetadataOp]) -> bool:
        """Whether a batch over several namespaces left entries the model lacks in a namespace
        it put nothing into (COMMIT-02: each op writes its own namespace)."""
        spaces = {op.namespace for op in batch}
        if len(spaces) < 2:
            return False
        untouched = set(NAMESPACES) - {op.namespace for op in batch if isinstance(op, MetadataPut)}
        for opened in self.stores:
            for namespace in untouched:
                keys = self.probe(opened.name, "list_metadata", namespace)
                known = set(self.model.list_metadata_keys(namespace))
                if isinstance(keys, list) and any(getattr(e, "key", None) not in known
                                                  for e in keys):
                    return True
        return False

    # -- invariants -----------------------------------------------------------------------

    @invariant()
    def histories_match_model(self) -> None:
        """After every step each session's active history is the model's (a cheap sweep)."""
        for session in SESSIONS:
            expected = self.model.get_history(session, math.inf)
            with self.checking("get_history", session, math.inf) as results:
                self.expect_messages(session, results, expected, ("HIST-01", "MSG-01"),
                                     "HIST-02", self.unknown(session))
            if self.model.count_history(session) > 2:
                # HIST-03/04: a trimmed window, control records in between and before it.
                window = self.model.get_history(session, 2)
                with self.checking("get_history", session, 2) as results:
                    self.expect_messages(session, results, window, ("HIST-04", "HIST-03"),
                                         "HIST-02", ())

    def sweep_reads(self, session: str, cause: Sequence[str]) -> None:
        """Unfiltered range and cross-session reads: caps, archived rows, timestamp order.

        A failing sweep first re-checks the stored state: if it diverged, the step's ``cause``
        is to blame; if it is known to match, the read itself is, and ``cause`` is dropped.
        """
        if "get_messages_by_session_range" in self.optional:
            hits = self.model.session_range_hits(session, -math.inf, math.inf)
            expected = hits[: self.model.range_query_limit]
            with self.checking("get_messages_by_session_range", session, -math.inf,
                               math.inf) as results:
                for driver, actual in results:
                    if actual != expected:
                        self.range_sweep_failed(session, driver, actual, expected, hits, cause)
        if "get_recent_messages_across_sessions" in self.optional:
            # since_ts at the oldest stored timestamp keeps everything (CROSS-05: inclusive).
            query = RecentMessagesAcrossSessionsQuery(
                limit=math.inf, roles=ROLES, since_ts=self.stored_stamp(0)
            )
            candidates, wanted = self.model.cross_session_candidates(query)
            with self.checking("get_recent_messages_across_sessions", query) as results:
                for driver, actual in results:
                    why = (f"raised {actual.error.__name__}" if isinstance(actual, Raised)
                           else cross_session_accepts(candidates, wanted, actual))
                    if why is not None:
                        blame = [] if self.verify_all_state(cause) else cause
                        rules = [
                            *self.cross_filters_failing(driver, query),
                            *self.cross_sweep_rules(candidates, actual, blame),
                            *cross_rules(query, len(candidates),
                                         self.model.cross_session_max_limit),
                            *blame,
                        ]
                        raise self.fail(rules, driver, f"get_recent_messages_across_sessions("
                                        f"{py(query)}): {why}; got {describe(actual)}")
            if candidates:
                nothing = RecentMessagesAcrossSessionsQuery(limit=0, roles=ROLES)
                with self.checking("get_recent_messages_across_sessions", nothing) as results:
                    self.expect_value(["LIM-01", *cause], results, [])

    def range_sweep_failed(self, session: str, driver: str, actual: Any, expected: list[Message],
                           hits: list[Message], cause: Sequence[str]) -> None:
        """Raise for an unfiltered range read that differs from the model, naming the rule."""
        blame = [] if self.verify_all_state(cause) else cause
        capped = len(hits) > len(expected)
        read = ["RANGE-01", "RANGE-03"] if capped else ["RANGE-02", "RANGE-03"]
        if capped and isinstance(actual, list) and len(actual) == len(expected):
            read.reverse()
        rules = self.history_rules(session, expected, actual, read, "RANGE-03", blame)
        if capped and isinstance(actual, list):
            rules = [*read, *rules]  # over a full cap, the cap explains first
            active = [m for m in hits if not self.model.is_archived_content(session, m.content)]
            if actual == active[: len(expected)]:
                rules.insert(0, "RANGE-02")  # archived rows went missing
        self.expect_value(rules, [(driver, actual)], expected)

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
                    or cross_session_accepts(candidates, wanted, actual) is not None)

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
            expected = self.model.get_messages_by_session_range(session, *args)
            return bool(self.probe(driver, "get_messages_by_session_range", session, *args)
                        != expected)

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

    def cross_sweep_rules(self, candidates: list[RecentMessageRecord], actual: Any,
                          cause: Sequence[str]) -> list[str]:
        """What an unfiltered cross-session read got wrong, judged by its records."""
        if not isinstance(actual, list):
            return list(cause)
        known: dict[tuple[Any, Any], RecentMessageRecord] = {
            (r.session_id, r.message.content): r for r in candidates
        }
        for record in actual:
            content = getattr(getattr(record, "message", None), "content", None)
            session = getattr(record, "session_id", None)
            if (session, content) in known:
                if known[(session, content)] != record:
                    return ["MSG-02", *cause]  # the right message, mangled fields
            elif session is not None and self.model.is_archived_content(session, content):
                return ["CROSS-02", *cause]  # archived messages are not read across sessions
            else:
                return [*cause, "MSG-01"]  # a message the store should no longer hold
        if len(actual) > self.model.cross_session_max_limit:
            return ["CROSS-01", "LIM-04", *cause]
        return ["CROSS-02", *cause]

    def unknown(self, session: str) -> list[str]:
        """MSG-04 leads when the session holds nothing (never written, or cleared)."""
        return [] if self.model.get_full_history(session, math.inf) else ["MSG-04"]


#: Keys the machine adds to objects it passed in or got back (META-06: must not reach storage).
MUTATION_MARKERS: Final = ("__mutated_after_save__", "__mutated_after_get__")


async def watch_write(store: Any, method: str, args: tuple[Any, ...],
                      reads: Sequence[Step]) -> tuple[Any, list[str]]:
    """Run one write while polling ``reads`` between its awaits; returns its result (or
    :class:`Raised`) and a description of every read that was neither before nor after it.

    Each read is judged alone: two reads of one poll may straddle the write on a store whose
    reads also wait (a worker thread, a server), and that is not a torn write.
    """

    async def read(step: Step) -> Any:
        try:
            return await getattr(store, step.method)(*step.args)
        except Exception as exc:
            return Raised(type(exc), str(exc))

    before = [await read(step) for step in reads]
    writer = asyncio.ensure_future(getattr(store, method)(*args))
    polls: list[list[Any]] = []
    while not writer.done():
        polls.append([await read(step) for step in reads])
        await asyncio.sleep(0)  # hand the loop back to the writer, not a wait for ordering
    try:
        value: Any = await writer
    except Exception as exc:
        value = Raised(type(exc), str(exc))
    after = [await read(step) for step in reads]
    torn = [
        f"{step.call()} = {describe(seen)} (before: {describe(old)}, after: {describe(new)})"
        for poll in polls
        for step, seen, old, new in zip(reads, poll, before, after, strict=True)
        if seen not in (old, new)
    ]
    return value, torn


def leaked(data: object) -> bool:
    """Whether stored ``data`` carries a mutation the caller made after handing it over."""
    return isinstance(data, dict) and any(m in data for m in MUTATION_MARKERS)


def build_message(number: int, spec: MessageSpec, timestamp: int | None) -> Message:
    """A message whose content starts with a unique tag that no rewrite can touch."""
    content: str | None = " ".join((f"#{number}", *spec.words))
    fields: dict[str, Any] = {}
    if spec.shape == 1:
        fields = {"images": ("img://1",), "audios": ("aud://1",)}
    elif spec.shape == 2:
        fields = {"tool_calls": ({"id": f"c{number}", "name": "f", "arguments": "{}"},),
                  "tool_call_id": f"c{number}", "name": "f"}
        content = None if spec.role == "assistant" else content
    elif spec.shape == 3:
        fields = {"reasoning_content": None, "segments": ({"type": "text", "text": "t"},)}
    elif spec.shape == 4:
        fields = {"metadata": {"platform": "qq", "n": number}}
    elif spec.shape == 5:
        fields = {"metadata": {"platform": "tg"}}
    return Message(role=spec.role, content=content, kind=spec.kind, timestamp=timestamp, **fields)


def archive_rules(active: list[Message], count: int, keep: Sequence[int],
                  archived_before: bool = False) -> list[str]:
    """The archive rules this call exercises, the narrowest first.

    The count above the active history (ARCH-05) goes last: most long spans exercise it, so it
    explains little on its own; :func:`minimize` narrows a failure down to fewer rules.
    """
    span = min(count, len(active))
    rules: list[str] = []
    if count == 0:
        rules.append("ARCH-04")
    if archived_before:
        rules.append("ARCH-08")
    if any(k >= span for k in keep) or len(set(keep)) != len(keep):
        rules.append("ARCH-06")
    if any(m.kind in CONTROL_KINDS for m in active[:span]):
        rules.append("ARCH-03")
    if any(k < span for k in keep):
        rules.append("ARCH-02")
    if count > len(active):
        rules.append("ARCH-05")
    return list(dict.fromkeys([*rules, "ARCH-01", "ARCH-08"]))


def update_rules(model: ModelMemory, session: str, old: str, limit: object) -> list[str]:
    """UPD-01 when the window decides which messages change, LIM-03 at the limit edges.

    Archived messages count as hits outside the window: only the window keeps them unchanged.
    """
    active = model.get_history(session, math.inf)
    stored = model.get_full_history(session, math.inf)
    hits = sum(1 for m in stored if isinstance(m.content, str) and old in m.content)
    if limit == 0:
        return ["LIM-03", "UPD-01", "UPD-02"] if hits else ["UPD-02", "LIM-03"]
    size = len(active) if limit is None or limit == math.inf else int(str(limit))
    window = active[len(active) - min(size, len(active)):]
    in_window = sum(1 for m in window if isinstance(m.content, str) and old in m.content)
    if in_window != hits:
        return ["UPD-01", "UPD-02", "LIM-03"]
    return ["UPD-02", "UPD-01", "LIM-03"]


def commit_rules(batch: Sequence[MetadataOp]) -> list[str]:
    """The commit rules a batch's outcome depends on, most telling first: op order only matters
    when ops share a key (COMMIT-01), namespaces only when there are several (COMMIT-02)."""
    if not batch:
        return ["COMMIT-03"]
    targets = [(op.namespace, op.key) for op in batch]
    rules = ["COMMIT-01"] if len(set(targets)) < len(targets) else []
    rules += ["COMMIT-02"] if len({ns for ns, _ in targets}) > 1 else []
    rules += ["COMMIT-03"] if any(isinstance(op, MetadataDel) for op in batch) else []
    return [*rules, "COMMIT-01"]


def cross_rules(query: RecentMessagesAcrossSessionsQuery, matches: int, cap: int) -> list[str]:
    rules: list[str] = []
    if query.limit == 0:
        rules.append("LIM-01")
    if query.limit > cap and matches > cap:
        rules += ["LIM-04"] if query.limit == math.inf else ["CROSS-01"]
    if query.roles is None:
        rules.append("CROSS-03")
    if query.kinds is not None or query.exclude_kinds:
        rules.append("CROSS-04")
    if query.roles is not None:
        rules.append("CROSS-03")
    if query.since_ts is not None or query.platform or query.exclude_session_ids:
        rules.append("CROSS-05")
    return [*rules, "CROSS-02"]


def machine_for(targets: Sequence[Target]) -> type[MemoryMachine]:
    """A machine class bound to ``targets`` (one driver, or several for differential mode)."""
    names = "_".join(t.name for t in targets).replace("-", "_")
    return type(f"MemoryMachine_{names}", (MemoryMachine,), {"TARGETS": tuple(targets)})


# -- profiles, running, and cutting a failing history down -------------------------------------

#: Hypothesis profile names behind ``--memory-hypothesis-profile`` (prefixed so they never clash
#: with a project's own ``ci`` profile or Hypothesis's built-in one).
PROFILES: Final = {
    "ci": "aalis-memory-ci",
    "deep": "aalis-memory-deep",
    "thorough": "aalis-memory-thorough",
}


def _derandomized(examples: int, steps: int) -> settings:
    return settings(
        derandomize=True,
        database=None,
        deadline=None,
        max_examples=examples,
        stateful_step_count=steps,
        print_blob=True,
        report_multiple_bugs=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        # Hypothesis's shrinker needs minutes on long stateful histories; minimize() below
        # cuts a failing history down by replaying rule calls instead, in about a second.
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
    )


#: ci: the default, a few seconds per in-process driver. deep: the same histories, more of
#: them (the kit's own broken-driver check uses it). thorough: random and long, for nightly runs.
settings.register_profile(PROFILES["ci"], _derandomized(40, 30))
settings.register_profile(PROFILES["deep"], _derandomized(300, 40))
settings.register_profile(
    PROFILES["thorough"],
    derandomize=False,
    deadline=None,
    max_examples=3000,
    stateful_step_count=80,
    print_blob=True,
    report_multiple_bugs=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    # No Hypothesis shrinking here either: on a FerretDB-backed store it ran past five minutes
    # and gave up, while minimize() cut the same failure down in seconds.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)

#: Replays minimize() may spend on one failure.
MAX_REPLAYS: Final = 400


#: Examples per round of a time-budgeted run: the budget is overshot by at most one round.
BUDGET_ROUND: Final = 10


def run_machine(machine: type[MemoryMachine], profile: str = "ci", budget: float | None = None,
                clock: Callable[[], float] = time.monotonic) -> int:
    """Run ``machine`` under a kit profile; a failure is re-raised with its history minimized.

    With ``budget`` (seconds; random profiles only, where another round means new histories)
    rounds of :data:`BUDGET_ROUND` examples run until the budget is spent, so a nightly run ends
    green at a known time instead of being killed. Returns how many rounds ran.
    """
    chosen = settings.get_profile(PROFILES[profile])
    if budget is None:
        _run_minimized(machine, chosen)
        return 1
    if chosen.derandomize:
        raise ValueError(f"profile {profile!r} is derandomized: a time budget would repeat it")
    stop = clock() + budget
    rounds = 0
    while rounds == 0 or clock() < stop:
        _run_minimized(machine, settings(chosen, max_examples=BUDGET_ROUND))
        rounds += 1
    return rounds


def _run_minimized(machine: type[MemoryMachine], chosen: settings) -> None:
    try:
        run_state_machine_as_test(machine, settings=chosen)
    except ConformanceFailure as failure:
        log = getattr(failure, "rule_log", None)
        if log is None:
            raise
        raise minimize(machine, log, failure) from None


#: The plainest message a save step can make: minimize() moves generated specs toward it.
PLAIN_SPEC: Final = MessageSpec(role="user", kind=None, words=(), shape=0, step=1, late=0,
                                stamp_now=False)


def simpler_values(value: Any) -> Iterator[Any]:
    """Candidates one field plainer than ``value`` (message specs, or lists/pairs holding them)."""
    if isinstance(value, MessageSpec):
        for field in attrs.fields(MessageSpec):
            plain = getattr(PLAIN_SPEC, field.name)
            if getattr(value, field.name) != plain:
                yield attrs.evolve(value, **{field.name: plain})
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            for simpler in simpler_values(item):
                changed = [*value[:index], simpler, *value[index + 1:]]
                yield changed if isinstance(value, list) else tuple(changed)


def replay(machine: type[MemoryMachine], log: Sequence[tuple[str, dict[str, Any]]]
           ) -> ConformanceFailure | None:
    """Run the rule calls of ``log`` on a fresh machine; the failure they cause, if any."""
    state = machine()
    try:
        for name, kwargs in log:
            getattr(state, name)(**copy.deepcopy(kwargs))
            state.histories_match_model()
    except ConformanceFailure as failure:
        return failure
    except Exception:
        return None
    finally:
        state.teardown()
    return None


def narrower(found: ConformanceFailure, best: ConformanceFailure) -> bool:
    """Whether ``found`` reports the same failure as ``best``, or narrows its explanation: its
    rules are among those ``best`` involved (a simpler history that no longer exercises, say, a
    long span shows which of the involved rules really broke)."""
    if found.rule.id == best.rule.id:
        return True
    involved: list[str] = getattr(best, "involved", [best.rule.id])
    return set(getattr(found, "involved", [found.rule.id])) < set(involved)


def minimize(machine: type[MemoryMachine], log: Sequence[tuple[str, dict[str, Any]]],
             failure: ConformanceFailure) -> ConformanceFailure:
    """Cut a failing history down while the same rule still fails (or the failure narrows, see
    :func:`narrower`): drop whole rule calls, then items of list arguments, then make generated
    messages plainer (each pass to a fixpoint)."""
    steps = list(log)
    best = failure
    budget = MAX_REPLAYS

    def attempt(trial: list[tuple[str, dict[str, Any]]]) -> bool:
        nonlocal budget, steps, best
        if budget <= 0:
            return False
        budget -= 1
        found = replay(machine, trial)
        if found is None or not narrower(found, best):
            return False
        steps, best = trial, found
        return True

    def with_arg(index: int, arg: str, value: Any) -> list[tuple[str, dict[str, Any]]]:
        name, kwargs = steps[index]
        return [*steps[:index], (name, {**kwargs, arg: value}), *steps[index + 1:]]

    def drop_steps() -> bool:
        return any(attempt(steps[:i] + steps[i + 1:]) for i in reversed(range(len(steps))))

    def drop_items() -> bool:
        for index in reversed(range(len(steps))):
            for arg, value in steps[index][1].items():
                if isinstance(value, list) and any(
                    attempt(with_arg(index, arg, value[:i] + value[i + 1:]))
                    for i in reversed(range(len(value)))
                ):
                    return True
        return False

    def plainer() -> bool:
        for index in range(len(steps)):
            for arg, value in steps[index][1].items():
                if any(attempt(with_arg(index, arg, v)) for v in simpler_values(value)):
                    return True
        return False

    for shrink in (drop_steps, drop_items, plainer):
        while budget > 0 and shrink():
            pass
    return best


__all__ = [
    "COVERED_RULES",
    "SNIPPET_IMPORTS",
    "MemoryMachine",
    "Planted",
    "Target",
    "Watched",
    "archive_rules",
    "build_message",
    "machine_for",
    "minimize",
    "py",
    "run_machine",
    "watch_write",
]
