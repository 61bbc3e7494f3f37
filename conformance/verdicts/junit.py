"""JUnit's side of the verdicts: the ``aalis_rule`` properties of outcomes settled only once the
run ended are rewritten in the JUnit file, so it says what the summary says."""

from __future__ import annotations

from pathlib import Path

from aalis_memory.conformance.verdicts.model import Outcome, Verdict
from aalis_memory.conformance.verdicts.properties import PROP_JUNIT_RULE


def mend_junit(path: Path, resolved: dict[str, list[tuple[str, Outcome]]]) -> None:
    """Rewrite the ``aalis_rule`` properties of outcomes settled after the tests ran (a failed
    check blocked by the rule its reads stood on), so JUnit says what the summary says."""
    import xml.etree.ElementTree as ET

    from _pytest.junitxml import mangle_test_address

    changed = {
        (".".join(mangle_test_address(o.test)[:-1]), mangle_test_address(o.test)[-1], rule)
        for outcomes in resolved.values()
        for rule, o in outcomes
    }
    if not path.exists():
        return
    tree = ET.parse(path)
    for case in tree.getroot().iter("testcase"):
        for prop in case.iter("property"):
            value = prop.get("value", "")
            rule = value.split(" ", 1)[0]
            if (
                prop.get("name") == PROP_JUNIT_RULE
                and (case.get("classname", ""), case.get("name", ""), rule) in changed
            ):
                level = value.split(" ")[1]
                prop.set("value", f"{rule} {level} {Verdict.BLOCKED.value}")
    tree.write(path, encoding="utf-8", xml_declaration=True)
