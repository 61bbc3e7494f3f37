"""Turning test outcomes into rule verdicts: the summary, the reports, JUnit properties.

The worker that runs a test decides what it says about each of its rules (see
:meth:`Reporter.judge`) and sends that along as a report property; the process that writes the
summary only adds them up, so the verdicts are the same under pytest-xdist. A rule passes only
when a test really checked it (see :mod:`aalis_memory.conformance.verdicts`).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
import shlex
from collections import defaultdict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

import pytest

from aalis_memory.conformance import registry, steps
from aalis_memory.conformance.adapters import RAISED_BY, CallTimeout, unusable_cause
from aalis_memory.conformance.checks import ConformanceFailure, failure_text
from aalis_memory.conformance.report_render import driver_summary, first_line, write_reports
from aalis_memory.conformance.rules import CATALOGUE, Level
from aalis_memory.conformance.steps import Blocked
from aalis_memory.conformance.verdicts import (
    Outcome,
    RuleVerdict,
    Verdict,
    resolve_leaning,
    skip_verdict,
)

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
#: Set on a test the kit did not run because it had stopped using the driver (see
#: ``adapters.UNUSABLE``): the cause. The run then fails, and says how many rules went untested.
PROP_STOPPED: Final = "aalis_stopped"
#: JUnit-visible properties: one per rule of the test (``"ARCH-01 MUST pass"``) and one for
#: the whole test (its worst verdict).
PROP_JUNIT_RULE: Final = "aalis_rule"
PROP_JUNIT_VERDICT: Final = "aalis_verdict"

#: The name of the test that drives every selected driver at once (``--memory-differential``).
DIFFERENTIAL: Final = "test_state_machine_differential"

#: The test status word of a SHOULD failure outside strict mode.
ADVISORY: Final = "advisory"
#: The test status word of a test a failed setup or observation step kept from judging.
BLOCKED: Final = "blocked"

Judged = dict[str, Any]

#: The properties whose values are JSON text (see :func:`attach`).
_JSON_PROPS: Final = frozenset({PROP_RULES, PROP_OUTCOMES, PROP_EXAMPLES, PROP_CHECKED,
                                PROP_ADVISORIES, PROP_NOTES})


def judged(rule: str, verdict: Verdict, message: str = "", where: str = "", cause: str = "",
           blocker: str = "", leaned: list[str] | None = None) -> Judged:
    """One rule's outcome in one test phase. ``cause`` groups failures that share one exception
    (type, text and driver method) into one summary line; ``blocker`` is the rule a blocked
    outcome waits on; ``leaned`` the rules a failed check's reads stood on."""
    return {"rule": rule, "verdict": verdict.value, "message": message, "where": where,
            "cause": cause, "blocker": blocker, "leaned": leaned or []}


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
        #: (test id, outcome) of the differential run, when it ran.
        self.differential: list[tuple[str, str]] = []
        #: Drivers the kit stopped using: (cause, ids of the tests it did not run for it).
        self.stopped: dict[str, tuple[str, set[str]]] = {}

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
            verdict, text = skip_verdict(_skip_reason(report))
            return None, [judged(rule, verdict, text) for rule in rules]
        if report.when == "call" and report.passed:
            return None, self._passed(item, rules)
        if not report.failed or call.excinfo is None:
            return None, []
        exc = call.excinfo.value
        where = _where(item, call)
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
            stopped = f"not checked: the test stopped at {exc.rule.id} first"
            gap = (Verdict.NOT_RUN if _prop(item.user_properties, PROP_CHECKED) is not None
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
        checked = _prop(item.user_properties, PROP_CHECKED) or {}
        return [judged(r, Verdict.PASS) for r in rules if r != failed and checked.get(r, 0) > 0]

    def pytest_report_teststatus(self, report: pytest.TestReport) -> Any:
        found = _prop(report.user_properties, PROP_OUTCOMES) or []
        if report.skipped and any(j["verdict"] == Verdict.BLOCKED.value for j in found):
            return BLOCKED, "B", "BLOCKED"
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
        if report.when == "call" and DIFFERENTIAL in report.nodeid:
            self.differential.append((report.nodeid, report.outcome))
        stopped = _prop(report.user_properties, PROP_STOPPED)
        if stopped is not None:
            self.stopped.setdefault(driver, (stopped, set()))[1].add(report.nodeid)
        examples = _prop(report.user_properties, PROP_EXAMPLES)
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
            listed = _known_failures(driver)
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

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Settle every verdict (after JUnit XML is written: its rule properties are mended),
        then fail a run that is green to pytest but not to the kit."""
        resolved = {driver: resolve_leaning(per_rule)
                    for driver, per_rule in self.results.items()}
        xml = getattr(self.config.option, "xmlpath", None)
        if xml and any(resolved.values()):
            mend_junit(Path(xml), resolved)
        unclean = self.fixed_known_failures() or self.blocked() or self.untested()
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


def mend_junit(path: Path, resolved: dict[str, list[tuple[str, Outcome]]]) -> None:
    """Rewrite the ``aalis_rule`` properties of outcomes settled after the tests ran (a failed
    check blocked by the rule its reads stood on), so JUnit says what the summary says."""
    import xml.etree.ElementTree as ET

    from _pytest.junitxml import mangle_test_address

    changed = {(".".join(mangle_test_address(o.test)[:-1]), mangle_test_address(o.test)[-1],
                rule) for outcomes in resolved.values() for rule, o in outcomes}
    if not path.exists():
        return
    tree = ET.parse(path)
    for case in tree.getroot().iter("testcase"):
        for prop in case.iter("property"):
            value = prop.get("value", "")
            rule = value.split(" ", 1)[0]
            if prop.get("name") == PROP_JUNIT_RULE and (
                    case.get("classname", ""), case.get("name", ""), rule) in changed:
                level = value.split(" ")[1]
                prop.set("value", f"{rule} {level} {Verdict.BLOCKED.value}")
    tree.write(path, encoding="utf-8", xml_declaration=True)


def unexpected(rule_id: str, what: str) -> str:
    """An exception inside a test of ``rule_id``, with the rule's ID, level, text and ground, as
    a failed check reads (see :func:`~aalis_memory.conformance.checks.failure_text`)."""
    rule = CATALOGUE.get(rule_id)
    return failure_text(rule, what) if rule is not None else what


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
    reasons = sorted({listed[one["rule"]] for one in out
                      if one["verdict"] == Verdict.KNOWN_FAILURE.value})
    # An x, not a dot: also a known SHOULD failure, whose advisory left the test passed.
    if reasons and not report.skipped and not any(
            one["verdict"] in failing for one in out):
        report.outcome = "skipped"
        report.wasxfail = "known failure: " + "; ".join(reasons)
    return out


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple):
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def attach(properties: list[tuple[str, Any]], name: str, value: Any) -> None:
    """Add a test property; a structured value travels as JSON text. JUnit XML writes each
    property of a test as ``str(value)``: JSON is what a CI tool can read back, a repr is not."""
    properties.append((name, value if isinstance(value, str) else json.dumps(value)))


def _prop(properties: list[tuple[str, Any]], name: str) -> Any:
    for key, value in properties:
        if key == name:
            return json.loads(value) if name in _JSON_PROPS else value
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
