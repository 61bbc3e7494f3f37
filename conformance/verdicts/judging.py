"""What one phase of one test says about each of its rules: a pure function of the phase.

:func:`judge` reads pytest's item, call and report of the phase and returns its records (one
:class:`~aalis_memory.conformance.verdicts.model.Outcome` per rule it spoke of) with the
:class:`Amendment` it makes to pytest's report (a SHOULD failure outside strict mode passes, a
blocked test is skipped, a known failure is an xfail); :func:`apply` is the one step that
changes the report. A rule passes only when a test really checked it (see
:mod:`aalis_memory.conformance.verdicts.model`). The records hold fields, never rendered text:
the outputs render them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import pytest

from aalis_memory.conformance.checks import ConformanceFailure
from aalis_memory.conformance.harness.adapters import raised_by
from aalis_memory.conformance.harness.health import CallTimeout
from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.conformance.steps import Blocked, TestSteps
from aalis_memory.conformance.verdicts.details import where_failed
from aalis_memory.conformance.verdicts.model import (
    FAILED,
    Outcome,
    Outcomes,
    Verdict,
    VerdictSkip,
    failed_verdict,
)
from aalis_memory.conformance.verdicts.properties import (
    PROP_ADVISORIES,
    PROP_CHECKED,
    PROP_NOTES,
    read_prop,
)


@attrs.frozen
class Amendment:
    """How the judging changes pytest's report of the phase (``None``: unchanged)."""

    outcome: str | None = None
    longrepr: Any = None
    section: tuple[str, str] | None = None
    wasxfail: str | None = None

    def skipped(self, report: pytest.TestReport) -> bool:
        """Whether the report is skipped once amended."""
        return self.outcome == "skipped" if self.outcome is not None else report.skipped


def apply(report: pytest.TestReport, change: Amendment) -> None:
    """The one place the judging changes pytest's report."""
    if change.outcome is not None:
        report.outcome = change.outcome  # type: ignore[assignment]
    if change.longrepr is not None:
        report.longrepr = change.longrepr
    if change.section is not None:
        report.sections.append(change.section)
    if change.wasxfail is not None:
        report.wasxfail = change.wasxfail


@attrs.frozen(kw_only=True)
class Phase:
    """The phase being judged, and what the judging needs to know besides pytest's objects."""

    item: pytest.Item
    call: pytest.CallInfo[None]
    report: pytest.TestReport
    driver: str
    rules: tuple[str, ...]
    strict: bool
    #: The running test's setup and observation steps (``None`` once the test is over).
    running: TestSteps | None
    #: Why the kit stopped using the driver, if it did.
    stopped: str | None
    #: A driver's ``known_failures``: rule ID to the reason it is listed.
    known: Callable[[str], Mapping[str, str]]
    #: Set when the test got a store the driver's ``fresh=`` hook left state in: the error.
    leak: str | None = None

    def outcome(self, rule: str, verdict: Verdict, **fields: Any) -> Outcome:
        """The record of ``rule`` in this phase (``fields``: the rest of :class:`Outcome`)."""
        return Outcome(
            verdict=verdict,
            rule=rule,
            test=self.item.nodeid,
            driver=self.driver,
            duration=self.report.duration,
            **fields,
        )

    def failed(self, rule_id: str) -> Verdict:
        """A failed check of ``rule_id``: an advisory for a SHOULD rule outside strict mode."""
        return failed_verdict(rule_id, self.strict)


def judge(phase: Phase) -> tuple[Outcomes, Amendment]:
    """What ``phase`` says of each of its rules, and how pytest's report of it changes."""
    if phase.leak is not None:  # whatever the test found may be that state's: none is judged
        return (
            Outcomes(phase.outcome(rule, Verdict.NOT_RUN, usage_error=phase.leak) for rule in phase.rules),
            Amendment("failed", f"USAGE ERROR {phase.leak}"),
        )
    blamed, found, change = _judge(phase)
    driver = blamed or phase.driver
    found, change = _known(phase, phase.known(driver), found, change)
    stopped = (
        phase.stopped
        if phase.stopped is not None and any(o.verdict is Verdict.NOT_RUN for o in found)
        else ""
    )
    return Outcomes(attrs.evolve(o, driver=driver, stopped=stopped) for o in found), change


