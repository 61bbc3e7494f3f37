"""Registering an adapter as a memory driver: ``stdio_driver("name", command=[...])``.

The command is started once at registration for the handshake (its tiers and optional methods
become the registration's), then once per test session; every test opens a fresh store in it by
handle. A crashed or hung adapter is restarted for the next test.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from aalis_memory.conformance.registry import (
    Capabilities,
    DocumentedBackend,
    DriverContext,
    DriverRegistration,
    RawMetadataKind,
    memory_driver,
)
from aalis_memory.conformance.stdio.client import PROTOCOL_VERSION, Connection
from aalis_memory.conformance.stdio.errors import StdioBridgeError
from aalis_memory.conformance.stdio.store import StdioStore

#: The handshake of a starting adapter may wait for a runtime to load (node, a JVM).
HELLO_TIMEOUT: Final = 30.0
#: The bridge gives up a little before the kit does, so its own message (with the adapter's
#: stderr) is the one reported.
BRIDGE_SHARE: Final = 0.9
#: Opening or closing a store gets this many calls' time (as in the kit's adapters).
OPEN_CLOSE_FACTOR: Final = 5
#: An adapter that crashes this many times in one run is not restarted again.
MAX_RESTARTS: Final = 20
OPTIONS_KEY: Final = "stdio"


def handshake(connection: Connection) -> dict[str, Any]:
    hello: dict[str, Any] = connection.call_sync(
        "hello", {"protocolVersion": PROTOCOL_VERSION}, HELLO_TIMEOUT)
    return hello


def probe(name: str, command: Sequence[str], cwd: Path | None = None) -> dict[str, Any]:
    """Start the adapter, read its handshake, stop it."""
    try:
        connection = Connection(name, command, cwd)
    except OSError as exc:
        raise StdioBridgeError(name, "hello", f"cannot start {list(command)}: {exc}", "") from None
    try:
        return handshake(connection)
    finally:
        connection.stop()


class AdapterSession:
    """The adapter process serving one test run, restarted after a crash or a hang."""

    def __init__(self, name: str, command: Sequence[str], cwd: Path | None,
                 hello: dict[str, Any]) -> None:
        self.name = name
        self.command = list(command)
        self.cwd = cwd
        self.hello = hello
        self.restarts = 0
        self.pids: list[int] = []
        self._connection: Connection | None = None

    def connection(self) -> Connection:
        current = self._connection
        if current is not None and current.broken is None:
            return current
        if current is not None:
            current.stop()
            self.restarts += 1
            if self.restarts > MAX_RESTARTS:
                raise StdioBridgeError(self.name, "open", f"the adapter crashed or hung "
                                       f"{MAX_RESTARTS} times; not restarted again", "")
        connection = Connection(self.name, self.command, self.cwd)
        self._connection = connection
        self.pids.append(connection.pid)
        hello = handshake(connection)
        if hello != self.hello:
            raise connection.failure("hello", f"the handshake changed since registration: "
                                     f"{hello!r} != {self.hello!r}")
        return connection

    def close(self) -> None:
        if self._connection is not None:
            self._connection.stop()
            self._connection = None


def _timeout(ctx: DriverContext, factor: float = 1.0) -> float | None:
    return None if ctx.call_timeout is None else ctx.call_timeout * BRIDGE_SHARE * factor


async def _plant(store: StdioStore, namespace: str, key: str, kind: RawMetadataKind) -> bool:
    return await store.plant_raw_metadata(namespace, key, kind)


def stdio_driver(
    name: str,
    command: Sequence[str],
    *,
    cwd: str | Path | None = None,
    documented_backend: DocumentedBackend | None = None,
    known_failures: Mapping[str, str] | None = None,
    description: str = "",
) -> DriverRegistration:
    """Register the adapter that ``command`` starts as the memory driver ``name``.

    The adapter speaks the stdio protocol (``docs/stdio-protocol.md``); its handshake declares
    its tiers, its optional methods, whether it has raw metadata access and the rules it knows
    it breaks (``known_failures`` given here are added to those, and win).
    """
    where = None if cwd is None else Path(cwd)
    hello = probe(name, command, where)
    caps = hello["capabilities"]

    @contextlib.contextmanager
    def session_setup(_config: Any) -> Iterator[Mapping[str, Any]]:
        session = AdapterSession(name, command, where, hello)
        try:
            yield {OPTIONS_KEY: session}
        finally:
            session.close()

    async def factory(ctx: DriverContext) -> AsyncIterator[StdioStore]:
        session: AdapterSession = ctx.options[OPTIONS_KEY]
        connection = session.connection()
        opened = await connection.call("open", {
            "rangeQueryLimit": ctx.range_query_limit,
            "crossSessionMaxLimit": ctx.cross_session_max_limit,
        }, _timeout(ctx, OPEN_CLOSE_FACTOR))
        store = StdioStore(connection, opened["handle"], hello["methods"], _timeout(ctx))
        yield store
        if connection.broken is None:  # a crash or hang was reported by the call it hit
            await connection.call("close", {"handle": store.handle}, _timeout(ctx, OPEN_CLOSE_FACTOR))

    factory.__name__ = factory.__qualname__ = f"stdio_{name}"
    return memory_driver(
        name,
        capabilities=Capabilities(ordering=caps["ordering"],
                                  metadata_atomicity=caps["metadataAtomicity"],
                                  archive_atomicity=caps["archiveAtomicity"]),
        raw_metadata=_plant if hello["rawMetadata"] else None,
        session_setup=session_setup,
        description=description or f"{hello['adapter']} over stdio: {' '.join(command)}",
        documented_backend=documented_backend,
        known_failures={**hello.get("knownFailures", {}), **(known_failures or {})},
    )(factory)
