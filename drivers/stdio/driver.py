"""Registering an adapter as a memory driver: ``stdio_driver("name", command=[...])``.

The command is started once at registration for the handshake (its tiers, methods, transport
and documented backend become the registration's), then once per test session; every test opens
a fresh store in it by handle. A crashed or hung adapter is restarted for the next test (an
``open`` that got no answer is tried once more in a new adapter). An adapter whose handshake
says ``durable`` is declared durable: :func:`reopen_store` opens its store again from its folder
in a new adapter, after the kit SIGKILLed the writer (and with it its adapter) mid-call.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from aalis_memory.conformance.harness.run_state import RUN_STATE
from aalis_memory.conformance.registration import capability_fields
from aalis_memory.conformance.registration.registry import (
    DocumentedBackend,
    DriverContext,
    DriverRegistration,
    RawMetadataKind,
    memory_driver,
)
from aalis_memory.conformance.registration.transport import Transport
from aalis_memory.drivers.stdio.client import PROTOCOL_VERSION, Connection
from aalis_memory.drivers.stdio.errors import StdioBridgeError
from aalis_memory.drivers.stdio.store import StdioStore
from aalis_memory.drivers.stdio.transcript import Recorder

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
#: JSON-able options (they reach the crash writers' processes): how to start the adapter again.
COMMAND_KEY: Final = "stdio_command"
CWD_KEY: Final = "stdio_cwd"
#: The attribute that marks the factory of a stdio driver (see :func:`is_stdio`).
STDIO_MARK: Final = "aalis_memory_stdio"


def is_stdio(registration: DriverRegistration) -> bool:
    """Whether ``registration`` is an adapter's (its failures get TypeScript reproductions)."""
    return getattr(registration.factory, STDIO_MARK, False) is True


def handshake(connection: Connection) -> dict[str, Any]:
    hello: dict[str, Any] = connection.call_sync(
        "hello", {"protocolVersion": PROTOCOL_VERSION}, HELLO_TIMEOUT
    )
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

    def __init__(self, name: str, command: Sequence[str], cwd: Path | None, hello: dict[str, Any]) -> None:
        self.name = name
        self.command = list(command)
        self.cwd = cwd
        self.hello = hello
        self.restarts = 0
        self.pids: list[int] = []
        self._connection: Connection | None = None
        #: The lines of the current test's store, for the transcript of a failure.
        self.recorder = Recorder(name, self.command, cwd)

    def connection(self) -> Connection:
        current = self._connection
        if current is not None and current.usable():
            return current
        if current is not None:
            current.stop()
            self._connection = None
            self.restarts += 1
            if self.restarts > MAX_RESTARTS:
                raise StdioBridgeError(
                    self.name,
                    "open",
                    f"the adapter crashed or hung "
                    f"{MAX_RESTARTS} times ({current.broken}); it is not "
                    "restarted again, so the driver's remaining tests are "
                    "not run",
                    "",
                )
        self.recorder.restarted()
        connection = Connection(self.name, self.command, self.cwd, self.recorder)
        self._connection = connection
        self.pids.append(connection.pid)
        hello = handshake(connection)
        if hello != self.hello:
            raise connection.failure(
                "hello", f"the handshake changed since registration: {hello!r} != {self.hello!r}"
            )
        return connection

    def close(self) -> None:
        if self._connection is not None:
            self._connection.stop()
            self._connection = None


def _timeout(ctx: DriverContext, factor: float = 1.0) -> float | None:
    return None if ctx.call_timeout is None else ctx.call_timeout * BRIDGE_SHARE * factor


def _open_params(ctx: DriverContext, hello: Mapping[str, Any]) -> dict[str, Any]:
    params: dict[str, Any] = {
        "rangeQueryLimit": ctx.range_query_limit,
        "crossSessionMaxLimit": ctx.cross_session_max_limit,
    }
    if hello.get("durable"):
        params["path"] = str(ctx.tmp_path)
    return params


def _store(
    connection: Connection, handle: str, hello: Mapping[str, Any], timeout: float | None
) -> StdioStore:
    return StdioStore(
        connection,
        handle,
        hello["methods"],
        timeout,
        transport=Transport.from_hello(hello),
        isolation=bool(hello.get("isolation")),
    )