def _skipped_why(exc: BaseException | None, report: pytest.TestReport) -> str:
    """Why a phase the kit gives no verdict of its own was skipped: the skip's message, or, for
    a phase that failed and another plugin then reported skipped (the MongoDB server died under
    it), the reason that plugin gave the report, whole."""
    if isinstance(exc, pytest.skip.Exception):
        return str(exc.msg or "")
    longrepr = report.longrepr
    return str(longrepr[2]) if isinstance(longrepr, tuple) else ""


def _judge(phase: Phase) -> tuple[str | None, list[Outcome], Amendment]:
    item, call, report, rules = phase.item, phase.call, phase.report, phase.rules
    exc = call.excinfo.value if call.excinfo is not None else None
    if report.skipped and report.when in ("setup", "call"):
        # a skip the kit raised gives its verdict; any other (a mark, a mode that is off) means
        # the check did not run
        verdict, reason = (
            (exc.verdict, exc.reason)
            if isinstance(exc, VerdictSkip)
            else (Verdict.NOT_RUN, _skipped_why(exc, report))
        )
        return None, [phase.outcome(rule, verdict, detail=reason) for rule in rules], Amendment()
    if report.when == "call" and report.passed:
        return None, _passed(phase), Amendment()
    if not report.failed or exc is None:
        return None, [], Amendment()
    where = where_failed(item, call)
    if isinstance(exc, Blocked):
        passed = _checked_before(phase, "")
        held = {one.rule for one in passed}
        # the run still fails: see Reporter.pytest_sessionfinish
        change = Amendment("skipped", (str(item.path), item.reportinfo()[1] or 0, str(exc)))
        return (
            None,
            [
                *(
                    phase.outcome(
                        r, Verdict.BLOCKED, where=where, cause=f"{exc.step} {exc.cause}", blocker=exc.blocker
                    )
                    for r in rules
                    if r not in held
                ),
                *passed,
            ],
            change,
        )
    if isinstance(exc, ConformanceFailure):
        verdict = phase.failed(exc.rule.id)
        change = Amendment(
            "passed" if verdict is Verdict.ADVISORY else None, f"{exc}\n  (checked at {where})"
        )
        # An example test's other rules were not checked here: a gap, so a pass they get
        # from other tests is only partial (a MUST aspect behind a failed SHOULD one is no
        # pass). The state machine's rules all have example tests of their own: not run.
        gap = (
            Verdict.NOT_RUN
            if read_prop(item.user_properties, PROP_CHECKED) is not None
            else Verdict.UNVERIFIED
        )
        return (
            exc.driver,
            [
                phase.outcome(
                    exc.rule.id,
                    verdict,
                    detail=exc.detail,
                    framed=True,
                    where=where,
                    leaned=tuple(_observed(phase)),
                    cases=exc.cases,
                ),
                *(phase.outcome(r, gap, stopped_at=exc.rule.id) for r in rules if r != exc.rule.id),
                *_checked_before(phase, exc.rule.id),
            ],
            change,
        )
    return None, *_raised(phase, exc, where)


