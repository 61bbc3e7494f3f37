"""The kit's summarizer: deterministic summaries and picks, failures and pauses on demand.

Pauses are events, not sleeps: a test holds the summarizer, waits until it was entered, acts on
the store, then releases it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import attrs

from aalis_memory.conformance.compression.summary import SummaryDraft
from aalis_memory.types import Message

Picks = Sequence[int] | Callable[[Sequence[Message]], Sequence[int]]


def char_tokens(message: Message) -> int:
    """One token per character of content: budgets in tests are easy to read."""
    return len(message.content or "")


@attrs.frozen
class SummaryCall:
    messages: tuple[Message, ...]
    previous: str | None


class ScriptedSummarizer:
    def __init__(self, text: str = "SUMMARY", picks: Picks = ()) -> None:
        self.text = text
        self.picks = picks
        self.error: BaseException | None = None
        self.calls: list[SummaryCall] = []
        self._entered: asyncio.Event | None = None
        self._release: asyncio.Event | None = None

    def hold(self) -> None:
        """The next call waits for :meth:`release` (after signalling :meth:`entered`); calls
        after it run straight through, so a provider that overlaps runs cannot hang a test."""
        self._entered = asyncio.Event()
        self._release = asyncio.Event()

    async def entered(self) -> None:
        assert self._entered is not None, "hold() first"
        await self._entered.wait()

    def release(self) -> None:
        assert self._release is not None, "hold() first"
        self._release.set()

    async def summarize(self, messages: Sequence[Message], previous: str | None) -> SummaryDraft:
        self.calls.append(SummaryCall(tuple(messages), previous))
        entered, release = self._entered, self._release
        if entered is not None and release is not None and not entered.is_set():
            entered.set()
            await release.wait()
        if self.error is not None:
            raise self.error
        picks: Sequence[int] = self.picks(messages) if callable(self.picks) else self.picks
        return SummaryDraft(self.text, tuple(picks))
