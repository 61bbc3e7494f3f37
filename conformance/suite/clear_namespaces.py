"""clear_metadata_namespaces over the driver under test (api-memory §钩子与贡献点).

The helper is kit code, but what it can delete depends on the store's listings and batches, so
it runs against every selected driver.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from aalis_memory.clearing import ClearNamespaces
from aalis_memory.conformance.check import Check
from aalis_memory.conformance.registration.registry import RawMetadataKind
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.steps import calls_stand_on, stands_on
from aalis_memory.service import FullMemoryService, MemoryService
from aalis_memory.types import MetadataOp

NS_A = "clr-a"
NS_B = "clr-b"
NS_KEEP = "clr-keep"
UNREADABLE: list[RawMetadataKind] = ["not-json", "not-object"]


class InfoLines:
    """A logger that keeps its info lines (the helper's only logging call)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def info(self, msg: str, /, *args: Any) -> None:
        self.lines.append(msg % args if args else msg)


class CountingCommits:
    """The store, with its commit_metadata calls counted (everything else passes through)."""

    def __init__(self, store: MemoryService) -> None:
        self.wrapped = store
        self.commits = 0

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        self.commits += 1
        await self.wrapped.commit_metadata(ops)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


class WithoutListKeys:
    """The store as a backend that never implemented list_metadata_keys."""

    def __init__(self, store: MemoryService) -> None:
        self.wrapped = store

    def __getattr__(self, name: str) -> Any:
        if name == "list_metadata_keys":
            raise AttributeError(name)
        return getattr(self.wrapped, name)


def reads_through(store: MemoryService, *, fallback: bool = False, unreadable: bool = False) -> None:
    """The helper finds what to delete through the store's listings (the readable entries from
    list_metadata, every key from list_metadata_keys) and deletes in one batch, so its rules'
    checks stand on the store rules of those calls: a listing of keys that skips entries is
    META-10's failure, not the helper's (``fallback``: the helper is run without
    list_metadata_keys; ``unreadable``: the namespaces hold unreadable entries)."""
    stands_on("META-02", "META-09")  # which entries are readable: list_metadata's
    calls = {
        "list_metadata": "META-09" if unreadable else "META-02",
        "commit_metadata": "COMMIT-06" if unreadable else "COMMIT-02",
    }  # across namespaces
    if not fallback and callable(getattr(store, "list_metadata_keys", None)):
        stands_on("META-10")
        calls["list_metadata_keys"] = "META-10"
    calls_stand_on(calls)


async def _fill(aalis_memory: MemoryService, namespace: str, *keys: str) -> None:
    for key in keys:
        await aalis_memory.save_metadata(namespace, key, {"key": key})


async def _keys(aalis_memory: FullMemoryService, namespace: str) -> list[str]:
    """Every key of a namespace, unreadable ones too when the store can list them.

    De-duplicated: a listing that repeats keys is META-10's finding, not the clearing rules'.
    """
    if callable(getattr(aalis_memory, "list_metadata_keys", None)):
        return sorted(set(await aalis_memory.list_metadata_keys(namespace)))
    return sorted({e.key for e in await aalis_memory.list_metadata(namespace)})


def _sorted_values(result: dict[str, list[str]]) -> dict[str, list[str]]:
    return {namespace: sorted(keys) for namespace, keys in result.items()}


@pytest.mark.aalis_spec("CLR-04")
async def test_clear_deletes_the_namespaces_in_one_commit(
    aalis_memory: FullMemoryService, aalis_clear_helper: ClearNamespaces, aalis_check: Check
) -> None:
    reads_through(aalis_memory)
    await _fill(aalis_memory, NS_A, "a1", "a2", "a3")
    await _fill(aalis_memory, NS_B, "b1")
    await _fill(aalis_memory, NS_KEEP, "k1", "k2")
    counted = CountingCommits(aalis_memory)
    await aalis_clear_helper(counted, [NS_A, NS_B], InfoLines())
    aalis_check.equal("commit_metadata calls made by clear_metadata_namespaces([a, b])", counted.commits, 1)
    for namespace in (NS_A, NS_B):
        aalis_check.equal(
            f"keys of {namespace!r} after clearing it", await _keys(aalis_memory, namespace), []
        )
    aalis_check.equal(
        f"keys of {NS_KEEP!r} after clearing [a, b]",
        await _keys(aalis_memory, NS_KEEP),
        ["k1", "k2"],
    )
    aalis_check.equal(
        f"get_metadata({NS_KEEP!r}, 'k2') after clearing [a, b]",
        await aalis_memory.get_metadata(NS_KEEP, "k2"),
        {"key": "k2"},
    )


@pytest.mark.aalis_spec("CLR-05")
async def test_clear_returns_keys_per_namespace_in_input_order(
    aalis_memory: MemoryService, aalis_clear_helper: ClearNamespaces, aalis_check: Check
) -> None:
    reads_through(aalis_memory)
    await _fill(aalis_memory, NS_A, "a2", "a1")
    await _fill(aalis_memory, NS_B, "b1", "b3", "b2")
    result = await aalis_clear_helper(aalis_memory, [NS_B, "clr-empty", NS_A], InfoLines())
    aalis_check.equal(
        "namespaces of clear_metadata_namespaces([b, empty, a])",
        list(result),
        [NS_B, "clr-empty", NS_A],
    )
    aalis_check.equal(
        "keys per namespace (sorted) of clear_metadata_namespaces([b, empty, a])",
        _sorted_values(result),
        {NS_B: ["b1", "b2", "b3"], "clr-empty": [], NS_A: ["a1", "a2"]},
    )


@pytest.mark.aalis_spec("CLR-06")
@requires.list_metadata_keys
@requires.raw_metadata
@pytest.mark.parametrize("kind", UNREADABLE)
async def test_clear_deletes_unreadable_entries(
    aalis_memory: FullMemoryService,
    aalis_clear_helper: ClearNamespaces,
    aalis_memory_raw: Any,
    kind: RawMetadataKind,
    aalis_check: Check,
) -> None:
    reads_through(aalis_memory, unreadable=True)
    await _fill(aalis_memory, NS_A, "a1", "a3")
    await aalis_memory_raw.plant_metadata(NS_A, "a2-bad", kind)
    await aalis_memory_raw.plant_metadata(NS_KEEP, "k-bad", kind)
    result = await aalis_clear_helper(aalis_memory, [NS_A], InfoLines())
    aalis_check.equal(
        f"keys returned for {NS_A!r} holding a {kind} entry",
        _sorted_values(result),
        {NS_A: ["a1", "a2-bad", "a3"]},
    )
    aalis_check.equal(f"list_metadata_keys({NS_A!r}) after clearing it", await _keys(aalis_memory, NS_A), [])
    aalis_check.equal(
        f"list_metadata_keys({NS_KEEP!r}) (not cleared)",
        await _keys(aalis_memory, NS_KEEP),
        ["k-bad"],
    )


@pytest.mark.aalis_spec("CLR-07")
@requires.list_metadata_keys
@requires.raw_metadata
async def test_clear_names_few_unreadable_entries_in_one_line(
    aalis_memory: MemoryService,
    aalis_clear_helper: ClearNamespaces,
    aalis_memory_raw: Any,
    aalis_check: Check,
) -> None:
    reads_through(aalis_memory, unreadable=True)
    await _fill(aalis_memory, NS_A, "ok")
    for key in ("x1", "x2"):
        await aalis_memory_raw.plant_metadata(NS_A, key, "not-object")
    await aalis_memory_raw.plant_metadata(NS_B, "y1", "not-object")
    logger = InfoLines()
    await aalis_clear_helper(aalis_memory, [NS_A, NS_B], logger)
    aalis_check.equal("info lines logged for 3 unreadable entries", len(logger.lines), 1)
    line = logger.lines[0] if logger.lines else ""
    for name in (f"{NS_A}/x1", f"{NS_A}/x2", f"{NS_B}/y1"):
        aalis_check.that(name in line, f"the info line should name {name}; it was {line!r}")
    aalis_check.that(
        f"{NS_A}/ok" not in line,
        f"the info line should not name the readable entry; it was {line!r}",
    )


@pytest.mark.aalis_spec("CLR-07")
@requires.list_metadata_keys
@requires.raw_metadata
async def test_clear_names_ten_unreadable_entries_then_counts(
    aalis_memory: MemoryService,
    aalis_clear_helper: ClearNamespaces,
    aalis_memory_raw: Any,
    aalis_check: Check,
) -> None:
    reads_through(aalis_memory, unreadable=True)
    planted = [f"bad-{i:02d}" for i in range(13)]
    for key in planted:
        await aalis_memory_raw.plant_metadata(NS_A, key, "not-object")
    logger = InfoLines()
    await aalis_clear_helper(aalis_memory, [NS_A], logger)
    aalis_check.equal("info lines logged for 13 unreadable entries", len(logger.lines), 1)
    line = logger.lines[0] if logger.lines else ""
    named = [key for key in planted if f"{NS_A}/{key}" in line]
    aalis_check.equal(f"entries named in {line!r}", len(named), 10)
    aalis_check.that("3 more" in line, f"the info line should say '3 more'; it was {line!r}")


@pytest.mark.aalis_spec("CLR-08")
@requires.raw_metadata
@pytest.mark.parametrize("kind", UNREADABLE)
async def test_clear_without_list_keys_leaves_unreadable_entries(
    aalis_memory: FullMemoryService,
    aalis_clear_helper: ClearNamespaces,
    aalis_memory_raw: Any,
    kind: RawMetadataKind,
    aalis_check: Check,
) -> None:
    """The rule is for backends without list_metadata_keys: one without it is judged as it is
    (that the unreadable entry stayed is the part the API cannot show it: a partial pass); one
    with it is run as one without, and its listing of keys then shows the entry stayed."""
    reads_through(aalis_memory, fallback=True, unreadable=True)
    await _fill(aalis_memory, NS_A, "a1", "a3")
    await aalis_memory_raw.plant_metadata(NS_A, "a2-bad", kind)
    logger = InfoLines()
    lists_keys = callable(getattr(aalis_memory, "list_metadata_keys", None))
    result = await aalis_clear_helper(WithoutListKeys(aalis_memory), [NS_A], logger)
    aalis_check.equal(
        "keys returned by the list_metadata fallback", _sorted_values(result), {NS_A: ["a1", "a3"]}
    )
    aalis_check.equal("info lines logged by the fallback", logger.lines, [])
    aalis_check.equal(
        f"list_metadata({NS_A!r}) after the fallback clear",
        [e.key for e in await aalis_memory.list_metadata(NS_A)],
        [],
    )
    if lists_keys:
        aalis_check.equal(
            f"list_metadata_keys({NS_A!r}) after the fallback clear",
            await _keys(aalis_memory, NS_A),
            ["a2-bad"],
        )
    else:
        aalis_check.unverified_part(
            f"driver has no list_metadata_keys: that the unreadable "
            f"{kind} entry stayed cannot be seen through the API (list_metadata "
            "skips it, get_metadata reads it as absent)",
        )
