"""The stdio transport's cost per call: ``get_history(session, 20)`` and ``save_message`` through
the stdio bridge (the TypeScript reference backend, one call at a time) against the in-process
``inmemory`` driver, as calls per second and as the kit's own CPU time per call (the Python
side: framing, validating, decoding; the adapter's time is not in it, so this figure holds on a
busy machine too). ``--small-validator`` checks every line with the kit's own schema walker only,
as before the compiled validators, to compare the two.

Build the bridge first (``cd bridges/typescript && npm ci && npm run build``), then run
``python benchmarks/bridge_overhead.py [SECONDS] [--small-validator] [--adapter=COMMAND]`` from
the repository root. ``--adapter`` measures another backend's adapter, such as the compiled Go
example (``--adapter=examples/go-backend/go-memory`` after ``go build -o go-memory .`` there),
whose own time per call is a few microseconds: what remains is the transport's.

The last two rows are the reads the state machine makes after a step to check a session's state
(``get_history``, ``count_history`` and two ``get_full_history``), first one at a time, as the
machine makes them, then all four in flight at once (``asyncio.gather``), as a pipe can carry them:
per read, what sending them together would save.
"""

from __future__ import annotations

import asyncio
import platform
import shlex
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aalis_memory.conformance.machine.inputs import ALL
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.drivers.stdio import schema
from aalis_memory.drivers.stdio.client import Connection
from aalis_memory.drivers.stdio.driver import probe
from aalis_memory.drivers.stdio.store import StdioStore
from aalis_memory.types import Message

ADAPTER = Path(__file__).resolve().parent.parent / "bridges" / "typescript" / "dist" / "cjs" / "reference.js"
SESSION = "bench"
#: A short session (three messages), as most of the state machine's are.
STATE = "bench-state"


async def measure(call: Callable[[], Awaitable[Any]], seconds: float) -> tuple[float, float]:
    """Calls per second, and the process's CPU microseconds per call."""
    calls, started, cpu = 0, time.perf_counter(), time.process_time()
    while (elapsed := time.perf_counter() - started) < seconds:
        for _ in range(50):
            await call()
        calls += 50
    return calls / elapsed, (time.process_time() - cpu) / calls * 1e6


async def rates(store: Any, seconds: float) -> dict[str, tuple[float, float]]:
    for index in range(100):
        await store.save_message(
            SESSION, Message(role="user", content=f"message {index}", timestamp=1000 + index)
        )
    for _ in range(50):  # warm up (the JIT on the node side)
        await store.get_history(SESSION, 20)
    return {
        "get_history(20)": await measure(lambda: store.get_history(SESSION, 20), seconds),
        "save_message": await measure(
            lambda: store.save_message(SESSION, Message(role="user", content="x", timestamp=5000)), seconds
        ),
        **await state_reads(store, seconds),
    }


async def state_reads(store: Any, seconds: float) -> dict[str, tuple[float, float]]:
    """The four reads that check a short session's state, in turn and together, per read (none
    for a backend without ``count_history`` or ``get_full_history``)."""
    if not all(callable(getattr(store, name, None)) for name in ("count_history", "get_full_history")):
        return {}
    for index in range(3):
        await store.save_message(STATE, Message(role="user", content=f"m{index}", timestamp=1000 + index))

    def reads() -> list[Awaitable[Any]]:
        return [
            store.get_history(STATE, ALL),
            store.count_history(STATE),
            store.get_full_history(STATE, ALL),
            store.get_full_history(STATE, 3),
        ]

    async def in_turn() -> None:
        for read in reads():
            await read

    async def together() -> None:
        await asyncio.gather(*reads())

    found: dict[str, tuple[float, float]] = {}
    for name, call in (("4 state reads, in turn", in_turn), ("4 state reads, together", together)):
        rate, cpu = await measure(call, seconds)
        found[name] = rate * 4, cpu / 4  # per read
    return found


async def main(seconds: float, small: bool, command: list[str]) -> None:
    if small:
        schema._holds = lambda value, key: False  # every line walked
    local = await rates(InMemoryMemory(), seconds)
    hello = probe("bench", command)
    connection = Connection("bench", command)
    try:
        handle = (await connection.call("open", {"rangeQueryLimit": 500, "crossSessionMaxLimit": 1000}, 30))[
            "handle"
        ]
        bridged = await rates(StdioStore(connection, handle, hello["methods"], 30), seconds)
    finally:
        connection.stop()
    print(
        f"{platform.node()} {platform.machine()} Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}, validator: {'small only' if small else 'compiled first'}, "
        f"adapter: {shlex.join(command)}"
    )
    for name, (rate, cpu) in local.items():
        if name not in bridged:
            print(f"{name:24} left out: the adapter lacks count_history or get_full_history")
            continue
        over, over_cpu = bridged[name]
        print(f"{name:24} inmemory {rate:8.0f} calls/s ({cpu:4.0f} us CPU a call)")
        print(
            f"{'':24} stdio    {over:8.0f} calls/s ({over_cpu:4.0f} us CPU a call, "
            f"{1e6 / over:5.0f} us a call, {rate / over:.1f}x slower)"
        )


if __name__ == "__main__":
    arguments = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
    adapter = next((arg.split("=", 1)[1] for arg in sys.argv[1:] if arg.startswith("--adapter=")), None)
    asyncio.run(
        main(
            float(arguments[0]) if arguments else 5.0,
            "--small-validator" in sys.argv,
            ["node", str(ADAPTER)] if adapter is None else shlex.split(adapter),
        )
    )
