"""Drivers in other languages through the stdio protocol (issue 14): the TypeScript reference
backend passes the suite strict through the bridge, the broken TypeScript backends fail exactly
their rules, and a crash, a hang or a protocol violation fails the call naming the method and
showing the adapter's stderr; no adapter outlives its run. A failure names a transcript of its
store that ``python -m aalis_memory.conformance replay`` sends again, and the state machine
prints its shrunk history as TypeScript that compiles against the bridge's types (issue 22)."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.conformance.stdio import SCHEMA_PATH, StdioBridgeError, codec, schema
from aalis_memory.conformance.stdio.client import Connection
from aalis_memory.conformance.stdio.driver import probe
from aalis_memory.conformance.stdio.store import StdioStore
from aalis_memory.types import Message, MetadataPut
from reports import load_report, verdicts

REPO = Path(__file__).resolve().parent.parent
BRIDGE = REPO / "bridges" / "typescript"
FAKE = [sys.executable, str(Path(__file__).resolve().parent / "stdio_fake_adapter.py")]
#: The broken TypeScript backends and the one rule each breaks.
BROKEN = {"broken-limit-zero": {"LIM-01"}, "broken-clear-all-metadata": {"CLEAR-04"}}
ACCEPTED = {"pass", "excluded by tier", "unverified"}
#: Rules whose tests run only when asked for (the scaling probe: --memory-scaling).
OPT_IN = {"PERF-01"}
#: The reference's declared gap: a JavaScript number (the contract's `number`) has no exact
#: double for the ends of the 64-bit range (see its knownFailures).
KNOWN = {"TS-06"}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state != "Z"


def _wrapped(pids: Path, *command: str) -> list[str]:
    """``command`` started through a shell that first appends its pid (kept by ``exec``)."""
    return ["sh", "-c", f'echo $$ >> {pids}; exec "$@"', "sh", *command]


# -- the protocol, without node ---------------------------------------------------------------


def test_the_schema_is_valid_and_uses_only_what_the_runtime_validator_knows() -> None:
    document = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(document)
    used: set[str] = set()

    def walk(node: Any, in_properties: bool = False) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if not in_properties and key not in ("$defs", "params", "results"):
                    used.add(key)
                walk(value, key in ("properties", "$defs", "params", "results"))
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(document)
    assert used <= schema.SUPPORTED, sorted(used - schema.SUPPORTED)


SAMPLES: list[Any] = [
    {"jsonrpc": "2.0", "id": 1, "method": "getHistory", "params": {"handle": "s1", "sessionId": "a"}},
    {"jsonrpc": "2.0", "id": 1, "method": "nope", "params": {}},
    {"jsonrpc": "2.0", "id": 1, "result": None},
    {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "x",
                                             "data": {"errorClass": "Error"}}},
    {"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "x",
                                          "data": {"errorClass": "KeyError"}}},
    {"jsonrpc": "2.0", "id": -1, "result": 1},
    {"jsonrpc": "1.0", "id": 1, "result": 1},
    {"jsonrpc": "2.0", "id": 1, "result": 1, "extra": True},
    [1, 2],
    "text",
]


@pytest.mark.parametrize("index", range(len(SAMPLES)))
def test_the_runtime_validator_agrees_with_jsonschema(index: int) -> None:
    sample = SAMPLES[index]
    document = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    expected = jsonschema.Draft202012Validator(document).is_valid(sample)
    assert (not schema.message_errors(sample)) == expected, schema.message_errors(sample)


@pytest.mark.parametrize(("method", "result"), [
    ("getHistory", [{"role": "user", "content": "a", "timestamp": 1}]),
    ("getHistory", [{"role": "user", "content": "a"}]),
    ("getHistory", [{"role": 1, "content": "a", "timestamp": 1}]),
    ("countHistory", 3), ("countHistory", -1), ("countHistory", 1.5),
    ("getMetadata", None), ("getMetadata", {"a": 1}), ("getMetadata", [1]),
    ("listMetadata", [{"key": "k", "data": {}, "updatedAt": 5}]),
    ("listMetadata", [{"key": "k", "data": {}}]),
    ("hello", {"protocolVersion": 1, "adapter": "x", "methods": ["clearAll"], "rawMetadata": True,
               "capabilities": {"ordering": "write", "metadataAtomicity": "atomic",
                                "archiveAtomicity": "partial"}, "knownFailures": {"META-07": "r"}}),
    ("hello", {"protocolVersion": 1, "adapter": "x", "methods": ["dropAll"], "rawMetadata": True,
               "capabilities": {"ordering": "write", "metadataAtomicity": "atomic",
                                "archiveAtomicity": "partial"}}),
])
def test_results_are_checked_like_jsonschema_does(method: str, result: Any) -> None:
    document = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    node = {"$defs": document["$defs"], **document["$defs"]["results"][method]}
    expected = jsonschema.Draft202012Validator(node).is_valid(result)
    assert (not schema.result_errors(method, result)) == expected


def test_values_json_cannot_spell_are_tagged() -> None:
    circular: dict[str, Any] = {}
    circular["self"] = circular
    assert codec.encode(float("inf")) == {"$num": "Infinity"}
    assert codec.encode([float("-inf"), 2**53, 2**53 + 1]) == [
        {"$num": "-Infinity"}, 2**53, {"$int": str(2**53 + 1)}]
    assert codec.encode(b"\x00\xff") == {"$bytes": "AP8="}
    assert codec.encode({1: "a"}) == {"$map": [[1, "a"]]}
    assert codec.encode({"$num": "x"}) == {"$object": {"$num": "x"}}
    assert codec.encode({"$gt": ""}) == {"$gt": ""}
    assert codec.encode({2, 3}) == {"$opaque": "set"}
    assert codec.encode_message({"role": "user"}) == {"$opaque": "dict"}
    assert "$opaque" in json.dumps(codec.encode(circular))
    assert codec.decode([{"$num": "NaN"}, {"$object": {"$int": "1"}}, {"$int": "5"}])[1:] == [
        {"$int": "1"}, 5]


# -- failures, through a misbehaving adapter ----------------------------------------------------


@pytest.fixture
def fake_store() -> Iterator[tuple[Connection, StdioStore]]:
    hello = probe("fake", FAKE)
    connection = Connection("fake", FAKE)
    try:
        opened = connection.call_sync("open", {"rangeQueryLimit": 7, "crossSessionMaxLimit": 5}, 10)
        yield connection, StdioStore(connection, opened["handle"], hello["methods"], 2.0)
    finally:
        connection.stop()


@pytest.mark.parametrize(("method", "call", "problem", "logged"), [
    ("countHistory", lambda s: s.count_history("s"), "exited with code 3",
     "out of memory while counting"),
    ("getHistory", lambda s: s.get_history("s"), "not JSON", "about to write garbage"),
    ("listMetadataKeys", lambda s: s.list_metadata_keys("ns"), "result breaks the protocol",
     "answering with numbers"),
    ("clearAll", lambda s: s.clear_all(), "hangs", "stuck in clearAll"),
])
def test_a_bridge_failure_names_the_method_and_shows_stderr(
    fake_store: tuple[Connection, StdioStore], method: str, call: Any, problem: str, logged: str,
) -> None:
    _connection, store = fake_store
    with pytest.raises(StdioBridgeError) as caught:
        asyncio.run(call(store))
    text = str(caught.value)
    assert f"stdio driver 'fake': {method}: " in text, text
    assert problem in text, text
    assert "the end of the adapter's stderr" in text, text
    assert logged in text, text
    assert not hasattr(store, "update_message_content")  # not in the handshake: not present


def test_a_kit_run_reports_the_crash_and_the_violation(tmp_path: Path) -> None:
    """Registered from a conftest: the handshake's tiers and methods become the registration's
    (a missing optional method is not implemented); the crash and the line that is not JSON
    fail their tests naming the method with the adapter's stderr, and the run goes on."""
    (tmp_path / "conftest.py").write_text(
        "from aalis_memory.conformance.stdio import stdio_driver\n"
        f"stdio_driver('fake-backend', command={FAKE!r})\n"
    )
    report = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--no-header",
         "--memory-driver=fake-backend", "--memory-rules=COUNT-01,LIM-01,REQ-01,UPD-01",
         "-k", "not state_machine", f"--memory-report={report}"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "tiers: ordering=timestamp, metadata=atomic, archive=atomic" in proc.stdout, proc.stdout
    data = load_report(report)
    found = verdicts(data, "fake-backend")
    assert found["REQ-01"] == "pass", proc.stdout[-3000:]
    assert found["UPD-01"] == "not implemented", proc.stdout[-3000:]
    rules = data["drivers"]["fake-backend"]["rules"]
    count = " ".join(test["message"] for test in rules["COUNT-01"]["tests"])
    assert "countHistory: the adapter exited with code 3" in count, count
    assert "out of memory while counting" in count, count
    history = " ".join(test["message"] for test in rules["LIM-01"]["tests"])
    assert "getHistory: the adapter wrote a line that is not JSON" in history, history
    assert "about to write garbage" in history, history


