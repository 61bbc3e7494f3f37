"""Run the benchmarks: each reference driver against its raw engine, at growing sizes.

``python -m benchmarks`` measures at 1,000, 10,000 and 100,000 stored messages (minutes);
``--quick`` at 200 and 2,000 (seconds), for a smoke run. Every line is a ratio of medians of
interleaved repetitions (driver time / raw time), never an absolute verdict.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import itertools
import os
import platform
import sqlite3
import sys
import tempfile
import tracemalloc
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import attrs

from benchmarks.sides import DriverSide, Item, Side, item, metadata_ops
from benchmarks.timing import Pair, compare

SESSION = "bench"
NAMESPACE = "bench-list"
#: Operations, in the order printed (the kit test checks a ratio line for each).
OPERATIONS = (
    "save",
    "save burst of 100",
    "get_history(20)",
    "count_history",
    "get_full_history(200)",
    "archive_span(1)",
    "commit_metadata(10 ops)",
    "list_metadata(1000 keys)",
)
DRIVERS = ("sqlite", "mongodb")


@attrs.frozen
class Plan:
    sizes: tuple[int, ...]
    repetitions: int
    #: Calls per sample is ``batch`` times an operation's own weight (at least 1).
    batch: int
    metadata_keys: int = 1000


FULL_PLAN = Plan((1000, 10000, 100000), repetitions=9, batch=4)
QUICK_PLAN = Plan((200, 2000), repetitions=5, batch=1)


def machine() -> str:
    return (
        f"{datetime.date.today().isoformat()}, {platform.machine()} {platform.system()} "
        f"{platform.release()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}"
    )


async def bench_sizes(name: str, driver: Side, raw: Side, plan: Plan, out: Callable[[str], None]) -> None:
    fresh = itertools.count(10**8)  # items saved while timing, after every filled one
    commits = itertools.count()
    filled = 0
    await driver.fill_metadata(NAMESPACE, plan.metadata_keys)
    await raw.fill_metadata(NAMESPACE, plan.metadata_keys)
    for size in plan.sizes:
        items = [item(i) for i in range(filled, size)]
        await driver.fill(SESSION, items)
        await raw.fill(SESSION, items)
        filled = size

        def saving(side: Side, count: int) -> Callable[[], Awaitable[None]]:
            async def save() -> None:
                for _ in range(count):
                    await side.save(SESSION, item(next(fresh)))

            return save

        def committing(side: Side) -> Callable[[], Awaitable[None]]:
            async def commit() -> None:
                await side.commit(metadata_ops(next(commits), 10))

            return commit

        works: list[tuple[str, Callable[[Side], Callable[[], Awaitable[object]]], int]] = [
            ("save", lambda s: saving(s, 1), 10),
            ("save burst of 100", lambda s: saving(s, 100), 1),
            ("get_history(20)", lambda s: lambda: s.history(SESSION), 10),
            ("count_history", lambda s: lambda: s.count(SESSION), 20),
            ("get_full_history(200)", lambda s: lambda: s.full(SESSION), 2),
            ("archive_span(1)", lambda s: lambda: s.archive(SESSION), 5),
            ("commit_metadata(10 ops)", committing, 2),
            ("list_metadata(1000 keys)", lambda s: lambda: s.list_metadata(NAMESPACE), 1),
        ]
        for operation, make, weight in works:
            pair: Pair = await compare(
                operation, make(driver), make(raw), plan.repetitions, max(1, plan.batch * weight // 2)
            )
            out(pair.line(name, size))
    out(await peak_memory(name, driver, raw, filled))


async def peak_memory(name: str, driver: Side, raw: Side, size: int) -> str:
    """Peak Python memory of reading the whole session (tracemalloc; the engine's own C
    allocations are not traced, the same on both sides)."""
    peaks = []
    for side in (driver, raw):
        tracemalloc.start()
        try:
            await side.read_all(SESSION)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    return (
        f"{name:<8} n={size:<7,} peak memory reading the whole session: driver "
        f"{peaks[0] / 2**20:.1f} MiB  raw {peaks[1] / 2**20:.1f} MiB  "
        f"ratio {peaks[0] / max(peaks[1], 1):5.2f}x"
    )


@contextlib.asynccontextmanager
async def sqlite_sides(workdir: Path) -> AsyncIterator[tuple[Side, Side]]:
    from aalis_memory.drivers.sqlite import SqliteMemory
    from benchmarks.raw_sqlite import RawSqlite

    driver = DriverSide(await SqliteMemory.open(workdir / "driver.sqlite3"))
    raw = RawSqlite(workdir / "raw.sqlite3")
    try:
        yield driver, raw
    finally:
        await driver.close()
        await raw.close()


@contextlib.contextmanager
def mongodb_uri(uri: str | None) -> Iterator[str | None]:
    """The given URI, else a server the kit's fixtures can start (``None``: no server)."""
    if uri:
        yield uri
        return
    from aalis_memory.fixtures.mongodb_server import provider_for

    provider = provider_for(None)
    if provider is None:
        yield None
        return
    with provider() as server:
        yield server.uri


