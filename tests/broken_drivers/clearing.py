"""Broken stores that defeat clear_metadata_namespaces, each caught by exactly the rules it lists.

The helper only sees a store through its listings and one batch, so every break here is a
listing bug: each declares the metadata rule its listing breaks, and the CLR rules, whose checks
stand on those listings, are blocked by it (broken helpers, which fail the CLR rules, are in
tests/broken_helpers.py). Metadata drivers reach the helper too (meta-keys-skip-unreadable,
meta-list-raises-on-corrupt, commit-one-namespace, commit-del-reads-old-value in metadata.py).
"""

from __future__ import annotations

from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.types import MetadataEntry
from broken_drivers import broken


@broken("clr-keys-duplicated", "META-10")
class KeysDuplicated(InMemoryMemory):
    """list_metadata_keys unions two index scans without de-duplicating, so each key comes twice.

    META-10: a listing of "every key of the namespace" names each key once. The helper returns and
    logs what this listing gives it, so CLR-05..07 stand on META-10 and are blocked by it.
    """

    async def list_metadata_keys(self, namespace: str) -> list[str]:
        keys = await super().list_metadata_keys(namespace)
        return keys + keys


@broken("clr-list-unreadable-as-empty", "META-09")
class ListUnreadableAsEmpty(InMemoryMemory):
    """list_metadata turns an unreadable entry into an empty object instead of skipping it.

    META-09: list_metadata "skips entries it cannot read". The helper tells unreadable entries
    by their absence from list_metadata, so CLR-07 and CLR-08 stand on META-09 and are blocked.
    """

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        return [
            MetadataEntry(key=key, data=sem.decode_object(stored.text) or {}, updated_at=stored.updated_at)
            for key, stored in sorted(self._metadata.get(namespace, {}).items())
        ]
