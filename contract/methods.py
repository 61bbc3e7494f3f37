"""The one table of the contract's methods: what every list of methods in the kit derives from.

A row says, for one method: whether it is required, its protocol (camelCase) name, its arguments
(which the caller may omit, and how they travel over the stdio protocol), what its first argument
names (a session, a namespace or nothing: the fresh-store checks need it), what it returns on the
wire, the rule a step calling it stands on, and the rule group (ID prefix) of its own rules.

Python reads the table directly (:data:`REQUIRED_METHODS`, the stdio client's protocol names,
the fresh-store checks, the harness's steps, the rule map's headings). What another language or a
JSON file holds (the protocol schema's method lists, params and results, the TypeScript bridge's
``src/contract-table.ts``, the README's method list) is generated from it by
``python -m aalis_memory.conformance contract-tables``; a kit test fails while a copy is stale.

Adding a method of the contract starts with one row here (CONTRIBUTING.md walks it through).
"""

from __future__ import annotations

from typing import Final, Literal

import attrs

#: What a method's first argument names (``session``: the session id; ``namespace``: the metadata
#: namespace; ``ops``: a metadata batch; ``none``: nothing of one session, e.g. a whole-store call).
Scope = Literal["session", "namespace", "ops", "none"]

#: What a method returns over the stdio protocol (a key of :data:`RESULT_SCHEMAS`).
Returns = Literal["null", "messages", "count", "object-or-null", "entries", "records", "keys"]

#: The JSON schema of each kind of result (``$defs/results/<method>`` of the protocol schema).
RESULT_SCHEMAS: Final[dict[str, dict[str, object]]] = {
    "null": {"type": "null"},
    "messages": {"type": "array", "items": {"$ref": "#/$defs/message"}},
    "count": {"$ref": "#/$defs/count"},  # a non-negative integer, plain or {"$int": ...}
    "object-or-null": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/jsonObject"}]},
    "entries": {"type": "array", "items": {"$ref": "#/$defs/metadataEntry"}},
    "records": {"type": "array", "items": {"$ref": "#/$defs/recentMessageRecord"}},
    "keys": {"type": "array", "items": {"type": "string"}},
}


def camel(name: str) -> str:
    """``get_history`` -> ``getHistory``: the protocol and TypeScript spelling of a name."""
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


@attrs.frozen
class Param:
    """One parameter of a protocol call: its wire name, and whether the kit may leave it out (an
    omitted limit: the backend's own default applies)."""

    wire: str
    optional: bool = False


@attrs.frozen
class Method:
    """One method of the contract (see the module's docstring for each column)."""

    name: str
    required: bool
    #: The Python arguments after ``self``, in order (their defaults are in the signatures of
    #: :class:`aalis_memory.service.FullMemoryService` and in :mod:`aalis_memory.defaults`).
    arguments: tuple[str, ...]
    #: The protocol params after ``handle``, in the order the TypeScript bridge passes them on.
    params: tuple[Param, ...]
    scope: Scope
    returns: Returns
    #: The rule a step calling the method stands on: the rule whose behaviour failed when the
    #: step fails (the harness refines the reads by their limit).
    stands_on: str
    #: The ID prefix of the method's own rules, when they have a group of their own (the rule
    #: map heads it with the method's name).
    group: str | None = None

    @property
    def protocol(self) -> str:
        """The protocol (and TypeScript) name of the method."""
        return camel(self.name)

    @property
    def hands_out_messages(self) -> bool:
        """Whether it returns stored messages (alone or in records): the reads whose results the
        isolation probe changes in place (ISO-02) and whose absent fields the stdio client
        reads back (MSG-07)."""
        return self.returns in ("messages", "records")


def _p(*wire: str, optional: tuple[str, ...] = ()) -> tuple[Param, ...]:
    return tuple(Param(name, name in optional) for name in wire)


