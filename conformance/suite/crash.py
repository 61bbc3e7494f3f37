"""Crash consistency of durable drivers (CRASH-01, CRASH-02): SIGKILL a writer, reopen, check.

A driver declares durability with the ``reopen`` registration hook. The kit runs a writer in a
child process (``aalis_memory.conformance.probes.crash_child``; writers are forked from one process
that imported everything once, so a kill is cheap) on a store of its own, kills it with SIGKILL
after a seeded number of acknowledged writes (the writer is then usually inside its next call),
reopens the store in this process and checks: every acknowledged write is there (CRASH-01), and
an atomic-tier call is all or nothing (CRASH-02). Bounded: ``KILLS`` kills by default,
``THOROUGH_KILLS`` with ``--memory-hypothesis-profile=thorough``.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import attrs
import pytest

from aalis_memory.conformance import steps
from aalis_memory.conformance.check import Check
from aalis_memory.conformance.harness.adapters import opened_store
from aalis_memory.conformance.harness.run_state import RunState
from aalis_memory.conformance.item_properties import attach
from aalis_memory.conformance.probes.crash_child import (
    ARCHIVE,
    BATCH,
    HOOK_FAILED,
    NAMESPACE,
    SESSION,
    WRITE_FAILED,
    hook_source,
)
from aalis_memory.conformance.registration.registry import DriverContext, DriverRegistration
from aalis_memory.conformance.rules.verdict import Verdict, skip
from aalis_memory.service import FullMemoryService

KILLS: Final = 24
THOROUGH_KILLS: Final = 200
#: The call during which a writer is killed, and how far into it (seconds): drawn per kill
#: from these ranges (seeded).
CALLS: Final = (1, 15)
DELAY_S: Final = (0.0, 0.004)
CHILD_TIMEOUT_S: Final = 60.0


@attrs.frozen
class Finding:
    """A crash rule broken in one kill, as the reads of the reopened store showed it."""

    rule: str
    text: str
    #: The rules the reads it compared stand on (see :func:`steps.read_stands_on`): when the driver
    #: breaks one of them, what the finding saw may be that rule's fault, and the crash rule is
    #: blocked by it, never failed.
    stands_on: tuple[str, ...] = ()


@attrs.define
class Kill:
    """What one killed writer had acknowledged and begun, and what the reopened store held."""

    acked: Counter[str] = attrs.field(factory=Counter)
    last_save: int = 0
    begun_save: int = 0
    last_batch: int = 0
    begun_batch: int = 0
    archives: int = 0
    archive_begun: bool = False
    findings: list[Finding] = attrs.field(factory=list)


@attrs.define
class Campaign:
    kills: int = 0
    acked_ops: int = 0
    findings: list[Finding] = attrs.field(factory=list)
    #: Why the crash rules could not be judged (a driver hook raised), else ``""``.
    unjudged: str = ""


class HookFailed(Exception):
    """A hook of the driver (``reopen``, ``crash_cleanup``) or a writer's call raised: the kill
    cannot be judged, and the crash rules are reported unverified with this (never failed: the
    hook's error is not a lost write). A reopen that worked on the empty folder for the writer
    but raises on the folder the kill left is no hook failure: it is CRASH-01's (lost writes)."""

    def __init__(self, when: str, error: str, trace: str) -> None:
        super().__init__(f"{when}: {error}")
        self.when = when
        self.error = error
        self.trace = trace

    @classmethod
    def from_trace(cls, when: str, trace: str) -> HookFailed:
        """From a traceback's text (a writer's): its last line is the exception."""
        lines = [line for line in trace.strip().splitlines() if line.strip()]
        return cls(when, lines[-1] if lines else "(no traceback)", trace)

    @classmethod
    def here(cls, when: str, exc: BaseException) -> HookFailed:
        return cls(when, f"{type(exc).__name__}: {exc}", "".join(traceback.format_exception(exc)))

    def reason(self, registration: DriverRegistration, log: Path, kills: int) -> str:
        """The unverified reason: the error and where it was raised on its first line (the
        terminal summary shows that line), then the whole traceback."""
        at = _innermost(self.trace)
        return (
            f"driver {registration.name!r}: {self.when} raised {self.error}{at}, so crash "
            f"consistency could not be judged (after {kills} judged kills; the kit calls "
            "reopen= on an empty folder to start each writer, then on the folder the killed "
            f"writer left; traceback in {log})\n{self.trace}"
        )


def _innermost(trace: str) -> str:
    """`` (at file.py:12, in hook)``: the innermost frame of a traceback's text."""
    frames = [line.strip() for line in trace.splitlines() if line.strip().startswith('File "')]
    if not frames:
        return ""
    words = frames[-1].split('"')
    tail = words[2].strip(", ").replace("line ", "") if len(words) > 2 else ""
    line, _, function = tail.partition(", in ")
    return f" (at {Path(words[1]).name}:{line}, in {function})"


_CAMPAIGNS: dict[str, Campaign] = {}


def _spec(ctx: DriverContext, registration: DriverRegistration, seed: int) -> dict[str, Any]:
    assert registration.reopen is not None
    options = {k: v for k, v in ctx.options.items() if _jsonable(v)}
    return {
        "hook": hook_source(registration.reopen),
        "name": ctx.name,
        "tmp_path": str(ctx.tmp_path),
        "range_query_limit": ctx.range_query_limit,
        "cross_session_max_limit": ctx.cross_session_max_limit,
        "options": options,
        "seed": seed,
    }


def _jsonable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


class Writers:
    """The zygote that forks the writers (see ``crash_child``); one per campaign."""

    def __init__(self, log: Path) -> None:
        self._log = log.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "aalis_memory.conformance.probes.crash_child"],
            stdin=subprocess.PIPE,
            stdout=self._log,
            stderr=self._log,
            text=True,
        )
        self._dir = Path(tempfile.mkdtemp(prefix="aalis-crash-"))  # short: a socket path

    def run_and_kill(
        self, spec: dict[str, Any], calls_before_kill: int, delay_s: float, target: tuple[str, ...]
    ) -> Kill:
        """Fork a writer; ``delay_s`` after it says it begins its ``calls_before_kill``-th call
        of a kind in ``target``, SIGKILL it."""
        kill = Kill()
        path = self._dir / "writer.sock"
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
            listener.bind(str(path))
            listener.listen(1)
            listener.settimeout(CHILD_TIMEOUT_S)
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps({**spec, "socket": str(path)}) + "\n")
            self.proc.stdin.flush()
            conn, _ = listener.accept()
        path.unlink()
        with conn:
            conn.settimeout(CHILD_TIMEOUT_S)
            lines = _Lines(conn)
            pid = int(lines.next().split()[1])
            ready = lines.next()
            if ready.strip() != "READY":
                raise _writer_failed(ready, spec, "the crash writer did not open its store", self._log)
            begun = 0
            while begun < calls_before_kill:
                line = lines.next()
                if not line or line.startswith(WRITE_FAILED):
                    raise _writer_failed(line, spec, "the crash writer stopped early", self._log)
                words = line.split()
                begun += words[:1] == ["B"] and words[1] in target
                _note(kill, line.split())
            # A random moment into that call (a call of a local store takes a millisecond or
            # two): the point of the kill, not an ordering; lines written meanwhile are read
            # below, and every acknowledgement among them counts.
            time.sleep(delay_s)
            os.kill(pid, signal.SIGKILL)
            # Read to the end: the socket closes when the killed writer is gone, and lines it
            # wrote before the kill still count (an acknowledgement printed was given).
            while line := lines.next():
                if line.startswith(WRITE_FAILED):  # raised before the kill landed
                    raise _writer_failed(line, spec, "", self._log)
                _note(kill, line.split())
        return kill

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=CHILD_TIMEOUT_S)
        self._log.close()
        shutil.rmtree(self._dir, ignore_errors=True)


