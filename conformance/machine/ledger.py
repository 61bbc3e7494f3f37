"""The checks a run really performed, per rule: what ``PROP_CHECKED`` reports.

The suite test names every rule the machine *can* check (its ``aalis_spec`` marker); which of
them a run *did* check depends on the driver (optional methods, raw hook, declared tiers) and on
the histories generated. The machine credits a rule here after a comparison that depended on it
held (see :mod:`.attribution`), so the report can give ``pass`` only to rules with a positive
count. A round of histories that ended in a failure keeps none of its credits
(:meth:`CheckLedger.round`): the histories it never ran, and the rest of the failing one, were
not looked at, so what it checked before the failure is no pass; the runner runs them again
with the failed rule tolerated, and what that run checks counts.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterable, Iterator

from aalis_memory.conformance.machine.attribution import COVERED_RULES


class CheckLedger:
    """Per rule, how many comparisons that depended on it held, over every example of a run."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self._paused = False
        self._ignored: set[str] = set()

    def credit(self, rules: Iterable[str]) -> None:
        """One check of each of ``rules`` held (ignored while paused or for ignored rules)."""
        if self._paused:
            return
        for rule_id in rules:
            if rule_id not in COVERED_RULES:
                raise ValueError(f"{rule_id} is not a rule the state machine covers")
            if rule_id not in self._ignored:
                self.counts[rule_id] += 1

    def ignore(self, rule_id: str) -> None:
        """Drop ``rule_id`` and credit it no more: a run that tolerates it reports it as an
        advisory, never as checked."""
        self._ignored.add(rule_id)
        self.counts.pop(rule_id, None)

    @contextlib.contextmanager
    def round(self) -> Iterator[None]:
        """One round of histories: its credits are dropped if it ends in an exception."""
        before = Counter(self.counts)
        try:
            yield
        except BaseException:
            self.counts = Counter({r: n for r, n in before.items() if r not in self._ignored})
            raise

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """No credit meanwhile: replays of a failing history (the minimizer) check nothing new."""
        before, self._paused = self._paused, True
        try:
            yield
        finally:
            self._paused = before

    def as_property(self) -> dict[str, int]:
        """``{rule_id: count}`` in catalogue order, positive counts only."""
        return {r: self.counts[r] for r in COVERED_RULES if self.counts[r] > 0}


__all__ = ["CheckLedger"]
