"""Turning test outcomes into rule verdicts: the summary, the reports, JUnit properties.

The worker that runs a test decides what it says about each of its rules (see
:meth:`Reporter.judge`) and sends that along as a report property; the process that writes the
summary only adds them up, so the verdicts are the same under pytest-xdist. A rule passes only
when a test really checked it (see :mod:`aalis_memory.conformance.verdicts.model`).
"""

from __future__ import annotations

import re
import shlex
from collections import defaultdict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from aalis_memory.conformance.checks import ConformanceFailure
from aalis_memory.conformance.harness import fresh, steps
from aalis_memory.conformance.harness.adapters import RAISED_BY
from aalis_memory.conformance.harness.health import CallTimeout, unusable_cause
from aalis_memory.conformance.harness.steps import Blocked
from aalis_memory.conformance.rules import CATALOGUE, Level
from aalis_memory.conformance.verdicts.details import (
    known,
    known_failures,
    skip_reason,
    unexpected,
    where_failed,
)
from aalis_memory.conformance.verdicts.junit import mend_junit
from aalis_memory.conformance.verdicts.model import (
    Outcome,
    RuleVerdict,
    Verdict,
    resolve_leaning,
    skip_verdict,
)
from aalis_memory.conformance.verdicts.properties import (
    ADVISORY,
    BLOCKED,
    DIFFERENTIAL,
    PROP_ADVISORIES,
    PROP_CHECKED,
    PROP_DRIVER,
    PROP_EXAMPLES,
    PROP_JUNIT_RULE,
    PROP_JUNIT_VERDICT,
    PROP_NOTES,
    PROP_OUTCOMES,
    PROP_RULES,
    PROP_STOPPED,
    PROP_USAGE_ERROR,
    Judged,
    attach,
    driver_of,
    judged,
    read_prop,
    spec_ids,
)
from aalis_memory.conformance.verdicts.render import (
    STOPPED_FIRST,
    driver_summary,
    first_line,
    write_reports,
)


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
        #: (test id, outcome) of the differential run, when it ran.
        self.differential: list[tuple[str, str]] = []
        #: Drivers the kit stopped using: (cause, ids of the tests it did not run for it).
        self.stopped: dict[str, tuple[str, set[str]]] = {}
        #: Drivers whose ``fresh=`` hook handed over a store that was not empty: (the first
        #: error, ids of the tests not judged because of it).
        self.usage_errors: dict[str, tuple[str, set[str]]] = {}

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
        leaks = fresh.take_found()
        rules = spec_ids(item)
        driver = driver_of(item)
        if not rules or driver is None:
            return
        blamed, found = (None, self._not_judged(report, rules, leaks)) if leaks else \
            self.judge(item, call, report, rules)
        found = known(blamed or driver, found, report)
        stopped = unusable_cause(driver)
        if stopped is not None and any(j["verdict"] == Verdict.NOT_RUN.value for j in found):
            attach(report.user_properties, PROP_STOPPED, stopped)
        attach(report.user_properties, PROP_RULES, rules)
        attach(report.user_properties, PROP_DRIVER, blamed or driver)
        attach(report.user_properties, PROP_OUTCOMES, found)
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
            verdict, text = skip_verdict(skip_reason(report))
            return None, [judged(rule, verdict, text) for rule in rules]
        if report.when == "call" and report.passed:
            return None, self._passed(item, rules)
        if not report.failed or call.excinfo is None:
            return None, []
        exc = call.excinfo.value
        where = where_failed(item, call)
        if isinstance(exc, Blocked):
            report.outcome = "skipped"  # the run still fails: see pytest_sessionfinish
            report.longrepr = (str(item.path), item.reportinfo()[1] or 0, str(exc))
            passed = self._checked_before(item, rules, "")
            held = {one["rule"] for one in passed}
            return None, [
                *(judged(r, Verdict.BLOCKED, str(exc), where, f"{exc.step} {exc.cause}",
                         exc.blocker) for r in rules if r not in held),
                *passed,
            ]
        if isinstance(exc, ConformanceFailure):
            report.longrepr = f"{exc}\n  (checked at {where})"
            verdict = self._failed(exc.rule.id)
            if verdict is Verdict.ADVISORY:
                report.outcome = "passed"
            # An example test's other rules were not checked here: a gap, so a pass they get
            # from other tests is only partial (a MUST aspect behind a failed SHOULD one is no
            # pass). The state machine's rules all have example tests of their own: not run.
            stopped = f"{STOPPED_FIRST}{exc.rule.id} first"
            gap = (Verdict.NOT_RUN if read_prop(item.user_properties, PROP_CHECKED) is not None
                   else Verdict.UNVERIFIED)
            return exc.driver, [
                judged(exc.rule.id, verdict, str(exc), where, leaned=_observed(rules)),
                *(judged(r, gap, stopped) for r in rules if r != exc.rule.id),
                *self._checked_before(item, rules, exc.rule.id),
            ]
        phase = "" if report.when == "call" else f"{report.when}: "
        call_note = next((n.removeprefix(RAISED_BY) for n in getattr(exc, "__notes__", ())
                          if n.startswith(RAISED_BY)), "")
        text = f"{phase}{type(exc).__name__}: {exc}"
        method = re.search(r": (\w+)\(", call_note)
        cause = f"{text} (raised by {method.group(1)})" if method else text
        if isinstance(exc, CallTimeout):  # one method's timeouts, whatever the arguments
            cause = f"CallTimeout: {exc.cause}"
        if call_note:
            text += f" (raised by {call_note})"
        named = ", ".join(f"{r} ({CATALOGUE[r].level.value})" for r in rules if r in CATALOGUE)
        report.sections.append(("conformance rules", f"this test checks {named}"))
        if isinstance(exc, CallTimeout):  # its message says it all: no kit internals around it
            report.longrepr = f"{phase}{exc}\n  (at {where}; this test checks {named})"
        if report.when != "call":  # opening or closing the store: no rule's check, and the
            # run fails with the error (never an advisory pass of a SHOULD-only test)
            driver = driver_of(item) or ""
            why = unusable_cause(driver)
            text = f"driver {driver!r} {why}" if why is not None else text
            return None, [judged(rule, Verdict.NOT_RUN, text, where, cause) for rule in rules]
        test = item.name.split("[", 1)[0].removeprefix("test_").replace("_", " ")
        checking = f"while checking that {test}"
        found = [judged(rule, self._failed(rule), unexpected(rule, f"{checking}: {text}"), where,
                        cause) for rule in rules]
        if all(one["verdict"] == Verdict.ADVISORY.value for one in found):
            report.outcome = "passed"  # only SHOULD rules, outside strict mode
        return None, found

    def _not_judged(self, report: pytest.TestReport, rules: list[str],
                    leaks: list[fresh.FreshStoreLeak]) -> list[Judged]:
        """A test that got a store its driver's ``fresh=`` hook left state in: whatever it
        found may be that state's, so none of its rules is judged; the run fails on the usage
        error (the summary says so), never on a rule."""
        text = str(leaks[0])
        report.outcome = "failed"
        report.longrepr = f"USAGE ERROR {text}"
        attach(report.user_properties, PROP_USAGE_ERROR, text)
        return [judged(rule, Verdict.NOT_RUN, f"not judged: {text}") for rule in rules]

    def _failed(self, rule_id: str) -> Verdict:
        """A failed check of ``rule_id``: an advisory for a SHOULD rule outside strict mode."""
        rule = CATALOGUE.get(rule_id)
        should = rule is not None and rule.level is Level.SHOULD
        return Verdict.ADVISORY if should and not self.strict else Verdict.FAIL

    def _passed(self, item: pytest.Item, rules: list[str]) -> list[Judged]:
        """A passing test passes its rules, or only those it reports having checked."""
        checked = read_prop(item.user_properties, PROP_CHECKED)
        notes = read_prop(item.user_properties, PROP_NOTES) or {}
        found = [
            judged(rule, Verdict.PASS, notes.get(rule, ""))
            if checked is None or checked.get(rule, 0) > 0
            else judged(rule, Verdict.NOT_RUN, "no generated history exercised it")
            for rule in rules
        ]
        found += [judged(a["rule"], self._failed(a["rule"]), a["message"])
                  for a in read_prop(item.user_properties, PROP_ADVISORIES) or []]
        running = steps.current()  # the store fixture's teardown has not run yet
        if running is not None:
            found += [judged(rule, Verdict.BLOCKED, f"partly {exc}",
                             cause=f"{exc.step} {exc.cause}", blocker=exc.blocker)
                      for rule, exc in running.set_aside.items() if rule in rules]
            found += [judged(rule, Verdict.UNVERIFIED, reason)
                      for rule, reason in running.unverified.items() if rule in rules]
        return found

    def _checked_before(self, item: pytest.Item, rules: list[str], failed: str
                        ) -> list[Judged]:
        """A failing state machine still passes what it checked before the failure."""
        checked = read_prop(item.user_properties, PROP_CHECKED) or {}
        return [judged(r, Verdict.PASS) for r in rules if r != failed and checked.get(r, 0) > 0]

    def pytest_report_teststatus(self, report: pytest.TestReport) -> Any:
        found = read_prop(report.user_properties, PROP_OUTCOMES) or []
        if report.skipped and any(j["verdict"] == Verdict.BLOCKED.value for j in found):
            return BLOCKED, "B", "BLOCKED"
        if report.when == "call" and report.passed and any(
            j["verdict"] == Verdict.ADVISORY.value
            for j in read_prop(report.user_properties, PROP_OUTCOMES) or []
        ):
            return ADVISORY, "A", "ADVISORY"
        return None

    # -- the controller adds up ------------------------------------------------------------

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        found = read_prop(report.user_properties, PROP_OUTCOMES)
        driver = read_prop(report.user_properties, PROP_DRIVER)
        if found is None or driver is None:
            return
        if report.when == "call" and DIFFERENTIAL in report.nodeid:
            self.differential.append((report.nodeid, report.outcome))
        stopped = read_prop(report.user_properties, PROP_STOPPED)
        if stopped is not None:
            self.stopped.setdefault(driver, (stopped, set()))[1].add(report.nodeid)
        usage = read_prop(report.user_properties, PROP_USAGE_ERROR)
        if usage is not None:
            self.usage_errors.setdefault(driver, (usage, set()))[1].add(report.nodeid)
        examples = read_prop(report.user_properties, PROP_EXAMPLES)
        if report.when == "call" and examples is not None:
            self.budgeted.append((report.nodeid, examples))
        for one in found:
            outcome = Outcome(Verdict(one["verdict"]), report.nodeid, one["message"],
                              one["where"], report.duration, one["cause"],
                              blocker=one.get("blocker", ""),
                              leaned=tuple(one.get("leaned", ())))
            if not self.selected(one["rule"]):  # a selected test may check others too
                outcome = Outcome(Verdict.NOT_RUN, report.nodeid, "not selected (--memory-rules)")
            self.results[driver][one["rule"]].add(outcome)

    def fixed_known_failures(self) -> list[str]:
        """Rules listed in a driver's ``known_failures`` that passed: the entry must go."""
        fixed = []
        for driver, per_rule in sorted(self.results.items()):
            listed = known_failures(driver)
            fixed += [f"{driver} {rule}: listed in known_failures ({listed[rule]!r}) but it "
                      "passed; remove the entry" for rule, result in sorted(per_rule.items())
                      if rule in listed and result.verdict is Verdict.PASS]
        return fixed

    def blocked(self) -> list[str]:
        """``driver RULE`` of every blocked rule: the run is not green while one is, unless it is
        a SHOULD rule that only advisories block (a point the documents leave open never turns a
        run red, even through the open points it kept from being judged; a MUST rule left
        unjudged does, whatever blocked it)."""
        def advisory(per_rule: Mapping[str, RuleVerdict], rule: str) -> bool:
            found = per_rule.get(rule)
            return found is not None and found.verdict is Verdict.ADVISORY

        def open_point(per_rule: Mapping[str, RuleVerdict], rule: str) -> bool:
            result = per_rule[rule]
            return (not self.strict and rule in CATALOGUE
                    and CATALOGUE[rule].level is Level.SHOULD and bool(result.blockers)
                    and all(advisory(per_rule, b) for b in result.blockers))

        return [f"{driver} {rule}" for driver, per_rule in sorted(self.results.items())
                for rule, result in sorted(per_rule.items())
                if result.verdict is Verdict.BLOCKED and not open_point(per_rule, rule)]

    def untested(self) -> list[str]:
        """One line per driver the kit stopped using: the cause, and how many of its rules
        were not run because of it (the run is not green while there is one)."""
        lines = []
        for driver, (cause, tests) in sorted(self.stopped.items()):
            per_rule = self.results.get(driver, {})
            lost = [rule for rule, result in per_rule.items()
                    if result.verdict is Verdict.NOT_RUN
                    and any(o.test in tests for o in result.outcomes)]
            lines.append(f"STOPPED {driver}: the kit stopped using this driver ({first_line(cause)})"
                         f"; {len(lost)} of its {len(per_rule)} rules could not be run, so this "
                         "run does not judge it in full")
        return lines

    def usage(self) -> list[str]:
        """One line per driver whose ``fresh=`` hook handed over a store that was not empty:
        the error and the tests it cost (the run is not green while there is one)."""
        lines = []
        for driver, (error, tests) in sorted(self.usage_errors.items()):
            first = sorted(tests)[0]
            more = f" and {len(tests) - 1} more" if len(tests) > 1 else ""
            lines.append(f"USAGE ERROR {driver}: {first_line(error)}; {len(tests)} test(s) "
                         f"not judged: {first}{more}")
        return lines

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Settle every verdict (after JUnit XML is written: its rule properties are mended),
        then fail a run that is green to pytest but not to the kit."""
        resolved = {driver: resolve_leaning(per_rule)
                    for driver, per_rule in self.results.items()}
        xml = getattr(self.config.option, "xmlpath", None)
        if xml and any(resolved.values()):
            mend_junit(Path(xml), resolved)
        unclean = (self.fixed_known_failures() or self.blocked() or self.untested()
                   or self.usage())
        if unclean and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        option = self.config.option
        if not self.results or option.collectonly or getattr(option, "showfixtures", False) or \
                getattr(option, "show_fixtures_per_test", False):
            return  # nothing was judged: a summary would read as 101 rules not run
        tr = terminalreporter
        tr.write_sep("=", "aalis memory conformance")
        tr.write_line("strict: a failed SHOULD rule fails" if self.strict else
                      "default mode: a failed SHOULD rule is an advisory (--memory-strict "
                      "fails it)")
        reports = [p for p in self.config.getoption("--memory-report") or []
                   if not p.lower().endswith((".md", ".markdown"))]
        hint = (f"every case: {reports[0]}" if reports
                else "every case: --memory-report=report.json")
        for driver, per_rule in sorted(self.results.items()):
            for line in driver_summary(driver, per_rule, hint):
                tr.write_line(line)
        for line in self.fixed_known_failures():
            tr.write_line(f"FIXED {line}")
        for line in self.untested():
            tr.write_line(line)
        for line in self.usage():
            tr.write_line(line)
        for nodeid, examples in self.budgeted:
            tr.write_line(f"time budget: {nodeid} checked {examples} generated histories")
        for nodeid, outcome in self.differential:
            tr.write_line(f"differential: {nodeid} ran one history per example against every "
                          f"selected driver ({','.join(d for d in sorted(self.results) if '@' not in d)}):"
                          f" {outcome}")
        failing = sorted({rule for per_rule in self.results.values()
                          for rule, result in per_rule.items()
                          if result.verdict in (Verdict.FAIL, Verdict.ADVISORY)})
        if failing:
            drivers = ",".join(d for d in sorted(self.results) if "@" not in d)
            strict = " --memory-strict" if self.strict else ""
            command = self.config.getoption("--memory-stdio-command")
            adapter = (f" --memory-stdio-command={shlex.quote(command)}"
                       if command and "stdio:" in drivers else "")
            tr.write_line(f"rerun one rule: pytest --memory-driver={drivers} "
                          f"--memory-rules={failing[0]}{strict}{adapter}")
        write_reports(self.config.getoption("--memory-report") or [], self.results, self.strict)


def _observed(rules: list[str]) -> list[str]:
    """The rules the running test's reads stood on, its own rules left out."""
    running = steps.current()
    return sorted(running.observed - set(rules)) if running is not None else []
