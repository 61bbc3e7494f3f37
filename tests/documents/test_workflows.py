"""The GitHub workflows keep what the README promises about CI. They cannot run here, so this
reads them (and runs actionlint, as .ci/run does, when it is on PATH)."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
CI = REPO / ".github" / "workflows" / "ci.yml"
TEMPLATE = REPO / "examples" / "json-file-backend" / ".github" / "workflows" / "conformance.yml"
#: The template of a JavaScript backend (examples/typescript-backend): the kit through its bridge.
JS_TEMPLATE = REPO / "examples" / "typescript-backend" / ".github" / "workflows" / "conformance.yml"
#: The template of a server backend (examples/postgres-backend): PostgreSQL from apt.
PG_TEMPLATE = REPO / "examples" / "postgres-backend" / ".github" / "workflows" / "conformance.yml"
TEMPLATES = (TEMPLATE, JS_TEMPLATE, PG_TEMPLATE)
#: An action pinned to an exact release (vX.Y.Z) or a full commit SHA; never a moving v4 or main.
PINNED = re.compile(r"^[\w.-]+/[\w./-]+@(v\d+\.\d+\.\d+|[0-9a-f]{40})$")


def workflow_files() -> list[Path]:
    return sorted(
        p
        for p in REPO.rglob("*.y*ml")
        if p.parent.name == "workflows"
        and p.parent.parent.name == ".github"
        and not {".venv", ".tox", ".git"} & set(p.relative_to(REPO).parts)
    )


def load(path: Path) -> dict[str, Any]:
    data: dict[Any, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    if True in data:  # YAML 1.1 reads the key `on` as a boolean
        data["on"] = data.pop(True)
    return data


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    return list(job.get("steps", []))


def runs(job: dict[str, Any]) -> str:
    return "\n".join(str(s.get("run", "")) for s in steps(job))


def python_classifiers() -> list[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    prefix = "Programming Language :: Python :: 3."
    return [f"3.{c[len(prefix) :]}" for c in project["classifiers"] if c.startswith(prefix)]


def test_every_workflow_exists() -> None:
    assert workflow_files() == sorted([CI, *TEMPLATES])


def test_ci_script_builds_actionlint_and_checks_every_workflow() -> None:
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"go install github\.com/rhysd/actionlint/cmd/actionlint@v\d+\.\d+\.\d+", script)
    lines = script.splitlines()
    lint = next(i for i, line in enumerate(lines) if line.startswith("actionlint "))
    assert lint < len(lines) - 1, "actionlint must run before the README's test command"
    # The list it lints is every .github/workflows file anywhere in the tree, not just the root.
    assert "-path '*/.github/workflows/*'" in script
    proc = subprocess.run(
        [
            "bash",
            "-c",
            re.search(r"mapfile -t workflows < <\((.*?)\)\n", script, re.S).group(1).replace("\\\n", " "),  # type: ignore[union-attr]
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    assert sorted(REPO / p for p in proc.stdout.split()) == workflow_files()


@pytest.fixture(scope="module")
def actionlint() -> str:
    found = shutil.which("actionlint")
    if found is None:
        pytest.skip(
            "actionlint is not on PATH (.ci/run builds it: go install "
            "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12)"
        )
    return found


@pytest.mark.parametrize("workflow", workflow_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_actionlint_accepts(actionlint: str, workflow: Path) -> None:
    proc = subprocess.run([actionlint, str(workflow)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_actionlint_rejects_a_broken_workflow(actionlint: str, tmp_path: Path) -> None:
    """The check can fail: a matrix key that does not exist is caught."""
    broken = CI.read_text(encoding="utf-8").replace("matrix.mongodb", "matrix.mongo_db", 1)
    (tmp_path / "ci.yml").write_text(broken, encoding="utf-8")
    proc = subprocess.run([actionlint, str(tmp_path / "ci.yml")], capture_output=True, text=True, check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "mongo_db" in proc.stdout, proc.stdout


@pytest.mark.parametrize("workflow", workflow_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_run_steps_fail_on_a_failing_pipe(workflow: Path) -> None:
    """GitHub's implicit shell is `bash -e` without pipefail; `shell: bash` adds it."""
    assert load(workflow)["defaults"]["run"]["shell"] == "bash"


