"""Command line: ``python -m aalis_memory.conformance spec-map | rules | explain ID``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from aalis_memory.conformance import rule_cli, spec_map


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aalis_memory.conformance")
    commands = parser.add_subparsers(dest="command", required=True)
    cmd = commands.add_parser("spec-map", help="write (or --check) SPEC_MAP.md")
    cmd.add_argument("--repo", type=Path, default=Path.cwd(), help="repository root (default: .)")
    cmd.add_argument("--output", type=Path, default=None, help="default: REPO/SPEC_MAP.md")
    cmd.add_argument("--check", action="store_true", help="fail if stale or incomplete")
    listing = commands.add_parser("rules", help="list the rule catalogue (ID, level, text)")
    listing.add_argument("patterns", nargs="*", help="IDs or glob patterns (default: all)")
    explaining = commands.add_parser("explain", help="a rule: its ground and the tests of it")
    explaining.add_argument("rule", help="a rule ID, e.g. ARCH-01")
    args = parser.parse_args(argv)
    if args.command == "rules":
        print("\n".join(rule_cli.list_rules(args.patterns)))
        return 0
    if args.command == "explain":
        try:
            print("\n".join(rule_cli.explain(args.rule, Path.cwd())))
        except LookupError as exc:
            print(f"explain: {exc}", file=sys.stderr)
            return 2
        return 0

    repo: Path = args.repo
    if not spec_map.is_repository(repo):
        print(f"spec-map: needs a checkout of the kit's repository ({repo.resolve()} is not one: "
              "the tests of some rules live in its tests/ folder, which is not installed); run it "
              "there or pass --repo PATH", file=sys.stderr)
        return 2
    output: Path = args.output or repo / "SPEC_MAP.md"
    found = spec_map.scan(spec_map.default_roots(repo), relative_to=repo)
    text = spec_map.render(found)
    issues = spec_map.problems(found)
    for line in issues.lines():
        print(f"spec-map: {line}", file=sys.stderr)
    if args.check:
        current = output.read_text(encoding="utf-8") if output.exists() else ""
        if current != text:
            print(f"spec-map: {output} is stale; regenerate it with "
                  "`python -m aalis_memory.conformance spec-map`", file=sys.stderr)
            return 1
        return 1 if issues else 0
    output.write_text(text, encoding="utf-8")
    print(f"spec-map: wrote {output} ({len(found)} rules referenced)")
    return 1 if issues else 0


if __name__ == "__main__":
    raise SystemExit(main())
