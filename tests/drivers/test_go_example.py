"""examples/go-backend, run the way its author would run it: ``go build`` into a temporary
folder, then the kit from an empty folder, strict, through the stdio protocol (issue 35). It is
green: every rule passes, or names the optional method it lacks, the raw access it does not
offer, or the tier it does not declare. Its one-bug copy (``go build -tags onebug``: deleting a
stored metadata key drops the key's whole namespace) fails META-03, whose words it contradicts,
and nothing else.

Go is on every machine the kit's CI runs on (``.ci/run`` builds FerretDB and actionlint with
it; the GitHub workflow sets it up): without it the tests skip, saying why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from kit_run import KIT_PYTEST
from reports import load_report, messages, rules, slow_round_trip, verdicts

GO_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "go-backend"
#: The optional methods the example has (its README and its handshake say the same).
HAS_OPTIONAL = {"get_full_history", "count_history", "clear_all"}
#: Verdicts a green strict run may hold besides pass, each for a reason the rule names.
ALLOWED = {"pass", "not implemented", "unverified", "excluded by tier"}


def _go_env() -> dict[str, str]:
    """No network: the example needs no module, and the installed toolchain builds it."""
    return {**os.environ, "GOTOOLCHAIN": "local", "GOPROXY": "off"}


@pytest.fixture(scope="module")
def binaries(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    go = shutil.which("go")
    if go is None:
        pytest.skip("go is not on PATH: examples/go-backend cannot be built (install Go 1.24 or later)")
    out = tmp_path_factory.mktemp("go-build")
    built: dict[str, Path] = {}
    for name, tags in (("go-memory", []), ("go-memory-onebug", ["-tags", "onebug"])):
        proc = subprocess.run(
            [go, "build", *tags, "-o", str(out / name), "."],
            cwd=GO_EXAMPLE,
            env=_go_env(),
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
        built[name] = out / name
    return built


@pytest.fixture(scope="module")
def runs(binaries: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Both kit runs at once, each from an empty folder: the example's whole suite, strict, and
    its one-bug copy's (without the state machine, as the kit's other one-bug backends run)."""
    started: dict[str, tuple[subprocess.Popen[str], Path]] = {}
    for name, extra in (("go-memory", []), ("go-memory-onebug", ["-k", "not state_machine"])):
        folder = tmp_path_factory.mktemp(f"{name}-run")
        command = [
            *KIT_PYTEST,
            "--memory-driver=stdio",
            f"--memory-stdio-command={binaries[name]}",
            "--memory-strict",
            f"--memory-report={folder / 'report.json'}",
            *extra,
        ]
        started[name] = (
            subprocess.Popen(
                command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
            ),
            folder,
        )
    found: dict[str, Any] = {}
    for name, (proc, folder) in started.items():
        output, _ = proc.communicate(timeout=900)
        found[name] = (proc.returncode, output, load_report(folder / "report.json"))
    return found


def test_the_go_example_is_green_strict(runs: dict[str, Any]) -> None:
    code, output, report = runs["go-memory"]
    assert code == 0, output[-5000:]
    found = rules(report, "stdio:go-memory")
    odd = {
        rule: entry["verdict"]
        for rule, entry in found.items()
        if entry["verdict"] not in ALLOWED and not slow_round_trip(rule, entry)
    }
    assert not odd, (odd, output[-5000:])
    for rule, entry in found.items():
        why = " ".join(messages(entry))
        if entry["verdict"] == "not implemented":
            assert "does not implement optional method" in why, (rule, why)
            assert not any(f"method {name}()" in why for name in HAS_OPTIONAL), (rule, why)
        elif entry["verdict"] == "unverified":
            assert "no raw access" in why, (rule, why)


def test_what_the_go_example_does_is_checked_not_skipped(runs: dict[str, Any]) -> None:
    """Durable (the crash checks run), isolated in its own process (the probe runs), and its
    int64 timestamps travel as the documents say: tagged ``$int``, read exactly (TS-06)."""
    _, output, report = runs["go-memory"]
    found = verdicts(report, "stdio:go-memory")
    for rule in ("CRASH-01", "CRASH-02", "ISO-01", "ISO-02", "TS-06", "INPUT-04", "INPUT-07", "REQ-01"):
        assert found[rule] == "pass", (rule, found[rule], output[-3000:])
    assert sum(verdict == "pass" for verdict in found.values()) >= 70, found


def test_its_one_bug_copy_fails_exactly_meta_03(runs: dict[str, Any]) -> None:
    code, output, report = runs["go-memory-onebug"]
    assert code == 1, output[-5000:]
    found = rules(report, "stdio:go-memory")
    failing = {
        rule
        for rule, entry in found.items()
        if entry["verdict"] not in ALLOWED and not slow_round_trip(rule, entry)
    }
    assert failing == {"META-03"}, (failing, output[-5000:])
    assert found["META-03"]["verdict"] == "fail"
    assert "after delete_metadata" in " ".join(messages(found["META-03"])), found["META-03"]


def test_its_readme_names_the_optional_methods_it_has() -> None:
    readme = (GO_EXAMPLE / "README.md").read_text(encoding="utf-8")
    bullet = readme.split("- **Optional methods**:", 1)[1].split("\n- ", 1)[0]
    camel = {"get_full_history": "getFullHistory", "count_history": "countHistory", "clear_all": "clearAll"}
    assert {f"`{camel[name]}`" for name in HAS_OPTIONAL} <= set(
        bullet.replace(",", " ").replace(".", " ").split()
    )
    source = (GO_EXAMPLE / "main.go").read_text(encoding="utf-8")
    for name in HAS_OPTIONAL:
        assert f'"{camel[name]}"' in source, name


def test_the_go_example_is_gofmt_and_vet_clean(binaries: dict[str, Path]) -> None:
    """Idiomatic Go, by Go's own tools: formatted by gofmt, and go vet finds nothing (with the
    bug's build tag too)."""
    go = shutil.which("go")
    assert go is not None  # the binaries fixture skipped otherwise
    gofmt = subprocess.run(
        [str(Path(go).with_name("gofmt")), "-l", "."],
        cwd=GO_EXAMPLE,
        capture_output=True,
        text=True,
        check=False,
    )
    assert gofmt.returncode == 0, gofmt.stderr
    assert gofmt.stdout == "", f"not gofmt-formatted: {gofmt.stdout}"
    for tags in ([], ["-tags", "onebug"]):
        vet = subprocess.run(
            [go, "vet", *tags, "."],
            cwd=GO_EXAMPLE,
            env=_go_env(),
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert vet.returncode == 0, vet.stdout + vet.stderr
