"""The SQLite reference driver's own tests: what the portable suite cannot see.

Query plans, a second connection on the same file, a writer killed mid-transaction, lifecycle,
concurrent callers and persistence. Async tests take ``aalis_memory_loop`` so the kit's plugin runs
them on their own event loop. Pauses are driven by the driver's ``_after_write`` seam and
``threading.Event``s, never by sleeps.
"""

from __future__ import annotations

import asyncio
import math
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from contextlib import closing
from pathlib import Path
from typing import Any, TypeVar

import pytest

from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.drivers.sqlite import SqliteMemory
from aalis_memory.types import (
    Message,
    MetadataDel,
    MetadataEntry,
    MetadataPut,
    RecentMessagesAcrossSessionsQuery,
)

MARKER = "event-marker"
T = TypeVar("T")
RELEASE_TIMEOUT = 60.0  # a safety net against a hung test, never an ordering device


def msg(content: str, ts: int, role: str = "user", **fields: Any) -> Message:
    return Message(role=role, content=content, timestamp=ts, **fields)


class PausingSqlite(SqliteMemory):
    """Stops inside its write transaction after ``pause_after`` rows until released."""

    pause_after = 100

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.inside = threading.Event()
        self.release = threading.Event()

    def _after_write(self, written: int) -> None:
        if written == self.pause_after:
            self.inside.set()
            if not self.release.wait(RELEASE_TIMEOUT):
                raise TimeoutError("the test never released the paused writer")


async def wait_inside(writer: PausingSqlite) -> None:
    reached = await asyncio.to_thread(writer.inside.wait, RELEASE_TIMEOUT)
    assert reached, "the writer never reached the middle of its transaction"


# -- query plan ------------------------------------------------------------------------------


def plan_of(path: Path, sql: str) -> list[str]:
    with closing(sqlite3.connect(path)) as conn:
        return [str(row[3]) for row in conn.execute("EXPLAIN QUERY PLAN " + sql)]


async def traced(store: SqliteMemory, call: Callable[[], Awaitable[T]]) -> tuple[T, list[str]]:
    """The result of ``call`` and the statements it ran, traced on both connections: the
    worker's, and the one an idle store uses inline."""
    statements: list[str] = []
    await store._call(lambda conn: conn.set_trace_callback(statements.append))
    if store._inline is not None:
        store._inline.set_trace_callback(statements.append)
    try:
        result = await call()
    finally:
        await store._call(lambda conn: conn.set_trace_callback(None))
        if store._inline is not None:
            store._inline.set_trace_callback(None)
    return result, statements


async def three_sessions(path: Path) -> SqliteMemory:
    """Sessions s0-s2 of 400 messages (every 7th a control record); s1 has its oldest 150
    archived, so its active and archived runs are both long."""
    store = await SqliteMemory.open(path)
    for session in ("s0", "s1", "s2"):
        for i in range(400):
            kind = MARKER if i % 7 == 0 else None
            await store.save_message(session, msg(f"{session}-{i}", 1000 + i, kind=kind))
    await store.archive_span("s1", 150)
    return store


def one_select(path: Path, statements: list[str]) -> list[str]:
    """The plan of the one statement a read ran (a read opens no transaction)."""
    assert [s for s in statements if not s.lstrip().upper().startswith("SELECT")] == [], statements
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 1, statements
    return plan_of(path, selects[0])


