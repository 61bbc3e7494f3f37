"""The memory change events a compression sends (api-memory §记忆变更事件): archiving changes the
structure of a session's history, so the provider, the party that changed it, sends
``history:changed``; it deletes and rewrites nothing, so it sends neither of the other two.

Collected only when a provider is selected; the provider's event bus is the harness's recorder.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from aalis_memory.compression_service import CompressionError
from aalis_memory.conformance.check import Check
from aalis_memory.conformance.compression.harness import Harness, Step
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.suite._builders import conversation, marker, save_all
from aalis_memory.events import HISTORY_CHANGED, MESSAGES_DELETED, MESSAGES_REWRITTEN

SESSION = "s-evt"
OTHER = "s-evt-other"
GENEROUS_PICKS = [1, 3]


async def _rejected(compression: Harness, service: Any) -> None:
    """Await a compress(S) expected to be rejected; a commit instead is another rule's finding."""
    try:
        await service.compress(SESSION)
    except CompressionError:
        return
    pytest.skip("the compress(s) expected to be rejected was committed: another rule's finding")


@pytest.mark.aalis_spec("EVT-01")
async def test_a_committed_compression_sends_history_changed(
    aalis_compression: Harness, aalis_check: Check
) -> None:
    await save_all(aalis_compression.memory, SESSION, conversation("m", 5))
    await save_all(aalis_compression.memory, OTHER, conversation("o", 2))
    aalis_compression.summarizer.picks = GENEROUS_PICKS
    await aalis_compression.build().compress(SESSION)
    sent = [(name, payload) for name, payload in aalis_compression.changes if name == HISTORY_CHANGED]
    aalis_check.that(
        (HISTORY_CHANGED, {"sessionId": SESSION}) in sent,
        f"events after compress(s) committed: expected history:changed {{sessionId: {SESSION!r}}}, "
        f"got {aalis_compression.changes}",
    )
    timeline = aalis_compression.timeline
    archived = Step("archive", SESSION)
    first = timeline.index(Step("event", HISTORY_CHANGED))
    aalis_check.that(
        archived in timeline[:first],
        f"history:changed must follow the archive that changed the history; the provider did "
        f"{[f'{step.what} {step.detail}' for step in timeline]}",
    )


@pytest.mark.aalis_spec("EVT-02")
async def test_a_compression_deletes_and_rewrites_nothing(
    aalis_compression: Harness, aalis_check: Check
) -> None:
    memory = aalis_compression.memory
    await save_all(memory, SESSION, [marker("old divider", 990), *conversation("m", 5)])
    aalis_compression.summarizer.picks = GENEROUS_PICKS
    service = aalis_compression.build()
    await service.compress(SESSION)
    await save_all(memory, SESSION, conversation("late", 3, start_ts=5000))
    aalis_compression.summarizer.error = RuntimeError("model overloaded")
    with contextlib.suppress(CompressionError):  # whether it rejects is CSV-10's
        await service.compress(SESSION)
    wrong = [
        (name, payload)
        for name, payload in aalis_compression.changes
        if name in (MESSAGES_DELETED, MESSAGES_REWRITTEN)
    ]
    aalis_check.equal(
        "memory:messages-deleted / -rewritten sent by a committed and a rejected compress",
        wrong,
        [],
    )


@pytest.mark.aalis_spec("EVT-03")
async def test_history_changed_at_most_once_and_only_for_an_archive(
    aalis_compression: Harness,
    aalis_check: Check,
) -> None:
    memory = aalis_compression.memory
    service = aalis_compression.build()
    await service.compress(SESSION)  # nothing to compress
    aalis_check.equal("events of a compress with nothing to compress", aalis_compression.sent(SESSION), [])
    await save_all(memory, SESSION, conversation("m", 4))
    aalis_compression.summarizer.error = RuntimeError("model overloaded")
    await _rejected(aalis_compression, service)
    aalis_check.equal(
        "events of a compress rejected for a failing summarizer", aalis_compression.sent(SESSION), []
    )
    aalis_compression.summarizer.error = None
    await service.compress(SESSION)
    aalis_check.that(
        aalis_compression.sent(SESSION).count(HISTORY_CHANGED) <= 1,
        "events of one committed compress: at most one history:changed, "
        f"got {aalis_compression.sent(SESSION)}",
    )


@pytest.mark.aalis_spec("EVT-03")
@requires.delete_messages_by_timestamps
async def test_no_history_changed_for_a_compression_rejected_meanwhile(
    aalis_compression: Harness,
    aalis_check: Check,
) -> None:
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("m", 4))
    task = await aalis_compression.held(aalis_compression.build(), SESSION, aalis_check)
    await memory.delete_messages_by_timestamps(SESSION, [1010])
    aalis_compression.summarizer.release()
    try:
        await task
    except CompressionError:
        pass
    else:
        pytest.skip("the compress(s) whose history changed meanwhile was committed: CSV-11's finding")
    aalis_check.equal(
        "events of a compress rejected for a changed history", aalis_compression.sent(SESSION), []
    )
