"""Turning test outcomes into rule verdicts: the summary, the reports, JUnit properties.

The worker that runs a test decides what it says about each of its rules (see
:meth:`Reporter.judge`) and sends that along as a report property; the process that writes the
summary only adds them up, so the verdicts are the same under pytest-xdist. A rule passes only
when a test really checked it (see :mod:`aalis_memory.conformance.verdicts`).
"""

from __future__ import annotations

import functools
import importlib.util
import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest

from aalis_memory.conformance import registry
from aalis_memory.conformance.adapters import RAISED_BY
from aalis_memory.conformance.checks import ConformanceFailure
from aalis_memory.conformance.report_render import driver_summary, write_reports
from aalis_memory.conformance.rules import CATALOGUE, Level
from aalis_memory.conformance.verdicts import Outcome, RuleVerdict, Verdict, skip_verdict

#: Report properties (xdist-safe: plain data on the test report).
PROP_RULES: Final = "aalis_rules"
PROP_DRIVER: Final = "aalis_driver"
#: ``[{"rule", "verdict", "message", "where", "cause"}, ...]``: what this phase of the test
#: says of each rule (see :func:`judged`).
PROP_OUTCOMES: Final = "aalis_outcomes"
#: Set by a time-budgeted state-machine run: how many histories it checked (shown in the summary).
PROP_EXAMPLES: Final = "aalis_state_machine_examples"
#: Set by a test that checks many rules but not all of them every run (the state machine):
#: ``{rule_id: number of checks performed}``. Only rules with a positive count can pass.
PROP_CHECKED: Final = "aalis_checked"
#: Set by a test that records SHOULD divergences and goes on (non-strict state machine):
#: ``[{"rule": rule_id, "message": text}, ...]``; each becomes an advisory of its rule.
PROP_ADVISORIES: Final = "aalis_advisories"
#: Set by a test whose pass carries findings worth reading (the scaling probe's timings):
#: ``{rule_id: text}``; the text becomes the message of the rule's pass.
PROP_NOTES: Final = "aalis_notes"
#: JUnit-visible properties: one per rule of the test (``"ARCH-01 MUST pass"``) and one for
#: the whole test (its worst verdict).
PROP_JUNIT_RULE: Final = "aalis_rule"
PROP_JUNIT_VERDICT: Final = "aalis_verdict"

#: The test status word of a SHOULD failure outside strict mode.
ADVISORY: Final = "advisory"

Judged = dict[str, str]


def judged(rule: str, verdict: Verdict, message: str = "", where: str = "", cause: str = ""
           ) -> Judged:
    """One rule's outcome in one test phase. ``cause`` groups failures that share one exception
    (type, text and driver method) into one summary line."""
    return {"rule": rule, "verdict": verdict.value, "message": message, "where": where,
            "cause": cause}


def spec_ids(item: pytest.Item | pytest.Collector) -> list[str]:
    return [str(arg) for mark in item.iter_markers("aalis_spec") for arg in mark.args]


