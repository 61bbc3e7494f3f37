"""The details the judging looks up: where in the test a check failed, and the failures a driver
declares as known."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

import pytest

from aalis_memory.conformance.registration import registry


def known_failures(driver: str) -> dict[str, str]:
    try:
        return dict(registry.get(driver).known_failures)
    except LookupError:
        return {}


@functools.cache
def kit_dirs() -> tuple[Path, ...]:
    import aalis_memory  # the root package; its subpackages may live apart (editable installs)

    names = ("aalis_memory.conformance", "aalis_memory.drivers", "aalis_memory.fixtures")
    found = [importlib.util.find_spec(name) for name in names]
    paths = [
        *aalis_memory.__path__,
        *(p for spec in found if spec is not None for p in spec.submodule_search_locations or ()),
    ]
    return tuple(Path(p).resolve() for p in paths)


def in_kit(path: Path) -> bool:
    """Whether a traceback line is the kit's own code (not pytest's, pluggy's or the stdlib's)."""
    return any(path.resolve().is_relative_to(root) for root in kit_dirs())


def where_failed(item: pytest.Item, call: pytest.CallInfo[None]) -> str:
    """The line of the test's own file where the check failed (else the innermost kit line)."""
    assert call.excinfo is not None
    own = Path(str(item.path))
    entries = list(call.excinfo.traceback)
    chosen = next((e for e in reversed(entries) if Path(str(e.path)) == own), None)
    if chosen is None:
        chosen = next(
            (
                e
                for e in reversed(entries)
                if in_kit(Path(str(e.path))) and Path(str(e.path)).name != "checks.py"
            ),
            entries[-1],
        )
    return f"{Path(str(chosen.path)).name}:{chosen.lineno + 1}"
