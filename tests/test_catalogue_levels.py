"""The checks the catalogue work added or changed catch their broken drivers in the default mode
too: a broken MUST rule fails the run, a broken SHOULD rule is an advisory, nothing else is blamed.

``tests/test_broken_drivers.py`` proves the strict verdicts of every broken driver; this file runs
the ones of ``broken_drivers/catalogue.py`` (and those whose declared rules the catalogue split)
without ``--memory-strict``, as a backend author runs the kit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import pytest
from test_broken_drivers import run_suite

from aalis_memory.conformance.report import ADVISORY
from aalis_memory.conformance.rules import CATALOGUE, Level
from broken_drivers import BROKEN, load_all
from broken_drivers.catalogue import CHANGED, MISSING_METHOD

load_all()

#: Broken drivers of the catalogue module, and older ones whose rules the catalogue changed.
NAMES: Final = sorted(
    {n for n, e in BROKEN.items() if e.store_class.__module__ == "broken_drivers.catalogue"}
    | set(CHANGED)
)


@pytest.fixture(scope="session")
def default_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any], str]:
    workdir = tmp_path_factory.mktemp("catalogue-default")
    return run_suite(workdir, [f"broken-{name}" for name in NAMES], "-k", "not state_machine")


@pytest.mark.parametrize("name", NAMES)
def test_default_mode_fails_must_rules_and_advises_should_rules(
    name: str, default_report: tuple[int, dict[str, Any], str]
) -> None:
    code, data, output = default_report
    assert code == 1, f"a run over broken MUST rules must fail (exit {code}):\n{output[-3000:]}"
    entry = BROKEN[name]
    verdicts = data.get(f"broken-{name}", {})
    failing = {rule for rule, result in verdicts.items() if result["verdict"] == "fail"}
    advised = {rule for rule, result in verdicts.items() if result["verdict"] == ADVISORY}
    musts = {rule for rule in entry.breaks if CATALOGUE[rule].level is Level.MUST}
    assert (failing, advised) == (musts, set(entry.breaks - musts)), (
        f"broken-{name} ({entry.why}): expected fail {sorted(musts)} and advisory "
        f"{sorted(entry.breaks - musts)}, got fail {sorted(failing)}, advisory {sorted(advised)}"
    )


@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
def test_a_missing_required_method_fails_req_01(tmp_path: Path, strict: bool) -> None:
    """Only the REQ-01 test is run: the store fixture of every other test refuses the driver
    before its body runs (the plugin's own report, outside the catalogue)."""
    code, data, output = run_suite(
        tmp_path, [f"broken-{MISSING_METHOD.name}"], "-p", "broken_drivers.unwired",
        *(["--memory-strict"] if strict else []), "-k", "every_required_method",
    )
    verdicts = data.get(f"broken-{MISSING_METHOD.name}", {})
    assert code == 1, output[-3000:]
    assert {rule: v["verdict"] for rule, v in verdicts.items()} == {"REQ-01": "fail"}, output[-3000:]
    assert "clear_session" in verdicts["REQ-01"]["messages"][0]
