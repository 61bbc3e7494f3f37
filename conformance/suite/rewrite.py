"""update_message_content and delete_messages_by_timestamps (api-memory §核心方法 and
§记忆变更事件)."""

from __future__ import annotations

import math

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.checks import contents
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.suite._builders import marker, msg, save_all
from aalis_memory.conformance.suite._reads import ALL, active, as_read, everything
from aalis_memory.service import FullMemoryService
from aalis_memory.types import Message

SESSION = "s-rw"
OTHER = "s-rw-other"


def _cats(count: int) -> list[Message]:
    return [msg(f"cat {i}", 1000 + i * 10) for i in range(count)]


# -- update_message_content -------------------------------------------------------------------


@requires.update_message_content
@pytest.mark.aalis_spec("LIM-03")
async def test_update_recent_limit_zero_changes_nothing(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, _cats(3))
    changed = await aalis_memory.update_message_content(SESSION, "cat", "dog", 0)
    # its own answer first: that check stands on no read of another rule
    aalis_check.equal("update_message_content(s, cat, dog, 0)", changed, 0)
    aalis_check.equal(
        "get_history after update_message_content(s, cat, dog, 0)",
        await active(aalis_memory, SESSION),
        ["cat 0", "cat 1", "cat 2"],
    )


@requires.update_message_content
@pytest.mark.aalis_spec("LIM-03")
async def test_update_recent_limit_inf_covers_all_active(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, _cats(120))
    changed = await aalis_memory.update_message_content(SESSION, "cat", "dog", math.inf)
    aalis_check.equal("update_message_content(s, cat, dog, inf) over 120 matches", changed, 120)
    aalis_check.equal(
        "get_history after update_message_content(s, cat, dog, inf)",
        await active(aalis_memory, SESSION, 1000),
        [f"dog {i}" for i in range(120)],
    )


