"""The compression service over the driver under test (api-memory §压缩服务, §触发判定).

Collected only when a provider is selected (``--memory-compression-provider``). The provider is
built by the ``aalis_compression`` fixture over the store with the kit's scripted summarizer;
contents are short strings, and the kit's token counter counts one token per character. The events
a compression sends are in ``events.py``, its part in ``memory:clear`` in ``memory_clear.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Sequence
from typing import Any

import pytest

from aalis_memory.compression_service import (
    AlreadyCompressing,
    CompressionError,
    HistoryChanged,
    HistoryCleared,
    HistoryUnreadable,
    MemoryUnavailable,
    SummarizerFailed,
    SummarizerUnavailable,
)
from aalis_memory.conformance.check import Check
from aalis_memory.conformance.checks import contents
from aalis_memory.conformance.compression.harness import CLOCK_START, Harness
from aalis_memory.conformance.compression.summary import CompressionSettings
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.rules.verdict import Verdict, skip
from aalis_memory.conformance.suite._builders import conversation, marker, msg, save_all, turn
from aalis_memory.service import MemoryService
from aalis_memory.types import Message

SESSION = "s-cmp"
OTHER = "s-cmp-other"
#: Lets every pick through the token budget, for tests of other rules.
GENEROUS = CompressionSettings(picks_ratio=1.0)


async def talk(memory: MemoryService, session_id: str) -> list[str | None]:
    """Contents of the active conversation (control records left out)."""
    history: list[Message] = await memory.get_history(session_id, math.inf)
    return [m.content for m in history if not m.is_control]


async def snapshot(memory: MemoryService, session_id: str) -> list[Message]:
    return list(await memory.get_history(session_id, math.inf))


class ArchiveCalls:
    """The store, with its archive_span calls recorded."""

    def __init__(self, store: MemoryService) -> None:
        self.wrapped = store
        self.calls: list[tuple[int, list[int]]] = []

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        self.calls.append((count, sorted(keep)))
        result: int = await self.wrapped.archive_span(session_id, count, keep)
        return result

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


class UnreadableHistory:
    """The store with a get_history that fails, as a backend that lost its connection."""

    def __init__(self, store: MemoryService) -> None:
        self.wrapped = store

    async def get_history(self, session_id: str, limit: float | None = None) -> list[Message]:
        raise ConnectionError("history backend unreachable")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


async def _held_run(compression: Harness, service: Any, check: Check) -> asyncio.Task[None]:
    """compress(S), held while the summarizer works (see :meth:`Harness.held`)."""
    return await compression.held(service, SESSION, check)


# -- what a committed compression leaves ------------------------------------------------------


@pytest.mark.aalis_spec("CSV-01")
async def test_compressed_messages_are_archived_except_picks(
    aalis_compression: Harness, aalis_check: Check
) -> None:
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 10))
    aalis_compression.summarizer.picks = [3]
    await aalis_compression.build(settings=GENEROUS).compress(SESSION)
    aalis_check.equal(
        "active conversation after compress with picks [3] of m0..m9", await talk(memory, SESSION), ["m3"]
    )
    if callable(getattr(memory, "get_full_history", None)):
        full = [m.content for m in await memory.get_full_history(SESSION, math.inf) if not m.is_control]
        aalis_check.equal("get_full_history conversation after compress", full, [f"m{i}" for i in range(10)])


@pytest.mark.aalis_spec("CSV-02")
async def test_picks_stay_verbatim_in_order(aalis_compression: Harness, aalis_check: Check) -> None:
    memory = aalis_compression.memory
    rich = msg("m2", 1020, role="assistant", name="aalis", metadata={"platform": "qq"})
    history = [*conversation("m", 2), rich, *conversation("n", 5, start_ts=1030)]
    await save_all(memory, SESSION, history)
    before = await snapshot(memory, SESSION)
    aalis_compression.summarizer.picks = [5, 2, 0]
    await aalis_compression.build(settings=GENEROUS).compress(SESSION)
    kept = [m for m in await snapshot(memory, SESSION) if not m.is_control]
    aalis_check.equal(
        "active conversation after compress with picks [5, 2, 0]",
        kept,
        [before[0], before[2], before[5]],
    )


@pytest.mark.aalis_spec("CSV-03", "CSV-02")
async def test_messages_after_the_split_follow_the_picks(
    aalis_compression: Harness, aalis_checks: tuple[Check, ...]
) -> None:
    late, picks = aalis_checks
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 6))
    aalis_compression.summarizer.picks = [1]
    task = await _held_run(aalis_compression, aalis_compression.build(settings=GENEROUS), late)
    await save_all(memory, SESSION, [msg("late1", 5000), msg("late2", 5010, role="assistant")])
    aalis_compression.summarizer.release()
    await task
    got = await talk(memory, SESSION)
    late.that(
        got[-2:] == ["late1", "late2"],
        f"active conversation after compress should end with the late messages; got {got}",
    )
    picks.equal(
        "active conversation after compress with picks [1] and 2 late",
        got,
        ["m1", "late1", "late2"],
    )


@pytest.mark.aalis_spec("CSV-04")
async def test_one_archive_span_commits_it(aalis_compression: Harness, aalis_check: Check) -> None:
    await save_all(aalis_compression.memory, SESSION, [marker("old-divider", 990), *conversation("m", 6)])
    aalis_compression.summarizer.picks = [2, 4]
    recorder = ArchiveCalls(aalis_compression.memory)
    await aalis_compression.build(memory=recorder, settings=GENEROUS).compress(SESSION)
    aalis_check.equal(
        "archive_span calls (count, sorted keep) for [divider, m0..m5] with picks [2, 4] of the conversation",
        recorder.calls,
        [(7, [3, 5])],
    )


@pytest.mark.aalis_spec("CSV-05")
@pytest.mark.parametrize(("ratio", "allowed"), [(None, 10), (0.25, 25)])
async def test_picks_stay_within_the_token_budget(
    aalis_compression: Harness, ratio: float | None, allowed: int, aalis_check: Check
) -> None:
    memory = aalis_compression.memory
    history = [msg(f"{i}" * 10, 1000 + i) for i in range(10)]  # 10 tokens each, 100 in all
    await save_all(memory, SESSION, history)
    aalis_compression.summarizer.picks = list(range(10))
    settings = CompressionSettings() if ratio is None else CompressionSettings(picks_ratio=ratio)
    await aalis_compression.build(settings=settings).compress(SESSION)
    kept = sum(len(c or "") for c in await talk(memory, SESSION))
    aalis_check.that(
        kept <= allowed,
        f"picks of 100 tokens of conversation at ratio {ratio or 0.1}: expected at most {allowed} "
        f"tokens kept, got {kept}",
    )


@pytest.mark.aalis_spec("CSV-06")
async def test_picks_and_late_messages_stay_within_half_the_limit(
    aalis_compression: Harness, aalis_check: Check
) -> None:
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 8))
    aalis_compression.summarizer.picks = [0, 1, 2, 3, 4, 5]
    settings = CompressionSettings(picks_ratio=1.0, history_limit=7)  # half: 3
    task = await _held_run(aalis_compression, aalis_compression.build(settings=settings), aalis_check)
    await save_all(memory, SESSION, [msg("late1", 5000), msg("late2", 5010)])
    aalis_compression.summarizer.release()
    await task
    got = await talk(memory, SESSION)
    aalis_check.that(
        len(got) <= 3 and got[-2:] == ["late1", "late2"],
        f"history_limit 7 with 2 late messages: at most 1 pick may stay; active {got}",
    )


# -- how compress resolves and rejects ------------------------------------------------------


@pytest.mark.aalis_spec("CSV-07")
async def test_compress_resolves_after_the_commit(aalis_compression: Harness, aalis_check: Check) -> None:
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 4))
    service = aalis_compression.build()
    task = await _held_run(aalis_compression, service, aalis_check)
    aalis_check.equal(
        "active conversation while the summary is being written",
        await talk(memory, SESSION),
        ["m0", "m1", "m2", "m3"],
    )
    aalis_compression.summarizer.release()
    await task
    aalis_check.equal("active conversation as soon as compress resolved", await talk(memory, SESSION), [])


async def _commit_fails(aalis_compression: Harness) -> Any:
    """Four messages, and a provider over a memory whose archive_span raises: the commit fails."""
    await save_all(aalis_compression.memory, SESSION, conversation("m", 4))
    service = aalis_compression.build()
    watched = aalis_compression.watched
    assert watched is not None
    watched.fail_archive = True
    return service


@pytest.mark.aalis_spec("CSV-07")
async def test_a_failed_commit_rejects(aalis_compression: Harness, aalis_check: Check) -> None:
    memory = aalis_compression.memory
    service = await _commit_fails(aalis_compression)
    with aalis_check.raises("compress(s) whose archive_span failed", CompressionError):
        await service.compress(SESSION)
    aalis_check.equal(
        "active conversation after the failed commit",
        await talk(memory, SESSION),
        ["m0", "m1", "m2", "m3"],
    )


@pytest.mark.aalis_spec("CSV-08")
async def test_a_second_compress_is_rejected_while_one_runs(
    aalis_compression: Harness, aalis_check: Check
) -> None:
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 4))
    service = aalis_compression.build()
    task = await _held_run(aalis_compression, service, aalis_check)
    with aalis_check.raises("compress(s) while compress(s) runs", AlreadyCompressing):
        await service.compress(SESSION)
    aalis_compression.summarizer.release()
    await task
    aalis_check.equal(
        "summarizer calls for two overlapping compress(s)",
        len(aalis_compression.summarizer.calls),
        1,
    )
    aalis_check.equal(
        "active conversation after the first compress resolved", await talk(memory, SESSION), []
    )


@pytest.mark.aalis_spec("CSV-09", "CSV-22")
async def test_absent_memory_or_summarizer_rejects_quietly(
    aalis_compression: Harness, aalis_checks: tuple[Check, ...]
) -> None:
    rejects, quiet = aalis_checks
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 4))
    with rejects.raises("compress(s) without memory", MemoryUnavailable):
        await aalis_compression.build(memory=None).compress(SESSION)
    with rejects.raises("compress(s) without summarizer", SummarizerUnavailable):
        await aalis_compression.build(summarizer=None).compress(SESSION)
    rejects.equal(
        "active conversation after both rejections", await talk(memory, SESSION), ["m0", "m1", "m2", "m3"]
    )
    quiet.equal("events sent by both rejections", aalis_compression.statuses(SESSION), [])


@pytest.mark.aalis_spec("CSV-10", "CSV-13")
async def test_summarizer_failure_rejects_and_archives_nothing(
    aalis_compression: Harness, aalis_checks: tuple[Check, ...]
) -> None:
    rejects, events = aalis_checks
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 4))
    aalis_compression.summarizer.error = RuntimeError("model overloaded")
    with rejects.raises("compress(s) with a failing summarizer", SummarizerFailed):
        await aalis_compression.build().compress(SESSION)
    rejects.equal(
        "active conversation after the failed compress",
        await talk(memory, SESSION),
        ["m0", "m1", "m2", "m3"],
    )
    events.equal(
        "events of a compress whose summarizer failed",
        aalis_compression.statuses(SESSION),
        ["start", "error"],
    )


@pytest.mark.aalis_spec("CSV-11", "CSV-13")
async def test_history_cleared_meanwhile_rejects(
    aalis_compression: Harness, aalis_checks: tuple[Check, ...]
) -> None:
    rejects, events = aalis_checks
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 4))
    task = await _held_run(aalis_compression, aalis_compression.build(), rejects)
    await memory.clear_session(SESSION)
    await save_all(memory, SESSION, [msg("fresh", 6000)])
    aalis_compression.summarizer.release()
    with rejects.raises("compress(s) cleared while summarizing", HistoryCleared):
        await task
    rejects.equal("active conversation after the rejected compress", await talk(memory, SESSION), ["fresh"])
    events.equal(
        "events of a compress rejected for a clear",
        aalis_compression.statuses(SESSION),
        ["start", "error"],
    )


@pytest.mark.aalis_spec("CSV-11", "CSV-13")
@requires.delete_messages_by_timestamps
async def test_history_changed_meanwhile_rejects(
    aalis_compression: Harness, aalis_checks: tuple[Check, ...]
) -> None:
    rejects, events = aalis_checks
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 4))
    task = await _held_run(aalis_compression, aalis_compression.build(), rejects)
    await memory.delete_messages_by_timestamps(SESSION, [1010])  # m1, a rollback
    aalis_compression.summarizer.release()
    with rejects.raises("compress(s) with m1 deleted while summarizing", HistoryChanged):
        await task
    rejects.equal(
        "active conversation after the rejected compress", await talk(memory, SESSION), ["m0", "m2", "m3"]
    )
    events.equal(
        "events of a compress rejected for a changed history",
        aalis_compression.statuses(SESSION),
        ["start", "error"],
    )


@pytest.mark.aalis_spec("CSV-12")
@pytest.mark.parametrize("history", ["empty", "markers"])
async def test_nothing_to_compress_is_a_quiet_no_op(
    aalis_compression: Harness, history: str, aalis_check: Check
) -> None:
    memory = aalis_compression.memory
    if history == "markers":
        await save_all(memory, SESSION, [marker("d1", 1000), turn("t1", 1010)])
    before = contents(await memory.get_history(SESSION, math.inf))
    await aalis_compression.build().compress(SESSION)
    aalis_check.equal(
        f"active history after compress of a {history} history",
        contents(await memory.get_history(SESSION, math.inf)),
        before,
    )
    aalis_check.equal(f"summarizer calls for a {history} history", len(aalis_compression.summarizer.calls), 0)
    aalis_check.equal(f"events for a {history} history", aalis_compression.statuses(SESSION), [])


@pytest.mark.aalis_spec("CSV-13")
async def test_a_compression_sends_start_then_done(aalis_compression: Harness, aalis_check: Check) -> None:
    await save_all(aalis_compression.memory, SESSION, conversation("m", 3))
    await save_all(aalis_compression.memory, OTHER, conversation("o", 3))
    await aalis_compression.build().compress(SESSION)
    aalis_check.equal(
        "events of a successful compress(s)", aalis_compression.statuses(SESSION), ["start", "done"]
    )
    aalis_check.equal("events for another session", aalis_compression.statuses(OTHER), [])
    aalis_check.that(
        aalis_compression.after_commit(SESSION, "done"),
        "done must be sent once the compression is committed (its archive_span returned); "
        f"the provider did {aalis_compression.steps()}",
    )


@pytest.mark.aalis_spec("CSV-13")
async def test_a_failed_commit_sends_error_not_done(aalis_compression: Harness, aalis_check: Check) -> None:
    service = await _commit_fails(aalis_compression)
    with contextlib.suppress(Exception):  # whether and how it rejects is CSV-07's
        await service.compress(SESSION)
    aalis_check.equal(
        "events of a compress whose archive_span failed",
        aalis_compression.statuses(SESSION),
        ["start", "error"],
    )


@pytest.mark.aalis_spec("CSV-14")
async def test_compress_at_follows_the_platform_tier(aalis_compression: Harness, aalis_check: Check) -> None:
    settings = CompressionSettings(compress_at=0.7, platforms={"qq": 0.5, "discord": 0})
    born = {"s-born-qq": "qq", "s-born-discord": "discord"}
    service = aalis_compression.build(settings=settings, birth_platform=born.get)
    cases: list[tuple[str, str | None, float | None]] = [
        ("s-new", None, 0.7),
        ("s-new", "qq", 0.5),
        ("s-new", "discord", None),
        ("s-new", "telegram", 0.7),
        ("s-born-qq", "discord", 0.5),
        ("s-born-discord", "qq", None),
    ]
    for session_id, platform, expected in cases:
        aalis_check.equal(
            f"compress_at({session_id!r}, {platform!r})",
            service.compress_at(session_id, platform),
            expected,
        )
    off = aalis_compression.build(settings=CompressionSettings(compress_at=0))
    aalis_check.equal("compress_at(s) with the line at 0", off.compress_at(SESSION), None)


@pytest.mark.aalis_spec("CSV-15")
async def test_manual_compress_takes_even_a_short_conversation(
    aalis_compression: Harness, aalis_check: Check
) -> None:
    memory = aalis_compression.memory
    await save_all(memory, SESSION, [msg("hi", 1000), marker("d", 1005), msg("hello", 1010, "assistant")])
    await aalis_compression.build().compress(SESSION)
    given = [[m.content for m in call.messages] for call in aalis_compression.summarizer.calls]
    aalis_check.equal("messages given to the summarizer", given, [["hi", "hello"]])
    aalis_check.equal("active conversation after compress", await talk(memory, SESSION), [])


# -- the kit's reading of silent points -------------------------------------------------------


@pytest.mark.aalis_spec("CSV-16", "CSV-23")
async def test_summary_is_stored_and_folded_into_the_next(
    aalis_compression: Harness, aalis_checks: tuple[Check, ...]
) -> None:
    stored, one_summary = aalis_checks
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 3))
    aalis_compression.summarizer.text = "FIRST"
    service = aalis_compression.build()
    await service.compress(SESSION)
    await expect_kept(aalis_compression, service, one_summary, "after the first compress", ["FIRST"])
    summary = getattr(service, "summary", None)
    if callable(summary):
        stored.equal("summary(s) after the first compress", await summary(SESSION), "FIRST")
    history = await snapshot(memory, SESSION)
    stored.that(
        all(m.content != "FIRST" for m in history),
        f"the summary should not be a history message; active {contents(history)}",
    )
    await save_all(memory, SESSION, conversation("n", 2, start_ts=4000))
    aalis_compression.summarizer.text = "SECOND"
    await service.compress(SESSION)
    previous = [call.previous for call in aalis_compression.summarizer.calls]
    stored.equal("previous summaries handed to the summarizer", previous, [None, "FIRST"])


@pytest.mark.aalis_spec("CSV-17", "CSV-25")
async def test_one_divider_is_stamped_at_commit(
    aalis_compression: Harness, aalis_checks: tuple[Check, ...]
) -> None:
    """That a divider remains is ``divider``'s rule; how many, their role and where they sit,
    ``one_divider``'s."""
    divider, one_divider = aalis_checks
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 3))
    aalis_compression.summarizer.picks = [2]
    await aalis_compression.build(settings=GENEROUS).compress(SESSION)
    after = await snapshot(memory, SESSION)
    dividers = [m for m in after if m.is_control]
    divider.that(
        bool(dividers),
        "a committed compress(s) of a history without control records should leave a divider "
        f"(a control record, kind event-marker) in it; active {contents(after)}",
    )
    one_divider.equal(
        "control records after one compress",
        [(m.role, m.kind) for m in dividers],
        [("system", "event-marker")],
    )
    stamp = dividers[0].timestamp if dividers else None
    one_divider.that(
        stamp is not None
        and CLOCK_START <= stamp <= aalis_compression.last_tick
        and after[-1] == dividers[0],
        f"the divider should be the last active message, stamped by the clock at commit "
        f"(>= {CLOCK_START}); active {contents(after)} with stamp {stamp}",
    )


