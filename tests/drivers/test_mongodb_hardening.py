"""The MongoDB driver against the probes of the hardening issue, on the run's real server.

Each test pins one probe: URI spellings that leaked a password, write order across processes,
stored document types, oversized batches, case-only database name differences, index builds
cut short by a cancelled activation.
"""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
import textwrap
import traceback
import urllib.parse
import uuid
from collections.abc import Iterator
from types import TracebackType
from typing import Any

import pytest

pytest.importorskip("pymongo")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aalis_memory.drivers.mongodb import (
    MongoConfig,
    MongoConnectionError,
    MongoMemory,
)
from aalis_memory.drivers.mongodb.config import PLUGIN_NAME, ConfigError, redact_uri
from aalis_memory.fixtures.mongodb_server import MongoServer, free_port
from aalis_memory.fixtures.mongodb_testing import ClientRecorder, run_against_unreachable
from aalis_memory.fixtures.pytest_mongodb import drop_database
from aalis_memory.types import Message, MetadataPut

LOGGER = "aalis_memory.drivers.mongodb"


@pytest.fixture
def stores(aalis_memory_loop: asyncio.Runner) -> Iterator[list[MongoMemory]]:
    """Stores a test opened; closed at teardown."""
    opened: list[MongoMemory] = []
    yield opened
    for store in opened:
        aalis_memory_loop.run(store.close())


# -- MDB-29 / MDB-05 / MDB-34: the password never shows ------------------------------------------

#: The URI spellings of the probe (8 of these 11 leaked through the old regular expression).
SPELLINGS = {
    "plain": "mongodb://alice:pw-S3cret@db.example:27017/app",
    "srv": "mongodb+srv://alice:pw-S3cret@cluster.example/app",
    "empty user": "mongodb://:pw-S3cret@db.example/",
    "space": "mongodb://alice:my S3cret@db.example/",
    "tab": "mongodb://alice:my\tS3cret@db.example/",
    "newline": "mongodb://alice:my\nS3cret@db.example/",
    "no scheme": "alice:pw-S3cret@db.example:27017",
    "at sign": "mongodb://alice:pw@S3cret@db.example/",
    "slash": "mongodb://alice:pw/S3cret@db.example/",
    "upper scheme": "MONGODB://alice:pw-S3cret@db.example/",
    "in a sentence": "could not reach mongodb://alice:my S3cret@db.example/ in time",
}


@pytest.mark.aalis_spec("MDB-29", "MDB-05")
@pytest.mark.parametrize("name", sorted(SPELLINGS))
def test_every_spelling_of_a_password_is_hidden(name: str) -> None:
    uri = SPELLINGS[name]
    shown = redact_uri(uri)
    assert "S3cret" not in shown, shown
    assert "***" in shown
    assert "S3cret" not in repr(MongoConfig(uri=uri))


CHARS = "abcXYZ019 \t\n:@/%?#!é"


@st.composite
def credentials(draw: st.DrawFn) -> tuple[str, str]:
    """A user and a password; the password holds a marker (``Ž``) no other text contains, so
    any of its spellings showing up anywhere is a leak, never a coincidence."""
    user = draw(st.text(CHARS.replace(":", "").replace("@", ""), max_size=6))
    head = draw(st.text(CHARS, min_size=1, max_size=8))
    tail = draw(st.text(CHARS, max_size=8))
    return user, f"{head}Ž{tail}"


def _spellings_of(password: str) -> set[str]:
    return {password, urllib.parse.quote(password, safe=""), urllib.parse.quote_plus(password), "Ž", "%C5%BD"}


