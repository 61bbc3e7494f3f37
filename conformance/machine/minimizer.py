"""Cutting a failing history down by replaying logged rule calls.

Hypothesis's own shrinker needs minutes on long stateful histories (on a FerretDB-backed store it
ran past five minutes and gave up); replaying the rule calls the machine logged, with steps and
list items dropped and generated messages made plainer, gets the same failure down in about a
second. The failure may also *narrow* on the way: a simpler history that no longer exercises,
say, a long span shows which of the rules involved really broke.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final

import attrs

from aalis_memory.conformance.machine.copies import copied
from aalis_memory.conformance.machine.failure import LoggedCall, MachineFailure
from aalis_memory.conformance.machine.inputs import PLAIN_SPEC, MessageSpec

#: Replays :func:`minimize` may spend on one failure.
MAX_REPLAYS: Final = 400


def simpler_values(value: Any) -> Iterator[Any]:
    """Candidates one field plainer than ``value`` (message specs, or lists/pairs holding them)."""
    if isinstance(value, MessageSpec):
        for field in attrs.fields(MessageSpec):
            plain = getattr(PLAIN_SPEC, field.name)
            if getattr(value, field.name) != plain:
                yield attrs.evolve(value, **{field.name: plain})
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            for simpler in simpler_values(item):
                changed = [*value[:index], simpler, *value[index + 1 :]]
                yield changed if isinstance(value, list) else tuple(changed)


def without_one_item(value: Any) -> Iterator[Any]:
    """Candidates with one item less in one list of ``value``, at any depth (a list argument,
    or a list inside the tuples of one, such as the keep positions of a seeded archive)."""
    if isinstance(value, list):
        for index in reversed(range(len(value))):
            yield value[:index] + value[index + 1 :]
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            for smaller in without_one_item(item):
                changed = [*value[:index], smaller, *value[index + 1 :]]
                yield changed if isinstance(value, list) else tuple(changed)


def replay(machine: Callable[[], Any], log: Sequence[LoggedCall]) -> MachineFailure | None:
    """Run the rule calls of ``log`` on a fresh machine; the failure they cause, if any."""
    state = machine()
    try:
        for name, kwargs in log:
            getattr(state, name)(**copied(kwargs))
            state.histories_match_model()
    except MachineFailure as failure:
        return failure
    except Exception:
        return None
    finally:
        state.teardown()
    return None


def narrower(found: MachineFailure, best: MachineFailure) -> bool:
    """Whether ``found`` reports the same failure as ``best``, or narrows its explanation: its
    rules are among those ``best`` involved."""
    if found.rule.id == best.rule.id:
        return True
    return set(found.involved) < set(best.involved)


def minimize(
    machine: Callable[[], Any], failure: MachineFailure, max_replays: int = MAX_REPLAYS
) -> MachineFailure:
    """Cut ``failure``'s history down while the same rule still fails (or the failure narrows,
    see :func:`narrower`): drop whole rule calls, then items of list arguments, then make
    generated messages plainer (each pass to a fixpoint)."""
    steps = list(failure.history)
    best = failure
    budget = max_replays

    def attempt(trial: list[LoggedCall]) -> bool:
        nonlocal budget, steps, best
        if budget <= 0:
            return False
        budget -= 1
        found = replay(machine, trial)
        if found is None or not narrower(found, best):
            return False
        steps, best = trial, found
        return True

    def with_arg(index: int, arg: str, value: Any) -> list[LoggedCall]:
        name, kwargs = steps[index]
        return [*steps[:index], (name, {**kwargs, arg: value}), *steps[index + 1 :]]

    def drop_steps() -> bool:
        """Drop runs of steps, halving the run length down to single steps (most of a long
        history is usually irrelevant, and dropping it in blocks takes far fewer replays than
        step by step); going backwards, a drop keeps the indexes still to try valid."""
        dropped = False
        size = max(1, len(steps) // 2)
        while True:
            start = len(steps) - size
            while start > -size:
                low = max(0, start)
                if attempt(steps[:low] + steps[start + size :]):
                    dropped = True
                start -= size
            if size == 1:
                return dropped
            size //= 2

    def each_argument(candidates: Callable[[Any], Iterator[Any]], order: Iterable[int]) -> bool:
        """Replace each argument by its candidates while one still fails, going on past every
        success (the steps keep their places, so no index goes stale) instead of starting over."""
        changed = False
        for index in order:
            for arg in list(steps[index][1]):
                while any(attempt(with_arg(index, arg, value)) for value in candidates(steps[index][1][arg])):
                    changed = True
        return changed

    def drop_items() -> bool:
        return each_argument(without_one_item, reversed(range(len(steps))))

    def plainer() -> bool:
        return each_argument(simpler_values, range(len(steps)))

    for shrink in (drop_steps, drop_items, plainer):
        while budget > 0 and shrink():
            pass
    return best


__all__ = ["MAX_REPLAYS", "minimize", "narrower", "replay", "simpler_values", "without_one_item"]