@pytest.mark.parametrize("workflow", workflow_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_actions_are_pinned(workflow: Path) -> None:
    for name, job in load(workflow)["jobs"].items():
        for step in steps(job):
            if "uses" in step:
                assert PINNED.match(step["uses"]), f"{workflow.name} {name}: {step['uses']}"


def test_kit_tests_run_on_every_python_the_classifiers_name() -> None:
    job = load(CI)["jobs"]["tests"]
    assert job["strategy"]["matrix"]["python"] == python_classifiers() == ["3.11", "3.12", "3.13"]
    assert "bash .ci/run" in runs(job)


def test_lint_and_type_job() -> None:
    assert "tox run -e lint,type" in runs(load(CI)["jobs"]["lint-type"])


def test_mongodb_matrix_runs_real_servers_with_test_commands() -> None:
    job = load(CI)["jobs"]["mongodb"]
    assert job["strategy"]["matrix"]["mongodb"] == ["6.0", "7.0", "8.0"]
    script = runs(job)
    assert re.search(
        r'docker run .*\n?.*"mongo:\$\{\{ matrix\.mongodb \}\}" '
        r"--setParameter enableTestCommands=1",
        script,
    ), script
    assert "--memory-driver=mongodb" in script
    assert "--memory-mongodb-uri=" in script
    assert "tests/drivers/test_mongodb_*.py" in script, "the kit's fail-point tests (MDB-12) run there"
    assert "test_commit_stops_at_the_first_failure_keeping_earlier_writes" in script
    assert "fail_points" in script, "a skipped fail-point test must fail the job"


def test_testcontainers_provider_is_exercised() -> None:
    job = load(CI)["jobs"]["testcontainers"]
    script = runs(job)
    assert "'.[dev,containers]'" in script
    assert "--memory-driver=mongodb" in script
    assert "--memory-mongodb-uri" not in script
    assert "AALIS_MEMORY_MONGODB_URI" not in str(job)
    assert 'grep -q "via testcontainers"' in script


def test_lowest_job_runs_the_tox_env_that_installs_the_floors() -> None:
    job = load(CI)["jobs"]["lowest"]
    assert "tox run -e lowest" in runs(job)
    python = next(
        s["with"]["python-version"]
        for s in steps(job)
        if str(s.get("uses", "")).startswith("actions/setup-python@")
    )
    assert python == python_classifiers()[0], "the floors are tested on the oldest Python"
    tox = (REPO / "tox.ini").read_text(encoding="utf-8")
    section = tox[tox.index("[testenv:lowest]") :]
    section = section[: section.find("\n[", 1)]
    assert "--resolution lowest-direct" in section
    assert "--memory-driver=inmemory,sqlite" in section


def test_nightly_is_scheduled_and_bounded() -> None:
    workflow = load(CI)
    assert workflow["on"]["schedule"], "a nightly run needs a schedule"
    job = workflow["jobs"]["nightly"]
    assert "schedule" in job["if"]
    script = runs(job)
    assert "--memory-hypothesis-profile=thorough" in script
    minutes = int(re.search(r"--memory-hypothesis-minutes=(\d+)", script).group(1))  # type: ignore[union-attr]
    drivers = re.search(r"--memory-driver=([\w,]+)", script).group(1).split(",")  # type: ignore[union-attr]
    machines = len(drivers) + ("--memory-differential" in script)
    assert minutes * machines < job["timeout-minutes"], "the budget must end before the timeout"


@pytest.mark.parametrize("workflow", workflow_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_conformance_run_publishes_its_reports(workflow: Path) -> None:
    """JSON and Markdown reports as artifacts, the Markdown matrix in the job summary."""
    checked = 0
    for name, job in load(workflow)["jobs"].items():
        script = runs(job)
        if "--memory-driver" not in script and "tox run -e lowest" not in script:
            continue
        checked += 1
        reports = re.findall(r"--memory-report=\S*?(\w+)\.(json|md)\b", script)
        assert {kind for _, kind in reports} == {"json", "md"}, f"{name}: {reports}"
        md = next(f"{stem}.md" for stem, kind in reports if kind == "md")
        assert f'cat {md} >> "$GITHUB_STEP_SUMMARY"' in script, name
        summary = next(s for s in steps(job) if "GITHUB_STEP_SUMMARY" in str(s.get("run", "")))
        assert summary.get("if") == "always()", f"{name}: a failing run needs its matrix most"
        upload = [s for s in steps(job) if str(s.get("uses", "")).startswith("actions/upload-artifact@")]
        assert upload, name
        assert upload[0].get("if") == "always()", name
        assert {f"{stem}.{kind}" for stem, kind in reports} <= set(upload[0]["with"]["path"].split())
    assert checked >= (1 if workflow in TEMPLATES else 4)


def test_the_javascript_template_installs_the_kit_and_the_bridge_from_a_checkout() -> None:
    """Neither is published: the kit's repository is checked out, the kit pip-installed from it,
    the bridge packed from it (npm pack builds it) and installed by the backend's package.json
    (npm install: a backend needs no lock file); the suite runs the backend's adapter."""
    workflow = load(JS_TEMPLATE)
    (job,) = workflow["jobs"].values()
    kit = next(s for s in steps(job) if s.get("with", {}).get("repository"))
    path = kit["with"]["path"]
    script = runs(job)
    assert f"python -m pip install ./{path}\n" in script
    assert f"npm ci --prefix {path}/bridges/typescript\n" in script
    assert f"npm pack ./{path}/bridges/typescript\n" in script
    assert "\nnpm install\n" in script
    assert "npm ci\n" not in script.replace(f"npm ci --prefix {path}", "")
    assert '--memory-stdio-command="$ADAPTER"' in script
    assert workflow["env"]["ADAPTER"] == "node adapter.js"
    assert any(str(s.get("uses", "")).startswith("actions/setup-node@") for s in steps(job))
