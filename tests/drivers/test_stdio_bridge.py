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
from typing import Any, Final

import frozen_matrix
import jsonschema
import pytest

from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.drivers.stdio import SCHEMA_PATH, StdioBridgeError, codec, schema
from aalis_memory.drivers.stdio.client import Connection
from aalis_memory.drivers.stdio.driver import probe
from aalis_memory.drivers.stdio.store import StdioStore
from aalis_memory.types import Message, MetadataPut
from broken_drivers import NOT_FOR_SPEED
from kit_run import KIT_PYTEST
from reports import load_report, slow_round_trip, uncarried_integer, verdicts

REPO = Path(__file__).resolve().parents[2]
BRIDGE = REPO / "bridges" / "typescript"
FAKE = [sys.executable, str(Path(__file__).resolve().parents[1] / "stdio_fake_adapter.py")]
#: The broken TypeScript backends with a file of their own (broken-NAME.js) and the rules
#: their one bug breaks.
OWN_FILE = {
    "broken-limit-zero": {"LIM-01"},
    "broken-clear-all-metadata": {"CLEAR-04"},
    # its stack overflows on message metadata nested 5000 levels: a RecursionError where
    # INPUT-07 asks "ValueError (never RecursionError)" (a SHOULD: advisory by default)
    "broken-stack-overflow": {"INPUT-07"},
}
#: The variants of broken-single-bugs.ts (run as ``node broken-single-bugs.js NAME``, named
#: ``broken-NAME`` by their handshake), each the reference with one method changed, and the
#: rules whose words that change contradicts (the file's header says the same). SHOULD rules
#: are advisories in the default mode: they count as failing here.
SINGLE_BUGS = {
    # getHistory reversed: HIST-02 "get_history is ascending by time".
    "broken-history-newest-first": {"HIST-02"},
    # archiveSpan archives the whole span: ARCH-02 "positions listed in keep ... stay active".
    "broken-keep-ignored": {"ARCH-02"},
    # getFullHistory of the active messages: FULL-01 "get_full_history includes archived
    # messages"; ARCH-09 archived messages "stay in get_full_history".
    "broken-full-history-active-only": {"FULL-01", "ARCH-09"},
    # listMetadataKeys built on listMetadata: META-10 "lists every key of the namespace,
    # unreadable entries included".
    "broken-keys-skip-unreadable": {"META-10"},
    # a rewritten message gets timestamp Date.now(): UPD-04 "update_message_content never
    # changes a message's timestamp".
    "broken-update-restamps": {"UPD-04"},
    # saveMessage stamps `message.timestamp || Date.now()`: TS-01 (SHOULD) "a message saved with
    # timestamp 0 ... reads back with exactly that timestamp: never restamped"; the same `||`
    # takes `false` and NaN for a missing timestamp and stores them stamped: INPUT-01 (SHOULD)
    # "a bool where a timestamp is expected (message timestamp ...) raises TypeError", INPUT-02
    # (SHOULD) "NaN anywhere a timestamp is expected ... raise[s] ValueError".
    "broken-timestamp-zero-restamped": {"TS-01", "INPUT-01", "INPUT-02"},
    # countHistory counts control records: COUNT-01 "the number of active conversation messages".
    "broken-count-includes-markers": {"COUNT-01"},
    # getHistory and countHistory tell a control record by role === 'system', not by its kind:
    # COUNT-01 (as above); HIST-03 "CONTROL_KINDS records never use [the limit] up" (a user-role
    # marker does); HIST-04 "every active message after the (limit+1)-th newest conversation
    # message" (the cut falls elsewhere); HIST-05 "with at most limit conversation messages ...
    # the whole active history, leading control records included" (it is cut).
    "broken-control-by-role": {"COUNT-01", "HIST-03", "HIST-04", "HIST-05"},
    # saveMetadata takes updatedAt, then awaits its write (0-10 ms by the payload): CONC-05
    # (SHOULD) "updated_at of a key never goes backwards while several tasks overwrite it".
    "broken-save-metadata-stamp-race": {"CONC-05"},
    # a cross-session read filters the newest limit x 8 active rows only: CROSS-01 "narrowed to
    # [the cap]: ... exactly min(cap, matching messages), never fewer" (a crowded read above the
    # cap gets fewer); CROSS-02 (SHOULD) "returns the newest N active messages" (one within the
    # cap gets fewer). Not CROSS-05: each filter drops exactly what its words say.
    "broken-cross-fetch-limit-times-8": {"CROSS-01", "CROSS-02"},
    # getMetadata `?? {}`: META-01 "a missing key reads as None".
    "broken-meta-missing-as-empty": {"META-01"},
    # deleteMetadata drops the namespace: META-03 "removes that one entry and leaves the
    # namespace's other entries".
    "broken-meta-delete-drops-namespace": {"META-03"},
    # clearSession keeps the archived records: CLEAR-02 (SHOULD) "clear_session also removes the
    # session's archived messages".
    "broken-clear-session-keeps-archived": {"CLEAR-02"},
    # getHistory's limit goes through `| 0`, Infinity to 0: LIM-02 "a limit of math.inf yields
    # every matching message".
    "broken-history-infinity-empty": {"LIM-02"},
    # listMetadata in insertion order: META-04 (SHOULD) "list_metadata is sorted by key".
    "broken-meta-list-unsorted": {"META-04"},
    # the cross-session read filters only the newest crossSessionMaxLimit active rows: CROSS-01
    # "exactly min(cap, matching messages), never fewer"; CROSS-02 (SHOULD) "returns the newest N
    # active messages". Not LIM-04: Infinity reads exactly as the cap does, never more.
    "broken-cross-capped-recent-list": {"CROSS-01", "CROSS-02"},
    # the range is sliced half-open (the upper binary search stops before toTs): RANGE-02
    # (SHOULD) "inclusive at both ends"; TS-03 (SHOULD) "the range [0, 0] returns exactly the
    # messages at 0", "fractional range bounds are inclusive". TS-06's one-point ranges too, but
    # a JavaScript number cannot carry the ends of the 64-bit range: TS-06 is unverified here.
    "broken-range-bisected-half-open": {"RANGE-02", "TS-03"},
    # each session sorted by timestamp and the count of its messages already in that millisecond,
    # as text: from the eleventh write of one millisecond on, "10" sorts before "2". HIST-02 "the
    # same millisecond keep[s] write order"; FULL-02 "in the original order"; RANGE-03 (SHOULD)
    # "same millisecond in write order"; ARCH-01 "the earliest count active messages"; ARCH-09
    # archived messages stay "in their original order".
    "broken-same-ms-counter-unpadded": {"HIST-02", "FULL-02", "RANGE-03", "ARCH-01", "ARCH-09"},
}
BROKEN = {**OWN_FILE, **SINGLE_BUGS}
#: How many kit runs share the broken backends (started at once, beside the reference's run).
BROKEN_RUNS = 2
ACCEPTED = {"pass", "excluded by tier", "unverified"}
#: Rules a backend may leave out by declaration (the quick scaling probe: skipQuickScaling).
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
    {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32700, "message": "x", "data": {"errorClass": "Error"}},
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32000, "message": "x", "data": {"errorClass": "KeyError"}},
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32000, "message": "x", "data": {"errorClass": "RecursionError"}},
    },
    {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32000, "message": "x", "data": {"errorClass": "SizeError"}},
    },
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