def _writer_failed(line: str, spec: dict[str, Any], otherwise: str, log: Any) -> Exception:
    """What a writer's line other than the expected one says: its hook or a call raised (a
    :class:`HookFailed`), else the writer ended without a word (``otherwise``; the log has it)."""
    hook = spec["hook"]["qualname"]
    tag, _, trace = line.partition(" ")
    if tag == HOOK_FAILED:
        return HookFailed.from_trace(
            f"reopen hook {hook}() on an empty folder (a writer's store)", json.loads(trace)
        )
    if tag == WRITE_FAILED:
        return HookFailed.from_trace(
            f"a crash writer's call (on the store {hook}() opened)", json.loads(trace)
        )
    return RuntimeError(f"{otherwise or 'the crash writer ended early'}; see {log.name}")


class _Lines:
    """Lines from a socket without read-ahead: each is handled the moment it arrives."""

    def __init__(self, conn: socket.socket) -> None:
        self._conn = conn
        self._buffer = b""

    def next(self) -> str:
        """The next line, ``""`` at the end."""
        while b"\n" not in self._buffer:
            chunk = self._conn.recv(4096)
            if not chunk:
                rest, self._buffer = self._buffer, b""
                return rest.decode()
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode() + "\n"


def _note(kill: Kill, words: list[str]) -> None:
    if len(words) < 2:
        return
    state, what = words[0], words[1]
    if state == "A":
        kill.acked[what] += 1
    if what == "save":
        number = int(words[2])
        kill.begun_save = max(kill.begun_save, number)
        if state == "A":
            kill.last_save = number
    elif what == "batch":
        number = int(words[2])
        kill.begun_batch = max(kill.begun_batch, number)
        if state == "A":
            kill.last_batch = number
    elif what == "archive":
        kill.archive_begun = state == "B"
        if state == "A":
            kill.archives += 1


