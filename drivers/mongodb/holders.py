"""Which driver instance of this process holds which database (shared-database refusal).

The metadata collection sits in the same database as the messages, so two instances on one
database would share it even with different message collections. The registry is keyed by the
URI exactly as written (no resolution: that would need a connection) and the database name
compared without ASCII case: MongoDB refuses a second database whose name differs from an
existing one only in case, so ``AuditCase`` and ``auditcase`` are one database to this check.
A claim is taken before connecting and released when the instance closes or fails to open.
The URI is only ever held inside the config (whose repr hides the password): never as an
argument or local that a traceback could show.
"""

from __future__ import annotations

import threading
from typing import Final

from aalis_memory.drivers.mongodb.config import ConfigError, MongoConfig

_LOCK: Final = threading.Lock()
#: (uri, database folded) -> (holder, database as the holder spelled it)
_HOLDERS: dict[tuple[str, str], tuple[str, str]] = {}
_ASCII_FOLD: Final = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def fold(database: str) -> str:
    """The name as MongoDB compares names for "differ only in case": ASCII letters folded."""
    return database.translate(_ASCII_FOLD)


class DatabaseClaim:
    """One instance's hold on a database under one uri; release it exactly once."""

    def __init__(self, config: MongoConfig, database: str, holder: str) -> None:
        self._config = config
        self._database = fold(database)
        self.holder = holder
        self._released = False

    def release(self) -> None:
        with _LOCK:
            key = (self._config.uri, self._database)
            if not self._released and _HOLDERS.get(key, ("",))[0] == self.holder:
                del _HOLDERS[key]
            self._released = True

    def __repr__(self) -> str:
        return f"DatabaseClaim({self._database!r}, holder={self.holder!r})"


def claim(config: MongoConfig, database: str, holder: str) -> DatabaseClaim:
    """Take ``database`` under ``config.uri`` for ``holder``, or fail naming the instance that
    holds it (and its spelling of the name, when only the case differs)."""
    with _LOCK:
        current = _HOLDERS.get((config.uri, fold(database)))
        if current is not None:
            holder_name, spelled = current
            same = (
                ""
                if spelled == database
                else (f" as {spelled!r} (MongoDB treats names differing only in case as one database)")
            )
            raise ConfigError(
                f"MongoDB database {database!r} is already used by {holder_name}{same} under the "
                "same uri; give this instance its own database"
            )
        _HOLDERS[(config.uri, fold(database))] = (holder, database)
    return DatabaseClaim(config, database, holder)
