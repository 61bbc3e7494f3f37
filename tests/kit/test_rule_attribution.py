"""The state machine's rule attribution, as pure functions: what a call exercised, what a
divergence is blamed on, which rules a run can tolerate, and the ledger that counts checks."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import attrs
import pytest

from aalis_memory.conformance.machine.attribution import (
    COVERED_RULES,
    archive_exercises,
    archive_rules,
    clear_exercises,
    commit_exercises,
    commit_rules,
    cross_exercises,
    delete_exercises,
    exotic_json,
    field_rules,
    full_read_exercises,
    history_read_exercises,
    interleaving_only,
    json_alike,
    list_mismatch_rules,
    listing_exercises,
    range_exercises,
    session_read_exercises,
    update_exercises,
    update_rules,
)
from aalis_memory.conformance.machine.failure import Raised
from aalis_memory.conformance.machine.ledger import CheckLedger
from aalis_memory.conformance.machine.stores import Declared, Target
from aalis_memory.conformance.machine.tolerance import TOLERATIONS, Tolerance
from aalis_memory.conformance.registration.registry import (
    Capabilities,
    DriverContext,
    DriverRegistration,
    MetadataAtomicity,
)
from aalis_memory.conformance.rules import CATALOGUE, Level
from aalis_memory.defaults import DEFAULT_FULL_HISTORY_LIMIT, DEFAULT_HISTORY_LIMIT
from aalis_memory.drivers.inmemory import InMemoryMemory
from aalis_memory.types import (
    Message,
    MetadataDel,
    MetadataOp,
    MetadataPut,
    RecentMessageRecord,
    RecentMessagesAcrossSessionsQuery,
)


def msg(content: str, kind: str | None = None, ts: float = 1, role: str = "user") -> Message:
    return Message(role=role, content=content, kind=kind, timestamp=ts)


def conversation(n: int) -> list[Message]:
    return [msg(f"m{i}", ts=i) for i in range(n)]


MARKER = "event-marker"

# -- exercised ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("limit", "wanted", "unwanted"),
    [
        (0, {"LIM-01"}, {"LIM-02", "HIST-04", "HIST-02"}),
        (math.inf, {"LIM-02", "HIST-02"}, {"LIM-01", "HIST-04", "HIST-05"}),
        (2, {"HIST-04", "HIST-02"}, {"LIM-01", "LIM-02", "HIST-05", "LIM-05"}),
        (10, {"HIST-05"}, {"HIST-04", "LIM-01"}),
        (None, {"HIST-05"}, {"LIM-05"}),  # the default window cut nothing
    ],
)
def test_history_reads(limit: float | None, wanted: set[str], unwanted: set[str]) -> None:
    got = history_read_exercises(conversation(5), limit, archived=False)
    assert wanted <= got
    assert not unwanted & got


def test_limit_zero_exercises_lim_01_only_when_something_could_come_back() -> None:
    assert "LIM-01" not in history_read_exercises([], 0, archived=False)
    assert "LIM-01" in history_read_exercises(conversation(1), 0, archived=False)
    assert "LIM-01" not in full_read_exercises([], 0, archived=set())


def test_markers_exercise_hist_03_only_where_counting_them_would_cut_elsewhere() -> None:
    with_marker = [msg("a"), msg("d", MARKER), msg("b"), msg("c")]
    assert "HIST-03" in history_read_exercises(with_marker, 2, archived=False)
    assert "HIST-03" not in history_read_exercises(conversation(4), 2, archived=False)
    assert "HIST-03" not in history_read_exercises(with_marker, math.inf, archived=False)


def test_default_window_is_exercised_past_its_conversation_messages() -> None:
    window, full = DEFAULT_HISTORY_LIMIT, DEFAULT_FULL_HISTORY_LIMIT
    assert "LIM-05" in history_read_exercises(conversation(window + 1), None, archived=False)
    assert "LIM-05" not in history_read_exercises(conversation(window), None, archived=False)
    assert "LIM-05" in full_read_exercises(conversation(full + 1), None, archived=set())


def test_archived_rows_exercise_hist_01_full_01_and_arch_09() -> None:
    assert "HIST-01" in history_read_exercises(conversation(2), math.inf, archived=True)
    full = conversation(4)
    assert {"FULL-01", "ARCH-09"} <= full_read_exercises(full, math.inf, {"m0"})
    assert "ARCH-09" not in full_read_exercises(full, math.inf, {"m0", "m1", "m2", "m3"})
    assert "FULL-01" not in full_read_exercises(full, 2, {"m0"})  # the window kept no archived


def test_session_reads() -> None:
    assert session_read_exercises(returned=True, unknown=False, others_hold=True) == {"MSG-02", "MSG-01"}
    assert session_read_exercises(returned=False, unknown=True, others_hold=False) == {"MSG-04"}


@pytest.mark.parametrize(
    ("count", "keep", "wanted", "unwanted"),
    [
        (0, [], {"ARCH-04", "ARCH-07"}, {"ARCH-01", "ARCH-05"}),
        (2, [1], {"ARCH-01", "ARCH-02"}, {"ARCH-06", "ARCH-05", "ARCH-03"}),
        (2, [5, 0, 0], {"ARCH-06", "ARCH-02"}, {"ARCH-05"}),
        (9, [], {"ARCH-05", "ARCH-01", "ARCH-03"}, {"ARCH-02", "ARCH-06"}),
    ],
)
def test_archives(count: int, keep: list[int], wanted: set[str], unwanted: set[str]) -> None:
    active = [msg("a"), msg("b"), msg("c", MARKER)]
    got = archive_exercises(active, count, keep, archived_before=False)
    assert wanted <= got
    assert not unwanted & got


def test_an_archive_of_nothing_exercises_only_its_result() -> None:
    assert archive_exercises([], 5, [0], archived_before=True) == {"ARCH-07"}


def test_updates() -> None:
    active = [msg("alpha x"), msg("beta"), msg("alpha y")]
    assert update_exercises(active, active, "alpha", "A", 0) == {"LIM-03"}
    assert update_exercises(active, active, "zz", "A", 0) == set()
    assert update_exercises(active, active, "alpha", "A", 1) == {"UPD-01", "UPD-02"}
    assert update_exercises(active, active, "alpha", "A", math.inf) == {"LIM-03", "UPD-02"}
    assert update_exercises(active, active, "alpha", "alpha", 1) == {"UPD-02"}
    stored = [msg("alpha archived"), *active]
    assert "UPD-01" in update_exercises(active, stored, "alpha", "A", math.inf)


def test_deletes() -> None:
    mine, others = [msg("a", ts=1), msg("b", ts=2)], [msg("c", ts=2)]
    assert delete_exercises(mine, [1], others) == {"DEL-01"}
    assert delete_exercises(mine, [2], others) == {"DEL-01", "MSG-06"}
    assert delete_exercises(mine, [], others) == {"DEL-02"}
    assert delete_exercises(mine, [7], []) == set()


def test_clears() -> None:
    assert (
        clear_exercises(
            everything=True, cleared=False, archived=False, others_hold=False, metadata_held=False
        )
        == set()
    )
    assert clear_exercises(
        everything=True, cleared=True, archived=False, others_hold=False, metadata_held=True
    ) == {"CLEAR-03", "CLEAR-04"}
    assert clear_exercises(
        everything=False, cleared=True, archived=False, others_hold=False, metadata_held=False
    ) == {"CLEAR-01"}
    assert clear_exercises(
        everything=False, cleared=False, archived=False, others_hold=True, metadata_held=False
    ) == {"MSG-06"}
    assert clear_exercises(
        everything=False, cleared=True, archived=True, others_hold=True, metadata_held=False
    ) == {"CLEAR-01", "CLEAR-02", "MSG-06"}


def test_range_reads() -> None:
    hits = [msg("a", ts=0), msg("b", ts=1), msg("c", ts=2)]
    assert range_exercises(hits, hits, 2, (-math.inf, math.inf), set(), filtered=False) == {
        "RANGE-01",
        "RANGE-03",
    }
    assert "RANGE-02" in range_exercises(hits, hits, 7, (0, 2), set(), filtered=False)
    assert "RANGE-02" in range_exercises(hits, hits, 7, (-math.inf, math.inf), {"b"}, filtered=False)
    assert "RANGE-02" not in range_exercises(hits, hits, 7, (-1, 5), set(), filtered=False)
    assert "RANGE-04" in range_exercises(hits[:1], hits, 7, (-1, 5), set(), filtered=True)
    assert "RANGE-04" not in range_exercises(hits, hits, 7, (-1, 5), set(), filtered=False)


def records(*messages: Message) -> list[RecentMessageRecord]:
    return [RecentMessageRecord("s", m) for m in messages]


def test_cross_reads_credit_a_filter_only_when_it_changes_the_answer() -> None:
    candidates = records(msg("a", ts=0), msg("b", ts=1))
    query = RecentMessagesAcrossSessionsQuery(limit=3, roles=["user"], platform="qq")
    same = cross_exercises(query, candidates, 5, lambda fields: candidates)
    assert same == {"CROSS-02"}
    more = [*records(msg("x", ts=0)), *candidates]
    changed = cross_exercises(query, candidates, 5, lambda fields: more)
    assert {"CROSS-03", "CROSS-05"} <= changed
    assert "CROSS-04" not in changed  # the query names no kinds


def test_cross_reads_limits() -> None:
    many = records(*(msg(f"m{i}", ts=i) for i in range(7)))
    unchanged = lambda fields: many  # noqa: E731
    assert "LIM-04" in cross_exercises(RecentMessagesAcrossSessionsQuery(limit=math.inf), many, 5, unchanged)
    assert "CROSS-01" in cross_exercises(RecentMessagesAcrossSessionsQuery(limit=6), many, 5, unchanged)
    assert "CROSS-01" not in cross_exercises(
        RecentMessagesAcrossSessionsQuery(limit=6), many[:4], 5, unchanged
    )
    assert cross_exercises(RecentMessagesAcrossSessionsQuery(limit=0), many, 5, unchanged) == {"LIM-01"}
    assert cross_exercises(RecentMessagesAcrossSessionsQuery(limit=0), [], 5, unchanged) == set()


def test_since_ts_on_a_candidate_is_its_inclusive_edge() -> None:
    candidates = records(msg("a", ts=0))
    query = RecentMessagesAcrossSessionsQuery(limit=3, roles=["user"], since_ts=0)
    assert "CROSS-05" in cross_exercises(query, candidates, 5, lambda fields: candidates)


def test_exotic_json() -> None:
    assert not exotic_json({"a": 1, "b": "x"})
    assert exotic_json({"$d": 1})
    assert exotic_json({"b.c": 1})
    assert exotic_json({"a": [1]})
    assert exotic_json({"a": "ünï"})
    assert exotic_json({"ü": None})


def test_listings() -> None:
    assert listing_exercises([], unreadable=False, others_hold=False) == set()
    assert listing_exercises([], unreadable=True, others_hold=True) == {"META-02", "META-09"}
    # Data a store easily loses ('$' keys, nesting, unicode) is META-01's; values JSON writes
    # like others (a tuple, a whole float) META-07's.
    assert listing_exercises([{"a": 1}, {"$d": 2}], unreadable=False, others_hold=False) == {
        "META-02",
        "META-04",
        "META-01",
    }
    assert listing_exercises([{"a": [1]}], unreadable=False, others_hold=False, alike=True) == {
        "META-02",
        "META-01",
        "META-07",
    }


def test_json_alike() -> None:
    assert json_alike({"a": (1, 2)})
    assert json_alike({"a": [{"b": ()}]})
    assert json_alike({"w": 2.0})
    assert not json_alike({"w": 2.5, "a": [1, {"b": [True]}], "$d": "x"})


def test_commits() -> None:
    batch: list[MetadataOp] = [MetadataPut("ns", "k", {}), MetadataDel("ns2", "k")]
    for refused in ("COMMIT-04", "COMMIT-07"):  # a refused batch is its tier's rule alone
        exercised = commit_exercises(
            batch, rejected=True, missing_del=True, unreadable_del=False, refused=refused
        )
        assert exercised == {refused}
    assert commit_exercises(
        batch, rejected=False, missing_del=True, unreadable_del=True, refused="COMMIT-04"
    ) == {
        "COMMIT-01",
        "COMMIT-02",
        "COMMIT-03",
        "COMMIT-06",
    }
    assert commit_exercises([], rejected=False, missing_del=False, unreadable_del=False, refused=None) == {
        "COMMIT-03"
    }


async def inmemory_store(_ctx: DriverContext) -> AsyncIterator[InMemoryMemory]:
    yield InMemoryMemory()


@pytest.mark.parametrize(
    ("tiers", "rule"),
    [
        (("atomic",), "COMMIT-04"),
        (("ordered",), "COMMIT-07"),
        (("ordered", "ordered"), "COMMIT-07"),
        (("atomic", "ordered"), None),
    ],
)
def test_a_refused_batch_is_judged_by_the_declared_tier(
    tiers: tuple[MetadataAtomicity, ...], rule: str | None, tmp_path: Path
) -> None:
    """COMMIT-04 binds the atomic tier only: an ordered driver's refused batch is COMMIT-07's
    (so the machine neither blames nor credits COMMIT-04 there), and drivers of both tiers in
    one differential history are sent no such batch (``None``)."""
    targets = [
        Target(
            DriverRegistration(
                name=f"d{i}", factory=inmemory_store, capabilities=Capabilities(metadata_atomicity=tier)
            ),
            DriverContext(name=f"d{i}", tmp_path=tmp_path),
        )
        for i, tier in enumerate(tiers)
    ]
    assert Declared.of(targets, Tolerance()).refused_batch == rule


def test_every_exercised_rule_is_covered() -> None:
    """A rule the functions can credit but the marker does not list would be reported nowhere."""
    active = [msg("a", MARKER), *conversation(60)]
    credited = (
        history_read_exercises(active, 2, True)
        | history_read_exercises(active, None, True)
        | full_read_exercises(active * 4, None, {"a"})
        | archive_exercises(active, 99, [0, 0, 99], True)
        | update_exercises(active, active, "m", "n", None)
    )
    assert credited <= set(COVERED_RULES)


# -- blamed ---------------------------------------------------------------------------------


def test_archive_rules_put_the_narrowest_first() -> None:
    active = [msg("a"), msg("d", MARKER), msg("b")]
    assert archive_rules(active, 0, [])[0] == "ARCH-04"
    assert archive_rules(active, 2, [0])[0] == "ARCH-03"  # the marker sits inside the span
    assert archive_rules(conversation(3), 9, [])[:2] == ["ARCH-05", "ARCH-01"]
    assert archive_rules(active, 1, [5])[0] == "ARCH-06"


def test_update_rules_blame_the_window_when_it_decided() -> None:
    active = [msg("alpha"), msg("beta")]
    assert update_rules(active, active, "alpha", "A", 1)[0] == "UPD-01"
    assert update_rules(active, active, "beta", "A", 1)[0] == "UPD-02"
    assert update_rules(active, active, "alpha", "A", 0)[0] == "LIM-03"
    # A rewrite to the same text changes nothing wherever the window ends.
    assert update_rules(active, active, "alpha", "alpha", 1)[0] == "UPD-02"


def test_commit_rules() -> None:
    assert commit_rules([]) == ["COMMIT-03"]
    shared: list[MetadataOp] = [MetadataPut("ns", "k", {}), MetadataDel("ns", "k")]
    assert commit_rules(shared)[0] == "COMMIT-01"
    spread: list[MetadataOp] = [MetadataPut("ns", "k", {}), MetadataPut("ns2", "k", {})]
    assert commit_rules(spread)[0] == "COMMIT-02"


def mismatch(
    expected: Sequence[Message],
    actual: object,
    cause: Sequence[str] = ("CAUSE",),
    owner: dict[str, str] | None = None,
) -> list[str]:
    return list_mismatch_rules(
        "s",
        list(expected),
        actual,
        owner=owner or {},
        read=("READ",),
        order_rule="ORDER",
        cause=cause,
        unknown=["MSG-04"],
    )


def test_list_mismatches() -> None:
    a, b = msg("a", ts=1), msg("b", ts=2)
    assert mismatch([a], None) == ["MSG-04", "CAUSE", "READ"]
    # A read that raised is blamed on the read (its limit rule first), not the step before it.
    raised = Raised(TypeError, "slice indices must be integers")
    assert list_mismatch_rules(
        "s",
        [a],
        raised,
        owner={},
        read=("HIST-01", "LIM-02"),
        order_rule="ORDER",
        cause=("MSG-01",),
        unknown=[],
    ) == ["LIM-02", "HIST-01", "MSG-01"]
    assert mismatch([a], [msg("x")], owner={"x": "other"})[0] == "MSG-01"
    assert mismatch([a], [Message(role="user", content="a", timestamp=1, images=("i",))])[0] == "MSG-02"
    assert mismatch([a], [msg("a", ts=5)], cause=("MSG-03",))[0] == "MSG-03"
    assert mismatch([a, b], [b, a])[0] == "ORDER"
    assert mismatch([a, b], [a]) == ["CAUSE", "READ"]


def test_interleaving_only() -> None:
    old, new, older = msg("old", ts=1), msg("new", ts=2), msg("older", ts=3)
    expected = [old, new, older]
    assert interleaving_only(expected, [old, older, new], {"old", "older"})
    assert not interleaving_only(expected, [older, old, new], {"old", "older"})
    assert not interleaving_only(expected, [old, older, new], set())


# -- tolerance and ledger -------------------------------------------------------------------


def test_every_covered_should_rule_can_be_tolerated() -> None:
    """Else a non-strict run would have to stop at it, and could hide a MUST bug behind it."""
    should = {r for r in COVERED_RULES if CATALOGUE[r].level is Level.SHOULD}
    assert should <= set(TOLERATIONS), sorted(should - set(TOLERATIONS))
    assert set(TOLERATIONS) <= set(COVERED_RULES)


def test_tolerance() -> None:
    tolerance = Tolerance().adding("MSG-02")
    assert "MSG-02" in tolerance
    assert tolerance.blame(["MSG-02", "HIST-01"]) == ["HIST-01"]
    assert tolerance.blame(["MSG-02"]) == ["MSG-02"]  # nothing else to blame
    full = Message(role="user", content="a", timestamp=1, kind="k", images=("i",))
    assert tolerance.compared([full]) == [Message(role="user", content="a", timestamp=1, kind="k")]
    assert Tolerance().compared([full]) == [full]
    with pytest.raises(ValueError, match="no toleration"):
        Tolerance().adding("HIST-01")


def test_ledger() -> None:
    ledger = CheckLedger()
    ledger.credit(["COUNT-01", "COUNT-01", "LIM-01"])
    with ledger.paused():
        ledger.credit(["LIM-01"])
    ledger.ignore("LIM-01")
    ledger.credit(["LIM-01"])
    assert ledger.as_property() == {"COUNT-01": 2}
    with pytest.raises(ValueError, match="not a rule the state machine covers"):
        ledger.credit(["CLR-01"])


def test_null_for_an_absent_reasoning_is_msg_07_alone() -> None:
    """reasoning_content None where it was saved absent is MSG-07's point, whatever the step;
    any other difference beside it stays MSG-02's. With MSG-07 tolerated it compares as absent."""
    saved = Message(role="assistant", content="a", timestamp=1)
    nulled = attrs.evolve(saved, reasoning_content=None)
    assert field_rules(saved, nulled, "save") == ["MSG-07"]
    assert field_rules(saved, nulled, "rewrite") == ["MSG-07"]
    assert field_rules(saved, attrs.evolve(nulled, name="x"), "save") == ["MSG-02"]
    assert field_rules(attrs.evolve(saved, reasoning_content=None), saved, "save") == ["MSG-02"]
    tolerated = Tolerance().adding("MSG-07")
    assert tolerated.compared([nulled]) == tolerated.compared([saved]) == [saved]
    assert Tolerance().compared([nulled]) != [saved]
