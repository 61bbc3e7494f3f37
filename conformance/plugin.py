"""The pytest plugin (entry point ``pytest11``): options, suite collection, driver fixtures.

``pytest --memory-driver=NAME`` in any directory adds the installed suite to the run and
parametrizes every suite test over the selected drivers. Without the option nothing is added.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import functools
import importlib
import inspect
import itertools
import json
import re
import shlex
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

import pytest

from aalis_memory.clearing import ClearNamespaces, clear_metadata_namespaces
from aalis_memory.conformance import adapters, registry, report, report_render, steps, watchdog
from aalis_memory.conformance.adapters import (
    in_flight,
    opened_store,
    plant_raw,
    unusable_cause,
)
from aalis_memory.conformance.checks import ConformanceFailure
from aalis_memory.conformance.registry import (
    DEFAULT_CALL_TIMEOUT,
    DriverContext,
    DriverRegistration,
    RawMetadataKind,
)
from aalis_memory.conformance.requirements import unmet
from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.conformance.scaling import DEFAULT_SIZES, ScalingSizes
from aalis_memory.conformance.verdicts import Verdict, skip

SUITE_DIR: Final = Path(__file__).resolve().parent / "suite"
SUITE_PACKAGE: Final = "aalis_memory.conformance.suite"

#: The provider half of the kit (``--memory-compression-provider``) lives in its own plugin module.
pytest_plugins = ["aalis_memory.conformance.compression.plugin"]

SELECTED: Final = pytest.StashKey[list[str]]()
STRICT: Final = pytest.StashKey[bool]()
SESSION_OPTIONS: Final = pytest.StashKey["SessionOptions"]()
RULES: Final = pytest.StashKey["RuleSelection"]()
#: The scaling probe's sizes, or ``None`` when ``--memory-scaling`` is off.
SCALING: Final = pytest.StashKey[ScalingSizes | None]()


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
        help="also time the calls whose answer does not grow (get_history(s, 20), count_history, "
        "archive_span(s, 1), get_metadata) on small and large data and report those that get "
        "more than 5x slower (PERF-01; takes a while: off by default)",
    )
    group.addoption(
        "--memory-scaling-sizes",
        default=DEFAULT_SIZES,
        metavar="N,N,K,K",
        help=f"the scaling probe's sizes: messages in the small and the large session, keys in "
        f"the small and the large namespace (default {DEFAULT_SIZES})",
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
    names = _split(config.getoption("--memory-driver")) or _split(config.getini("aalis_memory_drivers"))
    names = _register_stdio(config.getoption("--memory-stdio-command"), names)
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
    try:
        sizes = ScalingSizes.parse(config.getoption("--memory-scaling-sizes"))
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[SCALING] = sizes if config.getoption("--memory-scaling") else None
    config.stash[RULES] = rule_selection(_split(config.getoption("--memory-rules")))
    # Drivers named on the command line always bring the suite in; drivers from the ini file only
    # when no explicit paths were given, so `pytest tests/test_x.py` stays a one-file run.
    explicit = bool(config.getoption("--memory-driver"))
    wanted = names and (explicit or config.args_source is not pytest.Config.ArgsSource.ARGS)
    if wanted and not any(_covers(arg, SUITE_DIR) for arg in config.args):
        config.args.append(str(SUITE_DIR))
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
        raise pytest.UsageError(f"--memory-stdio-command: the adapter failed its handshake: {exc}"
                                ) from None
    wrong = [n for n in asked if n not in (STDIO_DRIVER, full)]
    if wrong:
        raise pytest.UsageError(f"--memory-driver={wrong[0]}: the adapter of "
                                f"--memory-stdio-command is {full!r}")
    return list(dict.fromkeys(full if n in asked else n for n in names))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Drivers registered by the user's project but not selected: say how to run them."""
    if config.stash.get(SELECTED, []):
        return
    own = sorted(name for name, reg in registry.registered().items()
                 if not getattr(reg.factory, "__module__", "").startswith("aalis_memory."))
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
    adapters.reset()
    adapters.SHARED_UNUSABLE = _shared_folder(config) if config.stash.get(SELECTED, []) else None
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


def pytest_unconfigure(config: pytest.Config) -> None:
    options = config.stash.get(SESSION_OPTIONS, None)
    if options is not None:
        options.close()


def _split(values: list[str]) -> list[str]:
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
        declared, warnings = report_render.tier_line(name)
        weaker = " (weaker than the documents grant: see the summary)" if warnings else ""
        lines.append(f"  driver {name}: {declared}{weaker}")
    return lines


# -- collection --------------------------------------------------------------------------


def _in_suite_chain(path: Path) -> bool:
    return path == SUITE_DIR or path in SUITE_DIR.parents


