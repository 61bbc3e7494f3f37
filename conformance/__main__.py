"""Command line: ``python -m aalis_memory.conformance spec-map | contract-doc | contract-tables |
rules | explain ID | replay FILE``."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from aalis_memory.conformance.docgen import contract_doc, contract_tables, rule_cli, spec_map


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aalis_memory.conformance")
    commands = parser.add_subparsers(dest="command", required=True)
    cmd = commands.add_parser("spec-map", help="write (or --check) SPEC_MAP.md")
    cmd.add_argument("--repo", type=Path, default=Path.cwd(), help="repository root (default: .)")
    cmd.add_argument("--output", type=Path, default=None, help="default: REPO/SPEC_MAP.md")
    cmd.add_argument("--check", action="store_true", help="fail if stale or incomplete")
    doc = commands.add_parser("contract-doc", help="write (or --check) docs/contract.md")
    doc.add_argument("--repo", type=Path, default=Path.cwd(), help="repository root (default: .)")
    doc.add_argument("--output", type=Path, default=None, help="default: REPO/docs/contract.md")
    doc.add_argument("--check", action="store_true", help="fail if stale")
    tables = commands.add_parser(
        "contract-tables",
        help="write (or --check) the copies of the method table and the defaults: the protocol "
        "schema, the TypeScript bridge's contract-table.ts, the README's method list, the "
        "TypeScript example's defaults",
    )
    tables.add_argument("--repo", type=Path, default=Path.cwd(), help="repository root (default: .)")
    tables.add_argument("--check", action="store_true", help="fail if one is stale")
    listing = commands.add_parser("rules", help="list the rule catalogue (ID, level, text)")
    listing.add_argument("patterns", nargs="*", help="IDs or glob patterns (default: all)")
    explaining = commands.add_parser("explain", help="a rule: its ground and the tests of it")
    explaining.add_argument("rule", help="a rule ID, e.g. ARCH-01")
    replaying = commands.add_parser(
        "replay",
        help="send a failed test's stdio transcript to an adapter again and compare "
        "its answers with the recorded ones",
    )
    replaying.add_argument("transcript", type=Path, help="the transcript file a failure named")
    replaying.add_argument(
        "--memory-stdio-command",
        metavar="COMMAND",
        default=None,
        help="the adapter to start (split like a shell line; default: the recorded command)",
    )
    replaying.add_argument(
        "--timeout", type=float, default=30.0, help="seconds to wait for each answer (default: 30)"
    )
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args.transcript, args.memory_stdio_command, args.timeout)
    if args.command == "rules":
        listed = rule_cli.list_rules(args.patterns)
        if not listed:
            print(
                f"no rule matches {' '.join(args.patterns)} (IDs look like ARCH-01; patterns like 'ARCH-*')",
                file=sys.stderr,
            )
            return 1
        print("\n".join(listed))
        return 0
    if args.command == "explain":
        try:
            print("\n".join(rule_cli.explain(args.rule, Path.cwd())))
        except LookupError as exc:
            print(f"explain: {exc}", file=sys.stderr)
            return 2
        return 0
    if args.command == "contract-doc":
        return _contract_doc(args.repo, args.output, check=args.check)
    if args.command == "contract-tables":
        return _contract_tables(args.repo, check=args.check)

    repo: Path = args.repo
    if not spec_map.is_repository(repo):
        print(
            f"spec-map: needs a checkout of the kit's repository ({repo.resolve()} is not one: "
            "the tests of some rules live in its tests/ folder, which is not installed); run it "
            "there or pass --repo PATH",
            file=sys.stderr,
        )
        return 2
    output: Path = args.output or repo / "SPEC_MAP.md"
    found = spec_map.scan(spec_map.default_roots(repo), relative_to=repo)
    text = spec_map.render(found)
    issues = spec_map.problems(found)
    for line in issues.lines():
        print(f"spec-map: {line}", file=sys.stderr)
    return _write_or_check(
        "spec-map",
        output,
        text,
        check=args.check,
        problems=bool(issues),
        done=f"{len(found)} rules referenced",
    )


def _replay(path: Path, command: str | None, timeout: float) -> int:
    """``replay``: 0 when every answer is the recorded one, 1 when one differs, 2 otherwise."""
    # Here, not at the top: only `replay` needs the stdio driver (and the harness it brings).
    from aalis_memory.drivers.stdio import transcript

    if not path.is_file():
        print(f"replay: no transcript at {path}", file=sys.stderr)
        return 2
    try:
        return transcript.replay(path, shlex.split(command) if command else None, sys.stdout, timeout=timeout)
    except OSError as exc:
        print(f"replay: cannot start the adapter: {exc}", file=sys.stderr)
        return 2


def _contract_tables(repo: Path, *, check: bool) -> int:
    """``contract-tables``: the generated copies of the method table and of the defaults."""
    if not spec_map.is_repository(repo):
        print(
            f"contract-tables: needs a checkout of the kit's repository ({repo.resolve()} is not one)",
            file=sys.stderr,
        )
        return 2
    if check:
        stale = contract_tables.stale(repo)
        for path in stale:
            print(f"contract-tables: {path} is stale; run `{contract_tables.GENERATED_BY}`", file=sys.stderr)
        return 1 if stale else 0
    for path in contract_tables.write(repo):
        print(f"contract-tables: wrote {repo / path}")
    return 0


def _contract_doc(repo: Path, output: Path | None, *, check: bool) -> int:
    """``contract-doc``: docs/contract.md needs the checkout's TypeScript contract."""
    if not (spec_map.is_repository(repo) and contract_doc.has_ts_contract(repo)):
        print(
            f"contract-doc: needs a checkout of the kit's repository ({repo.resolve()} is not "
            f"one: the TypeScript contract, {contract_doc.TS_CONTRACT}, is not installed); run "
            "it there or pass --repo PATH",
            file=sys.stderr,
        )
        return 2
    target = output or repo / contract_doc.OUTPUT
    unknown = contract_doc.unknown_rule_ids()
    for line in unknown:
        print(f"contract-doc: a docstring names a rule the catalogue lacks: {line}", file=sys.stderr)
    return _write_or_check(
        "contract-doc", target, contract_doc.generate(repo), check=check, problems=bool(unknown)
    )


def _write_or_check(
    command: str, target: Path, text: str, *, check: bool, problems: bool, done: str = ""
) -> int:
    """Write a generated file, or with ``check`` fail when the file on disk is not ``text``."""
    if check:
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != text:
            print(
                f"{command}: {target} is stale; regenerate it with "
                f"`python -m aalis_memory.conformance {command}`",
                file=sys.stderr,
            )
            return 1
        return 1 if problems else 0
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    print(f"{command}: wrote {target}" + (f" ({done})" if done else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
