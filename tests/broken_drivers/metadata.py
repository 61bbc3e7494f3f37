"""Broken metadata stores: each one a realistic bug, caught by exactly the rules it declares."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Sequence
from typing import Any

import attrs

from aalis_memory.conformance.registration.registry import Capabilities
from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.inmemory import InMemoryMemory, StoredMetadata
from aalis_memory.types import JsonObject, MetadataDel, MetadataEntry, MetadataOp, MetadataPut
from broken_drivers import broken

#: clear_metadata_namespaces (suite/clear_namespaces.py) is built on list_metadata_keys, list_metadata
#: and batch dels: a store that breaks those makes the helper's checks blocked by the store rule
#: (its calls are steps standing on it), never failed.


@broken("meta-missing-as-empty", "META-01")
class MissingAsEmpty(InMemoryMemory):
    """get_metadata answers {} for a key that was never saved (a `.get(key, {})` bug)."""

    async def get_metadata(self, namespace: str, key: str) -> JsonObject | None:
        return (await super().get_metadata(namespace, key)) or {}


@broken("meta-list-prefix-namespace", "META-02", "HOST-03")
class ListByNamespacePrefix(InMemoryMemory):
    """list_metadata matches namespaces by prefix, so 'user' also lists 'user2' and 'user:x'.

    META-02: "nothing from other namespaces"; HOST-03: an id that looks like a pattern (the
    kit's odd ids include prefixes of one another) is an ordinary id. Not INPUT-05: NUL
    characters round-trip; its listing of 'ns' stands on META-02 (blocked by it).
    """

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        found: list[MetadataEntry] = []
        for name in sorted(self._metadata):
            if name.startswith(namespace):
                found.extend(await super().list_metadata(name))
        return found


@broken("meta-delete-drops-namespace", "META-03")
class DeleteDropsNamespace(InMemoryMemory):
    """delete_metadata pops the whole namespace instead of the one key."""

    async def delete_metadata(self, namespace: str, key: str) -> None:
        if key in self._metadata.get(namespace, {}):
            self._metadata.pop(namespace)


@broken("meta-delete-missing-raises", "META-11")
class DeleteMissingRaises(InMemoryMemory):
    """delete_metadata of an absent key raises KeyError (a bare `del d[key]`)."""

    async def delete_metadata(self, namespace: str, key: str) -> None:
        if key not in self._metadata.get(namespace, {}):
            raise KeyError(f"{namespace}/{key}")
        await super().delete_metadata(namespace, key)


@broken("meta-list-unsorted", "META-04")
class ListInInsertionOrder(InMemoryMemory):
    """list_metadata returns entries in insertion order instead of key order."""

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        by_key = {e.key: e for e in await super().list_metadata(namespace)}
        return [by_key[k] for k in self._metadata.get(namespace, {}) if k in by_key]


@broken("meta-updated-at-frozen", "META-05")
class UpdatedAtFrozen(InMemoryMemory):
    """An overwrite keeps the first write's updated_at (a created_at in disguise)."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        previous = {
            (ns, key): meta.updated_at for ns, space in self._metadata.items() for key, meta in space.items()
        }
        await super().commit_metadata(ops)
        for (ns, key), stamp in previous.items():
            meta = self._metadata.get(ns, {}).get(key)
            if meta is not None:
                meta.updated_at = stamp


