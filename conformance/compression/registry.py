"""Provider registration, the compression twin of :mod:`aalis_memory.conformance.registration.registry`.

A provider factory gets a :class:`ProviderContext` (the store under test, the kit's scripted
summarizer, settings, token counter, clock) and returns a ``CompressionService``; the kit needs
those knobs to check the numbers the document promises.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Final, TypeAlias

import attrs

from aalis_memory.compression_service import CompressionService
from aalis_memory.conformance.compression.summary import CompressionSettings, Summarizer
from aalis_memory.conformance.compression.summary_plan import TokenCounter
from aalis_memory.conformance.registration.named_registry import NamedRegistry
from aalis_memory.events import EventSink

ENTRY_POINT_GROUP: Final = "aalis_memory.compression_providers"


@attrs.frozen(kw_only=True)
class ProviderContext:
    """What a provider is built from in one test; ``None`` memory or summarizer means absent.

    ``emit`` is the host event bus: a provider sends the memory change events of its archiving
    (``history:changed``) there. A provider that keeps data in metadata also implements
    :class:`aalis_memory.ClearParticipant` (``clear_types`` and ``on_clear``), which the kit calls.
    """

    memory: Any
    summarizer: Summarizer | None
    settings: CompressionSettings
    token_counter: TokenCounter
    clock: Callable[[], int]
    birth_platform: Callable[[str], str | None] | None = None
    emit: EventSink | None = None


ProviderFactory: TypeAlias = Callable[[ProviderContext], CompressionService]


@attrs.frozen(kw_only=True)
class ProviderRegistration:
    name: str
    factory: ProviderFactory
    description: str = ""


_REGISTRY: NamedRegistry[ProviderRegistration] = NamedRegistry(
    "compression provider", ENTRY_POINT_GROUP, ProviderRegistration, "@compression_provider"
)
add_registration = _REGISTRY.add
registered = _REGISTRY.registered
get = _REGISTRY.get
select = _REGISTRY.select


def compression_provider(name: str) -> Callable[[ProviderFactory], ProviderRegistration]:
    """Register a provider factory under ``name`` (in a ``conftest.py`` or an entry point)."""

    def register(factory: ProviderFactory) -> ProviderRegistration:
        if not callable(factory):
            raise TypeError(f"compression provider {name!r}: the factory must be callable")
        registration = ProviderRegistration(
            name=name,
            factory=factory,
            description=(inspect.getdoc(factory) or "").split("\n")[0],
        )
        add_registration(registration)
        return registration

    return register


def load_entry_points() -> None:
    """Register every ``aalis_memory.compression_providers`` entry point (the kit's reference
    provider registers when :mod:`.reference` is imported, as the plugin does)."""
    _REGISTRY.load_entry_points()
