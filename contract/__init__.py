"""The Aalis MemoryService storage contract in Python, and its conformance kit.

The contract types live here; the kit is :mod:`aalis_memory.conformance`, the reference
backends are :mod:`aalis_memory.drivers`.
"""

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
]