@requires.update_message_content
@pytest.mark.aalis_spec("UPD-01")
async def test_update_window_is_newest_active_with_markers(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(
        aalis_memory,
        SESSION,
        [
            msg("cat a", 100),
            msg("cat b", 200),
            msg("cat c", 300),
            marker("divider", 400),
            msg("cat e", 500),
        ],
    )
    changed = await aalis_memory.update_message_content(SESSION, "cat", "dog", 3)
    aalis_check.equal(
        "get_history after update_message_content(s, cat, dog, 3)",
        await active(aalis_memory, SESSION),
        ["cat a", "cat b", "dog c", "divider", "dog e"],
    )
    aalis_check.equal("update_message_content(s, cat, dog, 3)", changed, 2)


@requires.update_message_content
@pytest.mark.aalis_spec("UPD-01")
async def test_update_window_skips_archived(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(
        aalis_memory,
        SESSION,
        [
            msg("cat a", 100),
            msg("cat b", 200),
            msg("cat c", 300),
            msg("plain d", 400),
            msg("plain e", 500),
        ],
    )
    await aalis_memory.archive_span(SESSION, 2)
    changed = await aalis_memory.update_message_content(SESSION, "cat", "dog", 3)
    aalis_check.equal("update_message_content(s, cat, dog, 3) after archiving a, b", changed, 1)
    changed = await aalis_memory.update_message_content(SESSION, "cat", "cow", ALL)
    aalis_check.equal("update_message_content(s, cat, cow, ALL) after archiving a, b", changed, 0)
    aalis_check.equal(
        "get_history after the two updates",
        await active(aalis_memory, SESSION),
        ["dog c", "plain d", "plain e"],
    )


@requires.get_full_history
@requires.update_message_content
@pytest.mark.aalis_spec("UPD-01")
async def test_update_leaves_archived_text_alone(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, [msg("cat a", 100), msg("cat b", 200), msg("cat c", 300)])
    await aalis_memory.archive_span(SESSION, 1)
    await aalis_memory.update_message_content(SESSION, "cat", "dog", ALL)
    aalis_check.equal(
        "get_full_history after archiving a and updating cat -> dog",
        await everything(aalis_memory, SESSION),
        ["cat a", "dog b", "dog c"],
    )


#: The stamps of the messages the rewrite below must leave as they were (no match, a case
#: mismatch, no content, a match only outside content).
UNTOUCHED = (200, 300, 400)


@requires.update_message_content
@pytest.mark.aalis_spec("UPD-02", "UPD-04")
async def test_update_rewrites_every_occurrence_case_sensitively(
    aalis_memory: FullMemoryService, aalis_checks: tuple[Check, ...]
) -> None:
    rewrites, stamps = aalis_checks
    segments = ({"type": "text", "content": "world"},)
    saved = [
        msg("hello world, world", 100),
        msg("Hello World", 200),
        Message(role="assistant", content=None, timestamp=300),
        msg("no match", 400, role="assistant", reasoning_content="world", segments=segments),
        msg("worldworld", 500),
    ]
    await save_all(aalis_memory, SESSION, saved)
    before = as_read(await aalis_memory.get_history(SESSION, 10))
    changed = await aalis_memory.update_message_content(SESSION, "world", "earth", 10)
    got = await aalis_memory.get_history(SESSION, 10)
    stamps.equal(
        "timestamps (sorted) after update_message_content(s, world, earth)",
        sorted(m.timestamp or 0 for m in got),
        [100, 200, 300, 400, 500],
    )
    rewrites.equal(
        "contents after update_message_content(s, world, earth, 10)",
        contents(got),
        ["hello earth, earth", "Hello World", None, "no match", "earthearth"],
    )
    rewrites.fields(
        "untouched messages after update_message_content(s, world, earth), as get_history showed them before",
        [m for m in got if m.timestamp in UNTOUCHED],
        [m for m in before if m.timestamp in UNTOUCHED],
        read_rule="HIST-05",
    )
    rewrites.equal("update_message_content(s, world, earth, 10)", changed, 2)


@requires.update_message_content
@pytest.mark.aalis_spec("UPD-04")
async def test_update_keeps_the_timestamps_of_rewritten_messages(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    """The rewritten messages keep their stamps: downstream indexes find the old entry by session
    and timestamp to replace it."""
    await save_all(
        aalis_memory,
        SESSION,
        [msg("cat 0", 1000), marker("d", 1010), msg("dog", 1020, role="assistant"), msg("cat 3", 1030)],
    )
    await aalis_memory.update_message_content(SESSION, "cat", "lion", ALL)
    got = await aalis_memory.get_history(SESSION, ALL)
    aalis_check.equal(
        "(content, timestamp) after update_message_content(s, cat, lion)",
        sorted((m.timestamp or 0, m.content) for m in got),
        [(1000, "lion 0"), (1010, "d"), (1020, "dog"), (1030, "lion 3")],
    )


@requires.update_message_content
@pytest.mark.aalis_spec("UPD-02")
async def test_update_without_a_match_changes_nothing(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, _cats(3))
    changed = await aalis_memory.update_message_content(SESSION, "CAT", "dog", 10)
    aalis_check.equal("update_message_content(s, CAT, dog, 10) over lower-case cats", changed, 0)
    aalis_check.equal(
        "get_history after update_message_content(s, CAT, dog, 10)",
        await active(aalis_memory, SESSION),
        ["cat 0", "cat 1", "cat 2"],
    )


@requires.update_message_content
@pytest.mark.aalis_spec("UPD-02")
async def test_update_to_the_same_text_counts_nothing(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    """Counting matches instead of changes (MongoDB's matched vs modified count) would tell the
    caller, who re-indexes what changed, that unchanged messages were rewritten."""
    await save_all(aalis_memory, SESSION, _cats(3))
    changed = await aalis_memory.update_message_content(SESSION, "cat", "cat", 10)
    aalis_check.equal("update_message_content(s, cat, cat, 10) over three cats", changed, 0)
    aalis_check.equal(
        "get_history after update_message_content(s, cat, cat, 10)",
        await active(aalis_memory, SESSION),
        ["cat 0", "cat 1", "cat 2"],
    )


@requires.update_message_content
@pytest.mark.aalis_spec("UPD-03")
async def test_update_with_empty_old_text_raises(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, _cats(2))
    with aalis_check.raises("update_message_content(s, '', dog)", ValueError):
        await aalis_memory.update_message_content(SESSION, "", "dog", 10)
    aalis_check.equal(
        "get_history after update_message_content(s, '', dog)",
        await active(aalis_memory, SESSION),
        ["cat 0", "cat 1"],
    )


# -- delete_messages_by_timestamps --------------------------------------------------------------


@requires.delete_messages_by_timestamps
@pytest.mark.aalis_spec("DEL-01")
async def test_delete_by_timestamps_reaches_archived(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(
        aalis_memory,
        SESSION,
        [
            msg("a", 100),
            msg("b", 200),
            msg("c", 300),
            msg("d", 300),
            msg("e", 400),
        ],
    )
    await aalis_memory.archive_span(SESSION, 2)
    deleted = await aalis_memory.delete_messages_by_timestamps(SESSION, [100, 300, 999])
    aalis_check.equal("delete_messages_by_timestamps(s, [100, 300, 999])", deleted, 3)
    aalis_check.equal("get_history after deleting 100, 300", await active(aalis_memory, SESSION), ["e"])


@requires.get_full_history
@requires.delete_messages_by_timestamps
@pytest.mark.aalis_spec("DEL-01")
async def test_delete_by_timestamps_removes_from_full_history(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, [msg("a", 100), msg("b", 200), msg("c", 300), msg("d", 400)])
    await aalis_memory.archive_span(SESSION, 2)
    await aalis_memory.delete_messages_by_timestamps(SESSION, [200, 300])
    aalis_check.equal(
        "get_full_history after deleting archived b and active c",
        await everything(aalis_memory, SESSION),
        ["a", "d"],
    )


@requires.delete_messages_by_timestamps
@pytest.mark.aalis_spec("DEL-02")
async def test_delete_by_empty_list_returns_zero(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, [msg("a", 100), msg("b", 200)])
    deleted = await aalis_memory.delete_messages_by_timestamps(SESSION, [])
    aalis_check.equal("delete_messages_by_timestamps(s, [])", deleted, 0)
    aalis_check.equal("get_history after deleting []", await active(aalis_memory, SESSION), ["a", "b"])


@requires.delete_messages_by_timestamps
@pytest.mark.aalis_spec("MSG-06")
async def test_delete_by_timestamps_stays_in_its_session(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await save_all(aalis_memory, SESSION, [msg("a", 100), msg("b", 200)])
    await save_all(aalis_memory, OTHER, [msg("x", 100), msg("y", 200)])
    deleted = await aalis_memory.delete_messages_by_timestamps(SESSION, [100])
    aalis_check.equal(
        "get_history(other) after deleting 100 in s", await active(aalis_memory, OTHER), ["x", "y"]
    )
    aalis_check.equal("delete_messages_by_timestamps(s, [100]) with x@100 in other", deleted, 1)
