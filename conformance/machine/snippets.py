"""Reproduction snippets: the calls a failing history made, as Python a driver author can paste.

The machine records every store call as a :class:`Step` and renders them only when it reports a
failure (:func:`reproduction`), so recording costs nothing on the passing path. Checking reads
that passed are dropped from the record on the way; a snippet ends with the read that shows the
bug.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

import attrs

from aalis_memory.types import (
    ABSENT,
    Message,
    MetadataDel,
    MetadataPut,
    RecentMessagesAcrossSessionsQuery,
)

#: What a reproduction snippet needs in scope (it is printed above every snippet).
SNIPPET_IMPORTS: Final = (
    "import asyncio, contextlib, math",
    "from aalis_memory.types import (Message, MetadataDel, MetadataPut,",
    "                                RecentMessagesAcrossSessionsQuery)",
)


def py(value: Any) -> str:
    """Python source for a contract value, absent fields left out, so snippets stay short."""
    if isinstance(value, Message):
        parts = [f"role={value.role!r}", f"content={value.content!r}"]
        for field in attrs.fields(Message)[2:]:
            item = getattr(value, field.name)
            if item is not None and item is not ABSENT:
                parts.append(f"{field.name}={py(item)}")
        return f"Message({', '.join(parts)})"
    if isinstance(value, RecentMessagesAcrossSessionsQuery):
        parts = [f"limit={py(value.limit)}"]
        for field in attrs.fields(RecentMessagesAcrossSessionsQuery)[1:]:
            item = getattr(value, field.name)
            if item is not None:
                parts.append(f"{field.name}={py(item)}")
        return f"RecentMessagesAcrossSessionsQuery({', '.join(parts)})"
    if isinstance(value, MetadataPut):
        return f"MetadataPut({value.namespace!r}, {value.key!r}, {py(value.data)})"
    if isinstance(value, MetadataDel):
        return f"MetadataDel({value.namespace!r}, {value.key!r})"
    if isinstance(value, float) and math.isinf(value):
        return "math.inf" if value > 0 else "-math.inf"
    if isinstance(value, float) and math.isnan(value):
        return "math.nan"
    if isinstance(value, list):
        return "[" + ", ".join(py(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(py(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {py(v)}" for k, v in value.items()) + "}"
    if isinstance(value, set):
        return "{" + ", ".join(py(v) for v in sorted(value, key=repr)) + "}"
    return repr(value)


@attrs.frozen
class Step:
    """One recorded store call, rendered as Python only when a failure is reported."""

    method: str
    args: tuple[Any, ...]
    #: Errors the call must raise: the snippet suppresses them and goes on, like the machine.
    errors: tuple[type[BaseException], ...] = attrs.field(default=(), kw_only=True)

    def call(self) -> str:
        return f"{self.method}({', '.join(py(a) for a in self.args)})"

    def awaited(self, call: str) -> str:
        if not self.errors:
            return f"await {call}"
        names = ", ".join(e.__name__ for e in self.errors)
        return f"with contextlib.suppress({names}): await {call}  # must raise {names}"

    def __str__(self) -> str:
        return self.awaited(f"store.{self.call()}")

    def render(self, polled: bool) -> str:
        """The step as snippet lines; ``polled`` only matters for :class:`Watched`."""
        return str(self)


@attrs.frozen
class CallerMutates(Step):
    """A call after which the caller changes an object it handed over or got back (META-06)."""

    marker: str = ""

    def __str__(self) -> str:
        if self.method == "save_metadata":
            *head, data = self.args
            return "\n        ".join((
                f"data = {py(data)}",
                f"await store.{self.method}({', '.join(py(a) for a in head)}, data)",
                f"data[{self.marker!r}] = True  # the caller reuses its object",
            ))
        return "\n        ".join((
            f"got = await store.{self.call()}",
            f"if isinstance(got, dict): got[{self.marker!r}] = True  # the caller edits it",
        ))


@attrs.frozen
class Planted(Step):
    """An unreadable entry written around the API, through the registration's raw hook."""

    def __str__(self) -> str:
        return f"await plant(store, {', '.join(py(a) for a in self.args)})"


@attrs.frozen
class Watched(Step):
    """A write run with a reader polling ``reads`` at every await it makes (atomic tiers)."""

    reads: tuple[Step, ...] = ()

    def render(self, polled: bool) -> str:
        """The polling reader is shown only for the write a torn read was reported on."""
        if not polled:
            return str(self)
        polls = "; ".join(f"seen.append(await store.{read.call()})" for read in self.reads)
        return "\n        ".join((
            "seen = []  # each read must show the state before the write or the one after it",
            f"writer = asyncio.ensure_future(store.{self.call()})",
            "while not writer.done():",
            f"    {polls}; await asyncio.sleep(0)",
            self.awaited("writer"),
        ))


def reproduction(script: Sequence[Step], polled: bool = False) -> list[str]:
    """The snippet lines of ``script`` (``polled``: show the reader of the last, watched step)."""
    planting = any(isinstance(step, Planted) for step in script)
    last = len(script) - 1
    return [
        *SNIPPET_IMPORTS,
        "async def reproduce(store, plant):  # plant: your raw_metadata hook, awaitable"
        if planting else "async def reproduce(store):",
        *(f"    {step.render(polled and i == last)}" for i, step in enumerate(script)),
    ]


__all__ = [
    "SNIPPET_IMPORTS",
    "CallerMutates",
    "Planted",
    "Step",
    "Watched",
    "py",
    "reproduction",
]
