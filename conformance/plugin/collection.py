"""How the installed suites join a run: collecting their modules from any directory, and
parametrizing their tests over the selected drivers, each run on its store's event loop.

Both suites (:mod:`aalis_memory.conformance.suites`: the storage suite and the provider suite)
are collected alike; the provider suite's plugin hides it from a run without a provider."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import gc
import importlib
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest

from aalis_memory.conformance import steps
from aalis_memory.conformance.checks import ConformanceFailure
from aalis_memory.conformance.plugin.rule_selection import RULES
from aalis_memory.conformance.registration.selection import SELECTED, selected_drivers
from aalis_memory.conformance.suites import ROOT, SUITES, suite_of
from aalis_memory.conformance.verdicts import properties


def _in_suite_chain(path: Path) -> bool:
    """A suite's folder or a folder leading to one."""
    return any(path == suite.folder or path in suite.folder.parents for suite in SUITES)


def _in_a_suite(path: Path) -> bool:
    return any(path.is_relative_to(suite.folder) for suite in SUITES)


@functools.cache
def _hidden_install() -> Path | None:
    """The virtual environment the suites are installed in, if any: pytest does not walk into
    one by itself (a ``.venv/`` in the project's folder would hide them)."""
    return next((folder for folder in ROOT.parents if (folder / "pyvenv.cfg").is_file()), None)


@pytest.hookimpl(tryfirst=True)
def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The installed suites are collected where they are installed, also in a virtual
    environment inside the project's folder (``.venv/``, which pytest skips otherwise, so no
    test would run): the folders leading to the suites are walked, nothing else of that
    environment (nor its links, such as ``lib64``, which lead to the suites a second time)."""
    hidden = _hidden_install()
    if hidden is None or not config.stash.get(SELECTED, None):
        return None
    path = collection_path.resolve()
    if not path.is_relative_to(hidden) or _in_a_suite(path):
        return None
    return not (_in_suite_chain(path) and not collection_path.is_symlink())


def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Walk the suites' folders as plain directories: never import them as loose packages."""
    if _in_suite_chain(path.resolve()) and (path / "__init__.py").exists():
        return pytest.Dir.from_parent(parent, path=path)
    return None


def _is_suite_module(path: Path, parent: pytest.Collector) -> bool:
    """A file of a suite package, in a run that selected drivers."""
    return (
        suite_of(path.resolve().parent) is not None
        and path.suffix == ".py"
        and bool(parent.config.stash[SELECTED])
    )


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    if not _is_suite_module(file_path, parent) or file_path.name.startswith("_"):
        return None  # helpers such as _builders.py hold no tests
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
    """A suite module imported under its installed name (its suite's package and its own), so
    the kit has one copy of itself.

    Its coroutine tests are handed to pytest as plain functions that run on the test's own
    event loop (the one its store was opened on), so an async plugin of the user's project
    (pytest-asyncio in auto mode, anyio) never takes them over onto another loop.
    """

    def _getobj(self) -> Any:
        suite = suite_of(self.path.resolve().parent)
        assert suite is not None  # only suite files are made SuiteModules (_is_suite_module)
        module = importlib.import_module(f"{suite.package}.{self.path.stem}")
        for name, obj in list(vars(module).items()):
            if name.startswith("test") and inspect.iscoroutinefunction(obj):
                setattr(module, name, on_store_loop(obj))
        return module

    def collect(self) -> Any:
        for item in super().collect():
            if getattr(item, "originalname", None) == DIFFERENTIAL_TEST and not _differential(self.config):
                continue  # exists only when it runs: no phantom item in a run without the mode
            if type(item) is pytest.Function:
                item.__class__ = SuiteFunction  # pytest has no hook for a Function subclass
            item.add_marker(pytest.mark.aalis_conformance)
            item.extra_keyword_matches.update(properties.spec_ids(item))  # -k ARCH-01 works
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
        # the current context: the running test's steps (conformance.steps) are in it
        runner.run(test(*args, **kwargs), context=contextvars.copy_context())

    for attribute in ("__module__", "__name__", "__qualname__", "__doc__"):
        setattr(run, attribute, getattr(test, attribute))
    run.__dict__.update(test.__dict__)  # marks (pytestmark) and the like
    run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    # The coroutine itself, for code that calls a suite test directly (the kit's own proofs):
    # once a run has collected the suite, the module's name is bound to this wrapper.
    run.coroutine = test  # type: ignore[attr-defined]
    return run


#: The one test that drives several drivers at once (``--memory-differential``).
DIFFERENTIAL_TEST: Final = properties.DIFFERENTIAL


def _differential(config: pytest.Config) -> bool:
    """Whether the differential test runs (``--memory-differential`` with selected drivers)."""
    return bool(config.stash.get(SELECTED, [])) and bool(config.getoption("--memory-differential"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests of rules left out by ``--memory-rules`` are deselected (and reported not run)."""
    selected = config.stash[RULES]
    if selected.patterns:
        dropped = [
            i for i in items if properties.spec_ids(i) and not any(map(selected, properties.spec_ids(i)))
        ]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = [i for i in items if i not in dropped]


def pytest_collection_finish(session: pytest.Session) -> None:
    """In a run of the suite, what the imports and the collection made is kept out of the
    cyclic garbage collector's passes (``gc.freeze``): they live to the end of the process, and
    walking them again at every full pass and at pytest's last ``gc.collect`` cost about a sixth
    of an in-memory driver's default run (docs/benchmarks.md). Nothing the tests make is frozen,
    and nothing is collected sooner or later than it would be otherwise but those objects."""
    if session.config.stash.get(SELECTED, None):
        gc.freeze()


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
    runner.run(
        pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}),
        context=contextvars.copy_context(),
    )
    return True