@pytest.mark.aalis_spec("CSV-18")
async def test_an_open_tool_exchange_is_not_split(aalis_compression: Harness, aalis_check: Check) -> None:
    memory = aalis_compression.memory
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    await save_all(
        memory,
        SESSION,
        [
            *conversation("m", 2),
            msg("calling", 1020, role="assistant", tool_calls=[call]),
        ],
    )
    await aalis_compression.build().compress(SESSION)
    aalis_check.equal(
        "active conversation after compress with an unanswered tool call",
        await talk(memory, SESSION),
        ["calling"],
    )


@pytest.mark.aalis_spec("CSV-18")
async def test_a_picked_tool_reply_keeps_its_call(aalis_compression: Harness, aalis_check: Check) -> None:
    memory = aalis_compression.memory
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    await save_all(
        memory,
        SESSION,
        [
            msg("ask", 1000),
            msg("calling", 1010, role="assistant", tool_calls=[call]),
            msg("result", 1020, role="tool", tool_call_id="c1"),
            msg("answer", 1030, role="assistant"),
        ],
    )
    aalis_compression.summarizer.picks = [2]
    await aalis_compression.build(settings=GENEROUS).compress(SESSION)
    aalis_check.equal(
        "active conversation after picking the tool reply",
        await talk(memory, SESSION),
        ["calling", "result"],
    )


