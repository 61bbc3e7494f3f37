"""The pytest side of the verdicts: collecting, judging each phase, adding up, reporting.

The worker that runs a test judges each phase (:func:`~.judging.judge`, a pure function) and
puts the resulting records (:class:`~.model.Outcomes`) on the report, and each record's rule,
level and verdict on the item for JUnit; the process that writes the summary only adds them up,
so the verdicts are the same under pytest-xdist. The records cross a process boundary only in
:meth:`Reporter.pytest_report_to_serializable` and back, as their fields. Once the run has
ended, the reporter settles the leans, mends JUnit's properties from the records it changed,
and hands the records to the outputs (:mod:`.terminal`, :mod:`.json_report`, :mod:`.markdown`).
"""

from __future__ import annotations

import shlex
from collections import defaultdict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

import pytest

from aalis_memory.conformance import steps
from aalis_memory.conformance.harness.run_state import RUN_STATE
from aalis_memory.conformance.rules import CATALOGUE, Level
from aalis_memory.conformance.verdicts import json_report, markdown
from aalis_memory.conformance.verdicts.details import known_failures
from aalis_memory.conformance.verdicts.judging import Phase, apply, judge
from aalis_memory.conformance.verdicts.model import (
    FAILED,
    Outcome,
    Outcomes,
    RuleVerdict,
    Verdict,
    charge_blockers,
    first_line,
    resolve_leaning,
)
from aalis_memory.conformance.verdicts.properties import (
    ADVISORY,
    BLOCKED,
    DIFFERENTIAL,
    PROP_EXAMPLES,
    PROP_JUNIT_RULE,
    PROP_JUNIT_VERDICT,
    PROP_OUTCOMES,
    Structured,
    driver_of,
    read_prop,
    spec_ids,
)
from aalis_memory.conformance.verdicts.terminal import driver_summary

#: Why a rule did not run: left out by ``--memory-rules``, or its tests deselected otherwise.
NOT_SELECTED: Final = "not selected (--memory-rules)"
DESELECTED: Final = "its tests were deselected"