def _frame_texts(exc: BaseException | None) -> list[str]:
    """What ``pytest --tb=long --showlocals`` could print: every exception of the chain pytest
    shows (a suppressed context is not shown), its text, and every local of every frame."""
    texts: list[str] = []
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        texts += [str(exc), repr(exc), *traceback.format_exception(exc)]
        tb: TracebackType | None = exc.__traceback__
        while tb is not None:
            texts += [f"{k}={v!r}" for k, v in tb.tb_frame.f_locals.items()]
            tb = tb.tb_next
        exc = exc.__cause__ or (None if exc.__suppress_context__ else exc.__context__)
    return texts


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.mark.aalis_spec("MDB-29", "MDB-34")
@settings(
    max_examples=30,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    creds=credentials(),
    form=st.sampled_from(["raw", "quoted", "no scheme", "srv"]),
    target=st.sampled_from(["dead port", "server"]),
)
def test_generated_credentials_never_show(
    creds: tuple[str, str], form: str, target: str, aalis_mongodb_server: MongoServer
) -> None:
    """Every text the driver produces for a failing open: the error (message, repr, chain,
    traceback locals), every log record, the config's repr."""
    user, password = creds
    host = (
        f"127.0.0.1:{free_port()}"
        if target == "dead port"
        else aalis_mongodb_server.uri.split("//")[1].rstrip("/")
    )
    quote = urllib.parse.quote_plus
    uri = {
        "raw": f"mongodb://{user}:{password}@{host}/",
        "quoted": f"mongodb://{quote(user)}:{quote(password)}@{host}/",
        "no scheme": f"{user}:{password}@{host}",
        "srv": f"mongodb+srv://{quote(user)}:{quote(password)}@aalis-memory.invalid/",
    }[form]
    texts = [redact_uri(uri)]
    try:
        config = MongoConfig(uri=uri, database=f"aalis_redact_{uuid.uuid4().hex[:8]}", connect_timeout_ms=100)
    except ConfigError as exc:
        texts += _frame_texts(exc)
        config = None
    records = _Records()
    log = logging.getLogger(LOGGER)
    log.addHandler(records)
    try:
        if config is not None:
            texts.append(repr(config))
            caught: list[BaseException] = []

            async def main() -> None:
                try:
                    store = await MongoMemory.open(config)
                except Exception as exc:
                    caught.append(exc)
                else:  # the server accepted the credentials: its objects must not show them
                    texts.extend(
                        [
                            repr(store),
                            repr(store.client),
                            repr(store.database),
                            repr(store.config),
                            repr(store.messages_collection),
                        ]
                    )
                    await store.close()

            run_against_unreachable(main)
            for error in caught:
                assert isinstance(error, ConfigError | MongoConnectionError), repr(error)
                texts += _frame_texts(error)
    finally:
        log.removeHandler(records)
    texts += records.lines
    leaks = [(spelling, text) for text in texts for spelling in _spellings_of(password) if spelling in text]
    assert not leaks, leaks[:3]


@pytest.mark.aalis_spec("MDB-34")
def test_pytest_tracebacks_never_show_the_password(
    pytester: pytest.Pytester, aalis_mongodb_server: MongoServer
) -> None:
    """The probe's three leaks, as a user's pytest run shows them with --tb=long --showlocals:
    the shared-database refusal (arguments of the claim), an authentication failure (pymongo's
    credential object in its frames) and an unreadable tlsCAFile."""
    host = aalis_mongodb_server.uri.split("//")[1].rstrip("/")
    pytester.makeconftest(f"""
        import pytest
        from aalis_memory.drivers.mongodb import MongoConfig

        @pytest.fixture
        def config(request):
            uri = "mongodb://alice:my S3cret-Ž@{host}/" + request.param
            return MongoConfig(uri=uri, database="aalis_tb_" + request.node.name[-12:-1],
                               connect_timeout_ms=2000)
    """)
    pytester.makepyfile(
        textwrap.dedent("""
        import asyncio
        import pytest
        from aalis_memory.drivers.mongodb import holders as mongodb_holders
        from aalis_memory.drivers.mongodb import MongoMemory

        async def twice(config):
            # Another instance of this process holds the database (its claim comes before it
            # connects), so this open is refused by the claim, inside the driver.
            held = mongodb_holders.claim(config, config.database, "@aalis/plugin-memory-mongodb:a")
            try:
                await MongoMemory.open(config)
            finally:
                held.release()

        @pytest.mark.parametrize("config", ["?authMechanism=SCRAM-SHA-256", ""], indirect=True)
        def test_auth_fails(config):
            asyncio.run(MongoMemory.open(config))

        @pytest.mark.parametrize("config", ["?tls=true&tlsCAFile=/nonexistent/ca.pem"],
                                 indirect=True)
        def test_bad_ca_file(config):
            asyncio.run(MongoMemory.open(config))

        @pytest.mark.parametrize("config", ["?connectTimeoutMS=2000"], indirect=True)
        def test_shared_database(config):
            asyncio.run(twice(config))
    """)
    )
    result = pytester.runpytest_subprocess("--tb=long", "--showlocals", "-p", "no:cacheprovider")
    output = result.stdout.str() + result.stderr.str()
    result.assert_outcomes(failed=4)
    assert "MongoConnectionError" in output
    assert "is already used by @aalis/plugin-memory-mongodb:a" in output
    assert "ConfigError" in output
    assert "FileNotFoundError" not in output.split("short test summary")[-1]
    for spelling in ("S3cret", "Ž", "%C5%BD"):
        assert spelling not in output, output[output.find(spelling) - 300 :][:600]


