"""Run the kit's tests against mutants of the reference drivers and report what survives.

Each mutant gets one child interpreter (:mod:`mutation.child`) running the conformance suite
against the driver the module belongs to, plus the kit tests that exercise that module directly.
Failures are recorded per test, so one run tells whether the example tests, the state machine or
the kit tests killed it. A mutant counts as killed when the run fails (a failed test, or a suite
that cannot even import the driver), as timed out when it outlives the timeout.
"""

from __future__ import annotations

import ast
import json
import os
import pickle
import random
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final, Literal

import attrs

from mutation.child import group_of
from mutation.operators import Mutant, mutants, mutated_tree

REPO: Final = Path(__file__).resolve().parent.parent
SUITE: Final = "conformance/suite"
SETTINGS: Final = "tests/drivers/test_reference_settings.py"


def settings_tests(kind: str) -> tuple[str, ...]:
    """The constructor-setting checks of one reference driver (the suite never builds one)."""
    return tuple(
        f"{SETTINGS}::{test}[{kind}]"
        for test in (
            "test_default_caps",
            "test_caps_must_be_positive_integers",
            "test_size_and_nesting_limits_are_exact",
        )
    )


#: The scaling probe (PERF-01) runs too, on smaller sessions than its default (40 times the data
#: still shows a scan as 40x): a mutant that drops a cache or an early exit answers the same,
#: only slower, and this is the check that notices.
SCALING_SIZES: Final = "500,20000,100,4000"
EQUIVALENT_FILE: Final = Path(__file__).resolve().parent / "equivalent.toml"
#: The state machine's profile for its second look at a mutant the example tests let through
#: (the suite itself runs ``ci``: 40 histories; ``deep``: 300 of up to 40 steps).
MACHINE_PROFILE: Final = "deep"
#: That look's timeout, in mutant timeouts (deep runs about ten times the histories of ci).
MACHINE_FACTOR: Final = 4

Outcome = Literal["killed", "survived", "timeout", "equivalent"]


@attrs.frozen
class Target:
    """A module to mutate and the tests that must notice."""

    label: str
    path: str
    module: str
    drivers: tuple[str, ...]
    kit_tests: tuple[str, ...] = ()

    def pytest_args(self) -> list[str]:
        return [
            SUITE,
            *self.kit_tests,
            f"--memory-driver={','.join(self.drivers)}",
            "-q",
            "--no-header",
            "-p",
            "no:cacheprovider",
            "--memory-scaling",
            f"--memory-scaling-sizes={SCALING_SIZES}",
        ]

    def machine_args(self, profile: str) -> list[str]:
        """The state machine alone, under ``profile`` (the second look at an example survivor)."""
        return [
            SUITE,
            "-k",
            "state_machine",
            f"--memory-hypothesis-profile={profile}",
            f"--memory-driver={','.join(self.drivers)}",
            "-q",
            "--no-header",
            "-p",
            "no:cacheprovider",
        ]


TARGETS: Final = {
    t.label: t
    for t in (
        Target(
            "inmemory",
            "drivers/inmemory.py",
            "aalis_memory.drivers.inmemory",
            ("inmemory",),
            (*settings_tests("inmemory"), "tests/drivers/test_inmemory_driver.py"),
        ),
        # Shared by every driver: a mutant one driver's path never reaches must be caught on
        # the other's (SQLite checks timestamps of bounds and deletions the in-memory one never
        # sees).
        Target(
            "semantics",
            "drivers/semantics.py",
            "aalis_memory.drivers.semantics",
            ("inmemory", "sqlite"),
            (
                *settings_tests("inmemory"),
                *settings_tests("sqlite"),
                "tests/drivers/test_reference_timestamps.py",
            ),
        ),
        Target(
            "sqlite",
            "drivers/sqlite.py",
            "aalis_memory.drivers.sqlite",
            ("sqlite",),
            (
                *settings_tests("sqlite"),
                "tests/drivers/test_sqlite_driver.py",
                "tests/drivers/test_sqlite_lifecycle.py",
                "tests/drivers/test_sqlite_stamps_and_locks.py",
            ),
        ),
        # Needs a server (see README: MongoDB, Docker or FerretDB); not in the default set.
        Target("mongodb", "drivers/mongodb/__init__.py", "aalis_memory.drivers.mongodb", ("mongodb",)),
    )
}
DEFAULT_TARGETS: Final = ("inmemory", "semantics", "sqlite")