def driver_of(item: pytest.Item) -> str | None:
    """What a test judges: its driver, or ``provider@driver`` for the compression-provider
    suite (a provider's verdicts are its own, apart from the storage verdicts of the driver)."""
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    driver = callspec.params.get("aalis_memory_driver")
    provider = callspec.params.get("aalis_compression_provider")
    return f"{provider}@{driver}" if driver is not None and provider is not None else driver


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
                    Outcome(Verdict.NOT_RUN, item.nodeid, "its tests were deselected", ran=False)
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
        blamed, found = self.judge(item, call, report, rules)
        found = known(blamed or driver, found, report)
        report.user_properties.append((PROP_RULES, rules))
        report.user_properties.append((PROP_DRIVER, blamed or driver))
        report.user_properties.append((PROP_OUTCOMES, found))
        if found:  # JUnit keeps the properties of the teardown report: put them on the item
            worst = min((Verdict(j["verdict"]) for j in found), key=lambda v: v.rank)
            item.user_properties.append((PROP_JUNIT_VERDICT, worst.value))
            for one in found:
                rule = CATALOGUE.get(one["rule"])
                level = rule.level.value if rule else "?"
                item.user_properties.append(
                    (PROP_JUNIT_RULE, f"{one['rule']} {level} {one['verdict']}")
                )

    def judge(
        self, item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport,
        rules: list[str],
    ) -> tuple[str | None, list[Judged]]:
        """What this phase says of each rule, and the driver a differential failure belongs to.
        Turns a SHOULD failure outside strict mode into a pass lettered ``A`` (advisory)."""
        if report.skipped and report.when in ("setup", "call"):
            verdict, text = skip_verdict(_skip_reason(report))
            return None, [judged(rule, verdict, text) for rule in rules]
        if report.when == "call" and report.passed:
            return None, self._passed(item, rules)
        if not report.failed or call.excinfo is None:
            return None, []
        exc = call.excinfo.value
        where = _where(item, call)
        if isinstance(exc, ConformanceFailure):
            report.longrepr = f"{exc}\n  (checked at {where})"
            verdict = self._failed(exc.rule.id)
            if verdict is Verdict.ADVISORY:
                report.outcome = "passed"
            stopped = f"not checked: the test stopped at {exc.rule.id} first"
            return exc.driver, [
                judged(exc.rule.id, verdict, str(exc), where),
                *(judged(r, Verdict.NOT_RUN, stopped) for r in rules if r != exc.rule.id),
                *self._checked_before(item, rules, exc.rule.id),
            ]
        phase = "" if report.when == "call" else f"{report.when}: "
        call_note = next((n.removeprefix(RAISED_BY) for n in getattr(exc, "__notes__", ())
                          if n.startswith(RAISED_BY)), "")
        text = f"{phase}{type(exc).__name__}: {exc}"
        method = re.search(r": (\w+)\(", call_note)
        cause = f"{text} (raised by {method.group(1)})" if method else text
        if call_note:
            text += f" (raised by {call_note})"
        named = ", ".join(f"{r} ({CATALOGUE[r].level.value})" for r in rules if r in CATALOGUE)
        report.sections.append(("conformance rules", f"this test checks {named}"))
        found = [judged(rule, self._failed(rule), text, where, cause) for rule in rules]
        if all(one["verdict"] == Verdict.ADVISORY.value for one in found):
            report.outcome = "passed"  # only SHOULD rules, outside strict mode
        return None, found

    def _failed(self, rule_id: str) -> Verdict:
        """A failed check of ``rule_id``: an advisory for a SHOULD rule outside strict mode."""
        rule = CATALOGUE.get(rule_id)
        should = rule is not None and rule.level is Level.SHOULD
        return Verdict.ADVISORY if should and not self.strict else Verdict.FAIL

    def _passed(self, item: pytest.Item, rules: list[str]) -> list[Judged]:
        """A passing test passes its rules, or only those it reports having checked."""
        checked = _prop(item.user_properties, PROP_CHECKED)
        notes = _prop(item.user_properties, PROP_NOTES) or {}
        found = [
            judged(rule, Verdict.PASS, notes.get(rule, ""))
            if checked is None or checked.get(rule, 0) > 0
            else judged(rule, Verdict.NOT_RUN, "no generated history exercised it")
            for rule in rules
        ]
        found += [judged(a["rule"], self._failed(a["rule"]), a["message"])
                  for a in _prop(item.user_properties, PROP_ADVISORIES) or []]
        return found

    def _checked_before(self, item: pytest.Item, rules: list[str], failed: str
                        ) -> list[Judged]:
        """A failing state machine still passes what it checked before the failure."""
        checked = _prop(item.user_properties, PROP_CHECKED) or {}
        return [judged(r, Verdict.PASS) for r in rules if r != failed and checked.get(r, 0) > 0]

    def pytest_report_teststatus(self, report: pytest.TestReport) -> Any:
        if report.when == "call" and report.passed and any(
            j["verdict"] == Verdict.ADVISORY.value
            for j in _prop(report.user_properties, PROP_OUTCOMES) or []
        ):
            return ADVISORY, "A", "ADVISORY"
        return None

    # -- the controller adds up ------------------------------------------------------------

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        found = _prop(report.user_properties, PROP_OUTCOMES)
        driver = _prop(report.user_properties, PROP_DRIVER)
        if found is None or driver is None:
            return
        examples = _prop(report.user_properties, PROP_EXAMPLES)
        if report.when == "call" and examples is not None:
            self.budgeted.append((report.nodeid, examples))
        for one in found:
            outcome = Outcome(Verdict(one["verdict"]), report.nodeid, one["message"],
                              one["where"], report.duration, one["cause"])
            if not self.selected(one["rule"]):  # a selected test may check others too
                outcome = Outcome(Verdict.NOT_RUN, report.nodeid, "not selected (--memory-rules)")
            self.results[driver][one["rule"]].add(outcome)

    def fixed_known_failures(self) -> list[str]:
        """Rules listed in a driver's ``known_failures`` that passed: the entry must go."""
        fixed = []
        for driver, per_rule in sorted(self.results.items()):
            listed = _known_failures(driver)
            fixed += [f"{driver} {rule}: listed in known_failures ({listed[rule]!r}) but it "
                      "passed; remove the entry" for rule, result in sorted(per_rule.items())
                      if rule in listed and result.verdict is Verdict.PASS]
        return fixed

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.fixed_known_failures() and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.results:
            return
        tr = terminalreporter
        tr.write_sep("=", "aalis memory conformance")
        tr.write_line("strict: a failed SHOULD rule fails" if self.strict else
                      "default mode: a failed SHOULD rule is an advisory (--memory-strict "
                      "fails it)")
        for driver, per_rule in sorted(self.results.items()):
            for line in driver_summary(driver, per_rule):
                tr.write_line(line)
        for line in self.fixed_known_failures():
            tr.write_line(f"FIXED {line}")
        for nodeid, examples in self.budgeted:
            tr.write_line(f"time budget: {nodeid} checked {examples} generated histories")
        failing = sorted({rule for per_rule in self.results.values()
                          for rule, result in per_rule.items()
                          if result.verdict in (Verdict.FAIL, Verdict.ADVISORY)})
        if failing:
            drivers = ",".join(sorted(self.results))
            tr.write_line(f"rerun one rule: pytest --memory-driver={drivers} "
                          f"--memory-rules={failing[0]}")
        write_reports(self.config.getoption("--memory-report") or [], self.results, self.strict)


