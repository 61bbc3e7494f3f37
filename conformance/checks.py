"""Assertions that name the rule they check and show expected vs actual on one line.

A failed check raises :class:`ConformanceFailure` with its rule, what happened and its failing
cases as fields; the judging makes them the rule's record
(:class:`~aalis_memory.conformance.verdicts.model.Outcome`). How values read is
:mod:`.values`'s, where two values differ :mod:`.differences`'s, which returned message is which
saved one :mod:`.pairing`'s.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from aalis_memory.conformance.differences import field_difference, same_records
from aalis_memory.conformance.failure_text import failure_text
from aalis_memory.conformance.pairing import paired
from aalis_memory.conformance.rules import Rule, rule
from aalis_memory.conformance.steps import Blocked, set_aside
from aalis_memory.conformance.values import describe as describe
from aalis_memory.types import Message


class ConformanceFailure(AssertionError):
    """A driver broke ``rule``. The first line is what happened (expected vs actual); the next two
    say what the rule is and what it rests on, so the failure can be fixed without SPEC_MAP.md."""

    def __init__(
        self,
        rule: Rule,
        message: str,
        driver: str | None = None,
        cases: Sequence[str] = (),
        *,
        headline: str | None = None,
    ) -> None:
        super().__init__(failure_text(rule, message))
        self.rule = rule
        #: What happened, without the rule's text.
        self.detail = message
        #: Its first line, as a many-case check lists it among its cases (the whole detail
        #: unless the check that failed said otherwise).
        self.headline = message if headline is None else headline
        #: The driver that broke it, when one test drives several (differential mode).
        self.driver = driver
        #: For a check over many cases, each failing case (also listed in the message): the
        #: summary shows the first few under its line, the reports all of them.
        self.cases = tuple(cases)


def fail(
    rule_id: str, message: str, cases: Sequence[str] = (), *, headline: str | None = None
) -> ConformanceFailure:
    """The failure to raise for ``rule_id`` (``cases``: the failing cases ``message`` lists;
    ``headline``: its first line, when it has several)."""
    return ConformanceFailure(rule(rule_id), message, cases=cases, headline=headline)


def expect_equal(rule_id: str, call: str, actual: Any, expected: Any) -> None:
    """``call`` must have produced ``expected``.

    Two lists are compared as lists only for a rule about order (``Rule.judges_order``): for any
    other rule the records a read returned are what it judges, and a history in the wrong order
    is the order rule's failure, not that rule's too.
    """
    if actual == expected:
        return
    unordered = not rule(rule_id).judges_order and isinstance(actual, list) and isinstance(expected, list)
    if unordered and same_records(actual, expected):
        return
    want, got = describe(expected), describe(actual)
    if want == got:  # the difference is in fields the short form leaves out: name them
        detail = field_difference(expected, actual)
        if detail is not None:
            raise fail(rule_id, f"{call}: {detail}")
    any_order = " in any order" if unordered and len(expected) > 1 else ""
    raise fail(rule_id, f"{call}: expected {want}{any_order}, got {got}")


def expect_fields(
    rule_id: str, call: str, got: Sequence[Message], saved: Sequence[Message], *, read_rule: str
) -> None:
    """Each message ``call`` returned has the fields it was saved with.

    A field rule judges fields, not which messages came back nor their order: a read that
    returns another number of messages is blocked by ``read_rule`` (the read's membership rule),
    and the messages are paired with the saved ones by identity (equal, then the same timestamp,
    then the same content, then the remaining in order) before their fields are compared.
    """
    if list(got) == list(saved) or same_records(list(got), list(saved)):
        return
    if len(got) != len(saved):
        raise Blocked(
            read_rule,
            call,
            f"returned {len(got)} messages where {len(saved)} were "
            f"saved: which messages a read holds is {read_rule}'s",
        )
    for index, (want, found) in enumerate(paired(saved, got)):
        if found != want:
            detail = field_difference(want, found) or f": got {describe(found)}"
            raise fail(rule_id, f"{call}: saved message {index} ({describe(want)}){detail}")


def expect(rule_id: str, condition: bool, message: str) -> None:
    """A free-form check; ``message`` says what was expected and what happened."""
    if not condition:
        raise fail(rule_id, message)


@contextmanager
def expect_raises(rule_id: str, call: str, *errors: type[BaseException]) -> Iterator[None]:
    """The block must raise one of ``errors`` (a typed error, never silence)."""
    names = " or ".join(e.__name__ for e in errors)
    try:
        yield
    except Blocked:  # a step failed, or the method is missing: not this check's answer
        raise
    except errors:
        return
    except Exception as exc:
        got = f"{call}: expected {names}, got {type(exc).__name__}"
        # a driver's error text may run over several lines: a list of cases shows its first
        raise fail(rule_id, f"{got}: {exc}", headline=f"{got}: {str(exc).split(chr(10), 1)[0]}") from exc
    raise fail(rule_id, f"{call}: expected {names}, but it returned normally")


def expect_no_failures(rule_id: str, what: str, failures: list[str], total: int) -> None:
    """Fail ``rule_id`` listing every failing case (one per line after the summary)."""
    if failures:
        lines = "\n  ".join(failures)
        headline = f"{len(failures)} of {total} {what}:"
        raise fail(rule_id, f"{headline}\n  {lines}", cases=failures, headline=headline)


class EveryCase:
    """Checks of one rule over many cases, each one run even after another failed: the
    failure lists every bad case, so a driver author sees all of them in one run."""

    def __init__(self, rule_id: str) -> None:
        self.rule_id = rule_id
        self.total = 0
        self.failures: list[str] = []

    @contextmanager
    def case(self) -> Iterator[None]:
        """One case: a failure of this rule is recorded and the next case runs."""
        self.total += 1
        try:
            yield
        except Blocked as exc:  # this case cannot be judged; the others still are
            self.total -= 1
            set_aside(self.rule_id, exc)
        except ConformanceFailure as exc:
            if exc.rule.id != self.rule_id:
                raise
            self.failures.append(exc.headline)


@contextmanager
def every_case(rule_id: str, what: str) -> Iterator[EveryCase]:
    """``with every_case(ID, "bad payloads were not refused") as cases: ... with cases.case():``"""
    cases = EveryCase(rule_id)
    yield cases
    expect_no_failures(rule_id, what, cases.failures, cases.total)


def contents(messages: Sequence[Message]) -> list[str | None]:
    """The contents of a message list: what most history checks compare."""
    return [m.content for m in messages]
