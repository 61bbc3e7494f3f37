"""The plugin's command-line options and what they set when the run is configured: the drivers
and rules it selects, strict mode, the scaling probe's plan, the run's state; and the header
line of each selected driver. The rooms they feed have their own modules: the driver selection
(:mod:`~aalis_memory.conformance.registration.selection`), the rule selection
(:mod:`.rule_selection`), the stdio adapter (:mod:`.stdio_option`), the drivers' session
resources (:mod:`~aalis_memory.conformance.harness.session_options`), the provisioning check at
the start (:mod:`.provisioning`), Ctrl-C (:mod:`.interrupt`) and the hint of unselected drivers
(:mod:`.hint`)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

import pytest

from aalis_memory.conformance.harness import watchdog
from aalis_memory.conformance.harness.run_state import RUN_STATE, RunState
from aalis_memory.conformance.harness.session_options import SESSION_OPTIONS, SessionOptions
from aalis_memory.conformance.plugin.interrupt import CallsInFlight
from aalis_memory.conformance.plugin.rule_selection import RULES, rule_selection
from aalis_memory.conformance.plugin.stdio_option import register_stdio
from aalis_memory.conformance.probes.scaling import DEFAULT_SIZES, QUICK, ScalingSizes
from aalis_memory.conformance.registration import registry
from aalis_memory.conformance.registration.registry import DEFAULT_CALL_TIMEOUT
from aalis_memory.conformance.registration.selection import (
    SELECTED,
    requested_drivers,
    selected_drivers,
    split_names,
)
from aalis_memory.conformance.suites import SUITES
from aalis_memory.conformance.verdicts import reporter as report
from aalis_memory.conformance.verdicts import tiers as report_tiers

STRICT: Final = pytest.StashKey[bool]()
#: The scaling probe's plan: the full probe's with ``--memory-scaling``, else the quick one's.
SCALING: Final = pytest.StashKey[ScalingSizes]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("aalis-memory", "Aalis MemoryService conformance")
    group.addoption(
        "--memory-driver",
        action="append",
        default=[],
        metavar="NAME",
        help="run the conformance suite against driver NAME (repeatable, comma lists, 'all')",
    )
    group.addoption(
        "--memory-strict",
        action="store_true",
        default=None,
        help="a broken SHOULD rule fails the run instead of being reported as an advisory",
    )
    group.addoption(
        "--memory-report",
        action="append",
        metavar="PATH",
        default=[],
        help="write the per-driver, per-rule verdicts to PATH: a Markdown conformance matrix "
        "when PATH ends in .md, else JSON (repeatable)",
    )
    group.addoption(
        "--memory-hypothesis-profile",
        choices=("ci", "deep", "thorough"),
        default="ci",
        help="Hypothesis profile of the state machine: ci (quick, derandomized; default), deep "
        "(more derandomized examples) or thorough (random and long, for nightly runs)",
    )
    group.addoption(
        "--memory-hypothesis-minutes",
        type=float,
        default=None,
        metavar="M",
        help="with the thorough profile: keep generating histories for M minutes per state "
        "machine test, then pass (instead of its fixed 3000 examples)",
    )
    group.addoption(
        "--memory-rules",
        action="append",
        default=[],
        metavar="IDS",
        help="run only the tests of these rules: IDs or glob patterns, comma lists, repeatable "
        "(--memory-rules=ARCH-01,COUNT-*); the other rules are reported 'not run'",
    )
    group.addoption(
        "--memory-call-timeout",
        type=float,
        default=DEFAULT_CALL_TIMEOUT,
        metavar="SECONDS",
        help=f"give up on a driver call after SECONDS and fail its test, naming the call "
        f"(default {DEFAULT_CALL_TIMEOUT:g}; 0 disables the limit)",
    )
    group.addoption(
        "--memory-differential",
        action="store_true",
        default=False,
        help="also run one generated history against all selected drivers at once and report "
        "any disagreement outside their declared tiers",
    )
    group.addoption(
        "--memory-stdio-command",
        default=None,
        metavar="COMMAND",
        help="register the driver 'stdio': an adapter process COMMAND starts (split like a shell "
        "line), speaking the stdio protocol (docs/stdio-protocol.md); run it with "
        "--memory-driver=stdio",
    )
    group.addoption(
        "--memory-scaling",
        action="store_true",
        default=False,
        help="run the full scaling probe (PERF-01) instead of the quick one run by default: time "
        "the calls whose answer does not grow (get_history(s, 20), count_history, "
        "archive_span(s, 1), get_metadata) on small and large data (see "
        "--memory-scaling-sizes) and report those that get more than 5x slower (takes a "
        "while: a minute or more per driver)",
    )
    group.addoption(
        "--memory-scaling-sizes",
        default=DEFAULT_SIZES,
        metavar="N,N,K,K",
        help=f"the full scaling probe's sizes (with --memory-scaling): messages in the small and "
        f"the large session, keys in the small and the large namespace (default {DEFAULT_SIZES})",
    )
    parser.addini("aalis_memory_drivers", "drivers to run when --memory-driver is not given", "linelist")
    parser.addini("aalis_memory_strict", "treat SHOULD rules as MUST", "bool", default=False)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "aalis_spec(*ids): the catalogue rules a conformance test checks")
    config.addinivalue_line("markers", "aalis_requires(name): a named requirement of a conformance test")
    config.addinivalue_line("markers", "aalis_conformance: a test of the conformance suite")
    registry.load_entry_points()
    if registry.conflicts:
        raise pytest.UsageError("\n".join(registry.conflicts.values()))
    names = register_stdio(config.getoption("--memory-stdio-command"), requested_drivers(config))
    config.stash[SELECTED] = names
    strict = config.getoption("--memory-strict")
    config.stash[STRICT] = bool(config.getini("aalis_memory_strict") if strict is None else strict)
    minutes = config.getoption("--memory-hypothesis-minutes")
    if minutes is not None and (
        minutes <= 0 or config.getoption("--memory-hypothesis-profile") != "thorough"
    ):
        raise pytest.UsageError(
            "--memory-hypothesis-minutes: takes a positive number of minutes, with "
            "--memory-hypothesis-profile=thorough (the other profiles are derandomized: "
            "more time would repeat the same histories)"
        )
    config.stash[SESSION_OPTIONS] = SessionOptions(config)
    state = config.stash[RUN_STATE] = RunState()
    config.pluginmanager.register(CallsInFlight(state), "aalis-memory-calls-in-flight")
    try:
        sizes = ScalingSizes.parse(config.getoption("--memory-scaling-sizes"))
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[SCALING] = sizes if config.getoption("--memory-scaling") else QUICK
    config.stash[RULES] = rule_selection(split_names(config.getoption("--memory-rules")))
    # Drivers named on the command line always bring the suites in; drivers from the ini file
    # only when no explicit paths were given, so `pytest tests/test_x.py` stays a one-file run.
    # A path into one of the suites is the run's choice of their tests: none is added then. The
    # provider suite is added too: its plugin hides it from a run without a provider.
    explicit = bool(config.getoption("--memory-driver"))
    wanted = names and (explicit or config.args_source is not pytest.Config.ArgsSource.ARGS)
    if wanted and not any(_covers(arg, suite.folder) for suite in SUITES for arg in config.args):
        config.args.extend(str(suite.folder) for suite in SUITES)
    config.pluginmanager.register(
        report.Reporter(config, config.stash[STRICT], config.stash[RULES]), "aalis-memory-reporter"
    )
    if names:
        watchdog.keep_terminal()  # before pytest captures the tests' output


def pytest_unconfigure(config: pytest.Config) -> None:
    options = config.stash.get(SESSION_OPTIONS, None)
    if options is not None:
        options.close()


def _covers(arg: str, path: Path) -> bool:
    target = Path(arg.split("::")[0]).resolve()
    return target == path or target in path.parents or path in target.parents


def pytest_report_header(config: pytest.Config) -> list[str]:
    names = config.stash.get(SELECTED, [])
    if not names:
        return []
    lines = [f"aalis-memory: strict={config.stash[STRICT]}"]
    for name in selected_drivers(config):
        declared, warnings = report_tiers.tier_line(name)
        weaker = " (weaker than the documents grant: see the summary)" if warnings else ""
        lines.append(f"  driver {name}: {declared}{weaker}")
    return lines
