"""Which driver instance of this process holds which database (shared-database refusal).

The metadata collection sits in the same database as the messages, so two instances on one
database would share it even with different message collections. The registry is keyed by the
URI exactly as written (no resolution: that would need a connection) and the database name.
A claim is taken before connecting and released when the instance closes or fails to open.
"""

from __future__ import annotations

import threading
from typing import Final

from aalis_memory.drivers.mongodb_config import ConfigError

_LOCK: Final = threading.Lock()
_HOLDERS: dict[tuple[str, str], str] = {}


class DatabaseClaim:
    """One instance's hold on ``(uri, database)``; release it exactly once."""

    def __init__(self, uri: str, database: str, holder: str) -> None:
        self._key = (uri, database)
        self.holder = holder
        self._released = False

    def release(self) -> None:
        with _LOCK:
            if not self._released and _HOLDERS.get(self._key) == self.holder:
                del _HOLDERS[self._key]
            self._released = True


def claim(uri: str, database: str, holder: str) -> DatabaseClaim:
    """Take ``database`` under ``uri`` for ``holder``, or fail naming the instance holding it."""
    with _LOCK:
        current = _HOLDERS.get((uri, database))
        if current is not None:
            raise ConfigError(
                f"MongoDB database {database!r} is already used by {current} under the same uri; "
                "give this instance its own database"
            )
        _HOLDERS[(uri, database)] = holder
    return DatabaseClaim(uri, database, holder)

