"""The provider suite can fail: each broken provider is flagged on exactly its declared rules,
in strict mode (every declared rule fails) and in the default mode (a MUST rule fails, a SHOULD
rule is an advisory, and the run fails only for a MUST rule).

The report is keyed by memory driver, so each provider runs in its own interpreter (two at a
time) over the in-memory driver.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final

import pytest
from broken_providers import BROKEN, NAMES
from test_broken_drivers import run_suite

from aalis_memory.conformance.report import ADVISORY
from aalis_memory.conformance.rules import CATALOGUE, Level
from aalis_memory.conformance.rules.rule import METADATA_KEEPERS, PROVIDERS

#: The provider suite's modules (``-k`` matches a test's module name).
PROVIDER_SUITE: Final = "compression_service or compression_events or compression_clearing"
MODES: Final = ("strict", "default")


def _run(workdir: Path, name: str, mode: str) -> tuple[int, dict[str, Any], str]:
    workdir.mkdir()
    strict = ["--memory-strict"] if mode == "strict" else []
    return run_suite(
        workdir, ["inmemory"], "-p", "broken_providers", f"--memory-compression-provider=broken-{name}",
        *strict, "-k", PROVIDER_SUITE,
    )


@pytest.fixture(scope="session")
def provider_reports(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[tuple[str, str], tuple[int, dict[str, Any], str]]:
    root = tmp_path_factory.mktemp("broken-providers")
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = {(name, mode): pool.submit(_run, root / f"{name}-{mode}", name, mode)
                for name in NAMES for mode in MODES}
        return {key: run.result() for key, run in runs.items()}


def _verdicts(data: dict[str, Any], verdict: str) -> set[str]:
    return {rule for rule, result in data.get("inmemory", {}).items() if result["verdict"] == verdict}


@pytest.mark.parametrize("name", NAMES)
def test_suite_flags_exactly_the_broken_rules(
    name: str, provider_reports: dict[tuple[str, str], tuple[int, dict[str, Any], str]]
) -> None:
    entry = BROKEN[name]
    code, data, output = provider_reports[name, "strict"]
    assert code == 1, f"the suite should fail on broken-{name} (exit {code}):\n{output[-3000:]}"
    failing = _verdicts(data, "fail")
    assert failing == set(entry.breaks), (
        f"broken-{name} ({entry.why}): expected failures {sorted(entry.breaks)}, "
        f"suite reported {sorted(failing)}"
    )


@pytest.mark.parametrize("name", NAMES)
def test_default_mode_fails_must_rules_and_advises_should_rules(
    name: str, provider_reports: dict[tuple[str, str], tuple[int, dict[str, Any], str]]
) -> None:
    entry = BROKEN[name]
    code, data, output = provider_reports[name, "default"]
    musts = {r for r in entry.breaks if CATALOGUE[r].level is Level.MUST}
    assert (_verdicts(data, "fail"), _verdicts(data, ADVISORY)) == (musts, set(entry.breaks - musts)), (
        f"broken-{name} ({entry.why}) in the default mode:\n{output[-3000:]}"
    )
    assert code == (1 if musts else 0), f"exit {code} for broken-{name}:\n{output[-3000:]}"


def test_every_provider_rule_has_a_broken_provider() -> None:
    provider_rules = {r.id for r in CATALOGUE.values() if r.binds in (PROVIDERS, METADATA_KEEPERS)}
    caught = {rule for entry in BROKEN.values() for rule in entry.breaks}
    assert provider_rules <= caught, sorted(provider_rules - caught)
