"""The kit's own tests: pytester drives the plugin in fresh interpreters where isolation matters."""

from __future__ import annotations

from typing import Final

import pytest

#: root_matrix: a whole run compares the reference drivers' verdicts with tests/matrix/.
pytest_plugins = ["pytester", "root_matrix"]

#: The files that take longest (most are one long run of the suite in a subprocess), slowest
#: first, as measured on two cores (JUnit times summed per file in a whole ``-n auto`` run:
#: 271 s down to 12 s). ``pytest -n auto --dist loadfile`` hands files to workers in collection
#: order (:func:`pytest_configure` keeps it): started first, none of them can begin last and
#: leave the other worker idle while it runs, and the short files that come after them even out
#: the two workers' ends. One exception heads the list: test_hangs.py mostly waits (for its
#: drivers' per-call limits), and a core it leaves idle is lost unless something else needs it.
#: Run first, it waits while the machine's sweep keeps both cores busy with its three
#: subprocesses; run fifth, as it was, it left a core idle for about 30 s of a 580 s run (the CPU's
#: idle time, sampled every second, next to the order the files ran in).
LONGEST_FIRST: Final = (
    "tests/kit/test_hangs.py",
    "tests/proofs/test_state_machine_catches_broken.py",
    "tests/proofs/test_broken_drivers.py",
    "tests/drivers/test_stdio_bridge.py",
    "tests/proofs/test_state_machine_blames_nothing_else.py",
    "tests/kit/test_plugin.py",
    "tests/documents/test_typescript_quickstart.py",
    "conformance/suite/state_machine.py",
    "tests/drivers/test_stdio_transport.py",
    "tests/kit/test_author_run.py",
    "tests/drivers/test_example_backend.py",
    "tests/proofs/test_broken_providers.py",
    "tests/proofs/test_state_machine_no_masking.py",
    "tests/kit/test_user_project.py",
    "tests/proofs/test_state_machine_judging.py",
    "tests/drivers/test_go_example.py",
    "tests/kit/test_state_machine_restamps.py",
    "tests/kit/test_static.py",
    "tests/kit/test_verdicts.py",
    "tests/proofs/test_crash_catches_broken.py",
    "tests/proofs/test_controls.py",
)


def pytest_configure(config: pytest.Config) -> None:
    """pytest-xdist would reorder the files by their number of tests (``--loadscope-reorder``,
    its default), which put the long files of few tests (test_hangs.py: 4 tests, 54 s) last."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


@pytest.hookimpl(tryfirst=True)  # before ``-k`` deselects: it matches the keywords added here
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: index for index, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(rank)))
    for item in items:
        add_rule_keywords(item)


def add_rule_keywords(item: pytest.Item) -> None:
    """A test of one broken driver (a ``name`` parameter, in a module with ``rule_keywords``)
    matches ``-k`` on the rule IDs the driver declares, so ``-k LIM-05`` selects every broken
    driver that breaks LIM-05 (CONTRIBUTING.md, "Fast feedback")."""
    callspec = getattr(item, "callspec", None)
    rule_keywords = getattr(getattr(item, "module", None), "rule_keywords", None)
    if callspec is not None and rule_keywords is not None and "name" in callspec.params:
        item.extra_keyword_matches.update(rule_keywords(callspec.params["name"]))
