"""The README's TypeScript quick start, run verbatim in an empty folder (issue 22), and the
JavaScript backend it sets up judged as it is written.

The three blocks of the README's section (the setup, ``adapter.js``, the suite run) are read from
README.md, so the test and the text cannot drift, and run by one bash in an empty folder, with
``KIT`` a copy of this repository (the quick start runs ``npm ci`` and ``npm pack`` in the
kit's checkout: the repository's own bridge folder must not change under the other tests). The
npm steps prefer the local npm cache (``npm_config_prefer_offline``): with the bridge's
dependencies cached, no registry is needed. Only the environment adds to the run: the JSON
report (``PYTEST_ADDOPTS``), for the verdicts. The kit is installed in ``.venv/`` inside the
backend's folder, a folder pytest does not walk into by itself: the plugin still collects the
suite there.

The backend set up is ``examples/typescript-backend``'s: an ES module, plain JavaScript, nulls
for absent fields, JavaScript numbers only, no optional method. It gets no verdict the transport
caused: no ``fail``, one advisory (MSG-07, the reading on absent fields returned as null), the
optional methods' rules ``not implemented``, and ``unverified`` only with a reason.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Final

import pytest

from reports import load_report, rules, slow_round_trip, uncarried_integer, verdicts

REPO: Final = Path(__file__).resolve().parents[2]
BRIDGE: Final = REPO / "bridges" / "typescript"
EXAMPLE: Final = REPO / "examples" / "typescript-backend"
SECTION: Final = "## Testing a backend written in TypeScript"
#: What is not copied into the kit's stand-in checkout (builds, caches, environments).
NOT_COPIED: Final = (
    ".git",
    ".venv",
    ".tox",
    "node_modules",
    "dist",
    "build",
    "*.egg-info",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    ".mutation",
)
#: The rules a backend without raw access, durability or integers past 2**53 cannot have
#: checked: each is `unverified`, with its reason.
UNVERIFIABLE: Final = {
    "CLR-06",
    "CLR-07",
    "CLR-08",
    "COMMIT-06",
    "META-09",
    "META-10",
    "CRASH-01",
    "CRASH-02",
    "INPUT-03",
    "TS-06",
}
#: A partial backend in TypeScript, type-checked against the installed package (no cast).
PARTIAL_BACKEND: Final = """\
import { serve, MemoryService, Message, MetadataEntry, MetadataOp, StoreConfig, ValueError }
  from '@aalis/memory-stdio-bridge';

class Partial implements MemoryService {
  constructor(readonly config: StoreConfig) {}
  async saveMessage(_s: string, _m: Message): Promise<void> { throw new ValueError('no'); }
  async getHistory(_s: string, _l?: number): Promise<Message[]> { return []; }
  async clearSession(_s: string): Promise<void> {}
  async archiveSpan(_s: string, _span: { count: number; keep: readonly number[] }): Promise<number> {
    return 0;
  }
  async saveMetadata(_n: string, _k: string, _d: Record<string, unknown>): Promise<void> {}
  async getMetadata(_n: string, _k: string): Promise<Record<string, unknown> | undefined> {
    return undefined;
  }
  async listMetadata(_n: string): Promise<MetadataEntry[]> { return []; }
  async deleteMetadata(_n: string, _k: string): Promise<void> {}
  async commitMetadata(_ops: readonly MetadataOp[]): Promise<void> {}
}

serve({
  name: 'partial',
  capabilities: { ordering: 'write', metadataAtomicity: 'ordered', archiveAtomicity: 'partial' },
  open: (config) => new Partial(config),
});
"""


def quick_start() -> tuple[str, str, str]:
    """The README's quick start: the setup commands, ``adapter.js``, the suite's command."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    section = section[: section.index("\n## ", 1)]
    blocks = re.findall(r"^```(\w+)\n(.*?)^```$", section, re.M | re.S)
    assert [kind for kind, _ in blocks] == ["sh", "js", "sh"], blocks
    (_, setup), (_, adapter), (_, run) = blocks
    return setup, adapter, run


def bridge_tarball() -> str:
    package = json.loads((BRIDGE / "package.json").read_text(encoding="utf-8"))
    scope, name = package["name"].lstrip("@").split("/")
    return f"{scope}-{name}-{package['version']}.tgz"


def test_the_quick_start_names_what_npm_pack_makes() -> None:
    setup, _, run = quick_start()
    assert f"npm install ./{bridge_tarball()}\n" in setup
    assert "npm ci --prefix" in setup, "the bridge's build tools, from its lock file"
    assert 'python -m pip install "$KIT"' in setup, "the kit is not on PyPI"
    assert '--memory-stdio-command="node adapter.js"' in run


def test_the_example_package_is_the_quick_start() -> None:
    """examples/typescript-backend is the quick start's backend as a package of its own."""
    _, adapter, _ = quick_start()
    assert (EXAMPLE / "adapter.js").read_text(encoding="utf-8") == adapter
    package = json.loads((EXAMPLE / "package.json").read_text(encoding="utf-8"))
    assert package["type"] == "module"
    assert package["dependencies"] == {"@aalis/memory-stdio-bridge": f"file:{bridge_tarball()}"}
    memory = (EXAMPLE / "memory.js").read_text(encoding="utf-8")
    assert "export class MemoryBackend" in memory
    # plain JavaScript, an ES module knowing nothing of the kit
    assert "require(" not in memory
    assert "memory-stdio-bridge" not in memory


# -- the quick start, run ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class QuickStart:
    folder: Path
    kit: Path
    output: str
    code: int
    report: Path


