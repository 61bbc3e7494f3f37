"""The JSON-RPC 2.0 client: one line per message, any number of calls in flight, every line
checked against the protocol schema both ways.

Calls are answered on a reader thread and awaited through ``concurrent.futures`` futures, so one
adapter process serves the tests of a whole run although each test has its own event loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from aalis_memory.drivers.stdio import codec, schema
from aalis_memory.drivers.stdio.errors import ERROR_CLASSES, StdioBridgeError
from aalis_memory.drivers.stdio.process import AdapterProcess
from aalis_memory.drivers.stdio.transcript import Recorder

PROTOCOL_VERSION: Final = 1


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
        self._lock = threading.Lock()
        #: Optional Message fields a store (by handle) returned as ``null``: taken as absent
        #: on the way back, and kept here for the rule that speaks of it (MSG-07).
        self.absent_nulls: dict[str, set[str]] = {}
        #: Why the connection cannot be used any more (the first fatal problem), or None.
        self.broken: str | None = None
        self._reader = threading.Thread(target=self._read, name=f"stdio-{driver}", daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def failure(self, method: str, problem: str) -> StdioBridgeError:
        return StdioBridgeError(self.driver, method, problem, self.process.stderr_tail(1.0))

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
                self.process.stdin.write(line.encode("ascii") + b"\n")
                self.process.stdin.flush()
            except (BrokenPipeError, OSError, ValueError) as exc:
                self._pending.pop(request_id, None)
                future.set_exception(self.failure(method, f"could not write the request ({exc})"))
        return future

    async def call(self, method: str, params: dict[str, Any], timeout: float | None) -> Any:
        """Send and await the answer; a hang becomes a failure naming the method (the
        connection is then unusable: the adapter is stuck)."""
        future = self.send(method, params)
        try:
            async with asyncio.timeout(timeout):
                return await asyncio.wrap_future(future)
        except TimeoutError:
            self._break(f"no answer within {timeout:g} s (the adapter hangs)")
            raise self.failure(
                method,
                f"no answer within {timeout:g} s: the adapter hangs (it "
                "is stopped; the next test starts a new one, at most 20 times "
                "a run)",
            ) from None

    def call_sync(self, method: str, params: dict[str, Any], timeout: float) -> Any:
        future = self.send(method, params)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            self._break(f"no answer within {timeout:g} s")
            raise self.failure(method, f"no answer within {timeout:g} s: the adapter hangs") from None

    # -- receiving ----------------------------------------------------------------------------

    def _read(self) -> None:
        try:
            for raw in self.process.stdout:
                problem = self._answer(raw)
                if problem is not None:
                    self._break(problem)
                    return
        except (ValueError, OSError):  # stop() closed the pipe under a read: nothing is lost
            # (every call in flight was failed before), and no exception may escape the thread
            self._break("the connection was closed")
            return
        code = self.process.exit_code(2.0)
        self._break(
            "the adapter exited" + ("" if code is None else f" with code {code}") + " before answering"
        )

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
        for method, _handle, future in pending.values():
            if not future.done():
                future.set_exception(self.failure(method, problem))

    def stop(self) -> None:
        self._break("the connection was closed")
        self.process.stop()