@broken("meta-updated-at-wall-clock", "META-05")
class UpdatedAtWallClock(InMemoryMemory):
    """An overwrite is stamped with the clock's millisecond, never bumped past the stamp before:
    two overwrites within one millisecond keep the same updated_at (it does not grow). Caught
    only when two overwrites land in one millisecond, which META-05's test arranges in the
    kit's process every run."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        for op, text in sem.encode_batch(ops):
            if text is None:
                await super().commit_metadata([op])
            else:
                self._metadata.setdefault(op.namespace, {})[op.key] = StoredMetadata(text, sem.now_ms())


def _seconds(epoch_ms: int) -> Any:
    return epoch_ms / 1000


@broken("meta-updated-at-seconds", "META-05")
class UpdatedAtSeconds(InMemoryMemory):
    """updated_at is epoch seconds as a float (time.time()), not integer milliseconds."""

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        entries = await super().list_metadata(namespace)
        return [attrs.evolve(e, updated_at=_seconds(e.updated_at)) for e in entries]


@broken("meta-shared-references", "META-06", "META-07")
class SharedReferences(InMemoryMemory):
    """Keeps and hands out the caller's own dicts instead of copies (so a tuple saved comes back
    a tuple, where a JSON store gives a list: META-07 too)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._live: dict[tuple[str, str], JsonObject] = {}

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        await super().commit_metadata(ops)
        for op in ops:
            if isinstance(op, MetadataPut):
                self._live[(op.namespace, op.key)] = op.data
            else:
                self._live.pop((op.namespace, op.key), None)

    async def get_metadata(self, namespace: str, key: str) -> JsonObject | None:
        stored = await super().get_metadata(namespace, key)
        if stored is None:
            return None
        return self._live.setdefault((namespace, key), stored)

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        return [
            attrs.evolve(e, data=self._live.setdefault((namespace, e.key), e.data))
            for e in await super().list_metadata(namespace)
        ]


def _drop_dollar_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_dollar_keys(v) for k, v in value.items() if not k.startswith("$")}
    if isinstance(value, list):
        return [_drop_dollar_keys(v) for v in value]
    return value


@broken("meta-drops-dollar-keys", "META-01")
class DropsDollarKeys(InMemoryMemory):
    """Strips keys starting with '$' at any depth (an over-eager operator-injection guard)."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        sem.encode_batch(ops)
        await super().commit_metadata(
            [
                MetadataPut(op.namespace, op.key, _drop_dollar_keys(op.data))
                if isinstance(op, MetadataPut)
                else op
                for op in ops
            ]
        )


@broken("meta-keeps-python-objects", "META-07")
class KeepsPythonObjects(InMemoryMemory):
    """Validates payloads as JSON but hands back deep copies of the objects it was given, so a
    tuple comes back a tuple where every JSON store gives a list."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: (namespace, key) -> the stored entry it was copied for, and the copy.
        self._objects: dict[tuple[str, str], tuple[StoredMetadata, JsonObject]] = {}

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        await super().commit_metadata(ops)
        for op in ops:
            stored = self._metadata.get(op.namespace, {}).get(op.key)
            if isinstance(op, MetadataPut) and stored is not None:  # the last put of a key wins
                self._objects[(op.namespace, op.key)] = (stored, copy.deepcopy(op.data))

    def _object(self, namespace: str, key: str, stored: StoredMetadata) -> JsonObject | None:
        kept = self._objects.get((namespace, key))
        return copy.deepcopy(kept[1]) if kept is not None and kept[0] is stored else None

    async def get_metadata(self, namespace: str, key: str) -> JsonObject | None:
        stored = self._metadata.get(namespace, {}).get(key)
        found = None if stored is None else self._object(namespace, key, stored)
        return found if found is not None else await super().get_metadata(namespace, key)

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        space = self._metadata.get(namespace, {})
        return [
            attrs.evolve(e, data=self._object(namespace, e.key, space[e.key]) or e.data)
            for e in await super().list_metadata(namespace)
        ]


@broken("meta-save-lenient-json", "META-08", "INPUT-04", "INPUT-07")
class LenientSave(InMemoryMemory):
    """save_metadata serializes with default=repr and allows NaN, so bad data is stored."""

    async def save_metadata(self, namespace: str, key: str, data: JsonObject) -> None:
        text = json.dumps(data, default=repr)
        space = self._metadata.setdefault(namespace, {})
        previous = space.get(key)
        stamp = sem.next_updated_at(None if previous is None else previous.updated_at)
        self.plant_raw_metadata(namespace, key, text)
        space[key].updated_at = stamp


@broken("meta-list-raises-on-corrupt", "META-09")
class ListRaisesOnCorrupt(InMemoryMemory):
    """list_metadata parses every row strictly, so one corrupt entry breaks the whole listing.

    META-09: it skips "entries it cannot read ... instead of raising". The clearing helper's calls
    of it are steps standing on META-09 (blocked, not failed).
    """

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        found = []
        for key, meta in sorted(self._metadata.get(namespace, {}).items()):
            data = json.loads(meta.text)
            if not isinstance(data, dict):
                raise TypeError(f"{namespace}/{key}: metadata is not an object")
            found.append(MetadataEntry(key=key, data=data, updated_at=meta.updated_at))
        return found


