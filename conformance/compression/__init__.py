"""Conformance for ``compression`` providers: register one, run ``pytest --memory-driver=NAME
--memory-compression-provider=NAME``; the kit drives it with a scripted summarizer over the memory
driver.

What a provider factory receives (:class:`ProviderContext`) is built from the types re-exported
here: the summarizer protocol and its draft, the settings, the token counter.
"""

from aalis_memory.conformance.compression.registry import (
    ProviderContext,
    ProviderRegistration,
    compression_provider,
)
from aalis_memory.conformance.compression.scripted import ScriptedSummarizer, char_tokens
from aalis_memory.conformance.compression.summary import CompressionSettings, Summarizer, SummaryDraft
from aalis_memory.conformance.compression.summary_plan import TokenCounter

__all__ = [
    "CompressionSettings",
    "ProviderContext",
    "ProviderRegistration",
    "ScriptedSummarizer",
    "Summarizer",
    "SummaryDraft",
    "TokenCounter",
    "char_tokens",
    "compression_provider",
]
