"""The test server the kit starts: watched while the run lasts, gone when the run ends.

Real runs of ``pytest --memory-driver=mongodb`` in child processes, a real FerretDB (or mongod)
started by them, real SIGKILLs and SIGTERMs. Waiting is on pipes and process file descriptors,
never on sleeps.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pymongo")

from aalis_memory.fixtures.mongodb_server import ENV_URI
from reports import load_report

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

HOLD = (
    FIND
    + """
import threading

def test_hold(aalis_mongodb_server):
    pid, state = find_server(aalis_mongodb_server.uri)
    print(f"READY {pid} {state}", flush=True)
    threading.Event().wait(300)
"""
)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_started_server_dies_with_the_run(tmp_path: Path, signum: int) -> None:
    (tmp_path / "test_hold.py").write_text(textwrap.dedent(HOLD))
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pytest",
            "-s",
            "-q",
            "-p",
            "no:cacheprovider",
            "--memory-driver=mongodb",
            "-k",
            "test_hold",
            "test_hold.py",
        ],
        cwd=tmp_path,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
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


KILLER = """
import os
import select
import signal

import pytest

from aalis_memory.types import Message


@pytest.mark.aalis_spec("LIM-02")
async def test_a_the_server_dies_mid_test(aalis_memory, aalis_mongodb_server):
    # Kills the run's server by its PID, then calls the driver: the call cannot succeed.
    pid = aalis_mongodb_server.started.watch.server_pid
    fd = os.pidfd_open(pid)
    os.kill(pid, signal.SIGKILL)
    select.select([fd], [], [], 30)
    os.close(fd)
    print(f"KILLED {pid}", flush=True)
    await aalis_memory.save_message("s", Message(role="user", content="x", timestamp=1))
"""


def test_a_dead_server_is_kept_shown_restarted_and_costs_no_driver_failure(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server dies mid-run (killed by its PID during a test): the run ends with its log and
    exit status shown and its folder kept, the server restarted once, the test that was running
    on it ``not run (the server died: ...)``, and every later test judged on the new server."""
    monkeypatch.delenv(ENV_URI, raising=False)
    pytester.makepyfile(test_kill=textwrap.dedent(KILLER))
    suite_tests = (
        "test_sessions_do_not_share_history",
        "test_archive_stays_in_its_session",
        "test_ops_apply_in_order",
    )
    report = pytester.path / "report.json"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "-s",
        "--memory-driver=mongodb",
        f"--memory-report={report}",
        "-k",
        " or ".join(("test_a_the_server_dies_mid_test", *suite_tests)),
        timeout=300,
    )
    output = result.stdout.str()
    with _removing_kept_folders(output):
        _check_one_death(result, report, len(suite_tests))


@contextlib.contextmanager
def _removing_kept_folders(output: str) -> Iterator[None]:
    """Remove the folders the run kept for the dead servers, once the test has looked at them."""
    try:
        yield
    finally:
        for folder in re.findall(r"its folder is kept at (\S+);", output):
            shutil.rmtree(folder, ignore_errors=True)


def _check_one_death(result: pytest.RunResult, report: Path, suite_tests: int) -> None:
    output = result.stdout.str()
    # The test running on the dying server is not run; every later one passed on the new one.
    result.assert_outcomes(passed=suite_tests, skipped=1)
    assert result.ret == pytest.ExitCode.OK, output
    killed = int(re.findall(r"KILLED (\d+)", output)[0])
    assert output.count("MongoDB test server died") == 1, output
    assert f"(pid {killed}) died: killed by SIGKILL" in output, output
    kept = re.findall(r"its log is kept at (\S+); last lines", output)
    assert kept, output
    assert Path(kept[0]).exists(), "the dead server's log was deleted"
    assert (Path(kept[0]).parent / "server.exit").read_text() == "killed by SIGKILL"
    restarted = re.findall(r"then: restarted it once: \w+ \(pid (\d+)\)", output)
    assert restarted, output
    assert (
        "reported `not run` because of it (1): test_kill.py::test_a_the_server_dies_mid_test[mongodb]"
    ) in output, output
    # The report: not run, with the cause; no rule of the driver failed because of it.
    rules = load_report(report)["drivers"]["mongodb"]["rules"]
    assert rules["LIM-02"]["verdict"] == "not run", rules["LIM-02"]
    assert rules["LIM-02"]["message"].startswith("the server died: the "), rules["LIM-02"]
    assert not [r for r, e in rules.items() if e["verdict"] in ("fail", "advisory", "blocked")]
    # The restarted server was stopped with the run, by its PID.
    assert _wait_gone(int(restarted[0])), "the restarted server outlived the run"


SECOND_DEATH = """
import os
import select
import signal


def _kill(server):
    pid = server.started.watch.server_pid
    fd = os.pidfd_open(pid)
    os.kill(pid, signal.SIGKILL)
    select.select([fd], [], [], 30)
    os.close(fd)


def test_a_first_death(aalis_mongodb_server):
    _kill(aalis_mongodb_server)


def test_b_restarted(aalis_mongodb_server):
    from pymongo import MongoClient

    client = MongoClient(aalis_mongodb_server.uri, serverSelectionTimeoutMS=5000)
    try:
        client.admin.command("ping")
    finally:
        client.close()
    _kill(aalis_mongodb_server)


def test_c_down_for_good(aalis_mongodb_server):
    raise AssertionError("a test needing a server that stays down must not run")
"""


def test_a_server_that_dies_twice_is_restarted_once(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_URI, raising=False)
    pytester.makepyfile(test_twice=textwrap.dedent(SECOND_DEATH))
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "-rs",
        "--memory-driver=mongodb",
        "-k",
        "test_twice",
        timeout=300,
    )
    output = result.stdout.str()
    with _removing_kept_folders(output):
        result.assert_outcomes(passed=2, skipped=1)
        assert output.count("then: restarted it once") == 1, output
        assert "then: not restarted: the kit restarts it at most 1 time(s) a run" in output, output
        result.stdout.fnmatch_lines(
            [
                "SKIPPED*: the server died: the * server this run "
                "started (pid *) died: killed by SIGKILL; not restarted*"
            ]
        )
        kept = re.findall(r"its folder is kept at (\S+);", output)
        assert len(kept) == 2, output
        assert all(Path(folder, "server.log").exists() for folder in kept)