#: Every method of the contract, required ones first, in the order the documents list them.
METHODS: Final[tuple[Method, ...]] = (
    Method(
        "save_message",
        True,
        ("session_id", "message"),
        _p("sessionId", "message"),
        "session",
        "null",
        "MSG-01",
    ),
    Method(
        "get_history",
        True,
        ("session_id", "limit"),
        _p("sessionId", "limit", optional=("limit",)),
        "session",
        "messages",
        "HIST-05",
        group="HIST",
    ),
    Method(
        "clear_session",
        True,
        ("session_id",),
        _p("sessionId"),
        "session",
        "null",
        "CLEAR-01",
    ),
    Method(
        "archive_span",
        True,
        ("session_id", "count", "keep"),
        _p("sessionId", "span"),  # count and keep travel as one object: {count, keep}
        "session",
        "count",
        "ARCH-01",
        group="ARCH",
    ),
    Method(
        "save_metadata",
        True,
        ("namespace", "key", "data"),
        _p("namespace", "key", "data"),
        "namespace",
        "null",
        "META-01",
    ),
    Method(
        "get_metadata",
        True,
        ("namespace", "key"),
        _p("namespace", "key"),
        "namespace",
        "object-or-null",
        "META-01",
    ),
    Method(
        "list_metadata",
        True,
        ("namespace",),
        _p("namespace"),
        "namespace",
        "entries",
        "META-02",
    ),
    Method(
        "delete_metadata",
        True,
        ("namespace", "key"),
        _p("namespace", "key"),
        "namespace",
        "null",
        "META-03",
    ),
    Method(
        "commit_metadata",
        True,
        ("ops",),
        _p("ops"),
        "ops",
        "null",
        "COMMIT-01",
        group="COMMIT",
    ),
    Method("clear_all", False, (), (), "none", "null", "CLEAR-03"),
    Method(
        "get_full_history",
        False,
        ("session_id", "limit"),
        _p("sessionId", "limit", optional=("limit",)),
        "session",
        "messages",
        "FULL-02",
        group="FULL",
    ),
    Method(
        "count_history",
        False,
        ("session_id",),
        _p("sessionId"),
        "session",
        "count",
        "COUNT-01",
        group="COUNT",
    ),
    Method(
        "get_messages_by_session_range",
        False,
        ("session_id", "from_ts", "to_ts", "roles", "exclude_kinds"),
        _p("sessionId", "fromTs", "toTs", "roles", "excludeKinds", optional=("roles", "excludeKinds")),
        "session",
        "messages",
        "RANGE-02",
    ),
    Method(
        "get_recent_messages_across_sessions",
        False,
        ("query",),
        _p("query"),
        "none",
        "records",
        "CROSS-02",
    ),
    Method(
        "list_metadata_keys",
        False,
        ("namespace",),
        _p("namespace"),
        "namespace",
        "keys",
        "META-10",
    ),
    Method(
        "update_message_content",
        False,
        ("session_id", "old_text", "new_text", "recent_limit"),
        _p("sessionId", "oldText", "newText", "recentLimit", optional=("recentLimit",)),
        "session",
        "count",
        "UPD-02",
        group="UPD",
    ),
    Method(
        "delete_messages_by_timestamps",
        False,
        ("session_id", "timestamps"),
        _p("sessionId", "timestamps"),
        "session",
        "count",
        "DEL-01",
        group="DEL",
    ),
)

#: Each method's row by its Python name.
BY_NAME: Final[dict[str, Method]] = {m.name: m for m in METHODS}
#: The required methods and the optional ones (detected by presence, never by a flag).
REQUIRED_METHODS: Final[tuple[str, ...]] = tuple(m.name for m in METHODS if m.required)
OPTIONAL_METHODS: Final[tuple[str, ...]] = tuple(m.name for m in METHODS if not m.required)
#: Python method name -> protocol method name.
PROTOCOL_NAMES: Final[dict[str, str]] = {m.name: m.protocol for m in METHODS}