def test_the_stdio_driver_needs_its_command(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--memory-driver=stdio"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "--memory-stdio-command" in proc.stderr, proc.stderr


def test_an_adapter_that_cannot_start_is_a_usage_error(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--memory-driver=stdio",
         "--memory-stdio-command=/nonexistent/adapter --flag"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "hello: cannot start ['/nonexistent/adapter', '--flag']" in proc.stderr, proc.stderr


def test_the_adapter_dies_with_a_killed_run(tmp_path: Path) -> None:
    """SIGKILL the pytest process in the middle of a call: the parent-death signal ends the
    adapter (the kit never had the chance to stop it)."""
    pids = tmp_path / "pids"
    command = shlex.join(_wrapped(pids, *FAKE))
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--no-header",
         "--memory-driver=stdio", f"--memory-stdio-command={command}", "--memory-rules=CLEAR-03",
         "--memory-call-timeout=120", "-k", "not state_machine"],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the probe, then the session's adapter, stuck in clearAll
            if pids.exists() and len(pids.read_text().split()) >= 2:
                break
            time.sleep(0.1)
        else:
            pytest.fail("the run never started its session adapter")
        time.sleep(0.5)
        adapter = int(pids.read_text().split()[-1])
        assert _alive(adapter)
    finally:
        run.kill()
        run.wait()
    deadline = time.monotonic() + 10
    while _alive(adapter) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(adapter), f"adapter {adapter} outlived the killed run"


# -- the TypeScript bridge ----------------------------------------------------------------------


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bridge compiled once per session into a temporary folder."""
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        pytest.skip("npm/node are not installed: the TypeScript bridge cannot be built or run")
    if not (BRIDGE / "node_modules" / "typescript").exists():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=BRIDGE, check=True,
                       capture_output=True, timeout=300)
    out = tmp_path_factory.mktemp("bridge-dist")
    proc = subprocess.run(
        [node, str(BRIDGE / "node_modules" / "typescript" / "bin" / "tsc"), "-p",
         str(BRIDGE / "tsconfig.json"), "--outDir", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert proc.returncode == 0, f"tsc failed:\n{proc.stdout}{proc.stderr}"
    return out


@pytest.fixture(scope="session")
def runs(built: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, Path]]:
    """The reference strict (state machine included, through --memory-stdio-command) and both
    broken backends in one default-mode run (registered from a conftest; their example tests:
    the state machine's catching is tested elsewhere), the two runs at once."""
    reference, broken = tmp_path_factory.mktemp("reference"), tmp_path_factory.mktemp("broken")
    (broken / "conftest.py").write_text(
        "from aalis_memory.conformance.stdio import stdio_driver\n" + "".join(
            f"stdio_driver({name!r}, command="
            f"{_wrapped(broken / 'pids', 'node', str(built / f'{name}.js'))!r})\n"
            for name in BROKEN))
    base = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--no-header"]
    command = shlex.join(_wrapped(reference / "pids", "node", str(built / "reference.js")))
    started = {
        "reference": (subprocess.Popen(
            [*base, "--memory-driver=stdio", f"--memory-stdio-command={command}", "--memory-strict",
             f"--memory-report={reference / 'report.json'}"],
            cwd=reference, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True), reference),
        "broken": (subprocess.Popen(
            [*base, f"--memory-driver={','.join(BROKEN)}", "-k", "not state_machine",
             f"--memory-report={broken / 'report.json'}"],
            cwd=broken, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True), broken),
    }
    done: dict[str, tuple[int, str, Path]] = {}
    for name, (proc, workdir) in started.items():
        output, _ = proc.communicate(timeout=600)
        done[name] = (proc.returncode, output, workdir)
    return done


#: The reference's driver name: ``stdio:`` and the name its adapter gives serve().
REFERENCE = "stdio:typescript-reference"


def test_the_typescript_reference_passes_strict(runs: dict[str, tuple[int, str, Path]]) -> None:
    code, output, workdir = runs["reference"]
    assert code == 0, output[-4000:]
    report = load_report(workdir / "report.json")
    # Every output names the backend as its adapter does: the name given to serve().
    assert list(report["drivers"]) == [REFERENCE], list(report["drivers"])
    found = verdicts(report, REFERENCE)
    assert len(found) >= 90, sorted(found)  # every rule of a memory driver has a verdict
    assert set(found) <= set(CATALOGUE)
    wrong = {rule: verdict for rule, verdict in found.items()
             if verdict not in ACCEPTED and not (rule in OPT_IN and verdict == "not run")
             and not (rule in KNOWN and verdict == "known failure")}
    assert not wrong, wrong
    rules = report["drivers"][REFERENCE]["rules"]
    for rule, verdict in found.items():
        if verdict in ("unverified", "excluded by tier"):
            assert rules[rule]["message"], f"{rule} is {verdict} without a reason"


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_typescript_backend_fails_exactly_its_rule(
    runs: dict[str, tuple[int, str, Path]], name: str,
) -> None:
    code, output, workdir = runs["broken"]
    assert code == 1, output[-4000:]
    found = verdicts(load_report(workdir / "report.json"), name)
    failing = {rule for rule, verdict in found.items() if verdict in ("fail", "advisory")}
    assert failing == BROKEN[name], output[-4000:]


def test_no_adapter_outlives_its_run(runs: dict[str, tuple[int, str, Path]]) -> None:
    for name, (_, _, workdir) in runs.items():
        pids = [int(pid) for pid in (workdir / "pids").read_text().split()]
        assert len(pids) >= 2, f"{name}: expected the probes and the sessions' adapters, got {pids}"
        assert not [pid for pid in pids if _alive(pid)], f"{name}: adapters {pids} still run"


def test_the_bridge_round_trips_values_through_typescript(built: Path) -> None:
    """What the suite takes for granted, shown directly: a message and metadata come back."""
    command = ["node", str(built / "reference.js")]
    hello = probe("ts", command)
    assert hello["adapter"] == "typescript-reference"
    assert hello["rawMetadata"] is True
    connection = Connection("ts", command)

    async def scenario() -> None:
        handle = (await connection.call("open", {"rangeQueryLimit": 7, "crossSessionMaxLimit": 5},
                                        10))["handle"]
        store = StdioStore(connection, handle, hello["methods"], 10)
        message = Message(role="user", content="héllo \U0001f600", timestamp=1.5, kind="x",
                          reasoning_content=None, metadata={"$num": 1})
        await store.save_message("s", message)
        assert await store.get_history("s", float("inf")) == [message]
        await store.commit_metadata([MetadataPut("ns", "k", {"a": [1, {"b": None}]})])
        assert await store.get_metadata("ns", "k") == {"a": [1, {"b": None}]}
        with pytest.raises(TypeError, match="sessionId must be a string"):
            await store.get_history({"$gt": ""})  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="limit"):
            await store.get_history("s", -1)

    try:
        asyncio.run(scenario())
    finally:
        connection.stop()


# -- reproducing a failure: the transcript and its replay, the TypeScript snippet ---------------


def test_typescript_snippets_call_the_backend_s_methods() -> None:
    """The machine's steps as the bridge makes them on a TypeScript store (no node needed)."""
    from aalis_memory.conformance.machine.snippets import (
        CallerMutates,
        Step,
        ts_call,
        typescript_reproduction,
    )
    from aalis_memory.types import MetadataDel, RecentMessagesAcrossSessionsQuery

    assert ts_call(Step("save_message", ("s1", Message(role="user", content="#1", timestamp=0)))
                   ) == "store.saveMessage('s1', {role: 'user', content: '#1', timestamp: 0})"
    assert ts_call(Step("save_message", ("s1", Message(role="tool", content=None,
                                                       reasoning_content=None)))
                   ) == "store.saveMessage('s1', {role: 'tool', content: null, reasoningContent: null})"
    assert ts_call(Step("get_history", ("it's", float("inf")))) == "store.getHistory('it\\'s', Infinity)"
    assert ts_call(Step("get_history", ("s1", None))) == "store.getHistory('s1')"
    assert ts_call(Step("archive_span", ("s1", 2, [0]))) == "store.archiveSpan('s1', {count: 2, keep: [0]})"
    assert ts_call(Step("get_messages_by_session_range", ("s1", float("-inf"), 5, None, ["x"]))
                   ) == "store.getMessagesBySessionRange('s1', -Infinity, 5, undefined, ['x'])"
    assert ts_call(Step("commit_metadata", ([MetadataPut("ns", "k", {"a.b": [1, None]}),
                                             MetadataDel("ns", "k")],))) == (
        "store.commitMetadata([{op: 'put', namespace: 'ns', key: 'k', data: {'a.b': [1, null]}}, "
        "{op: 'del', namespace: 'ns', key: 'k'}])")
    assert ts_call(Step("get_recent_messages_across_sessions", (
        RecentMessagesAcrossSessionsQuery(limit=3, roles=["user"]),))
    ) == "store.getRecentMessagesAcrossSessions({limit: 3, roles: ['user']})"
    lines = typescript_reproduction([
        CallerMutates("save_metadata", ("ns", "k", {"a": 1}), marker="m"),
        Step("get_history", ("s1", "3"), errors=(ValueError,)),
        Step("list_metadata", ("ns",)),
    ])
    assert lines[2] == "export async function reproduce(store: Required<MemoryService>): Promise<void> {"
    assert "  try { await loose.getHistory('s1', '3'); } catch { /* must throw ValueError */ }" in lines
    assert lines[-2:] == ["  console.log(await store.listMetadata('ns'));  // the call that shows the bug",
                          "}"]


def test_the_recorder_keeps_only_the_current_test_s_store() -> None:
    """A new store opened while none is open starts a new transcript; one opened beside another
    joins it; a restarted adapter's stores are gone; nothing before the first open is kept."""
    from aalis_memory.conformance.stdio.transcript import Recorder

    recorder = Recorder("d", ["node", "a.js"], None)
    recorder.sent("hello", "hi")
    recorder.got("hello!")
    assert recorder.lines() == ()
    for method, line in [("open", "o1"), ("getHistory", "g1"), ("close", "c1"), ("open", "o2")]:
        recorder.sent(method, line)
        recorder.got(f"answer {line}")
    assert recorder.lines() == ("> o2", "< answer o2")
    recorder.sent("open", "o3")
    assert recorder.lines()[-1] == "> o3"
    recorder.keep(("snippet",))
    recorder.restarted()
    assert recorder.lines()[0] == "> o2"  # kept for the failure being reported
    recorder.sent("open", "o4")
    assert recorder.lines() == ("> o4",)
    assert recorder.kept(("snippet",)) == ("> o2", "< answer o2", "> o3")
    recorder.forget()
    assert recorder.kept(("snippet",)) is None


def _tsc(folder: Path, source: str) -> subprocess.CompletedProcess[str]:
    """Type-check ``source`` against the bridge's own contract types (as the package exports
    them), the way a backend's author compiles it."""
    (folder / "snippet.ts").write_text(source, encoding="utf-8")
    (folder / "tsconfig.json").write_text(json.dumps({
        "compilerOptions": {
            "target": "ES2022", "module": "commonjs", "lib": ["ES2022"], "types": ["node"],
            "typeRoots": [str(BRIDGE / "node_modules" / "@types")], "strict": True,
            "noEmit": True, "skipLibCheck": True, "baseUrl": ".",
            "paths": {"@aalis/memory-stdio-bridge": [str(BRIDGE / "src" / "index.ts")]},
        },
        "files": ["snippet.ts"],
    }))
    return subprocess.run(
        ["node", str(BRIDGE / "node_modules" / "typescript" / "bin" / "tsc"), "-p",
         str(folder / "tsconfig.json")], capture_output=True, text=True, timeout=120, check=False)


def _run_kit(folder: Path, adapter: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], Any]:
    report = folder / "report.json"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--no-header",
         "--memory-driver=stdio", f"--memory-stdio-command=node {adapter}",
         f"--memory-report={report}", *args],
        cwd=folder, capture_output=True, text=True, timeout=300, check=False)
    return proc, load_report(report)