@functools.cache
def _hidden_install() -> Path | None:
    """The virtual environment the suite is installed in, if any: pytest does not walk into one
    by itself (a ``.venv/`` in the project's folder would hide the suite)."""
    return next((folder for folder in SUITE_DIR.parents if (folder / "pyvenv.cfg").is_file()),
                None)


@pytest.hookimpl(tryfirst=True)
def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The installed suite is collected where it is installed, also in a virtual environment
    inside the project's folder (``.venv/``, which pytest skips otherwise, so no test would
    run): the folders leading to the suite are walked, nothing else of that environment (nor
    its links, such as ``lib64``, which lead to the suite a second time)."""
    hidden = _hidden_install()
    if hidden is None or not config.stash.get(SELECTED, None):
        return None
    path = collection_path.resolve()
    if not path.is_relative_to(hidden) or path.is_relative_to(SUITE_DIR):
        return None
    return not (_in_suite_chain(path) and not collection_path.is_symlink())


def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Walk the suite's folders as plain directories: never import them as loose packages."""
    if _in_suite_chain(path.resolve()) and (path / "__init__.py").exists():
        return pytest.Dir.from_parent(parent, path=path)
    return None


def _is_suite_module(path: Path, parent: pytest.Collector) -> bool:
    """A file of the suite package, in a run that selected drivers."""
    return (
        path.resolve().parent == SUITE_DIR
        and path.suffix == ".py"
        and bool(parent.config.stash[SELECTED])
    )


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    if not _is_suite_module(file_path, parent) or file_path.name.startswith("_"):
        return None  # helpers such as _build.py hold no tests
    if parent.session.isinitpath(file_path):
        return None  # named on the command line: pytest_pycollect_makemodule below takes it
    return SuiteModule.from_parent(parent, path=file_path)


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    """A suite file named on the command line is still imported under its installed name."""
    if not _is_suite_module(module_path, parent):
        return None
    return SuiteModule.from_parent(parent, path=module_path)


class SuiteModule(pytest.Module):
    """A suite module imported under its installed name, so the kit has one copy of itself.

    Its coroutine tests are handed to pytest as plain functions that run on the test's own
    event loop (the one its store was opened on), so an async plugin of the user's project
    (pytest-asyncio in auto mode, anyio) never takes them over onto another loop.
    """

    def _getobj(self) -> Any:
        module = importlib.import_module(f"{SUITE_PACKAGE}.{self.path.stem}")
        for name, obj in list(vars(module).items()):
            if name.startswith("test") and inspect.iscoroutinefunction(obj):
                setattr(module, name, on_store_loop(obj))
        return module

    def collect(self) -> Any:
        for item in super().collect():
            if getattr(item, "originalname", None) == DIFFERENTIAL_TEST and not _differential(
                    self.config):
                continue  # exists only when it runs: no phantom item in a run without the mode
            if type(item) is pytest.Function:
                item.__class__ = SuiteFunction  # pytest has no hook for a Function subclass
            item.add_marker(pytest.mark.aalis_conformance)
            item.extra_keyword_matches.update(report.spec_ids(item))  # -k ARCH-01 works
            yield item


class SuiteFunction(pytest.Function):
    """A suite test. A failed check's report is the rule's message and the test's line, which
    the reporter writes (:mod:`.report`); pytest's own traceback of it, built first and thrown
    away, parses the source of every frame, the larger part of a failing test's time."""

    def repr_failure(  # type: ignore[override]  # (as pytest.Function's own)
        self, excinfo: pytest.ExceptionInfo[BaseException]
    ) -> Any:
        if isinstance(excinfo.value, ConformanceFailure | steps.Blocked):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


def on_store_loop(test: Callable[..., Any]) -> Callable[..., None]:
    """``test`` as a plain function that runs the coroutine on the ``aalis_memory_loop``."""
    signature = inspect.signature(test)
    borrowed = LOOP_FIXTURE not in signature.parameters
    parameters = list(signature.parameters.values())
    if borrowed:
        parameters.append(inspect.Parameter(LOOP_FIXTURE, inspect.Parameter.KEYWORD_ONLY))

    def run(*args: Any, **kwargs: Any) -> None:
        runner = kwargs.pop(LOOP_FIXTURE) if borrowed else kwargs[LOOP_FIXTURE]
        runner.run(test(*args, **kwargs))

    for attribute in ("__module__", "__name__", "__qualname__", "__doc__"):
        setattr(run, attribute, getattr(test, attribute))
    run.__dict__.update(test.__dict__)  # marks (pytestmark) and the like
    run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    return run


#: The one test that drives several drivers at once (``--memory-differential``).
DIFFERENTIAL_TEST: Final = report.DIFFERENTIAL


