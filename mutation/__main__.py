"""``python -m mutation``: mutate the reference drivers, run the kit per mutant, write a report.

Default: a seeded sample of each of inmemory, semantics and sqlite (bounded for two cores);
``--all`` runs every mutant; ``--rerun REPORT`` runs only the survivors and timeouts of an earlier
report. The report (JSON and Markdown) lists killed, survived, timed out and equivalent mutants
per module, which test groups killed each one, and every survivor with file, line and code.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mutation.operators import Mutant, mutants
from mutation.run import (
    DEFAULT_TARGETS,
    MACHINE_PROFILE,
    REPO,
    TARGETS,
    Result,
    load_equivalents,
    run_target,
    select,
    stale_equivalents,
    summary,
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m mutation", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--modules",
        default=",".join(DEFAULT_TARGETS),
        help=f"comma list of {', '.join(TARGETS)} (default: %(default)s)",
    )
    parser.add_argument(
        "--sample", type=int, default=40, help="mutants drawn per module (default: %(default)s)"
    )
    parser.add_argument("--all", action="store_true", help="every mutant (overrides --sample)")
    parser.add_argument("--seed", type=int, default=16, help="sampling seed (default: %(default)s)")
    parser.add_argument("--only", default=None, help="only mutants whose key contains this text")
    parser.add_argument(
        "--rerun", type=Path, default=None, help="re-run the survivors and timeouts of this report.json"
    )
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once (default: 1)")
    parser.add_argument(
        "--timeout", type=float, default=None, help="seconds per mutant (default: 3 x the unmutated run + 15)"
    )
    parser.add_argument("--nice", type=int, default=15, help="niceness of the run (default: 15)")
    parser.add_argument(
        "--machine-profile",
        choices=("deep", "ci", "none"),
        default=MACHINE_PROFILE,
        help="profile of the state machine's second look at a mutant the example "
        "tests let through; none: no second look (default: %(default)s)",
    )
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument(
        "--output", type=Path, default=REPO / ".mutation", help="report folder (default: .mutation/)"
    )
    return parser


def _rerun_keys(path: Path) -> set[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        m["key"]
        for module in data["modules"].values()
        for m in module["mutants"]
        if m["outcome"] in ("survived", "timeout")
    }


def _mutant_json(result: Result) -> dict[str, Any]:
    m = result.mutant
    return {
        "key": m.key,
        "id": m.short_id,
        "index": m.index,
        "line": m.line,
        "function": m.function,
        "operator": m.operator,
        "original": m.original,
        "mutated": m.mutated,
        "outcome": result.outcome,
        "killed_by": list(result.killed_by),
        "seconds": round(result.seconds, 2),
        "note": result.reason,
    }


def _markdown(report: dict[str, Any]) -> str:
    size = "every mutant" if report["sample"] is None else f"sample {report['sample']} per module"
    if report.get("rerun"):
        size = f"survivors and timeouts of {report['rerun']}"
    lines = [
        f"# Mutation report (seed {report['seed']}, {size})",
        "",
        "| module | mutants | run | killed | survived | timeout | equivalent | score | "
        "only state machine | only examples | only kit tests |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, module in report["modules"].items():
        s = module["summary"]
        score = "n/a" if s["score"] is None else f"{s['score']}%"
        lines.append(
            f"| {label} | {module['total']} | {len(module['mutants'])} | {s['killed']} | "
            f"{s['survived']} | {s['timeout']} | {s['equivalent']} | {score} | "
            f"{s['only_state_machine']} | {s['only_examples']} | {s['only_kit']} |"
        )
    profile = report.get("machine_profile", "none")
    lines += [
        "",
        "Score: (killed + timed out) / (run - equivalent)."
        + (
            ""
            if profile == "none"
            else " A mutant the example tests let through gets a second look from the state "
            f"machine alone under its {profile} profile (the suite's own run uses ci)."
        ),
    ]
    for label, module in report["modules"].items():
        path = module["path"]
        for title, wanted in (
            ("Survivors", "survived"),
            ("Timed out", "timeout"),
            ("Killed by the state machine but not the example tests", "sm"),
            ("Killed by the example tests but not the state machine", "ex"),
        ):
            rows = [
                m
                for m in module["mutants"]
                if m["outcome"] == wanted
                or (
                    wanted == "sm"
                    and m["outcome"] == "killed"
                    and "state machine" in m["killed_by"]
                    and "examples" not in m["killed_by"]
                )
                or (
                    wanted == "ex"
                    and m["outcome"] == "killed"
                    and "examples" in m["killed_by"]
                    and "state machine" not in m["killed_by"]
                )
            ]
            if rows:
                lines += ["", f"## {title}: {label}", ""]
                lines += [
                    f"- `{path}:{m['line']}` {m['function']} ({m['operator']}): "
                    f"`{m['original']}` -> `{m['mutated']}`" + (f" ({m['note']})" if m.get("note") else "")
                    for m in rows
                ]
    if report["stale_equivalents"]:
        lines += ["", "## Stale entries of mutation/equivalent.toml (match no mutant)", ""]
        lines += [f"- {e}" for e in report["stale_equivalents"]]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    labels = [name.strip() for name in args.modules.split(",") if name.strip()]
    unknown = [name for name in labels if name not in TARGETS]
    if unknown:
        raise SystemExit(f"unknown module(s) {unknown}; known: {sorted(TARGETS)}")
    equivalents = load_equivalents()
    rerun = _rerun_keys(args.rerun) if args.rerun else None
    sample = None if args.all or rerun is not None else args.sample
    if args.nice:
        os.nice(args.nice)
    report: dict[str, Any] = {
        "seed": args.seed,
        "sample": sample,
        "modules": {},
        "machine_profile": args.machine_profile,
        "rerun": None if args.rerun is None else str(args.rerun),
        "stale_equivalents": [str(e) for e in stale_equivalents(equivalents, labels)],
    }
    args.output.mkdir(parents=True, exist_ok=True)
    failed_baseline = False
    for label in labels:
        target = TARGETS[label]
        source = (REPO / target.path).read_text(encoding="utf-8")
        found: list[Mutant] = mutants(label, source)
        chosen = select(found, sample, args.seed, args.only)
        if rerun is not None:
            chosen = [m for m in chosen if m.key in rerun]
        if args.list:
            for m in chosen:
                print(f"{target.path}:{m.line} [{m.short_id}] {m.key}")
            continue
        print(f"{label}: {len(chosen)} of {len(found)} mutants", flush=True)
        with tempfile.TemporaryDirectory(prefix=f"mutation-{label}-") as tmp:
            try:
                results, baseline = run_target(
                    target,
                    source,
                    chosen,
                    equivalents,
                    args.jobs,
                    args.timeout,
                    Path(tmp),
                    machine_profile=None if args.machine_profile == "none" else args.machine_profile,
                )
            except RuntimeError as exc:
                print(f"{label}: skipped: {exc}", file=sys.stderr)
                failed_baseline = True
                continue
        report["modules"][label] = {
            "path": target.path,
            "total": len(found),
            "baseline_seconds": round(baseline, 1),
            "summary": summary(results),
            "mutants": [_mutant_json(r) for r in results],
        }
    if args.list:
        return 0
    (args.output / "report.json").write_text(
        json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8"
    )
    text = _markdown(report)
    (args.output / "report.md").write_text(text, encoding="utf-8")
    print(text)
    print(f"report: {args.output / 'report.md'} and report.json")
    return 1 if failed_baseline else 0


if __name__ == "__main__":
    sys.exit(main())
