"""One registry shape for everything a user plugs into the kit (drivers, compression providers).

Registrations come from decorators in a ``conftest.py`` or from an entry-point group; both end up
here, keyed by name, and an unknown name is answered with the list of known ones.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import attrs


class Named(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def factory(self) -> Callable[..., Any]: ...


R = TypeVar("R", bound=Named)


def defined_at(factory: Callable[..., Any]) -> str:
    """``file:line`` of a factory's definition (relative to the working directory if inside)."""
    try:
        path = Path(inspect.getsourcefile(factory) or "?")
        line = inspect.getsourcelines(factory)[1]
    except (OSError, TypeError):
        return repr(factory)
    with contextlib.suppress(ValueError):
        path = path.resolve().relative_to(Path.cwd())
    return f"{path}:{line}"


class NamedRegistry(Generic[R]):
    """Registrations of one kind (``what``, e.g. "memory driver"), by name."""

    def __init__(self, what: str, group: str, kind: type[R], decorator: str) -> None:
        self.what = what
        self.group = group
        self._kind = kind
        self._decorator = decorator
        self._items: dict[str, R] = {}
        #: Where each registration was made (``file:line`` or the entry point), for messages.
        self._origins: dict[str, str] = {}
        #: Per name, the first clash of two different registrations, naming both places: a
        #: usage error the plugin raises once everything is loaded (never mid-import).
        self.conflicts: dict[str, str] = {}

    def add(self, registration: R, origin: str | None = None) -> None:
        """Register ``registration``; a second, different one of the same name is recorded in
        :attr:`conflicts` and ignored."""
        name = registration.name
        origin = origin or defined_at(registration.factory)
        existing = self._items.get(name)
        if (
            existing is not None
            and existing.factory is not registration.factory
            and self._origins[name] != origin
        ):
            self.conflicts.setdefault(
                name,
                f"{self.what} {name!r} is registered twice: at {self._origins[name]} and "
                f"at {origin}; rename one of them",
            )
            return
        self._items[name] = registration
        self._origins[name] = origin

    def load_entry_points(self) -> None:
        """Register every object of the entry-point group under the entry point's name."""
        for point in entry_points(group=self.group):
            target = point.load()
            if not isinstance(target, self._kind):
                raise TypeError(
                    f"entry point {point.name!r} ({point.value}) must point at the object "
                    f"returned by {self._decorator}, got {type(target).__name__}"
                )
            dist = f" of {point.dist.name} {point.dist.version}" if point.dist else ""
            self.add(
                attrs.evolve(target, name=point.name),  # type: ignore[misc]
                origin=f"entry point {point.name} = {point.value}{dist}",
            )

    def select(self, names: list[str]) -> list[str]:
        """``names`` with ``all`` expanded; an unknown name raises ``LookupError`` listing the
        known ones."""
        if "all" in names:
            names = [n for n in names if n != "all"] + sorted(set(self._items) - set(names))
        unknown = [n for n in names if n not in self._items]
        if unknown:
            known = ", ".join(sorted(self._items)) or "none"
            raise LookupError(
                f"unknown {self.what}(s) {', '.join(unknown)}; registered: {known} (register one "
                f"with {self._decorator} in a conftest.py, or through the {self.group!r} "
                "entry-point group)"
            )
        return names

    def registered(self) -> dict[str, R]:
        return dict(self._items)

    def get(self, name: str) -> R:
        try:
            return self._items[name]
        except KeyError:
            known = ", ".join(sorted(self._items)) or "none"
            raise LookupError(f"no {self.what} named {name!r} (registered: {known})") from None
