"""Broken stores that defeat clear_metadata_namespaces, each caught by exactly the rules it lists.

The helper only sees a store through its listings and one batch, so every break here is a
listing bug; the metadata rules it also breaks are listed with the CLR ones. Other CLR rules are
caught by metadata drivers too (meta-keys-skip-unreadable, meta-list-raises-on-corrupt,
commit-one-namespace, commit-del-reads-old-value in metadata.py).
"""

from __future__ import annotations

from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.types import MetadataEntry
from broken_drivers import broken


@broken("clr-keys-duplicated", "META-10", "CLR-05", "CLR-06", "CLR-07")
class KeysDuplicated(InMemoryMemory):
    """list_metadata_keys unions two index scans without de-duplicating, so each key comes twice."""

    async def list_metadata_keys(self, namespace: str) -> list[str]:
        keys = await super().list_metadata_keys(namespace)
        return keys + keys


@broken("clr-list-unreadable-as-empty", "META-09", "CLR-07", "CLR-08")
class ListUnreadableAsEmpty(InMemoryMemory):
    """list_metadata turns an unreadable entry into an empty object instead of skipping it."""

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        return [
            MetadataEntry(
                key=key, data=sem.decode_object(stored.text) or {}, updated_at=stored.updated_at
            )
            for key, stored in sorted(self._metadata.get(namespace, {}).items())
        ]