@pytest.mark.aalis_spec("MDB-29")
async def test_uri_with_a_space_in_the_password_is_logged_hidden(
    aalis_mongodb_server: MongoServer,
    aalis_mongodb_database: str,
    caplog: pytest.LogCaptureFixture,
    stores: list[MongoMemory],
) -> None:
    """pymongo accepts an unescaped space in a password, so this uri reaches the server (which
    then refuses the unknown user); the open is logged at INFO first."""
    host = aalis_mongodb_server.uri.split("//")[1].rstrip("/")
    config = MongoConfig(
        uri=f"mongodb://alice:my S3cret@{host}/", database=aalis_mongodb_database, connect_timeout_ms=2000
    )
    errors: list[str] = []
    with caplog.at_level(logging.INFO, logger=LOGGER):
        try:
            stores.append(await MongoMemory.open(config))
        except MongoConnectionError as exc:
            errors.append(str(exc))
    assert not [e for e in errors if "S3cret" in e]
    infos = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert any("alice:***@" in line for line in infos), infos
    assert not [r for r in caplog.records if "S3cret" in r.getMessage()]


# -- MDB-18 / MDB-33: the holder is named; case-only differences are the same database ----------


@pytest.mark.aalis_spec("MDB-18")
async def test_refusal_names_the_holder_not_the_refused_instance(
    aalis_mongodb_server: MongoServer, aalis_mongodb_database: str, stores: list[MongoMemory]
) -> None:
    config = MongoConfig(uri=aalis_mongodb_server.uri, database=aalis_mongodb_database)
    stores.append(await MongoMemory.open(config, instance="holder"))
    with pytest.raises(ConfigError) as caught:
        await MongoMemory.open(config, instance="late")
    message = str(caught.value)
    assert f"used by {PLUGIN_NAME}:holder " in message, message
    assert ":late" not in message, message


@pytest.mark.aalis_spec("MDB-33")
async def test_names_differing_only_in_case_are_one_database(
    aalis_mongodb_server: MongoServer, stores: list[MongoMemory]
) -> None:
    name = f"AuditCase_{uuid.uuid4().hex[:8]}"
    try:
        stores.append(
            await MongoMemory.open(MongoConfig(uri=aalis_mongodb_server.uri, database=name), instance="a")
        )
        recorder = ClientRecorder()
        with pytest.raises(ConfigError) as caught:
            await MongoMemory.open(
                MongoConfig(uri=aalis_mongodb_server.uri, database=name.lower()),
                instance="b",
                event_listeners=[recorder],
            )
        message = str(caught.value)
        assert f"{PLUGIN_NAME}:a" in message, message
        assert name in message, message
        assert "\n" not in message
        assert recorder.topology_opened == 0  # refused without connecting
    finally:
        drop_database(aalis_mongodb_server.uri, name)


# -- MDB-30: write order across processes ---------------------------------------------------------

