"""Verdicts: what the kit may say about one rule of one driver, and how outcomes combine.

A rule is ``pass`` only when a test really executed a check of it and the check held. Every
other state says why it is not a pass: the driver failed it (``fail``, or ``advisory`` for a
SHOULD rule outside strict mode), a part of it held while another part could not be checked or
was blocked (``partial pass``), a setup or observation step its tests leaned on failed, so they
could not judge it (``blocked``, naming the rule whose behaviour failed), the optional method is
absent (``not implemented``), the driver's declared tier does not promise it (``excluded by
tier``), the kit could not check it here (``unverified``), or no test of it ran (``not run``).
The one record a check's result is (:class:`Outcome`) and how a rule's records add up
(:class:`RuleVerdict`). Pure functions: the pytest glue is in
:mod:`aalis_memory.conformance.verdicts.reporter`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

import attrs

# The states and the skips that give them are the catalogue's (a registration names them too).
from aalis_memory.conformance.failure_text import failure_text
from aalis_memory.conformance.rules import CATALOGUE, Level
from aalis_memory.conformance.rules.verdict import SKIP_CATEGORIES as SKIP_CATEGORIES
from aalis_memory.conformance.rules.verdict import Verdict as Verdict
from aalis_memory.conformance.rules.verdict import VerdictSkip as VerdictSkip
from aalis_memory.conformance.rules.verdict import skip as skip

#: How the message of a check settled as blocked by :func:`resolve_leaning` goes on (after
#: ``blocked by RULE: ``).
LEANED_ON: Final = "the check read the store through "


def stopped_at_text(rule: str, blocked_by: str = "") -> str:
    """Why a rule of a test that stopped at another rule's failure was not checked; when that
    failure was later found to read the store through a rule the driver breaks, the check it
    stopped at is named as blocked by that rule (issue 35: a partial pass named ARCH-06 as where
    its test stopped, though ARCH-06's check there was blocked by ARCH-02)."""
    if blocked_by:
        return f"the test stopped first at a check of {rule}, which was blocked by {blocked_by}"
    return f"the test stopped at {rule} first"


@attrs.frozen(kw_only=True)
class Outcome:
    """What one test said about one rule of one driver: the one record a check's result is,
    from the judging to every report. Its text is rendered from its fields by the outputs
    (:attr:`message`, :attr:`said`); nothing reads a field back out of that text."""

    verdict: Verdict
    #: The rule it is about (the key of its :class:`RuleVerdict` once added up).
    rule: str
    test: str
    #: Whose rule it is: the test's driver, or the one a differential failure belongs to.
    driver: str = ""
    #: What happened, in the check's own words: no rule ID, level or verdict in front.
    detail: str = ""
    #: The detail is a failed check's or a driver error's: shown with the rule's ID, level,
    #: text and ground (:func:`~aalis_memory.conformance.failure_text.failure_text`).
    framed: bool = False
    #: Where the test checked it (``file:line``), for failures.
    where: str = ""
    #: Seconds the test phase took.
    duration: float = 0.0
    #: For a driver exception: its type, text and method, shared by every rule it broke; for a
    #: failed step: the step and what it did.
    cause: str = ""
    #: Whether the test ran at all (a deselected test did not): what ran explains better.
    ran: bool = True
    #: For a blocked outcome: the rule whose behaviour failed (a step's, or a read's).
    blocker: str = ""
    #: A many-case check blocked in some of its cases only (the others were judged).
    partly: bool = False
    #: For a failed check: the rules its observation steps stood on (see :func:`resolve_leaning`).
    leaned: tuple[str, ...] = ()
    #: Blocked once the run ended: the check failed, but read the store through ``blocker``,
    #: which the driver breaks (:func:`resolve_leaning`); the other fields say what it found.
    read_through: bool = False
    #: For a check over many cases: each failing case, as the check listed it.
    cases: tuple[str, ...] = ()
    #: The rule whose failure stopped the test before this rule was checked.
    stopped_at: str = ""
    #: When that failure was blocked once the run ended (:func:`resolve_leaning`): its blocker.
    stopped_blocked_by: str = ""
    #: The reason a driver lists this rule in its ``known_failures``.
    known: str = ""
    #: How to reproduce the failure (over the stdio protocol), found after the judging.
    note: str = ""
    #: Set when the kit had stopped using the driver and so did not run the test: the cause.
    stopped: str = ""
    #: Set when the test got a store the driver's ``fresh=`` hook left state in (a usage error
    #: of the hook, see :mod:`aalis_memory.conformance.harness.fresh`): the error. Not judged.
    usage_error: str = ""

    @property
    def message(self) -> str:
        """The outcome as the reports show it: the rule framing a failure, and every prefix its
        fields call for."""
        return self._text(framed=self.framed)

    @property
    def said(self) -> str:
        """The outcome as the terminal shows it, on a line that already names the rule and its
        verdict: no rule framing, no ``blocked by RULE:`` in front."""
        return self._text(framed=False, blocked_by=False)

    def _text(self, *, framed: bool, blocked_by: bool = True) -> str:
        if self.usage_error:
            return f"not judged: {self.usage_error}"
        if self.stopped_at:
            return f"not checked: {stopped_at_text(self.stopped_at, self.stopped_blocked_by)}"
        if self.blocker and not self.read_through:
            # a part set aside is no verdict line of its own: it always says what it is
            by = f"blocked by {self.blocker}: " if blocked_by or self.partly else ""
            return f"{'partly ' if self.partly else ''}{by}{self.cause}"
        known_rule = CATALOGUE.get(self.rule)
        text = failure_text(known_rule, self.detail) if framed and known_rule is not None else self.detail
        if self.known:
            text = f"known failure ({self.known}): {text}"
        if self.note:
            text = f"{text}\n{self.note}"
        if self.read_through:  # the terminal's line names the blocker already
            through = self.blocker if blocked_by else "it"
            found = f"{LEANED_ON}{through}, which this driver breaks; it found: {text}"
            return f"blocked by {self.blocker}: {found}" if blocked_by else found
        return text

    def as_dict(self) -> dict[str, Any]:
        """Plain data, for a process boundary (an xdist worker's report, a JUnit property)."""
        return attrs.asdict(self, value_serializer=lambda _inst, _field, value: _plain(value))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            **{
                **data,
                "verdict": Verdict(data["verdict"]),
                "leaned": tuple(data["leaned"]),
                "cases": tuple(data["cases"]),
            }
        )


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Verdict) else value


