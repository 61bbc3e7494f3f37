"""A driver's declared tiers, written out and read back from the fields of the one attrs class.

:class:`~aalis_memory.conformance.registration.registry.Capabilities` is the only place its fields are
named: the stdio handshake (camelCase on the wire), the JSON report and the Markdown matrix all
derive theirs here, so a field added to the class cannot be silently dropped by one of them
(``tests/kit/test_capabilities_serialized.py`` checks every surface, the JSON schemas included).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

import attrs

from aalis_memory.conformance.registration.registry import Capabilities


def wire_name(field: str) -> str:
    """``metadata_atomicity`` -> ``metadataAtomicity`` (the stdio protocol's spelling)."""
    head, *rest = field.split("_")
    return head + "".join(part.capitalize() for part in rest)


#: The fields of :class:`Capabilities`, in declaration order.
FIELDS: Final[tuple[str, ...]] = tuple(field.name for field in attrs.fields(Capabilities))
#: Field -> its name in the stdio handshake's ``capabilities`` object.
WIRE_NAMES: Final[dict[str, str]] = {field: wire_name(field) for field in FIELDS}


def as_record(caps: Capabilities | None) -> dict[str, Any]:
    """Every field by its Python name (the JSON report's ``capabilities``); ``None`` each when
    the driver is unknown."""
    if caps is None:
        return dict.fromkeys(FIELDS)
    return attrs.asdict(caps)


def to_wire(caps: Capabilities) -> dict[str, Any]:
    """Every field by its wire name, as an adapter's handshake declares it."""
    return {WIRE_NAMES[field]: value for field, value in attrs.asdict(caps).items()}


def from_wire(members: Mapping[str, Any]) -> Capabilities:
    """The handshake's ``capabilities`` as the class: an absent member takes the field's default
    (``rangeCap`` may be left out, meaning a range cap); the class validates the values."""
    return Capabilities(**{field: members[wire] for field, wire in WIRE_NAMES.items() if wire in members})


def as_text(caps: Capabilities) -> str:
    """``ordering=timestamp, metadata_atomicity=atomic, ..., range_cap=true`` (the matrix's cell;
    values spelled as in the JSON report)."""
    return ", ".join(
        f"{field}={value if isinstance(value, str) else json.dumps(value)}"
        for field, value in attrs.asdict(caps).items()
    )


__all__ = ["FIELDS", "WIRE_NAMES", "as_record", "as_text", "from_wire", "to_wire", "wire_name"]
