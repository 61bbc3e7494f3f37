"""Interleaved timing: the driver and the raw engine alternate in every repetition, and each
side's median is kept, so a burst of load on a shared machine hits both sides alike."""

from __future__ import annotations

import statistics
import time
from collections.abc import Awaitable, Callable

import attrs

Work = Callable[[], Awaitable[object]]


@attrs.frozen
class Pair:
    """Median seconds per call of the driver and of the raw engine for one operation."""

    operation: str
    driver_seconds: float
    raw_seconds: float

    @property
    def ratio(self) -> float:
        """Driver time over raw time: 1.0 is as fast as the engine, 2.0 twice as slow."""
        return self.driver_seconds / max(self.raw_seconds, 1e-12)

    def line(self, driver: str, size: int) -> str:
        return (
            f"{driver:<8} n={size:<7,} {self.operation:<25} driver {_ms(self.driver_seconds)}"
            f"  raw {_ms(self.raw_seconds)}  ratio {self.ratio:5.2f}x"
            f"  (raw speed share {1 / self.ratio:4.2f})"
        )


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:9.3f} ms"


async def _sample(work: Work, batch: int) -> float:
    start = time.perf_counter()
    for _ in range(batch):
        await work()
    return (time.perf_counter() - start) / batch


async def compare(operation: str, driver: Work, raw: Work, repetitions: int, batch: int) -> Pair:
    """Warm both up, then ``repetitions`` interleaved samples of ``batch`` calls each."""
    await driver()
    await raw()
    times: dict[str, list[float]] = {"driver": [], "raw": []}
    for rep in range(repetitions):
        order = (("driver", driver), ("raw", raw))
        for side, work in order if rep % 2 == 0 else reversed(order):
            times[side].append(await _sample(work, batch))
    return Pair(operation, statistics.median(times["driver"]), statistics.median(times["raw"]))
