"""The MongoDB reference driver, on pymongo's native async client.

Tiers: history and archive positions ordered by ``timestamp, writeSeq, _id``; ``commit_metadata``
is one ordered bulk write (it stops at the first error, earlier writes stay); ``archive_span`` is
one ``update_many`` (a failure can leave part of the span archived). Every argument is checked
(``semantics``) before anything reaches the server, so an identifier is always a plain string
compared for equality, never a query operator, and oversized or too deeply nested documents are
refused before anything is written.

Write order across clients: ``writeSeq`` is a BSON timestamp the *server* assigns when the message
is inserted (``$currentDate`` with ``$type: "timestamp"``, unique and increasing on one server), so
same-millisecond messages written by different processes come back in the order the server
received them. Client-made ObjectIds would not do: they order by a per-process random value
within a second. Documents written before this field existed sort before those that have it.

Concurrency: writes that read before they write (``archive_span``, ``update_message_content``,
``commit_metadata``) run one at a time per store (an ``asyncio.Lock``), so tasks sharing a store
never lose each other's work and every returned count is what happened. Across stores (other
processes) rewrites are compare-and-set on the content and retried, archives only flag messages
still active and count what the server changed; duplicate-key races of an upsert are retried.
(FerretDB 1.x does not make a filtered single-document update atomic, so across processes only
MongoDB gives those guarantees.)
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable, Sequence
from typing import Any, Final, Self

import bson
from bson.codec_options import CodecOptions, DatetimeConversion
from bson.datetime_ms import DatetimeMS
from bson.objectid import ObjectId
from pymongo import ASCENDING, DESCENDING, AsyncMongoClient, DeleteOne, ReplaceOne
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.asynchronous.cursor import AsyncCursor
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import BulkWriteError, ConfigurationError, DuplicateKeyError, PyMongoError
from pymongo.monitoring import (
    CommandListener,
    ConnectionPoolListener,
    ServerHeartbeatListener,
    ServerListener,
    TopologyListener,
)

from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.mongodb import holders as mongodb_holders
from aalis_memory.drivers.mongodb.codec import (
    ARCHIVED_FIELD,
    SESSION_FIELD,
    date_ms,
    document_message,
    from_bson,
    message_document,
    payload_document,
)
from aalis_memory.drivers.mongodb.config import (
    METADATA_COLLECTION,
    ConfigError,
    HostPaths,
    MongoConfig,
    Redactor,
    instance_label,
    resolve_database_name,
)
from aalis_memory.drivers.mongodb.ownership import check_owner
from aalis_memory.service import Limit
from aalis_memory.types import (
    CONTROL_KINDS,
    JsonObject,
    Message,
    MetadataEntry,
    MetadataOp,
    MetadataPut,
    RecentMessageRecord,
    RecentMessagesAcrossSessionsQuery,
)

__all__ = ["ConfigError", "HostPaths", "MongoConfig", "MongoConnectionError", "MongoMemory"]

Doc = dict[str, Any]
Listener = (
    CommandListener | ConnectionPoolListener | ServerHeartbeatListener | ServerListener | TopologyListener
)

CONNECT_FAILED: Final = "MongoDB 连接失败(确认 MongoDB 在运行、配置项 uri 写对):"
MESSAGE_INDEXES: Final = (
    [(SESSION_FIELD, ASCENDING), ("timestamp", ASCENDING)],
    [(ARCHIVED_FIELD, ASCENDING), ("timestamp", DESCENDING)],
    [("metadata.platform", ASCENDING), ("timestamp", DESCENDING)],
)
METADATA_INDEX: Final = [("namespace", ASCENDING), ("key", ASCENDING)]
#: The server-assigned write order of a message (a BSON timestamp), the same-millisecond tie-break.
WRITE_SEQ_FIELD: Final = "writeSeq"
OLDEST_FIRST: Final = [("timestamp", ASCENDING), (WRITE_SEQ_FIELD, ASCENDING), ("_id", ASCENDING)]
NEWEST_FIRST: Final = [("timestamp", DESCENDING), (WRITE_SEQ_FIELD, DESCENDING), ("_id", DESCENDING)]
ACTIVE: Final[Doc] = {ARCHIVED_FIELD: {"$ne": True}}
CONVERSATION: Final[Doc] = {"kind": {"$nin": sorted(CONTROL_KINDS)}}
#: Limits above this are "everything" (the server wants 64-bit skip/limit values).
_HUGE: Final = 2**62
#: MongoDB's largest document (the driver checks before sending, so nothing is half written).
MAX_BSON_BYTES: Final = 16 * 1024 * 1024
#: Attempts at a write that lost a race (duplicate key of an upsert, changed content).
_RETRIES: Final = 8
_CODEC: Final[CodecOptions[Doc]] = CodecOptions(
    tz_aware=True, datetime_conversion=DatetimeConversion.DATETIME_AUTO
)

_log = logging.getLogger(__name__)


class MongoConnectionError(RuntimeError):
    """Connecting or building the indexes failed; the client is closed already."""


class MongoWriteConflict(RuntimeError):
    """A write kept losing races with other clients; nothing of this call was left half done
    (an upsert batch is retried whole, and re-applying it gives the same result)."""


def _check_size(document: Doc, what: str) -> None:
    """Refuse a document MongoDB would refuse, before anything of the call is sent."""
    size = len(bson.encode(document))
    if size > MAX_BSON_BYTES:
        raise ValueError(f"{what}: {size} bytes as a MongoDB document, over the {MAX_BSON_BYTES}-byte limit")


def _is_duplicate_key(exc: Exception) -> bool:
    """A lost upsert race: the server's duplicate-key error (MongoDB), or the reply FerretDB
    sends for it, which pymongo's bulk writer cannot read (``KeyError('nModified')``)."""
    if isinstance(exc, DuplicateKeyError):
        return True
    if isinstance(exc, BulkWriteError):
        errors = exc.details.get("writeErrors", [])
        return bool(errors) and all(error.get("code") == 11000 for error in errors)
    return isinstance(exc, KeyError) and exc.args == ("nModified",)


