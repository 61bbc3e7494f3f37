"""Turning test outcomes into rule verdicts: the summary, the JSON report, JUnit properties.

The worker that runs a test decides what it says about each of its rules (see :func:`judge`)
and sends that along as a report property; the process that writes the summary only adds them
up, so the verdicts are the same under pytest-xdist. A rule passes only when a test really
checked it (see :mod:`aalis_memory.conformance.verdicts`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest

from aalis_memory.conformance.checks import ConformanceFailure
from aalis_memory.conformance.report_render import driver_summary, write_reports
from aalis_memory.conformance.rules import CATALOGUE, Level
from aalis_memory.conformance.verdicts import Outcome, RuleVerdict, Verdict, skip_verdict

#: Report properties (xdist-safe: plain data on the test report).
PROP_RULES: Final = "aalis_rules"
PROP_DRIVER: Final = "aalis_driver"
#: ``[[rule, verdict, message, where], ...]``: what this phase of the test says of each rule.
PROP_OUTCOMES: Final = "aalis_outcomes"
#: Set by a time-budgeted state-machine run: how many histories it checked (shown in the summary).
PROP_EXAMPLES: Final = "aalis_state_machine_examples"
#: Set by a test that checks many rules but not all of them every run (the state machine):
#: ``{rule_id: number of checks performed}``. Only rules with a positive count can pass.
PROP_CHECKED: Final = "aalis_checked"
#: Set by a test that records SHOULD divergences and goes on (non-strict state machine):
#: ``[{"rule": rule_id, "message": text}, ...]``; each becomes an advisory of its rule.
PROP_ADVISORIES: Final = "aalis_advisories"
#: Set on a differential failure: the driver the failure belongs to.
PROP_BLAMED: Final = "aalis_blamed_driver"
#: JUnit-visible properties, one per rule of the test: ``"ARCH-01 MUST pass"``.
PROP_JUNIT_RULE: Final = "aalis_rule"
PROP_JUNIT_VERDICT: Final = "aalis_verdict"

#: The test status letter and word of a SHOULD failure outside strict mode.
ADVISORY: Final = "advisory"


def spec_ids(item: pytest.Item | pytest.Collector) -> list[str]:
    return [str(arg) for mark in item.iter_markers("aalis_spec") for arg in mark.args]


def driver_of(item: pytest.Item) -> str | None:
    callspec = getattr(item, "callspec", None)
    return callspec.params.get("aalis_memory_driver") if callspec else None


class Reporter:
    """Collects rule outcomes per driver and writes the verdicts at the end of the run."""

    def __init__(self, config: pytest.Config, strict: bool,
                 selected: Callable[[str], bool] = lambda _rule: True) -> None:
        self.config = config
        self.strict = strict
        #: Whether a rule is selected (``--memory-rules``); the others are reported not run.
        self.selected = selected
        self.results: dict[str, dict[str, RuleVerdict]] = defaultdict(
            lambda: defaultdict(RuleVerdict)
        )
        #: (test id, histories checked) of time-budgeted state-machine runs.
        self.budgeted: list[tuple[str, int]] = []

    # -- collection: every rule a collected test could check is in the verdict ---------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        """Before anything is deselected: each driver's rules start as ``not run``."""
        for item in items:
            driver = driver_of(item)
            if driver is not None:
                for rule in spec_ids(item):
                    _ = self.results[driver][rule]

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        for item in items:
            driver = driver_of(item)
            if driver is None:
                continue
            for rule in spec_ids(item):
                self.results[driver][rule].add(
                    Outcome(Verdict.NOT_RUN, item.nodeid, "its tests were deselected")
                )

    # -- running: the worker judges each phase --------------------------------------------

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Any:
        outcome = yield
        report: pytest.TestReport = outcome.get_result()
        rules = spec_ids(item)
        driver = driver_of(item)
        if not rules or driver is None:
            return
        blamed, judged = self.judge(item, call, report, rules)
        report.user_properties.append((PROP_RULES, rules))
        report.user_properties.append((PROP_DRIVER, blamed or driver))
        report.user_properties.append((PROP_OUTCOMES, judged))
        if judged:  # JUnit keeps the properties of the teardown report: put them on the item
            item.user_properties.append((PROP_JUNIT_VERDICT, _test_verdict(judged)))
            for rule, verdict, _message, _where in judged:
                level = CATALOGUE[rule].level.value if rule in CATALOGUE else "?"
                item.user_properties.append((PROP_JUNIT_RULE, f"{rule} {level} {verdict}"))

    def judge(
        self, item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport,
        rules: list[str],
    ) -> tuple[str | None, list[list[str]]]:
        """What this phase says of each rule: ``(blamed driver or None, [[rule, verdict,
        message, where], ...])``. Mutates ``report`` for advisories (a pass, lettered ``A``)."""
        if report.skipped and report.when in ("setup", "call"):
            reason = _skip_reason(report)
            verdict, text = skip_verdict(reason)
            return None, [[rule, verdict.value, text, ""] for rule in rules]
        if report.when == "call" and report.passed:
            return None, self._passed(item, rules)
        if not report.failed or call.excinfo is None:
            return None, []
        exc = call.excinfo.value
        where = _where(item, call)
        if isinstance(exc, ConformanceFailure):
            report.longrepr = f"{exc}\n  (checked at {where})"
            verdict = Verdict.FAIL
            if exc.rule.level is Level.SHOULD and not self.strict:
                report.outcome = "passed"
                verdict = Verdict.ADVISORY
            judged = [[exc.rule.id, verdict.value, str(exc), where]]
            stopped = f"not checked: the test stopped at {exc.rule.id} first"
            judged += [[r, Verdict.NOT_RUN.value, stopped, ""] for r in rules if r != exc.rule.id]
            return exc.driver, judged + self._checked_before(item, rules, exc.rule.id)
        phase = "" if report.when == "call" else f"{report.when}: "
        text = f"{phase}{type(exc).__name__}: {exc}".strip()
        named = ", ".join(f"{r} ({CATALOGUE[r].level.value})" for r in rules if r in CATALOGUE)
        report.sections.append(("conformance rules", f"this test checks {named}"))
        return None, [[rule, Verdict.FAIL.value, text, where] for rule in rules]

    def _passed(self, item: pytest.Item, rules: list[str]) -> list[list[str]]:
        """A passing test passes its rules, or only those it reports having checked."""
        checked = _prop(item.user_properties, PROP_CHECKED)
        judged: list[list[str]] = []
        for rule in rules:
            if checked is None or checked.get(rule, 0) > 0:
                judged.append([rule, Verdict.PASS.value, "", ""])
            else:
                judged.append([rule, Verdict.NOT_RUN.value, "no generated history exercised it",
                               ""])
        for advisory in _prop(item.user_properties, PROP_ADVISORIES) or []:
            verdict = Verdict.FAIL if self.strict else Verdict.ADVISORY
            judged.append([advisory["rule"], verdict.value, advisory["message"], ""])
        return judged

    def _checked_before(self, item: pytest.Item, rules: list[str], failed: str
                        ) -> list[list[str]]:
        """A failing state machine still passes what it checked before the failure."""
        checked = _prop(item.user_properties, PROP_CHECKED)
        if checked is None:
            return []
        return [[r, Verdict.PASS.value, "", ""] for r in rules
                if r != failed and checked.get(r, 0) > 0]

    def pytest_report_teststatus(self, report: pytest.TestReport) -> Any:
        if report.when == "call" and report.passed and any(
            verdict == Verdict.ADVISORY.value
            for _rule, verdict, _m, _w in _prop(report.user_properties, PROP_OUTCOMES) or []
        ):
            return ADVISORY, "A", "ADVISORY"
        return None

    # -- the controller adds up ------------------------------------------------------------

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        judged = _prop(report.user_properties, PROP_OUTCOMES)
        driver = _prop(report.user_properties, PROP_DRIVER)
        if judged is None or driver is None:
            return
        examples = _prop(report.user_properties, PROP_EXAMPLES)
        if report.when == "call" and examples is not None:
            self.budgeted.append((report.nodeid, examples))
        for rule, verdict, message, where in judged:
            if not self.selected(rule):  # a selected test may check others too: they wait
                verdict, message, where = Verdict.NOT_RUN.value, "not selected (--memory-rules)", ""
            self.results[driver][rule].add(
                Outcome(Verdict(verdict), report.nodeid, message, where, report.duration)
            )

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.results:
            return
        tr = terminalreporter
        tr.write_sep("=", "aalis memory conformance")
        mode = "strict: a failed SHOULD rule fails" if self.strict else \
            "default mode: a failed SHOULD rule is an advisory (--memory-strict fails it)"
        tr.write_line(mode)
        for driver, per_rule in sorted(self.results.items()):
            for line in driver_summary(driver, per_rule):
                tr.write_line(line)
        for nodeid, examples in self.budgeted:
            tr.write_line(f"time budget: {nodeid} checked {examples} generated histories")
        write_reports(self.config.getoption("--memory-report") or [], self.results, self.strict)


def _test_verdict(judged: list[list[str]]) -> str:
    """One word for a whole test phase (JUnit): its rules' worst verdict."""
    return min((Verdict(v) for _r, v, _m, _w in judged), key=lambda v: v.rank).value


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple):
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def _prop(properties: list[tuple[str, Any]], name: str) -> Any:
    for key, value in properties:
        if key == name:
            return value
    return None


def _where(item: pytest.Item, call: pytest.CallInfo[None]) -> str:
    """The line of the test's own file where the check failed (else the innermost kit line)."""
    assert call.excinfo is not None
    own = Path(str(item.path))
    entries = list(call.excinfo.traceback)
    chosen = next((e for e in reversed(entries) if Path(str(e.path)) == own), None)
    if chosen is None:
        chosen = next((e for e in reversed(entries)
                       if "contextlib" not in str(e.path) and "checks.py" not in str(e.path)),
                      entries[-1])
    return f"{Path(str(chosen.path)).name}:{chosen.lineno + 1}"
