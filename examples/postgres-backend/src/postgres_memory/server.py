"""A throwaway PostgreSQL server for a test run: ``initdb`` on a temporary folder, ``postgres``
on a free loopback port, gone with the run.

The server runs under the conformance kit's supervisor (``aalis_memory.fixtures.
server_supervisor``), which Linux signals when the run dies, even by SIGKILL, and which then
kills the server and removes its folder; the run itself stops it by its PID at the end (a fast
shutdown, SIGINT). PostgreSQL refuses to run as root, so a run that is root (a CI container)
runs ``initdb`` and the server as the ``postgres`` user that Debian's package creates.

Readiness is the server's own word, not a poll: PostgreSQL built with systemd support (Debian's
is) sends ``READY=1`` to the datagram socket named by ``NOTIFY_SOCKET`` once it accepts
connections. A build without it is asked by connecting, each time the socket stays quiet for
half a second.

The server is tuned for tests, not for keeping data through a power cut: ``fsync=off``,
``synchronous_commit=off`` and ``full_page_writes=off``. A client killed mid-call (the kit's
crash tests SIGKILL the writer, never the server) loses nothing the server acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import asyncpg

#: The folder holding ``initdb`` and ``postgres``; else the newest Debian one, else ``PATH``.
BIN_ENV: Final = "POSTGRES_MEMORY_BIN"
SUPERVISOR: Final = "aalis_memory.fixtures.server_supervisor"
READY_DEADLINE_S: Final = 60.0
#: The user that runs the server when the run is root (Debian's package makes it).
SERVER_USER: Final = "postgres"
SETTINGS: Final = ("fsync=off", "synchronous_commit=off", "full_page_writes=off",
                   "max_connections=200", "listen_addresses=127.0.0.1")


class ServerError(RuntimeError):
    """The binaries were found but the server did not come up (a broken setup, never a skip)."""


def find_binaries() -> Path | None:
    """The folder of ``initdb`` and ``postgres``, or ``None``."""
    named = os.environ.get(BIN_ENV)
    candidates = [Path(named)] if named else [
        *sorted((Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")),
                key=lambda p: _version(p.parent.name), reverse=True),
        *([Path(found).parent] if (found := shutil.which("postgres")) else []),
    ]
    return next((c for c in candidates
                 if (c / "initdb").is_file() and (c / "postgres").is_file()), None)


def _version(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split(".") if part.isdigit())


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def temporary_server(binaries: Path) -> Iterator[str]:
    """Start a server from ``binaries``; yields its DSN (over its Unix socket) and stops it."""
    state = Path(tempfile.mkdtemp(prefix="aalis-postgres-"))
    user = SERVER_USER if os.geteuid() == 0 else None
    if user is not None:
        shutil.chown(state, user, user)
    as_user: dict[str, Any] = {} if user is None else {
        "user": user, "group": user, "extra_groups": []}
    log = state / "server.log"
    try:
        initdb = subprocess.run(
            [str(binaries / "initdb"), "-D", str(state / "data"), "-U", "postgres",
             "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"],
            cwd=state, capture_output=True, text=True, check=False, **as_user)
        if initdb.returncode != 0:
            raise ServerError(f"initdb failed ({initdb.returncode}): {initdb.stderr.strip()}")
    except BaseException:
        shutil.rmtree(state, ignore_errors=True)
        raise
    port = _free_port()
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(state / "notify.sock"))
    if user is not None:
        shutil.chown(state / "notify.sock", user, user)
    command = [str(binaries / "postgres"), "-D", str(state / "data"), "-p", str(port),
               "-k", str(state), *(f"-c{setting}" for setting in SETTINGS)]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", SUPERVISOR, *([f"--user={user}"] if user else []),
             str(os.getpid()), str(state), *command],
            stdout=out, stderr=subprocess.STDOUT, cwd=state,
            env={**os.environ, "NOTIFY_SOCKET": str(state / "notify.sock")})
    dsn = f"postgresql://postgres@/postgres?host={state}&port={port}"
    try:
        with notify:
            _wait_ready(notify, proc, dsn, log)
        yield dsn
    finally:
        _stop(proc, state)


def _wait_ready(notify: socket.socket, proc: subprocess.Popen[bytes], dsn: str, log: Path
                ) -> None:
    deadline = time.monotonic() + READY_DEADLINE_S
    notify.settimeout(0.5)
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise ServerError(f"the PostgreSQL server exited before it was ready:\n{tail}")
        try:
            if b"READY=1" in notify.recv(4096):
                return
        except TimeoutError:
            if _answers(dsn):  # a build without systemd support never says READY=1
                return
    raise ServerError(f"the PostgreSQL server was not ready within {READY_DEADLINE_S:.0f} s "
                      f"(its log: {log})")


def _answers(dsn: str) -> bool:
    async def connect() -> None:
        conn = await asyncpg.connect(dsn, timeout=2)
        await conn.close()

    try:
        asyncio.run(connect())
    except (OSError, asyncpg.PostgresError):
        return False
    return True


def _stop(proc: subprocess.Popen[bytes], state: Path) -> None:
    """A fast shutdown of the server by its PID (its supervisor then exits), else the supervisor
    kills it; the folder goes either way."""
    try:
        pid = int((state / "server.pid").read_text())
    except (OSError, ValueError):
        pid = None
    if pid is not None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.terminate()  # the supervisor kills the server and removes the folder
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            if pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
    shutil.rmtree(state, ignore_errors=True)