class Outcomes(tuple[Outcome, ...]):
    """What one phase of one test said, the records as they are; JSON in ``str()`` (the JUnit
    file's ``aalis_outcomes`` property, which a CI tool can read back)."""

    __slots__ = ()

    def __str__(self) -> str:
        return json.dumps([o.as_dict() for o in self])

    @property
    def worst(self) -> Verdict | None:
        return min((o.verdict for o in self), key=lambda v: v.rank, default=None)

    def noted(self, note: str) -> Outcomes:
        """The same records with ``note`` (how to reproduce it, found after the judging) on each
        failure."""
        return Outcomes(attrs.evolve(o, note=note) if o.verdict in FAILED else o for o in self)


@attrs.define
class RuleVerdict:
    """The verdict of one rule for one driver, from every outcome its tests gave."""

    outcomes: list[Outcome] = attrs.field(factory=list)

    def add(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)

    @property
    def verdict(self) -> Verdict:
        if not self.outcomes:
            return Verdict.NOT_RUN
        worst = min((o.verdict for o in self.outcomes), key=lambda v: v.rank)
        if worst is Verdict.PASS and any(o.verdict in _GAPS for o in self.outcomes):
            return Verdict.PARTIAL
        return worst

    @property
    def blockers(self) -> list[str]:
        """The rules whose failing behaviour kept this rule's tests from judging it."""
        return list(dict.fromkeys(o.blocker for o in self.outcomes if o.blocker))

    @property
    def deciding(self) -> Outcome | None:
        """The first outcome with the rule's verdict, from a test that ran if any did: the
        message a user reads first."""
        verdict = self.verdict
        if verdict is Verdict.PARTIAL:  # what was left unchecked is the news
            verdict = min((o.verdict for o in self.outcomes if o.verdict in _GAPS), key=lambda v: v.rank)
        same = [o for o in self.outcomes if o.verdict is verdict]
        return next((o for o in same if o.ran), same[0] if same else None)

    @property
    def message(self) -> str:
        deciding = self.deciding
        return deciding.message if deciding is not None else "no test of this rule ran"

    @property
    def caveats(self) -> list[Verdict]:
        """For a (partial) pass: the parts of the rule that did not pass. Blocked and unverified
        parts make the pass partial; parts outside the declared tier or an absent optional method
        are no gap in what the driver promises, so a pass with only those stays a pass."""
        if self.verdict not in (Verdict.PASS, Verdict.PARTIAL):
            return []
        seen = {o.verdict for o in self.outcomes if o.verdict.rank > Verdict.PASS.rank}
        return [
            v
            for v in (Verdict.BLOCKED, Verdict.UNVERIFIED, Verdict.EXCLUDED, Verdict.NOT_IMPLEMENTED)
            if v in seen
        ]


