"""What a state-machine run reports: a typed failure, advisories, and results that raised.

A :class:`MachineFailure` is a :class:`ConformanceFailure` (the report files it under its rule)
that also carries what the machine needs afterwards: every rule the failing comparison involved
(the minimizer may narrow the blame to one of them) and the rule calls that led to it (the
minimizer replays them). A :class:`ToleratedDivergence` is a divergence that only rules the run
tolerates explain: the machine does not hold it against the other rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

import attrs

from aalis_memory.conformance.checks import ConformanceFailure
from aalis_memory.conformance.rules import rule as catalogue_rule

#: One logged rule call of the machine: the rule's name and the arguments Hypothesis drew.
LoggedCall: TypeAlias = tuple[str, dict[str, Any]]


@attrs.frozen
class Raised:
    """A store call that raised: only the error type is compared, the text is for the reader."""

    error: type[BaseException]
    text: str


class MachineFailure(ConformanceFailure):
    """A driver diverged from the model in a generated history.

    ``involved`` lists the rules the failing comparison could be blamed on, the primary one
    first; ``history`` is the rule calls that led to it, for :mod:`.minimizer`; ``reproduction``
    the snippet lines that replay it on a fresh store.
    """

    def __init__(
        self,
        involved: Sequence[str],
        what: str,
        driver: str,
        history: Sequence[LoggedCall],
        reproduction: Sequence[str],
        notes: Sequence[str] = (),
    ) -> None:
        involved = list(dict.fromkeys(involved))
        if not involved:
            raise ValueError("a machine failure names at least one rule")
        lines = [
            what,
            f"  driver: {driver}; rules involved: {', '.join(involved)}",
            "  reproduce (shrunk history, on a fresh store):",
            *(f"    {line}" for line in reproduction),
            *notes,
        ]
        super().__init__(catalogue_rule(involved[0]), "\n".join(lines), driver)
        self.involved: tuple[str, ...] = tuple(involved)
        self.what = what
        self.history: tuple[LoggedCall, ...] = tuple(history)
        self.reproduction: tuple[str, ...] = tuple(reproduction)
        #: Lines after the reproduction: what the judging after this failure found (the runner).
        self.notes: tuple[str, ...] = tuple(notes)

    def noting(self, notes: Sequence[str]) -> MachineFailure:
        """The same failure with ``notes`` added after its reproduction (never indented like
        the reproduction, so a reader of the snippet stops before them)."""
        return MachineFailure(
            self.involved,
            self.what,
            self.driver or "",
            self.history,
            self.reproduction,
            [*self.notes, *notes],
        )


class ToleratedDivergence(Exception):
    """A comparison diverged, but only rules the run tolerates explain it (a rule tolerated
    after it failed, with its inputs unchanged, or only tolerated ones): it is not held against
    the other rules, and nothing it depended on is credited.

    ``derails``: a tolerated rule that says what a write does is among them, so the store may
    now hold what the model does not; the rest of the history is then not checked (no check on
    a state the model no longer knows is credited, and none fails another rule).
    """

    def __init__(self, involved: Sequence[str], derails: bool) -> None:
        super().__init__(f"tolerated divergence ({', '.join(involved)})")
        self.involved: tuple[str, ...] = tuple(involved)
        self.derails = derails


@attrs.frozen
class Advisory:
    """A SHOULD rule a non-strict run found broken, recorded instead of ending the run."""

    rule: str
    #: What happened, without the rule's text (the outputs add it): the divergence and its
    #: shrunk reproduction.
    message: str
    #: The driver that diverged, in a differential run (one history, several drivers).
    driver: str | None = None

    def as_property(self) -> dict[str, str]:
        """The entry of the ``PROP_ADVISORIES`` test property."""
        entry = {"rule": self.rule, "message": self.message}
        if self.driver is not None:
            entry["driver"] = self.driver
        return entry


__all__ = ["Advisory", "LoggedCall", "MachineFailure", "Raised", "ToleratedDivergence"]
