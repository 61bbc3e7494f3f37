"""Readers the suite uses to look at a store: contents in order, the form most checks compare."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from aalis_memory.conformance.checks import contents
from aalis_memory.types import RecentMessageRecord


async def active(memory: Any, session_id: str, limit: float = math.inf) -> list[str | None]:
    """Contents of the whole active history (``get_history(session, inf)``).

    Tests of other rules over more than 50 messages pass a finite ``limit`` above their size, so
    a driver that mishandles ``math.inf`` fails LIM-02 alone.
    """
    return contents(await memory.get_history(session_id, limit))


async def everything(memory: Any, session_id: str) -> list[str | None]:
    """Contents of the whole history, archived messages included (``get_full_history``)."""
    return contents(await memory.get_full_history(session_id, math.inf))


def records(found: Sequence[RecentMessageRecord]) -> list[tuple[str, str | None]]:
    """Cross-session results as (session id, content) pairs."""
    return [(r.session_id, r.message.content) for r in found]