@pytest.mark.aalis_spec("CSV-19")
async def test_picks_are_taken_in_the_summarizers_order(
    aalis_compression: Harness, aalis_check: Check
) -> None:
    memory = aalis_compression.memory
    await save_all(memory, SESSION, [msg(f"{i}" * 10, 1000 + i) for i in range(10)])
    aalis_compression.summarizer.picks = [7, 2]
    await aalis_compression.build().compress(SESSION)  # the budget holds one pick
    aalis_check.equal(
        "active conversation with budget for one of picks [7, 2]", await talk(memory, SESSION), ["7" * 10]
    )


@pytest.mark.aalis_spec("CSV-19")
@pytest.mark.parametrize(("text", "picks"), [("  ", []), ("SUMMARY", [9]), ("SUMMARY", [-1])])
async def test_an_unusable_draft_is_a_summarizer_failure(
    aalis_compression: Harness, text: str, picks: list[int], aalis_check: Check
) -> None:
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 3))
    aalis_compression.summarizer.text = text
    aalis_compression.summarizer.picks = picks
    with aalis_check.raises(f"compress(s) with draft {text!r} {picks}", SummarizerFailed):
        await aalis_compression.build().compress(SESSION)
    aalis_check.equal(
        "active conversation after the rejected draft", await talk(memory, SESSION), ["m0", "m1", "m2"]
    )


