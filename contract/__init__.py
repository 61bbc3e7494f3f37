"""The Aalis MemoryService storage contract in Python, and its conformance kit.

The contract types live here (the change events in :mod:`aalis_memory.events`); the kit is
:mod:`aalis_memory.conformance`, the reference backends and the reference compression provider
are :mod:`aalis_memory.drivers`.
"""

from aalis_memory.clearing import (
    ClearContext,
    ClearParticipant,
    ClearResult,
    ClearTypeContribution,
    ClearTypeRegistry,
    clear_metadata_namespaces,
    history_cleared,
)
from aalis_memory.compression import (
    CompressionLines,
    CompressionUsage,
    compression_due,
    compression_line,
)
from aalis_memory.service import (
    OPTIONAL_METHODS,
    REQUIRED_METHODS,
    FullMemoryService,
    Limit,
    MemoryService,
)
from aalis_memory.types import (
    ABSENT,
    CONTROL_KINDS,
    JsonObject,
    Message,
    MetadataDel,
    MetadataEntry,
    MetadataOp,
    MetadataPut,
    RecentMessageRecord,
    RecentMessagesAcrossSessionsQuery,
)

__all__ = [
    "ABSENT",
    "CONTROL_KINDS",
    "OPTIONAL_METHODS",
    "REQUIRED_METHODS",
    "ClearContext",
    "ClearParticipant",
    "ClearResult",
    "ClearTypeContribution",
    "ClearTypeRegistry",
    "CompressionLines",
    "CompressionUsage",
    "FullMemoryService",
    "JsonObject",
    "Limit",
    "MemoryService",
    "Message",
    "MetadataDel",
    "MetadataEntry",
    "MetadataOp",
    "MetadataPut",
    "RecentMessageRecord",
    "RecentMessagesAcrossSessionsQuery",
    "clear_metadata_namespaces",
    "compression_due",
    "compression_line",
    "history_cleared",
]
