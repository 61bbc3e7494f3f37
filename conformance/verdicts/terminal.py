"""The terminal summary: per driver, the totals, each failure with its failing cases, the rules
that did not pass grouped by reason, and warnings about its tiers.

Each line names its rule once: a record's text is rendered here without the rule framing the
reports give a failure (:attr:`~aalis_memory.conformance.verdicts.model.Outcome.said`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Final

from aalis_memory.conformance.verdicts.model import (
    RuleVerdict,
    Verdict,
    blocker_state,
    counts,
    first_line,
    stopped_at_text,
)
from aalis_memory.conformance.verdicts.tiers import tier_line

_NOT_REACHED: Final = "not reached"


def summary_line(found: dict[Verdict, int]) -> str:
    """``"40 pass, 1 fail, ... (of 70 rules)"``: every state named, so nothing can hide."""
    total = sum(found.values())
    shown = [
        f"{found[Verdict.PASS]} pass",
        f"{found[Verdict.FAIL]} fail",
        f"{found[Verdict.ADVISORY]} advisory",
    ]
    shown += [
        f"{found[v]} {v.value}" for v in (Verdict.KNOWN_FAILURE, Verdict.PARTIAL, Verdict.BLOCKED) if found[v]
    ]
    shown += [
        f"{found[v]} {v.value}"
        for v in (Verdict.NOT_IMPLEMENTED, Verdict.EXCLUDED, Verdict.UNVERIFIED, Verdict.NOT_RUN)
    ]
    return f"{', '.join(shown)} (of {total} rules)"


def _gap(result: RuleVerdict, caveat: Verdict) -> tuple[str, str]:
    """How the summary names a part of a passing rule that did not pass, and why (the reason of
    its first such outcome; a tier's exclusion is listed by rule alone, as before)."""
    found = next((o for o in result.outcomes if o.verdict is caveat), None)
    if found is None:
        return caveat.value, ""
    if caveat is Verdict.BLOCKED and found.blocker:
        return caveat.value, f"by {found.blocker}"
    if caveat is Verdict.UNVERIFIED and found.stopped_at:
        return _NOT_REACHED, stopped_at_text(found.stopped_at, found.stopped_blocked_by)
    return caveat.value, first_line(found.message) if caveat is Verdict.UNVERIFIED else ""


#: Verdicts listed rule by rule in the summary, with their message; the rest are grouped.
_LISTED: Final = (Verdict.FAIL, Verdict.ADVISORY, Verdict.KNOWN_FAILURE)
_GROUPED: Final = (Verdict.NOT_IMPLEMENTED, Verdict.EXCLUDED, Verdict.UNVERIFIED, Verdict.NOT_RUN)

#: Rule IDs shown on one summary line before the rest are counted (the reports list them all).
MAX_LISTED: Final = 12


def listed(rule_ids: list[str]) -> str:
    if len(rule_ids) <= MAX_LISTED:
        return ", ".join(rule_ids)
    return f"{', '.join(rule_ids[:MAX_LISTED])} and {len(rule_ids) - MAX_LISTED} more"


#: Failing cases of one check shown under its summary line; the JSON report has them all.
MAX_CASES: Final = 10

#: A case line of the terminal summary is cut here (the reports keep it whole).
CASE_WIDTH: Final = 200


def shorten(case: str) -> str:
    return case if len(case) <= CASE_WIDTH else case[: CASE_WIDTH - 3] + "..."


def case_lines(found: Sequence[str], report_hint: str) -> list[str]:
    """The first :data:`MAX_CASES` failing cases of a check, indented under its summary line,
    and how many more."""
    shown = [f"      - {shorten(case)}" for case in found[:MAX_CASES]]
    if len(found) > MAX_CASES:
        shown.append(f"      and {len(found) - MAX_CASES} more ({report_hint})")
    return shown


def driver_summary(
    driver: str,
    per_rule: Mapping[str, RuleVerdict],
    report_hint: str = "every case: --memory-report=report.json",
) -> list[str]:
    """The summary lines of one driver: totals, each failure with its failing cases, then the
    rules that did not pass grouped by reason, then warnings about its tiers. ``report_hint``
    says where the cases beyond the first few are."""
    declared, warnings = tier_line(driver)
    found = counts(r.verdict for r in per_rule.values())
    label = "run" if "@" in driver else "tiers"
    lines = [f"{driver}: {summary_line(found)}", f"  {label}: {declared}"]
    causes: dict[str, list[str]] = defaultdict(list)
    for rule_id, result in sorted(per_rule.items()):
        if result.verdict in _LISTED:  # one driver exception behind several rules: one line
            deciding = result.deciding
            key = deciding.cause if deciding and deciding.cause else f"{rule_id} {result.message}"
            causes[key].append(rule_id)
    for rule_ids in causes.values():
        first = per_rule[rule_ids[0]]
        where = f" ({first.deciding.where})" if first.deciding and first.deciding.where else ""
        message = first_line(first.deciding.said if first.deciding else first.message)
        if len(rule_ids) == 1:
            lines.append(f"  {first.verdict.value.upper()} {rule_ids[0]}: {message}{where}")
            lines += case_lines(first.deciding.cases if first.deciding else (), report_hint)
            continue
        by_verdict = "; ".join(
            f"{verdict.value.upper()} {listed(ids)}"
            for verdict in _LISTED
            if (ids := [r for r in rule_ids if per_rule[r].verdict is verdict])
        )
        lines.append(f"  ONE CAUSE of {len(rule_ids)} rules ({by_verdict}): {message}{where}")
    blocked: dict[tuple[str, str], list[str]] = defaultdict(list)
    for rule_id, result in sorted(per_rule.items()):
        if result.verdict is Verdict.BLOCKED and result.deciding is not None:
            blocked[(result.deciding.blocker, first_line(result.deciding.said))].append(rule_id)
    for (blocker, message), rule_ids in blocked.items():
        lines.append(f"  BLOCKED {listed(rule_ids)} by {blocker_state(blocker, per_rule)}: {message}")
    settled = sorted(
        {
            o.test
            for result in per_rule.values()
            for o in result.outcomes
            if o.verdict is Verdict.BLOCKED and o.read_through
        }
    )
    if settled:
        lines.append(
            f"  note: pytest's lines show {len(settled)} tests as FAILED that are blocked "
            "here and in the reports: each failed a check that read the store through a "
            "rule this driver breaks, which the kit can tell only once every test has run"
        )
    partly: dict[tuple[Verdict, str, str], list[str]] = defaultdict(list)
    for rule_id, result in sorted(per_rule.items()):
        for caveat in result.caveats:  # an absent optional method's part is no news
            if caveat is not Verdict.NOT_IMPLEMENTED:
                part, reason = _gap(result, caveat)
                partly[(result.verdict, part, reason)].append(rule_id)
    for (verdict, part, reason), rule_ids in partly.items():
        shown = "PARTIAL PASS, partly" if verdict is Verdict.PARTIAL else "pass, but partly"
        because = f" ({reason})" if reason else ""
        lines.append(f"  {shown} {part}{because}: {listed(rule_ids)}")
    for verdict in _GROUPED:
        by_reason: dict[tuple[str, bool], list[str]] = defaultdict(list)
        for rule_id, result in sorted(per_rule.items()):
            if result.verdict is verdict:
                stopped = result.deciding is not None and bool(result.deciding.stopped_at)
                by_reason[(result.message, stopped)].append(rule_id)
        for (reason, stopped), rule_ids in by_reason.items():
            label = _NOT_REACHED if stopped else verdict.value
            lines.append(f"  {label} ({first_line(reason)}): {listed(rule_ids)}")
    lines += [f"  WARNING: {driver} {warning}" for warning in warnings]
    return lines


__all__ = ["MAX_CASES", "driver_summary", "shorten", "summary_line"]
