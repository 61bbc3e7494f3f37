"""The frozen verdict matrix: what every driver the kit ships gets, rule by rule, kept in
``tests/matrix/<sweep>.json`` so that a change that moves any verdict shows as a failing test.

An entry holds what the kit decides, never what a run happens to measure: per rule its verdict,
its caveats and its ``blocked_by`` list, and per test of the rule the test's id, verdict and
blocker. Messages, cases, durations and timestamps are left out (they hold run-specific values:
generated histories, epoch readings, temporary paths).

Each sweep's tests compare the drivers they ran with the file (:func:`check`), so a ``-k`` run of
a few drivers compares those. A maintainer who changes a verdict on purpose refreshes the files
with ``AALIS_FREEZE_MATRIX=1`` (see CONTRIBUTING.md, "The frozen verdict matrix") and says why
in CHANGELOG.md; without it the files are only read.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

#: Where the frozen matrices live: one folder per sweep, one file per driver.
MATRIX_DIR: Final = Path(__file__).resolve().parent / "matrix"

#: The one switch that rewrites the frozen files (set to 1); nothing else ever writes them.
FREEZE: Final = "AALIS_FREEZE_MATRIX"

#: One driver's matrix: rule -> its entry (see :func:`entry`).
Matrix = dict[str, dict[str, Any]]


def freezing() -> bool:
    return os.environ.get(FREEZE) == "1"


def entry(rule: Mapping[str, Any], driver: str) -> dict[str, Any]:
    """The deterministic part of one rule's report entry. Each test is one line, ``id: verdict``
    (``blocked by RULE`` when it was), without the ``[driver]`` every id of the driver ends
    with; they are sorted: the order in which a run reports them is not a verdict."""
    return {
        "verdict": rule["verdict"],
        "caveats": list(rule["caveats"]),
        "blocked_by": [f"{b['rule']}: {b['verdict']}" for b in rule["blocked_by"]],
        "tests": sorted(
            f"{t['id'].removesuffix(f'[{driver}]')}: {t['verdict']}"
            + (f" (blocked by {t['blocker']})" if t["blocker"] else "")
            for t in rule["tests"]
        ),
    }


def driver_matrix(report: Mapping[str, Any], driver: str, unstable: Iterable[str] = ()) -> Matrix:
    """``driver``'s matrix in ``report`` (empty when the report does not hold it), without the
    rules in ``unstable`` (each sweep says why a rule is left out)."""
    rules: Mapping[str, Any] = report.get("drivers", {}).get(driver, {}).get("rules", {})
    left_out = set(unstable)
    return {rule: entry(found, driver) for rule, found in sorted(rules.items()) if rule not in left_out}


def path_of(sweep: str, driver: str) -> Path:
    """``tests/matrix/<sweep>/<driver>.json`` (a ``:`` in a driver's name, as in
    ``stdio:NAME``, is a ``_``: a file name cannot hold it everywhere)."""
    return MATRIX_DIR / sweep / f"{driver.replace(':', '_')}.json"


def frozen_drivers(sweep: str) -> dict[str, Path]:
    """The drivers ``sweep`` has a frozen matrix of, and their files."""
    return {
        json.loads(path.read_text(encoding="utf-8"))["driver"]: path
        for path in sorted((MATRIX_DIR / sweep).glob("*.json"))
    }


def load(sweep: str, driver: str) -> Matrix | None:
    path = path_of(sweep, driver)
    if not path.exists():
        return None
    found: Matrix = json.loads(path.read_text(encoding="utf-8"))["rules"]
    return found


def dump(driver: str, matrix: Matrix) -> str:
    """JSON with sorted keys and one rule per line, so that a refresh's diff reads rule by rule."""
    lines = ",\n".join(
        f"    {json.dumps(rule)}: {json.dumps(found, sort_keys=True)}"
        for rule, found in sorted(matrix.items())
    )
    return f'{{\n  "driver": {json.dumps(driver)},\n  "rules": {{\n{lines}\n  }}\n}}\n'


def write(sweep: str, driver: str, matrix: Matrix) -> None:
    path = path_of(sweep, driver)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump(driver, matrix), encoding="utf-8")


def differences(driver: str, frozen: Matrix, found: Matrix) -> list[str]:
    """What changed in ``driver``'s matrix, one line per rule and field (empty: nothing)."""
    lines = []
    for rule in sorted(set(frozen) | set(found)):
        if rule not in found:
            lines.append(f"{driver} {rule}: no longer reported (frozen: {frozen[rule]['verdict']})")
            continue
        if rule not in frozen:
            lines.append(f"{driver} {rule}: newly reported ({found[rule]['verdict']})")
            continue
        before, after = frozen[rule], found[rule]
        for field in ("verdict", "caveats", "blocked_by"):
            if before[field] != after[field]:
                lines.append(f"{driver} {rule}: {field} {before[field]} -> {after[field]}")
        old: Counter[str] = Counter(before["tests"])
        new: Counter[str] = Counter(after["tests"])
        gone, came = old - new, new - old
        lines.extend(f"{driver} {rule}: - test {test}" for test in sorted(gone.elements()))
        lines.extend(f"{driver} {rule}: + test {test}" for test in sorted(came.elements()))
    return lines


def check(sweep: str, driver: str, found: Matrix) -> None:
    """Fail, with a per-rule diff, when ``driver``'s matrix in ``sweep`` is not the frozen one;
    under ``AALIS_FREEZE_MATRIX=1`` record it instead."""
    assert found, f"{driver} is not in the {sweep} run's report"
    if freezing():
        write(sweep, driver, found)
        return
    frozen = load(sweep, driver)
    where = path_of(sweep, driver).relative_to(MATRIX_DIR.parent.parent)
    assert frozen is not None, f"{driver} has no frozen matrix ({where}): record it with {FREEZE}=1"
    changed = differences(driver, frozen, found)
    assert not changed, (
        f"{driver}'s verdict matrix changed ({len(changed)} difference(s), frozen -> found):\n"
        + "\n".join(changed)
        + f"\nIf the change is meant, refresh {where} with {FREEZE}=1 and give its reason in "
        "CHANGELOG.md (CONTRIBUTING.md, 'The frozen verdict matrix')."
    )


def check_drivers(sweep: str, expected: Iterable[str]) -> None:
    """The frozen folder of ``sweep`` holds exactly the sweep's drivers: one that is gone would
    keep a stale file, one that is new would have nothing to compare with. Under the switch,
    a stale file is removed (a new one is recorded by the driver's own test)."""
    frozen = frozen_drivers(sweep)
    wanted = set(expected)
    if freezing():
        for driver, path in frozen.items():
            if driver not in wanted:
                path.unlink()
        return
    assert set(frozen) == wanted, (
        f"tests/matrix/{sweep}: frozen but not run {sorted(set(frozen) - wanted)}, "
        f"run but not frozen {sorted(wanted - set(frozen))}; refresh with {FREEZE}=1"
    )