async def reopen_store(ctx: DriverContext) -> AsyncIterator[StdioStore]:
    """The ``reopen`` hook of a durable adapter: a new adapter process opens the store kept under
    ``ctx.tmp_path`` as it is (the crash writers run it in their own process; the kill of a
    writer ends its adapter too, by the parent-death signal, in the middle of its call)."""
    command = [str(part) for part in ctx.options[COMMAND_KEY]]
    cwd = ctx.options.get(CWD_KEY)
    connection = Connection(ctx.name, command, None if cwd is None else Path(cwd))
    try:
        hello = handshake(connection)
        opened = await connection.call("open", _open_params(ctx, hello), _timeout(ctx, OPEN_CLOSE_FACTOR))
        yield _store(connection, opened["handle"], hello, _timeout(ctx))
    finally:
        connection.stop()


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
    hello: Mapping[str, Any] | None = None,
    skip_quick_scaling: str | None = None,
) -> DriverRegistration:
    """Register the adapter that ``command`` starts as the memory driver ``name``.

    The adapter speaks the stdio protocol (``docs/stdio-protocol.md``); its handshake declares
    its tiers, its optional methods, whether it has raw metadata access, whether it skips the
    quick scaling probe and the rules it knows it breaks (``known_failures`` given here are
    added to those, and win; ``skip_quick_scaling`` given here wins over the handshake's).
    ``hello``: its handshake, when the caller has probed it already.
    """
    where = None if cwd is None else Path(cwd)
    hello = dict(hello) if hello is not None else probe(name, command, where)

    @contextlib.contextmanager
    def session_setup(config: Any) -> Iterator[Mapping[str, Any]]:
        session = AdapterSession(name, command, where, hello)
        recorders = config.stash[RUN_STATE].recorders  # the run's, for its failures' transcripts
        recorders[name] = session.recorder
        try:
            yield {
                OPTIONS_KEY: session,
                COMMAND_KEY: list(command),
                CWD_KEY: None if where is None else str(where),
            }
        finally:
            if recorders.get(name) is session.recorder:
                del recorders[name]
            session.close()

    async def factory(ctx: DriverContext) -> AsyncIterator[StdioStore]:
        session: AdapterSession = ctx.options[OPTIONS_KEY]
        connection = session.connection()
        try:
            opened = await connection.call("open", _open_params(ctx, hello), _timeout(ctx, OPEN_CLOSE_FACTOR))
        except StdioBridgeError as first:
            if connection.broken is None:  # the adapter answered: its own error, not a hang
                raise
            # No answer (a hang or a crash): once more, in a new adapter, so that one bad open
            # does not cost the driver every later test.
            connection = session.connection()
            try:
                opened = await connection.call(
                    "open", _open_params(ctx, hello), _timeout(ctx, OPEN_CLOSE_FACTOR)
                )
            except StdioBridgeError as second:
                raise connection.failure(
                    "open",
                    f"{second.problem}, in a new adapter too after "
                    f"{first.problem}: no store opens, so the driver's "
                    "remaining tests are not run",
                ) from None
        store = _store(connection, opened["handle"], hello, _timeout(ctx))
        yield store
        if connection.usable():  # a crash or hang was reported by the call it hit, or is now
            await connection.call("close", {"handle": store.handle}, _timeout(ctx, OPEN_CLOSE_FACTOR))

    factory.__name__ = factory.__qualname__ = f"stdio_{name}"
    setattr(factory, STDIO_MARK, True)
    return memory_driver(
        name,
        capabilities=capability_fields.from_wire(hello["capabilities"]),
        raw_metadata=_plant if hello["rawMetadata"] else None,
        session_setup=session_setup,
        description=description or f"{hello['adapter']} over stdio: {' '.join(command)}",
        documented_backend=documented_backend or hello.get("documentedBackend"),
        known_failures={**hello.get("knownFailures", {}), **(known_failures or {})},
        reopen=reopen_store if hello.get("durable") else None,
        skip_quick_scaling=skip_quick_scaling or hello.get("skipQuickScaling"),
    )(factory)
