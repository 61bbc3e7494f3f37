"""clear_session and clear_all (api-memory §核心方法 and §钩子与贡献点)."""

from __future__ import annotations

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.registration.requirements import requires
from aalis_memory.conformance.suite._builders import msg, save_all, timeline
from aalis_memory.conformance.suite._metadata_reads import read_back_first
from aalis_memory.conformance.suite._reads import active, everything
from aalis_memory.service import FullMemoryService, MemoryService

SESSION = "s-clear"
OTHER = "s-clear-other"
NAMESPACE = "clear-ns"


async def _two_sessions(aalis_memory: MemoryService) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "|d1", "b", "|d2", "c"))
    await save_all(aalis_memory, OTHER, timeline("x", "y", "z", start_ts=5000))


async def _two_sessions_with_archives(aalis_memory: MemoryService) -> None:
    await _two_sessions(aalis_memory)
    await aalis_memory.archive_span(SESSION, 2)
    await aalis_memory.archive_span(OTHER, 1)


@pytest.mark.aalis_spec("CLEAR-01")
async def test_clear_session_empties_history(aalis_memory: MemoryService, aalis_check: Check) -> None:
    await save_all(aalis_memory, SESSION, timeline("a", "|d1", "b", "c"))
    await aalis_memory.clear_session(SESSION)
    aalis_check.equal("get_history(s) after clear_session(s)", await active(aalis_memory, SESSION), [])
    await save_all(aalis_memory, SESSION, [msg("fresh", 9000)])
    aalis_check.equal(
        "get_history(s) after clear_session(s) and one new message",
        await active(aalis_memory, SESSION),
        ["fresh"],
    )


@pytest.mark.aalis_spec("CLEAR-01")
async def test_clear_session_with_archives_empties_history(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await _two_sessions_with_archives(aalis_memory)
    await aalis_memory.clear_session(SESSION)
    aalis_check.equal("get_history(s) after clear_session(s)", await active(aalis_memory, SESSION), [])


@pytest.mark.aalis_spec("MSG-06", "CLEAR-02")
async def test_clear_session_leaves_other_sessions_and_metadata(
    aalis_memory: MemoryService, aalis_checks: tuple[Check, ...]
) -> None:
    others, clearing = aalis_checks
    await _two_sessions_with_archives(aalis_memory)
    await aalis_memory.save_metadata(NAMESPACE, SESSION, {"summary": "kept"})
    await read_back_first(aalis_memory, {(NAMESPACE, SESSION): {"summary": "kept"}})
    before = await aalis_memory.get_history(OTHER, 10)
    await aalis_memory.clear_session(SESSION)
    others.equal(
        "get_history(other) after clear_session(s)",
        await aalis_memory.get_history(OTHER, 10),
        before,
    )
    clearing.equal(
        "get_metadata(ns, s) after clear_session(s)",
        await aalis_memory.get_metadata(NAMESPACE, SESSION),
        {"summary": "kept"},
    )


@requires.get_full_history
@pytest.mark.aalis_spec("CLEAR-02", "MSG-06")
async def test_clear_session_removes_archived(
    aalis_memory: FullMemoryService, aalis_checks: tuple[Check, ...]
) -> None:
    clearing, others = aalis_checks
    await _two_sessions_with_archives(aalis_memory)
    before = await aalis_memory.get_full_history(OTHER, 10)
    await aalis_memory.clear_session(SESSION)
    others.equal(
        "get_full_history(other) after clear_session(s)",
        await aalis_memory.get_full_history(OTHER, 10),
        before,
    )
    clearing.equal("get_full_history(s) after clear_session(s)", await everything(aalis_memory, SESSION), [])


@requires.clear_all
@pytest.mark.aalis_spec("CLEAR-03")
async def test_clear_all_empties_every_history(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    """Active messages only: archives are test_clear_all_removes_archived's, so a driver without a
    working archive_span still has this part of the rule judged."""
    await _two_sessions(aalis_memory)
    await aalis_memory.clear_all()
    aalis_check.equal("get_history(s) after clear_all()", await active(aalis_memory, SESSION), [])
    aalis_check.equal("get_history(other) after clear_all()", await active(aalis_memory, OTHER), [])


@requires.clear_all
@requires.get_full_history
@pytest.mark.aalis_spec("CLEAR-03")
async def test_clear_all_removes_archived(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    await _two_sessions_with_archives(aalis_memory)
    await aalis_memory.clear_all()
    aalis_check.equal("get_full_history(s) after clear_all()", await everything(aalis_memory, SESSION), [])
    aalis_check.equal("get_full_history(other) after clear_all()", await everything(aalis_memory, OTHER), [])


@requires.clear_all
@pytest.mark.aalis_spec("CLEAR-04")
async def test_clear_all_keeps_metadata(aalis_memory: FullMemoryService, aalis_check: Check) -> None:
    """No archive is seeded: whether clear_all keeps metadata is observed whatever archive_span
    does."""
    await _two_sessions(aalis_memory)
    await aalis_memory.save_metadata(NAMESPACE, "a", {"n": 1})
    await aalis_memory.save_metadata("other-ns", "b", {"n": 2})
    await read_back_first(aalis_memory, {(NAMESPACE, "a"): {"n": 1}, ("other-ns", "b"): {"n": 2}})
    await aalis_memory.clear_all()
    aalis_check.equal(
        "get_metadata(ns, a) after clear_all()",
        await aalis_memory.get_metadata(NAMESPACE, "a"),
        {"n": 1},
    )
    aalis_check.equal(
        "get_metadata(other-ns, b) after clear_all()",
        await aalis_memory.get_metadata("other-ns", "b"),
        {"n": 2},
    )
