"""The plugin's options and session: the command-line options, what they select (drivers,
rules, the scaling probe), the stdio driver they register, the run's state, and the session's
start and end."""

from __future__ import annotations

import contextlib
import fnmatch
import shlex
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

import pytest

from aalis_memory.conformance.harness import watchdog
from aalis_memory.conformance.harness.run_state import RUN_STATE, RunState
from aalis_memory.conformance.probes.scaling import DEFAULT_SIZES, QUICK, ScalingSizes
from aalis_memory.conformance.registration import registry
from aalis_memory.conformance.registration.registry import (
    DEFAULT_CALL_TIMEOUT,
    DriverRegistration,
)
from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.conformance.suites import SUITES
from aalis_memory.conformance.verdicts import reporter as report
from aalis_memory.conformance.verdicts import tiers as report_tiers

SELECTED: Final = pytest.StashKey[list[str]]()
STRICT: Final = pytest.StashKey[bool]()
SESSION_OPTIONS: Final = pytest.StashKey["SessionOptions"]()
RULES: Final = pytest.StashKey["RuleSelection"]()
#: The scaling probe's plan: the full probe's with ``--memory-scaling``, else the quick one's.
SCALING: Final = pytest.StashKey[ScalingSizes]()


class RuleSelection:
    """The rules ``--memory-rules`` selected (every rule when it was not given)."""

    def __init__(self, patterns: list[str]) -> None:
        self.patterns = patterns

    def __call__(self, rule_id: str) -> bool:
        return not self.patterns or any(fnmatch.fnmatchcase(rule_id, p) for p in self.patterns)


def rule_selection(patterns: list[str]) -> RuleSelection:
    """A selection whose every pattern names at least one rule of the catalogue."""
    upper = [p.upper() for p in patterns]
    unknown = [p for p in upper if not any(fnmatch.fnmatchcase(r, p) for r in CATALOGUE)]
    if unknown:
        raise pytest.UsageError(
            f"--memory-rules: {', '.join(unknown)} matches no rule of the catalogue (list them "
            "with `python -m aalis_memory.conformance rules`)"
        )
    return RuleSelection(upper)


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
    names = _register_stdio(config.getoption("--memory-stdio-command"), requested_drivers(config))
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


#: The name ``--memory-stdio-command`` registers its adapter under.
STDIO_DRIVER: Final = "stdio"


def _register_stdio(command: str | None, names: list[str]) -> list[str]:
    """``--memory-stdio-command``: the adapter it starts becomes the driver ``stdio:NAME``, NAME
    being the one its handshake gives (the name handed to ``serve()``), so every output names
    the backend; ``--memory-driver=stdio`` (or that full name) selects it. The selected names,
    ``stdio`` replaced by the full one."""
    asked = [n for n in names if n == STDIO_DRIVER or n.startswith(f"{STDIO_DRIVER}:")]
    if command is None:
        if asked and not all(n in registry.registered() for n in asked):
            raise pytest.UsageError(
                f"--memory-driver={asked[0]}: give the adapter's command with "
                '--memory-stdio-command (e.g. --memory-stdio-command="node dist/adapter.js")'
            )
        return names
    from aalis_memory.conformance.stdio import StdioBridgeError, stdio_driver
    from aalis_memory.conformance.stdio.driver import probe

    argv = shlex.split(command)
    if not argv:
        raise pytest.UsageError("--memory-stdio-command: empty command")
    try:
        hello = probe(STDIO_DRIVER, argv)
        full = f"{STDIO_DRIVER}:{hello['adapter']}"
        stdio_driver(full, argv, hello=hello)
    except StdioBridgeError as exc:
        raise pytest.UsageError(f"--memory-stdio-command: the adapter failed its handshake: {exc}") from None
    wrong = [n for n in asked if n not in (STDIO_DRIVER, full)]
    if wrong:
        raise pytest.UsageError(
            f"--memory-driver={wrong[0]}: the adapter of --memory-stdio-command is {full!r}"
        )
    return list(dict.fromkeys(full if n in asked else n for n in names))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Drivers registered by the user's project but not selected: say how to run them."""
    if config.stash.get(SELECTED, []):
        return
    own = sorted(
        name
        for name, reg in registry.registered().items()
        if not getattr(reg.factory, "__module__", "").startswith("aalis_memory.")
    )
    if own:
        terminalreporter.write_line(
            f"aalis-memory: driver(s) {', '.join(own)} registered but none selected: run the "
            f"conformance suite with --memory-driver={','.join(own)}"
        )


