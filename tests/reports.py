"""Reading the kit's JSON reports in the kit's own tests: every one is checked against the
published schema first, so a report the schema does not describe fails the test that wrote it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema

from aalis_memory.conformance.verdicts.json_report import SCHEMA_PATH


def load_report(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    return data


def rules(report: dict[str, Any], driver: str) -> dict[str, Any]:
    """Rule -> full report entry of ``driver`` (verdict, message, messages, tests...); empty
    when the driver is not in the report."""
    found: dict[str, Any] = report.get("drivers", {}).get(driver, {}).get("rules", {})
    return found


def verdicts(report: dict[str, Any], driver: str) -> dict[str, str]:
    """Rule -> verdict of ``driver``."""
    return {rule: entry["verdict"] for rule, entry in rules(report, driver).items()}


def failing(report: dict[str, Any], driver: str) -> dict[str, Any]:
    """The entries of ``driver``'s rules whose verdict is ``fail``."""
    return {rule: entry for rule, entry in rules(report, driver).items() if entry["verdict"] == "fail"}


def slow_round_trip(rule: str, entry: dict[str, Any]) -> bool:
    """META-05's partial pass for a driver beyond the kit's process (a stdio adapter's pipe, the
    MongoDB server): its same-millisecond phase is never arranged there, and the kit says so in
    the same words every run (conformance/suite/metadata.py, ``UNARRANGED``)."""
    return (
        rule == "META-05"
        and entry["verdict"] == "partial pass"
        and entry["message"].startswith("its same-millisecond phase cannot be arranged over a ")
    )


def uncarried_integer(rule: str, entry: dict[str, Any]) -> bool:
    """META-01's partial pass through a transport whose numbers stop at 2**53 - 1 (JavaScript's):
    the saved document holds 2**53, which the transport cannot carry, so that test is
    ``unverified`` and says so; the rule's other tests pass."""
    return (
        rule == "META-01"
        and entry["verdict"] == "partial pass"
        and entry["message"].startswith("the JavaScript transport cannot carry the integer 9007199254740992")
    )


def messages(entry: dict[str, Any]) -> list[str]:
    """The messages of the tests that gave one rule entry its verdict (a failing rule's
    failures, not the notes of its deselected or skipped tests)."""
    return [test["message"] for test in entry["tests"] if test["verdict"] == entry["verdict"]]


def conformance_summary(output: str) -> str:
    """The kit's own section of a run's terminal output: from its ``aalis memory conformance``
    line to the next section line (pytest's short summary, whose lines hold whole failure
    messages under ``CI=true``, is not part of it)."""
    section = output.split("aalis memory conformance", 1)[1]
    found = re.search(r"^=+ ", section, re.M)
    return section if found is None else section[: found.start()]