def _transcript_note(text: str) -> tuple[Path, list[str]]:
    """The transcript a failure's text names, and its replay command (as argv)."""
    path = next(line.split("): ", 1)[1] for line in text.splitlines()
                if line.strip().startswith("stdio transcript ("))
    command = next(line.split("replay it: ", 1)[1] for line in text.splitlines()
                   if "replay it: " in line)
    argv = shlex.split(command)
    assert argv[:3] == ["python", "-m", "aalis_memory.conformance"], command
    return Path(path), [sys.executable, *argv[1:]]


def test_a_failure_names_a_transcript_that_replays_it(built: Path, tmp_path: Path) -> None:
    """A failing test of a stdio driver names the transcript of its store and the replay
    command, in the terminal and in the report; the command run as printed gets every recorded
    answer again from the same adapter, and marks the first that differs from another one."""
    proc, report = _run_kit(tmp_path, built / "broken-limit-zero.js", "--memory-rules=LIM-01",
                            "-k", "not state_machine")
    assert proc.returncode == 1, proc.stdout[-3000:]
    path, replay = _transcript_note(proc.stdout)
    assert path.is_file(), path
    assert path.parent == tmp_path / "report-stdio-transcripts"
    assert "--memory-stdio-command=" in shlex.join(replay)
    rule = report["drivers"]["stdio:broken-limit-zero"]["rules"]["LIM-01"]
    failed = [test["message"] for test in rule["tests"] if test["verdict"] == "fail"]
    assert failed
    assert all("replay it: python -m aalis_memory.conformance replay" in m for m in failed), failed
    lines = path.read_text(encoding="utf-8").splitlines()
    sent = [json.loads(line[2:]) for line in lines if line.startswith("> ")]
    assert sent[0]["method"] == "open", lines
    assert sent[-1]["method"] == "getHistory", lines  # the read that failed
    assert {"hello", "close"}.isdisjoint(m["method"] for m in sent), lines  # one store's lines
    again = subprocess.run(replay, capture_output=True, text=True, timeout=120, check=False)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"every answer is the recorded one ({len(sent)} requests)" in again.stdout
    assert again.stdout.count("recorded: ") == len(sent)
    other = subprocess.run(
        [*replay[:-1], f"--memory-stdio-command=node {built / 'reference.js'}"],
        capture_output=True, text=True, timeout=120, check=False)
    assert other.returncode == 1, other.stdout + other.stderr
    marked = [line for line in other.stdout.splitlines() if "<--" in line]
    assert marked, other.stdout
    assert marked[0].endswith('replayed: {"result":[]}   <-- the first answer that differs'), marked


