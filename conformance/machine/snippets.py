"""Reproduction snippets: the calls a failing history made, as Python a driver author can paste,
or as TypeScript for a backend served over the stdio bridge (:func:`typescript_reproduction`).

The machine records every store call as a :class:`Step` and renders them only when it reports a
failure (:func:`reproduction`, or :func:`reproduction_for` its targets), so recording costs
nothing on the passing path. Checking reads that passed are dropped from the record on the way;
a snippet ends with the read that shows the bug.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs

from aalis_memory.drivers.stdio.driver import is_stdio
from aalis_memory.types import (
    ABSENT,
    Message,
    MetadataDel,
    MetadataPut,
    RecentMessagesAcrossSessionsQuery,
)

if TYPE_CHECKING:
    from aalis_memory.conformance.machine.stores import Target

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
            return "\n        ".join(
                (
                    f"data = {py(data)}",
                    f"await store.{self.method}({', '.join(py(a) for a in head)}, data)",
                    f"data[{self.marker!r}] = True  # the caller reuses its object",
                )
            )
        return "\n        ".join(
            (
                f"got = await store.{self.call()}",
                f"if isinstance(got, dict): got[{self.marker!r}] = True  # the caller edits it",
            )
        )


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
        return "\n        ".join(
            (
                "seen = []  # each read must show the state before the write or the one after it",
                f"writer = asyncio.ensure_future(store.{self.call()})",
                "while not writer.done():",
                f"    {polls}; await asyncio.sleep(0)",
                self.awaited("writer"),
            )
        )


def reproduction(script: Sequence[Step], polled: bool = False) -> list[str]:
    """The snippet lines of ``script`` (``polled``: show the reader of the last, watched step)."""
    planting = any(isinstance(step, Planted) for step in script)
    last = len(script) - 1
    return [
        *SNIPPET_IMPORTS,
        "async def reproduce(store, plant):  # plant: your raw_metadata hook, awaitable"
        if planting
        else "async def reproduce(store):",
        *(f"    {step.render(polled and i == last)}" for i, step in enumerate(script)),
    ]


def reproduction_for(
    targets: Sequence[Target], driver: str, script: Sequence[Step], polled: bool = False
) -> list[str]:
    """The snippet of a failure of ``driver`` (one of the machine's ``targets``): TypeScript for
    a stdio driver, whose store's protocol lines are kept for the failure's transcript too
    (:mod:`aalis_memory.drivers.stdio.transcript`); Python otherwise."""
    target = next((t for t in targets if t.name == driver), None)
    if target is None or not is_stdio(target.registration):
        return reproduction(script, polled)
    lines = typescript_reproduction(script, polled)
    recorder = target.state.recorders.get(driver)
    if recorder is not None:
        recorder.keep(tuple(lines))
    return lines


# -- TypeScript ----------------------------------------------------------------------------------

#: What a TypeScript snippet imports (the bridge's contract types).
TS_IMPORT: Final = "import type { MemoryService, RawMetadataAccess } from '@aalis/memory-stdio-bridge';"
#: The untyped view of the store the steps with hostile arguments call through.
TS_LOOSE: Final = (
    "const loose = store as unknown as Record<string, "
    "(...args: unknown[]) => Promise<unknown>>;  // for arguments the types refuse"
)
_IDENTIFIER: Final = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_SAFE: Final = 2**53


def ts_string(text: str) -> str:
    """A single-quoted TypeScript string literal (JSON's escapes are JavaScript's)."""
    try:
        text.encode("utf-8")
        body = json.dumps(text, ensure_ascii=False)[1:-1]
    except UnicodeEncodeError:  # a lone surrogate: spelled as its escape
        body = json.dumps(text)[1:-1]
    body = body.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return "'" + body.replace('\\"', '"').replace("'", "\\'") + "'"


def _ts_key(key: str) -> str:
    if key == "__proto__":  # an own property, not the object's prototype
        return f"[{ts_string(key)}]"
    return key if _IDENTIFIER.match(key) else ts_string(key)


def ts(value: Any) -> str:
    """TypeScript source for a value as a backend gets it through the bridge: camelCase
    messages and queries, absent fields left out, ``math.inf`` as ``Infinity``."""
    if isinstance(value, Message):
        return ts(value.to_json())
    if isinstance(value, RecentMessagesAcrossSessionsQuery):
        query = {
            "limit": value.limit,
            "sinceTs": value.since_ts,
            "platform": value.platform,
            "excludeSessionIds": value.exclude_session_ids,
            "roles": value.roles,
            "kinds": value.kinds,
            "excludeKinds": value.exclude_kinds,
        }
        return ts({k: v for k, v in query.items() if v is not None})
    if isinstance(value, MetadataPut):
        return (
            f"{{op: 'put', namespace: {ts(value.namespace)}, key: {ts(value.key)}, data: {ts(value.data)}}}"
        )
    if isinstance(value, MetadataDel):
        return f"{{op: 'del', namespace: {ts(value.namespace)}, key: {ts(value.key)}}}"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if abs(value) <= _SAFE else f"({value}n as never)"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    if isinstance(value, str):
        return ts_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(ts(v) for v in value) + "]"
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return "{" + ", ".join(f"{_ts_key(k)}: {ts(v)}" for k, v in value.items()) + "}"
        return "new Map([" + ", ".join(f"[{ts(k)}, {ts(v)}]" for k, v in value.items()) + "])"
    if isinstance(value, set | frozenset):
        return "new Set([" + ", ".join(ts(v) for v in sorted(value, key=repr)) + "])"
    if isinstance(value, bytes):
        return f"new Uint8Array([{', '.join(str(b) for b in value)}])"
    return f"(undefined as never /* a Python {type(value).__name__} */)"


def ts_method(name: str) -> str:
    """The backend's camelCase method name."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def ts_call(step: Step, on: str = "store") -> str:
    """``on.method(args)`` in TypeScript: archive_span's span as its object, an omitted (None)
    argument left out at the end and ``undefined`` before a given one."""
    args: list[Any] = list(step.args)
    if step.method == "archive_span" and len(args) >= 2:
        shown = [ts(args[0]), f"{{count: {ts(args[1])}, keep: {ts(args[2] if len(args) > 2 else [])}}}"]
    else:
        while args and args[-1] is None:
            args.pop()
        shown = ["undefined" if a is None else ts(a) for a in args]
    return f"{on}.{ts_method(step.method)}({', '.join(shown)})"


def _ts_errors(step: Step) -> str:
    return " or ".join(e.__name__ for e in step.errors)


def ts_lines(step: Step, polled: bool, last: bool) -> list[str]:
    """The TypeScript lines of one step (``last``: the read that shows the bug is logged)."""
    on = "loose" if step.errors else "store"
    if isinstance(step, Planted):
        return [f"await store.plantRawMetadata({', '.join(ts(a) for a in step.args)});"]
    if isinstance(step, CallerMutates):
        if step.method == "save_metadata":
            *head, data = step.args
            return [
                "{",
                f"  const data: Record<string, unknown> = {ts(data)};",
                f"  await store.saveMetadata({', '.join(ts(a) for a in head)}, data);",
                f"  data[{ts_string(step.marker)}] = true;  // the caller reuses its object",
                "}",
            ]
        return [
            "{",
            f"  const got: unknown = await {ts_call(step)};",
            "  if (typeof got === 'object' && got !== null && !Array.isArray(got)) {",
            f"    (got as Record<string, unknown>)[{ts_string(step.marker)}] = true;  // the caller edits it",
            "  }",
            "}",
        ]
    if isinstance(step, Watched) and polled:
        awaited = (
            ["await writer;"]
            if not step.errors
            else [f"try {{ await writer; }} catch {{ /* must throw {_ts_errors(step)} */ }}"]
        )
        return [
            "{",
            "  // each read must show the state before the write or the one after it",
            "  const seen: unknown[] = [];",
            f"  const writer = {ts_call(step, on)};",
            "  let done = false;",
            "  writer.then(() => { done = true; }, () => { done = true; });",
            "  while (!done) {",
            *(f"    seen.push(await {ts_call(read)});" for read in step.reads),
            "    await new Promise((resolve) => setImmediate(resolve));",
            "  }",
            f"  {awaited[0]}",
            "}",
        ]
    if step.errors:
        return [f"try {{ await {ts_call(step, on)}; }} catch {{ /* must throw {_ts_errors(step)} */ }}"]
    if last:
        return [f"console.log(await {ts_call(step)});  // the call that shows the bug"]
    return [f"await {ts_call(step)};"]


def typescript_reproduction(script: Sequence[Step], polled: bool = False) -> list[str]:
    """The snippet lines of ``script`` as TypeScript: the calls as the bridge makes them on the
    backend's store (``store``: what its factory's ``open()`` returned, on a fresh store)."""
    planting = any(isinstance(step, Planted) for step in script)
    store_type = "Required<MemoryService>" + (" & RawMetadataAccess" if planting else "")
    last = len(script) - 1
    body = [line for i, step in enumerate(script) for line in ts_lines(step, polled and i == last, i == last)]
    return [
        "// TypeScript: the calls the bridge made on your backend's store (a fresh one)",
        TS_IMPORT,
        f"export async function reproduce(store: {store_type}): Promise<void> {{",
        *(["  " + TS_LOOSE] if any(step.errors for step in script) else []),
        *(f"  {line}" for line in body),
        "}",
    ]


__all__ = [
    "SNIPPET_IMPORTS",
    "TS_IMPORT",
    "CallerMutates",
    "Planted",
    "Step",
    "Watched",
    "py",
    "reproduction",
    "reproduction_for",
    "ts",
    "typescript_reproduction",
]