#: Why the crash rules are unverified for a store without get_full_history: the writer archives,
#: and only the whole history tells an archived message from a lost one.
NO_FULL_HISTORY: Final = (
    "the crash check reads what survived through get_full_history, which this store does not "
    "implement: without it an archived message cannot be told from a lost one"
)

#: A read of every message of the session: the reopened store holds far fewer.
_EVERY: Final = 10**9


async def _check(store: FullMemoryService, kill: Kill, atomic_metadata: bool, atomic_archive: bool) -> None:
    """What the reopened store holds against what the writer acknowledged and began. Each
    finding names the reads it compared; none judges their order (HIST-02's and FULL-02's)."""
    if not callable(getattr(store, "get_full_history", None)):
        skip(Verdict.UNVERIFIED, NO_FULL_HISTORY)
    full = await store.get_full_history(SESSION, _EVERY)
    active = await store.get_history(SESSION, _EVERY)
    saves = steps.read_stands_on("get_full_history", SESSION, _EVERY)
    archives = (*saves, *steps.read_stands_on("get_history", SESSION, _EVERY))
    batches = steps.read_stands_on("list_metadata", NAMESPACE)
    numbers = [int(str(m.content)[1:]) for m in full]
    saved = set(numbers)
    missing = [n for n in range(1, kill.last_save + 1) if n not in saved]
    if missing:
        kill.findings.append(
            Finding(
                "CRASH-01",
                f"acknowledged saves lost: m{missing[:5]}... ({len(missing)} of {kill.last_save})",
                saves,
            )
        )
    if any(n > kill.begun_save for n in numbers):
        kill.findings.append(Finding("CRASH-01", f"messages never saved appeared: {numbers[-3:]}", saves))
    entries = {e.key: e.data.get("g") for e in await store.list_metadata(NAMESPACE)}
    generations = [entries.get(f"k{i:02d}") for i in range(BATCH)]
    if kill.last_batch and any(g is None or g < kill.last_batch for g in generations):
        kill.findings.append(
            Finding(
                "CRASH-01",
                f"acknowledged batch {kill.last_batch} lost: the keys hold generations {generations}",
                batches,
            )
        )
    if atomic_metadata and len(set(generations)) > 1:
        kill.findings.append(
            Finding(
                "CRASH-02",
                f"a batch was half applied: the {BATCH} keys hold "
                f"generations {generations} (last acknowledged {kill.last_batch})",
                batches,
            )
        )
    archived = len(full) - len(active)
    least, most = kill.archives * ARCHIVE, (kill.archives + kill.archive_begun) * ARCHIVE
    if archived < least:
        kill.findings.append(
            Finding(
                "CRASH-01",
                f"acknowledged archives lost: {archived} archived, "
                f"{kill.archives} calls of {ARCHIVE} were acknowledged",
                archives,
            )
        )
    if atomic_archive and (archived % ARCHIVE or archived > most):
        kill.findings.append(
            Finding(
                "CRASH-02",
                f"an archive_span({ARCHIVE}) was half applied: "
                f"{archived} messages archived after {kill.archives} acknowledged "
                "calls",
                archives,
            )
        )
    # Which messages are still active, in any order: the order of get_history is HIST-02's.
    still = sorted(int(str(m.content)[1:]) for m in active)
    if atomic_archive and still != sorted(numbers)[archived:]:
        kill.findings.append(Finding("CRASH-02", "the archived messages are not the earliest ones", archives))


