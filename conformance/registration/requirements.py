"""Named requirements (SQLAlchemy's idea): a test says what it needs, the kit says why it skips.

Use ``@requires.count_history`` or ``@requires.atomic_metadata`` on a suite test. Unknown names
fail at import time, so a typo never turns into a silently skipped test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import attrs
import pytest

from aalis_memory.conformance.registration.registry import DriverRegistration
from aalis_memory.conformance.rules.verdict import Verdict
from aalis_memory.service import OPTIONAL_METHODS


@attrs.frozen
class Requirement:
    name: str
    #: Returns ``None`` when met, else the reason the test cannot run.
    unmet: Callable[[DriverRegistration, Any], str | None]
    #: What an unmet requirement makes of the test's rules.
    verdict: Verdict


def _method(name: str) -> Requirement:
    def unmet(registration: DriverRegistration, store: Any) -> str | None:
        if callable(getattr(store, name, None)):
            return None
        return f"driver {registration.name!r} does not implement optional method {name}()"

    return Requirement(name, unmet, Verdict.NOT_IMPLEMENTED)


def _tier(field: str, wanted: str) -> Requirement:
    def unmet(registration: DriverRegistration, _store: Any) -> str | None:
        declared = getattr(registration.capabilities, field)
        if declared == wanted:
            return None
        return (
            f"driver {registration.name!r} declares {field}={declared!r}; this test checks "
            f"what {field}={wanted!r} promises"
        )

    return Requirement(f"{field}={wanted}", unmet, Verdict.EXCLUDED)


def _range_cap(registration: DriverRegistration, _store: Any) -> str | None:
    if registration.capabilities.range_cap:
        return None
    return (
        f"driver {registration.name!r} declares no range cap (range_cap=False); the cap's "
        "rule binds only backends with a range cap"
    )


def _raw_metadata(registration: DriverRegistration, _store: Any) -> str | None:
    if registration.raw_metadata is not None:
        return None
    return f"no raw access (driver {registration.name!r} registers no raw_metadata hook)"


REQUIREMENTS: Final[dict[str, Requirement]] = {
    **{name: _method(name) for name in OPTIONAL_METHODS},
    "timestamp_ordering": _tier("ordering", "timestamp"),
    "atomic_metadata": _tier("metadata_atomicity", "atomic"),
    "ordered_metadata": _tier("metadata_atomicity", "ordered"),
    "atomic_archive": _tier("archive_atomicity", "atomic"),
    "range_cap": Requirement("range_cap", _range_cap, Verdict.EXCLUDED),
    "raw_metadata": Requirement("raw_metadata", _raw_metadata, Verdict.UNVERIFIED),
}


class _Requires:
    """Attribute access yields the ``requires`` marker for a known requirement name."""

    def __getattr__(self, name: str) -> pytest.MarkDecorator:
        if name not in REQUIREMENTS:
            raise AttributeError(f"unknown requirement {name!r}; known: {sorted(REQUIREMENTS)}")
        return pytest.mark.aalis_requires(name)


#: ``@requires.NAME`` marks a test with what it needs of the driver: an optional method
#: (``count_history``, ...), a tier (``atomic_metadata``, ``timestamp_ordering``, ...),
#: ``range_cap`` or ``raw_metadata``; on a driver without it the test does not run, and its rules
#: get the verdict saying why. An unknown NAME fails at import.
requires: Final = _Requires()


def unmet(names: list[str], registration: DriverRegistration, store: Any) -> tuple[Verdict, str] | None:
    """The first reason a test with these requirements cannot run on this driver, with the
    verdict that gives its rules."""
    for name in names:
        requirement = REQUIREMENTS[name]
        reason = requirement.unmet(registration, store)
        if reason is not None:
            return requirement.verdict, reason
    return None