def _environment(kit: Path, report: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTEST_ADDOPTS")
    }
    env.update(
        KIT=str(kit),
        PYTEST_ADDOPTS=f"-p no:cacheprovider --memory-report={report}",
        npm_config_prefer_offline="true",
        npm_config_audit="false",
        npm_config_fund="false",
        npm_config_update_notifier="false",
    )
    return env


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> QuickStart:
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("npm/node are not installed: the TypeScript quick start cannot run")
    base = tmp_path_factory.mktemp("quickstart")
    kit = base / "aalis-memory-conformance"
    shutil.copytree(REPO, kit, ignore=shutil.ignore_patterns(*NOT_COPIED))
    folder = base / "my-backend"
    folder.mkdir()
    report = base / "report.json"
    setup, adapter, run = quick_start()
    script = f"{setup}cat > adapter.js <<'ADAPTER_JS'\n{adapter}ADAPTER_JS\n{run}"
    proc = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", script],
        cwd=folder,
        env=_environment(kit, report),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    output = proc.stdout + proc.stderr
    (base / "output.txt").write_text(output, encoding="utf-8")
    return QuickStart(folder, kit, output, proc.returncode, report)


def test_the_quick_start_runs_verbatim_from_an_empty_folder(quick: QuickStart) -> None:
    assert quick.code == 0, quick.output[-6000:]
    assert " 0 fail," in quick.output, quick.output[-6000:]
    installed = quick.folder / "node_modules" / "@aalis" / "memory-stdio-bridge"
    assert (installed / "dist" / "cjs" / "index.js").is_file()
    assert (installed / "dist" / "esm" / "index.mjs").is_file()
    assert not (installed / "node_modules").exists()


def _only_driver(report: dict[str, Any]) -> str:
    (driver,) = report["drivers"]
    return str(driver)


def test_a_javascript_flavoured_backend_gets_no_verdict_from_the_transport(
    quick: QuickStart,
) -> None:
    """Nulls for absent fields, no optional method, JavaScript numbers, an ES module: only the
    rules that are the backend's own speak."""
    assert quick.code == 0, quick.output[-6000:]
    report = load_report(quick.report)
    driver = _only_driver(report)
    found = verdicts(report, driver)
    by_verdict: dict[str, set[str]] = {}
    for rule, verdict in found.items():
        by_verdict.setdefault(verdict, set()).add(rule)
    assert not by_verdict.get("fail"), by_verdict
    assert by_verdict.get("advisory") == {"MSG-07"}, by_verdict
    # META-05's same-millisecond phase runs only when two round trips fit in one millisecond: a
    # slower one makes its pass partial, saying so; META-01 saves 2**53, which JavaScript's
    # numbers cannot carry: that test is unverified, saying so
    partial = by_verdict.pop("partial pass", set())
    limited = {
        rule
        for rule in partial
        if slow_round_trip(rule, rules(report, driver)[rule])
        or uncarried_integer(rule, rules(report, driver)[rule])
    }
    assert partial == limited, (partial - limited, by_verdict)
    assert set(by_verdict) <= {
        "pass",
        "advisory",
        "not implemented",
        "excluded by tier",
        "unverified",
        "not run",
    }, by_verdict
    # null where nothing was saved costs no other rule: the fields' round trip passes
    assert found["MSG-02"] == "pass", rules(report, driver)["MSG-02"]
    assert "returned as null" in rules(report, driver)["MSG-07"]["message"]
    # no optional method: their rules are `not implemented`, naming the method
    absent = by_verdict.get("not implemented", set())
    assert {"COUNT-01", "CROSS-01", "FULL-01", "RANGE-01", "UPD-01", "DEL-01"} <= absent, absent
    for rule in absent:
        assert "does not implement optional method" in rules(report, driver)[rule]["message"]
    # what cannot be checked says why; the JavaScript numbers are the transport's reason
    assert by_verdict.get("unverified", set()) <= UNVERIFIABLE, by_verdict
    for rule in by_verdict.get("unverified", set()):
        assert rules(report, driver)[rule]["message"], rule
    assert "JavaScript transport" in rules(report, driver)["TS-06"]["message"]


def test_the_bridge_serves_import_and_require_with_one_copy(quick: QuickStart) -> None:
    """ES module and CommonJS entry points, the same objects behind both."""
    script = (
        "import { serve, ValueError } from '@aalis/memory-stdio-bridge';\n"
        "import { createRequire } from 'node:module';\n"
        "const bridge = createRequire(import.meta.url)('@aalis/memory-stdio-bridge');\n"
        "console.log(typeof serve, bridge.serve === serve && bridge.ValueError === ValueError);\n"
    )
    proc = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        cwd=quick.folder,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.stdout.split() == ["function", "true"], proc.stdout + proc.stderr


@pytest.mark.parametrize("module", ["nodenext", "commonjs"])
def test_a_partial_backend_type_checks_without_a_cast(quick: QuickStart, tmp_path: Path, module: str) -> None:
    """The package's types, imported from an ES module (.mts) and a CommonJS one (.cts): a
    backend without the optional methods is a MemoryService."""
    tools = quick.kit / "bridges" / "typescript" / "node_modules"
    sources = []
    for suffix in (".mts", ".cts"):
        source = quick.folder / f"partial-{module}{suffix}"
        source.write_text(PARTIAL_BACKEND, encoding="utf-8")
        sources.append(str(source))
    resolution = "nodenext" if module == "nodenext" else "node10"
    proc = subprocess.run(
        [
            "node",
            str(tools / "typescript" / "bin" / "tsc"),
            "--noEmit",
            "--strict",
            "--target",
            "ES2022",
            "--module",
            module,
            "--moduleResolution",
            resolution,
            "--types",
            "node",
            "--typeRoots",
            str(tools / "@types"),
            *sources,
        ],
        cwd=quick.folder,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
