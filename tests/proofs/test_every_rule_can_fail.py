"""Every rule the suite judges a driver or provider on is broken on purpose somewhere: a
deliberately broken driver (tests/broken_drivers/), a broken provider (tests/broken_providers.py),
or a crashing durable driver (tests/broken_drivers/durable.py) declares it, and the tests that
run those prove the suite flags exactly it. A check nothing can fail would pass a broken backend.

Rules the suites never judge (the reference drivers' settings and limits, CFG-*; the mongodb
driver's own claims, MDB-*; the contract's helper functions) are checked by the kit's own tests
of that one implementation, which drive it into the failure directly.
"""

from __future__ import annotations

import broken_providers
from broken_helpers import HELPERS

from aalis_memory.conformance.docgen import spec_map
from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.conformance.suites import ROOT, SUITES
from broken_drivers import BROKEN, load_all
from broken_drivers.durable import BREAKS as CRASH_BREAKS

load_all()


def judged_by_the_suites() -> set[str]:
    found = spec_map.scan([suite.folder for suite in SUITES], ROOT)
    return {rule for rule, tests in found.items() if tests}


def broken_somewhere() -> set[str]:
    rules: set[str] = set()
    for entry in BROKEN.values():
        rules |= entry.breaks
    for provider in broken_providers.BROKEN.values():
        rules |= provider.breaks
    for helper in HELPERS.values():  # caught by tests/proofs/test_broken_helpers.py
        rules |= helper.breaks
    return rules | set(CRASH_BREAKS.values())


def test_every_rule_the_suites_judge_is_broken_on_purpose() -> None:
    missing = sorted(judged_by_the_suites() - broken_somewhere())
    assert not missing, f"no deliberately broken driver or provider declares {missing}"


def test_broken_drivers_name_only_catalogue_rules() -> None:
    assert broken_somewhere() <= set(CATALOGUE), sorted(broken_somewhere() - set(CATALOGUE))
