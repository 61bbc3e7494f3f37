"""Conformance for ``compression`` providers: register one, run ``pytest --memory-driver=NAME
--memory-compression-provider=NAME``; the kit drives it with a scripted summarizer over the memory
driver."""

from aalis_memory.conformance.compression.registry import (
    ProviderContext,
    ProviderRegistration,
    compression_provider,
)
from aalis_memory.conformance.compression.scripted import ScriptedSummarizer, char_tokens

__all__ = [
    "ProviderContext",
    "ProviderRegistration",
    "ScriptedSummarizer",
    "char_tokens",
    "compression_provider",
]
