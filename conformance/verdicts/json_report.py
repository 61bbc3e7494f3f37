"""The JSON report: every driver's verdict of every rule with every test's record, following
``report.schema.json`` (shipped in the package)."""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any, Final

from aalis_memory.conformance.registration import capability_fields
from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.conformance.verdicts.model import RuleVerdict, Verdict, counts
from aalis_memory.conformance.verdicts.tiers import registration, tier_line

#: Per driver, per rule: everything a report shows.
Results = Mapping[str, Mapping[str, RuleVerdict]]

SCHEMA_PATH: Final = Path(__file__).resolve().parent / "report.schema.json"
SCHEMA_VERSION: Final = 3


def kit_version() -> str:
    try:
        return metadata.version("aalis-memory-conformance")
    except metadata.PackageNotFoundError:
        return "unknown"


def as_json(results: Results, strict: bool) -> dict[str, Any]:
    return {
        "schema": SCHEMA_VERSION,
        "kit": {"name": "aalis-memory-conformance", "version": kit_version()},
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "strict": strict,
        "drivers": {driver: driver_json(driver, per_rule) for driver, per_rule in sorted(results.items())},
    }


def driver_json(driver: str, per_rule: Mapping[str, RuleVerdict]) -> dict[str, Any]:
    found = registration(driver)
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


def write(path: Path, results: Results, strict: bool) -> None:
    path.write_text(
        json.dumps(as_json(results, strict), indent=2, sort_keys=True, ensure_ascii=False), encoding="utf-8"
    )


__all__ = ["SCHEMA_PATH", "Results", "as_json", "kit_version", "write"]
