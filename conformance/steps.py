"""The call under test versus the setup and observation steps around it.

A test of ARCH-01 saves messages (setup), calls ``archive_span`` (the call under test) and reads
the history back (observation). Only the call under test may fail ARCH-01: when ``save_message``
or the read raises, the test has not judged ARCH-01 at all, and charging it there would blame a
rule that may well hold. Such a test is *blocked* by the rule the failed step stands on (a read
of the whole history with ``math.inf`` stands on LIM-02, a missing required method on REQ-01).

The split is made from the catalogue, not by hand in each test: a rule judges the methods it is
about (its ``subjects`` in the catalogue, gathered in :data:`SUBJECTS`); in a test, a call of
any other method is a step. Rules whose checks call every method as a subject (hostile input,
concurrency, crashes, the compression provider) have no steps, except the calls a test makes
inside :func:`as_steps` to set up or observe (a snapshot, the scaling probe's fill). The store
the suite sees (:class:`~aalis_memory.conformance.harness.adapters.GuardedStore`) asks
:func:`blocker_of` on every call.
"""

from __future__ import annotations

import contextvars
import math
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any, Final

import attrs
import pytest

from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.methods import METHODS
from aalis_memory.service import REQUIRED_METHODS

#: The rule a driver lacking a required method breaks; steps calling it are blocked by it.
REQUIRED_RULE: Final = "REQ-01"

_READS = frozenset({"get_history", "get_full_history"})

#: The methods each rule judges, from the catalogue (:attr:`Rule.subjects
#: <aalis_memory.conformance.rules.rule.Rule.subjects>`). A rule not listed judges every method
#: (no call is a step).
SUBJECTS: Final[Mapping[str, frozenset[str]]] = MappingProxyType(
    {rule_id: rule.subjects for rule_id, rule in CATALOGUE.items() if rule.subjects is not None}
)

#: The rule a step of each method stands on (the reads are refined by their limit, see
#: :func:`leaned_on`): the rule whose behaviour failed when the step fails.
_STANDS_ON: Final[Mapping[str, str]] = MappingProxyType({m.name: m.stands_on for m in METHODS})