#: Outcomes that leave a part of a passing rule unchecked: the rule is then a partial pass.
_GAPS: Final = frozenset({Verdict.UNVERIFIED, Verdict.BLOCKED})


#: Outcomes of a check the driver failed (a failure, or a SHOULD rule's advisory): what a
#: known-failure entry, a reproduction note and the rerun hint apply to.
FAILED: Final = frozenset({Verdict.FAIL, Verdict.ADVISORY})
#: Outcomes that say a rule was found broken.
_BROKEN: Final = FAILED | {Verdict.KNOWN_FAILURE}


def resolve_leaning(per_rule: Mapping[str, RuleVerdict]) -> list[tuple[Outcome, Outcome]]:
    """Failed checks that read the store through a rule the driver breaks become ``blocked`` by
    that rule: what they compared may be that rule's fault, not theirs. Returns the (old, new)
    records changed.

    A failure with no such lean is the driver's; one that leans only on rules whose own failures
    are themselves in question waits until those are settled, and a lean that goes round in a
    circle settles as a failure (never hidden): two rules seen only through each other both fail,
    and a check that leans on either of them is blocked by it.
    """
    settled: set[int] = set()  # ids of leaning failures judged the driver's own

    def outcomes_of(rule: str) -> list[Outcome]:
        found = per_rule.get(rule)
        return found.outcomes if found is not None else []

    def genuine(rule: str) -> bool:
        return any(o.verdict in _BROKEN and (not o.leaned or id(o) in settled) for o in outcomes_of(rule))

    def in_question(rule: str) -> bool:
        return any(o.verdict in _BROKEN for o in outcomes_of(rule))

    pending = [
        (rule, o)
        for rule, result in per_rule.items()
        for o in result.outcomes
        if o.verdict in _BROKEN and o.leaned
    ]
    changed: list[tuple[Outcome, Outcome]] = []
    progress = True
    while pending:
        if not progress:  # what is left leans in circles, or on them: the circles settle first
            leans_of: dict[str, set[str]] = {}
            for rule, outcome in pending:
                leans_of.setdefault(rule, set()).update(
                    r for r in outcome.leaned if r != rule and in_question(r)
                )
            circling = _in_circles(leans_of)
            stuck = [(rule, o) for rule, o in pending if rule in circling]
            if not stuck:
                break
            for item in stuck:
                settled.add(id(item[1]))
                pending.remove(item)
        progress = False
        for rule, outcome in list(pending):
            leans = [r for r in outcome.leaned if r != rule]
            blocker = next((r for r in leans if genuine(r)), None)
            if blocker is not None:
                blocked = attrs.evolve(
                    outcome, verdict=Verdict.BLOCKED, blocker=blocker, leaned=(), read_through=True
                )
                result = per_rule[rule]
                result.outcomes[result.outcomes.index(outcome)] = blocked
                changed.append((outcome, blocked))
                changed.extend(_stopped_at_blocked(per_rule, outcome, blocker))
            elif not any(in_question(r) for r in leans):
                settled.add(id(outcome))
            else:
                continue
            pending.remove((rule, outcome))
            progress = True
    return changed


def failed_verdict(rule_id: str, strict: bool) -> Verdict:
    """A failed check of ``rule_id``: an advisory for a SHOULD rule outside strict mode."""
    rule = CATALOGUE.get(rule_id)
    should = rule is not None and rule.level is Level.SHOULD
    return Verdict.ADVISORY if should and not strict else Verdict.FAIL


