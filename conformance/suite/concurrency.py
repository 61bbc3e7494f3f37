"""Concurrent callers of one store (CONC-01..06): nothing lost, every returned count true.

Several tasks share one store, as the tasks of one host do. The tiers a driver declares weaken
only what happens when a call fails (a partial archive, an ordered batch stopped at an error) and
what a concurrent reader may see (COMMIT-05, ARCH-10); none of these calls fails, so every rule
here holds in every tier. A sync driver is run one call at a time by the kit, which these tests
cannot see inside (its own tests must prove that with a second connection).
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from typing import Final

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.checks import (
    ConformanceFailure,
)
from aalis_memory.conformance.harness.health import CallTimeout
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.rules.verdict import Verdict, skip
from aalis_memory.conformance.steps import Blocked, read_stands_on, stands_on
from aalis_memory.conformance.suite._builders import msg, save_all
from aalis_memory.service import FullMemoryService, MemoryService
from aalis_memory.types import MetadataPut

SESSION = "s-conc"
NAMESPACE = "ns-conc"
#: Bounded on purpose: enough overlap to lose work in a racy driver, cheap on a slow server.
TASKS: Final = 4
MESSAGES: Final = 40
#: Reads ask for "everything" with a finite limit, so a driver that mishandles math.inf fails
#: the limit rules alone.
LIMIT: Final = 10_000


def reads_history() -> None:
    """The test judges the session through get_history: its check stands on that read's rules
    (the records it holds, its window), as any test's step would; every call here is under test,
    so it says so itself."""
    stands_on(*read_stands_on("get_history", SESSION, LIMIT))


def reads_metadata(method: str, *args: object) -> None:
    """The test judges the namespace through ``method`` (list_metadata, get_metadata): its check
    stands on that read's rule."""
    stands_on(*read_stands_on(method, *args))


@requires.update_message_content
@pytest.mark.aalis_spec("CONC-01")
async def test_concurrent_rewrites_all_apply_and_count_truly(
    aalis_memory: FullMemoryService, aalis_check: Check
) -> None:
    reads_history()
    words = [f"w{i}" for i in range(TASKS)]
    await save_all(aalis_memory, SESSION, [msg(" ".join(words), 1000 + i) for i in range(MESSAGES)])
    returns = await asyncio.gather(
        *(aalis_memory.update_message_content(SESSION, word, word.upper(), MESSAGES) for word in words)
    )
    expected = " ".join(word.upper() for word in words)
    contents = [m.content for m in await aalis_memory.get_history(SESSION, LIMIT)]
    lost = [f"message {i}: {c!r}" for i, c in enumerate(contents) if c != expected]
    aalis_check.no_failures(f"messages lost a rewrite (expected {expected!r})", lost, len(contents))
    aalis_check.equal(
        f"the returns of {TASKS} concurrent rewrites of {MESSAGES} messages",
        list(returns),
        [MESSAGES] * TASKS,
    )


@pytest.mark.aalis_spec("CONC-02", "CONC-03")
async def test_concurrent_archives_count_truly_and_never_share_a_span(
    aalis_memory: MemoryService, aalis_checks: tuple[Check, ...]
) -> None:
    """The same calls run one after another on a twin session are the reference: what the
    concurrent calls do differently is a concurrency bug (the ARCH rules judge the rest)."""
    reads_history()
    counts, spans = aalis_checks
    calls, count, twin = 8, 3, f"{SESSION}-one-by-one"
    for session in (SESSION, twin):
        await save_all(aalis_memory, session, [msg(f"m{i}", 1000 + i) for i in range(MESSAGES)])
    one_by_one = [await aalis_memory.archive_span(twin, count) for _ in range(calls)]
    expected_left = [m.content for m in await aalis_memory.get_history(twin, LIMIT)]
    if sum(one_by_one) != MESSAGES - len(expected_left):
        skip(
            Verdict.UNVERIFIED,
            "archive_span's returns disagree with what it archived even one "
            "call at a time (see the ARCH rules)",
        )
    returns = await asyncio.gather(*(aalis_memory.archive_span(SESSION, count) for _ in range(calls)))
    left = [m.content for m in await aalis_memory.get_history(SESSION, LIMIT)]
    archived = MESSAGES - len(left)
    counts.that(
        sum(returns) == archived,
        f"{calls} concurrent archive_span(s, {count}): the returns {list(returns)} add up to "
        f"{sum(returns)}, but {archived} messages were archived",
    )
    spans.equal(
        f"the active history after {calls} concurrent archive_span(s, {count}) calls "
        "(expected: as after the same calls one by one)",
        left,
        expected_left,
    )


