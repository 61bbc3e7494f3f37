"""Reading the adapter at shutdown: stop() closes the adapter's stdout while an event loop may be
reading it (issue 35: with a reader thread this once let ``ValueError: readline of closed file``
escape and print at the end of a run; issue 36: the loop that awaits a call reads its answer)."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from typing import Any, Final

import pytest

from aalis_memory.drivers.stdio.client import Connection
from aalis_memory.drivers.stdio.errors import StdioBridgeError

#: An adapter that never stops writing (blank lines, which the reader skips) and never answers:
#: its loop is always reading when the pipe is closed.
FLOOD: Final = [
    sys.executable,
    "-c",
    "import sys\nwhile True:\n    sys.stdout.write('\\n' * 4096)\n    sys.stdout.flush()",
]

#: Connections stopped at once: before the fix about half of them let the exception out.
CONNECTIONS: Final = 8


def test_no_exception_escapes_a_reader_stopped_under_a_flood(monkeypatch: pytest.MonkeyPatch) -> None:
    escaped: list[str] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: escaped.append(repr(args.exc_value)))
    connections = [Connection(f"flood-{n}", FLOOD) for n in range(CONNECTIONS)]
    outcomes: list[Any] = []
    reading = threading.Event()

    async def calls() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: escaped.append(repr(context)))
        pending = [asyncio.ensure_future(c.call("hello", {"protocolVersion": 1}, 30.0)) for c in connections]
        await asyncio.sleep(0.2)  # every loop reader has read some of the flood
        reading.set()
        outcomes.extend(await asyncio.gather(*pending, return_exceptions=True))
        await asyncio.sleep(0.1)  # a reader left on a closed pipe would be called here

    runner = threading.Thread(target=asyncio.run, args=(calls(),))
    runner.start()
    assert reading.wait(10.0)
    started = time.monotonic()
    stopping = [threading.Thread(target=connection.stop) for connection in connections]
    for thread in stopping:
        thread.start()
    for thread in stopping:
        thread.join()
    runner.join(10.0)
    assert not runner.is_alive()
    assert time.monotonic() - started < 10.0
    assert len(outcomes) == CONNECTIONS
    for outcome in outcomes:  # each call ends, saying the connection was closed
        assert isinstance(outcome, StdioBridgeError), outcome
        assert "the connection was closed" in str(outcome), outcome
    for connection in connections:
        assert connection.broken is not None  # the connection says why it cannot be used
    assert not escaped, escaped


def test_an_adapter_that_exits_between_calls_is_seen_before_the_next() -> None:
    """With no thread reading, the end of an adapter's output is read when the kit next asks
    whether the connection is usable: the adapter is started again for the next test, and the
    message says it exited, with its code (not a write to a closed pipe)."""
    connection = Connection("exits", [sys.executable, "-c", "import sys; sys.exit(3)"])
    try:
        deadline = time.monotonic() + 10.0
        while connection.process.exit_code() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not connection.usable()
        assert connection.broken == "the adapter exited with code 3 before answering", connection.broken
        with pytest.raises(StdioBridgeError, match="the adapter exited with code 3"):
            connection.call_sync("hello", {"protocolVersion": 1}, 5.0)
    finally:
        connection.stop()