def charge_blockers(per_rule: dict[str, RuleVerdict], strict: bool) -> list[Outcome]:
    """A blocker is always a rule that failed. A step that raised blocks its test by the rule
    it stands on; when nothing else of the run failed that rule (its own tests never made the
    call the step made), the step's failure is that rule's: it is added to the rule as a failed
    check of the blocked test, once per test. Returns the records added.

    Issue 35: a read that answered ``null`` where a list was due blocked CLEAR-01 "by HIST-05
    (pass)", naming as the blocker a rule the report said held."""
    steps = sorted(
        (o for result in per_rule.values() for o in result.outcomes if _stepped(o)),
        key=lambda o: (o.blocker, o.test),
    )

    def held(rule: str) -> bool:
        found = per_rule.get(rule)
        return found is None or found.verdict not in (*_BROKEN, Verdict.BLOCKED)

    unbroken = {o.blocker for o in steps if held(o.blocker)}  # before any is charged: the
    # same records whatever order the tests ran in
    added: list[Outcome] = []
    charged: set[tuple[str, str]] = set()
    for outcome in steps:
        if outcome.blocker not in unbroken or (outcome.blocker, outcome.test) in charged:
            continue
        charged.add((outcome.blocker, outcome.test))
        failure = Outcome(
            verdict=failed_verdict(outcome.blocker, strict),
            rule=outcome.blocker,
            test=outcome.test,
            driver=outcome.driver,
            detail=f"a step of this test that stands on it failed: {outcome.cause}",
            framed=True,
            where=outcome.where,
            cause=outcome.cause,
        )
        per_rule.setdefault(outcome.blocker, RuleVerdict()).add(failure)
        added.append(failure)
    return added


def _stepped(outcome: Outcome) -> bool:
    """A test (or a part of one) blocked by a step's own failure, not by a read's lean."""
    return outcome.verdict is Verdict.BLOCKED and bool(outcome.blocker) and not outcome.read_through


def _stopped_at_blocked(
    per_rule: Mapping[str, RuleVerdict], failure: Outcome, blocker: str
) -> list[tuple[Outcome, Outcome]]:
    """The other rules of ``failure``'s test, not checked because it stopped there: they now
    say that the check it stopped at was blocked by ``blocker``."""
    changed = []
    for result in per_rule.values():
        for index, other in enumerate(result.outcomes):
            if (
                other.test == failure.test
                and other.driver == failure.driver
                and other.stopped_at == failure.rule
            ):
                result.outcomes[index] = attrs.evolve(other, stopped_blocked_by=blocker)
                changed.append((other, result.outcomes[index]))
    return changed


def _in_circles(leans_of: Mapping[str, set[str]]) -> set[str]:
    """The rules from which a chain of leans leads back to themselves."""

    def reaches(start: str) -> set[str]:
        seen: set[str] = set()
        todo = list(leans_of.get(start, ()))
        while todo:
            rule = todo.pop()
            if rule not in seen:
                seen.add(rule)
                todo.extend(leans_of.get(rule, ()))
        return seen

    return {rule for rule in leans_of if rule in reaches(rule)}


def first_line(text: str) -> str:
    return text.split("\n", 1)[0]


def blocker_state(blocker: str, per_rule: Mapping[str, RuleVerdict]) -> str:
    """``ARCH-01 (fail)``: the blocking rule with its own verdict for this driver."""
    found = per_rule.get(blocker)
    return f"{blocker} ({found.verdict.value if found else Verdict.NOT_RUN.value})"


def counts(verdicts: Iterable[Verdict]) -> dict[Verdict, int]:
    """How many rules have each verdict, every verdict listed (zeros included)."""
    found = dict.fromkeys(Verdict, 0)
    for verdict in verdicts:
        found[verdict] += 1
    return found


__all__ = [
    "FAILED",
    "LEANED_ON",
    "SKIP_CATEGORIES",
    "Outcome",
    "Outcomes",
    "RuleVerdict",
    "Verdict",
    "VerdictSkip",
    "blocker_state",
    "charge_blockers",
    "counts",
    "failed_verdict",
    "first_line",
    "resolve_leaning",
    "skip",
    "stopped_at_text",
]
