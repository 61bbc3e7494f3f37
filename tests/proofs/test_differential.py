"""Differential mode: one generated history against several drivers at once.

Run as a user would (a fresh interpreter, ``--memory-differential``): reference drivers of different
tiers agree, and a broken driver next to a reference one is named, with one of its own rules.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from test_broken_drivers import run_suite

from aalis_memory.conformance.verdicts.properties import PROP_CHECKED
from broken_drivers import BROKEN, load_all
from reports import failing

load_all()

ONLY_DIFFERENTIAL = ("--memory-strict", "--memory-differential", "-k", "test_state_machine_differential")


def test_reference_drivers_of_both_orderings_agree(tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    code, _, output = run_suite(tmp_path, ["inmemory", "sqlite"], *ONLY_DIFFERENTIAL, f"--junitxml={junit}")
    assert code == 0, output[-3000:]
    # It runs once, under the first driver (the other drivers' copies are not collected).
    assert re.search(r"\b1 passed, \d+ deselected\b", output), output[-2000:]
    # And it reports the rules its history really checked, as the single-driver test does.
    checked = [
        json.loads(p.get("value", ""))
        for p in ET.parse(junit).getroot().iter("property")
        if p.get("name") == PROP_CHECKED
    ]
    assert len(checked) == 1, checked
    assert {"HIST-01", "COUNT-01", "ARCH-01", "META-01"} <= set(checked[0]), checked[0]


def test_a_broken_driver_is_named_with_its_rule(tmp_path: Path) -> None:
    name = "positions-skip-markers"
    code, data, output = run_suite(tmp_path, ["inmemory", f"broken-{name}"], *ONLY_DIFFERENTIAL)
    assert code == 1, output[-3000:]
    assert f"driver: broken-{name};" in output, output[-3000:]
    # The verdict is filed under the driver that disagreed, not the one the test ran under.
    failed = set(failing(data, f"broken-{name}"))
    assert failed, output[-3000:]
    assert failed <= BROKEN[name].breaks, (failed, output[-3000:])
    assert not failing(data, "inmemory"), data
