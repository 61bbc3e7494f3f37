"""Verdicts: what the kit may say about one rule of one driver, and how outcomes combine.

A rule is ``pass`` only when a test really executed a check of it and the check held. Every
other state says why it is not a pass: the driver failed it (``fail``, or ``advisory`` for a
SHOULD rule outside strict mode), the optional method is absent (``not implemented``), the
driver's declared tier does not promise it (``excluded by tier``), the kit could not check it
here (``unverified``), or no test of it ran (``not run``). Pure functions: the pytest glue is in
:mod:`aalis_memory.conformance.report`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final, NoReturn

import attrs
import pytest


class Verdict(enum.Enum):
    """The states of a rule, from the one that decides a rule's verdict first to the last."""

    FAIL = "fail"
    ADVISORY = "advisory"
    KNOWN_FAILURE = "known failure"
    PASS = "pass"
    UNVERIFIED = "unverified"
    EXCLUDED = "excluded by tier"
    NOT_IMPLEMENTED = "not implemented"
    NOT_RUN = "not run"

    @property
    def rank(self) -> int:
        return _ORDER.index(self)


_ORDER: Final = tuple(Verdict)

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
            return verdict, reason[len(prefix):]
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
        return min((o.verdict for o in self.outcomes), key=lambda v: v.rank)

    @property
    def deciding(self) -> Outcome | None:
        """The first outcome with the rule's verdict, from a test that ran if any did: the
        message a user reads first."""
        verdict = self.verdict
        same = [o for o in self.outcomes if o.verdict is verdict]
        return next((o for o in same if o.ran), same[0] if same else None)

    @property
    def message(self) -> str:
        deciding = self.deciding
        return deciding.message if deciding is not None else "no test of this rule ran"

    @property
    def caveats(self) -> list[Verdict]:
        """For a pass: the parts of the rule that did not pass (e.g. excluded by a tier)."""
        if self.verdict is not Verdict.PASS:
            return []
        seen = {o.verdict for o in self.outcomes if o.verdict.rank > Verdict.PASS.rank}
        return [v for v in (Verdict.UNVERIFIED, Verdict.EXCLUDED, Verdict.NOT_IMPLEMENTED)
                if v in seen]


def counts(verdicts: Iterable[Verdict]) -> dict[Verdict, int]:
    """How many rules have each verdict, every verdict listed (zeros included)."""
    found = dict.fromkeys(Verdict, 0)
    for verdict in verdicts:
        found[verdict] += 1
    return found


def summary_line(found: dict[Verdict, int]) -> str:
    """``"40 pass, 1 fail, ... (of 70 rules)"``: every state named, so nothing can hide."""
    total = sum(found.values())
    shown = [f"{found[Verdict.PASS]} pass", f"{found[Verdict.FAIL]} fail",
             f"{found[Verdict.ADVISORY]} advisory"]
    if found[Verdict.KNOWN_FAILURE]:
        shown.append(f"{found[Verdict.KNOWN_FAILURE]} known failure")
    shown += [f"{found[v]} {v.value}" for v in
              (Verdict.NOT_IMPLEMENTED, Verdict.EXCLUDED, Verdict.UNVERIFIED, Verdict.NOT_RUN)]
    return f"{', '.join(shown)} (of {total} rules)"


__all__ = [
    "SKIP_CATEGORIES",
    "Outcome",
    "RuleVerdict",
    "Verdict",
    "counts",
    "skip",
    "skip_verdict",
    "summary_line",
]
