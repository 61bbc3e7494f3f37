"""Readers the suite uses to look at a store: contents in order, the form most checks compare."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from aalis_memory.conformance.checks import contents
from aalis_memory.types import RecentMessageRecord

#: "Everything" for the suite's reads: a finite limit above every history a test writes, so a
#: test whose subject is not the limit stands on the plain read rules (HIST-05, FULL-02), not
#: on LIM-02's ``math.inf``: a driver that mishandles Infinity fails LIM-02 alone.
ALL: Final = 10_000


async def active(memory: Any, session_id: str, limit: int = ALL) -> list[str | None]:
    """Contents of the whole active history (``get_history(session, ALL)``)."""
    return contents(await memory.get_history(session_id, limit))


async def everything(memory: Any, session_id: str) -> list[str | None]:
    """Contents of the whole history, archived messages included (``get_full_history``)."""
    return contents(await memory.get_full_history(session_id, ALL))


def records(found: Sequence[RecentMessageRecord]) -> list[tuple[str, str | None]]:
    """Cross-session results as (session id, content) pairs."""
    return [(r.session_id, r.message.content) for r in found]