@pytest.mark.aalis_spec("CONC-04")
async def test_concurrent_commits_lose_nothing(aalis_memory: MemoryService, aalis_check: Check) -> None:
    reads_metadata("list_metadata", NAMESPACE)

    async def writer(task: int) -> None:
        for batch in range(5):
            await aalis_memory.commit_metadata(
                [MetadataPut(NAMESPACE, f"t{task}-b{batch}-k{k}", {"t": task, "b": batch}) for k in range(3)]
            )

    errors = await asyncio.gather(*(writer(t) for t in range(TASKS)), return_exceptions=True)
    failures = [f"task {t}: {type(e).__name__}: {e}" for t, e in enumerate(errors) if e]
    aalis_check.no_failures("writer tasks failed", failures, TASKS)
    keys = {e.key for e in await aalis_memory.list_metadata(NAMESPACE)}
    missing = sorted(
        f"t{t}-b{b}-k{k}"
        for t in range(TASKS)
        for b in range(5)
        for k in range(3)
        if f"t{t}-b{b}-k{k}" not in keys
    )
    aalis_check.no_failures("keys written by concurrent commits are missing", missing, TASKS * 15)


@pytest.mark.aalis_spec("CONC-04")
async def test_concurrent_puts_of_one_new_key_all_succeed(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    reads_metadata("get_metadata", NAMESPACE, "fresh-0")
    failures: list[str] = []
    rounds = 6
    for round_ in range(rounds):
        key = f"fresh-{round_}"
        results = await asyncio.gather(
            *(aalis_memory.save_metadata(NAMESPACE, key, {"task": t}) for t in range(TASKS)),
            *(
                aalis_memory.commit_metadata([MetadataPut(NAMESPACE, key, {"task": TASKS + t})])
                for t in range(TASKS)
            ),
            return_exceptions=True,
        )
        failures += [
            f"{key}, call {i}: {type(r).__name__}: {r!r}"
            for i, r in enumerate(results)
            if isinstance(r, BaseException)
        ]
        got = await aalis_memory.get_metadata(NAMESPACE, key)
        if got not in [{"task": t} for t in range(2 * TASKS)]:
            failures.append(f"{key}: expected one of the written values, got {got!r}")
    aalis_check.no_failures("concurrent puts of one new key failed", failures, rounds * 2 * TASKS)


#: Rounds of each phase of the CONC-05 test: every round overlaps the tasks' writes once.
ROUNDS: Final = 6
#: The phases of the CONC-05 test: which method each task overwrites the key with, by task and
#: round. A stamp may go wrong in either method, or only where the two meet.
PHASES: Final[dict[str, Callable[[int, int], str]]] = {
    "commit_metadata alone": lambda _task, _round: "commit_metadata",
    "save_metadata alone": lambda _task, _round: "save_metadata",
    "save_metadata and commit_metadata mixed": lambda task, round_: ("save_metadata", "commit_metadata")[
        (task + round_) % 2
    ],
}

Read = tuple[int, int, int]  # (began, returned, updated_at)


def _clock_past(stamp: int) -> None:
    """Wait, holding the event loop, until the wall clock reads ``stamp`` + 2 ms or later: the
    write that follows begins in a later millisecond than every stamp seen so far (at most
    a few ms; the loop stays held so that the writes in flight stay in flight). Asleep, not
    spinning: the wait is the clock's, and a spin took a core from the run's other process.
    A stamp further ahead than :data:`CLOCK_WAIT_CAP` (a store whose stamps are not epoch
    milliseconds of now) is not waited for: no wait could make the clock pass it in time."""
    target = (stamp + 2) * 1_000_000
    if target - time.time_ns() > CLOCK_WAIT_CAP * 1e9:
        return
    while (left := target - time.time_ns()) > 0:
        time.sleep(left / 1e9)


#: The longest wait for the clock to pass a stamp (seconds).
CLOCK_WAIT_CAP: Final = 1.0


@pytest.mark.aalis_spec("CONC-05")
async def test_updated_at_never_goes_backwards_under_concurrent_commits(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    """Each writer reads the key right after each of its writes (save_metadata, commit_metadata,
    or the two mixed: one phase each, on a key of its own). Two reads in flight at once may be
    answered in either order (a connection pool), so only a read that began after another had
    returned must see an updated_at at least as new as that one's.

    A stamp taken before the write's round trip shows only when another write takes its stamp
    in a later millisecond while the first is in flight. Left to the clock, that happens by
    chance; here it is made to: in every round the first task's write starts, and each other
    task waits for the clock to pass every stamp seen before starting its own, while the writes
    already started are still in flight.

    An error the store raises stops its phase; the failure names what that left unchecked."""
    reads_metadata("list_metadata", NAMESPACE)
    clock = itertools.count()
    backwards: list[str] = []
    total = 0
    unchecked: list[str] = []

    step = ["" for _ in range(TASKS)]  # each task's call in flight, for an error's line

    async def write_and_read(reads: list[Read], key: str, method: str, task: int, round_: int) -> None:
        if task:
            await asyncio.sleep(0)  # the earlier tasks' writes are under way
            _clock_past(max((seen for _b, _r, seen in reads), default=0))
        value = {"task": task, "i": round_}
        step[task] = method
        if method == "save_metadata":
            await aalis_memory.save_metadata(NAMESPACE, key, value)
        else:
            await aalis_memory.commit_metadata([MetadataPut(NAMESPACE, key, value)])
        began = next(clock)
        step[task] = "list_metadata"
        entries = await aalis_memory.list_metadata(NAMESPACE)
        returned = next(clock)
        reads.extend((began, returned, e.updated_at) for e in entries if e.key == key)

    for number, (phase, method_of) in enumerate(PHASES.items()):
        reads: list[Read] = []
        key = f"k{number}"
        for round_ in range(ROUNDS):
            methods = [method_of(task, round_) for task in range(TASKS)]
            results = await asyncio.gather(
                *(write_and_read(reads, key, methods[t], t, round_) for t in range(TASKS)),
                return_exceptions=True,
            )
            errors = [(step[t], r) for t, r in enumerate(results) if isinstance(r, BaseException)]
            if errors:
                _raise_unexpected(errors)
                call, error = errors[0]
                unchecked.append(
                    f"{call} raised {type(error).__name__}: {error} in round {round_ + 1} of "
                    f"{ROUNDS} of the phase '{phase}', so whether updated_at goes backwards "
                    f"under concurrent overwrites by {phase} was left unchecked from that round on"
                )
                break
        backwards += [f"{phase}: {line}" for line in _backwards(reads)]
        total += len(reads)
    if unchecked:
        found = (
            (
                f"{len(backwards)} of {total} reads saw updated_at go backwards:\n  "
                + "\n  ".join(backwards)
                + "\n"
            )
            if backwards
            else ""
        )
        raise aalis_check.fail(
            f"the store raised, so part of the check did not run: {'; '.join(unchecked)}\n{found}".rstrip(),
        )
    aalis_check.no_failures("reads saw updated_at go backwards", backwards, total)


def _raise_unexpected(errors: list[tuple[str, BaseException]]) -> None:
    """What is no error of the store is raised as it is: a blocked step, the kit's own failure,
    a call that timed out (the kit reports each of those itself), a cancellation."""
    for _method, error in errors:
        if isinstance(error, Blocked | ConformanceFailure | CallTimeout) or not isinstance(error, Exception):
            raise error


def _backwards(reads: list[Read]) -> list[str]:
    """Each read that saw an older updated_at than a read which had returned before it began."""
    found: list[str] = []
    for began, _returned, seen in reads:
        earlier = [other for _b, returned, other in reads if returned < began]
        if earlier and seen < max(earlier):
            found.append(f"a read begun after one that saw {max(earlier)} saw {seen}")
    return found


@pytest.mark.aalis_spec("CONC-06")
async def test_concurrent_saves_lose_nothing(aalis_memory: MemoryService, aalis_check: Check) -> None:
    reads_history()
    per_task = 15

    async def writer(task: int) -> None:
        for i in range(per_task):
            await aalis_memory.save_message(SESSION, msg(f"t{task}-{i}", 1000 + i))

    await asyncio.gather(*(writer(t) for t in range(TASKS)))
    got = sorted(str(m.content) for m in await aalis_memory.get_history(SESSION, LIMIT))
    aalis_check.equal(
        f"contents after {TASKS} tasks saved {per_task} messages each",
        got,
        sorted(f"t{t}-{i}" for t in range(TASKS) for i in range(per_task)),
    )
