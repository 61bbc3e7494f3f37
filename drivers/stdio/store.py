"""The adapter's store as an ordinary async MemoryService: each contract method is one call.

Only the methods the handshake listed exist on the object (a required one missing fails
REQ-01, and the tests that need it are blocked by it), so the kit's detection by presence works
through the bridge. Values go through the codec of the adapter's declared transport; what it
cannot carry makes the test ``unverified`` (:mod:`aalis_memory.conformance.registration.transport`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

from aalis_memory.conformance.registration.transport import Transport
from aalis_memory.drivers.stdio import codec
from aalis_memory.drivers.stdio.client import Connection
from aalis_memory.methods import METHODS, OPTIONAL_METHODS, PROTOCOL_NAMES, REQUIRED_METHODS
from aalis_memory.service import Limit
from aalis_memory.types import (
    ABSENT,
    JsonObject,
    Message,
    MetadataEntry,
    MetadataOp,
    RecentMessageRecord,
    RecentMessagesAcrossSessionsQuery,
)

#: The reads the isolation probe can make (ISO-02), by the Python method name.
ISOLATION_READS: Final = tuple(m.name for m in METHODS if m.hands_out_messages)

#: What a message was saved with in ``reasoningContent``, by (session, timestamp) and by
#: (session, role, content).
_Reasoning = Literal["null", "absent", "value", "ambiguous"]


class _Absent:
    """A required method the adapter did not list: reading it raises ``AttributeError``, so the
    kit's detection by presence finds it missing (a descriptor of a subclass: an override of
    ``__getattribute__`` cost every attribute read of every call)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, store: object, owner: type | None = None) -> Any:
        if store is None:
            return self
        raise AttributeError(self.name)


#: The subclasses :func:`_lacking` made, by their base and the methods they lack.
_LACKING: Final[dict[tuple[type[StdioStore], frozenset[str]], type[StdioStore]]] = {}


def _lacking(base: type[StdioStore], absent: frozenset[str]) -> type[StdioStore]:
    """``base`` without the required methods ``absent`` (one class for each set)."""
    key = (base, absent)
    if key not in _LACKING:
        _LACKING[key] = type(base.__name__, (base,), {name: _Absent(name) for name in sorted(absent)})
    return _LACKING[key]


