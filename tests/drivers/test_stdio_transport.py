"""A JavaScript backend is judged as it is written (issue 22, the protocol's part): nulls for
absent fields, values a JavaScript caller can or cannot pass, methods it lacks, objects it
aliases in its own process, and a store that outlives its process.

The TypeScript backends run are in ``bridges/typescript/src``: ``nulls-for-absent`` (correct,
JavaScript-flavoured), ``broken-aliasing`` (ISO-02), ``broken-no-archive`` (REQ-01) and the
file-backed ``reference-file`` (durable: CRASH-01/02 run).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from test_stdio_bridge import built  # noqa: F401  (the compiled bridge, a session fixture)

from aalis_memory.conformance.registration.transport import Transport, Uncarriable
from aalis_memory.drivers.stdio import codec
from kit_run import KIT_PYTEST
from reports import load_report, slow_round_trip, uncarried_integer, verdicts

JAVASCRIPT = Transport(
    "JavaScript", 2**53 - 1, frozenset({"non-finite", "bytes", "map", "opaque", "cycle", "deep"})
)
#: Each TypeScript backend and the rules it fails (in the default mode, SHOULD ones advisory).
BACKENDS = {"nulls-for-absent": {"MSG-07"}, "broken-aliasing": {"ISO-02"}, "broken-no-archive": {"REQ-01"}}
FAILING = ("fail", "advisory")


# -- the codec, without node ------------------------------------------------------------------


def test_a_declared_transport_gets_cycles_and_deep_nesting_made_on_its_side() -> None:
    javascript = codec.Codec(JAVASCRIPT)
    loop: dict[str, Any] = {"name": "loop"}
    loop["self"] = loop
    assert javascript.encode(loop) == {"name": "loop", "self": {"$cycle": 1}}
    items: list[Any] = [1]
    items.append(items)
    assert javascript.encode({"items": items}) == {"items": [1, {"$cycle": 1}]}
    value: Any = "leaf"
    for depth in range(5000):
        value = [value] if depth % 2 else {"d": value}
    deep = javascript.encode({"deep": value})
    body = deep["deep"]
    for _ in range(codec.MAX_DEPTH):
        body = body[0] if isinstance(body, list) else body["d"]
    assert set(body) == {"$deep"}
    assert body["$deep"]["leaf"] == "leaf"
    assert len(body["$deep"]["path"]) + codec.MAX_DEPTH == 5000


def test_an_integer_the_transport_cannot_hold_makes_the_test_unverified() -> None:
    javascript = codec.Codec(JAVASCRIPT)
    assert javascript.encode([2**53 - 1, float(2**63)]) == [2**53 - 1, float(2**63)]
    with pytest.raises(
        Uncarriable, match="unverified: the JavaScript transport cannot carry the integer 9223372036854775807"
    ):
        javascript.encode(2**63 - 1)
    assert not issubclass(Uncarriable, Exception)  # no `except Exception` takes it for a refusal


def test_without_a_declared_transport_the_encoding_is_unchanged() -> None:
    loop: dict[str, Any] = {}
    loop["self"] = loop
    assert codec.encode(2**63) == {"$int": str(2**63)}
    assert "$opaque" in str(codec.encode(loop))
    assert "$cycle" not in str(codec.encode(loop))


def test_null_optional_fields_are_absent_on_the_way_back() -> None:
    result = [
        {
            "role": "user",
            "content": None,
            "timestamp": 1,
            "kind": None,
            "metadata": None,
            "reasoningContent": None,
        }
    ]
    assert codec.drop_absent_nulls("getHistory", result) == ["kind", "metadata"]
    assert result == [{"role": "user", "content": None, "timestamp": 1, "reasoningContent": None}]
    records = [{"sessionId": "s", "message": {"role": "user", "content": "a", "name": None}}]
    assert codec.drop_absent_nulls("getRecentMessagesAcrossSessions", records) == ["name"]
    assert codec.drop_absent_nulls("getMetadata", {"a": None}) == []


# -- TypeScript backends through the bridge ----------------------------------------------------


def _run(workdir: Path, *args: str) -> tuple[int, str]:
    proc = subprocess.run(
        [*KIT_PYTEST, *args],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    return proc.returncode, proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def backends(
    built: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[str, dict[str, Any]]:
    workdir = tmp_path_factory.mktemp("ts-backends")
    (workdir / "conftest.py").write_text(
        "from aalis_memory.drivers.stdio import stdio_driver\n"
        + "".join(
            f"stdio_driver({name!r}, command={['node', str(built / f'{name}.js')]!r})\n" for name in BACKENDS
        )
    )
    _code, output = _run(
        workdir,
        f"--memory-driver={','.join(BACKENDS)}",
        "-k",
        "not state_machine",
        f"--memory-report={workdir / 'report.json'}",
    )
    return output, load_report(workdir / "report.json")


@pytest.mark.parametrize("name", sorted(BACKENDS))
def test_a_typescript_backend_fails_exactly_its_rules(
    backends: tuple[str, dict[str, Any]],
    name: str,
) -> None:
    output, report = backends
    found = verdicts(report, name)
    failing = {rule for rule, verdict in found.items() if verdict in FAILING}
    assert failing == BACKENDS[name], output[-4000:]


def test_nulls_for_absent_fields_cost_no_other_verdict(
    backends: tuple[str, dict[str, Any]],
) -> None:
    output, report = backends
    found = verdicts(report, "nulls-for-absent")
    entries = report["drivers"]["nulls-for-absent"]["rules"]
    others = {
        rule: verdict
        for rule, verdict in found.items()
        if verdict not in ("pass", "excluded by tier", "unverified", "not run")
        and rule != "MSG-07"
        and not slow_round_trip(rule, entries[rule])
        and not uncarried_integer(rule, entries[rule])
    }
    assert not others, output[-4000:]
    message = report["drivers"]["nulls-for-absent"]["rules"]["MSG-07"]["message"]
    assert "returned as null" in message, message
    assert "'kind'" in message, message


def test_a_missing_required_method_fails_req_01_and_blocks_what_needs_it(
    backends: tuple[str, dict[str, Any]],
) -> None:
    output, report = backends
    found = verdicts(report, "broken-no-archive")
    assert found["REQ-01"] == "fail", output[-4000:]
    for rule in ("ARCH-01", "ARCH-02", "ARCH-05"):
        assert found[rule] == "blocked", (rule, found[rule])
    rules = report["drivers"]["broken-no-archive"]["rules"]
    assert "archive_span" in rules["ARCH-01"]["message"], rules["ARCH-01"]["message"]


def test_isolation_is_judged_in_the_adapters_process(
    backends: tuple[str, dict[str, Any]],
) -> None:
    _output, report = backends
    assert verdicts(report, "nulls-for-absent")["ISO-01"] == "pass"
    assert verdicts(report, "nulls-for-absent")["ISO-02"] == "pass"
    message = report["drivers"]["broken-aliasing"]["rules"]["ISO-02"]["message"]
    assert "(mutated)" in message, message


def test_the_file_backed_reference_runs_the_crash_checks(
    built: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    report = tmp_path / "report.json"
    command = f"node {built / 'reference-file.js'}"
    code, output = _run(
        tmp_path,
        "--memory-driver=stdio",
        f"--memory-stdio-command={command}",
        "--memory-rules=CRASH-*",
        f"--memory-report={report}",
    )
    assert code == 0, output[-4000:]
    data = load_report(report)
    found = verdicts(data, "stdio:typescript-reference-file")  # the name given to serve()
    assert found["CRASH-01"] == "pass", output[-4000:]
    assert found["CRASH-02"] == "pass", output[-4000:]