@pytest.mark.parametrize(
    ("method", "result"),
    [
        ("getHistory", [{"role": "user", "content": "a", "timestamp": 1}]),
        ("getHistory", [{"role": "user", "content": "a"}]),
        ("getHistory", [{"role": 1, "content": "a", "timestamp": 1}]),
        ("countHistory", 3),
        ("countHistory", -1),
        ("countHistory", 1.5),
        ("getMetadata", None),
        ("getMetadata", {"a": 1}),
        ("getMetadata", [1]),
        ("listMetadata", [{"key": "k", "data": {}, "updatedAt": 5}]),
        ("listMetadata", [{"key": "k", "data": {}}]),
        (
            "hello",
            {
                "protocolVersion": 1,
                "adapter": "x",
                "methods": ["clearAll"],
                "rawMetadata": True,
                "capabilities": {
                    "ordering": "write",
                    "metadataAtomicity": "atomic",
                    "archiveAtomicity": "partial",
                },
                "knownFailures": {"META-07": "r"},
            },
        ),
        (
            "hello",
            {
                "protocolVersion": 1,
                "adapter": "x",
                "methods": ["dropAll"],
                "rawMetadata": True,
                "capabilities": {
                    "ordering": "write",
                    "metadataAtomicity": "atomic",
                    "archiveAtomicity": "partial",
                },
            },
        ),
        (
            "hello",
            {
                "protocolVersion": 1,
                "adapter": "x",
                "methods": [],
                "rawMetadata": True,
                "capabilities": {
                    "ordering": "write",
                    "metadataAtomicity": "atomic",
                    "archiveAtomicity": "partial",
                    "rangeCap": False,
                },
            },
        ),
        (
            "hello",
            {
                "protocolVersion": 1,
                "adapter": "x",
                "methods": [],
                "rawMetadata": True,
                "capabilities": {
                    "ordering": "write",
                    "metadataAtomicity": "atomic",
                    "archiveAtomicity": "partial",
                    "rangeCap": "no",
                },
            },
        ),
    ],
)
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
        {"$num": "-Infinity"},
        2**53,
        {"$int": str(2**53 + 1)},
    ]
    assert codec.encode(b"\x00\xff") == {"$bytes": "AP8="}
    assert codec.encode({1: "a"}) == {"$map": [[1, "a"]]}
    assert codec.encode({"$num": "x"}) == {"$object": {"$num": "x"}}
    assert codec.encode({"$gt": ""}) == {"$gt": ""}
    assert codec.encode({2, 3}) == {"$opaque": "set"}
    assert codec.encode_message({"role": "user"}) == {"$opaque": "dict"}
    assert "$opaque" in json.dumps(codec.encode(circular))
    assert codec.decode([{"$num": "NaN"}, {"$object": {"$int": "1"}}, {"$int": "5"}])[1:] == [
        {"$int": "1"},
        5,
    ]


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


