"""commit_metadata: ordered batches, rejected batches, atomicity tiers (api-memory §核心方法; the
ordered tier of plugin-memory-mongodb §特性). The atomic tier's promise (COMMIT-04) is all or
nothing, whatever makes a batch fail; refusing a payload JSON cannot hold is META-08's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.probes.concurrent_reads import only_from_outside, watch_write
from aalis_memory.conformance.registration.registry import RawMetadataKind
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.rules.verdict import Verdict, skip
from aalis_memory.conformance.suite._metadata_reads import UNSERIALIZABLE, entries, state
from aalis_memory.conformance.values import difference
from aalis_memory.service import FullMemoryService, MemoryService
from aalis_memory.types import JsonObject, MetadataDel, MetadataOp, MetadataPut

NAMESPACE = "plugin-commit"


def put(key: str, data: JsonObject, namespace: str = NAMESPACE) -> MetadataPut:
    return MetadataPut(namespace, key, data)


def delete(key: str, namespace: str = NAMESPACE) -> MetadataDel:
    return MetadataDel(namespace, key)


async def _commit_expecting_success(
    aalis_memory: MemoryService, check: Check, call: str, ops: list[Any]
) -> None:
    """A batch that must be accepted: an exception is a finding of ``check``'s rule, not a crash."""
    try:
        await aalis_memory.commit_metadata(ops)
    except Exception as exc:
        raise check.fail(f"{call}: expected success, got {type(exc).__name__}: {exc}") from exc