def test_a_machine_failure_of_a_stdio_driver_is_reproduced_in_typescript(
    built: Path, tmp_path: Path,
) -> None:
    """The state machine's shrunk history of a TypeScript backend is printed as TypeScript that
    compiles against the bridge's types, and its transcript (the shrunk history's store) replays
    with the recorded answers."""
    proc, report = _run_kit(tmp_path, built / "broken-clear-all-metadata.js", "-k",
                            "test_state_machine")
    assert proc.returncode == 1, proc.stdout[-3000:]
    message = report["drivers"]["stdio:broken-clear-all-metadata"]["rules"]["CLEAR-04"]["message"]
    lines = message.splitlines()
    start = lines.index("  reproduce (shrunk history, on a fresh store):") + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("    "))
    snippet = "\n".join(line[4:] for line in lines[start:end])
    assert "export async function reproduce(store: Required<MemoryService>" in snippet, snippet
    assert "await store.clearAll();" in snippet, snippet
    assert "import asyncio" not in snippet, snippet
    assert "math.inf" not in snippet, snippet
    assert "export async function reproduce(" in proc.stdout  # the terminal shows it too
    checked = _tsc(tmp_path, snippet + "\n")
    assert checked.returncode == 0, checked.stdout + checked.stderr + snippet
    path, replay = _transcript_note(message)
    assert path.is_file()
    again = subprocess.run(replay, capture_output=True, text=True, timeout=120, check=False)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "clearAll" in again.stdout
    assert "every answer is the recorded one" in again.stdout
