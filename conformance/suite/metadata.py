"""The metadata key/value store: save, get, list, delete (api-memory §核心方法 and §钩子与贡献点)."""

from __future__ import annotations

import asyncio
from typing import Any, Final, cast

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.checks import (
    describe,
)
from aalis_memory.conformance.json_values import json_difference
from aalis_memory.conformance.registration.registry import DriverRegistration, RawMetadataKind
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.registration.transport import transport_of
from aalis_memory.conformance.suite._metadata_reads import (
    CLOCK_SKEW_MS,
    UNSERIALIZABLE,
    entries,
    entry,
    now_ms,
    now_ms_ceil,
    wait_past,
)
from aalis_memory.service import FullMemoryService, MemoryService
from aalis_memory.types import JsonObject, MetadataEntry, MetadataPut

NAMESPACE = "plugin-meta"
UNREADABLE: list[RawMetadataKind] = ["not-json", "not-object"]


@pytest.mark.aalis_spec("META-01")
async def test_get_returns_saved_object_and_none_when_missing(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await aalis_memory.save_metadata(NAMESPACE, "profile", {"name": "Ann", "age": 31})
    aalis_check.equal(
        "get_metadata(ns, 'profile')",
        await aalis_memory.get_metadata(NAMESPACE, "profile"),
        {"name": "Ann", "age": 31},
    )
    aalis_check.equal(
        "get_metadata(ns, 'never-saved')",
        await aalis_memory.get_metadata(NAMESPACE, "never-saved"),
        None,
    )
    aalis_check.equal(
        "get_metadata('unknown-namespace', 'profile')",
        await aalis_memory.get_metadata("unknown-namespace", "profile"),
        None,
    )
    await aalis_memory.save_metadata(NAMESPACE, "profile", {"name": "Bob"})
    aalis_check.equal(
        "get_metadata after overwriting with {'name': 'Bob'}",
        await aalis_memory.get_metadata(NAMESPACE, "profile"),
        {"name": "Bob"},
    )


@pytest.mark.aalis_spec("META-01")
@pytest.mark.parametrize(
    ("first", "second"),
    [({"a": {}}, {"b": {}}), ({"x": 1}, {"y": 1}), ({"k": [1]}, {"k": [1], "l": None})],
    ids=["same-values-other-keys", "same-scalar-other-key", "superset"],
)
async def test_overwrite_replaces_the_whole_object(
    aalis_memory: MemoryService, first: JsonObject, second: JsonObject, aalis_check: Check
) -> None:
    # Found by the state machine on FerretDB: a $set whose new subdocument had the old one's
    # values under other keys was skipped, leaving the old object in place.
    for how in ("save_metadata", "commit_metadata"):
        key = f"overwrite-{how}"
        await aalis_memory.save_metadata(NAMESPACE, key, first)
        if how == "save_metadata":
            await aalis_memory.save_metadata(NAMESPACE, key, second)
        else:
            await aalis_memory.commit_metadata([MetadataPut(NAMESPACE, key, second)])
        aalis_check.equal(
            f"get_metadata after {how} of {second!r} over {first!r}",
            await aalis_memory.get_metadata(NAMESPACE, key),
            second,
        )


@pytest.mark.aalis_spec("META-01", "META-02")
async def test_namespaces_are_isolated(aalis_memory: MemoryService, aalis_checks: tuple[Check, ...]) -> None:
    reads, listing = aalis_checks
    await aalis_memory.save_metadata("ns-left", "shared-key", {"side": "left"})
    await aalis_memory.save_metadata("ns-right", "shared-key", {"side": "right"})
    reads.equal(
        "get_metadata('ns-left', 'shared-key')",
        await aalis_memory.get_metadata("ns-left", "shared-key"),
        {"side": "left"},
    )
    reads.equal(
        "get_metadata('ns-right', 'shared-key')",
        await aalis_memory.get_metadata("ns-right", "shared-key"),
        {"side": "right"},
    )
    listing.equal(
        "list_metadata('ns-left')",
        await entries(aalis_memory, "ns-left"),
        [("shared-key", {"side": "left"})],
    )


@pytest.mark.aalis_spec("META-02")
async def test_list_returns_the_namespace_entries_only(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await aalis_memory.save_metadata("user", "k1", {"n": 1})
    await aalis_memory.save_metadata("user", "k2", {"n": 2})
    await aalis_memory.save_metadata("user2", "k1", {"n": 21})
    await aalis_memory.save_metadata("use", "k0", {"n": 0})
    await aalis_memory.save_metadata("other", "k3", {"n": 3})
    listed = await aalis_memory.list_metadata("user")
    aalis_check.that(
        all(isinstance(e, MetadataEntry) for e in listed),
        f"list_metadata('user'): expected MetadataEntry items, got {describe(listed)}",
    )
    aalis_check.equal(
        "list_metadata('user') with neighbours 'user2', 'use', 'other'",
        await entries(aalis_memory, "user"),
        [("k1", {"n": 1}), ("k2", {"n": 2})],
    )
    aalis_check.equal("list_metadata('user2')", await entries(aalis_memory, "user2"), [("k1", {"n": 21})])
    aalis_check.equal("list_metadata('empty-ns')", await entries(aalis_memory, "empty-ns"), [])


@pytest.mark.aalis_spec("META-03")
async def test_delete_removes_the_entry(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await aalis_memory.save_metadata(NAMESPACE, "gone", {"v": 1})
    await aalis_memory.save_metadata(NAMESPACE, "stays", {"v": 2})
    await aalis_memory.save_metadata("ns-other", "gone", {"v": 3})
    await aalis_memory.delete_metadata(NAMESPACE, "gone")
    aalis_check.equal(
        "list_metadata after delete_metadata(ns, 'gone')",
        await entries(aalis_memory, NAMESPACE),
        [("stays", {"v": 2})],
    )
    aalis_check.equal(
        "list_metadata('ns-other') after deleting 'gone' in another namespace",
        await entries(aalis_memory, "ns-other"),
        [("gone", {"v": 3})],
    )
    await aalis_memory.delete_metadata(NAMESPACE, "stays")
    aalis_check.equal("list_metadata after deleting the last key", await entries(aalis_memory, NAMESPACE), [])


@pytest.mark.aalis_spec("META-11")
async def test_delete_of_a_missing_key_is_a_no_op(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await aalis_memory.save_metadata(NAMESPACE, "stays", {"v": 2})
    for namespace in (NAMESPACE, "unknown-namespace"):
        try:
            await aalis_memory.delete_metadata(namespace, "never-saved")
        except Exception as exc:
            call = f"delete_metadata({namespace!r}, 'never-saved')"
            raise aalis_check.fail(f"{call}: expected no error, got {exc!r}") from exc
    aalis_check.equal(
        "list_metadata after deleting missing keys",
        await entries(aalis_memory, NAMESPACE),
        [("stays", {"v": 2})],
    )


@pytest.mark.aalis_spec("META-04")
async def test_list_is_sorted_by_key(aalis_memory: MemoryService, aalis_check: Check) -> None:
    keys = ["b", "a10", "_x", "A", "a2", "a1", "Z9"]
    for key in keys:
        await aalis_memory.save_metadata(NAMESPACE, key, {"key": key})
    await aalis_memory.save_metadata(NAMESPACE, "a10", {"key": "a10", "again": True})
    listed = [e.key for e in await aalis_memory.list_metadata(NAMESPACE)]
    aalis_check.equal(f"keys of list_metadata after saving {keys}", listed, sorted(keys))


#: Same-millisecond tries META-05 makes, each begun on a fresh tick of the kit's clock: an
#: in-process driver fits one in the first (two overwrites and a read take well under a
#: millisecond); the rest are for a machine that stalled the first.
SAME_MS_TRIES: Final = 20

#: Why META-05's same-millisecond phase is not arranged for a driver, the same words every run:
#: two round trips through another process land in one millisecond only as luck has it, and a
#: verdict that depends on luck is no verdict (issue 35). Every overwrite is checked all the same.
UNARRANGED: Final = (
    "its same-millisecond phase cannot be arranged {where}: two overwrites through another "
    "process land in one millisecond only by chance, so that updated_at grows within one "
    "millisecond is not claimed (every overwrite was still checked to grow)"
)


def _beyond_reach(memory: MemoryService, registration: DriverRegistration) -> str | None:
    """Where the store's calls go that the kit cannot time (``None``: in its own process): a
    stdio adapter's pipe, or the documented MongoDB backend's server. Decided by the transport,
    never by how fast a run happens to be."""
    if transport_of(memory) is not None:
        return "over a pipe (a stdio adapter)"
    if registration.documented_backend == "mongodb":
        return "over a server (MongoDB)"
    return None


async def _overwrite(memory: MemoryService, version: int) -> None:
    """Overwrite key ``k``: save_metadata and a commit_metadata put, by turns."""
    if version % 2:
        await memory.save_metadata(NAMESPACE, "k", {"v": version})
    else:
        await memory.commit_metadata([MetadataPut(NAMESPACE, "k", {"v": version})])


async def _stamp(check: Check, memory: MemoryService, version: int, previous: int, when: str) -> int:
    """updated_at after overwrite #``version``: an int above ``previous``; returns it."""
    current = await entry(memory, NAMESPACE, "k")
    assert current is not None
    check.that(
        type(current.updated_at) is int and current.updated_at > previous,
        f"updated_at after overwrite #{version} ({when}): expected an int > {previous}, got "
        f"{current.updated_at!r}",
    )
    return int(current.updated_at)


async def _stamp_after_overwrite(
    check: Check, memory: MemoryService, version: int, previous: int, when: str
) -> int:
    """Overwrite, then updated_at must be an int above ``previous``; returns it."""
    await _overwrite(memory, version)
    return await _stamp(check, memory, version, previous, when)


async def _next_tick() -> int:
    """The kit's clock, read as it enters a new millisecond: a call begun now has the whole
    millisecond before it."""
    start = now_ms()
    while (reading := now_ms()) == start:
        await asyncio.sleep(0)
    return reading


async def _same_millisecond(
    check: Check, memory: MemoryService, version: int, stamp: int, beyond: str | None
) -> tuple[int, int]:
    """Overwrite, read, overwrite, each try begun on a fresh tick, until both overwrites ran
    within one millisecond of the kit's clock (updated_at must still grow); the version and
    stamp reached. A store ``beyond`` the kit's reach is never arranged (:data:`UNARRANGED`):
    one pair of overwrites is still checked to grow, and its pass says the same every run."""
    for _ in range(SAME_MS_TRIES if beyond is None else 1):
        began = await _next_tick()
        version += 1
        stamp = await _stamp_after_overwrite(check, memory, version, stamp, "back to back")
        version += 1
        await _overwrite(memory, version)
        fitted = now_ms() == began
        stamp = await _stamp(check, memory, version, stamp, "back to back")
        if fitted and beyond is None:
            return version, stamp
    check.unverified_part(
        UNARRANGED.format(where=beyond)
        if beyond is not None
        else f"its same-millisecond phase never ran: no two back-to-back overwrites in "
        f"{SAME_MS_TRIES} tries, each begun on a fresh tick of the kit's clock, fitted in one "
        "millisecond (the machine stalled every one), so that updated_at grows within one "
        "millisecond was not seen",
    )
    return version, stamp


@pytest.mark.aalis_spec("META-05")
async def test_updated_at_is_epoch_ms_and_grows_on_overwrite(
    aalis_memory: MemoryService, aalis_check: Check, aalis_memory_registration: DriverRegistration
) -> None:
    """Two phases, each made to happen rather than left to the clock: overwrites within one
    millisecond (updated_at must still grow; never claimed for a store beyond the kit's
    process, see :func:`_beyond_reach`, so that its verdict is the same every run), then
    overwrites each begun at least 2 ms after the one before returned (updated_at is the write
    time, so it grows by at least the time between them: previous + 1 no longer passes for it).
    Growth is measured against the kit's clock only as differences, and the stamp's epoch within
    :data:`CLOCK_SKEW_MS`: a server database stamping with its own clock is judged as fairly as
    the kit's own drivers."""
    before = now_ms()
    await aalis_memory.save_metadata(NAMESPACE, "k", {"v": 0})
    after = now_ms_ceil()
    first = await entry(aalis_memory, NAMESPACE, "k")
    aalis_check.that(first is not None, "list_metadata does not list the saved key 'k'")
    assert first is not None
    stamp = first.updated_at
    aalis_check.that(
        type(stamp) is int,
        f"updated_at: expected an int (epoch ms), got {type(stamp).__name__} {stamp!r}",
    )
    aalis_check.that(
        before - CLOCK_SKEW_MS <= stamp <= after + CLOCK_SKEW_MS,
        f"updated_at of a first save made in [{before}, {after}] by the kit's clock: expected "
        f"epoch ms within {CLOCK_SKEW_MS // 60_000} min of it (a server's own clock), got {stamp}",
    )
    # Same millisecond: two overwrites within one tick of the kit's clock, made to happen.
    version, stamp = await _same_millisecond(
        aalis_check, aalis_memory, 0, stamp, _beyond_reach(aalis_memory, aalis_memory_registration)
    )
    # The clock moved on. Each overwrite so far may have put the stamp 1 ms ahead of the write
    # time (grown by 1 within a millisecond): one overwrite after a longer pause brings it back
    # to the write time. From there, each overwrite begins 2 ms or more after the one before
    # returned.
    await wait_past(now_ms_ceil(), version + 1)
    version += 1
    stamp = await _stamp_after_overwrite(
        aalis_check, aalis_memory, version, stamp, f"after a pause of {version} ms"
    )
    returned = now_ms_ceil()
    for _ in range(4):
        began = await wait_past(returned)
        version += 1
        previous = stamp
        stamp = await _stamp_after_overwrite(
            aalis_check,
            aalis_memory,
            version,
            previous,
            f"begun {began - returned}+ ms after the previous one returned",
        )
        aalis_check.that(
            stamp - previous >= began - returned,
            f"updated_at after overwrite #{version}, begun {began - returned} ms after the "
            f"previous one returned: expected it to grow by at least {began - returned} ms (the "
            f"write time), it grew by {stamp - previous} ({previous} -> {stamp})",
        )
        returned = now_ms_ceil()


@pytest.mark.aalis_spec("META-06")
async def test_stored_data_is_isolated_from_callers(aalis_memory: MemoryService, aalis_check: Check) -> None:
    original: dict[str, Any] = {"tags": ["a", "b"], "inner": {"n": 1}}
    passed: dict[str, Any] = {"tags": ["a", "b"], "inner": {"n": 1}}
    await aalis_memory.save_metadata(NAMESPACE, "k", passed)
    passed["tags"].append("mutated")
    passed["inner"]["n"] = 99
    passed["added"] = True
    aalis_check.equal(
        "get_metadata after mutating the dict passed to save_metadata",
        await aalis_memory.get_metadata(NAMESPACE, "k"),
        original,
    )
    # the read above returned the saved object (a None fails on the subscript, as it always did)
    returned = cast(JsonObject, await aalis_memory.get_metadata(NAMESPACE, "k"))
    returned["tags"].append("mutated")
    returned["inner"]["n"] = 98
    returned["added"] = True
    aalis_check.equal(
        "get_metadata after mutating the dict get_metadata returned",
        await aalis_memory.get_metadata(NAMESPACE, "k"),
        original,
    )
    listed = await aalis_memory.list_metadata(NAMESPACE)
    listed[0].data["tags"].clear()
    listed[0].data["inner"]["n"] = 97
    aalis_check.equal(
        "get_metadata after mutating the data list_metadata returned",
        await aalis_memory.get_metadata(NAMESPACE, "k"),
        original,
    )
    aalis_check.equal(
        "list_metadata after mutating an earlier listing",
        await entries(aalis_memory, NAMESPACE),
        [("k", original)],
    )
    put = MetadataPut(NAMESPACE, "via-commit", {"tags": ["a", "b"], "inner": {"n": 1}})
    await aalis_memory.commit_metadata([put])
    put.data["tags"].append("mutated")
    put.data["inner"]["n"] = 96
    aalis_check.equal(
        "get_metadata after mutating the data of a committed MetadataPut",
        await aalis_memory.get_metadata(NAMESPACE, "via-commit"),
        original,
    )


def _rich_document() -> dict[str, Any]:
    return {
        "nested": {"deeper": {"deepest": {"leaf": "x"}}, "list": [[1, 2], [], [{"a": None}]]},
        "list": [1, "two", 3.5, True, False, None, {"k": "v"}],
        "unicode": '中文 \u2013 ünïcödé 🙂 \u0000 \t\n "quoted" \\',
        "键": "unicode key",
        "a.b.c": "dotted key",
        "$set": {"$inc": 1, "x.y": {"$gt": 2}},
        "empty_object": {},
        "empty_list": [],
        "empty_string": "",
        "big_int": 2**53,
        "big_negative": -(2**53 - 1),
        "zero": 0,
        "floats": [0.1, -2.5e-10, 1e300, 2.0, -0.5],
        "bools": [True, False],
        "null": None,
    }


@pytest.mark.aalis_spec("META-01")
async def test_get_returns_whatever_json_object_was_saved(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    """What was saved comes back: nesting, empty objects and lists, unicode, keys MongoDB treats
    specially ('.' inside, '$' in front), through save_metadata, list_metadata and a batch put.
    Compared as JSON values (True is not 1; a tuple and a list are one array, 2 and 2.0 one
    number: telling those apart is META-07's)."""
    cases: dict[str, dict[str, Any]] = {
        "rich": _rich_document(),
        "empty-object": {},
        "dotted.$key/中": {"only": 1},
        "dollar-top": {"$set": {"a": 1}, "$": "", "a.b": {"$ne": None}},
    }
    for key, data in cases.items():
        await aalis_memory.save_metadata(NAMESPACE, key, data)
    for key, data in cases.items():
        _expect_json(
            aalis_check, f"get_metadata(ns, {key!r})", await aalis_memory.get_metadata(NAMESPACE, key), data
        )
    listed = dict(await entries(aalis_memory, NAMESPACE))
    aalis_check.equal("keys of list_metadata", sorted(listed), sorted(cases))
    for key, data in cases.items():
        _expect_json(aalis_check, f"list_metadata(ns)[{key!r}]", listed[key], data)
    await aalis_memory.commit_metadata([MetadataPut(NAMESPACE, "via-commit", _rich_document())])
    _expect_json(
        aalis_check,
        "get_metadata after a commit_metadata put",
        await aalis_memory.get_metadata(NAMESPACE, "via-commit"),
        _rich_document(),
    )


def _alike() -> dict[str, Any]:
    """Values a JSON round trip cannot tell apart from others: tuples (arrays) and whole-valued
    floats (numbers)."""
    return {
        "tuple": (1, "two", (3, (4,))),
        "tuples_in_a_list": [(1, 2), ()],
        "nested": {"t": ({"k": (None,)},)},
        "whole": 2.0,
        "wholes": [1.0, -3.0, 1e16, 0.0],
    }


#: ``_alike()`` as a JSON round trip reads it back (a whole float may come back an int).
ALIKE_READ: Final[dict[str, Any]] = {
    "tuple": [1, "two", [3, [4]]],
    "tuples_in_a_list": [[1, 2], []],
    "nested": {"t": [{"k": [None]}]},
    "whole": 2.0,
    "wholes": [1.0, -3.0, 1e16, 0.0],
}


@pytest.mark.aalis_spec("META-07")
async def test_values_json_cannot_tell_apart_come_back_as_json_reads_them(
    aalis_memory: MemoryService,
    aalis_check: Check,
) -> None:
    await aalis_memory.save_metadata(NAMESPACE, "alike", _alike())
    _expect_json(
        aalis_check,
        "get_metadata(ns, 'alike')",
        await aalis_memory.get_metadata(NAMESPACE, "alike"),
        ALIKE_READ,
        strict=True,
    )
    listed = dict(await entries(aalis_memory, NAMESPACE))
    _expect_json(aalis_check, "list_metadata(ns)['alike']", listed.get("alike"), ALIKE_READ, strict=True)
    await aalis_memory.commit_metadata([MetadataPut(NAMESPACE, "via-commit", _alike())])
    _expect_json(
        aalis_check,
        "get_metadata after a commit_metadata put",
        await aalis_memory.get_metadata(NAMESPACE, "via-commit"),
        ALIKE_READ,
        strict=True,
    )


def _expect_json(check: Check, call: str, actual: Any, expected: Any, *, strict: bool = False) -> None:
    """``strict``: the Python type of every array counts (a tuple is not a list)."""
    difference = json_difference(actual, expected, arrays_alike=not strict)
    check.that(difference is None, f"{call}: {difference}")


@pytest.mark.aalis_spec("META-08")
async def test_save_of_unserializable_data_raises_and_stores_nothing(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await aalis_memory.save_metadata(NAMESPACE, "existing", {"v": "old"})
    with aalis_check.every_case("payloads JSON cannot hold were not refused cleanly") as cases:
        for name, build in UNSERIALIZABLE.items():
            before = await entries(aalis_memory, NAMESPACE)
            with cases.case():
                with aalis_check.raises(f"save_metadata(ns, 'existing', <{name}>)", TypeError, ValueError):
                    await aalis_memory.save_metadata(NAMESPACE, "existing", build())
                with aalis_check.raises(f"save_metadata(ns, 'fresh', <{name}>)", TypeError, ValueError):
                    await aalis_memory.save_metadata(NAMESPACE, "fresh", build())
                aalis_check.equal(
                    f"list_metadata after the failed saves of <{name}> over 'existing', 'fresh'",
                    await entries(aalis_memory, NAMESPACE),
                    before,
                )


@pytest.mark.aalis_spec("META-09")
@requires.raw_metadata
@pytest.mark.parametrize("kind", UNREADABLE)
async def test_list_skips_unreadable_entries(
    aalis_memory: MemoryService, aalis_memory_raw: Any, kind: RawMetadataKind, aalis_check: Check
) -> None:
    await aalis_memory.save_metadata(NAMESPACE, "a", {"v": "a"})
    await aalis_memory.save_metadata(NAMESPACE, "c", {"v": "c"})
    await aalis_memory_raw.plant_metadata(NAMESPACE, "b", kind)
    await aalis_memory_raw.plant_metadata(NAMESPACE, "0-first", kind)
    aalis_check.equal(
        f"list_metadata(ns) with {kind} entries planted at 'b' and '0-first'",
        await entries(aalis_memory, NAMESPACE),
        [("a", {"v": "a"}), ("c", {"v": "c"})],
    )


@pytest.mark.aalis_spec("META-10")
@requires.list_metadata_keys
async def test_list_keys_lists_the_namespace_keys(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    await aalis_memory.save_metadata(NAMESPACE, "k2", {"v": 2})
    await aalis_memory.save_metadata(NAMESPACE, "k1", {"v": 1})
    await aalis_memory.save_metadata(f"{NAMESPACE}-2", "k9", {"v": 9})
    aalis_check.equal(
        "sorted(list_metadata_keys(ns))",
        sorted(await aalis_memory.list_metadata_keys(NAMESPACE)),
        ["k1", "k2"],
    )
    aalis_check.equal(
        "list_metadata_keys('empty-ns')",
        await aalis_memory.list_metadata_keys("empty-ns"),
        [],
    )


@pytest.mark.aalis_spec("META-10")
@requires.list_metadata_keys
@requires.raw_metadata
@pytest.mark.parametrize("kind", UNREADABLE)
async def test_list_keys_includes_unreadable_entries(
    aalis_memory: FullMemoryService, aalis_memory_raw: Any, kind: RawMetadataKind, aalis_check: Check
) -> None:
    await aalis_memory.save_metadata(NAMESPACE, "a", {"v": "a"})
    await aalis_memory_raw.plant_metadata(NAMESPACE, "b", kind)
    aalis_check.equal(
        f"sorted(list_metadata_keys(ns)) with a {kind} entry planted at 'b'",
        sorted(await aalis_memory.list_metadata_keys(NAMESPACE)),
        ["a", "b"],
    )
