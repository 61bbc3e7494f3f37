"""A test's checks, bound to the rule its marker names.

A suite test names its rule once, in ``@pytest.mark.aalis_spec("LIM-05")``; the plugin hands it
a :class:`Check` bound to that rule (the ``aalis_check`` fixture), and every check the test makes
goes through it: ``aalis_check.equal("get_history(s)", got, expected)``. A check cannot fail
another rule by a slip of the pen, since it names no rule at all. A test names another rule only
for what it stands on (``stands_on``, ``calls_stand_on``, a step's blocker), never in a check.

A test whose marker names several rules takes ``aalis_checks`` instead: one :class:`Check` per
rule, in the marker's order, which it unpacks (``positions, counts = aalis_checks`` for
``aalis_spec("ARCH-08", "ARCH-07")``).

The comparisons themselves live in :mod:`aalis_memory.conformance.checks` and
:mod:`aalis_memory.conformance.steps`; this module only binds them to a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import attrs

from aalis_memory.conformance import checks, steps
from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.types import Message


def _known(_: object, __: attrs.Attribute[str], rule_id: str) -> None:
    """A checker of an ID the catalogue lacks would raise only once one of its checks failed:
    it is refused when it is made, at the test's setup."""
    if rule_id not in CATALOGUE:
        raise ValueError(f"unknown rule ID {rule_id!r}: add it to aalis_memory.conformance.rules")


@attrs.frozen
class Check:
    """The checks of one rule: each fails ``rule_id`` when what it compares does not hold."""

    rule_id: str = attrs.field(validator=_known)

    def equal(self, call: str, actual: Any, expected: Any) -> None:
        """``call`` must have produced ``expected`` (lists in any order, unless the rule is
        about order: see :func:`~aalis_memory.conformance.checks.expect_equal`)."""
        checks.expect_equal(self.rule_id, call, actual, expected)

    def fields(self, call: str, got: Sequence[Message], saved: Sequence[Message], *, read_rule: str) -> None:
        """Each message ``call`` returned has the fields it was saved with; a read that returned
        another number of messages is blocked by ``read_rule``, the rule of which messages it
        holds (see :func:`~aalis_memory.conformance.checks.expect_fields`)."""
        checks.expect_fields(self.rule_id, call, got, saved, read_rule=read_rule)

    def that(self, condition: bool, message: str) -> None:
        """A free-form check; ``message`` says what was expected and what happened."""
        checks.expect(self.rule_id, condition, message)

    def raises(self, call: str, *errors: type[BaseException]) -> AbstractContextManager[None]:
        """``with aalis_check.raises(call, ValueError): ...``: the block must raise one of
        ``errors``, a typed error, never silence."""
        return checks.expect_raises(self.rule_id, call, *errors)

    def fail(self, message: str, cases: Sequence[str] = ()) -> checks.ConformanceFailure:
        """The failure to raise (``cases``: the failing cases ``message`` lists)."""
        return checks.fail(self.rule_id, message, cases)

    def no_failures(self, what: str, failures: list[str], total: int) -> None:
        """Fails listing every failing case, when there is one (``total``: the cases judged)."""
        checks.expect_no_failures(self.rule_id, what, failures, total)

    def every_case(self, what: str) -> AbstractContextManager[checks.EveryCase]:
        """``with aalis_check.every_case("bad payloads were not refused") as cases: ... with
        cases.case():``: each case runs even after another failed, and the failure lists them all."""
        return checks.every_case(self.rule_id, what)

    def block_case(self, blocked: steps.Blocked) -> None:
        """One case of a many-case check was blocked: the other cases go on, and the rule passes
        only in part (see :func:`~aalis_memory.conformance.steps.set_aside`)."""
        steps.set_aside(self.rule_id, blocked)

    def unverified_part(self, reason: str) -> None:
        """The test sees this rule only from outside: its pass is partial, and says why."""
        steps.unverified_part(self.rule_id, reason)


def checks_of(rule_ids: Sequence[str]) -> tuple[Check, ...]:
    """One :class:`Check` per rule, in the order given (a marker's)."""
    return tuple(Check(rule_id) for rule_id in rule_ids)


def only_check(rule_ids: Sequence[str], test: str) -> Check:
    """The one :class:`Check` of a test whose marker names one rule."""
    if len(rule_ids) != 1:
        raise TypeError(
            f"{test} names {list(rule_ids) or 'no rule'} in its aalis_spec marker: the "
            "aalis_check fixture is for a test of one rule (a test of several takes aalis_checks)"
        )
    return Check(rule_ids[0])
