"""A driver that names its documented backend may declare only the tiers the documents grant that
backend: anything else is a usage error (``UngrantedTier``) when it is registered, never a
warning lost in a run's output. A driver naming no documented backend is only warned about."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import attrs
import pytest

from aalis_memory.conformance import Capabilities, DriverContext, UngrantedTier, memory_driver
from aalis_memory.conformance.registration.registry import DocumentedBackend, DriverRegistration, registered
from aalis_memory.conformance.registration.tiers import weaker_than_granted
from aalis_memory.drivers.registrations import mongodb


async def _factory(ctx: DriverContext) -> AsyncIterator[Any]:
    yield None


@pytest.mark.parametrize(
    ("backend", "caps", "named"),
    [
        ("sqlite", Capabilities(ordering="write"), "ordering='write'"),
        (
            "mongodb",
            Capabilities(ordering="write", metadata_atomicity="ordered", archive_atomicity="partial"),
            "ordering='write'",
        ),
        (
            "inmemory",
            Capabilities(ordering="write", archive_atomicity="partial"),
            "archive_atomicity='partial'",
        ),
        ("sqlite", Capabilities(metadata_atomicity="ordered"), "metadata_atomicity='ordered'"),
        (
            "mongodb",
            Capabilities(metadata_atomicity="ordered", archive_atomicity="partial", range_cap=False),
            "range_cap=False",
        ),
    ],
)
def test_an_ungranted_tier_is_refused_at_registration(
    backend: DocumentedBackend, caps: Capabilities, named: str
) -> None:
    name = f"ungranted-{backend}-{named}"
    with pytest.raises(UngrantedTier) as raised:
        memory_driver(name, capabilities=caps, documented_backend=backend)(_factory)
    text = str(raised.value)
    assert named in text, text
    assert f"documented_backend={backend!r}" in text, text
    assert name not in registered()  # nothing half-registered
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize(
    ("backend", "caps"),
    [
        ("inmemory", Capabilities(ordering="write")),
        ("sqlite", Capabilities()),
        ("sqlite", Capabilities(range_cap=False)),  # the documents give sqlite no range cap
        ("mongodb", Capabilities(metadata_atomicity="ordered", archive_atomicity="partial")),
        (
            None,
            Capabilities(
                ordering="write", metadata_atomicity="ordered", archive_atomicity="partial", range_cap=False
            ),
        ),
    ],
)
def test_granted_tiers_register(backend: DocumentedBackend | None, caps: Capabilities) -> None:
    registration = DriverRegistration(
        name="granted", factory=_factory, capabilities=caps, documented_backend=backend
    )
    assert registration.capabilities == caps
    if backend is not None:
        assert weaker_than_granted(caps, backend) == []


def test_a_refused_registration_through_attrs_evolve() -> None:
    """Entry points are registered with attrs.evolve: the check runs there too."""
    registration = DriverRegistration(name="ok", factory=_factory, documented_backend="sqlite")
    with pytest.raises(UngrantedTier):
        attrs.evolve(registration, capabilities=Capabilities(archive_atomicity="partial"))


def test_range_cap_must_be_a_bool() -> None:
    with pytest.raises(TypeError):
        Capabilities(range_cap="no")  # type: ignore[arg-type]


@pytest.mark.aalis_spec("RANGE-01")
def test_the_mongodb_backend_always_has_a_range_cap() -> None:
    """The rule binds the MongoDB backend whatever it declares: the kit's mongodb driver declares
    its cap, and a driver naming that backend cannot declare it away."""
    assert mongodb.documented_backend == "mongodb"
    assert mongodb.capabilities.range_cap
    uncapped = Capabilities(metadata_atomicity="ordered", archive_atomicity="partial", range_cap=False)
    with pytest.raises(UngrantedTier, match="range_cap=False"):
        memory_driver("mongodb-without-a-range-cap", capabilities=uncapped, documented_backend="mongodb")(
            _factory
        )
    assert "mongodb-without-a-range-cap" not in registered()
