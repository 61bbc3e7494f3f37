"""The kit's own tests: pytester drives the plugin in fresh interpreters where isolation matters."""

from __future__ import annotations

from typing import Final

import pytest

pytest_plugins = ["pytester"]

#: The files that take longest (most are one long run of the suite in a subprocess), slowest
#: first, as measured on two cores (``--durations=0`` summed per file: 142 s down to 10 s).
#: ``pytest -n auto --dist loadfile`` hands files to workers in collection order: started
#: first, none of them can begin last and leave the other worker idle while it runs (the whole
#: run took about 20 s longer when the machine's run came last), and the short files that come
#: after them even out the two workers' ends.
LONGEST_FIRST: Final = (
    "tests/proofs/test_broken_drivers.py",
    "tests/proofs/test_state_machine_catches_broken.py",
    "tests/kit/test_plugin.py",
    "tests/kit/test_hangs.py",
    "tests/kit/test_author_run.py",
    "conformance/suite/state_machine.py",
    "tests/drivers/test_stdio_bridge.py",
    "tests/drivers/test_example_backend.py",
    "tests/kit/test_user_project.py",
    "tests/drivers/test_mongodb_hardening.py",
    "tests/kit/test_packaging.py",
    "tests/kit/test_verdicts.py",
    "tests/kit/test_static.py",
    "tests/proofs/test_differential.py",
    "tests/proofs/test_state_machine_no_masking.py",
    "tests/proofs/test_scaling_probe.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: index for index, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(rank)))
