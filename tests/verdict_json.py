"""Reading the ``--memory-report`` JSON in kit tests, whichever layout the report writes.

The report is being reshaped (``{"drivers": {name: {"rules": {...}}}}`` instead of
``{name: {...}}``); tests that only need a driver's rule verdicts read them through here.
"""

from __future__ import annotations

from typing import Any


def rule_verdicts(report: dict[str, Any], driver: str) -> dict[str, Any]:
    """``{rule_id: {"verdict": ..., "messages": [...], ...}}`` of ``driver`` (empty if absent)."""
    drivers = report.get("drivers", report)
    per_driver = drivers.get(driver, {}) if isinstance(drivers, dict) else {}
    rules = per_driver.get("rules", per_driver)
    return rules if isinstance(rules, dict) else {}


def failing(report: dict[str, Any], driver: str) -> dict[str, Any]:
    """The rules of ``driver`` whose verdict is ``fail``, with their results."""
    return {rule: result for rule, result in rule_verdicts(report, driver).items()
            if result.get("verdict") == "fail"}


def messages(result: dict[str, Any]) -> list[str]:
    """The messages of one rule's result (a list today, one ``message`` in the new layout)."""
    if "messages" in result:
        return list(result["messages"])
    return [str(result["message"])] if result.get("message") else []