@pytest.mark.aalis_spec("COMMIT-01")
async def test_ops_apply_in_order(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await aalis_memory.save_metadata(NAMESPACE, "existing", {"v": "old"})
    await aalis_memory.save_metadata(NAMESPACE, "doomed", {"v": "old"})
    await aalis_memory.save_metadata(NAMESPACE, "del-then-put", {"v": "old"})
    await aalis_memory.commit_metadata(
        [
            put("put-then-del", {"v": 1}),
            delete("put-then-del"),
            delete("del-then-put"),
            put("del-then-put", {"v": 2}),
            put("twice", {"v": "first"}),
            put("twice", {"v": "second"}),
            put("existing", {"v": "new"}),
            delete("doomed"),
            put("doomed", {"v": "reborn"}),
            delete("doomed"),
        ]
    )
    aalis_check.equal(
        "list_metadata after [put p, del p, del q, put q, put t 1st, put t 2nd, put existing, "
        "del/put/del doomed]",
        await entries(aalis_memory, NAMESPACE),
        [("del-then-put", {"v": 2}), ("existing", {"v": "new"}), ("twice", {"v": "second"})],
    )
    await aalis_memory.commit_metadata([delete("twice"), put("twice", {"v": "third"})])
    aalis_check.equal(
        "get_metadata(ns, 'twice') after [del twice, put twice third]",
        await aalis_memory.get_metadata(NAMESPACE, "twice"),
        {"v": "third"},
    )


@pytest.mark.aalis_spec("COMMIT-02")
async def test_one_batch_spans_namespaces(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await aalis_memory.save_metadata("ns-red", "old", {"v": "red-old"})
    await aalis_memory.save_metadata("ns-blue", "old", {"v": "blue-old"})
    await aalis_memory.commit_metadata(
        [
            put("k", {"v": "red"}, "ns-red"),
            put("k", {"v": "green"}, "ns-green"),
            delete("old", "ns-blue"),
            put("k", {"v": "blue"}, "ns-blue"),
        ]
    )
    for namespace, expected in (
        ("ns-red", [("k", {"v": "red"}), ("old", {"v": "red-old"})]),
        ("ns-green", [("k", {"v": "green"})]),
        ("ns-blue", [("k", {"v": "blue"})]),
    ):
        aalis_check.equal(
            f"list_metadata({namespace!r}) after a three-namespace batch",
            await entries(aalis_memory, namespace),
            expected,
        )


@pytest.mark.aalis_spec("COMMIT-03")
async def test_empty_batch_and_del_of_missing_key(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await aalis_memory.save_metadata(NAMESPACE, "kept", {"v": 1})
    await _commit_expecting_success(aalis_memory, aalis_check, "commit_metadata([])", [])
    aalis_check.equal(
        "list_metadata after an empty batch",
        await entries(aalis_memory, NAMESPACE),
        [("kept", {"v": 1})],
    )
    await _commit_expecting_success(
        aalis_memory,
        aalis_check,
        "commit_metadata([del never-saved, put added])",
        [delete("never-saved"), put("added", {"v": 2})],
    )
    await _commit_expecting_success(
        aalis_memory,
        aalis_check,
        "commit_metadata([del in an unknown namespace])",
        [delete("never-saved", "ns-unknown")],
    )
    aalis_check.equal(
        "list_metadata after batches deleting missing keys",
        await entries(aalis_memory, NAMESPACE),
        [("added", {"v": 2}), ("kept", {"v": 1})],
    )


async def _seed(aalis_memory: MemoryService, namespace: str = NAMESPACE) -> dict[str, JsonObject]:
    await aalis_memory.save_metadata(namespace, "a", {"v": "a-old"})
    await aalis_memory.save_metadata(namespace, "b", {"v": "b-old"})
    await aalis_memory.save_metadata(namespace, "z", {"v": "z-old"})
    return await state(aalis_memory, namespace)


def _around(bad: object, namespace: str, other: str) -> list[Any]:
    """``bad`` in the middle of a batch: valid ops before it (a put, a del, a new key) and after
    it (an overwrite, a new key, a put in another namespace)."""
    return [
        put("a", {"v": "a-new"}, namespace),
        delete("z", namespace),
        put("new-1", {"v": 1}, namespace),
        bad,
        put("b", {"v": "b-new"}, namespace),
        put("new-2", {"v": 2}, namespace),
        put("other", {"v": 3}, other),
    ]


def _refusable(namespace: str) -> dict[str, Callable[[], object]]:
    """Ops no batch can apply, by a readable name: ones the contract types forbid (an op that is
    not an operation, an identifier that is not a str, a payload that is not an object) and
    payloads JSON cannot hold. A driver may refuse them with any error; it may also accept some
    of them (that is HOST-01, HOST-04 or META-08's to judge, not COMMIT-04's)."""
    return {
        "None in place of an op": lambda: None,
        "a put whose key is an int": lambda: MetadataPut(namespace, 7, {"v": 1}),  # type: ignore[arg-type]
        "a del whose namespace is a dict": lambda: MetadataDel({"$gt": ""}, "a"),  # type: ignore[arg-type]
        "a put whose data is a list": lambda: MetadataPut(namespace, "bad", [1, 2]),  # type: ignore[arg-type]
        **{f"a put of <{name}>": _bad_put(namespace, build) for name, build in UNSERIALIZABLE.items()},
    }


def _bad_put(namespace: str, build: Callable[[], JsonObject]) -> Callable[[], object]:
    return lambda: MetadataPut(namespace, "bad", build())


@pytest.mark.aalis_spec("COMMIT-04")
@requires.atomic_metadata
async def test_a_rejected_batch_applies_nothing(aalis_memory: MemoryService, aalis_check: Check) -> None:
    """All or nothing, whatever made the batch fail: each batch holds one op no store can apply
    after valid ops (and before others); when commit_metadata raises, nothing of it may be left.
    A batch the driver accepts says nothing about this rule."""
    rejected = 0
    with aalis_check.every_case("rejected batches left part of themselves applied") as cases:
        for index, name in enumerate(_refusable(NAMESPACE)):
            namespace, other = f"{NAMESPACE}-{index}", f"ns-other-{index}"
            await _seed(aalis_memory, namespace)
            before = await state(aalis_memory, namespace), await entries(aalis_memory, other)
            ops = _around(_refusable(namespace)[name](), namespace, other)
            try:
                await aalis_memory.commit_metadata(ops)
            except Exception:
                rejected += 1
            else:
                continue
            with cases.case():
                aalis_check.equal(
                    f"list_metadata after the rejected batch with {name} in the middle",
                    await state(aalis_memory, namespace),
                    before[0],
                )
                aalis_check.equal(
                    f"list_metadata({other!r}) after the rejected batch with {name}",
                    await entries(aalis_memory, other),
                    before[1],
                )
    if not rejected:
        skip(
            Verdict.UNVERIFIED,
            "the driver accepted every batch the kit built to be refused "
            "(an op that is not one, non-str identifiers, payloads that are "
            "not JSON objects), so no rejected batch could be inspected",
        )


@pytest.mark.aalis_spec("COMMIT-04")
@requires.atomic_metadata
async def test_a_rejected_batch_applies_nothing_first_or_last(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    seeded = await _seed(aalis_memory)
    for name in ("None in place of an op", "a put of <set>", "a put of <NaN>"):
        bad = _refusable(NAMESPACE)[name]
        batches: dict[str, list[Any]] = {
            "first": [bad(), put("a", {"v": "a-new"}), delete("z")],
            "last": [delete("z"), put("a", {"v": "a-new"}), bad()],
        }
        for where, ops in batches.items():
            try:
                await aalis_memory.commit_metadata(ops)
            except Exception:
                aalis_check.equal(
                    f"list_metadata after the rejected batch ({name} {where})",
                    await state(aalis_memory, NAMESPACE),
                    seeded,
                )
            else:  # accepted: what it did is another rule's; start again from the seed
                await aalis_memory.commit_metadata(
                    [delete(key) for key in await state(aalis_memory, NAMESPACE)]
                )
                seeded = await _seed(aalis_memory)


async def _bad_payload_in_the_middle(aalis_memory: MemoryService, check: Check) -> None:
    await _seed(aalis_memory)
    with check.every_case("batches with a payload JSON cannot hold were not rejected whole") as cases:
        for name, build in UNSERIALIZABLE.items():
            ops = _around(put("bad", build()), NAMESPACE, "ns-other")
            before = await state(aalis_memory, NAMESPACE), await entries(aalis_memory, "ns-other")
            with cases.case():
                with check.raises(
                    f"commit_metadata([put a, del z, put new-1, put <{name}>, ...])",
                    TypeError,
                    ValueError,
                ):
                    await aalis_memory.commit_metadata(ops)
                check.equal(
                    f"list_metadata after the rejected batch with <{name}> in the middle",
                    await state(aalis_memory, NAMESPACE),
                    before[0],
                )
                check.equal(
                    f"list_metadata('ns-other') after the rejected batch with <{name}>",
                    await entries(aalis_memory, "ns-other"),
                    before[1],
                )


async def _bad_payload_first_or_last(aalis_memory: MemoryService, check: Check) -> None:
    seeded = await _seed(aalis_memory)
    batches: dict[str, list[MetadataOp]] = {
        "first": [put("bad", {"when": {1}}), put("a", {"v": "a-new"}), delete("z")],
        "last": [delete("z"), put("a", {"v": "a-new"}), put("bad", {"when": {1}})],
    }
    for where, ops in batches.items():
        with check.raises(f"commit_metadata with a set payload {where}", TypeError, ValueError):
            await aalis_memory.commit_metadata(ops)
        check.equal(
            f"list_metadata after the rejected batch (bad payload {where})",
            await state(aalis_memory, NAMESPACE),
            seeded,
        )


@pytest.mark.aalis_spec("META-08")
async def test_commit_of_unserializable_data_raises(aalis_memory: MemoryService, aalis_check: Check) -> None:
    """The payload's refusal, in a batch (what the refused batch leaves is COMMIT-04's for the
    atomic tier, COMMIT-07's for the ordered one)."""
    with aalis_check.every_case("batches with a payload JSON cannot hold were not refused") as cases:
        for index, (name, build) in enumerate(UNSERIALIZABLE.items()):
            call = f"commit_metadata([put ok, put <{name}>])"
            with cases.case(), aalis_check.raises(call, TypeError, ValueError):
                await aalis_memory.commit_metadata(
                    [put(f"ok-{index}", {"v": 1}), put(f"bad-{index}", build())]
                )


@pytest.mark.aalis_spec("COMMIT-07")
@requires.ordered_metadata  # the atomic tier's stronger promise is COMMIT-04's
async def test_ordered_tier_bad_payload_in_the_middle_applies_nothing(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await _bad_payload_in_the_middle(aalis_memory, aalis_check)


@pytest.mark.aalis_spec("COMMIT-07")
@requires.ordered_metadata  # the atomic tier's stronger promise is COMMIT-04's
async def test_ordered_tier_bad_payload_first_or_last_applies_nothing(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await _bad_payload_first_or_last(aalis_memory, aalis_check)


@pytest.mark.aalis_spec("COMMIT-06")
@requires.list_metadata_keys
@requires.raw_metadata
@pytest.mark.parametrize("kind", ["not-json", "not-object"])
async def test_batch_del_removes_unreadable_entries(
    aalis_memory: FullMemoryService, aalis_memory_raw: Any, kind: RawMetadataKind, aalis_check: Check
) -> None:
    await aalis_memory.save_metadata(NAMESPACE, "good", {"v": 1})
    await aalis_memory_raw.plant_metadata(NAMESPACE, "broken", kind)
    await _commit_expecting_success(
        aalis_memory,
        aalis_check,
        f"commit_metadata([del broken ({kind}), del good])",
        [delete("broken"), delete("good")],
    )
    aalis_check.equal(
        f"list_metadata_keys(ns) after deleting a {kind} entry and a good one",
        await aalis_memory.list_metadata_keys(NAMESPACE),
        [],
    )


BATCH_SIZE = 200
READERS = 3


def _gen_counts(seen: dict[str, JsonObject]) -> str:
    fresh = sum(1 for data in seen.values() if data.get("gen") == 1)
    return f"{len(seen)} entries, {fresh} of them written by the batch"


@pytest.mark.aalis_spec("COMMIT-05", "COMMIT-01")
@requires.atomic_metadata
async def test_concurrent_readers_never_see_half_a_batch(
    aalis_memory: MemoryService, aalis_checks: tuple[Check, ...]
) -> None:
    whole_batch, in_order = aalis_checks
    keys = [f"k{i:03d}" for i in range(BATCH_SIZE)]
    await aalis_memory.commit_metadata([put(k, {"gen": 0, "i": i}) for i, k in enumerate(keys)])
    before = await state(aalis_memory, NAMESPACE)
    ops: list[MetadataOp] = []
    after: dict[str, JsonObject] = {}
    for i, key in enumerate(keys):
        if i % 4 == 3:
            ops.append(delete(key))
        else:
            ops.append(put(key, {"gen": 1, "i": i}))
            after[key] = {"gen": 1, "i": i}

    watched = await watch_write(
        lambda: aalis_memory.commit_metadata(ops),
        [lambda: state(aalis_memory, NAMESPACE)],
        readers=READERS,
        count_loop_turns=True,
    )
    watched.result()
    summary = (
        f"{len(watched.sightings)} reads by {READERS} tasks, {watched.overlapping} overlapping "
        f"the commit, the loop ran {watched.loop_turns} times during it"
    )
    torn = watched.torn()
    if torn:
        raise whole_batch.fail(
            f"a concurrent list_metadata saw part of a {BATCH_SIZE}-op batch "
            f"({len(torn)} torn reads; first: {_gen_counts(torn[0].value)}; before: "
            f"{_gen_counts(before)}, after: {_gen_counts(after)}; it differs from before at "
            f"{difference(torn[0].value, before)}, from after at {difference(torn[0].value, after)}); "
            f"{summary}",
        )
    whole_batch.that(
        watched.loop_turns == 0 or watched.overlapping > 0,
        f"harness: the driver yielded during the commit but no read overlapped it; {summary}",
    )
    only_from_outside(aalis_memory, whole_batch)
    in_order.equal(
        f"list_metadata after the {BATCH_SIZE}-op batch ({_gen_counts(after)})",
        await state(aalis_memory, NAMESPACE),
        after,
    )