def _campaign(
    registration: DriverRegistration,
    ctx: DriverContext,
    runner: asyncio.Runner,
    kills: int,
    state: RunState,
) -> Campaign:
    """Run (once per driver and run) ``kills`` kill-and-reopen rounds, each on a fresh store.
    A hook that raises ends the campaign unjudged (:attr:`Campaign.unjudged`)."""
    if registration.name in _CAMPAIGNS:
        return _CAMPAIGNS[registration.name]
    campaign = Campaign()
    rnd = random.Random(f"crash:{registration.name}")
    log = ctx.tmp_path / "writers.log"
    writers = Writers(log)
    try:
        for round_ in range(kills):
            sub = attrs.evolve(ctx, tmp_path=ctx.tmp_path / f"kill-{round_:03d}")
            sub.tmp_path.mkdir()
            try:
                _round(registration, sub, runner, writers, rnd, round_, campaign, state)
            except HookFailed as exc:
                campaign.unjudged = exc.reason(registration, log, campaign.kills)
                break
    finally:
        writers.close()
    if campaign.unjudged:
        with log.open("a") as written:  # the kit's side of it too (a reopen in this process)
            written.write(campaign.unjudged + "\n")
    _CAMPAIGNS[registration.name] = campaign
    return campaign


def _round(
    registration: DriverRegistration,
    sub: DriverContext,
    runner: asyncio.Runner,
    writers: Writers,
    rnd: random.Random,
    round_: int,
    campaign: Campaign,
    state: RunState,
) -> None:
    """One kill: a writer on an empty store, SIGKILLed; the store reopened here and checked;
    then the driver's ``crash_cleanup``, whatever happened."""
    caps = registration.capabilities
    assert registration.reopen is not None
    try:
        # Two kills in three land in a batch or an archive, where half a call could show.
        target = ("save", "batch", "archive") if round_ % 3 == 2 else ("batch", "archive")
        kill = writers.run_and_kill(
            _spec(sub, registration, round_), rnd.randint(*CALLS), rnd.uniform(*DELAY_S), target
        )
        reopened = attrs.evolve(registration, factory=registration.reopen, fresh=None)
        hook = f"reopen hook {registration.reopen.__qualname__}()"
        checked = False
        try:
            with contextlib.ExitStack() as stack:
                try:
                    store = stack.enter_context(
                        opened_store(reopened, sub, runner, mark_unusable=False, state=state)
                    )
                except Exception as exc:
                    # The same hook opened the empty folder for the writer: that it cannot open
                    # what the kill left is the store's durability failing, not the harness.
                    raised = HookFailed.here("", exc)
                    kill.findings.append(
                        Finding(
                            "CRASH-01",
                            f"{hook} opened an empty folder for the writer, then raised "
                            f"{raised.error}{_innermost(raised.trace)} on the folder the killed writer "
                            f"left: its {sum(kill.acked.values())} acknowledged writes cannot be read",
                        )
                    )
                else:
                    runner.run(
                        _check(
                            store,
                            kill,
                            caps.metadata_atomicity == "atomic",
                            caps.archive_atomicity == "atomic",
                        )
                    )
                checked = True
        except Exception as exc:
            if not checked or isinstance(exc, HookFailed):
                raise  # a failed read of the reopened store is the test's, as any call's
            raise HookFailed.here(f"{hook}, closing the reopened store", exc) from exc
    finally:
        _cleanup(registration, sub, runner)
    campaign.kills += 1
    campaign.acked_ops += sum(kill.acked.values())
    campaign.findings += [attrs.evolve(f, text=f"kill {round_}: {f.text}") for f in kill.findings]


