"""The adapter's process: started with a parent-death signal, its stderr kept as a short tail,
killed by its own process group id at the end (never by name)."""

from __future__ import annotations

import collections
import contextlib
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Final

from aalis_memory.fixtures.server_supervisor import die_with_parent

#: Lines of the adapter's stderr kept for failure messages.
TAIL_LINES: Final = 40


def _child_setup() -> None:
    die_with_parent(signal.SIGKILL)


class AdapterProcess:
    """One running adapter: pipes for the protocol, the tail of its log, its pid."""

    def __init__(self, command: Sequence[str], cwd: Path | None = None) -> None:
        self.command = list(command)
        self._tail: collections.deque[str] = collections.deque(maxlen=TAIL_LINES)
        self._tail_lock = threading.Lock()
        # Its own session: the kill reaches what it started too (npx, a shell, a watcher).
        self.popen = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            start_new_session=True,
            preexec_fn=_child_setup,
        )
        self.pid: Final = self.popen.pid
        assert self.popen.stderr is not None
        self._stderr_fd = self.popen.stderr.fileno()
        os.set_blocking(self._stderr_fd, False)
        self._partial = b""
        self._stderr_open = True
        self._stderr_reader = threading.Thread(
            target=self._drain,
            name=f"stdio-stderr-{self.pid}",
            daemon=True,
        )
        self._stderr_reader.start()

    @property
    def stdin(self) -> IO[bytes]:
        assert self.popen.stdin is not None
        return self.popen.stdin

    @property
    def stdout(self) -> IO[bytes]:
        assert self.popen.stdout is not None
        return self.popen.stdout

    def _pump(self) -> None:
        """Move what the pipe holds now into the tail (the caller holds the lock). Reading is
        non-blocking, so a failure message can take everything written before it: an adapter
        logs, then answers, and the answer is already read."""
        while self._stderr_open:
            try:
                chunk = os.read(self._stderr_fd, 65536)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:  # end of file: keep an unterminated last line too
                self._stderr_open = False
                chunk = b"\n" if self._partial else b""
            *lines, self._partial = (self._partial + chunk).split(b"\n")
            self._tail.extend(line.decode("utf-8", "replace") for line in lines)

    def _drain(self) -> None:
        """Keep the pipe empty, so an adapter that logs a lot never blocks on a full pipe."""
        while self._stderr_open:
            with contextlib.suppress(OSError, ValueError):
                select.select([self._stderr_fd], [], [], 0.5)
            with self._tail_lock:
                self._pump()

    def stderr_tail(self, settle: float = 0.0) -> str:
        """The last lines the adapter wrote to stderr (waiting up to ``settle`` seconds for the
        reader to reach the end, when the process has exited)."""
        if settle and self.popen.poll() is not None:
            self._stderr_reader.join(settle)
        with self._tail_lock:
            self._pump()
            return "\n".join(
                [*self._tail, *([self._partial.decode("utf-8", "replace")] if self._partial else [])]
            )

    def exit_code(self, wait: float = 0.0) -> int | None:
        try:
            return self.popen.wait(wait) if wait else self.popen.poll()
        except subprocess.TimeoutExpired:
            return None

    def _exited_unreaped(self) -> bool:
        """True once the process has exited; it stays a zombie, so its pid (and its process
        group id) cannot be reused before :meth:`stop` kills the group."""
        if self.popen.returncode is not None:
            return True
        try:
            info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return info is not None

    def stop(self, grace: float = 1.0) -> None:
        """Close its stdin (an adapter exits at the end of its input), wait up to ``grace``
        seconds, then SIGKILL its process group (by the id it got at start) and reap it."""
        with contextlib.suppress(OSError):
            self.stdin.close()
        deadline = time.monotonic() + grace
        pause = 0.0005  # most adapters exit within a millisecond of the end of their input
        while not self._exited_unreaped() and time.monotonic() < deadline:
            time.sleep(pause)
            pause = min(pause * 2, 0.01)
        if self.popen.returncode is None:  # not reaped yet: the group id is still ours
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
        self.exit_code(5.0)
        self._stderr_reader.join(1.0)  # it reaches the end of file once the group is dead
        with self._tail_lock:
            self._stderr_open = False
        for stream in (self.popen.stdout, self.popen.stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
