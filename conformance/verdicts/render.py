"""The verdicts written out: the terminal summary, the JSON report and the Markdown matrix.

All three are built from the same per-driver :class:`RuleVerdict` mapping, so they cannot
disagree. The JSON follows ``report.schema.json`` (shipped in the package).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, Final

from aalis_memory.conformance.registration import capability_fields, registry, tiers
from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.conformance.verdicts.model import LEANED_ON, RuleVerdict, Verdict, counts, summary_line

#: Per driver, per rule: everything a report shows.
Results = Mapping[str, Mapping[str, RuleVerdict]]

SCHEMA_PATH: Final = Path(__file__).resolve().parent / "report.schema.json"
SCHEMA_VERSION: Final = 3

#: How the reason of a rule left unchecked because its test stopped at another rule's failure
#: begins: that is no "the kit could not check it here", so the summary words it apart.
STOPPED_FIRST: Final = "not checked: the test stopped at "
_NOT_REACHED: Final = "not reached"


def _gap(result: RuleVerdict, caveat: Verdict) -> tuple[str, str]:
    """How the summary names a part of a passing rule that did not pass, and why (the reason of
    its first such outcome; a tier's exclusion is listed by rule alone, as before)."""
    found = next((o for o in result.outcomes if o.verdict is caveat), None)
    reason = first_line(found.message) if found is not None else ""
    if caveat is Verdict.BLOCKED and found is not None and found.blocker:
        return caveat.value, f"by {found.blocker}"
    if caveat is Verdict.UNVERIFIED and reason.startswith(STOPPED_FIRST):
        return _NOT_REACHED, reason.removeprefix("not checked: ")
    return caveat.value, reason if caveat is Verdict.UNVERIFIED else ""


#: Verdicts listed rule by rule in the summary, with their message; the rest are grouped.
_LISTED: Final = (Verdict.FAIL, Verdict.ADVISORY, Verdict.KNOWN_FAILURE)
_GROUPED: Final = (Verdict.NOT_IMPLEMENTED, Verdict.EXCLUDED, Verdict.UNVERIFIED, Verdict.NOT_RUN)

#: The Markdown matrix's cell for each verdict (the legend under the table spells them out).
SYMBOLS: Final = {
    Verdict.PASS: "✅",
    Verdict.FAIL: "❌",
    Verdict.ADVISORY: "⚠️",
    Verdict.KNOWN_FAILURE: "🟡",
    Verdict.PARTIAL: "☑️",
    Verdict.BLOCKED: "🚧",
    Verdict.NOT_IMPLEMENTED: "—",
    Verdict.EXCLUDED: "🔸",
    Verdict.UNVERIFIED: "❔",
    Verdict.NOT_RUN: "⏭️",
}


def kit_version() -> str:
    try:
        return metadata.version("aalis-memory-conformance")
    except metadata.PackageNotFoundError:
        return "unknown"


def _registration(driver: str) -> registry.DriverRegistration | None:
    try:
        return registry.get(driver)
    except LookupError:
        return None


def tier_line(driver: str) -> tuple[str, list[str]]:
    """The declared tiers of ``driver`` and the warnings about them (for ``provider@driver``:
    what the provider was run over)."""
    if "@" in driver:
        provider, over = driver.split("@", 1)
        return f"compression provider {provider}, over driver {over}", []
    found = _registration(driver)
    if found is None:
        return "tiers unknown", []
    caps = found.capabilities
    return tiers.describe(caps), tiers.weaker_than_granted(caps, found.documented_backend)


def tier_cell(driver: str) -> str:
    """The Markdown matrix's tiers of ``driver``: every field of its capabilities, by name."""
    found = None if "@" in driver else _registration(driver)
    return tier_line(driver)[0] if found is None else capability_fields.as_text(found.capabilities)


def first_line(text: str) -> str:
    return text.split("\n", 1)[0]


#: Rule IDs shown on one summary line before the rest are counted (the reports list them all).
MAX_LISTED: Final = 12


def listed(rule_ids: list[str]) -> str:
    if len(rule_ids) <= MAX_LISTED:
        return ", ".join(rule_ids)
    return f"{', '.join(rule_ids[:MAX_LISTED])} and {len(rule_ids) - MAX_LISTED} more"


# -- terminal ------------------------------------------------------------------------------


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
        message = first_line(first.message)
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
            blocked[(result.deciding.blocker, first_line(result.message))].append(rule_id)
    for (blocker, message), rule_ids in blocked.items():
        lines.append(
            f"  BLOCKED {listed(rule_ids)} by {blocker_state(blocker, per_rule)}: "
            f"{message.removeprefix(f'blocked by {blocker}: ')}"
        )
    settled = sorted(
        {
            o.test
            for result in per_rule.values()
            for o in result.outcomes
            if o.verdict is Verdict.BLOCKED and o.message.startswith(f"blocked by {o.blocker}: {LEANED_ON}")
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
        by_reason: dict[str, list[str]] = defaultdict(list)
        for rule_id, result in sorted(per_rule.items()):
            if result.verdict is verdict:
                by_reason[result.message].append(rule_id)
        for reason, rule_ids in by_reason.items():
            label = _NOT_REACHED if reason.startswith(STOPPED_FIRST) else verdict.value
            lines.append(f"  {label} ({first_line(reason)}): {listed(rule_ids)}")
    lines += [f"  WARNING: {driver} {warning}" for warning in warnings]
    return lines


def blocker_state(blocker: str, per_rule: Mapping[str, RuleVerdict]) -> str:
    """``ARCH-01 (fail)``: the blocking rule with its own verdict for this driver."""
    found = per_rule.get(blocker)
    return f"{blocker} ({found.verdict.value if found else Verdict.NOT_RUN.value})"


# -- JSON ----------------------------------------------------------------------------------


def as_json(results: Results, strict: bool) -> dict[str, Any]:
    return {
        "schema": SCHEMA_VERSION,
        "kit": {"name": "aalis-memory-conformance", "version": kit_version()},
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "strict": strict,
        "drivers": {driver: driver_json(driver, per_rule) for driver, per_rule in sorted(results.items())},
    }


def driver_json(driver: str, per_rule: Mapping[str, RuleVerdict]) -> dict[str, Any]:
    found = _registration(driver)
    declared, warnings = tier_line(driver)
    return {
        "capabilities": {
            **capability_fields.as_record(found.capabilities if found else None),
            "raw_metadata": bool(found and found.raw_metadata is not None),
            "summary": declared,
        },
        "documented_backend": found.documented_backend if found else None,
        "tier_warnings": warnings,
        "totals": {v.value: n for v, n in counts(r.verdict for r in per_rule.values()).items()},
        "rules": {
            rule_id: rule_json(rule_id, result, per_rule) for rule_id, result in sorted(per_rule.items())
        },
    }


def rule_json(rule_id: str, result: RuleVerdict, per_rule: Mapping[str, RuleVerdict]) -> dict[str, Any]:
    rule = CATALOGUE.get(rule_id)
    return {
        "level": rule.level.value if rule else None,
        "text": rule.summary if rule else None,
        "verdict": result.verdict.value,
        "blocked_by": [
            {
                "rule": blocker,
                "verdict": (per_rule[blocker].verdict if blocker in per_rule else Verdict.NOT_RUN).value,
            }
            for blocker in result.blockers
        ],
        # empty for a pass, unless its test noted what it found (the scaling probe's timings)
        "message": result.message,
        "cases": list(result.deciding.cases) if result.deciding else [],
        "caveats": [v.value for v in result.caveats],
        "messages": list(
            dict.fromkeys(o.message for o in result.outcomes if o.message and o.verdict is not Verdict.PASS)
        ),
        "tests": [
            {
                "id": o.test,
                "verdict": o.verdict.value,
                "message": o.message,
                "where": o.where,
                "duration": round(o.duration, 6),
                "blocker": o.blocker,
            }
            for o in result.outcomes
        ],
    }


# -- Markdown ------------------------------------------------------------------------------


def as_markdown(results: Results, strict: bool) -> str:
    """A conformance matrix (rules down, drivers across) fit for a pull-request comment."""
    drivers = sorted(results)
    rule_ids = sorted({rule for per_rule in results.values() for rule in per_rule}, key=_catalogue_order)
    mode = "strict" if strict else "default (a failed SHOULD rule is an advisory)"
    lines = [
        "## Aalis MemoryService conformance",
        "",
        f"aalis-memory-conformance {kit_version()}, mode: {mode}.",
        "",
        "| driver | tiers | " + " | ".join(v.value for v in Verdict) + " |",
        "|---|---|" + "---:|" * len(Verdict),
    ]
    for driver in drivers:
        found = counts(r.verdict for r in results[driver].values())
        lines.append(
            f"| `{driver}` | {tier_cell(driver)} | " + " | ".join(str(found[v]) for v in Verdict) + " |"
        )
    lines += [
        "",
        "| rule | level | " + " | ".join(f"`{d}`" for d in drivers) + " |",
        "|---|---|" + ":---:|" * len(drivers),
    ]
    for rule_id in rule_ids:
        rule = CATALOGUE.get(rule_id)
        cells = []
        for driver in drivers:
            result = results[driver].get(rule_id)
            cells.append(SYMBOLS[result.verdict] if result else "")
        level = rule.level.value if rule else "?"
        lines.append(f"| {rule_id} | {level} | " + " | ".join(cells) + " |")
    legend = ", ".join(f"{symbol} {verdict.value}" for verdict, symbol in SYMBOLS.items())
    lines += ["", f"Legend: {legend}."]
    problems = [
        (driver, rule_id, result)
        for driver in drivers
        for rule_id, result in sorted(results[driver].items(), key=lambda i: _catalogue_order(i[0]))
        if result.verdict in (*_LISTED, Verdict.BLOCKED, Verdict.PARTIAL)
    ]
    if problems:
        lines += ["", "### Failures, advisories, blocked and partial rules", ""]
        for driver, rule_id, result in problems:
            text = first_line(result.message).replace("|", "\\|")
            state = result.verdict.value
            if result.verdict is Verdict.BLOCKED:
                state += " by " + ", ".join(blocker_state(b, results[driver]) for b in result.blockers)
            lines.append(f"- `{driver}` **{rule_id}** ({state}): {text}")
    warnings = [(d, w) for d in drivers for w in tier_line(d)[1]]
    if warnings:
        lines += ["", "### Tier warnings", ""]
        lines += [f"- `{driver}` {warning}" for driver, warning in warnings]
    return "\n".join(lines) + "\n"


def _catalogue_order(rule_id: str) -> tuple[int, str]:
    order = list(CATALOGUE)
    return (order.index(rule_id), rule_id) if rule_id in CATALOGUE else (len(order), rule_id)


def write_reports(paths: list[str], results: Results, strict: bool) -> None:
    """Each path ending in ``.md`` gets the Markdown matrix, any other the JSON report."""
    import json

    for path in paths:
        target = Path(path)
        if target.suffix.lower() in (".md", ".markdown"):
            target.write_text(as_markdown(results, strict), encoding="utf-8")
        else:
            target.write_text(
                json.dumps(as_json(results, strict), indent=2, sort_keys=True, ensure_ascii=False),
                encoding="utf-8",
            )


__all__ = [
    "SCHEMA_PATH",
    "as_json",
    "as_markdown",
    "driver_summary",
    "tier_line",
    "write_reports",
]
