"""Reading the kit's JSON reports in the kit's own tests: every one is checked against the
published schema first, so a report the schema does not describe fails the test that wrote it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from aalis_memory.conformance.report_render import SCHEMA_PATH


def load_report(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    return data


def verdicts(report: dict[str, Any], driver: str) -> dict[str, str]:
    """Rule -> verdict of ``driver`` (empty when the driver is not in the report)."""
    rules = report.get("drivers", {}).get(driver, {}).get("rules", {})
    return {rule: entry["verdict"] for rule, entry in rules.items()}
