"""Assertions that name the rule they check and show expected vs actual on one line."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final

import attrs

from aalis_memory.conformance.rules import Rule, rule
from aalis_memory.conformance.steps import Blocked, set_aside
from aalis_memory.types import Message, MetadataEntry, RecentMessageRecord

_MAX_TEXT = 400


class ConformanceFailure(AssertionError):
    """A driver broke ``rule``. The first line is what happened (expected vs actual); the next two
    say what the rule is and what it rests on, so the failure can be fixed without SPEC_MAP.md."""

    def __init__(
        self, rule: Rule, message: str, driver: str | None = None, cases: Sequence[str] = ()
    ) -> None:
        super().__init__(failure_text(rule, message))
        self.rule = rule
        #: What happened, without the rule's text: one line of a multi-case report.
        self.detail = message
        #: The driver that broke it, when one test drives several (differential mode).
        self.driver = driver
        #: For a check over many cases, each failing case (also listed in the message): the
        #: summary shows the first few under its line, the reports all of them.
        self.cases = tuple(cases)


def failure_text(rule: Rule, message: str) -> str:
    """``[ID LEVEL] first line``, then the rule and its ground, then the rest of ``message``."""
    first, _, rest = message.partition("\n")
    lines = [
        f"[{rule.id} {rule.level.value}] {first}",
        f"  rule {rule.id}: {rule.summary}",
        f"  {'cites' if rule.reading is None else 'why'}: {rule.ground()}",
    ]
    return "\n".join([*lines, rest] if rest else lines)


def describe(value: Any) -> str:
    """A compact, readable rendering of contract values for failure lines."""
    text = _describe(value)
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 3] + "..."


def _describe(value: Any) -> str:
    if isinstance(value, Message):
        kind = f"/{value.kind}" if value.kind else ""
        return f"{value.role}{kind}@{_describe(value.timestamp)}:{_describe(value.content)}"
    if isinstance(value, RecentMessageRecord):
        return f"{value.session_id}:{_describe(value.message)}"
    if isinstance(value, MetadataEntry):
        return f"{value.key}={_short_repr(value.data)}"
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    if isinstance(value, list | tuple) and not isinstance(value, str):
        inner = ", ".join(_describe(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    return _short_repr(value)


#: The containers :func:`_short_repr` walks, with their brackets.
_BRACKETS: Final[dict[type, tuple[str, str]]] = {dict: ("{", "}"), list: ("[", "]"), tuple: ("(", ")")}


def _short_repr(value: Any) -> str:
    """``repr(value)`` for plain JSON-like values, produced only as far as a failure line shows:
    a payload may be megabytes long or thousands of levels deep, and most calls are never shown."""
    out: list[str] = []
    size = 0

    def emit(text: str) -> bool:
        nonlocal size
        out.append(text)
        size += len(text)
        return size <= _MAX_TEXT

    def walk(item: Any, depth: int) -> bool:  # False: enough has been written
        kind = type(item)
        if kind is str and len(item) > _MAX_TEXT:
            return emit(f"{item[:_MAX_TEXT]!r}...")
        if kind not in _BRACKETS:
            return emit(repr(item))
        if depth > _MAX_TEXT // 4:
            return emit("...")
        opening, closing = _BRACKETS[kind]
        pairs = item.items() if kind is dict else ((None, element) for element in item)
        if not emit(opening):
            return False
        for index, (key, element) in enumerate(pairs):
            if index and not emit(", "):
                return False
            if kind is dict and not (walk(key, depth + 1) and emit(": ")):
                return False
            if not walk(element, depth + 1):
                return False
        return emit(",)" if kind is tuple and len(item) == 1 else closing)

    walk(value, 0)
    return "".join(out)


def fail(rule_id: str, message: str, cases: Sequence[str] = ()) -> ConformanceFailure:
    """The failure to raise for ``rule_id`` (``cases``: the failing cases ``message`` lists)."""
    return ConformanceFailure(rule(rule_id), message, cases=cases)


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
    for index, (want, found) in enumerate(_paired(saved, got)):
        if found != want:
            detail = field_difference(want, found) or f": got {describe(found)}"
            raise fail(rule_id, f"{call}: saved message {index} ({describe(want)}){detail}")


def _paired(saved: Sequence[Message], got: Sequence[Message]) -> list[tuple[Message, Message]]:
    """``saved`` each with the returned message that is most plainly the same one: an equal one,
    then the only one with its timestamp, then the only one with its content, then the rest in
    order."""
    left = list(got)
    pairs: dict[int, Message] = {}

    def take(index: int, found: Message) -> None:
        pairs[index] = found
        left.remove(found)

    for index, want in enumerate(saved):
        if want in left:
            take(index, want)
    keys: tuple[Callable[[Message], object], ...] = (lambda m: m.timestamp, lambda m: m.content)
    for key in keys:
        for index, want in enumerate(saved):
            if index in pairs:
                continue
            matches = [m for m in left if key(m) == key(want)]
            if len(matches) == 1:
                take(index, matches[0])
    for index in range(len(saved)):
        if index not in pairs:
            take(index, left[0])
    return [(saved[index], pairs[index]) for index in range(len(saved))]


def same_records(actual: Sequence[Any], expected: Sequence[Any]) -> bool:
    """Whether two lists hold the same records as many times each, whatever their order."""
    if len(actual) != len(expected):
        return False
    try:
        return Counter(actual) == Counter(expected)
    except TypeError:  # unhashable records (messages with metadata): match them one by one
        left = list(expected)
        for record in actual:
            if record not in left:
                return False
            left.remove(record)
        return True


def field_difference(expected: Any, actual: Any, where: str = "") -> str | None:
    """The first field that differs between two contract values (or equal-length lists of them),
    as ``item 0 .images: expected ('a.png',), got None``; ``None`` if there is no such field."""
    if isinstance(expected, list | tuple) and isinstance(actual, list | tuple):
        if len(expected) != len(actual):
            return None
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            found = field_difference(want, got, f"{where}item {index} ")
            if found is not None:
                return found
        return None
    if type(expected) is not type(actual) or not attrs.has(type(expected)):
        return None
    for field in attrs.fields(type(expected)):
        want, got = getattr(expected, field.name), getattr(actual, field.name)
        if want != got or type(want) is not type(got):
            nested = field_difference(want, got, f"{where}.{field.name}")
            return nested or f"{where}.{field.name}: expected {want!r}, got {got!r}"
    return None


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
        raise fail(rule_id, f"{call}: expected {names}, got {type(exc).__name__}: {exc}") from exc
    raise fail(rule_id, f"{call}: expected {names}, but it returned normally")


def expect_no_failures(rule_id: str, what: str, failures: list[str], total: int) -> None:
    """Fail ``rule_id`` listing every failing case (one per line after the summary)."""
    if failures:
        lines = "\n  ".join(failures)
        raise fail(rule_id, f"{len(failures)} of {total} {what}:\n  {lines}", cases=failures)


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
            self.failures.append(exc.detail.partition("\n")[0])


@contextmanager
def every_case(rule_id: str, what: str) -> Iterator[EveryCase]:
    """``with every_case(ID, "bad payloads were not refused") as cases: ... with cases.case():``"""
    cases = EveryCase(rule_id)
    yield cases
    expect_no_failures(rule_id, what, cases.failures, cases.total)


def contents(messages: Sequence[Message]) -> list[str | None]:
    """The contents of a message list: what most history checks compare."""
    return [m.content for m in messages]
