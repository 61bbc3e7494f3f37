"""Verdicts per driver and rule: advisories for SHOULD rules, the summary, the JSON report."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any, Final

import attrs
import pytest

from aalis_memory.conformance.checks import ConformanceFailure
from aalis_memory.conformance.rules import CATALOGUE, Level

PROP_RULES: Final = "aalis_rules"
PROP_DRIVER: Final = "aalis_driver"
PROP_BLAMED: Final = "aalis_blamed_driver"
PROP_BROKEN: Final = "aalis_broken_rule"
PROP_MESSAGE: Final = "aalis_message"
#: Set by a time-budgeted state-machine run: how many histories it checked (shown in the summary).
PROP_EXAMPLES: Final = "aalis_state_machine_examples"
#: Set by a test that checks many rules but not all of them every run (the state machine):
#: ``{rule_id: number of checks performed}``. Only rules with a positive count can pass.
PROP_CHECKED: Final = "aalis_checked"
#: Set by a test that records SHOULD divergences and goes on (non-strict state machine):
#: ``[{"rule": rule_id, "message": text}, ...]``; each becomes an advisory of its rule.
PROP_ADVISORIES: Final = "aalis_advisories"
ADVISORY: Final = "advisory"

#: Verdicts from worst to best; a rule's verdict is the worst one any of its tests gave it.
VERDICTS: Final = ("fail", ADVISORY, "pass", "skip")


@attrs.define
class RuleResult:
    verdict: str = "skip"
    tests: list[str] = attrs.field(factory=list)
    messages: list[str] = attrs.field(factory=list)

    def add(self, verdict: str, nodeid: str, message: str | None) -> None:
        if VERDICTS.index(verdict) < VERDICTS.index(self.verdict):
            self.verdict = verdict
        self.tests.append(nodeid)
        if message and message not in self.messages:
            self.messages.append(message)


def spec_ids(item: pytest.Item) -> list[str]:
    return [str(arg) for mark in item.iter_markers("aalis_spec") for arg in mark.args]


class Reporter:
    """Turns test reports into rule verdicts (xdist-safe: it reads only serialized properties)."""

    def __init__(self, config: pytest.Config, strict: bool) -> None:
        self.config = config
        self.strict = strict
        self.results: dict[str, dict[str, RuleResult]] = defaultdict(
            lambda: defaultdict(RuleResult)
        )
        #: (test id, histories checked) of time-budgeted state-machine runs.
        self.budgeted: list[tuple[str, int]] = []

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Any:
        outcome = yield
        report: pytest.TestReport = outcome.get_result()
        rules = spec_ids(item)
        if not rules:
            return
        callspec = getattr(item, "callspec", None)
        driver = callspec.params.get("aalis_memory_driver") if callspec else None
        if _prop(report, PROP_RULES) is None:  # the test's own properties may be there already
            report.user_properties.append((PROP_RULES, rules))
            report.user_properties.append((PROP_DRIVER, driver))
        if report.failed and call.excinfo is not None:
            exc = call.excinfo.value
            if isinstance(exc, ConformanceFailure):
                if exc.driver is not None:  # a differential run: the verdict is that driver's
                    report.user_properties.append((PROP_BLAMED, exc.driver))
                report.user_properties.append((PROP_BROKEN, exc.rule.id))
                report.user_properties.append((PROP_MESSAGE, str(exc)))
                report.longrepr = f"{exc}\n  (checked in {_where(call)})"
                if exc.rule.level is Level.SHOULD and not self.strict:
                    report.outcome = "passed"
                    report.user_properties.append((ADVISORY, True))
            else:
                named = ", ".join(f"{r} ({CATALOGUE[r].level.value})" for r in rules if r in CATALOGUE)
                report.sections.append(("conformance rules", f"this test checks {named}"))

    def pytest_report_teststatus(self, report: pytest.TestReport) -> Any:
        if report.when == "call" and _prop(report, ADVISORY):
            return ADVISORY, "A", "ADVISORY"
        return None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        rules = _prop(report, PROP_RULES)
        driver = _prop(report, PROP_DRIVER)
        if not rules or driver is None:
            return
        broken = _prop(report, PROP_BROKEN)
        message = _prop(report, PROP_MESSAGE)
        examples = _prop(report, PROP_EXAMPLES)
        if report.when == "call" and examples is not None:
            self.budgeted.append((report.nodeid, examples))
        per_rule = self.results[_prop(report, PROP_BLAMED) or driver]
        if report.skipped:
            for rule in rules:
                reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else None
                per_rule[rule].add("skip", report.nodeid, reason)
        elif report.when == "call" and _prop(report, ADVISORY):
            per_rule[broken].add(ADVISORY, report.nodeid, message)
        elif report.failed:
            for rule in [broken] if broken else rules:
                per_rule[rule].add("fail", report.nodeid, message or f"{report.when} failed")
        elif report.when == "call":
            for rule in rules:
                per_rule[rule].add("pass", report.nodeid, None)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.results:
            return
        tr = terminalreporter
        tr.write_sep("=", "aalis memory conformance")
        for driver, per_rule in sorted(self.results.items()):
            counts = {v: sum(1 for r in per_rule.values() if r.verdict == v) for v in VERDICTS}
            tr.write_line(
                f"{driver}: {counts['pass']} rules pass, {counts['fail']} fail, "
                f"{counts[ADVISORY]} advisory, {counts['skip']} skipped"
            )
            for rule_id, result in sorted(per_rule.items()):
                if result.verdict in ("fail", ADVISORY):
                    label = "FAIL" if result.verdict == "fail" else "ADVISORY"
                    first = result.messages[0] if result.messages else ""
                    tr.write_line(f"  {label} {rule_id}: {first}")
        for nodeid, examples in self.budgeted:
            tr.write_line(f"time budget: {nodeid} checked {examples} generated histories")
        path = self.config.getoption("--memory-report")
        if path:
            Path(path).write_text(json.dumps(self.as_json(), indent=2, sort_keys=True))

    def as_json(self) -> dict[str, Any]:
        return {
            driver: {rule: attrs.asdict(result) for rule, result in per_rule.items()}
            for driver, per_rule in self.results.items()
        }


def _prop(report: pytest.TestReport, name: str) -> Any:
    for key, value in report.user_properties:
        if key == name:
            return value
    return None


def _where(call: pytest.CallInfo[None]) -> str:
    assert call.excinfo is not None
    entry = call.excinfo.traceback[-1]
    for candidate in reversed(call.excinfo.traceback):
        if "checks.py" not in str(candidate.path):
            entry = candidate
            break
    return f"{Path(str(entry.path)).name}:{entry.lineno + 1}"

