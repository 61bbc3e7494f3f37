"""What a state-machine run reports: a typed failure, advisories, and results that raised.

A :class:`MachineFailure` is a :class:`ConformanceFailure` (the report files it under its rule)
that also carries what the machine needs afterwards: every rule the failing comparison involved
(the minimizer may narrow the blame to one of them) and the rule calls that led to it (the
minimizer replays them).
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

    def __init__(self, involved: Sequence[str], what: str, driver: str,
                 history: Sequence[LoggedCall], reproduction: Sequence[str]) -> None:
        involved = list(dict.fromkeys(involved))
        if not involved:
            raise ValueError("a machine failure names at least one rule")
        lines = [
            what,
            f"  driver: {driver}; rules involved: {', '.join(involved)}",
            "  reproduce (shrunk history, on a fresh store):",
            *(f"    {line}" for line in reproduction),
        ]
        super().__init__(catalogue_rule(involved[0]), "\n".join(lines), driver)
        self.involved: tuple[str, ...] = tuple(involved)
        self.what = what
        self.history: tuple[LoggedCall, ...] = tuple(history)
        self.reproduction: tuple[str, ...] = tuple(reproduction)

    def reblamed(self, lead: Sequence[str]) -> MachineFailure:
        """The same failure with ``lead`` blamed first (a diagnosis made after it was raised)."""
        return MachineFailure([*lead, *self.involved], self.what, self.driver or "",
                              self.history, self.reproduction)


@attrs.frozen
class Advisory:
    """A SHOULD rule a non-strict run found broken, recorded instead of ending the run."""

    rule: str
    #: The failure as the user reads it: the divergence and its shrunk reproduction.
    message: str
    #: The driver that diverged, in a differential run (one history, several drivers).
    driver: str | None = None

    def as_property(self) -> dict[str, str]:
        """The entry of the ``PROP_ADVISORIES`` test property."""
        entry = {"rule": self.rule, "message": self.message}
        if self.driver is not None:
            entry["driver"] = self.driver
        return entry


__all__ = ["Advisory", "LoggedCall", "MachineFailure", "Raised"]
