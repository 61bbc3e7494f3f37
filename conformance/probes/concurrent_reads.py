"""One write watched by concurrent readers: what each read saw while the write was in progress.

A driver that declares an atomic tier (ARCH-10 for ``archive_span``, COMMIT-05 for
``commit_metadata``) promises that no reader ever sees part of a write. The suite's atomicity
tests and the state machine watch a write the same way, with :func:`watch_write`: every read runs
once before the write, in reader tasks at every point where the write gives the event loop away,
and once after it. Each read made meanwhile must show the state before the write or the state
after it (:meth:`WatchedWrite.torn`); how the caller describes a torn read is its own business.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Generic, TypeVar, cast

import attrs

from aalis_memory.conformance.check import Check

T = TypeVar("T")

#: One read a reader repeats: a coroutine function without arguments.
Read = Callable[[], Awaitable[Any]]

#: Why a sync driver's atomicity is seen only from outside.
SYNC_UNSEEN = (
    "the kit runs a sync driver's calls one at a time on one thread, so no read of its "
    "can land inside the write; a reader on a second connection (the driver's own "
    "tests) is what can see inside it"
)


def only_from_outside(memory: Any, check: Check) -> None:
    """For a sync driver, ``check``'s rule's pass is partial: the inside of a call is unseen."""
    if getattr(memory, "sync", False):
        check.unverified_part(SYNC_UNSEEN)


@attrs.frozen
class ReadError:
    """A read that raised, kept as a value: it is compared like any other result."""

    error: type[BaseException]
    text: str


@attrs.frozen
class Sighting:
    """One read made by a reader task: which read, what it returned, and whether it overlapped
    the write (started before the write returned and returned after the write started)."""

    read: int
    value: Any
    overlapped: bool


@attrs.frozen
class WatchedWrite(Generic[T]):
    """The outcome of :func:`watch_write`."""

    value: T | None
    error: Exception | None
    #: Each read's result right before the write started, and right after it returned.
    before: tuple[Any, ...]
    after: tuple[Any, ...]
    sightings: tuple[Sighting, ...]
    #: How often the event loop ran another task while the write was in progress (counted only
    #: with ``count_loop_turns``): 0 means the write never gave the loop away.
    loop_turns: int

    def result(self) -> T:
        """The write's return value; its exception, if it raised."""
        if self.error is not None:
            raise self.error
        return cast(T, self.value)

    def torn(self) -> list[Sighting]:
        """Reads that showed neither the state before the write nor the one after it."""
        return [s for s in self.sightings if s.value != self.before[s.read] and s.value != self.after[s.read]]

    @property
    def overlapping(self) -> int:
        """How many reads overlapped the write (0: the check saw nothing from inside it)."""
        return sum(1 for s in self.sightings if s.overlapped)


async def attempt(read: Read) -> Any:
    """Run ``read``; its result, or a :class:`ReadError` when it raised."""
    try:
        return await read()
    except Exception as exc:
        return ReadError(type(exc), str(exc))


async def watch_write(
    write: Callable[[], Awaitable[T]],
    reads: Sequence[Read],
    *,
    readers: int = 1,
    count_loop_turns: bool = False,
) -> WatchedWrite[T]:
    """Run ``write`` while ``readers`` tasks repeat ``reads`` at every await it makes.

    The write starts only once every reader runs, so the first await of the write already has
    readers waiting. Each reader makes one more round after the write returned. The write's own
    exception is captured, never raised here: see :meth:`WatchedWrite.result`.
    """
    if readers < 1:
        raise ValueError(f"watch_write needs at least one reader, got {readers}")
    before = tuple([await attempt(read) for read in reads])
    phase = 0  # 0: the write has not started, 1: it is in progress, 2: it returned
    started = 0
    all_started = asyncio.Event()
    sightings: list[Sighting] = []
    turns = 0
    value: T | None = None
    error: Exception | None = None

    async def reader() -> None:
        nonlocal started
        started += 1
        if started == readers:
            all_started.set()
        while True:
            ending = phase == 2
            for index, read in enumerate(reads):
                at_start = phase
                seen = await attempt(read)
                sightings.append(Sighting(index, seen, at_start <= 1 <= phase))
            if ending:
                return
            await asyncio.sleep(0)  # hand the loop back to the writer, not a wait for ordering

    async def ticker() -> None:
        nonlocal turns
        while phase < 2:
            if phase == 1:
                turns += 1
            await asyncio.sleep(0)

    async def writer() -> None:
        nonlocal phase, value, error
        await all_started.wait()
        phase = 1
        try:
            value = await write()
        except Exception as exc:
            error = exc
        finally:
            phase = 2

    tasks = [writer(), *(reader() for _ in range(readers))]
    if count_loop_turns:
        tasks.append(ticker())
    await asyncio.gather(*tasks)
    after = tuple([await attempt(read) for read in reads])
    return WatchedWrite(value, error, before, after, tuple(sightings), turns)


__all__ = ["Read", "ReadError", "Sighting", "WatchedWrite", "attempt", "watch_write"]