@pytest.mark.aalis_spec("CSV-20")
async def test_an_unknown_reason_is_refused(aalis_compression: Harness, aalis_check: Check) -> None:
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 3))
    service: Any = aalis_compression.build()
    with aalis_check.raises("compress(s, 'auto')", ValueError):
        await service.compress(SESSION, "auto")
    aalis_check.equal(
        "active conversation after the refused call", await talk(memory, SESSION), ["m0", "m1", "m2"]
    )
    aalis_check.equal("events of the refused call", aalis_compression.statuses(SESSION), [])


# An unreadable history has two aspects of two levels, each a test of its own: a failure of one
# must not keep the other from being checked and reported.


@pytest.mark.aalis_spec("CSV-21")
async def test_unreadable_history_rejects_with_its_reason(
    aalis_compression: Harness, aalis_check: Check
) -> None:
    await save_all(aalis_compression.memory, SESSION, conversation("m", 3))
    service = aalis_compression.build(memory=UnreadableHistory(aalis_compression.memory))
    with aalis_check.raises("compress(s) when get_history fails", HistoryUnreadable):
        await service.compress(SESSION)
    aalis_check.equal(
        "active conversation after the rejected call",
        await talk(aalis_compression.memory, SESSION),
        ["m0", "m1", "m2"],
    )


