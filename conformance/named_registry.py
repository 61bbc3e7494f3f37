"""One registry shape for everything a user plugs into the kit (drivers, compression providers).

Registrations come from decorators in a ``conftest.py`` or from an entry-point group; both end up
here, keyed by name, and an unknown name is answered with the list of known ones.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any, Generic, Protocol, TypeVar

import attrs


class Named(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def factory(self) -> Callable[..., Any]: ...


R = TypeVar("R", bound=Named)


class NamedRegistry(Generic[R]):
    """Registrations of one kind (``what``, e.g. "memory driver"), by name."""

    def __init__(self, what: str, group: str, kind: type[R], decorator: str) -> None:
        self.what = what
        self.group = group
        self._kind = kind
        self._decorator = decorator
        self._items: dict[str, R] = {}

    def add(self, registration: R) -> None:
        existing = self._items.get(registration.name)
        if existing is not None and existing.factory is not registration.factory:
            raise ValueError(f"{self.what} {registration.name!r} is registered twice")
        self._items[registration.name] = registration

    def load_entry_points(self) -> None:
        """Register every object of the entry-point group under the entry point's name."""
        for point in entry_points(group=self.group):
            if point.name in self._items:
                continue
            target = point.load()
            if not isinstance(target, self._kind):
                raise TypeError(
                    f"entry point {point.name!r} ({point.value}) must point at the object "
                    f"returned by {self._decorator}, got {type(target).__name__}"
                )
            self.add(attrs.evolve(target, name=point.name))  # type: ignore[misc]

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
