"""The state of one run of the kit: the drivers it stopped using (and why), the methods that
hung, the driver calls in flight, the stdio drivers' transcript recorders and what the drivers'
``fresh=`` hooks left behind.

One :class:`RunState` per pytest run, made in ``pytest_configure`` and kept in
``config.stash[RUN_STATE]``; whatever needs it is handed it (the fixtures, the guarded store,
the state machine's targets, the reporter through its config), so no module writes another's
globals. A pytester run in the same process has a config of its own, hence a state of its own:
nothing carries over from the last run. Code that runs outside pytest (a reproduction snippet,
a kit test opening a store) gets a fresh one by default.

The event-loop watchdog is not part of it: it is the process's (one thread, one signal
handler, whatever the run); a watch carries the run's :meth:`RunState.stopped` instead.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Final

import attrs
import pytest

from aalis_memory.conformance.harness.fresh import FreshState
from aalis_memory.conformance.harness.health import Described, Hung
from aalis_memory.conformance.harness.watchdog import Watch

if TYPE_CHECKING:
    from aalis_memory.drivers.stdio.transcript import Recorder


@attrs.define(eq=False)
class RunState:
    """What one run of the kit has learnt about its drivers, in this process (and, through
    :attr:`shared`, what the run's other processes learnt)."""

    #: Where causes are also written for the other processes of the run (pytest-xdist: a worker
    #: that ends because a driver call cannot be stopped leaves the driver's cause to its
    #: replacement); ``None``: this process only.
    shared: Path | None = None
    #: Methods known to hang, by (driver, method): a hanging method costs one limit per
    #: process, not one per call.
    hung: dict[tuple[str, str], Hung] = attrs.field(factory=dict)
    #: The recorder of each stdio driver of the run, by driver name (entered with the driver's
    #: adapter session, see :mod:`aalis_memory.drivers.stdio.driver`).
    recorders: dict[str, Recorder] = attrs.field(factory=dict)
    #: What the drivers' ``fresh=`` hooks left behind (:mod:`.fresh`).
    fresh: FreshState = attrs.field(factory=FreshState)
    #: Drivers that cannot be used at all (no store opens, a required method is missing, a call
    #: had to be interrupted), with the cause: reported once, at the first test, and the rest
    #: are not run.
    _unusable: dict[str, str] = attrs.field(factory=dict, init=False)
    #: Driver calls in progress, by id: (what, started at). Shown when the run is interrupted.
    _in_flight: dict[int, tuple[Described, float]] = attrs.field(factory=dict, init=False)
    _ids: Iterator[int] = attrs.field(factory=itertools.count, init=False)
    #: Each driver's cause file in :attr:`shared`, by driver name.
    _cause_files: dict[str, str] = attrs.field(factory=dict, init=False)

    def unusable(self, name: str, cause: str, *, shared: bool = False) -> None:
        """Stop using driver ``name`` in this run; ``shared``: in its other processes too."""
        self._unusable.setdefault(name, cause)
        if shared and self.shared is not None:
            try:
                self.shared.mkdir(parents=True, exist_ok=True)
                (self.shared / _file_name(name)).write_text(cause, encoding="utf-8")
            except OSError:
                pass

    def unusable_cause(self, name: str) -> str | None:
        """Why driver ``name`` cannot be used in this run (``None``: it can)."""
        cause = self._unusable.get(name)
        if cause is None and self.shared is not None:
            path = self._cause_files.get(name)
            if path is None:  # asked several times per test: the path is made once
                path = self._cause_files[name] = str(self.shared / _file_name(name))
            try:
                with open(path, encoding="utf-8") as file:
                    cause = file.read()
            except OSError:
                return None
            self._unusable.setdefault(name, cause)
        return cause

    def stopped(self, watch: Watch, cause: str) -> None:
        """The watchdog ends this process over a call it cannot stop: the call's driver is
        unusable for the run's other processes (pytest-xdist starts a new worker, which skips
        its tests)."""
        if watch.owner:
            self.unusable(
                watch.owner, "was stopped: " + cause.removeprefix(f"driver {watch.owner!r}: "), shared=True
            )

    def in_flight(self) -> list[str]:
        """The calls in progress right now, with how long each has been running."""
        now = time.monotonic()
        return [
            f"{what()} (running for {now - started:.1f} s)"
            for what, started in list(self._in_flight.values())
        ]

    def tracked(self, what: Described) -> _Tracked:
        """While a driver call runs: it is in flight (``with state.tracked(what): ...``)."""
        return _Tracked(self._in_flight, next(self._ids), what)


class _Tracked:
    """A call in flight for the length of a ``with`` block: a class, not a generator-based
    context manager, as every driver call of a run enters one."""

    __slots__ = ("_calls", "_id", "_what")

    def __init__(self, calls: dict[int, tuple[Described, float]], call_id: int, what: Described) -> None:
        self._calls = calls
        self._id = call_id
        self._what = what

    def __enter__(self) -> None:
        self._calls[self._id] = (self._what, time.monotonic())

    def __exit__(self, *_: object) -> None:
        self._calls.pop(self._id, None)


def _file_name(driver: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", driver) + ".cause"


#: Where the plugin keeps the run's state.
RUN_STATE: Final = pytest.StashKey[RunState]()


__all__ = ["RUN_STATE", "RunState"]