WRITER = """
import asyncio, sys
from aalis_memory.drivers.mongodb import MongoConfig, MongoMemory
from aalis_memory.types import Message

async def main(uri, database, name):
    store = await MongoMemory.open(MongoConfig(uri=uri, database=database))
    try:
        print("ready", flush=True)
        for line in sys.stdin:
            await store.save_message("s", Message(role="user", content=line.strip(),
                                                  timestamp=5000))
            print("ok", flush=True)
    finally:
        await store.close()

asyncio.run(main(*sys.argv[1:]))
"""


@pytest.mark.aalis_spec("MDB-30")
async def test_same_millisecond_order_across_two_processes(
    aalis_mongodb_server: MongoServer, aalis_mongodb_database: str, stores: list[MongoMemory]
) -> None:
    """Two real processes write messages of one millisecond in strict turns (each write
    acknowledged before the other process writes): history must be the order of the turns."""
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, aalis_mongodb_server.uri, aalis_mongodb_database, name],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    try:
        for writer in writers:
            assert writer.stdout is not None
            assert writer.stdout.readline().strip() == "ready"
        for turn in range(24):
            writer = writers[turn % 2]
            assert writer.stdin is not None
            assert writer.stdout is not None
            writer.stdin.write(f"turn{turn:02d}\n")
            writer.stdin.flush()
            assert writer.stdout.readline().strip() == "ok"
    finally:
        for writer in writers:
            assert writer.stdin is not None
            assert writer.stdout is not None
            writer.stdin.close()
            writer.wait(timeout=60)
            writer.stdout.close()
    store = await MongoMemory.open(MongoConfig(uri=aalis_mongodb_server.uri, database=aalis_mongodb_database))
    stores.append(store)
    history = [m.content for m in await store.get_history("s", 100)]
    assert history == [f"turn{t:02d}" for t in range(24)]
    assert [m.content for m in await store.get_full_history("s", 100)] == history
    assert await store.archive_span("s", 3) == 3
    assert [m.content for m in await store.get_history("s", 100)] == history[3:]


# -- races between two stores (two clients: no shared lock) -----------------------------------


async def _two_stores(server: MongoServer, database: str, stores: list[MongoMemory]) -> list[MongoMemory]:
    """Two clients on one database, as two processes would have (the uri spelled differently
    so this process's shared-database check lets the second one in)."""
    pair = [
        await MongoMemory.open(MongoConfig(uri=server.uri, database=database)),
        await MongoMemory.open(
            MongoConfig(uri=f"{server.uri}?appName=second", database=database), instance="second"
        ),
    ]
    stores.extend(pair)
    return pair


@pytest.mark.aalis_spec("CONC-04")
async def test_duplicate_key_races_between_clients_are_retried(
    aalis_mongodb_server: MongoServer, aalis_mongodb_database: str, stores: list[MongoMemory]
) -> None:
    """Concurrent first puts of one key from two clients: one insert loses the race (MongoDB:
    E11000; FerretDB: a reply pymongo reads as KeyError('nModified')), and is retried."""
    first, second = await _two_stores(aalis_mongodb_server, aalis_mongodb_database, stores)
    for round_ in range(6):
        key = f"fresh-{round_}"
        await asyncio.gather(
            *(
                store.commit_metadata([MetadataPut("ns", key, {"task": t}), MetadataPut("ns", "x", {})])
                for t in range(3)
                for store in (first, second)
            )
        )
        assert await first.get_metadata("ns", key) in [{"task": t} for t in range(3)]


@pytest.mark.aalis_spec("CONC-01", "CONC-02")
async def test_rewrites_and_archives_between_clients_lose_nothing(
    aalis_mongodb_server: MongoServer, aalis_mongodb_database: str, stores: list[MongoMemory]
) -> None:
    """Across clients the driver relies on the server: compare-and-set rewrites, archives that
    flag only active messages and count what the server changed. FerretDB 1.x does not make a
    filtered single-document update atomic, so this runs on MongoDB only."""
    if not aalis_mongodb_server.is_mongodb:
        pytest.skip(
            f"needs MongoDB (per-document atomic updates); the server is "
            f"{aalis_mongodb_server.product} {aalis_mongodb_server.version}"
        )
    first, second = await _two_stores(aalis_mongodb_server, aalis_mongodb_database, stores)
    for i in range(40):
        await first.save_message("s", Message(role="user", content="w0 w1 w2 w3", timestamp=i))
    counts = await asyncio.gather(
        *(
            store.update_message_content("s", f"w{i}", f"W{i}", 100)
            for i, store in enumerate((first, second, first, second))
        )
    )
    assert counts == [40] * 4
    contents = {m.content for m in await first.get_history("s", 100)}
    assert contents == {"W0 W1 W2 W3"}
    archived = await asyncio.gather(*(store.archive_span("s", 3) for store in (first, second) * 4))
    assert sum(archived) == 40 - len(await first.get_history("s", 100))


