"""The scaling probe (PERF-01): calls whose answer keeps its size must not get slower as the
data grows.

One store holds a small and a large session and a small and a large namespace. Each call is
timed on both, interleaved, and judged on the medians (see
:mod:`aalis_memory.conformance.probes.scaling`). By default the quick probe runs (100 and 8,000
messages, 100 and 5,000 keys: a second or two per driver), judging the growth its timings project
at the full probe's sizes; ``--memory-scaling`` runs the full probe (1,000 and 50,000 messages,
100 and 10,000 keys) instead. A driver whose registration declares ``skip_quick_scaling`` is not
run by the quick probe, with its reason. Every measurement is in the rule's message, pass or
advisory, and so in the JSON report.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any, Final

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.item_properties import PROP_NOTES, attach
from aalis_memory.conformance.probes.scaling import GROWTH_LIMIT, Growth, ScalingSizes, measure
from aalis_memory.conformance.steps import as_steps
from aalis_memory.types import Message, MetadataPut

SMALL, LARGE = "s-scale-small", "s-scale-large"
NS_SMALL, NS_LARGE = "ns-scale-small", "ns-scale-large"
#: Saves in flight at once while filling (the order does not matter: timestamps are distinct).
FILL_BATCH: Final = 200


async def _fill_session(memory: Any, session_id: str, count: int) -> None:
    for start in range(0, count, FILL_BATCH):
        await asyncio.gather(
            *(
                memory.save_message(
                    session_id,
                    Message(
                        role="user" if i % 2 == 0 else "assistant",
                        content=f"message {i}",
                        timestamp=1_000_000 + i,
                    ),
                )
                for i in range(start, min(count, start + FILL_BATCH))
            )
        )


async def _fill_namespace(memory: Any, namespace: str, count: int) -> None:
    for start in range(0, count, FILL_BATCH):
        await memory.commit_metadata(
            [
                MetadataPut(namespace, f"key-{i:06d}", {"i": i})
                for i in range(start, min(count, start + FILL_BATCH))
            ]
        )


async def _save_then_count(memory: Any, session_id: str, timestamp: int) -> int:
    await memory.save_message(session_id, Message(role="user", content="one more", timestamp=timestamp))
    count: int = await memory.count_history(session_id)
    return count


@pytest.mark.aalis_spec("PERF-01")
async def test_calls_with_a_fixed_answer_do_not_grow_with_the_data(
    request: pytest.FixtureRequest, aalis_memory_scaling: ScalingSizes, aalis_memory: Any, aalis_check: Check
) -> None:
    plan = aalis_memory_scaling
    with as_steps():  # a write that raises under this load is its own rule's failure
        await _fill_session(aalis_memory, SMALL, plan.small_messages)
        await _fill_session(aalis_memory, LARGE, plan.large_messages)
        await _fill_namespace(aalis_memory, NS_SMALL, plan.small_keys)
        await _fill_namespace(aalis_memory, NS_LARGE, plan.large_keys)
    middle = f"key-{plan.small_keys // 2:06d}"  # present in both namespaces
    memory = aalis_memory
    found: list[Growth] = [
        await measure(
            "get_history(s, 20)",
            "messages",
            lambda: memory.get_history(SMALL, 20),
            lambda: memory.get_history(LARGE, 20),
            plan,
        ),
    ]
    absent: list[str] = []
    if callable(getattr(memory, "count_history", None)):
        found.append(
            await measure(
                "count_history(s)",
                "messages",
                lambda: memory.count_history(SMALL),
                lambda: memory.count_history(LARGE),
                plan,
            )
        )
        # As a host calls it: right after each save (a count kept only until the next write
        # is a full recount per turn).
        stamps = itertools.count(2_000_000)
        found.append(
            await measure(
                "save_message then count_history(s)",
                "messages",
                lambda: _save_then_count(memory, SMALL, next(stamps)),
                lambda: _save_then_count(memory, LARGE, next(stamps)),
                plan,
            )
        )
    else:
        absent.append("count_history: not implemented, not timed")
    found += [
        await measure(
            "archive_span(s, 1)",
            "messages",
            lambda: memory.archive_span(SMALL, 1),
            lambda: memory.archive_span(LARGE, 1),
            plan,
        ),
        await measure(
            "get_metadata(ns, key)",
            "keys",
            lambda: memory.get_metadata(NS_SMALL, middle),
            lambda: memory.get_metadata(NS_LARGE, middle),
            plan,
        ),
    ]
    lines = [g.render() for g in found] + absent
    slow = [g for g in found if g.too_slow]
    if slow:
        names = ", ".join(g.headline() for g in slow)
        raise aalis_check.fail(
            f"{names} (limit {GROWTH_LIMIT:g}x) with the same result size; "
            f"{_how(plan)}:\n  " + "\n  ".join(lines),
            cases=lines,
        )
    attach(
        request.node.user_properties,
        PROP_NOTES,
        {aalis_check.rule_id: f"growth within the limit ({_how(plan)}); " + "; ".join(lines)},
    )


def _how(plan: ScalingSizes) -> str:
    """How the growth was judged, for the rule's message."""
    how = f"medians of {plan.repetitions} interleaved repetitions"
    if plan.judged_at is None:
        return how
    full = plan.judged_at
    return (
        f"{how}; the quick probe, run by default: each call's growth projected along the "
        f"line through its two medians to {full.small_messages:,} and "
        f"{full.large_messages:,} messages ({full.small_keys:,} and {full.large_keys:,} "
        f"keys), a call over the line timed again, up to {plan.rounds} rounds; "
        "--memory-scaling measures those sizes"
    )
