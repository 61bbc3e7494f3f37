"""The reference provider as the kit sees it."""

from __future__ import annotations

from aalis_memory.conformance.compression.registry import ProviderContext, compression_provider
from aalis_memory.conformance.compression.summary import SummaryCompression


@compression_provider("summary")
def summary(ctx: ProviderContext) -> SummaryCompression:
    """SummaryCompression, the reference provider (summary in metadata, picks by archive_span)."""
    return SummaryCompression(
        ctx.memory,
        ctx.summarizer,
        settings=ctx.settings,
        token_counter=ctx.token_counter,
        birth_platform=ctx.birth_platform,
        clock=ctx.clock,
        emit=ctx.emit,
    )