def _finite(limit: int | float) -> int | None:
    """A server-side limit, ``None`` for everything."""
    return None if limit == math.inf or limit >= _HUGE else int(limit)


async def _take(
    cursor: AsyncCursor[Doc], wanted: int | float, keep: Callable[[Doc, Message], bool]
) -> list[tuple[Doc, Message]]:
    """The first ``wanted`` documents the shared predicate accepts (server filters are a
    pre-selection; ``semantics`` has the last word)."""
    out: list[tuple[Doc, Message]] = []
    try:
        async for doc in cursor:
            message = document_message(doc)
            if keep(doc, message):
                out.append((doc, message))
                if len(out) >= wanted:
                    break
    finally:
        await cursor.close()
    return out


class MongoMemory:
    """A complete MemoryService in one MongoDB database. Open with :meth:`open`."""

    def __init__(
        self,
        *,
        client: AsyncMongoClient[Doc],
        database: AsyncDatabase[Doc],
        config: MongoConfig,
        claim: mongodb_holders.DatabaseClaim,
        log: logging.Logger,
    ) -> None:
        self.client = client
        self.database = database
        self.config = config
        self.messages_collection: AsyncCollection[Doc] = database[config.collection]
        self.metadata_collection: AsyncCollection[Doc] = database[METADATA_COLLECTION]
        self.range_query_limit = config.range_query_limit
        self.cross_session_max_limit = config.cross_session_max_limit
        self._claim = claim
        self._log = log
        self._closed = False
        #: Serializes this store's read-then-write calls (see the module docstring).
        self._writes = asyncio.Lock()

    @classmethod
    async def open(
        cls,
        config: MongoConfig | None = None,
        *,
        instance: str = "",
        host_paths: HostPaths | None = None,
        logger: logging.Logger | None = None,
        event_listeners: Sequence[Listener] = (),
    ) -> MongoMemory:
        """Connect, build the indexes and check ownership (only when ``host_paths`` is given).

        ``instance`` is the suffix of a plugin instance (``b`` for ``...mongodb:b``). Any failure
        closes the client and releases the database before the error propagates.
        """
        config = MongoConfig() if config is None else config
        if not isinstance(config, MongoConfig):
            raise TypeError(f"config must be a MongoConfig, got {type(config).__name__}")
        if not isinstance(instance, str):
            raise TypeError(f"instance must be str, got {type(instance).__name__}")
        log = logger or _log
        label = instance_label(instance)
        name = resolve_database_name(config, host_paths, instance)
        redact = Redactor(config.uri)
        claim = mongodb_holders.claim(config, name, label)
        client: AsyncMongoClient[Doc] | None = None
        try:
            log.info("%s: connecting to MongoDB %s, database %r", label, redact(config.uri), name)
            try:
                client = _client(config, event_listeners)
            except (ConfigurationError, ValueError, OSError) as exc:
                # pymongo's text can quote parts of the uri; no traceback of it is kept either,
                # since its frames hold the uri and the credentials as arguments.
                cause = f"{type(exc).__name__}: {redact(str(exc))}"
                raise ConfigError(f"uri is not usable: {cause}") from None
            database = client.get_database(name, codec_options=_CODEC)
            store = cls(client=client, database=database, config=config, claim=claim, log=log)
            failure: str | None = None
            try:
                await database.command("ping")
                await store._create_indexes()
                if host_paths is not None:
                    await check_owner(
                        database, store.metadata_collection, host_paths, label, config.claim_from, log
                    )
            except PyMongoError as exc:
                failure = redact(f"{type(exc).__name__}: {exc}")
            if failure is not None:
                log.error("%s: %s%s", label, CONNECT_FAILED, failure)
                raise MongoConnectionError(CONNECT_FAILED + failure)
            return store
        except BaseException:
            if client is not None:
                await client.close()
            claim.release()
            raise

    async def _create_indexes(self) -> None:
        for keys in MESSAGE_INDEXES:
            await self.messages_collection.create_index(keys)
        await self.metadata_collection.create_index(METADATA_INDEX, unique=True)

    async def close(self) -> None:
        """Close the client and free the database for another instance; idempotent.

        Index builds: ``open`` awaits ``createIndexes``; cancelling it (deactivation) closes the
        client at once and frees the database, without waiting for the server. A build the
        server already started goes on there (MongoDB does not stop one when its client goes
        away); the driver does not kill it, since the same index is what the next activation
        needs and another instance may be waiting on the same build.
        """
        if self._closed:
            return
        self._closed = True
        try:
            await self.client.close()
        finally:
            self._claim.release()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- messages -------------------------------------------------------------------------

    async def save_message(self, session_id: str, message: Message) -> None:
        session_id, message, text = sem.prepare_message(session_id, message)
        document = message_document(session_id, text, sem.now_ms())
        _check_size(document, f"message for session {session_id!r}")
        # An upsert of a fresh _id (never a match) so that the server stamps the write order.
        # ``$set``, not ``$setOnInsert``: FerretDB 1.24 drops null fields from the latter.
        await self.messages_collection.update_one(
            {"_id": ObjectId()},
            {"$set": document, "$currentDate": {WRITE_SEQ_FIELD: {"$type": "timestamp"}}},
            upsert=True,
        )

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        """Newest first until the (limit+1)-th newest conversation message: everything read
        before it, markers included, is the window (one ordered scan, no second query)."""
        session_id = sem.check_session_id(session_id)
        effective = sem.check_limit(limit, sem.DEFAULT_HISTORY_LIMIT, "limit")
        if effective == 0:
            return []
        cursor = self.messages_collection.find({SESSION_FIELD: session_id, **ACTIVE})
        window: list[Message] = []
        seen = 0
        try:
            async for doc in cursor.sort(NEWEST_FIRST):
                message = document_message(doc)
                if not message.is_control:
                    seen += 1
                    if seen > effective:
                        break
                window.append(message)
        finally:
            await cursor.close()
        window.reverse()
        return window

    async def count_history(self, session_id: str) -> int:
        session_id = sem.check_session_id(session_id)
        query = {SESSION_FIELD: session_id, **ACTIVE, **CONVERSATION}
        return await self.messages_collection.count_documents(query)

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        session_id = sem.check_session_id(session_id)
        effective = sem.check_limit(limit, sem.DEFAULT_FULL_HISTORY_LIMIT, "limit")
        if effective == 0:
            return []
        cursor = self.messages_collection.find({SESSION_FIELD: session_id}).sort(NEWEST_FIRST)
        bound = _finite(effective)
        docs = await (cursor if bound is None else cursor.limit(bound)).to_list()
        return [document_message(doc) for doc in reversed(docs)]

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        session_id = sem.check_session_id(session_id)
        span = sem.check_count(count)
        kept = sem.check_keep(keep)
        if span == 0:
            return 0
        async with self._writes:
            return await self._archive(session_id, span, kept)

    async def _archive(self, session_id: str, span: int, kept: tuple[int, ...]) -> int:
        """Only messages still active are flagged and the server's count is returned, so a
        concurrent archiver elsewhere can make this call archive fewer, never report more."""
        cursor = self.messages_collection.find(
            {SESSION_FIELD: session_id, **ACTIVE}, projection={"_id": 1}
        ).sort(OLDEST_FIRST)
        bound = _finite(span)
        docs = await (cursor if bound is None else cursor.limit(bound)).to_list()
        positions = sem.archive_positions(len(docs), span, kept)
        if not positions:
            return 0
        ids = [docs[position]["_id"] for position in positions]
        result = await self.messages_collection.update_many(
            {"_id": {"$in": ids}, **ACTIVE}, {"$set": {ARCHIVED_FIELD: True}}
        )
        return result.modified_count

    async def clear_session(self, session_id: str) -> None:
        session_id = sem.check_session_id(session_id)
        await self.messages_collection.delete_many({SESSION_FIELD: session_id})

    async def clear_all(self) -> None:
        """Empties the message collection only; metadata belongs to its namespaces' owners."""
        await self.messages_collection.delete_many({})

    async def get_messages_by_session_range(
        self,
        session_id: str,
        from_ts: int | float,
        to_ts: int | float,
        roles: Sequence[str] | None = None,
        exclude_kinds: Sequence[str] | None = None,
    ) -> list[Message]:
        session_id = sem.check_session_id(session_id)
        from_ts, to_ts, roles, exclude_kinds = sem.check_range(from_ts, to_ts, roles, exclude_kinds)
        keep = sem.range_filter(from_ts, to_ts, roles, exclude_kinds)
        query: Doc = {SESSION_FIELD: session_id, "timestamp": {"$gte": from_ts, "$lte": to_ts}}
        if roles is not None:
            query["role"] = {"$in": list(roles)}
        if exclude_kinds:
            query["kind"] = {"$nin": list(exclude_kinds)}
        cap = self.range_query_limit
        cursor = self.messages_collection.find(query).sort(OLDEST_FIRST).batch_size(cap)
        return [m for _doc, m in await _take(cursor, cap, lambda _d, m: keep(m))]

    async def get_recent_messages_across_sessions(
        self, query: RecentMessagesAcrossSessionsQuery
    ) -> list[RecentMessageRecord]:
        query = sem.check_query(query)
        limit = sem.check_limit(query.limit, sem.DEFAULT_CROSS_SESSION_MAX_LIMIT, "query.limit")
        wanted = int(min(limit, self.cross_session_max_limit))
        if wanted == 0:
            return []
        keep = sem.cross_session_filter(query)
        cursor = self.messages_collection.find(_cross_session_query(query)).sort(NEWEST_FIRST)
        hits = await _take(cursor.batch_size(wanted), wanted, lambda d, m: keep(d[SESSION_FIELD], m))
        return [RecentMessageRecord(d[SESSION_FIELD], m) for d, m in reversed(hits)]

    async def update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int:
        session_id = sem.check_session_id(session_id)
        old_text, new_text = sem.check_rewrite(old_text, new_text)
        effective = sem.check_limit(recent_limit, sem.DEFAULT_UPDATE_RECENT_LIMIT, "recent_limit")
        if effective == 0:
            return 0
        async with self._writes:
            cursor = self.messages_collection.find({SESSION_FIELD: session_id, **ACTIVE})
            bound = _finite(effective)
            cursor = cursor.sort(NEWEST_FIRST)
            docs = await (cursor if bound is None else cursor.limit(bound)).to_list()
            changed = 0
            for doc in docs:
                changed += await self._rewrite_one(doc, old_text, new_text)
            return changed

    async def _rewrite_one(self, doc: Doc, old_text: str, new_text: str) -> int:
        """Compare-and-set on the content, re-reading after a lost race: a rewrite another
        client made meanwhile is kept and rewritten too, never overwritten (1 when changed)."""
        for _attempt in range(_RETRIES):
            rewritten = sem.rewrite_content(document_message(doc), old_text, new_text)
            if rewritten is None:
                return 0
            result = await self.messages_collection.update_one(
                {"_id": doc["_id"], "content": doc.get("content"), **ACTIVE},
                {"$set": {"content": rewritten.content}},
            )
            if result.matched_count:
                return 1
            fresh = await self.messages_collection.find_one({"_id": doc["_id"], **ACTIVE})
            if fresh is None:
                return 0  # deleted or archived meanwhile: no longer in the window
            doc = fresh
        raise MongoWriteConflict(
            f"update_message_content: message {doc['_id']} kept changing under {_RETRIES} attempts"
        )

    async def delete_messages_by_timestamps(self, session_id: str, timestamps: Sequence[int | float]) -> int:
        session_id = sem.check_session_id(session_id)
        doomed = sem.check_timestamps(timestamps)
        if not doomed:
            return 0
        result = await self.messages_collection.delete_many(
            {SESSION_FIELD: session_id, "timestamp": {"$in": doomed}}
        )
        return result.deleted_count

    # -- metadata -------------------------------------------------------------------------

    async def save_metadata(self, namespace: str, key: str, data: JsonObject) -> None:
        await self.commit_metadata([MetadataPut(namespace, key, data)])

    async def get_metadata(self, namespace: str, key: str) -> JsonObject | None:
        namespace, key = sem.check_key(namespace, key)
        doc = await self.metadata_collection.find_one({"namespace": namespace, "key": key})
        data = None if doc is None else doc.get("data")
        return from_bson(data) if isinstance(data, dict) else None

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        """Readable entries sorted by key; others are skipped with one warning each."""
        namespace = sem.check_namespace(namespace)
        entries: list[MetadataEntry] = []
        async for doc in self.metadata_collection.find({"namespace": namespace}):
            key, data = doc.get("key"), doc.get("data")
            if not isinstance(key, str) or not isinstance(data, dict):
                self._log.warning(
                    "metadata entry %s/%s skipped: its data is not an object (written outside this driver?)",
                    namespace,
                    key,
                )
                continue
            stamp = date_ms(doc.get("updatedAt"))
            entries.append(MetadataEntry(key=key, data=from_bson(data), updated_at=stamp or 0))
        return sorted(entries, key=lambda entry: entry.key)

    async def list_metadata_keys(self, namespace: str) -> list[str]:
        namespace = sem.check_namespace(namespace)
        cursor = self.metadata_collection.find({"namespace": namespace}, projection={"key": 1, "_id": 0})
        return sorted([doc["key"] async for doc in cursor if isinstance(doc.get("key"), str)])

    async def delete_metadata(self, namespace: str, key: str) -> None:
        namespace, key = sem.check_key(namespace, key)
        await self.metadata_collection.delete_one({"namespace": namespace, "key": key})

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        """One ordered bulk write; every payload is validated, converted and size-checked first.

        A batch that lost an upsert race (another client inserted one of its keys first) is
        sent again whole: puts and deletes re-applied in order give the same final state, and
        the stamps are read again so ``updated_at`` still moves forward.
        """
        encoded = sem.encode_batch(ops)
        if not encoded:
            return
        payloads = [
            (op, None if text is None else payload_document(text, f"op {i} ({op.key})"))
            for i, (op, text) in enumerate(encoded)
        ]
        for op, data in payloads:
            if data is not None:
                _check_size(
                    {"namespace": op.namespace, "key": op.key, "data": data},
                    f"metadata {op.namespace}/{op.key}",
                )
        async with self._writes:
            for attempt in range(_RETRIES):
                try:
                    await self._bulk(payloads)
                    return
                except (PyMongoError, KeyError) as exc:
                    if not _is_duplicate_key(exc):
                        raise
                    if attempt == _RETRIES - 1:
                        raise MongoWriteConflict(
                            f"commit_metadata: lost {_RETRIES} upsert races in a row"
                        ) from None

    async def _bulk(self, payloads: list[tuple[MetadataOp, Doc | None]]) -> None:
        previous = await self._stamps({(op.namespace, op.key) for op, _data in payloads})
        requests: list[ReplaceOne[Doc] | DeleteOne] = []
        for op, data in payloads:
            selector = {"namespace": op.namespace, "key": op.key}
            if data is None:
                previous[(op.namespace, op.key)] = None
                requests.append(DeleteOne(selector))
                continue
            stamp = sem.next_updated_at(previous.get((op.namespace, op.key)))
            previous[(op.namespace, op.key)] = stamp
            # A whole-document replacement, not ``$set`` of ``data``: FerretDB 1.24 skips a
            # ``$set`` whose new subdocument has the old one's values under other keys.
            document = {**selector, "data": data, "updatedAt": DatetimeMS(stamp)}
            requests.append(ReplaceOne(selector, document, upsert=True))
        await self.metadata_collection.bulk_write(requests, ordered=True)

    async def _stamps(self, keys: set[tuple[str, str]]) -> dict[tuple[str, str], int | None]:
        """Current ``updated_at`` of the keys (so an overwrite always moves it forward)."""
        if not keys:
            return {}
        query = {"$or": [{"namespace": ns, "key": key} for ns, key in sorted(keys)]}
        cursor = self.metadata_collection.find(query, projection={"namespace": 1, "key": 1, "updatedAt": 1})
        return {(d["namespace"], d["key"]): date_ms(d.get("updatedAt")) async for d in cursor}


