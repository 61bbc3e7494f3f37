"""The state machine reports only the rules it really checked (issue 9, point 2).

Its test is marked with every rule it *can* check; ``PROP_CHECKED`` says which ones a run *did*
check. A driver with only the required methods, no raw hook and weak tiers must get no credit for
the optional methods, the raw-access rules or the atomic tiers; the in-memory reference driver,
which has all of them, must get credit for each when a history reaches it.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final

from aalis_memory.conformance.machine.core import Target
from aalis_memory.conformance.machine.inputs import MessageSpec
from aalis_memory.conformance.machine.ledger import CheckLedger
from aalis_memory.conformance.machine.runner import machine_for, run_machine
from aalis_memory.conformance.registration.registry import (
    Capabilities,
    DriverContext,
    DriverRegistration,
    load_entry_points,
)
from aalis_memory.conformance.registration.registry import get as get_driver
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.service import REQUIRED_METHODS

#: Rules only optional methods, a raw hook or an atomic tier let the machine check.
NEEDS_MORE: Final = frozenset(
    {
        "COUNT-01",  # count_history
        "FULL-01",
        "FULL-02",
        "ARCH-09",  # get_full_history
        "RANGE-01",
        "RANGE-02",
        "RANGE-03",
        "RANGE-04",
        "CROSS-01",
        "CROSS-02",
        "CROSS-03",
        "CROSS-04",
        "CROSS-05",
        "LIM-04",
        "UPD-01",
        "UPD-02",
        "UPD-03",
        "UPD-04",
        "LIM-03",  # update_message_content
        "DEL-01",
        "DEL-02",  # delete_messages_by_timestamps
        "CLEAR-03",
        "CLEAR-04",  # clear_all
        "META-09",
        "META-10",
        "COMMIT-06",  # the raw_metadata hook (and list_metadata_keys)
        "ARCH-10",
        "COMMIT-05",  # atomic tiers, watched writes
    }
)


class RequiredOnly:
    """The in-memory reference driver behind the required methods only."""

    def __init__(self, **caps: int) -> None:
        self._store = InMemoryMemory(**caps)

    def __getattr__(self, name: str) -> Any:
        if name not in REQUIRED_METHODS:
            raise AttributeError(name)
        return getattr(self._store, name)


async def required_only(ctx: DriverContext) -> AsyncIterator[Any]:
    yield RequiredOnly(
        range_query_limit=ctx.range_query_limit, cross_session_max_limit=ctx.cross_session_max_limit
    )


MINIMAL: Final = DriverRegistration(
    name="required-only",
    factory=required_only,
    capabilities=Capabilities(ordering="write", metadata_atomicity="ordered", archive_atomicity="partial"),
)


def test_a_minimal_driver_gets_no_credit_for_what_it_lacks(tmp_path: Path) -> None:
    ctx = DriverContext(name=MINIMAL.name, tmp_path=tmp_path)
    run = run_machine([Target(MINIMAL, ctx)], profile="ci", strict=True)
    assert run.failure is None, str(run.failure)
    assert not set(run.checked) & NEEDS_MORE, sorted(set(run.checked) & NEEDS_MORE)
    # What it has was checked: every history has messages in two sessions and metadata.
    assert {"HIST-02", "MSG-01", "META-02"} <= set(run.checked), run.checked
    assert all(count > 0 for count in run.checked.values())


def spec(
    role: str = "user", kind: str | None = None, words: tuple[str, ...] = (), shape: int = 0
) -> MessageSpec:
    return MessageSpec(role=role, kind=kind, words=words, shape=shape, step=1, late=0, stamp_now=False)


#: A history that reaches every rule of NEEDS_MORE once, as rule calls on a machine (the same
#: calls the minimizer replays), so which rules it credits does not depend on what Hypothesis
#: happens to generate.
SCRIPT: Final[list[tuple[str, dict[str, Any]]]] = [
    (
        "seed_history",
        {
            "origin": 0,
            "seed": [
                ("s0", spec(words=("alpha",))),
                ("s0", spec("assistant", "note")),
                ("s0", spec(kind="event-marker")),
                ("s0", spec("system")),
                ("s0", spec(words=("alpha",), shape=4)),
                ("s0", spec("assistant")),
                ("s0", spec(kind="note")),
                ("s0", spec("assistant", words=("alpha",))),
                ("s0", spec(shape=1)),
                ("s0", spec("assistant")),
                ("s1", spec()),
                ("s1", spec("assistant", shape=4)),
            ],
            "archives": [("s0", 2, [1])],
            "entries": [("ns", "k1", {"a": 1}), ("ns2", "k1", {"b.c": [1]})],
        },
    ),
    (
        "get_messages_by_session_range",
        {
            "session": "s0",
            "bounds": (1, 4),
            "unbounded": "none",
            "roles": ["user"],
            "exclude_kinds": ["note"],
        },
    ),
    (
        "get_messages_by_session_range",
        {"session": "s0", "bounds": (0, 0), "unbounded": "to", "roles": None, "exclude_kinds": None},
    ),
    (
        "get_recent_messages_across_sessions",
        {
            "limit": 8,
            "since": 3,
            "platform": None,
            "exclude": None,
            "roles": None,
            "kinds": ["note"],
            "exclude_kinds": None,
        },
    ),
    (
        "get_recent_messages_across_sessions",
        {
            "limit": 3,
            "since": None,
            "platform": "qq",
            "exclude": ["s1"],
            "roles": ["user", "system"],
            "kinds": None,
            "exclude_kinds": ["note"],
        },
    ),
    (
        "get_recent_messages_across_sessions",
        {
            "limit": 3,
            "since": None,
            "platform": None,
            "exclude": None,
            "roles": None,
            "kinds": None,
            "exclude_kinds": None,
        },
    ),
    ("update_message_content", {"session": "s0", "old": "alpha", "new": "A", "limit": 1}),
    ("update_message_content", {"session": "s0", "old": "alpha", "new": "B", "limit": math.inf}),
    ("update_message_content", {"session": "s0", "old": "alpha", "new": "A", "limit": 0}),
    ("update_message_content", {"session": "s0", "old": "", "new": "A", "limit": None}),
    ("delete_messages_by_timestamps", {"session": "s0", "picks": [0, 5], "stray": False}),
    ("delete_messages_by_timestamps", {"session": "s1", "picks": [], "stray": False}),
    ("plant_unreadable", {"namespace": "ns", "key": "k$2", "kind": "not-json", "then_del": True}),
    (
        "commit_metadata",
        {
            "ops": [("put", "ns", "k1", {"a": 2}), ("put", "ns2", "k.3", {})],
            "bad_at": None,
            "bad": "set",
            "echo": False,
        },
    ),
    ("archive_span", {"session": "s0", "count": 2, "keep": [], "bad": None}),
    ("save_messages", {"session": "s1", "specs": [spec(), spec("assistant"), spec()]}),
    ("clear", {"session": "s1", "everything": True}),
]


def test_the_reference_driver_gets_credit_for_each(tmp_path: Path) -> None:
    load_entry_points()
    reg = get_driver("inmemory")
    ledger = CheckLedger()
    machine = machine_for([Target(reg, DriverContext(name=reg.name, tmp_path=tmp_path))], ledger=ledger)()
    try:
        for name, kwargs in SCRIPT:
            getattr(machine, name)(**kwargs)
            machine.histories_match_model()
    finally:
        machine.teardown()
    checked = ledger.as_property()
    assert set(checked) >= NEEDS_MORE, sorted(NEEDS_MORE - set(checked))
