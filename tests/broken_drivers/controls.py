"""Controls: backends that do what the documents allow where a stricter reading is easy to slip
into, and must therefore get no MUST failure.

Each control is a reference store with one behaviour the documents leave to the backend. The kit
test ``tests/proofs/test_controls.py`` runs the suite (its example tests) against every control and
checks that no rule is reported ``fail`` and that the rule the control stands at the edge of
gets the verdict it names (``expected``). ``plugin.py`` registers each as ``control-NAME``.
"""

from __future__ import annotations

import datetime
import decimal
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypeVar

import attrs

from aalis_memory.conformance.registration.registry import Capabilities, DriverRegistration
from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.inmemory import InMemoryMemory, StoredMetadata
from aalis_memory.types import MetadataOp, MetadataPut
from broken_drivers import INMEMORY_CAPS, store_registration

C = TypeVar("C", bound=type)


@attrs.frozen
class Control:
    name: str
    store_class: type
    capabilities: Capabilities
    why: str
    #: Rule -> the verdict the control must get for it (the edge it stands at).
    expected: Mapping[str, str]


CONTROLS: dict[str, Control] = {}


def control(
    name: str, *, expected: Mapping[str, str], capabilities: Capabilities = INMEMORY_CAPS
) -> Callable[[C], C]:
    """Declare ``cls`` (a store class taking the reference keyword arguments) a control."""

    def register(cls: C) -> C:
        if name in CONTROLS:
            raise ValueError(f"control {name!r} declared twice")
        doc = (cls.__doc__ or "").strip().split("\n")[0]
        CONTROLS[name] = Control(name, cls, capabilities, doc, dict(expected))
        return cls

    return register


def registration(entry: Control) -> DriverRegistration:
    """``entry`` as the driver ``control-NAME``, behind the reference argument checks."""
    return store_registration(f"control-{entry.name}", entry.store_class, entry.capabilities, entry.why)


@control(
    "no-range-cap",
    expected={"RANGE-01": "excluded by tier"},
    capabilities=attrs.evolve(INMEMORY_CAPS, range_cap=False),
)
class NoRangeCap(InMemoryMemory):
    """Has no range cap and says so (range_cap=False): a range read returns every match."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.range_query_limit = 10**12


#: How far the server clocks of the two controls below are off the kit's: far more than the
#: round trips of the checks that read updated_at, well inside META-05's allowance for skew.
SKEW_MS: Final = 90_000


@control("server-clock-ahead", expected={"META-05": "pass"})
class ServerClockAhead(InMemoryMemory):
    """Stamps updated_at from a server's clock 90 s ahead of the kit's: still epoch ms taken at
    write time, growing on every overwrite (META-05 judges growth, not the kit's clock)."""

    def _metadata_clock(self) -> int:
        return sem.now_ms() + SKEW_MS


@control("server-clock-behind", expected={"META-05": "pass"})
class ServerClockBehind(InMemoryMemory):
    """Stamps updated_at from a server's clock 90 s behind the kit's."""

    def _metadata_clock(self) -> int:
        return sem.now_ms() - SKEW_MS


def _lenient(value: object) -> object:
    """What a lenient encoder makes of values strict JSON refuses (anything else: refused)."""
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    if isinstance(value, bytes):
        return value.decode("latin-1")
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    raise TypeError(f"cannot store a {type(value).__name__}")


#: The lenient store's encoder: NaN and infinities allowed, sets as lists, non-str keys as text.
LENIENT: Final = json.JSONEncoder(allow_nan=True, default=_lenient)


@control("lenient-json", expected={"COMMIT-04": "pass", "META-08": "advisory"})
class LenientJson(InMemoryMemory):
    """Stores what plain ``json.dumps`` can be talked into (NaN, sets as lists, bytes as text),
    but encodes a whole batch before writing any of it: every batch is all or nothing."""

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        texts = [
            LENIENT.encode(op.data) if isinstance(op, MetadataPut) else None for op in sem.check_ops(ops)
        ]  # any refusal happens here, before any write
        for op, text in zip(ops, texts, strict=True):
            if text is None:
                self._delete(op.namespace, op.key)
                continue
            space = self._metadata.setdefault(op.namespace, {})
            previous = space.get(op.key)
            stamp = sem.next_updated_at(None if previous is None else previous.updated_at)
            space[op.key] = StoredMetadata(text, stamp)


__all__ = ["CONTROLS", "Control", "control", "registration"]
