"""The test server the kit starts: watched while the run lasts, gone when the run ends.

Real runs of ``pytest --memory-driver=mongodb`` in child processes, a real FerretDB (or mongod)
started by them, real SIGKILLs and SIGTERMs. Waiting is on pipes and process file descriptors,
never on sleeps.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pymongo")

from aalis_memory.fixtures.mongodb_server import ENV_URI

STARTS_A_SERVER = shutil.which("mongod") or shutil.which("ferretdb")
pytestmark = pytest.mark.skipif(
    not STARTS_A_SERVER or not hasattr(os, "pidfd_open"),
    reason="needs mongod or ferretdb on PATH for the kit to start, and Linux pidfds",
)


def _env() -> dict[str, str]:
    """The child run starts its own server: no URI handed down."""
    return {k: v for k, v in os.environ.items() if k != ENV_URI}


def _wait_gone(pid: int, timeout_s: float = 30.0) -> bool:
    """True once ``pid`` has terminated (a zombie waiting for init counts as gone)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        readable, _, _ = select.select([fd], [], [], timeout_s)
        return bool(readable)
    finally:
        os.close(fd)


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


#: Finds the server of the run's URI among all processes (by its port), as an operator would:
#: the child runs do not rely on the kit telling them.
FIND = """
import os
from pathlib import Path

def find_server(uri):
    port = uri.rstrip("/").rsplit(":", 1)[1]
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\\0")
        except OSError:
            continue
        words = [a.decode(errors="replace") for a in argv if a]
        if not words or Path(words[0]).name not in ("ferretdb", "mongod"):
            continue
        if any(w.endswith(":" + port) or w == port for w in words):
            state = [w.split("=", 1)[1] for w in words if w.startswith("--state-dir=")]
            db = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "--dbpath"]
            where = state[0] if state else str(Path(db[0]).parent) if db else "-"
            return int(proc.name), where
    raise LookupError(f"no server process listens on port {port}")
"""

HOLD = FIND + """
import threading

def test_hold(aalis_mongodb_server):
    pid, state = find_server(aalis_mongodb_server.uri)
    print(f"READY {pid} {state}", flush=True)
    threading.Event().wait(300)
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_started_server_dies_with_the_run(tmp_path: Path, signum: int) -> None:
    (tmp_path / "test_hold.py").write_text(textwrap.dedent(HOLD))
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-s", "-q", "-p", "no:cacheprovider",
         "--memory-driver=mongodb", "-k", "test_hold", "test_hold.py"],
        cwd=tmp_path, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    assert run.stdout is not None
    seen: list[str] = []
    ready: list[str] = []
    while not ready:
        readable, _, _ = select.select([run.stdout], [], [], 120)
        line = run.stdout.readline() if readable else ""
        if not line:
            run.kill()
            run.wait()
            pytest.fail("the child run never reported its server:\n" + "".join(seen))
        seen.append(line)
        ready = re.findall(r"READY (\d+) (\S+)", line)
    server_pid, state = int(ready[0][0]), Path(ready[0][1])
    assert _running(server_pid)
    supervisor_pid = _parent(server_pid)
    os.kill(run.pid, signum)
    assert run.wait(timeout=60) == -signum
    run.stdout.close()
    assert _wait_gone(server_pid), f"server {server_pid} outlived the run ({signum!r})"
    assert not _running(server_pid)
    # The supervisor removes the state directory after the server is dead, then exits.
    assert _wait_gone(supervisor_pid), f"supervisor {supervisor_pid} outlived the run"
    assert not state.exists(), f"the server's state directory {state} was left behind"


KILLER = FIND + """
import select, signal

def test_kill_the_server(aalis_mongodb_server):
    pid, _state = find_server(aalis_mongodb_server.uri)
    fd = os.pidfd_open(pid)
    os.kill(pid, signal.SIGKILL)
    select.select([fd], [], [], 30)
    # The run notices the death by its supervisor's exit; give it that moment, on its pidfd.
    watch = getattr(aalis_mongodb_server, "watch", None)
    if watch is not None:
        watch.proc.wait(timeout=30)
"""


def test_a_dead_server_is_reported_once_and_fails_the_rest_at_once(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_URI, raising=False)
    pytester.makepyfile(test_kill=textwrap.dedent(KILLER))
    suite_tests = ("test_sessions_do_not_share_history", "test_archive_stays_in_its_session",
                   "test_ops_apply_in_order")
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--memory-driver=mongodb",
        "-k", " or ".join(("test_kill_the_server", *suite_tests)),
    )
    output = result.stdout.str()
    result.assert_outcomes(passed=1, errors=len(suite_tests))
    assert output.count("MongoDB test server died") == 1, output
    kept = re.findall(r"its log is kept at (\S+); last lines", output)
    assert kept, output
    assert Path(kept[0]).exists()
    # Each later test's error points back to it (the summary's ONE CAUSE line names it too).
    # (pytest's short summary repeats each error's message; count only the error sections.)
    pointers = [line for line in output.splitlines()
                if line.endswith("(reported once above)") and not line.startswith("ERROR ")]
    assert len(pointers) == len(suite_tests), output
    # Every later test failed on the report, none on a server-selection timeout.
    assert "ServerSelectionTimeoutError" not in output
    shutil.rmtree(Path(kept[0]).parent, ignore_errors=True)
