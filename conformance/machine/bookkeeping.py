"""What a history accumulates besides the contract's state, one job per object.

The model (:class:`~aalis_memory.conformance.machine.contract_model.ContractModel`) holds what the
stores must hold; the machine's steps need a little more to generate the next inputs and to
judge and report what a store answered: the history's time (:class:`Clock`), counts later steps
depend on (:class:`Tally`), what the current step reached and changed (:class:`CurrentStep`), the
record a failure is reproduced from (:class:`History`) and what the metadata checks remember
(:class:`MetadataBook`). Each is a plain object the machine holds, so a step reads as the calls
it makes and the checks it runs.
"""

from __future__ import annotations

from typing import Any

import attrs

from aalis_memory.conformance.machine.attribution import Origin, json_alike
from aalis_memory.conformance.machine.failure import LoggedCall
from aalis_memory.conformance.machine.inputs import ORIGINS, SESSIONS
from aalis_memory.conformance.machine.snippets import Step
from aalis_memory.types import JsonObject, Message


class Clock:
    """The history's time: the timestamps it hands out and the model's clock.

    ``cursor``: the last generated timestamp (``started``: whether one was handed out, the first
    being the origin itself). ``stamp``: what the model reads as "now" (the store's stamp of a
    message saved without one, else a count bumped by every metadata write, so updated_at
    comparisons stay exact). ``stamped``: whether a store has stamped a message of this history
    (one per history: two could share a millisecond or not, by the clock, and a history must
    fail or pass the same way every time it is replayed).
    """

    def __init__(self) -> None:
        self.cursor: int | float = ORIGINS[0]
        self.started = False
        self.stamp = 0
        self.stamped = False

    def start(self, origin: int | float) -> None:
        """Generated timestamps start at ``origin``."""
        self.cursor = origin
        self.started = False

    def advance(self, step: int | float) -> int | float:
        """The next generated timestamp: the origin first, then ``step`` further each time."""
        if self.started:
            self.cursor += step
        self.started = True
        return self.cursor

    def tick(self) -> None:
        """A metadata write: the model's clock moves on."""
        self.stamp += 1

    def store_stamped(self, stamp: int, follow: bool) -> None:
        """A store stamped a message at ``stamp``; with ``follow`` (write-ordered drivers) the
        generated timestamps go on from it, never behind it."""
        self.stamp = stamp
        if follow:
            self.cursor = max(self.cursor, stamp)


class Tally:
    """Counts of the history that later steps depend on.

    ``counter`` numbers the messages it generated (their contents are unique); ``owner`` maps
    each content to the session it was saved in, to spot foreign messages in a read.
    ``long_runs`` and ``clears`` count the steps the preconditions ration.
    """

    def __init__(self) -> None:
        self.counter = 0
        self.owner: dict[str, str] = {}
        self.long_runs = 0
        self.clears = 0


class CurrentStep:
    """What the current step reached and changed, cleared when the next one starts.

    ``touched``: the sessions it called a method on; ``verified``: those whose whole state it has
    checked since (the invariant re-reads only what the step may have changed). ``fresh``: the
    messages (by content) it saved, and how ("stamped": the store chose the timestamp);
    ``rewritten``: those it rewrote. Together they say where a changed field comes from
    (:meth:`origin_of`): each step checks the state it changed, so the step that finds a field
    changed is the one that changed it.
    """

    def __init__(self) -> None:
        self.touched: set[str] = set()
        self.verified: set[str] = set()
        self.fresh: dict[str | None, Origin] = {}
        self.rewritten: set[str | None] = set()

    def begin(self) -> None:
        """A new step: nothing reached or changed yet."""
        self.touched.clear()
        self.verified.clear()
        self.fresh.clear()
        self.rewritten.clear()

    def touch(self, method: str, args: tuple[Any, ...]) -> None:
        """Note the sessions a call reaches: the invariant re-reads them after the step."""
        if method == "clear_all":
            self.touched.update(SESSIONS)
        elif args and args[0] in SESSIONS and not method.endswith("metadata"):
            self.touched.add(args[0])

    def origin_of(self, message: Message) -> Origin:
        """Where ``message`` (as the model holds it) got its fields in this step: its rewrite,
        its save, or neither (``None``)."""
        if message.content in self.rewritten:
            return "rewrite"
        return self.fresh.get(message.content)


class History:
    """The record a failure is reported from.

    ``rule_log``: the rule calls so far, with the arguments drawn (the minimizer replays them);
    ``script``: the store calls they made, rendered as the reproduction snippet (checking reads
    that passed leave it again). ``derailed``: a divergence a tolerated rule excused may have
    left the store unlike the model, so the history's later steps are not run (nothing on that
    state is judged).
    """

    def __init__(self) -> None:
        self.rule_log: list[LoggedCall] = []
        self.script: list[Step] = []
        self.derailed = False


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


class MetadataBook:
    """What the metadata checks remember between steps.

    ``seen_updated``: per (driver, namespace, key), the updated_at last listed (META-05);
    ``listed_unreadable``: the unreadable entries list_metadata_keys has already listed
    (META-10); ``handed``: every payload handed to the store (listed data that is none of them
    was mangled on the way, META-01; data that is one of them was written where it does not
    belong); ``alike``: the entries last put with values JSON writes like others (META-07).
    """

    def __init__(self) -> None:
        self.seen_updated: dict[tuple[str, str, str], SeenStamp] = {}
        self.listed_unreadable: set[tuple[str, str]] = set()
        self.handed: list[JsonObject] = []
        self.alike: set[tuple[str, str]] = set()

    def note_put(self, namespace: str, key: str, data: JsonObject) -> None:
        """A payload the store was handed for ``key`` (applied, if the model applied it)."""
        self.handed.append(data)
        if json_alike(data):
            self.alike.add((namespace, key))
        else:
            self.alike.discard((namespace, key))

    def note_gone(self, namespace: str, key: str) -> None:
        self.alike.discard((namespace, key))


__all__ = ["Clock", "CurrentStep", "History", "MetadataBook", "SeenStamp", "Tally"]
