"""Which data directory (and instance) a database belongs to, checked once when opening.

The record lives in the database's own metadata collection (namespace ``aalis.data``, key
``owner``), so two deployments that derive the same database name on one server find out before
they write into each other's history. Paths are compared by their real path.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Final

import attrs
from bson.datetime_ms import DatetimeMS
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.asynchronous.database import AsyncDatabase

from aalis_memory.drivers import semantics as sem
from aalis_memory.drivers.mongodb.config import UNOWNED, ConfigError, HostPaths

OWNER_NAMESPACE: Final = "aalis.data"
OWNER_KEY: Final = "owner"
_SELECTOR: Final = {"namespace": OWNER_NAMESPACE, "key": OWNER_KEY}

Doc = dict[str, Any]


@attrs.frozen
class Owner:
    data_dir: str
    instance: str

    def as_data(self) -> Doc:
        return {"dataDir": self.data_dir, "instance": self.instance}

    @classmethod
    def parse(cls, data: Any) -> Owner | None:
        """The recorded owner, or ``None`` when the record is broken."""
        if not isinstance(data, dict):
            return None
        data_dir, instance = data.get("dataDir"), data.get("instance")
        if not (isinstance(data_dir, str) and data_dir and isinstance(instance, str) and instance):
            return None
        return cls(data_dir, instance)


def _same_dir(claim_from: str, recorded: str) -> bool:
    """``claim_from`` names the recorded directory, as written or after resolving it."""
    if claim_from in ("", UNOWNED):
        return False
    return claim_from == recorded or str(Path(claim_from).expanduser().resolve()) == recorded


async def has_data(db: AsyncDatabase[Doc]) -> bool:
    """Any document in any (non-system) collection of the database."""
    for name in await db.list_collection_names():
        if name.startswith("system."):
            continue
        if await db[name].find_one({}, projection={"_id": 1}) is not None:
            return True
    return False


async def _write(meta: AsyncCollection[Doc], me: Owner, replacing: Doc | None) -> bool:
    """Record ``me``; only if nothing (or exactly ``replacing``) is there. True when written."""
    stamp = {"data": me.as_data(), "updatedAt": DatetimeMS(sem.now_ms())}
    if replacing is None:
        result = await meta.update_one(_SELECTOR, {"$setOnInsert": stamp}, upsert=True)
        return result.upserted_id is not None
    selector = {"_id": replacing["_id"], "data": replacing.get("data")}
    result = await meta.update_one(selector, {"$set": stamp})
    return result.matched_count == 1


async def check_owner(
    db: AsyncDatabase[Doc],
    meta: AsyncCollection[Doc],
    host_paths: HostPaths,
    instance: str,
    claim_from: str,
    log: logging.Logger,
) -> None:
    """Record, confirm or move the owner of ``db``; raise ``ConfigError`` when it is not ours."""
    me = Owner(host_paths.real_data_dir(), instance)
    for _attempt in range(3):  # a concurrent opener may write between our read and write
        doc = await meta.find_one(_SELECTOR)
        if doc is None:
            if claim_from != UNOWNED and await has_data(db):
                raise ConfigError(
                    f"MongoDB database {db.name!r} already holds data but records no owner "
                    f"({OWNER_NAMESPACE}/{OWNER_KEY}); if it is this data directory's data, set "
                    f"claim_from: {UNOWNED} once, then remove it"
                )
            if await _write(meta, me, None):
                log.info("MongoDB database %r now belongs to %s (%s)", db.name, me.data_dir, me.instance)
                return
            continue
        recorded = Owner.parse(doc.get("data"))
        if recorded == me:
            return
        if recorded is None:
            if claim_from != UNOWNED:
                raise ConfigError(
                    f"MongoDB database {db.name!r} has a broken owner record "
                    f"({OWNER_NAMESPACE}/{OWNER_KEY} lacks the data directory or instance); "
                    f"after checking the data, set claim_from: {UNOWNED} once"
                )
        elif not _same_dir(claim_from, recorded.data_dir):
            raise ConfigError(
                f"MongoDB database {db.name!r} belongs to data directory {recorded.data_dir} "
                f"(instance {recorded.instance}); if this is the same data, stop that instance "
                f"and set claim_from: {recorded.data_dir} once, else set another database"
            )
        if await _write(meta, me, doc):
            log.warning(
                "MongoDB database %r claimed for %s (%s), was %s",
                db.name,
                me.data_dir,
                me.instance,
                recorded or "a broken owner record",
            )
            return
    raise ConfigError(f"MongoDB database {db.name!r}: its owner record kept changing; retry")
