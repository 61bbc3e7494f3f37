"""The provider suite can fail: each broken provider is flagged on exactly its declared rules.

The report is keyed by memory driver, so each provider runs in its own interpreter (two at a
time) over the in-memory driver.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from broken_providers import BROKEN, NAMES
from test_broken_drivers import run_suite

from reports import verdicts


def _run(workdir: Path, name: str) -> tuple[int, dict[str, Any], str]:
    workdir.mkdir()
    return run_suite(
        workdir, ["inmemory"], "-p", "broken_providers", f"--memory-compression-provider=broken-{name}",
        "--memory-strict", "-k", "compression_service",
    )


@pytest.fixture(scope="session")
def provider_reports(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, tuple[int, dict[str, Any], str]]:
    root = tmp_path_factory.mktemp("broken-providers")
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = {name: pool.submit(_run, root / name, name) for name in NAMES}
        return {name: run.result() for name, run in runs.items()}


@pytest.mark.parametrize("name", NAMES)
def test_suite_flags_exactly_the_broken_rules(
    name: str, provider_reports: dict[str, tuple[int, dict[str, Any], str]]
) -> None:
    entry = BROKEN[name]
    code, data, output = provider_reports[name]
    assert code == 1, f"the suite should fail on broken-{name} (exit {code}):\n{output[-3000:]}"
    failing = {rule for rule, verdict in verdicts(data, "inmemory").items() if verdict == "fail"}
    assert failing == set(entry.breaks), (
        f"broken-{name} ({entry.why}): expected failures {sorted(entry.breaks)}, "
        f"suite reported {sorted(failing)}"
    )


def test_every_service_rule_has_a_broken_provider() -> None:
    from aalis_memory.conformance.rules.compression import SERVICE_RULES

    caught = {rule for entry in BROKEN.values() for rule in entry.breaks}
    assert {rule.id for rule in SERVICE_RULES} <= caught
