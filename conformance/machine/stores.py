"""The stores a history drives, and what their drivers declare.

:class:`Stores` owns the stores' lifecycle (each opened by its driver's factory in a folder of
its own, on the machine's event loop, closed by one exit stack) and the calls on them; it
records nothing (the machine keeps the script, :mod:`.bookkeeping`). :class:`Declared` is what
the drivers declare (their ordering, atomic tiers, range cap): which answers the model gives and
which writes are watched.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import tempfile
from collections.abc import Awaitable, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar

import attrs

from aalis_memory.conformance.harness.adapters import opened_store
from aalis_memory.conformance.harness.run_state import RunState
from aalis_memory.conformance.machine.contract_model import Ordering
from aalis_memory.conformance.machine.copies import copied
from aalis_memory.conformance.machine.failure import Raised
from aalis_memory.conformance.machine.snippets import Step
from aalis_memory.conformance.machine.tolerance import Tolerance
from aalis_memory.conformance.probes.concurrent_reads import ReadError, WatchedWrite, watch_write
from aalis_memory.conformance.registration.registry import DriverContext, DriverRegistration
from aalis_memory.conformance.steps import REQUIRED_RULE, MissingRequired
from aalis_memory.conformance.values import torn_read
from aalis_memory.service import OPTIONAL_METHODS, REQUIRED_METHODS

Results = list[tuple[str, Any]]
T = TypeVar("T")

#: Required methods whose steps a history can leave out: REQ-01 fails their absence and the
#: histories go on without them.
SKIPPABLE: Final = ("archive_span", "clear_session")


@attrs.frozen
class Target:
    """One driver the machine runs: its registration, the context of the current test and the
    run's state (a fresh one outside a run of the plugin)."""

    registration: DriverRegistration
    ctx: DriverContext
    state: RunState = attrs.field(factory=RunState)

    @property
    def name(self) -> str:
        return self.registration.name


@attrs.frozen
class OpenStore:
    """A store opened for one example (closed by :meth:`Stores.close`)."""

    name: str
    store: Any


@attrs.frozen
class WriteOutcome:
    """A write on every store: each result, the torn reads per driver (watched writes only), and
    whether the write changed what the watching reads show (then the tier was put to the test)."""

    results: Results
    torn: dict[str, list[str]]
    changed: bool


@attrs.frozen
class Declared:
    """What the drivers declare, as one: how messages are ordered, which writes a reader may
    never see half of (ARCH-10, COMMIT-05: watched, unless tolerated), and the range cap.

    RANGE-01 binds only drivers that declare a range cap: without one (range_cap=False) the model
    cuts nothing and no read is expected to be cut (``range_capped``). When some of the drivers
    cut and others do not (``range_mixed``), range reads over the cap ``range_cut`` are not
    compared.

    ``refused_batch``: the rule a batch refused for a payload JSON cannot hold breaks when it
    changed anything: COMMIT-04 for the atomic metadata tier (whole or nothing, whatever the
    error), COMMIT-07 for the ordered one (which stops at a storage error, but checks payloads
    before writing). ``None`` when the drivers declare both tiers: no one rule binds them all,
    so no history sends them such a batch.
    """

    ordering: Ordering
    atomic_archive: bool
    atomic_metadata: bool
    refused_batch: str | None
    range_capped: bool
    range_mixed: bool
    range_cut: int

    @classmethod
    def of(cls, targets: Sequence[Target], tolerance: Tolerance) -> Declared:
        declared = [t.registration.capabilities for t in targets]
        capped = all(c.range_cap for c in declared)
        tiers = {c.metadata_atomicity for c in declared}
        return cls(
            ordering="timestamp" if all(c.ordering == "timestamp" for c in declared) else "write",
            atomic_archive=all(c.archive_atomicity == "atomic" for c in declared)
            and "ARCH-10" not in tolerance,
            atomic_metadata=all(c.metadata_atomicity == "atomic" for c in declared)
            and "COMMIT-05" not in tolerance,
            refused_batch=None if len(tiers) > 1 else "COMMIT-04" if tiers == {"atomic"} else "COMMIT-07",
            range_capped=capped,
            range_mixed=not capped and any(c.range_cap for c in declared),
            range_cut=targets[0].ctx.range_query_limit,
        )


