"""Readers the suite uses to look at a store: contents in order, the form most checks compare."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Final, TypeVar

from aalis_memory.conformance.checks import contents
from aalis_memory.conformance.machine.copies import copied
from aalis_memory.conformance.steps import aside
from aalis_memory.service import FullMemoryService, MemoryService
from aalis_memory.types import RecentMessageRecord

#: "Everything" for the suite's reads: a finite limit above every history a test writes, so a
#: test whose subject is not the limit stands on the plain read rules (HIST-05, FULL-02), not
#: on LIM-02's ``math.inf``: a driver that mishandles Infinity fails LIM-02 alone.
ALL: Final = 10_000


T = TypeVar("T")


async def witness(read: Callable[[], Awaitable[T]]) -> T | None:
    """``read()`` as a witness (:func:`~aalis_memory.conformance.steps.aside`): nothing the check
    stands on, and ``None`` when it raises, as a witness that fails only leaves a lean as it is
    (the guard turns its error or hang into ``Blocked`` by the read's own rule, charging a hang
    there, as for any step)."""
    with aside():
        try:
            return await read()
        except Exception:  # the read's own rule judges its errors in its own tests
            return None


def as_read(returned: T) -> T:
    """A copy of what a read returned: a check that a call (an archive, a rewrite, a caller's
    mutation) leaves messages unchanged compares a later read with it, not with the messages as
    saved, so a field the store already changes on save is its own rule's, not the call's (the
    copy holds even when the store hands out, or keeps, the objects themselves)."""
    return copied(returned)


async def active(memory: MemoryService, session_id: str, limit: int = ALL) -> list[str | None]:
    """Contents of the whole active history (``get_history(session, ALL)``)."""
    return contents(await memory.get_history(session_id, limit))


async def everything(memory: FullMemoryService, session_id: str) -> list[str | None]:
    """Contents of the whole history, archived messages included (``get_full_history``)."""
    return contents(await memory.get_full_history(session_id, ALL))


def records(found: Sequence[RecentMessageRecord]) -> list[tuple[str, str | None]]:
    """Cross-session results as (session id, content) pairs."""
    return [(r.session_id, r.message.content) for r in found]
