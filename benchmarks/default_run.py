"""An author's default run, timed: ``pytest --memory-driver=X`` from an empty folder, for the
in-process drivers, the TypeScript reference through the stdio bridge and a compiled stdio
backend, and the README's first command; the runs take turns (one of each, then again), so a
machine that slows down slows every backend alike, and each ratio is of medians of one call.

pytest's own time (its last line) is what the issue's targets speak of; the wall time adds the
interpreter's and the plugin's start. Each run is also given as a ratio to sqlite: a backend that
declares durability (the Go example does) runs the crash campaign, as sqlite does and inmemory
cannot: that ratio compares runs with the same costly tests in them (a backend that implements
fewer optional methods still runs fewer tests in all).

Build the bridge (``cd bridges/typescript && npm ci && npm run build``) and, for a compiled
backend, the Go example (``cd examples/go-backend && go build -o go-memory .``) first; a backend
that is not built is left out, saying so. Run from the repository root::

    python benchmarks/default_run.py [--repetitions=5] [--compiled=examples/go-backend/go-memory]
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TYPESCRIPT = ROOT / "bridges" / "typescript" / "dist" / "cjs" / "reference.js"
COMPILED = ROOT / "examples" / "go-backend" / "go-memory"
#: An author's shell: Python keeps its compiled modules (a machine that sets
#: PYTHONDONTWRITEBYTECODE compiles the kit and Hypothesis again on every start, about 1.5 s).
ENVIRONMENT = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
#: pytest's summary line: "466 passed, 10 skipped in 11.14s".
SUMMARY = re.compile(r"(\d+) passed.* in ([\d.]+)s")


def runs(compiled: Path) -> dict[str, list[str]]:
    found = {
        "inmemory": ["--memory-driver=inmemory"],
        "sqlite": ["--memory-driver=sqlite"],
        "README's first command (inmemory,sqlite)": ["--memory-driver=inmemory,sqlite"],
    }
    for name, command in (
        ("TypeScript reference (stdio)", f"node {shlex.quote(str(TYPESCRIPT))}"),
        (f"compiled stdio backend ({compiled.name})", shlex.quote(str(compiled.resolve()))),
    ):
        path = Path(shlex.split(command)[-1])
        if path.exists():
            found[name] = ["--memory-driver=stdio", f"--memory-stdio-command={command}"]
        else:
            print(f"left out: {name}: {path} is not built", file=sys.stderr)
    return found


def once(arguments: list[str]) -> tuple[float, float, str]:
    """pytest's own seconds, the wall seconds and the summary line of one run."""
    with tempfile.TemporaryDirectory() as empty:
        started = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *arguments],
            cwd=empty,
            capture_output=True,
            text=True,
            env=ENVIRONMENT,
        )
        wall = time.perf_counter() - started
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    match = SUMMARY.search(last)
    if proc.returncode != 0 or match is None:
        raise SystemExit(f"pytest {' '.join(arguments)} failed ({proc.returncode}):\n{proc.stdout[-3000:]}")
    return float(match.group(2)), wall, last.strip("= ")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument(
        "--compiled", type=Path, default=COMPILED, help="a compiled stdio backend's executable"
    )
    args = parser.parse_args()
    plan = runs(args.compiled)
    own: dict[str, list[float]] = {name: [] for name in plan}
    wall: dict[str, list[float]] = {name: [] for name in plan}
    lines: dict[str, str] = {}
    for _ in range(args.repetitions):
        for name, arguments in plan.items():
            seconds, whole, lines[name] = once(arguments)
            own[name].append(seconds)
            wall[name].append(whole)
    print(
        f"{platform.node()} {platform.machine()} Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}, {args.repetitions} runs each, medians (min-max)"
    )
    base, durable = statistics.median(own["inmemory"]), statistics.median(own["sqlite"])
    for name in plan:
        middle = statistics.median(own[name])
        print(
            f"{name:42} pytest {middle:6.2f} s ({min(own[name]):.2f}-{max(own[name]):.2f}), "
            f"wall {statistics.median(wall[name]):6.2f} s, {middle / base:4.2f}x inmemory, "
            f"{middle / durable:4.2f}x sqlite; {lines[name]}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