class StdioStore:
    """One open store of the adapter, by its handle.

    ``methods`` are the contract methods the handshake listed (protocol names). A list naming no
    required method is an adapter of the first form of the handshake, which listed the optional
    ones only: its required methods are all taken to be there.
    """

    def __init__(
        self,
        connection: Connection,
        handle: str,
        methods: Sequence[str],
        timeout: float | None,
        *,
        transport: Transport | None = None,
        isolation: bool = False,
    ) -> None:
        self._connection = connection
        self.handle = handle
        self._timeout = timeout
        #: What the adapter's transport carries (the suite asks it; see ``transport_of``).
        self.transport = transport or Transport.from_hello({})
        self._codec = codec.Codec(self.transport)
        #: Whether the adapter runs the isolation checks in its own process (isolation_probe).
        self.isolation = isolation
        self._reasoning: dict[tuple[Any, ...], _Reasoning] = {}
        lists_required = any(PROTOCOL_NAMES[name] in methods for name in REQUIRED_METHODS)
        absent = frozenset(
            name for name in REQUIRED_METHODS if lists_required and PROTOCOL_NAMES[name] not in methods
        )
        if absent:
            self.__class__ = _lacking(type(self), absent)
        for name in OPTIONAL_METHODS:
            if PROTOCOL_NAMES[name] in methods:
                setattr(self, name, getattr(self, f"_{name}"))

    async def _call(self, method: str, params: dict[str, Any]) -> Any:
        return await self._connection.call(method, {"handle": self.handle, **params}, self._timeout)

    if TYPE_CHECKING:  # the optional methods, set on each store by the adapter's handshake

        def __getattr__(self, name: str) -> Any: ...

    def _limit(self, params: dict[str, Any], name: str, limit: Any) -> dict[str, Any]:
        """An omitted limit (``None``) is left out of the params: the adapter's default applies."""
        if limit is not None:
            params[name] = self._codec.encode(limit)
        return params

    # -- absent fields returned as null ---------------------------------------------------------

    @property
    def absent_fields_returned_as_null(self) -> list[str]:
        """The optional Message fields this store returned as ``null`` where none was saved
        (the transport took them for absent; MSG-07 judges it)."""
        return sorted(self._connection.absent_nulls.get(self.handle, set()))

    def _saved(self, session_id: Any, message: Any) -> None:
        """Note how ``message`` carries ``reasoningContent`` (null, absent or a value), by its
        session and timestamp, and by its session, role and content (a message saved without
        a timestamp is stamped by the store)."""
        if not (isinstance(session_id, str) and isinstance(message, Message)):
            return
        state: _Reasoning = (
            "absent"
            if message.reasoning_content is ABSENT
            else "null"
            if message.reasoning_content is None
            else "value"
        )
        keys: list[tuple[Any, ...]] = [(session_id, message.role, message.content)]
        if isinstance(message.timestamp, int | float):
            keys.append((session_id, message.timestamp))
        for key in keys:
            self._note(key, state)

    def _note(self, key: tuple[Any, ...], state: _Reasoning) -> None:
        if self._reasoning.get(key, state) != state:
            state = "ambiguous"
        self._reasoning[key] = state

    def _message(self, session_id: Any, data: Any) -> Message:
        """A returned message. Its ``reasoningContent``, whose null is a value of the contract,
        is compared as it was saved: null where it was saved null, absent where it was saved
        absent (a null there is an absent field returned as null), as returned when the kit
        cannot tell which message it is. A tagged timestamp (``$int``, ``$num``) is decoded
        first, so the message is found by its timestamp as any other."""
        if isinstance(data, dict) and isinstance(data.get("timestamp"), dict):
            data["timestamp"] = codec.decode(data["timestamp"])
        if isinstance(data, dict) and data.get("reasoningContent", None) is None:
            stamp = data.get("timestamp")
            by_stamp = self._reasoning.get((session_id, stamp)) if isinstance(stamp, int | float) else None
            # Two messages of one timestamp saved differently: told apart by their content.
            saved = (
                by_stamp
                if by_stamp not in (None, "ambiguous")
                else self._reasoning.get((session_id, data.get("role"), data.get("content")), by_stamp)
            )
            if by_stamp is None and saved is not None and isinstance(stamp, int | float):
                self._note((session_id, stamp), saved)  # found by content: by stamp from now on
            if saved == "absent" and "reasoningContent" in data:
                del data["reasoningContent"]
                self._connection.absent_nulls.setdefault(self.handle, set()).add("reasoningContent")
            elif saved == "null" and "reasoningContent" not in data:
                data["reasoningContent"] = None
        return codec.decode_message(data)

    def _messages(self, session_id: Any, data: Any) -> list[Message]:
        return [self._message(session_id, item) for item in data]

    # -- required ---------------------------------------------------------------------------

    async def save_message(self, session_id: str, message: Message) -> None:
        params = {"sessionId": self._codec.encode(session_id), "message": self._codec.encode_message(message)}
        self._saved(session_id, message)
        await self._call("saveMessage", params)

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        params = self._limit({"sessionId": self._codec.encode(session_id)}, "limit", limit)
        return self._messages(session_id, await self._call("getHistory", params))

    async def clear_session(self, session_id: str) -> None:
        await self._call("clearSession", {"sessionId": self._codec.encode(session_id)})

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        span = {"count": self._codec.encode(count), "keep": self._codec.encode_sequence(keep)}
        found: int = codec.decode(
            await self._call("archiveSpan", {"sessionId": self._codec.encode(session_id), "span": span})
        )
        return found

    async def save_metadata(self, namespace: str, key: str, data: JsonObject) -> None:
        await self._call(
            "saveMetadata",
            {
                "namespace": self._codec.encode(namespace),
                "key": self._codec.encode(key),
                "data": self._codec.encode(data),
            },
        )

    async def get_metadata(self, namespace: str, key: str) -> JsonObject | None:
        found = await self._call(
            "getMetadata", {"namespace": self._codec.encode(namespace), "key": self._codec.encode(key)}
        )
        return None if found is None else dict(codec.decode(found))

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        found = await self._call("listMetadata", {"namespace": self._codec.encode(namespace)})
        return codec.decode_entries(found)

    async def delete_metadata(self, namespace: str, key: str) -> None:
        await self._call(
            "deleteMetadata", {"namespace": self._codec.encode(namespace), "key": self._codec.encode(key)}
        )

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        await self._call("commitMetadata", {"ops": self._codec.encode_ops(ops)})

    # -- optional (bound in __init__ when the adapter has them) -----------------------------

    async def _clear_all(self) -> None:
        await self._call("clearAll", {})

    async def _get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        params = self._limit({"sessionId": self._codec.encode(session_id)}, "limit", limit)
        return self._messages(session_id, await self._call("getFullHistory", params))

    async def _count_history(self, session_id: str) -> int:
        found: int = codec.decode(
            await self._call("countHistory", {"sessionId": self._codec.encode(session_id)})
        )
        return found

    async def _get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        params: dict[str, Any] = {
            "sessionId": self._codec.encode(session_id),
            "fromTs": self._codec.encode(from_ts),
            "toTs": self._codec.encode(to_ts),
        }
        if roles is not None:
            params["roles"] = self._codec.encode_sequence(roles)
        if exclude_kinds is not None:
            params["excludeKinds"] = self._codec.encode_sequence(exclude_kinds)
        return self._messages(session_id, await self._call("getMessagesBySessionRange", params))

    async def _get_recent_messages_across_sessions(
        self, query: RecentMessagesAcrossSessionsQuery
    ) -> list[RecentMessageRecord]:
        found = await self._call(
            "getRecentMessagesAcrossSessions", {"query": self._codec.encode_query(query)}
        )
        return [
            RecentMessageRecord(item["sessionId"], self._message(item["sessionId"], item["message"]))
            for item in found
        ]

    async def _list_metadata_keys(self, namespace: str) -> list[str]:
        found: list[str] = await self._call("listMetadataKeys", {"namespace": self._codec.encode(namespace)})
        return found

    async def _update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int:
        encode = self._codec.encode
        params = self._limit(
            {"sessionId": encode(session_id), "oldText": encode(old_text), "newText": encode(new_text)},
            "recentLimit",
            recent_limit,
        )
        found: int = codec.decode(await self._call("updateMessageContent", params))
        return found

    async def _delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        found: int = codec.decode(
            await self._call(
                "deleteMessagesByTimestamps",
                {
                    "sessionId": self._codec.encode(session_id),
                    "timestamps": self._codec.encode_sequence(timestamps),
                },
            )
        )
        return found

    # -- raw access -----------------------------------------------------------------------------

    async def plant_raw_metadata(self, namespace: str, key: str, kind: str) -> bool:
        planted: bool = await self._call(
            "plantRawMetadata", {"namespace": namespace, "key": key, "kind": kind}
        )
        return planted

    # -- isolation, seen in the adapter's own process -----------------------------------------

    async def isolation_probe(
        self,
        mutate: Literal["saved", "returned"],
        session_id: str,
        messages: Sequence[Message],
        read: str,
        *args: Any,
    ) -> tuple[list[Any], list[Message]]:
        """ISO-01/02 where aliasing can be seen: the adapter saves ``messages``, changes the
        objects it passed to saveMessage (``saved``) or the ones ``read`` returned
        (``returned``) in place, and reads again. Returns that read and ``get_history(s, 10)``."""
        params = self._read_params(read, *args)
        for message in messages:
            self._saved(session_id, message)
        found = await self._call(
            "isolationProbe",
            {
                "sessionId": self._codec.encode(session_id),
                "mutate": mutate,
                "messages": [self._codec.encode_message(m) for m in messages],
                "read": PROTOCOL_NAMES[read],
                "readParams": params,
            },
        )
        history = self._messages(session_id, found["history"])
        if read == "get_recent_messages_across_sessions":
            again: list[Any] = [
                RecentMessageRecord(item["sessionId"], self._message(item["sessionId"], item["message"]))
                for item in found["again"]
            ]
        else:
            again = self._messages(session_id, found["again"])
        return again, history

    def _read_params(self, read: str, *args: Any) -> dict[str, Any]:
        if read in ("get_history", "get_full_history"):
            return self._limit(
                {"sessionId": self._codec.encode(args[0])}, "limit", args[1] if len(args) > 1 else None
            )
        if read == "get_messages_by_session_range":
            return {
                "sessionId": self._codec.encode(args[0]),
                "fromTs": self._codec.encode(args[1]),
                "toTs": self._codec.encode(args[2]),
            }
        if read == "get_recent_messages_across_sessions":
            return {"query": self._codec.encode_query(args[0])}
        raise ValueError(f"the isolation probe cannot read with {read}")
