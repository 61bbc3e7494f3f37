"""The blame service: where every disagreement between a store and the model goes.

A step (or a check after it) that finds a store answering otherwise than the model hands the
disagreement here, with the rules it may be filed under, most telling first (named by the pure
functions of :mod:`.attribution`), and raises what comes back. The service decides the rest:

- **tolerance** (:mod:`.tolerance`): a disagreement only rules the run tolerates explain is
  excused (:class:`ToleratedDivergence`), never held against another rule; the tolerated rules
  are left out of a failure's blame;
- **the failure** (:class:`MachineFailure`): the rules involved, what differed, and the history
  so far as a runnable snippet (:mod:`.snippets`);
- **minimizing** (:func:`minimized`): after the run, a failing history is cut down
  (:mod:`.minimizer`) and its blame may narrow on the way.

So a step never builds a failure, and a change of how blame is filed is made here only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from aalis_memory.conformance.machine.bookkeeping import History
from aalis_memory.conformance.machine.failure import MachineFailure, ToleratedDivergence
from aalis_memory.conformance.machine.ledger import CheckLedger
from aalis_memory.conformance.machine.minimizer import minimize
from aalis_memory.conformance.machine.snippets import reproduction_for
from aalis_memory.conformance.machine.stores import Target
from aalis_memory.conformance.machine.tolerance import Tolerance


class Blame:
    """Files the disagreements of one history (its ``targets``, ``tolerance`` and ``history``)."""

    def __init__(self, targets: Sequence[Target], tolerance: Tolerance, history: History) -> None:
        self.targets = tuple(targets)
        self.tolerance = tolerance
        self.history = history

    def disagreement(
        self,
        rules: Sequence[str],
        driver: str,
        what: str,
        *,
        polled: bool = False,
        rediagnosed: MachineFailure | None = None,
    ) -> MachineFailure | ToleratedDivergence:
        """What to raise for a store that disagreed with the model: ``rules`` the rules it may
        be filed under (most telling first), ``driver`` the store's, ``what`` the difference;
        ``polled`` shows the reader of the last (watched) step in the reproduction.

        ``rediagnosed``: a failure already raised, now filed under ``rules`` (a diagnosis made
        after it, which probed the store since: its reproduction and blame stay as they were,
        the diagnosed rules first). A disagreement only tolerated rules explain is excused.
        """
        involved = list(dict.fromkeys(r for r in rules if r))
        if self.tolerance.excuses(involved):
            return ToleratedDivergence(involved, self.tolerance.derails(involved))
        if rediagnosed is not None:
            return MachineFailure(
                involved,
                rediagnosed.what,
                rediagnosed.driver or "",
                rediagnosed.history,
                rediagnosed.reproduction,
                rediagnosed.notes,
            )
        return MachineFailure(
            self.tolerance.blame(involved),
            what,
            driver,
            self.history.rule_log,
            reproduction_for(self.targets, driver, self.history.script, polled),
        )

    def excused(self, divergence: ToleratedDivergence, derail: bool) -> None:
        """A step ended at a divergence a tolerated rule explains: with ``derail`` (or when the
        rule says what a write does) the rest of the history is not checked."""
        if derail or divergence.derails:
            self.history.derailed = True


def minimized(
    machine: Callable[[], Any], failure: MachineFailure, ledger: CheckLedger | None
) -> MachineFailure:
    """``failure`` with its history cut down by replaying it on fresh machines of ``machine``
    (no checks credited to ``ledger`` meanwhile)."""
    if ledger is None:
        return minimize(machine, failure)
    with ledger.paused():
        return minimize(machine, failure)


__all__ = ["Blame", "minimized"]
