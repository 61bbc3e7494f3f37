"""Verdicts: what the kit may say about one rule of one driver, and how outcomes combine.

A rule is ``pass`` only when a test really executed a check of it and the check held. Every
other state says why it is not a pass: the driver failed it (``fail``, or ``advisory`` for a
SHOULD rule outside strict mode), a part of it held while another part could not be checked or
was blocked (``partial pass``), a setup or observation step its tests leaned on failed, so they
could not judge it (``blocked``, naming the rule whose behaviour failed), the optional method is
absent (``not implemented``), the driver's declared tier does not promise it (``excluded by
tier``), the kit could not check it here (``unverified``), or no test of it ran (``not run``).
Pure functions: the pytest glue is in :mod:`aalis_memory.conformance.verdicts.reporter`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, NoReturn

import attrs
import pytest

# The states are the catalogue's (a registration names them too); the verdicts' modules read them here.
from aalis_memory.conformance.rules.verdict import Verdict as Verdict

#: Verdicts a skipped test can give, by the prefix of its skip reason (see :func:`skip`).
SKIP_CATEGORIES: Final = (Verdict.NOT_IMPLEMENTED, Verdict.EXCLUDED, Verdict.UNVERIFIED)


def skip(verdict: Verdict, reason: str) -> NoReturn:
    """Skip the running test with a reason that carries its verdict (``"unverified: ..."``).

    The verdict travels as the prefix of the reason, so it survives pytest-xdist's report
    serialization and reads naturally in ``-rs`` output.
    """
    if verdict not in SKIP_CATEGORIES:
        raise ValueError(f"a skip cannot give the verdict {verdict.value!r}")
    pytest.skip(f"{verdict.value}: {reason}")


def skip_verdict(reason: str) -> tuple[Verdict, str]:
    """The verdict a skip reason gives its rules, and the reason without the prefix.

    A skip without a known prefix (deselection by the user, a mode that is off) means the check
    did not run.
    """
    for verdict in SKIP_CATEGORIES:
        prefix = f"{verdict.value}: "
        if reason.startswith(prefix):
            return verdict, reason[len(prefix) :]
    return Verdict.NOT_RUN, reason


@attrs.frozen
class Outcome:
    """What one test said about one rule of one driver."""

    verdict: Verdict
    test: str
    message: str = ""
    #: Where the test checked it (``file:line``), for failures.
    where: str = ""
    #: Seconds the test phase took.
    duration: float = 0.0
    #: For a driver exception: its type, text and method, shared by every rule it broke.
    cause: str = ""
    #: Whether the test ran at all (a deselected test did not): what ran explains better.
    ran: bool = True
    #: For a blocked outcome: the rule whose behaviour failed in a setup or observation step.
    blocker: str = ""
    #: For a failed check: the rules its observation steps stood on (see :func:`resolve_leaning`).
    leaned: tuple[str, ...] = ()
    #: The rule it is about (the key of its :class:`RuleVerdict` once added up).
    rule: str = ""
    #: For a check over many cases: each failing case, as the check listed it.
    cases: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """Plain data, for a process boundary (an xdist worker's report, a JUnit property)."""
        return {
            "rule": self.rule,
            "verdict": self.verdict.value,
            "test": self.test,
            "message": self.message,
            "where": self.where,
            "duration": self.duration,
            "cause": self.cause,
            "ran": self.ran,
            "blocker": self.blocker,
            "leaned": list(self.leaned),
            "cases": list(self.cases),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            Verdict(data["verdict"]),
            data["test"],
            data["message"],
            data["where"],
            data["duration"],
            data["cause"],
            data["ran"],
            data["blocker"],
            tuple(data["leaned"]),
            data["rule"],
            tuple(data["cases"]),
        )


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


#: How the message of a check settled as blocked by :func:`resolve_leaning` begins (after
#: ``blocked by RULE: ``).
LEANED_ON: Final = "the check read the store through "

#: Outcomes of a check the driver failed (a failure, or a SHOULD rule's advisory): what a
#: known-failure entry, a reproduction note and the rerun hint apply to.
FAILED: Final = frozenset({Verdict.FAIL, Verdict.ADVISORY})
#: Outcomes that say a rule was found broken.
_BROKEN: Final = FAILED | {Verdict.KNOWN_FAILURE}


def resolve_leaning(per_rule: Mapping[str, RuleVerdict]) -> list[tuple[str, Outcome]]:
    """Failed checks that read the store through a rule the driver breaks become ``blocked`` by
    that rule: what they compared may be that rule's fault, not theirs. Returns the (rule, new
    outcome) pairs changed.

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
    changed: list[tuple[str, Outcome]] = []
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
                    outcome,
                    verdict=Verdict.BLOCKED,
                    blocker=blocker,
                    leaned=(),
                    message=f"blocked by {blocker}: {LEANED_ON}{blocker}, which this driver "
                    f"breaks; it found: {outcome.message}",
                )
                result = per_rule[rule]
                result.outcomes[result.outcomes.index(outcome)] = blocked
                changed.append((rule, blocked))
            elif not any(in_question(r) for r in leans):
                settled.add(id(outcome))
            else:
                continue
            pending.remove((rule, outcome))
            progress = True
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


def counts(verdicts: Iterable[Verdict]) -> dict[Verdict, int]:
    """How many rules have each verdict, every verdict listed (zeros included)."""
    found = dict.fromkeys(Verdict, 0)
    for verdict in verdicts:
        found[verdict] += 1
    return found


def summary_line(found: dict[Verdict, int]) -> str:
    """``"40 pass, 1 fail, ... (of 70 rules)"``: every state named, so nothing can hide."""
    total = sum(found.values())
    shown = [
        f"{found[Verdict.PASS]} pass",
        f"{found[Verdict.FAIL]} fail",
        f"{found[Verdict.ADVISORY]} advisory",
    ]
    shown += [
        f"{found[v]} {v.value}" for v in (Verdict.KNOWN_FAILURE, Verdict.PARTIAL, Verdict.BLOCKED) if found[v]
    ]
    shown += [
        f"{found[v]} {v.value}"
        for v in (Verdict.NOT_IMPLEMENTED, Verdict.EXCLUDED, Verdict.UNVERIFIED, Verdict.NOT_RUN)
    ]
    return f"{', '.join(shown)} (of {total} rules)"


__all__ = [
    "FAILED",
    "LEANED_ON",
    "SKIP_CATEGORIES",
    "Outcome",
    "RuleVerdict",
    "Verdict",
    "counts",
    "resolve_leaning",
    "skip",
    "skip_verdict",
    "summary_line",
]
