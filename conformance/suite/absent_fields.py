"""Absent optional fields come back absent (MSG-07, a reading).

A Python driver returns a ``Message``, whose absent fields are ``None`` (and
``reasoning_content`` ``ABSENT``): only ``reasoning_content`` can come back as an explicit
``None`` there. An adapter in another language returns JSON, where many stores keep an absent
field as ``null``: the bridge takes that null for absent (no other rule fails because of it) and
reports here which fields came back so.
"""

from __future__ import annotations

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.suite._builders import save_all
from aalis_memory.service import FullMemoryService, MemoryService
from aalis_memory.types import ABSENT, Message
from aalis_memory.types import RecentMessagesAcrossSessionsQuery as Query

SESSION = "s-absent"
#: Messages without any optional field but the timestamp (assistant: the cross-session read's
#: default roles include it).
BARE = (
    Message(role="assistant", content="bare", timestamp=1000),
    Message(role="assistant", content=None, timestamp=1001),
)


def _returned_as_null(aalis_memory: MemoryService) -> list[str]:
    return list(getattr(aalis_memory, "absent_fields_returned_as_null", []))


def _reasoning_absent(messages: list[Message]) -> list[bool]:
    return [m.reasoning_content is ABSENT for m in messages]


@pytest.mark.aalis_spec("MSG-07")
async def test_absent_fields_come_back_absent(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, list(BARE))
    got = await aalis_memory.get_history(SESSION, 10)
    aalis_check.equal("get_history of messages saved with no optional field", got, list(BARE))
    aalis_check.equal("reasoning_content absent in get_history", _reasoning_absent(got), [True, True])
    if callable(getattr(aalis_memory, "get_full_history", None)):
        full = await aalis_memory.get_full_history(SESSION, 10)
        aalis_check.equal(
            "reasoning_content absent in get_full_history", _reasoning_absent(full), [True, True]
        )
    aalis_check.equal(
        "optional fields the store returned as null where none was saved",
        _returned_as_null(aalis_memory),
        [],
    )


@requires.get_recent_messages_across_sessions
@pytest.mark.aalis_spec("MSG-07")
async def test_absent_fields_come_back_absent_across_sessions(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, list(BARE))
    records = await aalis_memory.get_recent_messages_across_sessions(Query(limit=5))
    aalis_check.equal(
        "reasoning_content absent in the cross-session read",
        _reasoning_absent([r.message for r in records]),
        [True, True],
    )
    aalis_check.equal(
        "optional fields the store returned as null where none was saved",
        _returned_as_null(aalis_memory),
        [],
    )
