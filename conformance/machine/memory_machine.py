"""The whole machine: where every history starts, and every generated step over it.

Hypothesis generates many near-copies of a few histories, and some that repeat one step thirty
times. A history that starts from a state with archived messages and metadata entries makes even
those exercise the interplay that bugs hide in (a clear or a deletion that forgets archived rows,
positions counted over earlier archives, a delete that drops a namespace's other entries).
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import initialize

from aalis_memory.conformance.machine.change_steps import ChangeSteps
from aalis_memory.conformance.machine.core import logged
from aalis_memory.conformance.machine.inputs import (
    JSON_OBJECTS,
    KEYS,
    MESSAGE_SPECS,
    NAMESPACES,
    ORIGINS,
    SESSIONS,
    MessageSpec,
)
from aalis_memory.conformance.machine.message_steps import MessageSteps
from aalis_memory.conformance.machine.metadata_steps import MetadataSteps
from aalis_memory.conformance.machine.query_steps import QuerySteps
from aalis_memory.types import JsonObject

#: Archives a history may start with: (session, count, keep).
SEED_ARCHIVES = st.lists(
    st.tuples(st.sampled_from(SESSIONS), st.integers(1, 6), st.lists(st.integers(0, 5), max_size=2)),
    max_size=2,
)
#: Metadata entries a history may start with: (namespace, key, data).
SEED_ENTRIES = st.lists(
    st.tuples(st.sampled_from(NAMESPACES), st.sampled_from(KEYS), JSON_OBJECTS), max_size=3
)


class MemoryMachine(MessageSteps, ChangeSteps, QuerySteps, MetadataSteps):
    """Every generated step over one core (bound to drivers by ``machine_for``): the steps are
    its methods, the state they build up is in the objects the core holds."""

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
        # TS-01 tolerated: no history starts at 0 or below it (nor at a fraction).
        self.clock.start(ORIGINS[0] if "TS-01" in self.tolerance else origin)
        for session, spec in seed:
            self.save_one(session, spec)
        for session in SESSIONS:
            self.check_session(session, ["MSG-02", "MSG-01"])
        self.current.fresh.clear()  # saved and checked: what changes them from here on is not the save
        for session, count, keep in archives:
            self.archive(session, count, keep)
        for namespace, key, data in entries:
            self.store_metadata(namespace, key, data)


__all__ = ["MemoryMachine"]