@pytest.mark.aalis_spec("CSV-22")
async def test_unreadable_history_sends_no_event(aalis_compression: Harness, aalis_check: Check) -> None:
    await save_all(aalis_compression.memory, SESSION, conversation("m", 3))
    service = aalis_compression.build(memory=UnreadableHistory(aalis_compression.memory))
    with contextlib.suppress(Exception):  # the reason it gives is CSV-21's
        await service.compress(SESSION)
    aalis_check.equal(
        "events of a call that could not read the history", aalis_compression.statuses(SESSION), []
    )


# -- the summary, and calls that fail before they start ----------------------------------------


async def expect_kept(
    compression: Harness,
    service: Any,
    check: Check,
    when: str,
    expected: list[str],
    session_id: str = SESSION,
    among: Sequence[str] = ("FIRST", "SECOND"),
) -> None:
    """The summaries (of ``among``) the provider keeps for the session must be ``expected``."""
    kept = await compression.kept(service, session_id, [*among, *expected])
    check.equal(f"summaries kept for {session_id} {when}", sorted(set(kept)), sorted(set(expected)))


@pytest.mark.aalis_spec("CSV-22")
async def test_a_call_rejected_as_already_compressing_sends_nothing(
    aalis_compression: Harness,
    aalis_check: Check,
) -> None:
    await save_all(aalis_compression.memory, SESSION, conversation("m", 4))
    service = aalis_compression.build()
    task = await _held_run(aalis_compression, service, aalis_check)
    before = aalis_compression.statuses(SESSION)
    try:
        await service.compress(SESSION)
    except AlreadyCompressing:
        rejected = True
    else:
        rejected = False
    during = aalis_compression.statuses(SESSION)
    aalis_compression.summarizer.release()
    with contextlib.suppress(CompressionError):  # how the running one ends is CSV-08's
        await task
    if not rejected:
        pytest.skip("the overlapping compress(s) was not rejected: CSV-08's finding")
    aalis_check.equal(
        "events sent by a compress(s) rejected because one was running", during[len(before) :], []
    )


