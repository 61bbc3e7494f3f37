"""What a compression provider that keeps data in metadata owes ``memory:clear`` (api-memory
§钩子与贡献点): it registers its clear type, clears its data by scope and types, tags its result
rows, and a clear that lands during a compression stays in effect.

The kit finds the provider's metadata by recording what it writes while compressing; a provider
that writes none is not bound (the tests say so and skip). It takes part through
:class:`aalis_memory.ClearParticipant`: ``clear_types`` and ``on_clear``, called here as the
``memory:clear`` chain would, after the history was cleared.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any, Final

import pytest

from aalis_memory.clearing import ClearContext, ClearResult, ClearTypeContribution, ClearTypeRegistry
from aalis_memory.compression_service import CompressionError
from aalis_memory.conformance.check import Check
from aalis_memory.conformance.compression.harness import Harness
from aalis_memory.conformance.rules.verdict import Verdict, skip
from aalis_memory.conformance.steps import Blocked
from aalis_memory.conformance.suite._builders import conversation, save_all

SESSION = "s-clr"
OTHER = "s-clr-other"
#: The history's own row, as the memory service adds it before the plugins' middleware runs.
HISTORY_ROW = ClearResult(source="memory", type="context", success=True, message="cleared")


async def _compress_keeping(
    compression: Harness, service: Any, session_id: str, text: str
) -> list[tuple[str, str]]:
    """Compress ``session_id`` with summary ``text``; the metadata entries that wrote."""
    before = len(compression.written)
    compression.summarizer.text = text
    await service.compress(session_id)
    return compression.written[before:]


async def _keeper(compression: Harness) -> tuple[Any, list[tuple[str, str]]]:
    """A provider over a compressed S, and the metadata it wrote for S; skips a provider that
    keeps nothing in metadata (the rules bind plugins that do)."""
    await save_all(compression.memory, SESSION, conversation("s", 4))
    service = compression.build()
    keys = await _compress_keeping(compression, service, SESSION, "S-SUMMARY")
    if not keys:
        skip(
            Verdict.NOT_IMPLEMENTED,
            f"provider {compression.registration.name!r} keeps "
            "nothing in metadata: CLR-12..16 bind plugins that do",
        )
    return service, keys


#: The rule a provider without ``on_clear`` breaks: its data outlives every memory:clear.
TAKES_PART: Final = "CLR-12"


async def _clear(service: Any, check: Check | None, context: ClearContext) -> ClearResult | None:
    """Run the provider's part of ``memory:clear``. A provider without one fails ``check``'s
    rule, the rule of a test that judges what the clear does; a test that only makes the clear to
    look at its rows or its timing (``check`` ``None``) stands on :data:`TAKES_PART` there, and
    is blocked by it."""
    on_clear = getattr(service, "on_clear", None)
    if not callable(on_clear):
        cause = "the provider keeps data in metadata but has no on_clear: it takes no part in memory:clear"
        if check is None:
            raise Blocked(TAKES_PART, "on_clear()", f"is not there: {cause}")
        raise check.fail(cause)
    result: ClearResult | None = await on_clear(context)
    return result


def _registered(service: Any) -> list[ClearTypeContribution]:
    return list(getattr(service, "clear_types", None) or ())


def _session_clear(session_id: str, types: Sequence[str] | None = None) -> ClearContext:
    return ClearContext(scope="session", session_id=session_id, types=types, results=[HISTORY_ROW])


@pytest.mark.aalis_spec("CLR-12")
async def test_a_clear_removes_the_data_of_its_scope(aalis_compression: Harness, aalis_check: Check) -> None:
    service, s_keys = await _keeper(aalis_compression)
    await save_all(aalis_compression.memory, OTHER, conversation("o", 4))
    o_keys = await _compress_keeping(aalis_compression, service, OTHER, "O-SUMMARY")
    s_only = [k for k in s_keys if k not in o_keys]
    o_only = [k for k in o_keys if k not in s_keys]
    await _clear(service, aalis_check, _session_clear(SESSION))
    aalis_check.equal(
        f"the provider's metadata for {SESSION} after memory:clear of {SESSION}",
        await aalis_compression.present(s_only),
        [],
    )
    aalis_check.equal(
        f"the provider's metadata for {OTHER} after memory:clear of {SESSION}",
        await aalis_compression.present(o_only),
        [f"{ns}/{k}" for ns, k in o_only],
    )
    await _clear(service, aalis_check, ClearContext(scope="all", results=[HISTORY_ROW]))
    aalis_check.equal(
        "the provider's metadata after memory:clear of all sessions",
        await aalis_compression.present([*s_keys, *o_keys]),
        [],
    )


@pytest.mark.aalis_spec("CLR-12")
async def test_a_clear_after_a_restart_reaches_earlier_data(
    aalis_compression: Harness, aalis_check: Check
) -> None:
    """The data lives in the store, not in the provider object: a provider built afresh over the
    same store (the host restarted) clears what the one before it wrote."""
    service, s_keys = await _keeper(aalis_compression)
    await save_all(aalis_compression.memory, OTHER, conversation("o", 4))
    o_keys = await _compress_keeping(aalis_compression, service, OTHER, "O-SUMMARY")
    s_only = [k for k in s_keys if k not in o_keys]
    await _clear(aalis_compression.build(), aalis_check, _session_clear(SESSION))
    aalis_check.equal(
        f"the provider's metadata for {SESSION} after a new provider instance "
        f"handled memory:clear of {SESSION}",
        await aalis_compression.present(s_only),
        [],
    )
    await _clear(aalis_compression.build(), aalis_check, ClearContext(scope="all", results=[HISTORY_ROW]))
    aalis_check.equal(
        "the metadata an earlier provider instance wrote, after a new one "
        "handled memory:clear of all sessions",
        await aalis_compression.present([*s_keys, *o_keys]),
        [],
    )


@pytest.mark.aalis_spec("CLR-13")
async def test_a_clear_of_other_types_leaves_the_data(aalis_compression: Harness, aalis_check: Check) -> None:
    service, keys = await _keeper(aalis_compression)
    registered = [c.id for c in _registered(service)]
    if not registered:
        pytest.skip("the provider registers no clear type (CLR-14's finding): no type to name")
    others = [t for t in ("context", "vector", "profile") if t not in registered]
    await _clear(service, aalis_check, _session_clear(SESSION, others))
    aalis_check.equal(
        f"the provider's metadata after memory:clear of {SESSION} with types {others}",
        await aalis_compression.present(keys),
        [f"{ns}/{k}" for ns, k in keys],
    )
    await _clear(service, aalis_check, _session_clear(SESSION, ["context", registered[0]]))
    aalis_check.equal(
        f"the provider's metadata after memory:clear of {SESSION} with types ['context', {registered[0]!r}]",
        await aalis_compression.present(keys),
        [],
    )


@pytest.mark.aalis_spec("CLR-13")
async def test_a_clear_without_types_clears_like_one_naming_its_type(
    aalis_compression: Harness, aalis_check: Check
) -> None:
    """No types is every type. Judged against a clear that names the plugin's type, of another
    session: what a session clear removes at all is the scope's rule, not this one."""
    service, s_keys = await _keeper(aalis_compression)
    registered = [c.id for c in _registered(service)]
    if not registered:
        pytest.skip("the provider registers no clear type (CLR-14's finding): no type to name")
    await save_all(aalis_compression.memory, OTHER, conversation("o", 4))
    o_keys = await _compress_keeping(aalis_compression, service, OTHER, "O-SUMMARY")
    s_only = [k for k in s_keys if k not in o_keys]
    o_only = [k for k in o_keys if k not in s_keys]
    await _clear(service, aalis_check, _session_clear(SESSION, [registered[0]]))
    named = await aalis_compression.present(s_only)
    await _clear(service, aalis_check, _session_clear(OTHER))
    untyped = await aalis_compression.present(o_only)
    aalis_check.equal(
        f"entries left of {OTHER}'s {len(o_only)} by memory:clear without types {untyped}, against "
        f"those left of {SESSION}'s {len(s_only)} by one naming {registered[0]!r} {named}",
        len(untyped),
        len(named),
    )


