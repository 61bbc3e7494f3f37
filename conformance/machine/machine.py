"""The state machine: one generated history run on the drivers and on the contract model.

Every step is one generated call of a contract method: Hypothesis draws its inputs, and the step
object of its method family (saves and window reads, changes, range and cross-session reads,
metadata) calls the stores and the model, compares their answers, re-checks the state the call
may have changed, and hands any disagreement to the blame service (:class:`.blame.Blame`). After
every step the invariant re-reads what the step reached.

What one run is bound to (its drivers, the rules it tolerates, its ledger) is plain data, a
:class:`~.core.MachineConfig`; :class:`MachineFactory` makes one fresh machine per example of it.

The order in which Hypothesis draws is the order of this class's rules (by their arguments'
count, then name) and of each rule's arguments: a change of either changes every history the
derandomized profiles draw.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from aalis_memory.conformance.machine.change_steps import ChangeSteps
from aalis_memory.conformance.machine.core import MachineConfig, MachineCore
from aalis_memory.conformance.machine.derived_reads import DerivedReads
from aalis_memory.conformance.machine.failure import ToleratedDivergence
from aalis_memory.conformance.machine.inputs import (
    BAD_LIMITS,
    BAD_PAYLOADS,
    BAD_SPANS,
    CROSS_LIMITS,
    JSON_OBJECTS,
    KEYS,
    LIMITS,
    MAX_CLEARS,
    MAX_LONG_RUNS,
    MESSAGE_SPECS,
    NAMESPACES,
    NEW_TEXTS,
    OLD_TEXTS,
    OPS,
    ORIGINS,
    PLATFORMS,
    QUERY_KINDS,
    ROLES,
    SESSIONS,
    STAMP_PICKS,
    MessageSpec,
)
from aalis_memory.conformance.machine.message_steps import MessageSteps
from aalis_memory.conformance.machine.metadata_state import MetadataChecks
from aalis_memory.conformance.machine.metadata_steps import MetadataSteps
from aalis_memory.conformance.machine.query_steps import QuerySteps
from aalis_memory.conformance.machine.state_checks import StateChecks
from aalis_memory.defaults import DEFAULT_HISTORY_LIMIT
from aalis_memory.types import JsonObject

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
#: Archives a history may start with: (session, count, keep).
SEED_ARCHIVES = st.lists(
    st.tuples(st.sampled_from(SESSIONS), st.integers(1, 6), st.lists(st.integers(0, 5), max_size=2)),
    max_size=2,
)
#: Metadata entries a history may start with: (namespace, key, data).
SEED_ENTRIES = st.lists(
    st.tuples(st.sampled_from(NAMESPACES), st.sampled_from(KEYS), JSON_OBJECTS), max_size=3
)


def logged(step: F) -> F:
    """Record each rule call so a failing history can be replayed and cut down (the minimizer);
    a derailed history runs no more steps, and an excused divergence ends the step (and, but in
    a read step, the history: :meth:`.blame.Blame.excused`)."""

    @functools.wraps(step)
    def record(self: MemoryMachine, **kwargs: Any) -> None:
        core = self.core
        core.history.rule_log.append((step.__name__, kwargs))
        core.current.begin()
        if core.history.derailed:
            return
        try:
            step(self, **kwargs)
        except ToleratedDivergence as divergence:
            core.blame.excused(divergence, derail=step.__name__ not in READ_STEPS)

    return cast(F, record)


def has(method: str) -> Callable[[MemoryMachine], bool]:
    """The precondition of a step of an optional method: every store has it."""
    return lambda machine: method in machine.core.stores.methods


def plants(machine: MemoryMachine) -> bool:
    """Unreadable entries can be planted (a raw hook), and no rule about them is tolerated."""
    core = machine.core
    return core.stores.raw and "META-09" not in core.tolerance and "META-10" not in core.tolerance


class MemoryMachine(RuleBasedStateMachine):
    """Every generated step over one :class:`~.core.MachineCore` (what the history holds), with
    the step and check objects of each family; made per example by :class:`MachineFactory`.

    Hypothesis generates many near-copies of a few histories, and some that repeat one step
    thirty times. A history that starts from a state with archived messages and metadata entries
    makes even those exercise the interplay that bugs hide in (a clear or a deletion that forgets
    archived rows, positions counted over earlier archives, a delete that drops a namespace's
    other entries).
    """

    def __init__(self, config: MachineConfig) -> None:
        super().__init__()
        self.core = core = MachineCore(config)
        self.state = StateChecks(core)
        self.reads = reads = DerivedReads(core, self.state)
        listings = MetadataChecks(core)
        self.messages = MessageSteps(core, reads)
        self.changes = ChangeSteps(core, reads, listings)
        self.queries = QuerySteps(core, reads)
        self.metadata = MetadataSteps(core, listings)

    def teardown(self) -> None:
        self.core.stores.close()

    @initialize(
        origin=st.sampled_from(ORIGINS),
        seed=st.lists(st.tuples(st.sampled_from(SESSIONS), MESSAGE_SPECS), max_size=14),
        archives=SEED_ARCHIVES,
        entries=SEED_ENTRIES,
    )
    @logged
    def seed_history(
        self,
        origin: int | float,
        seed: list[tuple[str, MessageSpec]],
        archives: list[tuple[str, int, list[int]]],
        entries: list[tuple[str, str, JsonObject]],
    ) -> None:
        """The first messages, from a clock that starts at ``origin`` (0 and below included),
        then the first archives and metadata entries."""
        core = self.core
        # TS-01 tolerated: no history starts at 0 or below it (nor at a fraction).
        core.clock.start(ORIGINS[0] if "TS-01" in core.tolerance else origin)
        for session, spec in seed:
            self.messages.save_one(session, spec)
        for session in SESSIONS:
            self.reads.check_session(session, ["MSG-02", "MSG-01"])
        core.current.fresh.clear()  # saved and checked: what changes them from here on is not the save
        for session, count, keep in archives:
            self.changes.archive(session, count, keep)
        for namespace, key, data in entries:
            self.metadata.store_metadata(namespace, key, data)

    @invariant()
    def histories_match_model(self) -> None:
        self.state.histories_match_model()

    # -- saves and window reads (:mod:`.message_steps`) -----------------------------------------

    @rule(session=st.sampled_from(SESSIONS), specs=st.lists(MESSAGE_SPECS, min_size=1, max_size=6))
    @logged
    def save_messages(self, session: str, specs: list[MessageSpec]) -> None:
        self.messages.save_messages(session, specs)

    @rule(session=st.sampled_from(SESSIONS), specs=st.lists(MESSAGE_SPECS, min_size=2, max_size=6))
    @logged
    def save_conversation(self, session: str, specs: list[MessageSpec]) -> None:
        self.messages.save_conversation(session, specs)

    @rule(
        sessions=st.lists(st.sampled_from(SESSIONS), min_size=2, max_size=3, unique=True), spec=MESSAGE_SPECS
    )
    @logged
    def save_at_one_moment(self, sessions: list[str], spec: MessageSpec) -> None:
        self.messages.save_at_one_moment(sessions, spec)

    @precondition(
        lambda self: self.core.tally.long_runs < MAX_LONG_RUNS and len(self.core.history.rule_log) >= 20
    )
    @rule(
        session=st.sampled_from(SESSIONS),
        size=st.integers(DEFAULT_HISTORY_LIMIT + 5, DEFAULT_HISTORY_LIMIT + 20),
        marker_every=st.sampled_from((0, 7, 11)),
    )
    @logged
    def save_long_run(self, session: str, size: int, marker_every: int) -> None:
        self.messages.save_long_run(session, size, marker_every)

    @rule(session=st.sampled_from(SESSIONS), limit=LIMITS | st.sampled_from(BAD_LIMITS))
    @logged
    def get_history(self, session: str, limit: object) -> None:
        self.messages.get_history(session, limit)

    @precondition(has("get_full_history"))
    @rule(session=st.sampled_from(SESSIONS), limit=LIMITS)
    @logged
    def get_full_history(self, session: str, limit: int | float | None) -> None:
        self.messages.get_full_history(session, limit)

    # -- archives, clears, rewrites, deletions (:mod:`.change_steps`) --------------------------

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
        self.changes.archive_span(session, count, keep, bad)

    # Clearing matters once there is history, and a few times per history: Hypothesis favours
    # the rules it sorts first (few arguments, then by name), and unbounded, clearing would wipe
    # most histories before anything else happened to them. The precondition counts steps, not
    # stored messages: how many messages a deletion removes can depend on the store's clock
    # (stamped timestamps may or may not share a millisecond), and preconditions must be
    # deterministic.
    @precondition(lambda self: len(self.core.history.rule_log) >= 6 and self.core.tally.clears < MAX_CLEARS)
    @rule(session=st.sampled_from(SESSIONS), everything=st.integers(0, 2).map(lambda n: n == 2))
    @logged
    def clear(self, session: str, everything: bool) -> None:
        self.changes.clear(session, everything)

    @precondition(has("update_message_content"))
    @rule(
        session=st.sampled_from(SESSIONS),
        old=st.sampled_from(OLD_TEXTS),
        new=st.sampled_from(NEW_TEXTS),
        limit=LIMITS,
    )
    @logged
    def update_message_content(self, session: str, old: str, new: str, limit: int | float | None) -> None:
        self.changes.update_message_content(session, old, new, limit)

    @precondition(has("delete_messages_by_timestamps"))
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
        self.changes.delete_messages_by_timestamps(session, picks, stray, elsewhere)

    # -- range and cross-session reads (:mod:`.query_steps`) -----------------------------------

    @precondition(has("get_messages_by_session_range"))
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
        self.queries.get_messages_by_session_range(session, bounds, unbounded, roles, exclude_kinds)

    @precondition(has("get_recent_messages_across_sessions"))
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
        self.queries.get_recent_messages_across_sessions(
            limit, since, platform, exclude, roles, kinds, exclude_kinds
        )

    # -- metadata (:mod:`.metadata_steps`) ------------------------------------------------------

    @rule(
        namespace=st.sampled_from(NAMESPACES),
        key=st.sampled_from(KEYS),
        data=JSON_OBJECTS,
        bad=st.one_of(st.none(), st.sampled_from(BAD_PAYLOADS)),
    )
    @logged
    def save_metadata(self, namespace: str, key: str, data: JsonObject, bad: str | None) -> None:
        self.metadata.save_metadata(namespace, key, data, bad)

    @rule(namespace=st.sampled_from(NAMESPACES), key=st.sampled_from(KEYS))
    @logged
    def get_metadata(self, namespace: str, key: str) -> None:
        self.metadata.get_metadata(namespace, key)

    @rule(namespace=st.sampled_from(NAMESPACES), key=st.sampled_from(KEYS))
    @logged
    def delete_metadata(self, namespace: str, key: str) -> None:
        self.metadata.delete_metadata(namespace, key)

    @precondition(plants)
    @rule(
        namespace=st.sampled_from(NAMESPACES),
        key=st.sampled_from(KEYS),
        kind=st.sampled_from(("not-json", "not-object")),
        then_del=st.booleans(),
    )
    @logged
    def plant_unreadable(self, namespace: str, key: str, kind: str, then_del: bool) -> None:
        self.metadata.plant_unreadable(namespace, key, kind, then_del)

    @rule(
        ops=OPS,
        bad_at=st.one_of(st.none(), st.integers(0, 4)),
        bad=st.sampled_from(BAD_PAYLOADS),
        echo=st.booleans(),
    )
    @logged
    def commit_metadata(
        self,
        ops: list[tuple[str, str, str, JsonObject]],
        bad_at: int | None,
        bad: str,
        echo: bool = False,
    ) -> None:
        self.metadata.commit_metadata(ops, bad_at, bad, echo)


class MachineFactory:
    """Makes a fresh :class:`MemoryMachine` of one ``config`` per example (what
    ``run_state_machine_as_test`` and the minimizer call).

    Hypothesis seeds a derandomized run with a digest of the factory: its source where it has
    one, else its name, and its signature. A factory object has no source, so the histories
    drawn depend on the drivers' names alone (``__name__``), never on an edit of the machine's
    code, as they did when each run made a class of its own with :func:`type`.
    """

    __signature__ = inspect.Signature(return_annotation="None")

    def __init__(self, config: MachineConfig) -> None:
        self.config = config
        names = "_".join(t.name for t in config.targets).replace("-", "_")
        self.__name__ = f"MemoryMachine_{names}"

    def __call__(self) -> MemoryMachine:
        return MemoryMachine(self.config)


__all__ = ["READ_STEPS", "MachineFactory", "MemoryMachine", "logged"]