@attrs.frozen
class Equivalent:
    """A reviewed mutant that no test can kill because the behaviour does not change."""

    module: str
    function: str
    original: str
    mutated: str
    reason: str
    #: The mutant's key, only where one function holds the same change twice (a ``0 -> 1`` of
    #: which one occurrence is equivalent and the other is not).
    key: str = ""

    def matches(self, mutant: Mutant) -> bool:
        return (self.module, self.function, self.original, self.mutated) == (
            mutant.module,
            mutant.function,
            mutant.original,
            mutant.mutated,
        ) and self.key in ("", mutant.key)


def load_equivalents(path: Path = EQUIVALENT_FILE) -> list[Equivalent]:
    """The reviewed list; every entry must carry a one-line reason."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    found = []
    for entry in data.get("mutant", []):
        item = Equivalent(**entry)
        if not item.reason.strip() or "\n" in item.reason:
            raise ValueError(f"{path}: equivalent mutant needs a one-line reason: {item}")
        found.append(item)
    return found


@attrs.frozen
class Result:
    mutant: Mutant
    outcome: Outcome
    #: Which groups of tests failed: "examples", "state machine", "kit" (empty when none ran).
    killed_by: tuple[str, ...] = ()
    seconds: float = 0.0
    reason: str = ""


def run_one(
    target: Target,
    source: str,
    index: int | None,
    timeout: float,
    workdir: Path,
    pytest_args: Sequence[str] | None = None,
    tag_suffix: str = "",
) -> tuple[int | None, list[str], float]:
    """One child run of mutant ``index`` of ``source`` (``None``: unmutated): exit code (``None``
    on timeout), failed test ids, seconds. The source travels with the run, so editing the file
    meanwhile cannot shift the mutants. ``pytest_args`` replaces the target's usual run."""
    tag = ("baseline" if index is None else str(index)) + tag_suffix
    failures = workdir / f"{target.label}-{tag}.failures"
    spec = workdir / f"{target.label}-{tag}.json"
    failures.write_text("", encoding="utf-8")
    tree = workdir / f"{target.label}-{tag}.ast"
    tree.write_bytes(pickle.dumps(ast.parse(source) if index is None else mutated_tree(source, index)))
    spec.write_text(
        json.dumps(
            {
                "module": target.module,
                "path": str(REPO / target.path),
                "tree": str(tree),
                "pytest_args": list(pytest_args or target.pytest_args()),
                "failures": str(failures),
            }
        ),
        encoding="utf-8",
    )
    start = time.monotonic()
    with (workdir / f"{target.label}-{tag}.log").open("w", encoding="utf-8") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "mutation.child", str(spec)],
            cwd=REPO,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            code: int | None = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the child's own group: it and anything it started
            proc.wait()
            code = None
    failed = [line for line in failures.read_text(encoding="utf-8").splitlines() if line]
    return code, failed, time.monotonic() - start


def select(found: Sequence[Mutant], sample: int | None, seed: int, only: str | None) -> list[Mutant]:
    """A seeded sample (the same seed always picks the same mutants of an unchanged module)."""
    pool = [m for m in found if only is None or only in m.key]
    if sample is None or sample >= len(pool):
        return list(pool)
    rng = random.Random(f"{seed}:{pool[0].module}")
    return sorted(rng.sample(pool, sample), key=lambda m: m.index)