@pytest.mark.aalis_spec("CSV-23", "CSV-16")
async def test_a_compression_leaves_one_summary(
    aalis_compression: Harness, aalis_checks: tuple[Check, ...]
) -> None:
    one_summary, stored = aalis_checks
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 4))
    await save_all(memory, OTHER, conversation("o", 2))
    service = aalis_compression.build()
    aalis_compression.summarizer.text = "FIRST"
    await service.compress(SESSION)
    await expect_kept(aalis_compression, service, one_summary, "after compress(s)", ["FIRST"])
    await expect_kept(
        aalis_compression, service, one_summary, "(another session) after compress(s)", [], session_id=OTHER
    )
    await save_all(memory, SESSION, conversation("n", 3, start_ts=5000))
    aalis_compression.summarizer.text = "SECOND"
    await service.compress(SESSION)
    kept = await aalis_compression.kept(service, SESSION, ["FIRST", "SECOND"])
    one_summary.that(
        "SECOND" in kept,
        f"summaries kept for {SESSION} after a second compress(s): expected the new one, SECOND, "
        f"among them; got {kept}",
    )
    # The new summary in place of the previous one is ``stored``'s rule, a reading, not the documents'.
    stored.equal(f"summaries kept for {SESSION} after a second compress(s)", kept, ["SECOND"])


