"""The Markdown matrix: rules down, drivers across, fit for a pull-request comment."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.conformance.verdicts.json_report import Results, kit_version
from aalis_memory.conformance.verdicts.model import Verdict, blocker_state, counts, first_line
from aalis_memory.conformance.verdicts.tiers import tier_cell, tier_line

#: Verdicts listed rule by rule under the matrix, with their message.
_LISTED: Final = (Verdict.FAIL, Verdict.ADVISORY, Verdict.KNOWN_FAILURE, Verdict.BLOCKED, Verdict.PARTIAL)

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
        if result.verdict in _LISTED
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


def write(path: Path, results: Results, strict: bool) -> None:
    path.write_text(as_markdown(results, strict), encoding="utf-8")


__all__ = ["SYMBOLS", "as_markdown", "write"]