# -- MDB-31: stored metadata documents ---------------------------------------------------------


@pytest.mark.aalis_spec("MDB-31")
async def test_stored_metadata_documents_hold_an_object_and_a_date(
    aalis_mongodb_server: MongoServer, aalis_mongodb_database: str, stores: list[MongoMemory]
) -> None:
    store = await MongoMemory.open(MongoConfig(uri=aalis_mongodb_server.uri, database=aalis_mongodb_database))
    stores.append(store)
    await store.save_metadata("ns", "a", {"v": 1})
    await store.commit_metadata([MetadataPut("ns", "b", {}), MetadataPut("ns", "a", {"v": 2})])
    meta = store.metadata_collection
    assert await meta.count_documents({"namespace": "ns"}) == 2
    # The server's own view of the stored BSON types, not the driver's reading of them.
    typed = {"namespace": "ns", "data": {"$type": "object"}, "updatedAt": {"$type": "date"}}
    assert await meta.count_documents(typed) == 2


# -- MDB-35: size checked before anything of the call is sent ----------------------------------


@pytest.mark.aalis_spec("MDB-35")
async def test_oversized_bson_is_refused_before_any_write(
    aalis_mongodb_server: MongoServer, aalis_mongodb_database: str, stores: list[MongoMemory]
) -> None:
    """Small as JSON (about 3 MB), over 16 MiB as BSON (every array item carries its index as
    a key), or nested past the 100 levels MongoDB stores: the batch is refused whole, and the put
    before it is not written."""
    store = await MongoMemory.open(MongoConfig(uri=aalis_mongodb_server.uri, database=aalis_mongodb_database))
    stores.append(store)
    wide = {"items": [0] * 1_500_000}
    deep: dict[str, Any] = {"v": 1}
    for _ in range(120):
        deep = {"d": deep}
    for payload, refused in ((wide, "16777216"), (deep, "nested deeper")):
        with pytest.raises(ValueError, match=refused):
            await store.commit_metadata(
                [MetadataPut("ns", "first", {"v": 1}), MetadataPut("ns", "big", payload)]
            )
        assert await store.metadata_collection.count_documents({}) == 0
        with pytest.raises(ValueError, match=refused):
            await store.save_message("s", Message(role="user", content="x", timestamp=1, metadata=payload))
        assert await store.messages_collection.count_documents({}) == 0


# -- MDB-32: a cancelled activation stops waiting for its index builds -------------------------


@pytest.mark.aalis_spec("MDB-32")
async def test_cancel_during_index_build_closes_and_frees(
    aalis_mongodb_server: MongoServer, aalis_mongodb_database: str, stores: list[MongoMemory]
) -> None:
    recorder = ClientRecorder()
    config = MongoConfig(uri=aalis_mongodb_server.uri, database=aalis_mongodb_database)
    task = asyncio.ensure_future(MongoMemory.open(config, event_listeners=[recorder]))
    for _ in range(100_000):  # bounded: until the first createIndexes is on the wire
        if recorder.sent("createIndexes") or task.done():
            break
        await asyncio.sleep(0)
    assert recorder.sent("createIndexes")
    assert not task.done()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert recorder.topology_closed == 1
    store = await MongoMemory.open(config)  # the database was freed
    stores.append(store)
    info = await store.messages_collection.index_information()
    assert len(info) == 4  # _id and the three documented indexes
    assert len(await store.metadata_collection.index_information()) == 2