@pytest.mark.aalis_spec("CLR-14")
async def test_the_clear_type_is_registered(aalis_compression: Harness, aalis_check: Check) -> None:
    service, _keys = await _keeper(aalis_compression)
    registered = _registered(service)
    aalis_check.that(
        bool(registered) and all(isinstance(c, ClearTypeContribution) for c in registered),
        f"clear_types of a provider keeping metadata: expected its memory:clear-type "
        f"contributions (ClearTypeContribution id and label), got {registered!r}",
    )
    row = await _clear(service, None, _session_clear(SESSION))
    tagged = None if row is None else row.type
    registry = ClearTypeRegistry(registered)
    aalis_check.that(
        tagged is None or tagged in registry,
        f"the provider tags its memory:clear rows {tagged!r} but registers "
        f"{registry.ids()}: /clear -t {tagged} would be refused",
    )


@pytest.mark.aalis_spec("CLR-15")
async def test_result_rows_carry_the_type_on_failure_and_success(
    aalis_compression: Harness, aalis_check: Check
) -> None:
    service, _keys = await _keeper(aalis_compression)
    watched = aalis_compression.watched
    assert watched is not None
    watched.fail_metadata_writes = True
    try:
        failed = await _clear(service, None, _session_clear(SESSION))
    except Blocked:
        raise
    except Exception as exc:
        raise aalis_check.fail(
            f"memory:clear of {SESSION} with the metadata backend down raised "
            f"{type(exc).__name__}: {exc}; expected an unsuccessful row",
        ) from exc
    finally:
        watched.fail_metadata_writes = False
    aalis_check.that(
        isinstance(failed, ClearResult)
        and not failed.success
        and failed.type is not None
        and bool(failed.message),
        f"memory:clear of {SESSION} with the metadata backend down: expected an unsuccessful row "
        f"naming the provider's type, with a message; got {failed!r}",
    )
    row = await _clear(service, None, _session_clear(SESSION))
    aalis_check.that(
        isinstance(row, ClearResult)
        and row.success
        and bool(row.message)
        and row.type == (failed.type if failed else None),
        f"memory:clear of {SESSION}: expected a successful row with the type of the failed one "
        f"({failed.type if failed else None!r}) and a message; got {row!r}",
    )


@pytest.mark.aalis_spec("CLR-16")
async def test_a_clear_during_a_compression_stays_cleared(
    aalis_compression: Harness, aalis_check: Check
) -> None:
    service, keys = await _keeper(aalis_compression)
    memory = aalis_compression.memory
    await save_all(memory, SESSION, conversation("n", 3, start_ts=5000))
    task = await aalis_compression.held(service, SESSION, aalis_check)
    await memory.clear_session(SESSION)
    await _clear(service, None, _session_clear(SESSION))
    aalis_compression.summarizer.text = "S-SECOND"
    aalis_compression.summarizer.release()
    with contextlib.suppress(CompressionError):  # the rejection's reason is CSV-11's
        await task
    kept = await aalis_compression.kept(service, SESSION, ["S-SUMMARY", "S-SECOND"])
    aalis_check.equal(
        f"summaries kept for {SESSION} after memory:clear landed during a compression", kept, []
    )
    aalis_check.equal(
        f"the provider's metadata for {SESSION} written before the clear",
        await aalis_compression.present(keys),
        [],
    )
