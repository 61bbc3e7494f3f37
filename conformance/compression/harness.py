"""What a provider test holds: the store, the scripted summarizer, and the events it saw."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, Final

from aalis_memory.compression_service import CompressingEvent, CompressionService
from aalis_memory.conformance.compression.registry import ProviderContext, ProviderRegistration
from aalis_memory.conformance.compression.scripted import ScriptedSummarizer, char_tokens
from aalis_memory.summary import CompressionSettings
from aalis_memory.summary_plan import TokenCounter

#: The kit's clock starts here (2033), after every timestamp the suite writes, and ticks by 1 ms.
CLOCK_START: Final = 2_000_000_000_000

_SAME: Final[Any] = object()


class Harness:
    def __init__(self, memory: Any, registration: ProviderRegistration) -> None:
        self.memory = memory
        self.registration = registration
        self.summarizer = ScriptedSummarizer()
        self.events: list[CompressingEvent] = []
        self._ticks = itertools.count(CLOCK_START)
        self.last_tick = CLOCK_START - 1

    def clock(self) -> int:
        self.last_tick = next(self._ticks)
        return self.last_tick

    def build(
        self,
        *,
        memory: Any = _SAME,
        summarizer: Any = _SAME,
        settings: CompressionSettings | None = None,
        token_counter: TokenCounter = char_tokens,
        birth_platform: Callable[[str], str | None] | None = None,
    ) -> CompressionService:
        """A provider over the store and the scripted summarizer (``None`` makes one absent)."""
        ctx = ProviderContext(
            memory=self.memory if memory is _SAME else memory,
            summarizer=self.summarizer if summarizer is _SAME else summarizer,
            settings=settings or CompressionSettings(),
            token_counter=token_counter,
            clock=self.clock,
            birth_platform=birth_platform,
        )
        service = self.registration.factory(ctx)
        service.subscribe(self.events.append)
        return service

    def statuses(self, session_id: str) -> list[str]:
        """The statuses sent so far for ``session_id``, in order."""
        return [e.status for e in self.events if e.session_id == session_id]