def run_target(
    target: Target,
    source: str,
    chosen: Sequence[Mutant],
    equivalents: Sequence[Equivalent],
    jobs: int,
    timeout: float | None,
    workdir: Path,
    progress: bool = True,
    machine_profile: str | None = MACHINE_PROFILE,
) -> tuple[list[Result], float]:
    """Run every chosen mutant of ``source`` (the text of ``target``'s module the mutants were
    listed from); returns the results and the seconds of the unmutated run.

    A mutant the example tests did not kill gets a second look from the state machine alone
    under ``machine_profile`` (``None``: no second look): the suite's own run uses the quick
    ``ci`` profile, and what the machine finds with more histories is what it adds to the
    example tests."""
    code, failed, baseline = run_one(target, source, None, 1800, workdir)
    if code != 0:
        raise RuntimeError(
            f"{target.label}: the unmutated run fails (exit {code}; {failed[:5]}); see "
            f"{workdir / f'{target.label}-baseline.log'}"
        )
    limit = timeout if timeout is not None else 3 * baseline + 15

    def one(mutant: Mutant) -> Result:
        if any(e.matches(mutant) for e in equivalents):
            return Result(mutant, "equivalent")
        code, failed, seconds = run_one(target, source, mutant.index, limit, workdir)
        groups = tuple(sorted({group_of(f) for f in failed}))
        if code is None:
            return Result(mutant, "timeout", groups, seconds)
        note = ""
        if (
            machine_profile is not None
            and "examples" not in groups
            and "state machine" not in groups
            and (code == 0 or failed)
        ):
            again, found, more = run_one(
                target,
                source,
                mutant.index,
                MACHINE_FACTOR * limit,
                workdir,
                target.machine_args(machine_profile),
                "-machine",
            )
            seconds += more
            if again is None:
                note = f"state machine ({machine_profile} profile) timed out"
            elif again != 0 and found:
                groups = tuple(sorted({*groups, "state machine"}))
                note = f"state machine: {machine_profile} profile"
        if not groups and code == 0:
            return Result(mutant, "survived", (), seconds, note)
        reason = note or ("" if failed else f"exit {code} before any test failed (import or collection)")
        return Result(mutant, "killed", groups, seconds, reason)

    results: list[Result] = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(one, chosen):
            results.append(result)
            if progress:
                m = result.mutant
                print(
                    f"  [{len(results)}/{len(chosen)}] {target.label}:{m.line} {m.operator:<12} "
                    f"{result.outcome:<10} {'+'.join(result.killed_by)}",
                    flush=True,
                )
    return results, baseline


def summary(results: Iterable[Result]) -> dict[str, Any]:
    items = list(results)
    count = {
        o: sum(1 for r in items if r.outcome == o) for o in ("killed", "survived", "timeout", "equivalent")
    }
    judged = count["killed"] + count["survived"] + count["timeout"]
    detected = count["killed"] + count["timeout"]
    killed = [r for r in items if r.outcome == "killed"]
    return {
        **count,
        "score": round(100 * detected / judged, 1) if judged else None,
        # The machine against the example tests (the two halves of the conformance suite): a
        # kit test failing as well does not make the machine's kill any less its own.
        "only_state_machine": sum(
            1 for r in killed if "state machine" in r.killed_by and "examples" not in r.killed_by
        ),
        "only_examples": sum(
            1 for r in killed if "examples" in r.killed_by and "state machine" not in r.killed_by
        ),
        "only_kit": sum(1 for r in killed if r.killed_by == ("kit",)),
    }


def stale_equivalents(equivalents: Sequence[Equivalent], labels: Iterable[str]) -> list[Equivalent]:
    """Entries of the reviewed list that match no current mutant of the given modules."""
    current: list[Mutant] = []
    for label in labels:
        target = TARGETS[label]
        current += mutants(label, (REPO / target.path).read_text(encoding="utf-8"))
    return [e for e in equivalents if e.module in labels and not any(e.matches(m) for m in current)]
