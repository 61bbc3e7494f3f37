"""The MongoDB reference driver, on pymongo's native async client.

Tiers: history and archive positions ordered by ``timestamp, _id`` (the client-made ObjectId keeps
same-millisecond messages in write order); ``commit_metadata`` is one ordered bulk write (it stops
at the first error, earlier writes stay); ``archive_span`` is one ``update_many`` (a failure can
leave part of the span archived). Payloads are validated before anything is written.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from typing import Any, Final, Self

from bson.codec_options import CodecOptions, DatetimeConversion
from bson.datetime_ms import DatetimeMS
from pymongo import ASCENDING, DESCENDING, AsyncMongoClient, DeleteOne, ReplaceOne
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.asynchronous.cursor import AsyncCursor
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import ConfigurationError, PyMongoError
from pymongo.monitoring import (
    CommandListener,
    ConnectionPoolListener,
    ServerHeartbeatListener,
    ServerListener,
    TopologyListener,
)

from aalis_memory.drivers import mongodb_holders
from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.mongodb_codec import (
    ARCHIVED_FIELD,
    SESSION_FIELD,
    date_ms,
    document_message,
    from_bson,
    message_document,
    payload_document,
)
from aalis_memory.drivers.mongodb_config import (
    METADATA_COLLECTION,
    ConfigError,
    HostPaths,
    MongoConfig,
    instance_label,
    redact_uri,
    resolve_database_name,
)
from aalis_memory.drivers.mongodb_ownership import check_owner
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
    CommandListener | ConnectionPoolListener | ServerHeartbeatListener | ServerListener
    | TopologyListener
)

CONNECT_FAILED: Final = "MongoDB 连接失败(确认 MongoDB 在运行、配置项 uri 写对):"
MESSAGE_INDEXES: Final = (
    [(SESSION_FIELD, ASCENDING), ("timestamp", ASCENDING)],
    [(ARCHIVED_FIELD, ASCENDING), ("timestamp", DESCENDING)],
    [("metadata.platform", ASCENDING), ("timestamp", DESCENDING)],
)
METADATA_INDEX: Final = [("namespace", ASCENDING), ("key", ASCENDING)]
OLDEST_FIRST: Final = [("timestamp", ASCENDING), ("_id", ASCENDING)]
NEWEST_FIRST: Final = [("timestamp", DESCENDING), ("_id", DESCENDING)]
ACTIVE: Final[Doc] = {ARCHIVED_FIELD: {"$ne": True}}
CONVERSATION: Final[Doc] = {"kind": {"$nin": sorted(CONTROL_KINDS)}}
#: Limits above this are "everything" (the server wants 64-bit skip/limit values).
_HUGE: Final = 2**62
_CODEC: Final[CodecOptions[Doc]] = CodecOptions(
    tz_aware=True, datetime_conversion=DatetimeConversion.DATETIME_AUTO
)

_log = logging.getLogger(__name__)


class MongoConnectionError(RuntimeError):
    """Connecting or building the indexes failed; the client is closed already."""


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
        claim = mongodb_holders.claim(config.uri, name, label)
        client: AsyncMongoClient[Doc] | None = None
        try:
            log.info("%s: connecting to MongoDB %s, database %r", label,
                     redact_uri(config.uri), name)
            try:
                client = AsyncMongoClient(
                    config.uri,
                    serverSelectionTimeoutMS=config.connect_timeout_ms,
                    connectTimeoutMS=config.connect_timeout_ms,
                    event_listeners=list(event_listeners),
                    appname="aalis-memory",
                )
            except (ConfigurationError, ValueError) as exc:
                raise ConfigError(f"uri is not usable: {redact_uri(str(exc))}") from None
            database = client.get_database(name, codec_options=_CODEC)
            store = cls(client=client, database=database, config=config, claim=claim, log=log)
            try:
                await database.command("ping")
                await store._create_indexes()
                if host_paths is not None:
                    await check_owner(database, store.metadata_collection, host_paths, label,
                                      config.claim_from, log)
            except PyMongoError as exc:
                log.error("%s: %s%s", label, CONNECT_FAILED, redact_uri(str(exc)))
                raise MongoConnectionError(CONNECT_FAILED + redact_uri(str(exc))) from exc
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
        """Close the client and free the database for another instance; idempotent."""
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
        message, text = sem.prepare_message(session_id, message)
        document = message_document(session_id, text, sem.now_ms())
        await self.messages_collection.insert_one(document)

    async def _window_start(self, session_id: str, limit: int) -> Doc | None:
        """The (limit+1)-th newest active conversation message, if there is one."""
        query = {SESSION_FIELD: session_id, **ACTIVE, **CONVERSATION}
        cursor = self.messages_collection.find(query, projection={"timestamp": 1})
        found = await cursor.sort(NEWEST_FIRST).skip(limit).limit(1).to_list()
        return found[0] if found else None

    async def get_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        effective = sem.check_limit(limit, sem.DEFAULT_HISTORY_LIMIT, "limit")
        if effective == 0:
            return []
        query: Doc = {SESSION_FIELD: session_id, **ACTIVE}
        bound = _finite(effective)
        start = None if bound is None else await self._window_start(session_id, bound)
        if start is not None:
            ts, oid = start["timestamp"], start["_id"]
            query["$or"] = [{"timestamp": {"$gt": ts}}, {"timestamp": ts, "_id": {"$gt": oid}}]
        docs = await self.messages_collection.find(query).sort(OLDEST_FIRST).to_list()
        return [document_message(doc) for doc in docs]

    async def count_history(self, session_id: str) -> int:
        query = {SESSION_FIELD: session_id, **ACTIVE, **CONVERSATION}
        return await self.messages_collection.count_documents(query)

    async def get_full_history(self, session_id: str, limit: Limit = None) -> list[Message]:
        effective = sem.check_limit(limit, sem.DEFAULT_FULL_HISTORY_LIMIT, "limit")
        if effective == 0:
            return []
        cursor = self.messages_collection.find({SESSION_FIELD: session_id}).sort(NEWEST_FIRST)
        bound = _finite(effective)
        docs = await (cursor if bound is None else cursor.limit(bound)).to_list()
        return [document_message(doc) for doc in reversed(docs)]

    async def archive_span(self, session_id: str, count: int, keep: Sequence[int] = ()) -> int:
        span = sem.check_count(count)
        kept = sem.check_keep(keep)
        if span == 0:
            return 0
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
        limit = sem.check_limit(query.limit, sem.DEFAULT_CROSS_SESSION_MAX_LIMIT, "query.limit")
        wanted = int(min(limit, self.cross_session_max_limit))
        if wanted == 0:
            return []
        keep = sem.cross_session_filter(query)
        cursor = self.messages_collection.find(_cross_session_query(query)).sort(NEWEST_FIRST)
        hits = await _take(
            cursor.batch_size(wanted), wanted, lambda d, m: keep(d[SESSION_FIELD], m)
        )
        return [RecentMessageRecord(d[SESSION_FIELD], m) for d, m in reversed(hits)]

    async def update_message_content(
        self, session_id: str, old_text: str, new_text: str, recent_limit: Limit = None
    ) -> int:
        sem.check_old_text(old_text)
        if not isinstance(new_text, str):
            raise TypeError(f"new_text must be str, got {type(new_text).__name__}")
        effective = sem.check_limit(recent_limit, sem.DEFAULT_UPDATE_RECENT_LIMIT, "recent_limit")
        if effective == 0:
            return 0
        cursor = self.messages_collection.find({SESSION_FIELD: session_id, **ACTIVE})
        bound = _finite(effective)
        cursor = cursor.sort(NEWEST_FIRST)
        docs = await (cursor if bound is None else cursor.limit(bound)).to_list()
        changed = 0
        for doc in docs:
            message = document_message(doc)
            rewritten = sem.rewrite_content(message, old_text, new_text)
            if rewritten is None:
                continue
            result = await self.messages_collection.update_one(
                {"_id": doc["_id"], "content": message.content},
                {"$set": {"content": rewritten.content}},
            )
            changed += result.modified_count
        return changed

    async def delete_messages_by_timestamps(
        self, session_id: str, timestamps: Sequence[int | float]
    ) -> int:
        doomed = list(timestamps)
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
        sem.check_key(namespace, key)
        doc = await self.metadata_collection.find_one({"namespace": namespace, "key": key})
        data = None if doc is None else doc.get("data")
        return from_bson(data) if isinstance(data, dict) else None

    async def list_metadata(self, namespace: str) -> list[MetadataEntry]:
        """Readable entries sorted by key; others are skipped with one warning each."""
        entries: list[MetadataEntry] = []
        async for doc in self.metadata_collection.find({"namespace": namespace}):
            key, data = doc.get("key"), doc.get("data")
            if not isinstance(key, str) or not isinstance(data, dict):
                self._log.warning(
                    "metadata entry %s/%s skipped: its data is not an object (written outside "
                    "this driver?)", namespace, key,
                )
                continue
            stamp = date_ms(doc.get("updatedAt"))
            entries.append(MetadataEntry(key=key, data=from_bson(data), updated_at=stamp or 0))
        return sorted(entries, key=lambda entry: entry.key)

    async def list_metadata_keys(self, namespace: str) -> list[str]:
        cursor = self.metadata_collection.find(
            {"namespace": namespace}, projection={"key": 1, "_id": 0}
        )
        return sorted([doc["key"] async for doc in cursor if isinstance(doc.get("key"), str)])

    async def delete_metadata(self, namespace: str, key: str) -> None:
        sem.check_key(namespace, key)
        await self.metadata_collection.delete_one({"namespace": namespace, "key": key})

    async def commit_metadata(self, ops: Sequence[MetadataOp]) -> None:
        """One ordered bulk write; every payload is validated and converted first."""
        encoded = sem.encode_batch(ops)
        if not encoded:
            return
        payloads = [
            (op, None if text is None else payload_document(text, f"op {i} ({op.key})"))
            for i, (op, text) in enumerate(encoded)
        ]
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
        cursor = self.metadata_collection.find(
            query, projection={"namespace": 1, "key": 1, "updatedAt": 1}
        )
        return {(d["namespace"], d["key"]): date_ms(d.get("updatedAt")) async for d in cursor}


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