def _client(config: MongoConfig, listeners: Sequence[Listener]) -> AsyncMongoClient[Doc]:
    """The driver's client (a function of its own: the uri never is an argument shown in a
    traceback of ``open``)."""
    return AsyncMongoClient(
        config.uri,
        serverSelectionTimeoutMS=config.connect_timeout_ms,
        connectTimeoutMS=config.connect_timeout_ms,
        event_listeners=list(listeners),
        appname="aalis-memory",
    )


def _cross_session_query(query: RecentMessagesAcrossSessionsQuery) -> Doc:
    """The server-side pre-selection of a cross-session read (same meaning as the predicate)."""
    roles = sem.DEFAULT_CROSS_SESSION_ROLES if query.roles is None else query.roles
    out: Doc = {**ACTIVE, "role": {"$in": list(roles)}}
    kind: Doc = {}
    if query.kinds is not None:
        kind["$in"] = list(query.kinds)
    if query.exclude_kinds:
        kind["$nin"] = list(query.exclude_kinds)
    if kind:
        out["kind"] = kind
    if query.exclude_session_ids:
        out[SESSION_FIELD] = {"$nin": list(query.exclude_session_ids)}
    if query.since_ts is not None:
        out["timestamp"] = {"$gte": query.since_ts}
    if query.platform is not None:
        out["metadata.platform"] = query.platform
    return out