@broken("meta-keys-skip-unreadable", "META-10")
class KeysSkipUnreadable(InMemoryMemory):
    """list_metadata_keys is built on list_metadata, so unreadable entries go missing.

    META-10: it "lists every key of the namespace, unreadable entries included". The clearing
    helper's rules (CLR-06..08) bind the helper, which reads the store through this listing: their
    checks stand on META-10 and are blocked by it, not failed.
    """

    async def list_metadata_keys(self, namespace: str) -> list[str]:
        return [e.key for e in await self.list_metadata(namespace)]


@broken("commit-puts-before-dels", "COMMIT-01")
class PutsBeforeDels(InMemoryMemory):
    """Applies all puts, then all dels (two bulk calls), losing the batch order."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        puts = [op for op in ops if isinstance(op, MetadataPut)]
        dels = [op for op in ops if isinstance(op, MetadataDel)]
        await super().commit_metadata([*puts, *dels])


@broken("commit-one-namespace", "COMMIT-02")
class OneNamespacePerBatch(InMemoryMemory):
    """Writes the whole batch into the namespace of its first op.

    COMMIT-02: "one batch may touch several namespaces". The clearing helper's batch across
    namespaces stands on COMMIT-02 (CLR-04 blocked by it, not failed).
    """

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        if ops:
            first = ops[0].namespace
            ops = [attrs.evolve(op, namespace=first) for op in ops]
        await super().commit_metadata(ops)


@broken("commit-del-missing-raises", "COMMIT-03")
class BatchDelMissingRaises(InMemoryMemory):
    """A del of an absent key inside a batch raises KeyError instead of being ignored."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        present = {(ns, key) for ns, space in self._metadata.items() for key in space}
        for op in ops:
            if isinstance(op, MetadataPut):
                present.add((op.namespace, op.key))
            elif (op.namespace, op.key) not in present:
                raise KeyError(f"{op.namespace}/{op.key}")
            else:
                present.discard((op.namespace, op.key))
        await super().commit_metadata(ops)


@broken("commit-applies-prefix", "COMMIT-04")
class AppliesPrefix(InMemoryMemory):
    """Serializes and writes op by op, so the ops before a bad payload stay applied."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        for op in ops:
            await super().commit_metadata([op])


@broken(
    "commit-ordered-applies-prefix",
    "COMMIT-07",
    capabilities=Capabilities(ordering="write", metadata_atomicity="ordered", archive_atomicity="atomic"),
)
class OrderedAppliesPrefix(AppliesPrefix):
    """Declares the ordered tier, which still must reject a bad payload before writing."""


@broken("commit-yields-between-ops", "COMMIT-05")
class YieldsBetweenOps(InMemoryMemory):
    """Validates first, then awaits between ops (like one round trip each) while declaring the
    atomic tier, so a concurrent reader sees half a batch."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        sem.encode_batch(ops)
        for op in ops:
            await super().commit_metadata([op])
            await asyncio.sleep(0)


@broken("commit-del-reads-old-value", "COMMIT-06")
class DelReadsOldValue(InMemoryMemory):
    """A batch del parses the old value first (to report it), so unreadable entries cannot go.

    COMMIT-06: "a del in a batch removes an entry even when its stored data is unreadable". The
    clearing helper's batch over unreadable entries stands on COMMIT-06 (blocked, not failed).
    """

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        for op in ops:
            meta = self._metadata.get(op.namespace, {}).get(op.key)
            if isinstance(op, MetadataDel) and meta is not None:
                old = json.loads(meta.text)
                if not isinstance(old, dict):
                    raise TypeError(f"{op.namespace}/{op.key}: stored data is not an object")
        await super().commit_metadata(ops)


@broken("clear-all-wipes-metadata", "CLEAR-04")
class ClearAllWipesMetadata(InMemoryMemory):
    """clear_all also drops every metadata namespace (what the old upstream backends did)."""

    async def clear_all(self) -> None:
        await super().clear_all()
        self._metadata.clear()