def _cleanup(registration: DriverRegistration, sub: DriverContext, runner: asyncio.Runner) -> None:
    """The driver's ``crash_cleanup(ctx)`` for one kill (sync or async), if it has one."""
    hook = registration.crash_cleanup
    if hook is None:
        return
    try:
        result = hook(sub)
        if inspect.isawaitable(result):
            runner.run(_awaited(result))
    except Exception as exc:
        raise HookFailed.here(f"crash_cleanup hook {hook.__qualname__}()", exc) from exc


async def _awaited(awaitable: Any) -> None:
    await awaitable


def _kills(request: pytest.FixtureRequest) -> int:
    profile = request.config.getoption("--memory-hypothesis-profile", default="ci")
    return THOROUGH_KILLS if profile == "thorough" else KILLS


def _durable(registration: DriverRegistration) -> None:
    if registration.reopen is None:
        skip(
            Verdict.UNVERIFIED,
            f"driver {registration.name!r} declares no durability (no "
            "reopen= hook to open its store again after a crash)",
        )
    if not hasattr(signal, "SIGKILL"):
        skip(Verdict.UNVERIFIED, "this platform has no SIGKILL")


def _report(request: pytest.FixtureRequest, campaign: Campaign, check: Check) -> None:
    if campaign.unjudged:
        skip(Verdict.UNVERIFIED, campaign.unjudged)
    attach(
        request.node.user_properties,
        "aalis_crash",
        {"kills": campaign.kills, "acknowledged_ops": campaign.acked_ops},
    )
    mine = [finding for finding in campaign.findings if finding.rule == check.rule_id]
    found = [finding.text for finding in mine]
    if found:
        steps.stands_on(*{rule for finding in mine for rule in finding.stands_on})
        lines = "\n  ".join(found[:10])
        raise check.fail(
            f"{len(found)} findings over {campaign.kills} SIGKILLs "
            f"({campaign.acked_ops} acknowledged writes):\n  {lines}",
            cases=found[:10],
        )


@pytest.fixture
def crash_judged(request: pytest.FixtureRequest) -> Iterator[None]:
    """The crash tests open their stores themselves, not through the suite's store: they are
    judged like any test all the same (:func:`steps.judging`), so that a finding stands on the
    reads it compared (:attr:`Finding.stands_on`)."""
    rules = [str(rule) for mark in request.node.iter_markers("aalis_spec") for rule in mark.args]
    with steps.judging(request.node, rules):
        yield


@pytest.mark.aalis_spec("CRASH-01")
@pytest.mark.usefixtures("crash_judged")
def test_acknowledged_writes_survive_sigkill(
    request: pytest.FixtureRequest,
    aalis_memory_registration: DriverRegistration,
    aalis_memory_ctx: DriverContext,
    aalis_memory_loop: asyncio.Runner,
    aalis_memory_run_state: RunState,
    aalis_check: Check,
) -> None:
    _durable(aalis_memory_registration)
    campaign = _campaign(
        aalis_memory_registration,
        aalis_memory_ctx,
        aalis_memory_loop,
        _kills(request),
        aalis_memory_run_state,
    )
    _report(request, campaign, aalis_check)


@pytest.mark.aalis_spec("CRASH-02")
@pytest.mark.usefixtures("crash_judged")
def test_atomic_calls_are_all_or_nothing_after_sigkill(
    request: pytest.FixtureRequest,
    aalis_memory_registration: DriverRegistration,
    aalis_memory_ctx: DriverContext,
    aalis_memory_loop: asyncio.Runner,
    aalis_memory_run_state: RunState,
    aalis_check: Check,
) -> None:
    caps = aalis_memory_registration.capabilities
    if caps.metadata_atomicity != "atomic" and caps.archive_atomicity != "atomic":
        # first: the rule does not bind this driver, whether or not it could be crashed
        skip(Verdict.EXCLUDED, f"driver {aalis_memory_registration.name!r} declares no atomic tier")
    _durable(aalis_memory_registration)
    campaign = _campaign(
        aalis_memory_registration,
        aalis_memory_ctx,
        aalis_memory_loop,
        _kills(request),
        aalis_memory_run_state,
    )
    _report(request, campaign, aalis_check)