@pytest.mark.aalis_spec("HIST-03", "HIST-04")
async def test_get_history_20_uses_index_searches_only(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    path = tmp_path / "plan.sqlite3"
    async with await three_sessions(path) as store:
        got, statements = await traced(store, lambda: store.get_history("s1", 20))

    assert sum(1 for m in got if not m.is_control) == 20
    assert got == sorted(got, key=lambda m: m.timestamp or 0)
    # One statement (one snapshot, no transaction to open), walked newest first and left as soon
    # as the window is read: the cursor stops at the 21st conversation message.
    plan = one_select(path, statements)
    assert len(plan) == 1, plan  # one step: no temp b-tree, no second pass
    # It walks only the active entries of the session (no archived rows), in index order.
    assert plan[0] == "SEARCH messages USING INDEX messages_state (session_id=? AND archived=?)", plan


@pytest.mark.parametrize("read", ["full history", "range"])
async def test_reads_of_both_runs_merge_them_without_a_sort(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner, read: str
) -> None:
    """get_full_history and the range read see archived messages too: two runs of one index,
    which SQLite merges as it reads them. A sort would read the whole session before the first
    row (a full history of 200 out of 100,000 would cost as much as reading them all)."""
    path = tmp_path / "merge.sqlite3"
    async with await three_sessions(path) as store:
        if read == "full history":
            got, statements = await traced(store, lambda: store.get_full_history("s1", 200))
            expected = [f"s1-{i}" for i in range(200, 400)]
        else:
            got, statements = await traced(
                store, lambda: store.get_messages_by_session_range("s1", 1140, 1160)
            )
            expected = [f"s1-{i}" for i in range(140, 161)]
    assert [m.content for m in got] == expected  # across the archived/active boundary at 150
    plan = one_select(path, statements)
    assert "MERGE (UNION ALL)" in plan, plan
    assert not any("TEMP B-TREE" in step or step.startswith("SCAN") for step in plan), plan
    assert (
        plan.count(
            "SEARCH messages USING INDEX messages_state (session_id=? AND archived=?"
            + (")" if read == "full history" else " AND ts>? AND ts<?)")
        )
        == 2
    ), plan


async def test_a_task_calling_the_store_in_a_loop_lets_the_others_run(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    """A call run on the loop's own thread gives the loop away only every 8th time (a turn of the
    loop costs as much as a short read), but it does give it away: a task that awaits the store
    again and again never starves the others."""
    async with await SqliteMemory.open(tmp_path / "turns.sqlite3") as store:
        await store.save_message("s", msg("m", 1000))
        turns, done = 0, False

        async def other() -> None:
            nonlocal turns
            while not done:
                turns += 1
                await asyncio.sleep(0)

        task = asyncio.create_task(other())
        await asyncio.sleep(0)
        before, inline_before = turns, store._inline_calls
        for _ in range(80):
            await store.get_history("s", 20)
        inline = store._inline_calls - inline_before
        done = True
        await task
    assert inline == 80, f"{inline} of the 80 reads ran inline (the path this test is about)"
    assert turns - before >= 80 // 8, f"the other task ran {turns - before} times in 80 reads"


async def test_a_deletion_naming_more_timestamps_than_a_statement_takes(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    """One SQLite statement takes a bounded number of variables (32,766 by default): a deletion
    naming more timestamps than that is split into statements, and each deletes what it names
    (taking all the remaining timestamps at each step raises "too many SQL variables")."""
    with closing(sqlite3.connect(":memory:")) as probe:
        cap = probe.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    stamps = (5, cap // 2, cap + 500)
    async with await SqliteMemory.open(tmp_path / "many.sqlite3") as store:
        for ts in stamps:
            await store.save_message("s", msg(f"m{ts}", ts))
        await store.save_message("other", msg("kept", cap // 2))
        assert await store.delete_messages_by_timestamps("s", list(range(1, cap + 1000))) == len(stamps)
        assert await store.get_full_history("s") == []
        assert [m.content for m in await store.get_full_history("other")] == ["kept"]


# -- a second connection never sees half a transaction -------------------------------------


@pytest.mark.aalis_spec("COMMIT-05")
async def test_other_connection_never_sees_part_of_a_commit(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    path = tmp_path / "commit.sqlite3"
    async with await PausingSqlite.open(path) as writer, await SqliteMemory.open(path) as reader:
        await writer.save_metadata("ns", "before", {"v": 0})
        ops = [MetadataPut("ns", f"k{i:03}", {"i": i}) for i in range(200)]
        commit = asyncio.create_task(writer.commit_metadata(ops))
        try:
            await wait_inside(writer)
            seen = [
                len(await reader.list_metadata("ns")),
                len(await reader.list_metadata_keys("ns")),
            ]
        finally:
            writer.release.set()
        while not commit.done():
            seen.append(len(await reader.list_metadata("ns")))
        await commit
        seen.append(len(await reader.list_metadata("ns")))

    assert seen[:2] == [1, 1], "a reader saw writes of an uncommitted batch"
    assert seen[-1] == 201
    assert set(seen) <= {1, 201}, seen


@pytest.mark.aalis_spec("ARCH-10")
async def test_other_connection_never_sees_part_of_an_archive(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    path = tmp_path / "archive.sqlite3"
    async with await PausingSqlite.open(path) as writer, await SqliteMemory.open(path) as reader:
        for i in range(201):
            await writer.save_message("s", msg(f"m{i}", 1000 + i))
        archive = asyncio.create_task(writer.archive_span("s", 200, keep=[5]))
        try:
            await wait_inside(writer)
            seen = [await reader.count_history("s"), len(await reader.get_history("s", math.inf))]
        finally:
            writer.release.set()
        while not archive.done():
            seen.append(await reader.count_history("s"))
        archived = await archive
        after = await reader.get_history("s", math.inf)
        seen.append(len(after))

    assert archived == 199
    assert seen[:2] == [201, 201], "a reader saw part of an uncommitted archive"
    assert [m.content for m in after] == ["m5", "m200"]
    assert set(seen) <= {201, 2}, seen


# -- a writer killed inside its transaction ----------------------------------------------------

CHILD = """
import asyncio, sys
from aalis_memory.drivers.sqlite import SqliteMemory
from aalis_memory.types import MetadataPut

PATH, MODE = sys.argv[1], sys.argv[2]

class Signalling(SqliteMemory):
    def _after_write(self, written):
        if MODE == "inside" and written == 500:
            print("inside", flush=True)
            sys.stdin.read()  # parked inside the open transaction until the parent kills us

async def main():
    store = await Signalling.open(PATH)
    pad = "x" * 8000  # 500 rows of this outgrow the page cache: the batch spills into the WAL
    await store.commit_metadata(
        [MetadataPut("batch", f"k{i:04}", {"i": i, "pad": pad}) for i in range(1000)]
    )
    print("committed", flush=True)
    sys.stdin.read()

asyncio.run(main())
"""


@pytest.mark.parametrize(("mode", "expected_keys"), [("inside", 0), ("committed", 1000)])
async def test_sigkilled_writer_leaves_all_or_nothing(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner, mode: str, expected_keys: int
) -> None:
    path = tmp_path / "crash.sqlite3"
    async with await SqliteMemory.open(path) as store:
        await store.save_metadata("batch", "k0000", {"i": "old"})
        await store.save_metadata("other", "kept", {"v": 1})

    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        line = await asyncio.to_thread(child.stdout.readline)
        assert line.strip() == mode
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        child.wait()
        for stream in (child.stdin, child.stdout):
            if stream is not None:
                stream.close()
    assert child.returncode == -signal.SIGKILL
    wal = path.with_name(path.name + "-wal")
    assert wal.stat().st_size > 1_000_000, "the killed writer left no frames in the WAL"

    async with await SqliteMemory.open(path) as store:
        keys = await store.list_metadata_keys("batch")
        old = await store.get_metadata("batch", "k0000")
        kept = await store.get_metadata("other", "kept")
    assert kept == {"v": 1}
    if expected_keys == 0:
        assert keys == ["k0000"], f"{len(keys)} keys: part of the killed batch survived"
        assert old == {"i": "old"}
    else:
        assert keys == [f"k{i:04}" for i in range(1000)]
        assert old is not None
        assert old["i"] == 0


# -- lifecycle -----------------------------------------------------------------------------


async def test_open_uses_wal_and_close_is_final(tmp_path: Path, aalis_memory_loop: asyncio.Runner) -> None:
    path = tmp_path / "life.sqlite3"
    store = await SqliteMemory.open(path, range_query_limit=3, cross_session_max_limit=4)
    assert (store.range_query_limit, store.cross_session_max_limit) == (3, 4)
    await store.save_message("s", msg("a", 1))
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    await store.close()
    await store.close()  # harmless
    with pytest.raises(RuntimeError, match="not open"):
        await store.get_history("s")


async def test_both_connections_keep_the_durability_setting(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    """synchronous=NORMAL (1) on the worker's connection and on the event loop's inline one: a
    connection left at SQLite's default (FULL) would be slower, one set lower would lose commits
    on a power cut. (A per-connection setting, so only the store's own connections show it.)"""
    store = await SqliteMemory.open(tmp_path / "sync.sqlite3")
    try:
        assert store._inline is not None
        assert store._inline.execute("PRAGMA synchronous").fetchone()[0] == 1

        def worker_setting() -> Any:
            assert store._conn is not None
            return store._conn.execute("PRAGMA synchronous").fetchone()[0]

        assert await asyncio.get_running_loop().run_in_executor(store._worker, worker_setting) == 1
    finally:
        await store.close()


async def test_async_with_closes(tmp_path: Path, aalis_memory_loop: asyncio.Runner) -> None:
    async with await SqliteMemory.open(tmp_path / "ctx.sqlite3") as store:
        await store.save_message("s", msg("a", 1))
    with pytest.raises(RuntimeError, match="not open"):
        await store.save_message("s", msg("b", 2))


async def test_bad_caps_are_refused_before_touching_disk(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    path = tmp_path / "never.sqlite3"
    with pytest.raises(ValueError, match="range_query_limit"):
        await SqliteMemory.open(path, range_query_limit=0)
    with pytest.raises(ValueError, match="cross_session_max_limit"):
        await SqliteMemory.open(path, cross_session_max_limit=-1)
    assert not path.exists()


async def test_subclass_opens_as_itself(tmp_path: Path, aalis_memory_loop: asyncio.Runner) -> None:
    class Tagged(SqliteMemory):
        tag = "mine"

    async with await Tagged.open(tmp_path / "sub.sqlite3", range_query_limit=9) as store:
        assert type(store) is Tagged
        assert store.range_query_limit == 9
        await store.save_message("s", msg("a", 1))
        assert [m.content for m in await store.get_history("s")] == ["a"]


# -- ordering ------------------------------------------------------------------------------------


@pytest.mark.aalis_spec("HIST-02", "FULL-02", "ARCH-01", "RANGE-03", "CROSS-02", "UPD-01")
async def test_every_read_orders_by_timestamp_then_write_order(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    async with await SqliteMemory.open(tmp_path / "order.sqlite3", range_query_limit=3) as store:
        # written a, b, c, d, e, then x in another session; history order is b e c d a
        for content, ts in (("a", 300), ("b", 100), ("c", 200), ("d", 200), ("e", 100)):
            await store.save_message("s", msg(content, ts, role="user"))
        await store.save_message("t", msg("x", 200, role="user"))

        def names(messages: list[Message]) -> list[str | None]:
            return [m.content for m in messages]

        assert names(await store.get_history("s", math.inf)) == ["b", "e", "c", "d", "a"]
        assert names(await store.get_history("s", 2)) == ["d", "a"]
        assert names(await store.get_full_history("s", 3)) == ["c", "d", "a"]
        assert names(await store.get_messages_by_session_range("s", 100, 200)) == ["b", "e", "c"]
        recent = await store.get_recent_messages_across_sessions(RecentMessagesAcrossSessionsQuery(limit=3))
        assert [(r.session_id, r.message.content) for r in recent] == [("s", "d"), ("t", "x"), ("s", "a")]
        assert await store.update_message_content("s", "e", "E", 4) == 1  # e is 4th newest
        assert await store.update_message_content("s", "b", "B", 4) == 0  # b is 5th
        assert await store.archive_span("s", 3, keep=[1]) == 2
        assert names(await store.get_history("s", math.inf)) == ["E", "d", "a"]


# -- concurrency and persistence -----------------------------------------------------------------


@pytest.mark.aalis_spec("HIST-02", "COUNT-01", "COMMIT-05")
async def test_concurrent_async_callers_stay_consistent(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    async with await SqliteMemory.open(tmp_path / "busy.sqlite3") as store:
        sessions = ("a", "b", "c")
        # timestamps deliberately out of write order, with same-ms ties
        writes = [
            store.save_message(s, msg(f"{s}{i}", 1000 + (i * 37) % 50, role="user"))
            for i in range(60)
            for s in sessions
        ]
        reads = [store.get_history(s, 10) for s in sessions for _ in range(10)]
        batches = [
            store.commit_metadata([MetadataPut("ns", f"b{b}-{k}", {"k": k}) for k in range(10)])
            for b in range(20)
        ]
        lists = [store.list_metadata("ns") for _ in range(20)]
        # one gather: every call is in flight at once, interleaved as the loop schedules them
        done = await asyncio.gather(
            asyncio.gather(*writes),
            asyncio.gather(*reads),
            asyncio.gather(*batches),
            asyncio.gather(*lists),
        )
        histories: list[list[Message]] = done[1]
        listings: list[list[MetadataEntry]] = done[3]

        for history in histories:
            assert history == sorted(history, key=lambda m: m.timestamp or 0)
        for listing in listings:
            assert len(listing) % 10 == 0, "a listing saw part of a batch"
        for s in sessions:
            expected = sorted(
                (msg(f"{s}{i}", 1000 + (i * 37) % 50) for i in range(60)),
                key=lambda m: m.timestamp or 0,
            )  # stable sort: same-ms messages keep write order
            assert await store.get_history(s, math.inf) == expected
            assert await store.count_history(s) == 60
        assert len(await store.list_metadata("ns")) == 200


async def test_two_stores_write_the_same_file_concurrently(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner
) -> None:
    path = tmp_path / "shared.sqlite3"
    async with await SqliteMemory.open(path) as one, await SqliteMemory.open(path) as two:
        await asyncio.gather(
            *(
                store.save_message("s", msg(f"{name}{i}", 1000 + i))
                for i in range(50)
                for name, store in (("one", one), ("two", two))
            ),
            *(
                store.commit_metadata([MetadataPut("ns", f"{name}{i}", {"i": i})])
                for i in range(50)
                for name, store in (("one", one), ("two", two))
            ),
        )
        assert await one.count_history("s") == 100
        assert len(await two.list_metadata("ns")) == 100


@pytest.mark.aalis_spec("MSG-02", "META-05", "ARCH-09")
async def test_everything_survives_reopening(tmp_path: Path, aalis_memory_loop: asyncio.Runner) -> None:
    path = tmp_path / "persist.sqlite3"
    saved = [
        msg("plain", 1000),
        Message(
            role="assistant",
            content=None,
            tool_calls=({"id": "c1", "function": {"name": "f", "arguments": "{}"}},),
            timestamp=1000,
            reasoning_content=None,
            segments=({"type": "text", "text": "x"},),
            images=("data:image/png;base64,AAAA",),
            audios=("https://example.invalid/a.ogg",),
            metadata={"platform": "qq", "nested": {"ü": [1, 2.5, None]}},
        ),
        Message(role="tool", content="result", tool_call_id="c1", name="f", timestamp=1000.5),
        Message(role="system", content="divider", kind=MARKER, timestamp=1001),
        msg("astral 😀, NUL \x00 and 漢字", 1002, reasoning_content="why"),
    ]
    async with await SqliteMemory.open(path) as store:
        for message in saved:
            await store.save_message("s", message)
        assert await store.archive_span("s", 1) == 1
        await store.save_metadata("ns", "k", {"a.b": {"$c": "✓"}})
        first = await store.list_metadata("ns")

    async with await SqliteMemory.open(path) as store:
        assert await store.get_full_history("s", math.inf) == saved
        assert await store.get_history("s", math.inf) == saved[1:]
        assert await store.list_metadata("ns") == first
        await store.save_metadata("ns", "k", {"v": 2})
        second = await store.list_metadata("ns")
    assert second[0].updated_at > first[0].updated_at


# -- agreement with the in-memory reference ------------------------------------------------------

LIMITS: tuple[int | float | None, ...] = (0, 1, 2, 3, 10, math.inf, None)


def random_call(rnd: random.Random, step: int, ts: int) -> tuple[str, tuple[Any, ...]]:
    """One contract call with random arguments (the timestamp of a save is ``ts``)."""
    sid = rnd.choice("abc")
    pick = rnd.randrange(12)
    if pick < 4:
        message = Message(
            role=rnd.choice(["user", "assistant", "system", "tool"]),
            content=rnd.choice(["hello", "x", None, "hello hello"]),
            kind=rnd.choice([None, None, MARKER, "turn-record", "other"]),
            timestamp=ts,
            metadata=rnd.choice([None, {"platform": "qq"}, {"platform": "tg"}]),
        )
        return "save_message", (sid, message)
    keep = [rnd.randrange(6) for _ in range(rnd.randrange(3))]
    query = RecentMessagesAcrossSessionsQuery(
        limit=rnd.choice([0, 1, 3, 10, math.inf]),
        since_ts=rnd.choice([None, ts - 20]),
        platform=rnd.choice([None, "qq"]),
        exclude_session_ids=rnd.choice([None, ["a"]]),
        roles=rnd.choice([None, ["user", "system"]]),
        kinds=rnd.choice([None, [MARKER]]),
        exclude_kinds=rnd.choice([None, ["turn-record"]]),
    )
    choices: list[tuple[str, tuple[Any, ...]]] = [
        ("get_history", (sid, rnd.choice(LIMITS))),
        ("get_full_history", (sid, rnd.choice(LIMITS))),
        ("archive_span", (sid, rnd.randrange(6), keep)),
        ("count_history", (sid,)),
        (
            "get_messages_by_session_range",
            (
                sid,
                rnd.randrange(990, ts + 2),
                rnd.randrange(1000, ts + 5),
                rnd.choice([None, ["user"], ["assistant", "system"]]),
                rnd.choice([None, [MARKER], ["other"]]),
            ),
        ),
        ("get_recent_messages_across_sessions", (query,)),
        ("update_message_content", (sid, "hello", "bye", rnd.choice(LIMITS))),
        ("delete_messages_by_timestamps", (sid, [rnd.randrange(1000, ts + 1) for _ in range(2)])),
        ("clear_session", (sid,)),
        (
            "commit_metadata",
            ([MetadataPut("ns", rnd.choice("kl"), {"v": step}), MetadataDel("ns", rnd.choice("kl"))],),
        ),
        ("list_metadata_keys", ("ns",)),
        ("get_metadata", ("ns", "k")),
    ]
    return rnd.choice(choices)


@pytest.mark.parametrize("seed", range(6))
async def test_agrees_with_the_in_memory_reference(
    tmp_path: Path, aalis_memory_loop: asyncio.Runner, seed: int
) -> None:
    """Timestamps grow with every write here, where timestamp and write ordering coincide."""
    rnd = random.Random(seed)
    reference = InMemoryMemory(range_query_limit=7, cross_session_max_limit=5)
    ts = 1000
    async with await SqliteMemory.open(
        tmp_path / "diff.sqlite3", range_query_limit=7, cross_session_max_limit=5
    ) as store:
        for step in range(250):
            ts += rnd.choice([1, 5])
            name, args = random_call(rnd, step, ts)
            expected = await getattr(reference, name)(*args)
            got = await getattr(store, name)(*args)
            assert got == expected, f"seed {seed} step {step}: {name}{args}"
        listed = [(e.key, e.data) for e in await store.list_metadata("ns")]
    assert listed == [(e.key, e.data) for e in await reference.list_metadata("ns")]
