"""Which weaker tiers the documents grant, and to which backend.

A driver declares its tiers (:class:`~aalis_memory.conformance.registry.Capabilities`); the kit
then proves what it declares. A weaker tier excludes the checks it does not promise, so declaring
one is never silent: the run header and the summary name it, and a driver that declares a tier
the documents grant only to another backend gets a warning.
"""

from __future__ import annotations

from typing import Final

import attrs

from aalis_memory.conformance.registry import Capabilities


@attrs.frozen
class Grant:
    """A weaker tier the documents allow one backend, with the words that allow it."""

    field: str
    value: str
    backend: str
    cited: str


GRANTS: Final = (
    Grant("ordering", "write", "inmemory", "inmemory 只按写入序,假定时间戳随写入递增"),
    Grant("archive_atomicity", "partial", "mongodb", "mongodb 是一次 updateMany,不是事务"),
    Grant("metadata_atomicity", "ordered", "mongodb", "commitMetadata 用有序 bulkWrite 批量写入,不是事务"),
)


def describe(caps: Capabilities) -> str:
    """``ordering=timestamp, metadata=atomic, archive=atomic``."""
    return (f"ordering={caps.ordering}, metadata={caps.metadata_atomicity}, "
            f"archive={caps.archive_atomicity}")


def weaker_than_granted(caps: Capabilities, backend: str | None) -> list[str]:
    """One warning per declared tier the documents grant only to another backend."""
    warnings = []
    for grant in GRANTS:
        if getattr(caps, grant.field) == grant.value and backend != grant.backend:
            warnings.append(
                f"declares {grant.field}={grant.value!r}, which the documents grant only to the "
                f"{grant.backend} backend (\"{grant.cited}\"); the checks that tier does not "
                "promise are reported 'excluded by tier'"
            )
    return warnings


__all__ = ["GRANTS", "Grant", "describe", "weaker_than_granted"]