@pytest.mark.parametrize(
    ("method", "call", "problem", "logged"),
    [
        (
            "countHistory",
            lambda s: s.count_history("s"),
            "exited with code 3",
            "out of memory while counting",
        ),
        ("getHistory", lambda s: s.get_history("s"), "not JSON", "about to write garbage"),
        (
            "listMetadataKeys",
            lambda s: s.list_metadata_keys("ns"),
            "result breaks the protocol",
            "answering with numbers",
        ),
        ("clearAll", lambda s: s.clear_all(), "hangs", "stuck in clearAll"),
    ],
)
def test_a_bridge_failure_names_the_method_and_shows_stderr(
    fake_store: tuple[Connection, StdioStore],
    method: str,
    call: Any,
    problem: str,
    logged: str,
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
        "from aalis_memory.drivers.stdio import stdio_driver\n"
        f"stdio_driver('fake-backend', command={FAKE!r})\n"
    )
    report = tmp_path / "report.json"
    proc = subprocess.run(
        [
            *KIT_PYTEST,
            "--memory-driver=fake-backend",
            "--memory-rules=COUNT-01,LIM-01,REQ-01,UPD-01",
            "-k",
            "not state_machine",
            f"--memory-report={report}",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
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
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "--memory-stdio-command" in proc.stderr, proc.stderr


def test_an_adapter_that_cannot_start_is_a_usage_error(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "--memory-driver=stdio",
            "--memory-stdio-command=/nonexistent/adapter --flag",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "hello: cannot start ['/nonexistent/adapter', '--flag']" in proc.stderr, proc.stderr


def test_the_adapter_dies_with_a_killed_run(tmp_path: Path) -> None:
    """SIGKILL the pytest process in the middle of a call: the parent-death signal ends the
    adapter (the kit never had the chance to stop it)."""
    pids = tmp_path / "pids"
    command = shlex.join(_wrapped(pids, *FAKE))
    run = subprocess.Popen(
        [
            *KIT_PYTEST,
            "--memory-driver=stdio",
            f"--memory-stdio-command={command}",
            "--memory-rules=CLEAR-03",
            "--memory-call-timeout=120",
            "-k",
            "not state_machine",
        ],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
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
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=BRIDGE, check=True, capture_output=True, timeout=300
        )
    out = tmp_path_factory.mktemp("bridge-dist")
    proc = subprocess.run(
        [
            node,
            str(BRIDGE / "node_modules" / "typescript" / "bin" / "tsc"),
            "-p",
            str(BRIDGE / "tsconfig.json"),
            "--outDir",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, f"tsc failed:\n{proc.stdout}{proc.stderr}"
    return out


def _broken_run_names(run: int) -> list[str]:
    """The broken backends of kit run ``run`` (of BROKEN_RUNS)."""
    return sorted(BROKEN)[run::BROKEN_RUNS]


def _broken_command(built: Path, name: str) -> list[str]:
    """The command that starts broken backend ``name``: its own file, or its variant's."""
    if name in SINGLE_BUGS:
        return ["node", str(built / "broken-single-bugs.js"), name.removeprefix("broken-")]
    return ["node", str(built / f"{name}.js")]


def _start(workdir: Path, argv: list[str]) -> subprocess.Popen[bytes]:
    """``argv`` started in ``workdir``, its output to workdir/output.txt (a file, not a pipe:
    a run never waits for its pipe to be read while the fixture waits for another run)."""
    with (workdir / "output.txt").open("wb") as output:
        return subprocess.Popen(argv, cwd=workdir, stdout=output, stderr=subprocess.STDOUT)


@pytest.fixture(scope="session")
def runs(built: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, Path]]:
    """The reference strict (state machine included, through --memory-stdio-command) and the
    broken backends in BROKEN_RUNS default-mode runs (registered from a conftest; their example
    tests: the state machine's catching is tested elsewhere), every run at once."""
    reference = tmp_path_factory.mktemp("reference")
    base = list(KIT_PYTEST)
    command = shlex.join(_wrapped(reference / "pids", "node", str(built / "reference.js")))
    # Each run its own temporary folder (as tests/proofs/test_broken_drivers.py's): in pytest's shared
    # one, every run spends seconds deleting the store folders of the runs before it.
    started = {
        "reference": (
            _start(
                reference,
                [
                    *base,
                    "--memory-driver=stdio",
                    f"--memory-stdio-command={command}",
                    "--memory-strict",
                    f"--memory-report={reference / 'report.json'}",
                    f"--basetemp={reference / 'tmp'}",
                ],
            ),
            reference,
        ),
    }
    for run in range(BROKEN_RUNS):
        names = _broken_run_names(run)
        broken = tmp_path_factory.mktemp(f"broken-{run}")
        (broken / "conftest.py").write_text(
            "from aalis_memory.drivers.stdio import stdio_driver\n"
            + "".join(
                f"stdio_driver({name!r}, command="
                f"{_wrapped(broken / 'pids', *_broken_command(built, name))!r}, "
                f"skip_quick_scaling={NOT_FOR_SPEED!r})\n"
                for name in names
            )
        )
        started[f"broken-{run}"] = (
            _start(
                broken,
                [
                    *base,
                    f"--memory-driver={','.join(names)}",
                    "-k",
                    "not state_machine",
                    f"--memory-report={broken / 'report.json'}",
                    f"--basetemp={broken / 'tmp'}",
                ],
            ),
            broken,
        )
    done: dict[str, tuple[int, str, Path]] = {}
    for name, (proc, workdir) in started.items():
        proc.wait(timeout=600)
        done[name] = (proc.returncode, (workdir / "output.txt").read_text(encoding="utf-8"), workdir)
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
    rules = report["drivers"][REFERENCE]["rules"]
    wrong = {
        rule: verdict
        for rule, verdict in found.items()
        if verdict not in ACCEPTED
        and not (rule in OPT_IN and verdict == "not run")
        and not (rule in KNOWN and verdict == "known failure")
        and not slow_round_trip(rule, rules[rule])
        and not uncarried_integer(rule, rules[rule])
    }
    assert not wrong, wrong
    for rule, verdict in found.items():
        if verdict in ("unverified", "excluded by tier"):
            assert rules[rule]["message"], f"{rule} is {verdict} without a reason"


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_typescript_backend_fails_exactly_its_rule(
    runs: dict[str, tuple[int, str, Path]],
    name: str,
) -> None:
    run = next(run for run in range(BROKEN_RUNS) if name in _broken_run_names(run))
    code, output, workdir = runs[f"broken-{run}"]
    assert code == 1, output[-4000:]
    found = verdicts(load_report(workdir / "report.json"), name)
    failing = {rule for rule, verdict in found.items() if verdict in ("fail", "advisory")}
    assert failing == BROKEN[name], (sorted(failing), output[-4000:])


#: Left out of the TypeScript backends' frozen matrices: nothing since issue 35 (META-05's
#: same-millisecond phase is never claimed over a pipe, so it is a partial pass every run).
UNSTABLE: Final[tuple[str, ...]] = ()


def _report_of(runs: dict[str, tuple[int, str, Path]], driver: str) -> dict[str, Any]:
    """The report of the run that judged ``driver`` (the reference, or a broken backend)."""
    run = (
        "reference"
        if driver == REFERENCE
        else next(f"broken-{run}" for run in range(BROKEN_RUNS) if driver in _broken_run_names(run))
    )
    return load_report(runs[run][2] / "report.json")


@pytest.mark.parametrize("driver", [REFERENCE, *sorted(BROKEN)])
def test_verdict_matrix_unchanged(runs: dict[str, tuple[int, str, Path]], driver: str) -> None:
    """Every rule's verdict, caveats, blockers and tests, as frozen in tests/matrix/: the
    reference strict, the broken backends in the default mode."""
    found = frozen_matrix.driver_matrix(_report_of(runs, driver), driver, UNSTABLE)
    frozen_matrix.check("typescript", driver, found)


def test_the_frozen_matrix_holds_every_typescript_backend() -> None:
    frozen_matrix.check_drivers("typescript", [REFERENCE, *BROKEN])


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
    assert hello["capabilities"]["rangeCap"] is True  # serve() spells out the default
    connection = Connection("ts", command)

    async def scenario() -> None:
        handle = (await connection.call("open", {"rangeQueryLimit": 7, "crossSessionMaxLimit": 5}, 10))[
            "handle"
        ]
        store = StdioStore(connection, handle, hello["methods"], 10)
        message = Message(
            role="user",
            content="héllo \U0001f600",
            timestamp=1.5,
            kind="x",
            reasoning_content=None,
            metadata={"$num": 1},
        )
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

    assert (
        ts_call(Step("save_message", ("s1", Message(role="user", content="#1", timestamp=0))))
        == "store.saveMessage('s1', {role: 'user', content: '#1', timestamp: 0})"
    )
    assert (
        ts_call(Step("save_message", ("s1", Message(role="tool", content=None, reasoning_content=None))))
        == "store.saveMessage('s1', {role: 'tool', content: null, reasoningContent: null})"
    )
    assert ts_call(Step("get_history", ("it's", float("inf")))) == "store.getHistory('it\\'s', Infinity)"
    assert ts_call(Step("get_history", ("s1", None))) == "store.getHistory('s1')"
    assert ts_call(Step("archive_span", ("s1", 2, [0]))) == "store.archiveSpan('s1', {count: 2, keep: [0]})"
    assert (
        ts_call(Step("get_messages_by_session_range", ("s1", float("-inf"), 5, None, ["x"])))
        == "store.getMessagesBySessionRange('s1', -Infinity, 5, undefined, ['x'])"
    )
    assert ts_call(
        Step("commit_metadata", ([MetadataPut("ns", "k", {"a.b": [1, None]}), MetadataDel("ns", "k")],))
    ) == (
        "store.commitMetadata([{op: 'put', namespace: 'ns', key: 'k', data: {'a.b': [1, null]}}, "
        "{op: 'del', namespace: 'ns', key: 'k'}])"
    )
    assert (
        ts_call(
            Step(
                "get_recent_messages_across_sessions",
                (RecentMessagesAcrossSessionsQuery(limit=3, roles=["user"]),),
            )
        )
        == "store.getRecentMessagesAcrossSessions({limit: 3, roles: ['user']})"
    )
    lines = typescript_reproduction(
        [
            CallerMutates("save_metadata", ("ns", "k", {"a": 1}), marker="m"),
            Step("get_history", ("s1", "3"), errors=(ValueError,)),
            Step("list_metadata", ("ns",)),
        ]
    )
    assert lines[2] == "export async function reproduce(store: Required<MemoryService>): Promise<void> {"
    assert "  try { await loose.getHistory('s1', '3'); } catch { /* must throw ValueError */ }" in lines
    assert lines[-2:] == [
        "  console.log(await store.listMetadata('ns'));  // the call that shows the bug",
        "}",
    ]


def test_the_recorder_keeps_only_the_current_test_s_store() -> None:
    """A new store opened while none is open starts a new transcript; one opened beside another
    joins it; a restarted adapter's stores are gone; nothing before the first open is kept."""
    from aalis_memory.drivers.stdio.transcript import Recorder

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
    (folder / "tsconfig.json").write_text(
        json.dumps(
            {
                "compilerOptions": {
                    "target": "ES2022",
                    "module": "commonjs",
                    "lib": ["ES2022"],
                    "types": ["node"],
                    "typeRoots": [str(BRIDGE / "node_modules" / "@types")],
                    "strict": True,
                    "noEmit": True,
                    "skipLibCheck": True,
                    "baseUrl": ".",
                    "paths": {"@aalis/memory-stdio-bridge": [str(BRIDGE / "src" / "index.ts")]},
                },
                "files": ["snippet.ts"],
            }
        )
    )
    return subprocess.run(
        [
            "node",
            str(BRIDGE / "node_modules" / "typescript" / "bin" / "tsc"),
            "-p",
            str(folder / "tsconfig.json"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _run_kit(folder: Path, adapter: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], Any]:
    report = folder / "report.json"
    proc = subprocess.run(
        [
            *KIT_PYTEST,
            "--memory-driver=stdio",
            f"--memory-stdio-command=node {adapter}",
            f"--memory-report={report}",
            *args,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return proc, load_report(report)


def _transcript_note(text: str) -> tuple[Path, list[str]]:
    """The transcript a failure's text names, and its replay command (as argv)."""
    path = next(
        line.split("): ", 1)[1] for line in text.splitlines() if line.strip().startswith("stdio transcript (")
    )
    command = next(line.split("replay it: ", 1)[1] for line in text.splitlines() if "replay it: " in line)
    argv = shlex.split(command)
    assert argv[:3] == ["python", "-m", "aalis_memory.conformance"], command
    return Path(path), [sys.executable, *argv[1:]]


def test_a_failure_names_a_transcript_that_replays_it(built: Path, tmp_path: Path) -> None:
    """A failing test of a stdio driver names the transcript of its store and the replay
    command, in the terminal and in the report; the command run as printed gets every recorded
    answer again from the same adapter, and marks the first that differs from another one."""
    proc, report = _run_kit(
        tmp_path, built / "broken-limit-zero.js", "--memory-rules=LIM-01", "-k", "not state_machine"
    )
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
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert other.returncode == 1, other.stdout + other.stderr
    marked = [line for line in other.stdout.splitlines() if "<--" in line]
    assert marked, other.stdout
    assert marked[0].endswith('replayed: {"result":[]}   <-- the first answer that differs'), marked


def test_a_machine_failure_of_a_stdio_driver_is_reproduced_in_typescript(
    built: Path,
    tmp_path: Path,
) -> None:
    """The state machine's shrunk history of a TypeScript backend is printed as TypeScript that
    compiles against the bridge's types, and its transcript (the shrunk history's store) replays
    with the recorded answers."""
    proc, report = _run_kit(tmp_path, built / "broken-clear-all-metadata.js", "-k", "test_state_machine")
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


# -- the contract's surface across the bridge: rangeCap, errors by meaning (issue 26) ---------


#: Real RangeErrors of V8, made by node, and the wire's errorClass serve() must give each.
RANGE_ERRORS = {
    "(function f() { f(); })()": "RecursionError",
    "'x'.repeat(2 ** 30)": "SizeError",
    "new Array(-1)": "SizeError",
    "new ArrayBuffer(2 ** 53)": "SizeError",
    "new Uint8Array(-1)": "SizeError",
    "(1).toFixed(200)": "ValueError",
    "new Date(NaN).toISOString()": "ValueError",
    "'a'.normalize('nope')": "ValueError",
}


def test_serve_reports_a_range_error_by_its_meaning(built: Path) -> None:
    """A stack overflow is a RecursionError, a value too large to hold a SizeError, any other
    RangeError a ValueError: each thrown by node itself, classified by the built serve()."""
    script = (
        f"const {{ errorClass }} = require({json.dumps(str(built / 'serve.js'))});\n"
        f"const cases = {json.dumps(list(RANGE_ERRORS))};\n"
        "const out = {};\n"
        "for (const code of cases) {\n"
        "  try { eval(code); out[code] = 'no error'; }\n"
        "  catch (e) { out[code] = [e.constructor.name, errorClass(e), e.message]; }\n"
        "}\n"
        "process.stdout.write(JSON.stringify(out));\n"
    )
    proc = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    assert {code: found[code][0] for code in RANGE_ERRORS} == dict.fromkeys(RANGE_ERRORS, "RangeError"), found
    assert {code: found[code][1] for code in RANGE_ERRORS} == RANGE_ERRORS, found


def test_a_backend_without_a_range_cap_that_says_so_is_green(built: Path, tmp_path: Path) -> None:
    """A JavaScript backend with no range cap declares ``rangeCap: false``: the handshake takes
    it, the registration has ``range_cap=False``, and the run is green strict with RANGE-01
    excluded by tier (it binds only backends with a cap)."""
    hello = probe("ts", ["node", str(built / "no-range-cap.js")])
    assert hello["capabilities"]["rangeCap"] is False
    proc, report = _run_kit(tmp_path, built / "no-range-cap.js", "--memory-strict")
    assert proc.returncode == 0, proc.stdout[-4000:]
    driver = report["drivers"]["stdio:typescript-no-range-cap"]
    assert driver["capabilities"]["range_cap"] is False
    found = {rule: result["verdict"] for rule, result in driver["rules"].items()}
    assert found["RANGE-01"] == "excluded by tier", driver["rules"]["RANGE-01"]
    assert "no range cap" in driver["rules"]["RANGE-01"]["message"]
    wrong = {
        rule: verdict
        for rule, verdict in found.items()
        if verdict not in ACCEPTED
        and not (rule in OPT_IN and verdict == "not run")
        and not slow_round_trip(rule, driver["rules"][rule])
        and not uncarried_integer(rule, driver["rules"][rule])
    }
    assert not wrong, wrong


def test_a_stack_overflow_fails_input_07(built: Path, tmp_path: Path) -> None:
    """The backend whose stack overflows on a payload nested 5000 levels fails INPUT-07 strict
    (its RangeError reaches Python as a RecursionError, which the rule excludes), where a
    RangeError taken for a ValueError let it pass."""
    proc, report = _run_kit(
        tmp_path,
        built / "broken-stack-overflow.js",
        "--memory-strict",
        "--memory-rules=INPUT-07",
        "-k",
        "not state_machine",
    )
    assert proc.returncode == 1, proc.stdout[-4000:]
    rule = report["drivers"]["stdio:broken-stack-overflow"]["rules"]["INPUT-07"]
    assert rule["verdict"] == "fail", rule
    assert "AdapterRecursionError: Maximum call stack size exceeded" in rule["message"], rule