class Stores:
    """The stores one example drives, one per target, on one event loop (``loop``; ``closing``
    closes the stores, then the loop).

    ``differential``: one history runs on several drivers (each then gets its own copy of every
    argument); ``methods``: the contract methods every store has (optional ones, and the required
    ones a history can leave out, :data:`SKIPPABLE`); ``raw``: whether unreadable entries can be
    planted (every driver has the hook, and there is one store: differential stores could
    disagree).
    """

    def __init__(self, targets: Sequence[Target]) -> None:
        runner = asyncio.Runner()
        self.loop = runner.get_loop()
        self.closing = contextlib.ExitStack()
        self.closing.callback(runner.close)  # the last to close: the stores close on its loop
        self.opened: list[OpenStore] = []
        self.differential = len(targets) > 1
        try:
            for target in targets:
                tmp = Path(tempfile.mkdtemp(prefix="sm-", dir=target.ctx.tmp_path))
                ctx = attrs.evolve(target.ctx, tmp_path=tmp)
                store = self.closing.enter_context(
                    opened_store(target.registration, ctx, runner, state=target.state)
                )
                self.opened.append(OpenStore(target.name, store))
        except BaseException:
            self.close()
            raise
        self.raw = not self.differential and all(t.registration.raw_metadata is not None for t in targets)
        self.methods = frozenset(
            name
            for name in (*OPTIONAL_METHODS, *REQUIRED_METHODS)
            if all(callable(getattr(s.store, name, None)) for s in self.opened)
        )
        # Without another required method no history can be checked: REQ-01 blocks the run.
        lacking = [n for n in REQUIRED_METHODS if n not in self.methods and n not in SKIPPABLE]
        if lacking:
            self.close()
            raise MissingRequired(
                REQUIRED_RULE,
                f"{', '.join(lacking)}()",
                "is not there: the driver lacks this required method",
            )

    def close(self) -> None:
        try:
            self.closing.close()
        finally:
            self.opened = []

    def run(self, awaitable: Awaitable[T]) -> T:
        """Run one store call to its end on the stores' event loop."""
        return self.loop.run_until_complete(awaitable)

    def call(self, method: str, args: tuple[Any, ...]) -> Results:
        """Call ``method`` on every store; returns (driver, result or Raised) pairs."""
        results: Results = []
        for opened in self.opened:
            fn = getattr(opened.store, method)
            try:
                value = self.loop.run_until_complete(fn(*(copied(args) if self.differential else args)))
            except Exception as exc:
                value = Raised(type(exc), str(exc))
            results.append((opened.name, value))
        return results

    def watched(self, method: str, args: tuple[Any, ...], reads: Sequence[Step]) -> WriteOutcome:
        """``method`` on every store with a reader running ``reads`` at every point where the
        write gives the event loop away (:func:`watch_write`). Torn reads are those that showed
        neither the store's state before the write nor its state after it (its own states, so a
        write that is wrong but whole is left to the rules of its result)."""
        results: Results = []
        torn: dict[str, list[str]] = {}
        changed = False
        for opened in self.opened:
            mine = copied(args) if self.differential else args
            store = opened.store
            watched = self.run(
                watch_write(
                    functools.partial(getattr(store, method), *mine),
                    [functools.partial(getattr(store, r.method), *r.args) for r in reads],
                )
            )
            error = watched.error
            results.append((opened.name, watched.value if error is None else Raised(type(error), str(error))))
            changed = changed or watched.before != watched.after
            seen = torn_lines(reads, watched)
            if seen:
                torn[opened.name] = seen
        return WriteOutcome(results, torn, changed)

    def probe(self, driver: str, method: str, *args: Any) -> Any:
        """One read on one driver's store: diagnosis after a failure."""
        opened = next(o for o in self.opened if o.name == driver)
        try:
            return self.run(getattr(opened.store, method)(*args))
        except Exception as exc:
            return Raised(type(exc), str(exc))


def torn_lines(reads: Sequence[Step], watched: WatchedWrite[Any]) -> list[str]:
    """Each torn read of ``watched`` as a failure line shows it: the read, what it returned, the
    states before and after the write, and the field where it differs from each (issue 35: a
    listing torn only in ``updated_at`` read the same as the state before it)."""
    return [
        f"{reads[s.read].call()} = "
        + torn_read(_shown(s.value), _shown(watched.before[s.read]), _shown(watched.after[s.read]))
        for s in watched.torn()
    ]


def _shown(value: Any) -> Any:
    """A watched read's result for a failure line: a read that raised shows its error."""
    if isinstance(value, ReadError):
        return f"raised {value.error.__name__}: {value.text}"
    return value


__all__ = ["SKIPPABLE", "Declared", "OpenStore", "Results", "Stores", "Target", "WriteOutcome"]
