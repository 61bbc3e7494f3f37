"""What a driver call that hangs becomes: its timeout, the method known to hang from then on and
the rule the hang is charged to, and how a call is described when it is shown. The run's record
of them (which methods hung, which drivers the kit stopped using) is its
:class:`~aalis_memory.conformance.harness.run_state.RunState`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from aalis_memory.conformance import steps
from aalis_memory.conformance.checks import describe


class CallTimeout(Exception):
    """A driver call did not return within the kit's per-call time limit, or blocked the event
    loop past it.

    ``cause`` is the same for every timeout of one method of one driver, whatever the arguments:
    the summary groups the failures by it. ``how`` says what the call did ("did not return
    within 10 s"); ``interrupted``: the kit had to interrupt the loop's thread to get it back.
    """

    def __init__(self, message: str, *, cause: str = "", how: str = "", interrupted: bool = False) -> None:
        super().__init__(message)
        self.cause = cause or message
        self.how = how or message
        self.interrupted = interrupted


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
        then = (
            f"the kit does not use driver {self.driver!r} any further in this run"
            if exc.interrupted
            else f"later calls of {self.method} end at once, blocked by {self.charged}"
        )
        return CallTimeout(f"{exc}; {then}", cause=self.cause, how=self.how, interrupted=exc.interrupted)

    def blocked(self) -> steps.Blocked:
        """What a later call raises in a test that does not judge :attr:`charged`: that test's
        rules are blocked by the hang, never failed by it (nor counted as a case of theirs)."""
        return steps.Blocked(self.charged, self.call, self.later)

    def stopped(self) -> steps.Blocked:
        """What any later call on the store raises once this call had to be interrupted (the
        driver's state cannot be trusted): blocked by :attr:`charged` too."""
        return steps.Blocked(
            self.charged,
            self.call,
            f"{self.how} and the kit interrupted it; the kit does not use driver {self.driver!r} any further",
        )

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
            "later calls end at once)",
            cause=self.cause,
            how=self.how,
        )


def charged_rule(method: str, args: tuple[Any, ...], kwargs: dict[str, Any], blocker: str | None) -> str:
    """The rule the first hang of ``method`` is charged to: the rule the failing step stood on
    (``blocker``); for a call under test, the running test's rule that judges the method (the
    method's basic rule, :func:`~aalis_memory.conformance.steps.leaned_on`, when the test has
    it); else (outside a test, a witness read aside) the basic rule."""
    basic = steps.leaned_on(method, args, kwargs)
    running = steps.current()
    if blocker is not None:
        return blocker
    if running is None or basic in running.rules:
        return basic
    judging = sorted(r for r in running.rules if method in steps.SUBJECTS.get(r, {method}))
    return judging[0] if judging else basic


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
