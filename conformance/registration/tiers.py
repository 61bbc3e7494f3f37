"""Which weaker tiers the documents grant, and to which backend.

A driver declares its tiers (:class:`~aalis_memory.conformance.registration.registry.Capabilities`); the kit
then proves what it declares. A weaker tier excludes the checks it does not promise, so declaring
one is never silent: the run header and the summary name it. A driver that declares no
documented backend and a tier the documents grant only to one gets a warning; a driver that
names its documented backend and declares a tier the documents do not grant that backend is a
usage error (:class:`UngrantedTier`), raised when it is registered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import attrs

if TYPE_CHECKING:
    from aalis_memory.conformance.registration.registry import Capabilities


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

#: Backends the documents give a range cap, with the words that give it (``range_cap=False``
#: is refused for them).
RANGE_CAPPED: Final = {
    "mongodb": "命中上限会静默截断",
}


class UngrantedTier(ValueError):
    """A registration names a documented backend but declares a tier the documents do not grant
    that backend (or denies it a cap the documents give it)."""


def describe(caps: Capabilities) -> str:
    """``ordering=timestamp, metadata=atomic, archive=atomic`` (``, no range cap`` when so)."""
    text = f"ordering={caps.ordering}, metadata={caps.metadata_atomicity}, archive={caps.archive_atomicity}"
    return text if caps.range_cap else f"{text}, no range cap"


def weaker_than_granted(caps: Capabilities, backend: str | None) -> list[str]:
    """One warning per declared tier the documents grant only to another backend."""
    warnings = []
    for grant in GRANTS:
        if getattr(caps, grant.field) == grant.value and backend != grant.backend:
            warnings.append(
                f"declares {grant.field}={grant.value!r}, which the documents grant only to the "
                f'{grant.backend} backend ("{grant.cited}"); the checks that tier does not '
                "promise are reported 'excluded by tier'"
            )
    return warnings


def ungranted(caps: Capabilities, backend: str | None) -> list[str]:
    """What ``caps`` declares that the documents do not allow ``backend`` (empty when no
    documented backend is named: then :func:`weaker_than_granted` only warns)."""
    if backend is None:
        return []
    problems = [
        f"{grant.field}={grant.value!r} (the documents grant it only to the {grant.backend} "
        f'backend: "{grant.cited}")'
        for grant in GRANTS
        if getattr(caps, grant.field) == grant.value and backend != grant.backend
    ]
    if not caps.range_cap and backend in RANGE_CAPPED:
        problems.append(
            f"range_cap=False (the documents give the {backend} backend a range "
            f'cap: "{RANGE_CAPPED[backend]}")'
        )
    return problems


def check_granted(name: str, caps: Capabilities, backend: str | None) -> None:
    """Raise :class:`UngrantedTier` when driver ``name`` declares ``documented_backend=backend``
    with a tier the documents do not grant that backend."""
    problems = ungranted(caps, backend)
    if problems:
        raise UngrantedTier(
            f"memory driver {name!r} declares documented_backend={backend!r} but also "
            f"{'; '.join(problems)}: declare the tiers the documents grant {backend}, or leave "
            "documented_backend unset for a backend of your own"
        )


__all__ = [
    "GRANTS",
    "RANGE_CAPPED",
    "Grant",
    "UngrantedTier",
    "check_granted",
    "describe",
    "ungranted",
    "weaker_than_granted",
]
