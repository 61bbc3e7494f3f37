"""Run health: the drivers the kit stopped using (and why), the methods that hung and the rule
each hang was charged to, and the driver calls in flight (for a watchdog's report)."""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs

from aalis_memory.conformance.checks import describe
from aalis_memory.conformance.harness import steps
from aalis_memory.conformance.harness.watchdog import WATCHDOG, Watch


class CallTimeout(Exception):
    """A driver call did not return within the kit's per-call time limit, or blocked the event
    loop past it.

    ``cause`` is the same for every timeout of one method of one driver, whatever the arguments:
    the summary groups the failures by it. ``how`` says what the call did ("did not return
    within 10 s"); ``interrupted``: the kit had to interrupt the loop's thread to get it back.
    """

    def __init__(self, message: str, *, cause: str = "", how: str = "",
                 interrupted: bool = False) -> None:
        super().__init__(message)
        self.cause = cause or message
        self.how = how or message
        self.interrupted = interrupted


#: Drivers that cannot be used at all in this process (no store opens, a required method is
#: missing, a call had to be interrupted), with the cause: reported once, at the first test, and
#: the rest are not run.
UNUSABLE: dict[str, str] = {}

#: Where causes are also written for the other processes of the run (pytest-xdist: a worker that
#: ends because a driver call cannot be stopped leaves the driver's cause to its replacement).
SHARED_UNUSABLE: Path | None = None


def unusable(name: str, cause: str, *, shared: bool = False) -> None:
    UNUSABLE.setdefault(name, cause)
    if shared and SHARED_UNUSABLE is not None:
        try:
            SHARED_UNUSABLE.mkdir(parents=True, exist_ok=True)
            (SHARED_UNUSABLE / _file_name(name)).write_text(cause, encoding="utf-8")
        except OSError:
            pass


def unusable_cause(name: str) -> str | None:
    """Why driver ``name`` cannot be used in this run (``None``: it can)."""
    cause = UNUSABLE.get(name)
    if cause is None and SHARED_UNUSABLE is not None:
        try:
            cause = (SHARED_UNUSABLE / _file_name(name)).read_text(encoding="utf-8")
        except OSError:
            return None
        UNUSABLE.setdefault(name, cause)
    return cause


def _stopped(watch: Watch, cause: str) -> None:
    """The watchdog ends this process over a call it cannot stop: the call's driver is unusable
    for the run's other processes (pytest-xdist starts a new worker, which skips its tests)."""
    if watch.owner:
        unusable(watch.owner, "was stopped: " + cause.removeprefix(f"driver {watch.owner!r}: "),
                 shared=True)


WATCHDOG.on_give_up = _stopped


def _file_name(driver: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", driver) + ".cause"


@attrs.frozen
class Hung:
    """A method of a driver that did not return within the limit once: its later calls end at
    once, blocked by :attr:`charged` (or failing it again, with the same cause)."""

    driver: str
    method: str
    #: The call that hung, without the driver: ``count_history('s-hist')``.
    call: str
    #: What it did: ``did not return within 10 s``.
    how: str
    #: The rule the first hang was charged to (see :func:`charged_rule`): later calls of the
    #: method are blocked by it, except in a test of that rule alone, where they fail it again.
    charged: str = ""

    @property
    def cause(self) -> str:
        return f"driver {self.driver!r}: {self.method} {self.how}"

    @property
    def later(self) -> str:
        return f"{self.how}; later calls of {self.method} are blocked by it"

    def first(self, exc: CallTimeout) -> CallTimeout:
        then = (f"the kit does not use driver {self.driver!r} any further in this run"
                if exc.interrupted else
                f"later calls of {self.method} end at once, blocked by {self.charged}")
        return CallTimeout(f"{exc}; {then}", cause=self.cause, how=self.how,
                           interrupted=exc.interrupted)

    def blocked(self) -> steps.Blocked:
        """What a later call raises in a test that does not judge :attr:`charged`: that test's
        rules are blocked by the hang, never failed by it (nor counted as a case of theirs)."""
        return steps.Blocked(self.charged, self.call, self.later)

    def stopped(self) -> steps.Blocked:
        """What any later call on the store raises once this call had to be interrupted (the
        driver's state cannot be trusted): blocked by :attr:`charged` too."""
        return steps.Blocked(self.charged, self.call, f"{self.how} and the kit interrupted it; "
                             f"the kit does not use driver {self.driver!r} any further")

    def later_call(self, under_test: bool) -> Exception:
        """What a later call of the method raises: :meth:`again` (a failure) where the call is
        under test in a test of :attr:`charged` alone (or outside any test), else
        :meth:`blocked`: the hang is charged once, to one rule."""
        running = steps.current()
        if running is None or (under_test and running.rules == {self.charged}):
            return self.again()
        return self.blocked()

    def again(self) -> CallTimeout:
        return CallTimeout(
            f"driver {self.driver!r}: {self.call} {self.how} (an earlier call of {self.method}; "
            "later calls end at once)", cause=self.cause, how=self.how,
        )


def charged_rule(method: str, args: tuple[Any, ...], kwargs: dict[str, Any],
                 blocker: str | None) -> str:
    """The rule the first hang of ``method`` is charged to: the rule the failing step stood on
    (``blocker``); for a call under test, the running test's rule that judges the method (the
    method's basic rule, :func:`~aalis_memory.conformance.harness.steps.leaned_on`, when the test has
    it); else (outside a test, a witness read aside) the basic rule."""
    basic = steps.leaned_on(method, args, kwargs)
    running = steps.current()
    if blocker is not None:
        return blocker
    if running is None or basic in running.rules:
        return basic
    judging = sorted(r for r in running.rules if method in steps.SUBJECTS.get(r, {method}))
    return judging[0] if judging else basic


#: Methods known to hang in this process, by (driver, method): a hanging method costs one limit
#: per process, not one per call.
HUNG: dict[tuple[str, str], Hung] = {}


def reset() -> None:
    """A new run in this process (pytester runs the kit in-process): forget the last one's."""
    HUNG.clear()
    UNUSABLE.clear()


#: Driver calls in progress, by id: (what, started at). Shown when the run is interrupted.
IN_FLIGHT: dict[int, tuple[Described, float]] = {}
_ids = itertools.count()


def in_flight() -> list[str]:
    """The calls in progress right now, with how long each has been running."""
    now = time.monotonic()
    return [f"{what()} (running for {now - started:.1f} s)"
            for what, started in list(IN_FLIGHT.values())]


@contextmanager
def tracked(what: Described) -> Iterator[None]:
    call_id = next(_ids)
    IN_FLIGHT[call_id] = (what, time.monotonic())
    try:
        yield
    finally:
        IN_FLIGHT.pop(call_id, None)


#: A call's description, rendered only when it is shown (a timeout, an error, Ctrl-C): the
#: arguments may be large or deeply nested, and most calls are never shown.
Described = Callable[[], str]


def render_call(driver: str, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    shown = [_safe(a) for a in args] + [f"{k}={_safe(v)}" for k, v in kwargs.items()]
    return f"driver {driver!r}: {method}({', '.join(shown)})"


def _safe(value: Any) -> str:
    """``describe(value)``, or its type when it cannot be shown (a payload nested too deep)."""
    try:
        return describe(value)
    except (RecursionError, ValueError, TypeError):
        return f"<{type(value).__name__}>"
