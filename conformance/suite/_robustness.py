"""Helpers of the robustness suites: whole-store snapshots and many-case checks that report every
failing case at once (a fix for the first case should not hide the second)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import attrs

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.checks import describe
from aalis_memory.conformance.steps import Blocked, as_steps
from aalis_memory.service import MemoryService

#: One case: a readable label and the call to make on the store.
Call = Callable[[Any], Awaitable[Any]]


@attrs.frozen
class Case:
    label: str
    call: Call
    #: Optional contract method the call needs; the case is left out when the store lacks it.
    needs: str | None = None
    #: False for a read: :func:`expect_unchanged` does not look at the store after it (a read
    #: cannot change it; the reads' own refusal is checked by :func:`expect_refused`).
    writes: bool = True


def available(memory: MemoryService, cases: Sequence[Case]) -> list[Case]:
    """The cases whose optional method the store implements."""
    return [c for c in cases if c.needs is None or callable(getattr(memory, c.needs, None))]


async def snapshot(memory: MemoryService, sessions: Sequence[str], namespaces: Sequence[str]) -> Any:
    """Everything observable of these sessions and namespaces, archived messages included when
    the store can show them. Its reads are steps (:func:`as_steps`): a read that raises
    blocks the test by its own rule rather than failing the hostile-input rule under test."""
    full = getattr(memory, "get_full_history", None)
    keys = getattr(memory, "list_metadata_keys", None)
    with as_steps():  # steps: what the case left, read through methods it does not test
        history = {
            s: (await full(s, 10**6) if callable(full) else None, await memory.get_history(s, 10**6))
            for s in sessions
        }
        metadata = {
            ns: (
                [(e.key, e.data) for e in await memory.list_metadata(ns)],
                await keys(ns) if callable(keys) else None,
            )
            for ns in namespaces
        }
    return history, metadata


async def outcome(call: Call, memory: MemoryService) -> tuple[str, Any]:
    """("raised", exception) or ("returned", value): a case never stops the others."""
    try:
        return "returned", await call(memory)
    except Exception as exc:
        return "raised", exc


def judged(check: Check, result: tuple[str, Any]) -> bool:
    """Whether a case's result judges ``check``'s rule: a case blocked by a missing method or a failed
    step is set aside (the rule is then blocked in that part) and the other cases go on."""
    if result[0] == "raised" and isinstance(result[1], Blocked):
        check.block_case(result[1])
        return False
    return True


def shown(result: tuple[str, Any]) -> str:
    kind, value = result
    if kind == "raised":
        return f"{type(value).__name__}: {str(value)[:120]}"
    return f"returned {describe(value)}"


async def expect_refused(
    memory: MemoryService, check: Check, cases: Sequence[Case], errors: tuple[type[BaseException], ...]
) -> None:
    """Every case must raise one of ``errors``."""
    wanted = " or ".join(e.__name__ for e in errors)
    failures: list[str] = []
    total = 0
    for case in cases:
        result = await outcome(case.call, memory)
        if not judged(check, result):
            continue
        total += 1
        if not (result[0] == "raised" and isinstance(result[1], errors)):
            failures.append(f"{case.label}: expected {wanted}, {shown(result)}")
    check.no_failures(f"calls did not raise {wanted}", failures, total)


async def expect_unchanged(
    memory: MemoryService,
    check: Check,
    cases: Sequence[Case],
    sessions: Sequence[str],
    namespaces: Sequence[str],
) -> None:
    """After each case, whatever it raised or returned, the store must look the same."""
    before = await snapshot(memory, sessions, namespaces)
    failures: list[str] = []
    total = 0
    for case in cases:
        result = await outcome(case.call, memory)
        if not judged(check, result) or not case.writes:
            continue
        total += 1
        after = await snapshot(memory, sessions, namespaces)
        if after != before:
            failures.append(f"{case.label} ({shown(result)}) changed the store")
            before = after
    check.no_failures("refused calls changed the store", failures, total)