def pytest_sessionstart(session: pytest.Session) -> None:
    """A driver the user named that cannot be provisioned (no server, a missing package) is a
    usage error, once, saying what was tried: a run that tested nothing must not end green.
    Drivers brought in by ``all`` may still skip."""
    config = session.config
    if config.stash.get(SELECTED, []):
        config.stash[RUN_STATE].shared = _shared_folder(config)
    named = [name for name in config.stash.get(SELECTED, []) if name != "all"]
    if not named or hasattr(config, "workerinput"):  # xdist workers: the controller checked
        return
    options = config.stash[SESSION_OPTIONS]
    for name in selected_drivers(config):
        registration = registry.get(name)
        if name not in named or registration.session_setup is None:
            continue
        try:
            options.for_driver(registration)
        except pytest.skip.Exception as exc:
            raise pytest.UsageError(
                f"--memory-driver={name}: the driver cannot be provisioned: {exc.msg}"
            ) from None


def _shared_folder(config: pytest.Config) -> Path | None:
    """A folder of this run that all its processes see: the base temporary folder (a
    pytest-xdist worker's is a subfolder of the controller's)."""
    factory = getattr(config, "_tmp_path_factory", None)
    if factory is None:
        return None
    base = Path(factory.getbasetemp())
    return (base.parent if hasattr(config, "workerinput") else base) / "aalis-memory-unusable"


class CallsInFlight:
    """Ctrl-C during a run names the driver calls that were in progress (a plugin object: the
    interrupt hook is handed no config to find the run's state in)."""

    def __init__(self, state: RunState) -> None:
        self._state = state

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        calls = self._state.in_flight()
        if calls:
            lines = "\n".join(f"  {call}" for call in calls)
            print(f"\naalis-memory: interrupted during driver call(s):\n{lines}", flush=True)


def pytest_unconfigure(config: pytest.Config) -> None:
    options = config.stash.get(SESSION_OPTIONS, None)
    if options is not None:
        options.close()


def requested_drivers(config: pytest.Config) -> list[str]:
    """The driver names the run asks for, as given: ``--memory-driver``, else the ini file's."""
    return split_names(config.getoption("--memory-driver")) or split_names(
        config.getini("aalis_memory_drivers")
    )


def split_names(values: list[str]) -> list[str]:
    """The names of a repeatable option of comma lists (or an ini line list), in order, once each."""
    names: list[str] = []
    for value in values:
        for name in value.split(","):
            name = name.strip()
            if name and name not in names:
                names.append(name)
    return names


def _covers(arg: str, path: Path) -> bool:
    target = Path(arg.split("::")[0]).resolve()
    return target == path or target in path.parents or path in target.parents


def selected_drivers(config: pytest.Config) -> list[str]:
    """The selected driver names, ``all`` expanded; unknown names are a usage error."""
    return select_or_usage_error(registry.select, config.stash[SELECTED], "--memory-driver")


def select_or_usage_error(
    select: Callable[[list[str]], list[str]], names: list[str], option: str
) -> list[str]:
    try:
        return select(names)
    except LookupError as exc:
        raise pytest.UsageError(f"{option}: {exc}") from None


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


# -- collection --------------------------------------------------------------------------


class SessionOptions:
    """Per-driver session resources (``session_setup``), entered once, closed at the end."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._stack = contextlib.ExitStack()
        self._options: dict[str, Mapping[str, Any]] = {}
        self._skips: dict[str, str] = {}

    def for_driver(self, registration: DriverRegistration) -> Mapping[str, Any]:
        name = registration.name
        if name in self._skips:
            pytest.skip(self._skips[name])
        if name not in self._options:
            if registration.session_setup is None:
                self._options[name] = {}
            else:
                try:
                    self._options[name] = self._stack.enter_context(registration.session_setup(self._config))
                except pytest.skip.Exception as exc:
                    self._skips[name] = str(exc.msg)
                    raise
        return self._options[name]

    def close(self) -> None:
        self._stack.close()
