"""Calls per second of ``get_history(session, 20)`` through the stdio bridge (the TypeScript
reference backend, one call at a time) versus the in-process ``inmemory`` driver.

Build the bridge first (``cd bridges/typescript && npm ci && npm run build``), then run
``python benchmarks/bridge_overhead.py [SECONDS]`` from the repository root.
"""

from __future__ import annotations

import asyncio
import platform
import sys
import time
from pathlib import Path
from typing import Any

from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.drivers.stdio.client import Connection
from aalis_memory.drivers.stdio.driver import probe
from aalis_memory.drivers.stdio.store import StdioStore
from aalis_memory.types import Message

ADAPTER = Path(__file__).resolve().parent.parent / "bridges" / "typescript" / "dist" / "cjs" / "reference.js"
SESSION = "bench"


async def rate(store: Any, seconds: float) -> float:
    for index in range(100):
        await store.save_message(
            SESSION, Message(role="user", content=f"message {index}", timestamp=1000 + index)
        )
    for _ in range(50):  # warm up (the JIT on the node side)
        await store.get_history(SESSION, 20)
    calls, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        for _ in range(50):
            assert len(await store.get_history(SESSION, 20)) == 20
        calls += 50
    return calls / elapsed


async def main(seconds: float) -> None:
    local = await rate(InMemoryMemory(), seconds)
    command = ["node", str(ADAPTER)]
    hello = probe("bench", command)
    connection = Connection("bench", command)
    try:
        handle = (await connection.call("open", {"rangeQueryLimit": 500, "crossSessionMaxLimit": 1000}, 30))[
            "handle"
        ]
        bridged = await rate(StdioStore(connection, handle, hello["methods"], 30), seconds)
    finally:
        connection.stop()
    print(
        f"{platform.node()} {platform.machine()} Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}"
    )
    print(f"inmemory (in process):          {local:9.0f} get_history(20) calls/s")
    print(
        f"TypeScript reference via stdio: {bridged:9.0f} get_history(20) calls/s "
        f"({1e6 / bridged:.0f} us per call, {local / bridged:.1f}x slower)"
    )


if __name__ == "__main__":
    asyncio.run(main(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0))