class Reporter:
    """Collects rule outcomes per driver and writes the verdicts at the end of the run."""

    def __init__(
        self, config: pytest.Config, strict: bool, selected: Callable[[str], bool] = lambda _rule: True
    ) -> None:
        self.config = config
        self.strict = strict
        #: Whether a rule is selected (``--memory-rules``); the others are reported not run.
        self.selected = selected
        self.results: dict[str, dict[str, RuleVerdict]] = defaultdict(lambda: defaultdict(RuleVerdict))
        #: (test id, histories checked) of time-budgeted state-machine runs.
        self.budgeted: list[tuple[str, int]] = []
        #: (test id, outcome) of the differential run, when it ran.
        self.differential: list[tuple[str, str]] = []
        #: Drivers the kit stopped using: (cause, ids of the tests it did not run for it).
        self.stopped: dict[str, tuple[str, set[str]]] = {}
        #: Drivers whose ``fresh=`` hook handed over a store that was not empty: (the first
        #: error, ids of the tests not judged because of it).
        self.usage_errors: dict[str, tuple[str, set[str]]] = {}
        #: Per test, the records its JUnit ``aalis_rule`` properties were written from, in
        #: their order (setup and call: the teardown's come after JUnit took the properties).
        self.junit_rows: dict[str, list[Outcome]] = defaultdict(list)

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
                # a rule --memory-rules left out reads the same whichever test it belongs to
                why = DESELECTED if self.selected(rule) else NOT_SELECTED
                self.results[driver][rule].add(
                    Outcome(
                        verdict=Verdict.NOT_RUN,
                        rule=rule,
                        test=item.nodeid,
                        driver=driver,
                        detail=why,
                        ran=False,
                    )
                )

    # -- running: the worker judges each phase --------------------------------------------

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
        outcome = yield
        report: pytest.TestReport = outcome.get_result()
        leaks = self.config.stash[RUN_STATE].fresh.take_found()
        rules = spec_ids(item)
        driver = driver_of(item)
        if not rules or driver is None:
            return
        leak = str(leaks[0]) if leaks else None
        stopped = self.config.stash[RUN_STATE].unusable_cause(driver)
        outcomes, change = judge(
            Phase(
                item=item,
                call=call,
                report=report,
                driver=driver,
                rules=tuple(rules),
                strict=self.strict,
                running=steps.of(item),
                stopped=stopped,
                known=known_failures,
                leak=leak,
            )
        )
        apply(report, change)
        report.user_properties.append((PROP_OUTCOMES, outcomes))
        worst = outcomes.worst
        if worst is not None:  # JUnit keeps the properties of the teardown report: on the item
            item.user_properties.append((PROP_JUNIT_VERDICT, worst.value))
            item.user_properties += [(PROP_JUNIT_RULE, junit_rule(one)) for one in outcomes]

    def pytest_report_teststatus(self, report: pytest.TestReport | pytest.CollectReport) -> Any:
        found = outcomes_of(report) or ()
        if report.skipped and any(o.verdict is Verdict.BLOCKED for o in found):
            return BLOCKED, "B", "BLOCKED"
        if report.when == "call" and report.passed and any(o.verdict is Verdict.ADVISORY for o in found):
            return ADVISORY, "A", "ADVISORY"
        return None

    # -- crossing a process boundary (pytest-xdist): the records as their fields, and back ---

    @pytest.hookimpl(wrapper=True)
    def pytest_report_to_serializable(self, report: pytest.TestReport | pytest.CollectReport) -> Any:
        data = yield
        if isinstance(data, dict) and "user_properties" in data:
            data["user_properties"] = [(name, _to_data(value)) for name, value in data["user_properties"]]
        return data

    @pytest.hookimpl(wrapper=True)
    def pytest_report_from_serializable(self, data: dict[str, Any]) -> Any:
        report = yield
        if isinstance(report, pytest.TestReport):
            report.user_properties = [(name, _from_data(value)) for name, value in report.user_properties]
        return report

    # -- the controller adds up ------------------------------------------------------------

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        outcomes = outcomes_of(report)
        if outcomes is None:
            return
        if report.when == "call" and DIFFERENTIAL in report.nodeid:
            self.differential.append((report.nodeid, report.outcome))
        for one in outcomes[:1]:  # what stopped the phase is on each of its records
            if one.stopped:
                self.stopped.setdefault(one.driver, (one.stopped, set()))[1].add(report.nodeid)
            if one.usage_error:
                self.usage_errors.setdefault(one.driver, (one.usage_error, set()))[1].add(report.nodeid)
        examples = read_prop(report.user_properties, PROP_EXAMPLES)
        if report.when == "call" and examples is not None:
            self.budgeted.append((report.nodeid, examples))
        if report.when != "teardown":
            self.junit_rows[report.nodeid] += outcomes
        for outcome in outcomes:
            if not self.selected(outcome.rule):  # a selected test may check others too
                outcome = Outcome(
                    verdict=Verdict.NOT_RUN,
                    rule=outcome.rule,
                    test=report.nodeid,
                    driver=outcome.driver,
                    detail=NOT_SELECTED,
                )
            self.results[outcome.driver][outcome.rule].add(outcome)

    def fixed_known_failures(self) -> list[str]:
        """Rules listed in a driver's ``known_failures`` that passed: the entry must go."""
        fixed = []
        for driver, per_rule in sorted(self.results.items()):
            listed = known_failures(driver)
            fixed += [
                f"{driver} {rule}: listed in known_failures ({listed[rule]!r}) but it "
                "passed; remove the entry"
                for rule, result in sorted(per_rule.items())
                if rule in listed and result.verdict is Verdict.PASS
            ]
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
            return (
                not self.strict
                and rule in CATALOGUE
                and CATALOGUE[rule].level is Level.SHOULD
                and bool(result.blockers)
                and all(advisory(per_rule, b) for b in result.blockers)
            )

        return [
            f"{driver} {rule}"
            for driver, per_rule in sorted(self.results.items())
            for rule, result in sorted(per_rule.items())
            if result.verdict is Verdict.BLOCKED and not open_point(per_rule, rule)
        ]

    def untested(self) -> list[str]:
        """One line per driver the kit stopped using: the cause, and how many of its rules
        were not run because of it (the run is not green while there is one)."""
        lines = []
        for driver, (cause, tests) in sorted(self.stopped.items()):
            per_rule = self.results.get(driver, {})
            lost = [
                rule
                for rule, result in per_rule.items()
                if result.verdict is Verdict.NOT_RUN and any(o.test in tests for o in result.outcomes)
            ]
            lines.append(
                f"STOPPED {driver}: the kit stopped using this driver ({first_line(cause)})"
                f"; {len(lost)} of its {len(per_rule)} rules could not be run, so this "
                "run does not judge it in full"
            )
        return lines

    def counted(self, stats: Mapping[str, list[Any]]) -> str:
        """What the two counts of a run count: the summary's are rules, pytest's line is tests
        (a test may check several rules, a rule have several tests), said with this run's
        advisories and blocked ones, which both lines count."""

        def rules(verdict: Verdict) -> int:
            return sum(
                result.verdict is verdict
                for per_rule in self.results.values()
                for result in per_rule.values()
            )

        def tests(word: str) -> int:
            return len({r.nodeid for r in stats.get(word, ()) if hasattr(r, "nodeid")})

        both = [
            f"{rules(verdict)} {verdict.value} rules and {tests(word)} {word} tests"
            for verdict, word in ((Verdict.ADVISORY, ADVISORY), (Verdict.BLOCKED, BLOCKED))
            if rules(verdict) or tests(word)
        ]
        return (
            "counts: the lines above count rules, pytest's line below counts tests (one test "
            "may check several rules, one rule have several tests)"
            + (f": here {'; '.join(both)}" if both else "")
        )

    def usage(self) -> list[str]:
        """One line per driver whose ``fresh=`` hook handed over a store that was not empty:
        the error and the tests it cost (the run is not green while there is one)."""
        lines = []
        for driver, (error, tests) in sorted(self.usage_errors.items()):
            first = sorted(tests)[0]
            more = f" and {len(tests) - 1} more" if len(tests) > 1 else ""
            lines.append(
                f"USAGE ERROR {driver}: {first_line(error)}; {len(tests)} test(s) not judged: {first}{more}"
            )
        return lines

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Settle every verdict (after JUnit XML is written: its rule properties are mended),
        then fail a run that is green to pytest but not to the kit."""
        for per_rule in self.results.values():  # before the leaning: a charged rule failed
            charge_blockers(per_rule, self.strict)
        changed = {
            id(old): new for per_rule in self.results.values() for old, new in resolve_leaning(per_rule)
        }
        xml = getattr(self.config.option, "xmlpath", None)
        if xml and changed:
            self.mend_junit(Path(xml), changed)
        unclean = self.fixed_known_failures() or self.blocked() or self.untested() or self.usage()
        if unclean and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        option = self.config.option
        if (
            not self.results
            or option.collectonly
            or getattr(option, "showfixtures", False)
            or getattr(option, "show_fixtures_per_test", False)
        ):
            return  # nothing was judged: a summary would read as 101 rules not run
        tr = terminalreporter
        tr.write_sep("=", "aalis memory conformance")
        tr.write_line(
            "strict: a failed SHOULD rule fails"
            if self.strict
            else "default mode: a failed SHOULD rule is an advisory (--memory-strict fails it)"
        )
        reports = [
            p
            for p in self.config.getoption("--memory-report") or []
            if not p.lower().endswith((".md", ".markdown"))
        ]
        hint = f"every case: {reports[0]}" if reports else "every case: --memory-report=report.json"
        for driver, per_rule in sorted(self.results.items()):
            for line in driver_summary(driver, per_rule, hint):
                tr.write_line(line)
        for line in self.fixed_known_failures():
            tr.write_line(f"FIXED {line}")
        for line in self.untested():
            tr.write_line(line)
        for line in self.usage():
            tr.write_line(line)
        tr.write_line(self.counted(tr.stats))
        for nodeid, examples in self.budgeted:
            tr.write_line(f"time budget: {nodeid} checked {examples} generated histories")
        for nodeid, outcome in self.differential:
            tr.write_line(
                f"differential: {nodeid} ran one history per example against every "
                f"selected driver ({','.join(d for d in sorted(self.results) if '@' not in d)}):"
                f" {outcome}"
            )
        failing = sorted(
            {
                rule
                for per_rule in self.results.values()
                for rule, result in per_rule.items()
                if result.verdict in FAILED
            }
        )
        if failing:
            drivers = ",".join(d for d in sorted(self.results) if "@" not in d)
            strict = " --memory-strict" if self.strict else ""
            command = self.config.getoption("--memory-stdio-command")
            adapter = (
                f" --memory-stdio-command={shlex.quote(command)}" if command and "stdio:" in drivers else ""
            )
            tr.write_line(
                f"rerun one rule: pytest --memory-driver={drivers} "
                f"--memory-rules={failing[0]}{strict}{adapter}"
            )
        for path in self.config.getoption("--memory-report") or []:
            target = Path(path)
            writer = markdown if target.suffix.lower() in (".md", ".markdown") else json_report
            writer.write(target, self.results, self.strict)

    def mend_junit(self, path: Path, changed: Mapping[int, Outcome]) -> None:
        """Write again the ``aalis_rule`` properties of records settled after the tests ran (a
        failed check blocked by the rule its reads stood on), so JUnit says what the summary
        says: each test's properties are its records' (:attr:`junit_rows`), in order."""
        import xml.etree.ElementTree as ET

        from _pytest.junitxml import mangle_test_address

        def address(nodeid: str) -> tuple[str, str]:
            names = mangle_test_address(nodeid)
            return ".".join(names[:-1]), names[-1]

        rows = {
            address(nodeid): found
            for nodeid, found in self.junit_rows.items()
            if any(id(one) in changed for one in found)
        }
        if not path.exists():
            return
        tree = ET.parse(path)
        for case in tree.getroot().iter("testcase"):
            found = rows.get((case.get("classname", ""), case.get("name", "")))
            props = [p for p in case.iter("property") if p.get("name") == PROP_JUNIT_RULE]
            if found is not None and len(props) == len(found):
                for prop, one in zip(props, found, strict=True):
                    prop.set("value", junit_rule(changed.get(id(one), one)))
        tree.write(path, encoding="utf-8", xml_declaration=True)


def outcomes_of(report: pytest.TestReport | pytest.CollectReport) -> Outcomes | None:
    """The records :meth:`Reporter.pytest_runtest_makereport` put on a phase's report (a
    collection report, of a file that failed to import, has none)."""
    properties = getattr(report, "user_properties", ())
    found = next((value for name, value in properties if name == PROP_OUTCOMES), None)
    return found if isinstance(found, Outcomes) else None


def junit_rule(outcome: Outcome) -> str:
    """A record's JUnit ``aalis_rule`` property: ``"ARCH-01 MUST pass"``."""
    rule = CATALOGUE.get(outcome.rule)
    return f"{outcome.rule} {rule.level.value if rule else '?'} {outcome.verdict.value}"


#: The keys the kit's records are under when a report leaves its process.
_OUTCOMES: Final = "aalis_memory_outcomes"
_STRUCTURED: Final = "aalis_memory_structured"


def _to_data(value: Any) -> Any:
    """A report property fit to leave the process: the kit's records as their fields."""
    if isinstance(value, Outcomes):
        return {_OUTCOMES: [one.as_dict() for one in value]}
    if isinstance(value, Structured):
        return {_STRUCTURED: value.value}
    return value


def _from_data(value: Any) -> Any:
    """The records :func:`_to_data` made data, objects again."""
    if isinstance(value, dict) and list(value) == [_OUTCOMES]:
        return Outcomes(Outcome.from_dict(one) for one in value[_OUTCOMES])
    if isinstance(value, dict) and list(value) == [_STRUCTURED]:
        return Structured(value[_STRUCTURED])
    return value