@contextlib.asynccontextmanager
async def mongodb_sides(uri: str) -> AsyncIterator[tuple[Side, Side]]:
    from aalis_memory.drivers.mongodb import MongoConfig, MongoMemory
    from benchmarks.raw_mongo import RawMongo

    suffix = f"{os.getpid()}"
    store = await MongoMemory.open(MongoConfig(uri=uri, database=f"bench_driver_{suffix}"))
    driver = DriverSide(store)
    raw = await RawMongo.open(uri, f"bench_raw_{suffix}")
    try:
        yield driver, raw
    finally:
        await store.client.drop_database(store.database.name)
        await driver.close()
        await raw.close()


async def run(drivers: list[str], plan: Plan, mongodb: str | None) -> None:
    print(
        f"benchmarks: {machine()}; sizes {', '.join(f'{s:,}' for s in plan.sizes)}; medians "
        f"of {plan.repetitions} interleaved repetitions; ratio = driver time / raw time",
        flush=True,
    )

    def out(line: str) -> None:
        print(line, flush=True)

    with tempfile.TemporaryDirectory(prefix="aalis-bench-") as tmp:
        if "sqlite" in drivers:
            async with sqlite_sides(Path(tmp)) as (driver, raw):
                await bench_sizes("sqlite", driver, raw, plan, out)
        if "mongodb" in drivers:
            with mongodb_uri(mongodb) as uri:
                if uri is None:
                    out("mongodb  skipped: no server (give --mongodb-uri, or put mongod or ferretdb on PATH)")
                else:
                    async with mongodb_sides(uri) as (driver, raw):
                        await bench_sizes("mongodb", driver, raw, plan, out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes, few repetitions")
    parser.add_argument(
        "--drivers", default=",".join(DRIVERS), help=f"comma list of {', '.join(DRIVERS)} (default: both)"
    )
    parser.add_argument("--sizes", help="comma list of stored-message counts")
    parser.add_argument("--repetitions", type=int, help="interleaved repetitions per operation")
    parser.add_argument(
        "--mongodb-uri", help="the MongoDB server (default: start one as the kit's fixtures do)"
    )
    args = parser.parse_args(argv)
    plan = QUICK_PLAN if args.quick else FULL_PLAN
    if args.sizes:
        plan = attrs.evolve(plan, sizes=tuple(int(s) for s in args.sizes.split(",")))
    if args.repetitions:
        plan = attrs.evolve(plan, repetitions=args.repetitions)
    drivers = [d.strip() for d in args.drivers.split(",") if d.strip()]
    unknown = sorted(set(drivers) - set(DRIVERS))
    if unknown:
        parser.error(f"unknown driver(s) {', '.join(unknown)}; known: {', '.join(DRIVERS)}")
    asyncio.run(run(drivers, plan, args.mongodb_uri))
    return 0


__all__ = ["OPERATIONS", "Item", "main"]

if __name__ == "__main__":
    sys.exit(main())