def _known_failures(driver: str) -> dict[str, str]:
    try:
        return dict(registry.get(driver).known_failures)
    except LookupError:
        return {}


def known(driver: str, found: list[Judged], report: pytest.TestReport) -> list[Judged]:
    """Failures of rules the driver lists in ``known_failures`` become known failures; a test
    left with no other failure is reported xfailed, with the reasons."""
    listed = _known_failures(driver)
    if not listed:
        return found
    failing = (Verdict.FAIL.value, Verdict.ADVISORY.value)
    out = [
        {**one, "verdict": Verdict.KNOWN_FAILURE.value,
         "message": f"known failure ({listed[one['rule']]}): {one['message']}"}
        if one["verdict"] in failing and one["rule"] in listed else one
        for one in found
    ]
    if report.failed and not any(one["verdict"] == Verdict.FAIL.value for one in out):
        reasons = sorted({listed[one["rule"]] for one in out
                          if one["verdict"] == Verdict.KNOWN_FAILURE.value})
        report.outcome = "skipped"
        report.wasxfail = "known failure: " + "; ".join(reasons)
    return out


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


@functools.cache
def _kit_dirs() -> tuple[Path, ...]:
    import aalis_memory  # the root package; its subpackages may live apart (editable installs)

    names = ("aalis_memory.conformance", "aalis_memory.drivers", "aalis_memory.fixtures")
    found = [importlib.util.find_spec(name) for name in names]
    paths = [*aalis_memory.__path__, *(p for spec in found if spec is not None
                                       for p in spec.submodule_search_locations or ())]
    return tuple(Path(p).resolve() for p in paths)


def _in_kit(path: Path) -> bool:
    """Whether a traceback line is the kit's own code (not pytest's, pluggy's or the stdlib's)."""
    return any(path.resolve().is_relative_to(root) for root in _kit_dirs())


def _where(item: pytest.Item, call: pytest.CallInfo[None]) -> str:
    """The line of the test's own file where the check failed (else the innermost kit line)."""
    assert call.excinfo is not None
    own = Path(str(item.path))
    entries = list(call.excinfo.traceback)
    chosen = next((e for e in reversed(entries) if Path(str(e.path)) == own), None)
    if chosen is None:
        chosen = next((e for e in reversed(entries)
                       if _in_kit(Path(str(e.path))) and Path(str(e.path)).name != "checks.py"),
                      entries[-1])
    return f"{Path(str(chosen.path)).name}:{chosen.lineno + 1}"
