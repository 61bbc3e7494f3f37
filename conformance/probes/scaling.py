"""The scaling probe's measurements (rule PERF-01): pure timing and judging.

A call is timed on a small and on a large data set of one store, the two sizes interleaved in
every repetition (so a burst of load on a shared machine hits both alike), and judged on the
medians. The rule speaks of the full probe's sizes (1,000 and 50,000 messages; 100 and 10,000
metadata keys), where a scan grows about 50x, a seek about 1x, and the line is drawn at 5x, far
from both, so that a loaded machine moves neither across it.

The full probe (``--memory-scaling``) fills those sizes and judges the ratio it measures. The
quick probe, run by default, fills far less (100 and 8,000 messages; 100 and 5,000 keys) and
judges the growth its two medians project at the full probe's sizes, on the straight line through
them. A call costs a fixed part plus a part per stored record: a backend whose fixed part is
large (a round trip to a server) shows little of its per-record part on a small session, and the
ratio measured there would let it through; the line does not. The line also carries the noise
about 6 times further: a seek is over it when its large median comes out about 1.7 times its
small one. So a call the quick probe finds over the line is timed again, up to three rounds in
all, and judged on its least growth: a scan is over the line in every round, a burst of load on
a seek in one.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

import attrs

#: A call may grow this much (large median / small median, at the full probe's sizes) before
#: PERF-01 says it scales badly.
GROWTH_LIMIT: Final = 5.0
#: ``--memory-scaling-sizes`` default: messages small, large; metadata keys small, large.
DEFAULT_SIZES: Final = "1000,50000,100,10000"


@attrs.frozen
class ScalingSizes:
    """The data sizes the probe compares, and how it times them."""

    small_messages: int = 1000
    large_messages: int = 50000
    small_keys: int = 100
    large_keys: int = 10000
    #: Interleaved repetitions per round (a sample of each size per repetition).
    repetitions: int = 9
    #: Calls per timed sample (the sample is their mean): short calls escape timer noise.
    batch: int = 3
    #: Rounds a call over the line is timed in at most (the least growth is judged).
    rounds: int = 1
    #: The plan whose sizes the growth is judged at, when it is not this one (the quick probe:
    #: each call's growth projected along the line through its two medians).
    judged_at: ScalingSizes | None = None

    @classmethod
    def parse(cls, text: str) -> ScalingSizes:
        """``"1000,50000,100,10000"``: each large size more than the small one."""
        try:
            numbers = [int(part) for part in text.split(",")]
        except ValueError:
            numbers = []
        if len(numbers) != 4 or min(numbers) < 1 or numbers[1] <= numbers[0] or numbers[3] <= numbers[2]:
            raise ValueError(
                f"--memory-scaling-sizes: expected SMALL,LARGE,KEYS_SMALL,KEYS_LARGE (positive "
                f"integers, each large above its small), got {text!r}"
            )
        small, large, small_keys, large_keys = numbers
        return cls(small, large, small_keys, large_keys)

    @property
    def quick(self) -> bool:
        return self.judged_at is not None

    def sizes(self, unit: str) -> tuple[int, int]:
        """The small and the large size of ``unit`` ("messages" or "keys")."""
        if unit == "messages":
            return self.small_messages, self.large_messages
        if unit == "keys":
            return self.small_keys, self.large_keys
        raise ValueError(f"a scaling measurement stands on messages or keys, not {unit!r}")


#: The full probe (``--memory-scaling``; ``--memory-scaling-sizes`` changes its sizes).
FULL: Final = ScalingSizes()
#: The quick probe, run by default (about 1.2 s for the SQLite reference driver, 0.4 s in memory:
#: docs/benchmarks.md).
QUICK: Final = ScalingSizes(100, 8000, 100, 5000, batch=5, rounds=3, judged_at=FULL)


Call = Callable[[], Awaitable[Any]]


@attrs.frozen
class Growth:
    """One call timed at both sizes."""

    call: str
    #: What the sizes count ("messages", "keys").
    unit: str
    sizes: tuple[int, int]
    small_seconds: float
    large_seconds: float
    #: Result sizes at each size (they must match for the growth to mean anything).
    small_result: int
    large_result: int
    #: The sizes the growth is judged at, when they are not ``sizes`` (the quick probe).
    judged_at: tuple[int, int] | None = None
    #: Rounds the call was timed in (this one is the round of least growth).
    rounds: int = 1

    @property
    def factor(self) -> float:
        """The growth measured: large median / small median."""
        return self.large_seconds / max(self.small_seconds, 1e-9)

    @property
    def judged(self) -> float:
        """The growth at the judged sizes, on the line through the two medians (flat when the
        large median is the smaller: no growth to project)."""
        if self.judged_at is None:
            return self.factor
        slope = max(self.large_seconds - self.small_seconds, 0.0) / (self.sizes[1] - self.sizes[0])

        def at(size: int) -> float:
            return self.small_seconds + slope * (size - self.sizes[0])

        return at(self.judged_at[1]) / max(at(self.judged_at[0]), 1e-9)

    @property
    def comparable(self) -> bool:
        return self.small_result == self.large_result

    @property
    def too_slow(self) -> bool:
        return self.comparable and self.judged > GROWTH_LIMIT

    def headline(self) -> str:
        """How much the call grew, for the first line of a failure."""
        if self.judged_at is None:
            return f"{self.call} grew {self.factor:.1f}x"
        return f"{self.call} grew {self.factor:.1f}x ({self._projection()})"

    def render(self) -> str:
        line = (
            f"{self.call}: {_ms(self.small_seconds)} at {self._size(0)}, "
            f"{_ms(self.large_seconds)} at {self._size(1)}: {self.factor:.1f}x"
        )
        if self.judged_at is not None:
            line += f", {self._projection()}"
        if not self.comparable:
            line += f" (not judged: the results differ in size, {self.small_result} vs {self.large_result})"
        elif self.too_slow:
            line += f" (more than {GROWTH_LIMIT:g}x"
            line += f" in each of {self.rounds} rounds, the least shown)" if self.rounds > 1 else ")"
        elif self.rounds > 1:
            line += f" (round {self.rounds}: over the line before, timed again)"
        return line

    def _size(self, which: int) -> str:
        return f"{self.sizes[which]:,} {self.unit}"

    def _projection(self) -> str:
        assert self.judged_at is not None
        return (
            f"about {self.judged:.1f}x from {self.judged_at[0]:,} to "
            f"{self.judged_at[1]:,} {self.unit} on that line"
        )


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def result_size(value: Any) -> int:
    """How big an answer is: its length for a list or a dict, else 1."""
    return len(value) if isinstance(value, list | dict) else 1


async def _sample(call: Call, batch: int) -> tuple[float, Any]:
    result = None
    start = time.perf_counter()
    for _ in range(batch):
        result = await call()
    return (time.perf_counter() - start) / batch, result


async def measure(name: str, unit: str, small: Call, large: Call, plan: ScalingSizes) -> Growth:
    """``small`` and ``large`` timed on the plan's sizes of ``unit`` ("messages" or "keys"):
    medians of interleaved samples (which one goes first alternates), in one round, or in up to
    ``plan.rounds`` while the call is over the line (the round of least growth is returned)."""
    await small()  # warm up both: caches, prepared statements, lazily built indexes
    await large()
    timed: list[Growth] = []
    while len(timed) < plan.rounds and all(growth.too_slow for growth in timed):
        timed.append(await _round(name, unit, small, large, plan))
    return attrs.evolve(min(timed, key=lambda growth: growth.judged), rounds=len(timed))


async def _round(name: str, unit: str, small: Call, large: Call, plan: ScalingSizes) -> Growth:
    times: dict[bool, list[float]] = {False: [], True: []}
    results: dict[bool, Any] = {}
    for rep in range(plan.repetitions):
        for is_large in (False, True) if rep % 2 == 0 else (True, False):
            seconds, results[is_large] = await _sample(large if is_large else small, plan.batch)
            times[is_large].append(seconds)
    return Growth(
        name,
        unit,
        plan.sizes(unit),
        statistics.median(times[False]),
        statistics.median(times[True]),
        result_size(results[False]),
        result_size(results[True]),
        None if plan.judged_at is None else plan.judged_at.sizes(unit),
    )


__all__ = [
    "DEFAULT_SIZES",
    "FULL",
    "GROWTH_LIMIT",
    "QUICK",
    "Growth",
    "ScalingSizes",
    "measure",
    "result_size",
]
