"""The call under test versus the setup and observation steps around it.

A test of ARCH-01 saves messages (setup), calls ``archive_span`` (the call under test) and reads
the history back (observation). Only the call under test may fail ARCH-01: when ``save_message``
or the read raises, the test has not judged ARCH-01 at all, and charging it there would blame a
rule that may well hold. Such a test is *blocked* by the rule the failed step stands on (a read
of the whole history with ``math.inf`` stands on LIM-02, a missing required method on REQ-01).

The split is made from the catalogue, not by hand in each test: a rule judges the methods it is
about (:data:`SUBJECTS`); in a test, a call of any other method is a step. Rules whose checks
call every method as a subject (hostile input, concurrency, crashes, the compression provider)
have no steps. The store the suite sees (:class:`~aalis_memory.conformance.adapters.GuardedStore`)
asks :func:`blocker_of` on every call.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any, Final

import attrs

from aalis_memory.service import REQUIRED_METHODS

#: The rule a driver lacking a required method breaks; steps calling it are blocked by it.
REQUIRED_RULE: Final = "REQ-01"

_READS = frozenset({"get_history", "get_full_history"})
_LIMITED = _READS | {"update_message_content", "get_recent_messages_across_sessions"}
_COUNTED = _READS | {"count_history", "archive_span", "get_messages_by_session_range",
                     "get_recent_messages_across_sessions"}


def _same(methods: Iterable[str], *rule_ids: str) -> dict[str, frozenset[str]]:
    return dict.fromkeys(rule_ids, frozenset(methods))


#: The methods each rule judges. A rule not listed judges every method (no call is a step).
SUBJECTS: Final[Mapping[str, frozenset[str]]] = MappingProxyType({
    "LIM-01": _READS | {"get_recent_messages_across_sessions"},
    **_same(_READS, "LIM-02"),
    **_same({"update_message_content"}, "LIM-03", "UPD-01", "UPD-02", "UPD-03", "UPD-04"),
    **_same({"get_recent_messages_across_sessions"}, "LIM-04", "CROSS-01", "CROSS-02", "CROSS-03",
            "CROSS-04", "CROSS-05"),
    **_same(_READS | {"update_message_content"}, "LIM-05", "LIM-07"),
    "LIM-06": _LIMITED,
    **_same({"save_message"} | _READS, "MSG-01", "MSG-02", "MSG-03", "MSG-05"),
    "MSG-04": _COUNTED,
    "MSG-06": frozenset({"clear_session", "delete_messages_by_timestamps", "save_message",
                         "archive_span", "update_message_content"}),
    **_same({"get_history"}, "HIST-01", "HIST-02", "HIST-03", "HIST-04", "HIST-05"),
    "COUNT-01": frozenset({"count_history"}),
    **_same({"get_full_history"}, "FULL-01", "FULL-02"),
    **_same({"archive_span"}, "ARCH-01", "ARCH-02", "ARCH-03", "ARCH-04", "ARCH-05", "ARCH-06",
            "ARCH-07", "ARCH-08", "ARCH-10", "ARCH-11"),
    "ARCH-09": frozenset({"archive_span", "get_full_history"}),
    **_same({"clear_session"}, "CLEAR-01", "CLEAR-02"),
    **_same({"clear_all"}, "CLEAR-03", "CLEAR-04"),
    **_same({"get_messages_by_session_range"}, "RANGE-01", "RANGE-02", "RANGE-03", "RANGE-04"),
    **_same({"delete_messages_by_timestamps"}, "DEL-01", "DEL-02"),
    **_same({"save_metadata", "get_metadata"}, "META-01", "META-06", "META-07"),
    **_same({"list_metadata"}, "META-02", "META-04", "META-09"),
    **_same({"delete_metadata"}, "META-03", "META-11"),
    "META-05": frozenset({"save_metadata", "commit_metadata", "list_metadata"}),
    "META-08": frozenset({"save_metadata", "commit_metadata"}),
    "META-10": frozenset({"list_metadata_keys"}),
    **_same({"commit_metadata"}, "COMMIT-01", "COMMIT-02", "COMMIT-03", "COMMIT-04", "COMMIT-05",
            "COMMIT-06", "COMMIT-07"),
})

#: The rule a step of each method stands on (the reads are refined by their limit, see
#: :func:`leaned_on`): the rule whose behaviour failed when the step fails.
_STANDS_ON: Final[Mapping[str, str]] = MappingProxyType({
    "save_message": "MSG-01",
    "count_history": "COUNT-01",
    "archive_span": "ARCH-01",
    "clear_session": "CLEAR-01",
    "clear_all": "CLEAR-03",
    "get_messages_by_session_range": "RANGE-02",
    "get_recent_messages_across_sessions": "CROSS-02",
    "update_message_content": "UPD-02",
    "delete_messages_by_timestamps": "DEL-01",
    "save_metadata": "META-01",
    "get_metadata": "META-01",
    "list_metadata": "META-02",
    "delete_metadata": "META-03",
    "list_metadata_keys": "META-10",
    "commit_metadata": "COMMIT-01",
})


#: The reads: a step calling one observes the store, and a check compares what it returned.
OBSERVATIONS: Final = frozenset({
    "get_history", "get_full_history", "count_history", "get_messages_by_session_range",
    "get_recent_messages_across_sessions", "get_metadata", "list_metadata", "list_metadata_keys",
})


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
    #: The rules the test's observation steps (reads) stood on: a failed check read the store
    #: through them, and is blocked if one of them fails for the driver (see
    #: :func:`aalis_memory.conformance.verdicts.resolve_leaning`).
    observed: set[str] = attrs.field(factory=set)

    def blocker_of(self, method: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]
                   ) -> str | None:
        """The rule a call stands on when it is a step, ``None`` when it is under test."""
        if self.subjects is None or method in self.subjects:
            return None
        rule = leaned_on(method, args, kwargs)
        if method in OBSERVATIONS:
            self.observed.add(rule)
        return rule

    def missing(self, method: str) -> MissingRequired | None:
        """The error for a call of an absent required method (REQ-01's own test gets none)."""
        if method not in REQUIRED_METHODS or REQUIRED_RULE in self.rules:
            return None
        return MissingRequired(REQUIRED_RULE, f"{method}()",
                               "is not there: the driver lacks this required method")


def set_aside(rule_id: str, blocked: Blocked) -> None:
    """One case of a many-case check of ``rule_id`` was blocked: the other cases go on, and the
    rule is reported blocked in that part (raised again outside a running test)."""
    if _current is None:
        raise blocked
    _current.set_aside.setdefault(rule_id, blocked)


def unverified_part(rule_id: str, reason: str) -> None:
    """The running test checks ``rule_id`` only from outside: its pass is partial, and says why."""
    if _current is not None:
        _current.unverified.setdefault(rule_id, reason)


def subjects_of(rules: Iterable[str]) -> frozenset[str] | None:
    """The methods a test of ``rules`` has under test (``None``: all of them)."""
    found: set[str] = set()
    for rule_id in rules:
        methods = SUBJECTS.get(rule_id)
        if methods is None:
            return None
        found |= methods
    return frozenset(found)


#: The test running in this process (tests run one at a time per process, xdist included).
_current: TestSteps | None = None


def current() -> TestSteps | None:
    return _current


@contextmanager
def judging(rules: Iterable[str]) -> Iterator[TestSteps]:
    """While a test of ``rules`` runs: its calls are classified as steps or under test."""
    global _current
    chosen = frozenset(rules)
    steps = TestSteps(chosen, subjects_of(chosen) if chosen else None)
    previous, _current = _current, steps
    try:
        yield steps
    finally:
        _current = previous


__all__ = [
    "REQUIRED_RULE",
    "SUBJECTS",
    "Blocked",
    "MissingRequired",
    "TestSteps",
    "current",
    "judging",
    "leaned_on",
    "set_aside",
    "subjects_of",
    "unverified_part",
]
