"""SummaryCompression beyond the provider suite: the automatic path, memory:clear, events, the
old import path, settings."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import pytest

from aalis_memory import ClearContext, ClearParticipant, ClearTypeRegistry, CompressionUsage
from aalis_memory.compression_service import (
    AlreadyCompressing,
    CompressingEvent,
    CompressionError,
    CompressionService,
    HistoryCleared,
)
from aalis_memory.conformance.compression import ScriptedSummarizer, char_tokens
from aalis_memory.conformance.compression.summary import (
    CLEAR_TYPE,
    SUMMARY_NAMESPACE,
    CompressionSettings,
    SummaryCompression,
)
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.events import HISTORY_CHANGED
from aalis_memory.types import Message

T = TypeVar("T")
S = "s1"


def run(scenario: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(scenario())  # type: ignore[arg-type]


async def filled(count: int = 4) -> InMemoryMemory:
    store = InMemoryMemory()
    for i in range(count):
        await store.save_message(S, Message(role="user", content=f"m{i}", timestamp=1000 + i))
    return store


def usage(**fields: Any) -> CompressionUsage:
    base: dict[str, Any] = {
        "used": 0,
        "context_window": 1000,
        "token_budget": 900,
        "compressible": 0,
        "trimmed": False,
        "history_messages": 0,
    }
    return CompressionUsage(**{**base, **fields})


def test_it_is_a_compression_service() -> None:
    service = SummaryCompression(None, None)
    assert isinstance(service, CompressionService)
    assert CompressingEvent("s", "start").to_json() == {"sessionId": "s", "status": "start"}


@pytest.mark.aalis_spec("CMP-08")
def test_compress_if_due_runs_only_when_a_line_is_reached() -> None:
    async def scenario() -> tuple[bool, bool, list[str | None]]:
        store = await filled()
        service = SummaryCompression(
            store,
            ScriptedSummarizer(),
            settings=CompressionSettings(compress_at=0.5),
            token_counter=char_tokens,
        )
        below = await service.compress_if_due(S, usage(used=499, compressible=400))
        at = await service.compress_if_due(S, usage(used=500, compressible=250))
        left = [m.content for m in await store.get_history(S, math.inf) if not m.is_control]
        return below, at, left

    assert run(scenario) == (False, True, [])


def test_compress_if_due_counts_messages_and_skips_a_running_session() -> None:
    async def scenario() -> tuple[bool, bool, bool]:
        store = await filled()
        summarizer = ScriptedSummarizer()
        service = SummaryCompression(store, summarizer, settings=CompressionSettings(history_limit=4))
        summarizer.hold()
        first = asyncio.ensure_future(service.compress(S))
        await summarizer.entered()
        overlapping = await service.compress_if_due(S, usage(history_messages=4))
        summarizer.release()
        await first
        await store.save_message(S, Message(role="user", content="new", timestamp=5000))
        below = await service.compress_if_due(S, usage(history_messages=3))
        at = await service.compress_if_due(S, usage(history_messages=4))
        return overlapping, below, at

    assert run(scenario) == (False, False, True)


@pytest.mark.aalis_spec("CLR-12", "CLR-13")
def test_memory_clear_drops_the_summaries_it_was_asked_for() -> None:
    async def scenario() -> list[Any]:
        store = await filled()
        service = SummaryCompression(store, ScriptedSummarizer(text="S1"))
        await service.compress(S)
        await store.save_metadata(SUMMARY_NAMESPACE, "s2", {"summary": "S2"})
        out: list[Any] = []
        out.append(await service.on_clear(ClearContext(scope="session", types=["vector"])))
        out.append(await service.summary(S))
        row = await service.on_clear(ClearContext(scope="session", session_id=S))
        out.append((row.type, row.success) if row else None)
        out.append((await service.summary(S), await service.summary("s2")))
        await service.on_clear(ClearContext(scope="all", types=["summary"]))
        out.append(await store.list_metadata_keys(SUMMARY_NAMESPACE))
        service.memory = None
        gone = await service.on_clear(ClearContext(scope="all"))
        out.append(gone.success if gone else None)
        return out

    assert run(scenario) == [None, "S1", ("summary", True), (None, "S2"), [], False]


def test_a_failing_listener_does_not_decide_and_unsubscribe_works() -> None:
    async def scenario() -> list[str]:
        store = await filled()
        service = SummaryCompression(store, ScriptedSummarizer())
        seen: list[str] = []

        def explode(event: CompressingEvent) -> None:
            raise RuntimeError("listener bug")

        service.subscribe(explode)
        stop = service.subscribe(lambda e: seen.append(e.status))
        await service.compress(S)
        stop()
        stop()
        await store.save_message(S, Message(role="user", content="again", timestamp=5000))
        await service.compress(S)
        return seen

    assert run(scenario) == ["start", "done"]


@pytest.mark.parametrize(
    "fields",
    [
        {"compress_at": -1},
        {"compress_at": None},
        {"platforms": {"qq": math.nan}},
        {"history_limit": -1},
        {"history_limit": 1.5},
        {"picks_ratio": 1.5},
        {"picks_ratio": None},
    ],
)
def test_bad_settings_are_refused(fields: dict[str, Any]) -> None:
    with pytest.raises((TypeError, ValueError)):
        CompressionSettings(**fields)


def test_errors_name_their_reason() -> None:
    error = AlreadyCompressing("s9", "busy")
    assert isinstance(error, CompressionError)
    assert error.reason == "already-compressing"
    assert str(error) == "compression of session 's9' rejected: already-compressing (busy)"


def test_session_id_must_be_a_string() -> None:
    service = SummaryCompression(InMemoryMemory(), ScriptedSummarizer())
    with pytest.raises(TypeError):
        run(lambda: service.compress(7))  # type: ignore[arg-type]


@pytest.mark.aalis_spec("CLR-14")
def test_the_summary_clear_type_is_registered() -> None:
    """``/clear -t summary`` is accepted: the type the rows carry is a registered one."""
    service = SummaryCompression(None, None)
    assert isinstance(service, ClearParticipant)
    registry = ClearTypeRegistry(service.clear_types)
    assert registry.ids() == [CLEAR_TYPE]
    assert registry.unknown(["summary"]) == []
    assert registry.label(CLEAR_TYPE) == "对话摘要"


@pytest.mark.aalis_spec("CLR-16")
@pytest.mark.parametrize("types", [None, ["context", "summary"], ["summary"]])
def test_a_clear_during_a_compression_is_not_undone(types: list[str] | None) -> None:
    """The old provider stored the new summary, found the history cleared, and put the previous
    summary back over the clear; now the clear wins, whatever it was asked to clear."""

    async def scenario() -> tuple[str | None, list[str], list[str]]:
        store = await filled()
        summarizer = ScriptedSummarizer(text="FIRST")
        service = SummaryCompression(store, summarizer)
        await service.compress(S)
        await store.save_message(S, Message(role="user", content="later", timestamp=5000))
        summarizer.text = "SECOND"
        summarizer.hold()
        statuses: list[str] = []
        service.subscribe(lambda e: statuses.append(e.status))
        running = asyncio.ensure_future(service.compress(S))
        await summarizer.entered()
        if types is None or "context" in types:
            await store.clear_session(S)
        await service.on_clear(ClearContext(scope="session", session_id=S, types=types))
        summarizer.release()
        with pytest.raises(HistoryCleared):
            await running
        return await service.summary(S), await store.list_metadata_keys(SUMMARY_NAMESPACE), statuses

    assert run(scenario) == (None, [], ["start", "error"])


def test_a_clear_of_all_sessions_during_the_commit_wins() -> None:
    """A clear that lands after the summary was stored and before the archive: the compression
    commits (its history is intact) and the stored summary is removed again."""

    class ClearsDuringArchive(InMemoryMemory):
        service: SummaryCompression | None = None

        async def archive_span(self, session_id: str, count: int, keep: Any = ()) -> int:
            assert self.service is not None
            await self.service.on_clear(ClearContext(scope="all", types=["summary"]))
            return await super().archive_span(session_id, count, keep)

    async def scenario() -> tuple[str | None, list[str | None]]:
        store = ClearsDuringArchive()
        for i in range(3):
            await store.save_message(S, Message(role="user", content=f"m{i}", timestamp=1000 + i))
        service = SummaryCompression(store, ScriptedSummarizer(text="S1"))
        store.service = service
        await service.compress(S)
        return await service.summary(S), [m.content for m in await store.get_history(S, math.inf)]

    assert run(scenario) == (None, ["对话已压缩"])


@pytest.mark.aalis_spec("EVT-01")
def test_history_changed_goes_to_the_host_bus_also_on_the_automatic_path() -> None:
    async def scenario() -> list[tuple[str, dict[str, Any]]]:
        store = await filled()
        sent: list[tuple[str, dict[str, Any]]] = []

        def bus(name: str, payload: Mapping[str, Any], /) -> None:
            sent.append((name, dict(payload)))

        service = SummaryCompression(
            store, ScriptedSummarizer(), settings=CompressionSettings(history_limit=4), emit=bus
        )
        await service.compress_if_due(S, usage(history_messages=4))
        return sent

    assert run(scenario) == [(HISTORY_CHANGED, {"sessionId": S})]


def test_a_failing_event_bus_does_not_decide() -> None:
    async def scenario() -> list[str | None]:
        store = await filled()

        def broken_bus(name: str, payload: Mapping[str, Any], /) -> None:
            raise RuntimeError("bus down")

        await SummaryCompression(store, ScriptedSummarizer(), emit=broken_bus).compress(S)
        return [m.content for m in await store.get_history(S, math.inf) if not m.is_control]

    assert run(scenario) == []