def also_stood_on(method: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> tuple[str, ...]:
    """What a step stands on besides :func:`leaned_on`'s rule, when it returns without raising
    but leaves the wrong state: which records a read holds (archived messages let into the
    history, or left out of the full history), the keep list of an archive, and the stamp of a
    message saved at an odd timestamp."""
    if method == "get_history":
        return ("HIST-01",)
    if method == "get_full_history":
        return ("FULL-01",)
    if method == "archive_span" and (args[2] if len(args) > 2 else kwargs.get("keep")):
        return ("ARCH-02",)
    if method == "save_message" and _odd_timestamp(
        getattr(args[1] if len(args) > 1 else kwargs.get("message"), "timestamp", None)
    ):
        return ("TS-01",)  # a message at 0, below it or between milliseconds keeps its stamp
    return ()


def _odd_timestamp(timestamp: object) -> bool:
    """0, negative or fractional: the timestamps TS-01 says read back as they were saved."""
    if isinstance(timestamp, bool) or not isinstance(timestamp, int | float):
        return False
    return timestamp <= 0 or (isinstance(timestamp, float) and not timestamp.is_integer())


def leaned_on(method: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> str:
    """The rule a step calling ``method`` with these arguments stands on."""
    if method in _READS:
        limit = args[1] if len(args) > 1 else kwargs.get("limit")
        if isinstance(limit, float) and math.isinf(limit):
            return "LIM-02"
        if limit is None:
            return "LIM-05"
        return "HIST-05" if method == "get_history" else "FULL-02"
    return _STANDS_ON.get(method, REQUIRED_RULE)


def read_stands_on(method: str, *args: Any) -> tuple[str, ...]:
    """The rules a read of ``method`` with these arguments stands on, as a step of any test would
    (:func:`leaned_on` and :func:`also_stood_on`): for tests with no steps (concurrency, crashes)
    that judge a state through a read, and declare it with :func:`stands_on`."""
    return (leaned_on(method, args, {}), *also_stood_on(method, args, {}))


class Blocked(Exception):
    """A setup or observation step failed: the test cannot judge its rules.

    ``blocker`` is the rule the step stood on; the test's rules are reported ``blocked`` by it.
    """

    def __init__(self, blocker: str, step: str, cause: str) -> None:
        super().__init__(f"blocked by {blocker}: {step} {cause}")
        self.blocker = blocker
        self.step = step
        self.cause = cause


class MissingRequired(Blocked, AttributeError):
    """A step (or the call under test) needs a required method the driver lacks.

    Also an ``AttributeError``, so ``getattr(store, name, None)`` and ``hasattr`` keep seeing an
    absent method as absent.
    """


@attrs.define
class TestSteps:
    """What the running test judges, and the steps it has taken."""

    rules: frozenset[str]
    #: Methods whose calls are under test; ``None``: every call is (no steps).
    subjects: frozenset[str] | None
    #: Cases of a many-case check that were blocked while the others were judged, by rule (the
    #: first per rule): a passing test then passes its rule only in part.
    set_aside: dict[str, Blocked] = attrs.field(factory=dict)
    #: Parts of a rule this test could not look into, by rule, with the reason: a passing test
    #: then passes its rule only in part (a sync driver's atomicity, seen from outside).
    unverified: dict[str, str] = attrs.field(factory=dict)
    #: The rules the test's steps stood on, setup and reads: a failed check compared state they
    #: made or read, and is blocked if one of them fails for the driver (see
    #: :func:`aalis_memory.conformance.verdicts.model.resolve_leaning`).
    observed: set[str] = attrs.field(factory=set)
    #: While :func:`aside` runs: calls are steps for what they raise or hang, but nothing the
    #: check stands on.
    aside: bool = False
    #: While :func:`as_steps` runs: calls are steps even in a test that has every method
    #: under test (hostile input, the scaling probe), since they only set up or look at what
    #: the call under test left.
    stepping: bool = False
    #: Rules a witness read confirmed for this test (:func:`confirmed`): never leaned on again.
    confirmed: set[str] = attrs.field(factory=set)
    #: The rule a step of each method stands on in this test, where the test knows better than
    #: :func:`leaned_on` (see :func:`calls_stand_on`).
    via: dict[str, str] = attrs.field(factory=dict)

    def blocker_of(self, method: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> str | None:
        """The rule a call stands on when it is a step, ``None`` when it is under test."""
        if not self.aside and not self.stepping and (self.subjects is None or method in self.subjects):
            return None
        rule = self.via.get(method) or leaned_on(method, args, kwargs)
        if self.aside:
            return rule
        self.observed.update((rule, *also_stood_on(method, args, kwargs)))
        self.observed -= self.confirmed
        return rule

    def missing(self, method: str) -> MissingRequired | None:
        """The error for a call of an absent required method (REQ-01's own test gets none)."""
        if method not in REQUIRED_METHODS or REQUIRED_RULE in self.rules:
            return None
        return MissingRequired(
            REQUIRED_RULE, f"{method}()", "is not there: the driver lacks this required method"
        )


def set_aside(rule_id: str, blocked: Blocked) -> None:
    """One case of a many-case check of ``rule_id`` was blocked: the other cases go on, and the
    rule is reported blocked in that part (raised again outside a running test)."""
    running = current()
    if running is None:
        raise blocked
    running.set_aside.setdefault(rule_id, blocked)


def unverified_part(rule_id: str, reason: str) -> None:
    """The running test checks ``rule_id`` only from outside: its pass is partial, and says why."""
    running = current()
    if running is not None:
        running.unverified.setdefault(rule_id, reason)


def stands_on(*rule_ids: str) -> None:
    """The running test's check also stands on ``rule_ids`` through the values it compares (a
    keep list is ARCH-02's, a listing of keys META-10's): when the check fails and the driver
    breaks one of them, the test is blocked by it rather than failed."""
    running = current()
    if running is not None:
        running.observed.update(set(rule_ids) - running.confirmed)


def calls_stand_on(rules: Mapping[str, str]) -> None:
    """In the running test, a step calling one of these methods stands on the rule given for it:
    the test knows what the store holds (a list_metadata over unreadable entries raising is
    META-09's, a batch deleting them COMMIT-06's), where the method alone does not."""
    running = current()
    if running is not None:
        running.via.update(rules)


@contextmanager
def aside() -> Iterator[None]:
    """Calls made inside are not under test, nor anything the check stands on: a witness read
    whose answer only ever removes a lean (see :func:`confirmed`) or sets a case aside. Its error
    or hang is a step's (``Blocked`` by the method's rule), which the witness catches."""
    running = current()
    if running is None:
        yield
        return
    running.aside = True
    try:
        yield
    finally:
        running.aside = False


@contextmanager
def as_steps() -> Iterator[None]:
    """Calls made inside set up the store or observe what the call under test left (a snapshot,
    the scaling probe's fill): they are steps, standing on their rules, even in a test whose
    rules have every method under test. One cause, one verdict class (issue 35): a read that
    breaks the protocol blocks the test by the rule it stands on wherever it is made, never
    fails hostile-input rules in one test and blocks another; a save that raises under the
    scaling probe's load is a failure of the save's rule, never a PERF-01 timing finding."""
    running = current()
    if running is None:
        yield
        return
    was, running.stepping = running.stepping, True
    try:
        yield
    finally:
        running.stepping = was


def confirmed(rule_id: str) -> None:
    """A read that does not go through the test's subject showed that the step of ``rule_id``
    left the state it should: the check no longer stands on that rule. Two rules that can only be
    seen through each other (archive_span through get_history, get_history's archived messages
    through archive_span) are told apart this way, by a third read."""
    running = current()
    if running is not None:
        running.confirmed.add(rule_id)
        running.observed.discard(rule_id)


def subjects_of(rules: Iterable[str]) -> frozenset[str] | None:
    """The methods a test of ``rules`` has under test (``None``: all of them)."""
    found: set[str] = set()
    for rule_id in rules:
        methods = SUBJECTS.get(rule_id)
        if methods is None:
            return None
        found |= methods
    return frozenset(found)


#: Where the running test's steps live: its item's stash, from the store's opening to its
#: closing (the judging of its phases reads them there).
STEPS: Final = pytest.StashKey[TestSteps]()

#: The steps of the test running in this context, for the helpers a test and the guarded store
#: call without its item (:func:`stands_on`, :func:`set_aside`, ...): the same object as the
#: item's :data:`STEPS`, set only while :func:`judging` runs.
_RUNNING: Final[contextvars.ContextVar[TestSteps | None]] = contextvars.ContextVar(
    "aalis_memory_running_steps", default=None
)


def current() -> TestSteps | None:
    """The running test's steps (``None`` outside a test of the suite)."""
    return _RUNNING.get()


def of(item: pytest.Item) -> TestSteps | None:
    """The steps of ``item`` while its store is open (``None`` once the test is over)."""
    return item.stash.get(STEPS, None)


@contextmanager
def judging(item: pytest.Item, rules: Iterable[str]) -> Iterator[TestSteps]:
    """While a test of ``rules`` runs: its calls are classified as steps or under test."""
    chosen = frozenset(rules)
    steps = TestSteps(chosen, subjects_of(chosen) if chosen else None)
    item.stash[STEPS] = steps
    token = _RUNNING.set(steps)
    try:
        yield steps
    finally:
        _RUNNING.reset(token)
        del item.stash[STEPS]


__all__ = [
    "REQUIRED_RULE",
    "STEPS",
    "SUBJECTS",
    "Blocked",
    "MissingRequired",
    "TestSteps",
    "as_steps",
    "aside",
    "calls_stand_on",
    "confirmed",
    "current",
    "judging",
    "leaned_on",
    "of",
    "read_stands_on",
    "set_aside",
    "stands_on",
    "subjects_of",
    "unverified_part",
]
