"""The record a test phase hands on, and the one place it is serialized.

A phase's :class:`Judgement` (what it said about each of its rules, as typed
:class:`~aalis_memory.conformance.verdicts.model.Outcome` records) and the structured properties
a test attaches for its judging (:class:`Structured`) travel on pytest's report as objects. They
become text only where a report leaves its process: a pytest-xdist worker's report
(:func:`encode_properties` and :func:`decode_properties`, called from the reporter's
serialization hooks), and the JUnit file, whose writer takes ``str()`` of each property: JSON a
CI tool can read back, never a Python repr.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

import attrs

from aalis_memory.conformance.verdicts.model import FAILED, Outcome, Verdict


@attrs.frozen
class Judgement:
    """What one phase of one test said about the rules of one driver."""

    #: Whose rules they are: the test's driver, or the one a differential failure belongs to.
    driver: str
    #: Every rule the test is marked with.
    rules: tuple[str, ...]
    outcomes: tuple[Outcome, ...]
    #: Set when the kit had stopped using the driver and so did not run the test: the cause.
    stopped: str | None = None
    #: Set when the test got a store the driver's ``fresh=`` hook left state in (a usage error of
    #: the hook, see :mod:`aalis_memory.conformance.harness.fresh`): the error. Not judged.
    usage_error: str | None = None

    def __str__(self) -> str:
        return json.dumps([o.as_json() for o in self.outcomes])

    @property
    def worst(self) -> Verdict | None:
        return min((o.verdict for o in self.outcomes), key=lambda v: v.rank, default=None)

    def failing(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.verdict in FAILED]

    def noted(self, note: str) -> Judgement:
        """The same judgement with ``note`` added under the message of each failure (how to
        reproduce it, found after the judging)."""
        return attrs.evolve(
            self,
            outcomes=tuple(
                attrs.evolve(o, message=f"{o.message}\n{note}") if o.verdict in FAILED else o
                for o in self.outcomes
            ),
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "driver": self.driver,
            "rules": list(self.rules),
            "stopped": self.stopped,
            "usage_error": self.usage_error,
            "outcomes": [o.as_json() for o in self.outcomes],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Judgement:
        return cls(
            data["driver"],
            tuple(data["rules"]),
            tuple(Outcome.from_json(o) for o in data["outcomes"]),
            data["stopped"],
            data["usage_error"],
        )


@attrs.frozen
class Structured:
    """A structured test property (how many checks ran, the advisories, notes): the value itself
    within the process, JSON text in ``str()``."""

    value: Any

    def __str__(self) -> str:
        return json.dumps(self.value)


_TAG: Final = "aalis-memory:"


def encode_properties(properties: Iterable[Any]) -> list[Any]:
    """A report's properties fit to leave the process: the kit's records as tagged JSON text."""
    encoded: list[Any] = []
    for name, value in properties:
        if isinstance(value, Judgement):
            value = f"{_TAG}judgement:{json.dumps(value.as_json())}"
        elif isinstance(value, Structured):
            value = f"{_TAG}structured:{value}"
        encoded.append((name, value))
    return encoded


def decode_properties(properties: Iterable[Any]) -> list[tuple[str, Any]]:
    """The records :func:`encode_properties` turned into text, objects again."""
    decoded: list[tuple[str, Any]] = []
    for name, value in properties:
        if isinstance(value, str) and value.startswith(_TAG):
            kind, _, text = value.removeprefix(_TAG).partition(":")
            value = (
                Judgement.from_json(json.loads(text)) if kind == "judgement" else Structured(json.loads(text))
            )
        decoded.append((name, value))
    return decoded
