"""The scaling probe's measurements (``--memory-scaling``, rule PERF-01): pure timing and judging.

A call is timed on a small and on a large data set of one store, the two sizes interleaved in
every repetition (so a burst of load on a shared machine hits both alike), and judged on the
ratio of the medians. The probe compares O(1) with O(n) at 50 times the data: a scan grows about
50x, a seek about 1x, and the line is drawn at 5x, far from both, so that a loaded machine moves
neither across it.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

import attrs

#: A call may grow this much (large median / small median) before PERF-01 says it scales badly.
GROWTH_LIMIT: Final = 5.0
#: ``--memory-scaling-sizes`` default: messages small, large; metadata keys small, large.
DEFAULT_SIZES: Final = "1000,50000,100,10000"


@attrs.frozen
class ScalingSizes:
    """The data sizes the probe compares, and how many interleaved repetitions it times."""

    small_messages: int = 1000
    large_messages: int = 50000
    small_keys: int = 100
    large_keys: int = 10000
    repetitions: int = 9
    #: Calls per timed sample (the sample is their mean): short calls escape timer noise.
    batch: int = 3

    @classmethod
    def parse(cls, text: str) -> ScalingSizes:
        """``"1000,50000,100,10000"``: each large size more than the small one."""
        try:
            numbers = [int(part) for part in text.split(",")]
        except ValueError:
            numbers = []
        if len(numbers) != 4 or min(numbers) < 1 or numbers[1] <= numbers[0] \
                or numbers[3] <= numbers[2]:
            raise ValueError(
                f"--memory-scaling-sizes: expected SMALL,LARGE,KEYS_SMALL,KEYS_LARGE (positive "
                f"integers, each large above its small), got {text!r}"
            )
        return cls(*numbers)


Call = Callable[[], Awaitable[Any]]


@attrs.frozen
class Growth:
    """One call timed at both sizes."""

    call: str
    small_size: str
    large_size: str
    small_seconds: float
    large_seconds: float
    #: Result sizes at each size (they must match for the ratio to mean anything).
    small_result: int
    large_result: int

    @property
    def factor(self) -> float:
        return self.large_seconds / max(self.small_seconds, 1e-9)

    @property
    def comparable(self) -> bool:
        return self.small_result == self.large_result

    @property
    def too_slow(self) -> bool:
        return self.comparable and self.factor > GROWTH_LIMIT

    def render(self) -> str:
        line = (f"{self.call}: {_ms(self.small_seconds)} at {self.small_size}, "
                f"{_ms(self.large_seconds)} at {self.large_size}: {self.factor:.1f}x")
        if not self.comparable:
            line += (f" (not judged: the results differ in size, {self.small_result} vs "
                     f"{self.large_result})")
        elif self.too_slow:
            line += f" (more than {GROWTH_LIMIT:g}x)"
        return line


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


async def measure(
    name: str, sizes: tuple[str, str], small: Call, large: Call, plan: ScalingSizes
) -> Growth:
    """Median seconds of ``small`` and ``large``, interleaved (which one goes first alternates)."""
    await small()  # warm up both: caches, prepared statements, lazily built indexes
    await large()
    times: dict[bool, list[float]] = {False: [], True: []}
    results: dict[bool, Any] = {}
    for rep in range(plan.repetitions):
        for is_large in ((False, True) if rep % 2 == 0 else (True, False)):
            seconds, results[is_large] = await _sample(large if is_large else small, plan.batch)
            times[is_large].append(seconds)
    return Growth(name, sizes[0], sizes[1], statistics.median(times[False]),
                  statistics.median(times[True]), result_size(results[False]),
                  result_size(results[True]))


__all__ = ["DEFAULT_SIZES", "GROWTH_LIMIT", "Growth", "ScalingSizes", "measure", "result_size"]
