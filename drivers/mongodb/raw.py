"""Writes that bypass the driver, for the kit's raw-access hook and the driver's own tests.

They model documents imported by hand or written by other tools: ``data`` that is not an object,
a missing or non-date ``updatedAt``.
"""

from __future__ import annotations

from typing import Any, Final

from aalis_memory.drivers.mongodb import MongoMemory

#: Leave the field out of the document entirely.
OMIT: Final = object()


async def plant_metadata(
    store: MongoMemory, namespace: str, key: str, *, data: Any = OMIT, updated_at: Any = OMIT
) -> None:
    """Replace (or create) the raw document of ``namespace/key`` with exactly these fields."""
    doc: dict[str, Any] = {"namespace": namespace, "key": key}
    if data is not OMIT:
        doc["data"] = data
    if updated_at is not OMIT:
        doc["updatedAt"] = updated_at
    await store.metadata_collection.replace_one({"namespace": namespace, "key": key}, doc, upsert=True)
