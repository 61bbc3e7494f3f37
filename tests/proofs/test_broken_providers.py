"""The provider suite can fail: each broken provider is flagged on exactly its declared rules in
the default mode (a MUST rule fails, a SHOULD rule is an advisory), all of them in one run over
the in-memory driver.
"""

from __future__ import annotations

from typing import Any, Final

import frozen_matrix
import pytest
from broken_providers import BROKEN, NAMES
from test_broken_drivers import run_suite

from aalis_memory.conformance.rules import CATALOGUE, Level
from aalis_memory.conformance.rules.rule import METADATA_KEEPERS, PROVIDERS
from aalis_memory.conformance.suites import PROVIDER
from aalis_memory.conformance.verdicts.properties import ADVISORY
from reports import verdicts

#: The provider suite's modules (``-k`` matches a test's module name; a path instead would make
#: the repository's pyproject.toml the run's configuration).
PROVIDER_SUITE: Final = " or ".join(sorted(p.name for p in PROVIDER.folder.glob("[!_]*.py")))


@pytest.fixture(scope="session")
def provider_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any], str]:
    """Every broken provider in one default-mode run over the in-memory driver: the report
    keeps each provider's verdicts apart (``broken-NAME@inmemory``)."""
    return run_suite(
        tmp_path_factory.mktemp("broken-providers"),
        ["inmemory"],
        "-p",
        "broken_providers",
        f"--memory-compression-provider={','.join(f'broken-{name}' for name in NAMES)}",
        "-k",
        PROVIDER_SUITE,
    )


@pytest.mark.parametrize("name", NAMES)
def test_suite_flags_exactly_the_broken_rules(
    name: str, provider_report: tuple[int, dict[str, Any], str]
) -> None:
    """A broken MUST rule fails, a broken SHOULD rule is an advisory, nothing else is blamed."""
    code, data, output = provider_report
    assert code == 1, f"the suite should fail on the broken providers (exit {code}):\n{output[-3000:]}"
    entry = BROKEN[name]
    found = verdicts(data, f"broken-{name}@inmemory")
    failing = {rule for rule, verdict in found.items() if verdict == "fail"}
    advised = {rule for rule, verdict in found.items() if verdict == ADVISORY}
    musts = {r for r in entry.breaks if CATALOGUE[r].level is Level.MUST}
    assert (failing, advised) == (musts, set(entry.breaks) - musts), (
        f"broken-{name} ({entry.why}): expected fail {sorted(musts)} and advisory "
        f"{sorted(set(entry.breaks) - musts)}, got fail {sorted(failing)}, advisory "
        f"{sorted(advised)}"
    )


#: The run's drivers: each broken provider over the in-memory driver, and the in-memory driver
#: itself (its memory rules, under the provider suite's selection).
PROVIDER_DRIVERS: Final = ("inmemory", *(f"broken-{name}@inmemory" for name in NAMES))


@pytest.mark.parametrize("driver", PROVIDER_DRIVERS)
def test_verdict_matrix_unchanged(driver: str, provider_report: tuple[int, dict[str, Any], str]) -> None:
    """Every rule's verdict, caveats, blockers and tests, as frozen in tests/matrix/."""
    _code, data, _output = provider_report
    frozen_matrix.check("broken-providers", driver, frozen_matrix.driver_matrix(data, driver))


def test_the_frozen_matrix_holds_every_broken_provider() -> None:
    frozen_matrix.check_drivers("broken-providers", PROVIDER_DRIVERS)


def test_every_provider_rule_has_a_broken_provider() -> None:
    provider_rules = {r.id for r in CATALOGUE.values() if r.binds in (PROVIDERS, METADATA_KEEPERS)}
    caught = {rule for entry in BROKEN.values() for rule in entry.breaks}
    assert provider_rules <= caught, sorted(provider_rules - caught)
