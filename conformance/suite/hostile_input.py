"""Hostile identifiers and arguments of the wrong type (HOST-01..04): every method, every driver.

A backend that builds queries from unchecked values is injectable: ``get_history({"$gt": ""})``
reads every session of a MongoDB backend and ``clear_session({"$gt": ""})`` wipes them all.
Strings that merely look like operators, SQL or patterns are ordinary ids.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

import pytest

from aalis_memory.conformance.check import Check
from aalis_memory.conformance.steps import as_steps
from aalis_memory.conformance.suite._builders import msg, save_all
from aalis_memory.conformance.suite._robustness import (
    Case,
    available,
    expect_refused,
    expect_unchanged,
)
from aalis_memory.service import MemoryService
from aalis_memory.types import (
    Message,
    MetadataDel,
    MetadataPut,
    RecentMessagesAcrossSessionsQuery,
)

SESSIONS: Final = ("s-host-a", "s-host-b")
#: "Everything", finite (see concurrency.LIMIT).
LIMIT: Final = 10_000
NAMESPACES: Final = ("ns-host-a", "ns-host-b")
KEYS: Final = ("k1", "k2")

#: Values of every kind a caller might pass by mistake or on purpose, by a readable name.
HOSTILE: Final[dict[str, Callable[[], object]]] = {
    "{'$gt': ''}": lambda: {"$gt": ""},
    "{'$ne': None}": lambda: {"$ne": None},
    "{'$regex': '.*'}": lambda: {"$regex": ".*"},
    "['s-host-a']": lambda: [SESSIONS[0]],
    "('s-host-a',)": lambda: (SESSIONS[0],),
    "None": lambda: None,
    "1": lambda: 1,
    "1.5": lambda: 1.5,
    "True": lambda: True,
    "b's-host-a'": lambda: SESSIONS[0].encode(),
    "re.compile('.*')": lambda: re.compile(".*"),
}

#: Strings that mean something to a query language, SQL, LIKE patterns or regexes: plain ids.
ODD_IDS: Final = (
    "$gt",
    "$where",
    "'; DROP TABLE messages; --",
    "%",
    "_",
    ".",
    ".*",
    "",
    "a.b",
    "$",
    "\\",
    "*",
    '{"$ne": null}',
    "s-host-a%",
    "S-HOST-A",
)


async def _seed(memory: MemoryService) -> None:
    for index, session in enumerate(SESSIONS):
        await save_all(memory, session, [msg(f"{session} alpha {i}", 1000 + i) for i in range(3)])
        await memory.archive_span(session, 1)
        for key in KEYS:
            await memory.save_metadata(NAMESPACES[index], key, {"v": f"{session}/{key}"})


def _session_cases(bad: object, name: str) -> list[Case]:
    query = RecentMessagesAcrossSessionsQuery(limit=10, exclude_session_ids=[bad])  # type: ignore[list-item]
    return [
        Case(f"save_message({name}, msg)", lambda m: m.save_message(bad, msg("x", 5000))),
        Case(f"get_history({name})", lambda m: m.get_history(bad), writes=False),
        Case(f"get_history({name}, 10)", lambda m: m.get_history(bad, 10), writes=False),
        Case(f"count_history({name})", lambda m: m.count_history(bad), "count_history", False),
        Case(f"get_full_history({name})", lambda m: m.get_full_history(bad), "get_full_history", False),
        Case(f"archive_span({name}, 5)", lambda m: m.archive_span(bad, 5)),
        Case(f"clear_session({name})", lambda m: m.clear_session(bad)),
        Case(
            f"get_messages_by_session_range({name}, 0, 10**6)",
            lambda m: m.get_messages_by_session_range(bad, 0, 10**6),
            "get_messages_by_session_range",
            False,
        ),
        Case(
            f"update_message_content({name}, 'alpha', 'omega')",
            lambda m: m.update_message_content(bad, "alpha", "omega"),
            "update_message_content",
        ),
        Case(
            f"delete_messages_by_timestamps({name}, [1000, 1001])",
            lambda m: m.delete_messages_by_timestamps(bad, [1000, 1001]),
            "delete_messages_by_timestamps",
        ),
        Case(
            f"get_recent_messages_across_sessions(exclude_session_ids=[{name}])",
            lambda m: m.get_recent_messages_across_sessions(query),
            "get_recent_messages_across_sessions",
            False,
        ),
    ]


def _metadata_cases(bad: object, name: str) -> list[Case]:
    ns, key = NAMESPACES[0], KEYS[0]
    return [
        Case(f"save_metadata({name}, k, ...)", lambda m: m.save_metadata(bad, key, {"v": 0})),
        Case(f"save_metadata(ns, {name}, ...)", lambda m: m.save_metadata(ns, bad, {"v": 0})),
        Case(f"get_metadata({name}, k)", lambda m: m.get_metadata(bad, key), writes=False),
        Case(f"get_metadata(ns, {name})", lambda m: m.get_metadata(ns, bad), writes=False),
        Case(f"list_metadata({name})", lambda m: m.list_metadata(bad), writes=False),
        Case(f"list_metadata_keys({name})", lambda m: m.list_metadata_keys(bad), "list_metadata_keys", False),
        Case(f"delete_metadata({name}, k)", lambda m: m.delete_metadata(bad, key)),
        Case(f"delete_metadata(ns, {name})", lambda m: m.delete_metadata(ns, bad)),
        Case(
            f"commit_metadata([put ({name}, k)])",
            lambda m: m.commit_metadata([MetadataPut(bad, key, {"v": 0})]),  # type: ignore[arg-type]
        ),
        Case(
            f"commit_metadata([put (ns, {name})])",
            lambda m: m.commit_metadata([MetadataPut(ns, bad, {"v": 0})]),  # type: ignore[arg-type]
        ),
        Case(f"commit_metadata([del ({name}, k)])", lambda m: m.commit_metadata([MetadataDel(bad, key)])),  # type: ignore[arg-type]
        Case(
            f"commit_metadata([put ns/k2 ok, del (ns, {name})])",
            lambda m: m.commit_metadata(
                [MetadataPut(ns, KEYS[1], {"v": "changed"}), MetadataDel(ns, bad)]  # type: ignore[arg-type]
            ),
        ),
    ]


def _hostile_cases(memory: MemoryService) -> list[Case]:
    cases: list[Case] = []
    for name, build in HOSTILE.items():
        cases += _session_cases(build(), name) + _metadata_cases(build(), name)
    return available(memory, cases)


@pytest.mark.aalis_spec("HOST-01")
async def test_non_string_identifiers_raise_type_error(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await _seed(aalis_memory)
    await expect_refused(aalis_memory, aalis_check, _hostile_cases(aalis_memory), (TypeError,))


@pytest.mark.aalis_spec("HOST-02")
async def test_non_string_identifiers_read_and_change_nothing(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    await _seed(aalis_memory)
    await expect_unchanged(aalis_memory, aalis_check, _hostile_cases(aalis_memory), SESSIONS, NAMESPACES)


# -- HOST-03: odd strings are ordinary ids ------------------------------------------------------


@pytest.mark.aalis_spec("HOST-03")
async def test_operator_and_sql_looking_session_ids_are_ordinary(
    aalis_memory: MemoryService, aalis_check: Check
) -> None:
    for index, session in enumerate(ODD_IDS):
        await aalis_memory.save_message(session, msg(f"m{index}", 1000 + index))
    await aalis_memory.save_message(SESSIONS[0], msg("plain", 999))
    failures: list[str] = []
    for index, session in enumerate(ODD_IDS):
        got = [m.content for m in await aalis_memory.get_history(session, LIMIT)]
        if got != [f"m{index}"]:
            failures.append(f"get_history({session!r}): expected ['m{index}'], got {got}")
    aalis_check.no_failures(
        "odd session ids did not address exactly their own session", failures, len(ODD_IDS)
    )
    # Removing one odd session removes that one only.
    await aalis_memory.clear_session("$gt")
    await aalis_memory.clear_session("%")
    await aalis_memory.clear_session(".*")
    survivors = [s for s in ODD_IDS if s not in ("$gt", "%", ".*")]
    with as_steps():  # what clear_session left, read as a step (it stands on HIST-05)
        left = {s: len(await aalis_memory.get_history(s, LIMIT)) for s in (*ODD_IDS, SESSIONS[0])}
    aalis_check.equal(
        "sessions left after clear_session('$gt'), ('%') and ('.*')",
        sorted(s for s, n in left.items() if n),
        sorted([*survivors, SESSIONS[0]]),
    )


@pytest.mark.aalis_spec("HOST-03")
async def test_operator_and_sql_looking_namespaces_and_keys_are_ordinary(
    aalis_memory: MemoryService,
    aalis_check: Check,
) -> None:
    for index, name in enumerate(ODD_IDS):
        await aalis_memory.save_metadata(name, name, {"i": index})
    await aalis_memory.save_metadata(NAMESPACES[0], "plain", {"i": -1})
    failures: list[str] = []
    for index, name in enumerate(ODD_IDS):
        got = await aalis_memory.get_metadata(name, name)
        if got != {"i": index}:
            failures.append(f"get_metadata({name!r}, {name!r}): expected {{'i': {index}}}, got {got!r}")
        listed = [(e.key, e.data) for e in await aalis_memory.list_metadata(name)]
        if listed != [(name, {"i": index})]:
            failures.append(f"list_metadata({name!r}): expected only its own key, got {listed}")
    aalis_check.no_failures(
        "odd namespaces/keys did not address exactly their own entry", failures, len(ODD_IDS)
    )
    await aalis_memory.delete_metadata("$gt", "$gt")
    await aalis_memory.commit_metadata([MetadataDel("%", "%")])
    await aalis_memory.commit_metadata([MetadataDel(".*", ".*")])
    left = sorted([name for name in ODD_IDS if await aalis_memory.get_metadata(name, name)])
    aalis_check.equal(
        "entries left after deleting '$gt', '%' and '.*'",
        left,
        sorted(n for n in ODD_IDS if n not in ("$gt", "%", ".*")),
    )
    aalis_check.equal(
        "an unrelated namespace after those deletions",
        await aalis_memory.get_metadata(NAMESPACES[0], "plain"),
        {"i": -1},
    )


# -- HOST-04: other arguments of the wrong type ---------------------------------------------------

SESSION = SESSIONS[0]
NAMESPACE = NAMESPACES[0]


def _q(**fields: Any) -> RecentMessagesAcrossSessionsQuery:
    return RecentMessagesAcrossSessionsQuery(limit=10, **fields)


def _odd_message(fields: dict[str, Any]) -> Message:
    """A Message with ``fields`` replaced (attrs checks none of their types)."""
    base: dict[str, Any] = {"role": "user", "content": "x", "timestamp": 5000}
    return Message(**{**base, **fields})


#: Message fields of the wrong type, by a readable name: a dict in role or kind would reach a
#: query, the others would be stored as given and break every reader of the TypeScript shape.
ODD_FIELDS: Final[dict[str, dict[str, Any]]] = {
    "role={'$gt': ''}": {"role": {"$gt": ""}},
    "content=['x']": {"content": ["x"]},
    "kind={'$ne': None}": {"kind": {"$ne": None}},
    "name=1": {"name": 1},
    "reasoning_content=1": {"reasoning_content": 1},
    "images=[1]": {"images": [1]},
    "audios=[None]": {"audios": [None]},
    "tool_calls=['call']": {"tool_calls": ["call"]},
    "segments=[1]": {"segments": [1]},
}


def _odd_message_case(name: str, fields: dict[str, Any]) -> Case:
    return Case(f"save_message(s, Message({name}))", lambda m: m.save_message(SESSION, _odd_message(fields)))


WRONG_TYPES: Final[tuple[Case, ...]] = (
    *(_odd_message_case(name, fields) for name, fields in ODD_FIELDS.items()),
    Case("save_message(s, 'text')", lambda m: m.save_message(SESSION, "text")),
    Case(
        "save_message(s, {'role': 'user', ...})",
        lambda m: m.save_message(SESSION, {"role": "user", "content": "x", "timestamp": 1}),
    ),
    Case("save_message(s, None)", lambda m: m.save_message(SESSION, None)),
    Case("save_metadata(ns, k, [1, 2])", lambda m: m.save_metadata(NAMESPACE, "k-new", [1, 2])),
    Case("save_metadata(ns, k, 'text')", lambda m: m.save_metadata(NAMESPACE, "k-new", "text")),
    Case("save_metadata(ns, k, None)", lambda m: m.save_metadata(NAMESPACE, "k-new", None)),
    Case(
        "commit_metadata([put with a list payload])",
        lambda m: m.commit_metadata([MetadataPut(NAMESPACE, "k-new", [1])]),  # type: ignore[arg-type]
    ),
    Case(
        "commit_metadata([put ok, ('put', ns, k, {})])",
        lambda m: m.commit_metadata([MetadataPut(NAMESPACE, "k-new", {"v": 1}), ("put", NAMESPACE, "k", {})]),
    ),
    Case(
        "commit_metadata([put ok, None])",
        lambda m: m.commit_metadata([MetadataPut(NAMESPACE, "k-new", {"v": 1}), None]),
    ),
    Case(
        "commit_metadata([put ok, {'namespace': ns, 'key': k}])",
        lambda m: m.commit_metadata(
            [MetadataPut(NAMESPACE, "k-new", {"v": 1}), {"namespace": NAMESPACE, "key": KEYS[0]}]
        ),
    ),
    Case(
        "commit_metadata({del (ns, k1): True}) (a dict: iterating it yields the op)",
        lambda m: m.commit_metadata({MetadataDel(NAMESPACE, KEYS[0]): True}),
    ),
    Case(
        "get_recent_messages_across_sessions({'limit': 10})",
        lambda m: m.get_recent_messages_across_sessions({"limit": 10}),
        "get_recent_messages_across_sessions",
    ),
    Case(
        "get_recent_messages_across_sessions(roles=[1])",
        lambda m: m.get_recent_messages_across_sessions(_q(roles=[1])),
        "get_recent_messages_across_sessions",
    ),
    Case(
        "get_recent_messages_across_sessions(kinds=[None])",
        lambda m: m.get_recent_messages_across_sessions(_q(kinds=[None])),
        "get_recent_messages_across_sessions",
    ),
    Case(
        "get_recent_messages_across_sessions(platform={'$ne': None})",
        lambda m: m.get_recent_messages_across_sessions(_q(platform={"$ne": None})),
        "get_recent_messages_across_sessions",
    ),
    Case(
        "get_messages_by_session_range(s, 0, 10**6, roles='user')",
        lambda m: m.get_messages_by_session_range(SESSION, 0, 10**6, "user"),
        "get_messages_by_session_range",
    ),
    Case(
        "get_messages_by_session_range(s, 0, 10**6, exclude_kinds=[{'$gt': ''}])",
        lambda m: m.get_messages_by_session_range(SESSION, 0, 10**6, None, [{"$gt": ""}]),
        "get_messages_by_session_range",
    ),
    Case(
        "save_message(s, Message(timestamp='1000'))",
        lambda m: m.save_message(SESSION, Message(role="user", content="x", timestamp="1000")),  # type: ignore[arg-type]
    ),
    Case(
        "get_messages_by_session_range(s, '0', 10**6)",
        lambda m: m.get_messages_by_session_range(SESSION, "0", 10**6),
        "get_messages_by_session_range",
    ),
    Case(
        "get_messages_by_session_range(s, 0, '1000000')",
        lambda m: m.get_messages_by_session_range(SESSION, 0, "1000000"),
        "get_messages_by_session_range",
    ),
    Case(
        "get_recent_messages_across_sessions(since_ts='0')",
        lambda m: m.get_recent_messages_across_sessions(_q(since_ts="0")),
        "get_recent_messages_across_sessions",
    ),
    Case(
        "delete_messages_by_timestamps(s, 1001)",
        lambda m: m.delete_messages_by_timestamps(SESSION, 1001),
        "delete_messages_by_timestamps",
    ),
    Case(
        "delete_messages_by_timestamps(s, '1001')",
        lambda m: m.delete_messages_by_timestamps(SESSION, "1001"),
        "delete_messages_by_timestamps",
    ),
    Case(
        "delete_messages_by_timestamps(s, {'$gt': 0})",
        lambda m: m.delete_messages_by_timestamps(SESSION, {"$gt": 0}),
        "delete_messages_by_timestamps",
    ),
    # Iterable, but not a list of numbers: a dict would yield its keys, bytes their byte values.
    Case(
        "delete_messages_by_timestamps(s, {1001: 'x'})",
        lambda m: m.delete_messages_by_timestamps(SESSION, {1001: "x"}),
        "delete_messages_by_timestamps",
    ),
    Case(
        "delete_messages_by_timestamps(s, b'\\x01')",
        lambda m: m.delete_messages_by_timestamps(SESSION, b"\x01"),
        "delete_messages_by_timestamps",
    ),
    Case(
        "get_messages_by_session_range(s, 0, 10**6, roles={'user': 1})",
        lambda m: m.get_messages_by_session_range(SESSION, 0, 10**6, {"user": 1}),
        "get_messages_by_session_range",
    ),
    Case(
        "get_messages_by_session_range(s, 0, 10**6, exclude_kinds={'note': 1})",
        lambda m: m.get_messages_by_session_range(SESSION, 0, 10**6, None, {"note": 1}),
        "get_messages_by_session_range",
    ),
    Case(
        "delete_messages_by_timestamps(s, ['1001'])",
        lambda m: m.delete_messages_by_timestamps(SESSION, ["1001"]),
        "delete_messages_by_timestamps",
    ),
    Case(
        "update_message_content(s, {'$ne': ''}, 'omega')",
        lambda m: m.update_message_content(SESSION, {"$ne": ""}, "omega"),
        "update_message_content",
    ),
    Case(
        "update_message_content(s, 'alpha', None)",
        lambda m: m.update_message_content(SESSION, "alpha", None),
        "update_message_content",
    ),
)


@pytest.mark.aalis_spec("HOST-04")
async def test_arguments_of_the_wrong_type_raise_type_error_and_change_nothing(
    aalis_memory: MemoryService,
    aalis_check: Check,
) -> None:
    await _seed(aalis_memory)
    cases = available(aalis_memory, WRONG_TYPES)
    await expect_refused(aalis_memory, aalis_check, cases, (TypeError,))
    await expect_unchanged(aalis_memory, aalis_check, cases, SESSIONS, NAMESPACES)
