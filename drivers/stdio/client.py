"""The JSON-RPC 2.0 client: one line per message, any number of calls in flight, every line
checked against the protocol schema both ways.

No thread reads the adapter's answers: the caller does. An async call has the running event loop
watch the adapter's stdout (``add_reader``), so an answer wakes the loop that awaits it, in one
hop (a reader thread handing each answer to the loop cost a thread switch and two more loop
iterations a call, about a third of the kit's time per call over stdio); ``call_sync`` (the
handshake) reads in its own thread. One adapter process serves the tests of a whole run
although each test has its own event loop: the watch moves to the loop of the latest call.
Writing never waits on a full pipe while the adapter waits on its own full stdout: a request
that does not fit reads the answers that came meanwhile.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import json
import os
import select
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from aalis_memory.drivers.stdio import codec, schema
from aalis_memory.drivers.stdio.errors import ERROR_CLASSES, StdioBridgeError
from aalis_memory.drivers.stdio.process import AdapterProcess
from aalis_memory.drivers.stdio.transcript import Recorder

PROTOCOL_VERSION: Final = 1
#: Bytes read from the adapter's stdout at a time, and reads at most before the reader lets
#: its loop go on (an adapter that floods its stdout must not hold the loop).
CHUNK: Final = 1 << 16
READS_AT_A_TIME: Final = 16
#: How long the end of an adapter's output waits for its exit code (for the message only).
EXIT_WAIT: Final = 0.5


class Connection:
    """A started adapter and the calls in flight to it."""

    def __init__(
        self, driver: str, command: Sequence[str], cwd: Path | None = None, recorder: Recorder | None = None
    ) -> None:
        self.driver = driver
        #: Keeps the lines of the current test's store, for a failure's transcript.
        self.recorder = recorder
        self.process = AdapterProcess(command, cwd)
        self._ids = itertools.count()
        self._pending: dict[int, tuple[str, str, concurrent.futures.Future[Any]]] = {}
        #: Guards the pending calls, the adapter's stdin and the reading of its stdout (one
        #: reader at a time, whichever thread or loop it is; re-entered: a write that waits
        #: reads the answers that came meanwhile, and settles their calls).
        self._lock = threading.RLock()
        self._stdout = self.process.stdout.fileno()
        self._stdin = self.process.stdin.fileno()
        os.set_blocking(self._stdout, False)
        os.set_blocking(self._stdin, False)
        self._partial: list[bytes] = []
        self._watch_thread = 0
        #: The event loop that watches stdout for the calls in flight (the latest caller's).
        self._watching: asyncio.AbstractEventLoop | None = None
        #: Optional Message fields a store (by handle) returned as ``null``: taken as absent
        #: on the way back, and kept here for the rule that speaks of it (MSG-07).
        self.absent_nulls: dict[str, set[str]] = {}
        #: Why the connection cannot be used any more (the first fatal problem), or None.
        self.broken: str | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    def failure(self, method: str, problem: str) -> StdioBridgeError:
        return StdioBridgeError(self.driver, method, problem, self.process.stderr_tail(1.0))

    def usable(self) -> bool:
        """Whether calls can still be made: what the adapter wrote meanwhile is read (a line no
        call owns, or the end of its output, breaks the connection, saying why)."""
        if self.broken is None:
            self._pump()
        return self.broken is None

    # -- sending ----------------------------------------------------------------------------

    def send(self, method: str, params: dict[str, Any]) -> concurrent.futures.Future[Any]:
        """Write one request; its future gets the result, or the exception to raise."""
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        request_id = next(self._ids)
        request = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        problems = schema.message_errors(request) + schema.params_errors(method, params)
        if problems:  # the kit's own bug: say so rather than blame the adapter
            raise AssertionError(f"the kit built an invalid {method} request: {problems}")
        line = json.dumps(request, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
        with self._lock:
            if self.broken is not None:
                future.set_exception(self.failure(method, self.broken))
                return future
            self._pending[request_id] = (method, str(params.get("handle", "")), future)
            if self.recorder is not None:
                self.recorder.sent(method, line)
            try:
                self._write(line.encode("ascii") + b"\n")
            except OSError as exc:
                self._pending.pop(request_id, None)
                self._pump()  # an adapter that exited: the end of its output says so
                future.set_exception(
                    self.failure(method, self.broken or f"could not write the request ({exc})")
                )
        return future

    def _write(self, data: bytes) -> None:
        """Write all of ``data`` to the adapter's stdin. While the pipe is full, the answers the
        adapter writes meanwhile are read: it may be waiting on its own full stdout."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._stdin, view) :]
            except BlockingIOError:
                readable, _, _ = select.select([self._stdout], [self._stdin], [])
                if readable:
                    self._pump()
                if self.broken is not None:
                    raise BrokenPipeError(self.broken) from None

    async def call(self, method: str, params: dict[str, Any], timeout: float | None) -> Any:
        """Send and await the answer; a hang becomes a failure naming the method (the
        connection is then unusable: the adapter is stuck)."""
        future = self.send(method, params)
        loop = asyncio.get_running_loop()
        if not future.done():
            self._watch(loop)
        try:
            async with asyncio.timeout(timeout):
                return await _settled_on(loop, future)
        except TimeoutError:
            self._break(f"no answer within {timeout:g} s (the adapter hangs)")
            raise self.failure(
                method,
                f"no answer within {timeout:g} s: the adapter hangs (it "
                "is stopped; the next test starts a new one, at most 20 times "
                "a run)",
            ) from None

    def call_sync(self, method: str, params: dict[str, Any], timeout: float) -> Any:
        """Send and wait for the answer in this thread (the handshake, before any loop)."""
        future = self.send(method, params)
        deadline = time.monotonic() + timeout
        while not future.done():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._break(f"no answer within {timeout:g} s")
                raise self.failure(method, f"no answer within {timeout:g} s: the adapter hangs")
            # briefly: a loop that watches stdout may read the answer first
            select.select([self._stdout], [], [], min(remaining, 0.05))
            self._pump()
        return future.result()

    # -- receiving ----------------------------------------------------------------------------

    def _watch(self, loop: asyncio.AbstractEventLoop) -> None:
        """Have ``loop`` read the adapter's answers (the latest caller's loop)."""
        if self._watching is loop:
            return
        self._unwatch()
        loop.add_reader(self._stdout, self._pump)
        self._watching, self._watch_thread = loop, threading.get_ident()

    def _unwatch(self) -> None:
        loop, self._watching = self._watching, None
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._watch_thread or not loop.is_running():
            loop.remove_reader(self._stdout)
        else:  # stopped from another thread: the loop's own thread lets go
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(loop.remove_reader, self._stdout)

    def _pump(self) -> None:
        """Read what the adapter wrote (never waiting) and settle the calls it answers; a line
        no call can own, or the end of the adapter's output, breaks the connection. A flood is
        read a bounded amount at a time, so the loop that reads it still runs."""
        with self._lock:
            for _ in range(READS_AT_A_TIME):
                if self.broken is not None:
                    return
                try:
                    chunk = os.read(self._stdout, CHUNK)
                except BlockingIOError:
                    return
                except OSError:  # stop() closed the pipe: every call in flight was failed
                    self._break("the connection was closed")
                    return
                if not chunk:
                    code = self.process.exit_code(EXIT_WAIT)
                    self._break(
                        "the adapter exited"
                        + ("" if code is None else f" with code {code}")
                        + " before answering"
                    )
                    return
                head, newline, rest = chunk.partition(b"\n")
                if not newline:
                    self._partial.append(chunk)
                    continue
                *lines, tail = rest.split(b"\n")
                lines.insert(0, b"".join([*self._partial, head]))
                self._partial = [tail] if tail else []
                for line in filter(None, lines):  # blank lines are skipped, at C speed
                    problem = self._answer(line)
                    if problem is not None:
                        self._break(problem)
                        return

    def _answer(self, raw: bytes) -> str | None:
        """Settle the call one line answers; a fatal problem (a line no call can own) is
        returned, which breaks the connection."""
        text = raw.decode("utf-8", "replace").strip()
        if not text:
            return None
        if self.recorder is not None:
            self.recorder.got(text)
        try:
            message = json.loads(text)
        except ValueError as exc:
            return f"the adapter wrote a line that is not JSON ({exc}): {text[:200]!r}"
        problems = schema.message_errors(message)
        if problems or "method" in message:
            why = "; ".join(problems) or "a request, but the adapter only answers"
            return f"the adapter wrote a line that breaks the protocol ({why}): {text[:200]!r}"
        with self._lock:
            entry = self._pending.pop(message["id"], None) if message["id"] is not None else None
        if entry is None:
            return f"the adapter answered no pending call: {text[:200]!r}"
        method, handle, future = entry
        if "error" in message:
            future.set_exception(self._remote_error(message["error"]))
            return None
        nulls = codec.drop_absent_nulls(method, message["result"])
        if nulls:
            with self._lock:
                self.absent_nulls.setdefault(handle, set()).update(nulls)
        problems = schema.result_errors(method, message["result"])
        if problems:
            future.set_exception(
                self.failure(method, f"the result breaks the protocol: {'; '.join(problems[:5])}")
            )
        else:
            future.set_result(message["result"])
        return None

    @staticmethod
    def _remote_error(error: dict[str, Any]) -> Exception:
        error_class = error.get("data", {}).get("errorClass", "Error")
        return ERROR_CLASSES.get(error_class, ERROR_CLASSES["Error"])(error["message"])

    def _break(self, problem: str) -> None:
        """Fail every call in flight with ``problem``; later calls fail at once."""
        with self._lock:
            if self.broken is None:
                self.broken = problem
            pending, self._pending = self._pending, {}
            self._unwatch()  # a closed or ended stdout would wake the loop for ever
        for method, _handle, future in pending.values():
            if not future.done():
                future.set_exception(self.failure(method, problem))

    def stop(self) -> None:
        self._break("the connection was closed")
        self.process.stop()


def _settled_on(
    loop: asyncio.AbstractEventLoop, future: concurrent.futures.Future[Any]
) -> asyncio.Future[Any]:
    """An asyncio future of ``loop`` that ``future`` settles: at once when the loop's own thread
    settles it (the usual case: that loop read the answer), through the loop otherwise."""
    waiter: asyncio.Future[Any] = loop.create_future()
    here = threading.get_ident()

    def copy(done: concurrent.futures.Future[Any]) -> None:
        if waiter.done():  # the call timed out meanwhile
            return
        error = done.exception()
        if error is not None:
            waiter.set_exception(error)
        else:
            waiter.set_result(done.result())

    def settled(done: concurrent.futures.Future[Any]) -> None:
        if threading.get_ident() == here:
            copy(done)
        else:
            with contextlib.suppress(RuntimeError):  # the loop was closed meanwhile
                loop.call_soon_threadsafe(copy, done)

    future.add_done_callback(settled)
    return waiter