def _differential(config: pytest.Config) -> bool:
    """Whether the differential test runs (``--memory-differential`` with selected drivers)."""
    return bool(config.stash.get(SELECTED, [])) and bool(config.getoption("--memory-differential"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests of rules left out by ``--memory-rules`` are deselected (and reported not run)."""
    selected = config.stash[RULES]
    if selected.patterns:
        dropped = [i for i in items
                   if report.spec_ids(i) and not any(map(selected, report.spec_ids(i)))]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = [i for i in items if i not in dropped]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "aalis_memory_driver" in metafunc.fixturenames:
        names = selected_drivers(metafunc.config)
        if metafunc.definition.originalname == DIFFERENTIAL_TEST:
            names = names[:1]  # once, under the first driver: it drives them all
        metafunc.parametrize("aalis_memory_driver", names, ids=names)


# -- running -----------------------------------------------------------------------------

#: The fixture holding each test's event loop.
LOOP_FIXTURE: Final = "aalis_memory_loop"


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """A coroutine test outside the suite that asks for ``aalis_memory_loop`` runs on it (the
    kit's own driver tests do; the suite's tests are made plain functions at import)."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    runner = pyfuncitem.funcargs.get(LOOP_FIXTURE)
    if not isinstance(runner, asyncio.Runner):
        return None
    names = pyfuncitem._fixtureinfo.argnames
    runner.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
    return True


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
                    self._options[name] = self._stack.enter_context(
                        registration.session_setup(self._config)
                    )
                except pytest.skip.Exception as exc:
                    self._skips[name] = str(exc.msg)
                    raise
        return self._options[name]

    def close(self) -> None:
        self._stack.close()


@pytest.fixture
def aalis_memory_loop() -> Iterator[asyncio.Runner]:
    """One event loop per test: the store is opened, used and closed on it."""
    with asyncio.Runner() as runner:
        yield runner


@pytest.fixture
def aalis_memory_registration(aalis_memory_driver: str) -> DriverRegistration:
    """The registration of the driver this test runs against."""
    return registry.get(aalis_memory_driver)


@pytest.fixture(scope="session")
def aalis_memory_folders(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """Makes each test's store its own new folder. Not pytest's ``tmp_path``: that one lists the
    whole base folder for the next free number every time, so a run of thousands of tests (the
    kit's own run of every broken driver holds 24,000) slowed down as it went."""
    base = tmp_path_factory.mktemp("aalis-memory")
    numbers = itertools.count()

    def folder(test: str) -> Path:
        made = base / f"{next(numbers):06d}-{re.sub(r'[^A-Za-z0-9_.-]', '_', test)[:40]}"
        made.mkdir()
        return made

    return folder


@pytest.fixture
def aalis_memory_ctx(
    request: pytest.FixtureRequest,
    aalis_memory_registration: DriverRegistration,
    aalis_memory_folders: Callable[[str], Path],
) -> DriverContext:
    """The context handed to the driver factory."""
    cause = unusable_cause(aalis_memory_registration.name)
    if cause is not None:
        pytest.skip(f"driver {aalis_memory_registration.name!r} {cause} (reported once, at the "
                    "test where it happened)")
    options = request.config.stash[SESSION_OPTIONS].for_driver(aalis_memory_registration)
    return DriverContext(name=aalis_memory_registration.name,
                         tmp_path=aalis_memory_folders(request.node.name),
                         options=dict(options), call_timeout=call_timeout(request.config))


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failure of a stdio driver's test names the transcript of its store and the command that
    replays it (:mod:`aalis_memory.conformance.stdio.transcript`). It runs after the reporter
    judged the test, so the note goes into the message of each rule the failure fails."""
    outcome = yield
    driver = report.driver_of(item)
    if driver is None:
        return
    from aalis_memory.conformance.stdio import transcript

    if not transcript.RECORDERS:
        return
    made: pytest.TestReport = outcome.get_result()
    try:
        _note_transcript(item, call, made)
    finally:
        if call.when == "call":
            for recorder in transcript.RECORDERS.values():
                recorder.forget()


def _note_transcript(item: pytest.Item, call: pytest.CallInfo[None], made: pytest.TestReport
                     ) -> None:
    if call.excinfo is None or made.skipped:
        return
    from aalis_memory.conformance.machine.failure import MachineFailure
    from aalis_memory.conformance.stdio import transcript

    index, found = next(((i, json.loads(str(value))) for i, (key, value)
                         in enumerate(made.user_properties) if key == report.PROP_OUTCOMES),
                        (None, []))
    failing = [one for one in found if one["verdict"] in (Verdict.FAIL.value,
                                                          Verdict.ADVISORY.value)]
    if not failing and not made.failed:
        return
    driver = next((value for key, value in made.user_properties if key == report.PROP_DRIVER),
                  report.driver_of(item))
    exc = call.excinfo.value
    key = exc.reproduction if isinstance(exc, MachineFailure) else None
    note = transcript.failure_note(str(driver), item.nodeid, _transcript_folder(item.config), key)
    if note is None:
        return
    for one in failing:
        one["message"] = f"{one['message']}\n{note}"
    if index is not None:
        made.user_properties[index] = (report.PROP_OUTCOMES, json.dumps(found))
    if isinstance(made.longrepr, str):
        made.longrepr += f"\n{note}"
    else:
        made.sections.append(("aalis-memory: reproduce over stdio", note))


def _transcript_folder(config: pytest.Config) -> Path:
    """Next to the first report asked for, else in pytest's temporary folder of the run."""
    reports: list[str] = config.getoption("--memory-report") or []
    if reports:
        first = Path(reports[0]).resolve()
        return first.with_name(f"{first.stem}-stdio-transcripts")
    factory = getattr(config, "_tmp_path_factory", None)
    base = Path(factory.getbasetemp()) if factory is not None else Path.cwd()
    return base / "aalis-memory-stdio-transcripts"


def call_timeout(config: pytest.Config) -> float | None:
    """The per-call limit in seconds (``None``: no limit)."""
    seconds = float(config.getoption("--memory-call-timeout"))
    return seconds if seconds > 0 else None


def pytest_keyboard_interrupt(excinfo: pytest.ExceptionInfo[BaseException]) -> None:
    """Ctrl-C during a run names the driver calls that were in progress."""
    calls = in_flight()
    if calls:
        lines = "\n".join(f"  {call}" for call in calls)
        print(f"\naalis-memory: interrupted during driver call(s):\n{lines}", flush=True)


@pytest.fixture
def aalis_memory(
    request: pytest.FixtureRequest,
    aalis_memory_registration: DriverRegistration,
    aalis_memory_ctx: DriverContext,
    aalis_memory_loop: asyncio.Runner,
) -> Iterator[Any]:
    """A fresh, empty store of the selected driver, async whatever the driver's style.

    While the test runs, its calls of methods its rules are not about are steps (:mod:`.steps`):
    a driver lacking a required method (REQ-01 fails) has every test judged that does not need
    the method, and the tests that do are blocked by REQ-01.
    """
    with opened_store(aalis_memory_registration, aalis_memory_ctx, aalis_memory_loop) as store:
        wanted = [str(arg) for mark in request.node.iter_markers("aalis_requires")
                  for arg in mark.args]
        missing_requirement = unmet(wanted, aalis_memory_registration, store)
        if missing_requirement is not None:
            skip(*missing_requirement)
        with steps.judging(report.spec_ids(request.node)):
            yield store


class RawAccess:
    """Reaches a store's storage without the API, through the driver's raw_metadata hook."""

    def __init__(self, registration: DriverRegistration, store: Any) -> None:
        self._registration = registration
        self._store = store

    async def plant_metadata(self, namespace: str, key: str, kind: RawMetadataKind) -> None:
        """Plant an unreadable entry; skip when this kind cannot exist in the backend."""
        if self._registration.raw_metadata is None:
            skip(Verdict.UNVERIFIED, f"no raw access (driver {self._registration.name!r} "
                 "registers no raw_metadata hook)")
        if not await plant_raw(self._registration, self._store, namespace, key, kind):
            skip(Verdict.UNVERIFIED,
                 f"driver {self._registration.name!r} cannot hold a {kind} entry")


@pytest.fixture
def aalis_memory_raw(aalis_memory_registration: DriverRegistration, aalis_memory: Any) -> RawAccess:
    """Raw access to the store under test (tests using it say so when it is missing)."""
    return RawAccess(aalis_memory_registration, aalis_memory)


@pytest.fixture
def aalis_clear_helper() -> ClearNamespaces:
    """The clearing helper (``clear_metadata_namespaces``) the CLR-04..08 tests run over the
    store under test: the contract's own. A project that ships its own implementation of the
    helper overrides this fixture in its conftest.py, and the CLR rules judge that one."""
    return clear_metadata_namespaces


@pytest.fixture
def aalis_memory_scaling(
    request: pytest.FixtureRequest, aalis_memory_ctx: DriverContext
) -> ScalingSizes:
    """The scaling probe's sizes; a test using it is not run without ``--memory-scaling``
    (asked after the driver's context, so an unusable driver is reported as such first)."""
    sizes = request.config.stash[SCALING]
    if sizes is None:
        pytest.skip("the scaling probe is off (run it with --memory-scaling)")
    return sizes


@pytest.fixture
def aalis_memory_strict(request: pytest.FixtureRequest) -> bool:
    return request.config.stash[STRICT]


__all__ = ["RawAccess", "SessionOptions", "selected_drivers"]