@pytest.mark.aalis_spec("CSV-24", "CSV-23")
@pytest.mark.parametrize("meanwhile", ["cleared", "changed"])
async def test_a_rejected_compression_keeps_the_summary_it_found(
    aalis_compression: Harness, meanwhile: str, aalis_checks: tuple[Check, ...]
) -> None:
    rejected, one_summary = aalis_checks
    memory = aalis_compression.memory
    if meanwhile == "changed" and not callable(getattr(memory, "delete_messages_by_timestamps", None)):
        skip(
            Verdict.NOT_IMPLEMENTED,
            "the driver does not implement optional method delete_messages_by_timestamps()",
        )
    await save_all(memory, SESSION, conversation("m", 3))
    service = aalis_compression.build()
    aalis_compression.summarizer.text = "FIRST"
    await service.compress(SESSION)
    await expect_kept(aalis_compression, service, one_summary, "after the first compress", ["FIRST"])
    await save_all(memory, SESSION, conversation("n", 3, start_ts=5000))
    aalis_compression.summarizer.text = "SECOND"
    task = await _held_run(aalis_compression, service, rejected)
    if meanwhile == "cleared":
        await memory.clear_session(SESSION)  # the history only: the summaries are not asked for
    else:
        await memory.delete_messages_by_timestamps(SESSION, [5010])
    aalis_compression.summarizer.release()
    try:
        await task
    except CompressionError:
        pass  # the reason is CSV-11's
    else:
        pytest.skip(
            f"the compress(s) whose history was {meanwhile} meanwhile was committed: CSV-11's finding"
        )
    await expect_kept(
        aalis_compression,
        service,
        rejected,
        f"after a compress rejected because the history was {meanwhile}",
        ["FIRST"],
    )