def _raised(phase: Phase, exc: BaseException, where: str) -> tuple[list[Outcome], Amendment]:
    """An exception that is no check's failure: the driver's (or its hooks') error."""
    item, report, rules = phase.item, phase.report, phase.rules
    label = "" if report.when == "call" else f"{report.when}: "
    call = raised_by(exc)
    text = f"{label}{type(exc).__name__}: {exc}"
    cause = f"{text} (raised by {call.method})" if call is not None else text
    if isinstance(exc, CallTimeout):  # one method's timeouts, whatever the arguments
        cause = f"CallTimeout: {exc.cause}"
    if call is not None:
        text += f" (raised by {call.shown})"
    named = ", ".join(f"{r} ({CATALOGUE[r].level.value})" for r in rules if r in CATALOGUE)
    section = ("conformance rules", f"this test checks {named}")
    # a timeout's message says it all: no kit internals around it
    longrepr = (
        f"{label}{exc}\n  (at {where}; this test checks {named})" if isinstance(exc, CallTimeout) else None
    )
    if report.when != "call":  # opening or closing the store: no rule's check, and the
        # run fails with the error (never an advisory pass of a SHOULD-only test)
        if phase.stopped is not None:
            text = f"driver {phase.driver!r} {phase.stopped}"
        return (
            [phase.outcome(rule, Verdict.NOT_RUN, detail=text, where=where, cause=cause) for rule in rules],
            Amendment(longrepr=longrepr, section=section),
        )
    test = item.originalname if isinstance(item, pytest.Function) else item.name
    checking = f"while checking that {test.removeprefix('test_').replace('_', ' ')}"
    found = [
        phase.outcome(
            rule, phase.failed(rule), detail=f"{checking}: {text}", framed=True, where=where, cause=cause
        )
        for rule in rules
    ]
    # only SHOULD rules, outside strict mode: the test passes
    advisory = all(one.verdict is Verdict.ADVISORY for one in found)
    return found, Amendment("passed" if advisory else None, longrepr, section)


def _passed(phase: Phase) -> list[Outcome]:
    """A passing test passes its rules, or only those it reports having checked."""
    properties = phase.item.user_properties
    checked = read_prop(properties, PROP_CHECKED)
    notes = read_prop(properties, PROP_NOTES) or {}
    found = [
        phase.outcome(rule, Verdict.PASS, detail=notes.get(rule, ""))
        if checked is None or checked.get(rule, 0) > 0
        else phase.outcome(rule, Verdict.NOT_RUN, detail="no generated history exercised it")
        for rule in phase.rules
    ]
    found += [
        phase.outcome(a["rule"], phase.failed(a["rule"]), detail=a["message"], framed=True)
        for a in read_prop(properties, PROP_ADVISORIES) or []
    ]
    running = phase.running  # the store fixture's teardown has not run yet
    if running is not None:
        found += [
            phase.outcome(
                rule,
                Verdict.BLOCKED,
                cause=f"{exc.step} {exc.cause}",
                blocker=exc.blocker,
                partly=True,
            )
            for rule, exc in running.set_aside.items()
            if rule in phase.rules
        ]
        found += [
            phase.outcome(rule, Verdict.UNVERIFIED, detail=reason)
            for rule, reason in running.unverified.items()
            if rule in phase.rules
        ]
    return found


def _checked_before(phase: Phase, failed: str) -> list[Outcome]:
    """A failing state machine still passes what it checked before the failure."""
    checked = read_prop(phase.item.user_properties, PROP_CHECKED) or {}
    return [phase.outcome(r, Verdict.PASS) for r in phase.rules if r != failed and checked.get(r, 0) > 0]


def _observed(phase: Phase) -> list[str]:
    """The rules the running test's reads stood on, its own rules left out."""
    running = phase.running
    return sorted(running.observed - set(phase.rules)) if running is not None else []


def _known(
    phase: Phase, listed: Mapping[str, str], found: Sequence[Outcome], change: Amendment
) -> tuple[list[Outcome], Amendment]:
    """Failures of rules the driver lists in ``known_failures`` become known failures; a test
    left with no other failure is reported xfailed, with the reasons."""
    if not listed:
        return list(found), change
    out = [
        attrs.evolve(one, verdict=Verdict.KNOWN_FAILURE, known=listed[one.rule])
        if one.verdict in FAILED and one.rule in listed
        else one
        for one in found
    ]
    reasons = sorted({listed[one.rule] for one in out if one.verdict is Verdict.KNOWN_FAILURE})
    # An x, not a dot: also a known SHOULD failure, whose advisory left the test passed.
    if reasons and not change.skipped(phase.report) and not any(one.verdict in FAILED for one in out):
        change = attrs.evolve(change, outcome="skipped", wasxfail="known failure: " + "; ".join(reasons))
    return out, change
