"""Transcripts of a stdio driver's store, written when a test fails, and their replay.

A :class:`Recorder` (one per adapter session) keeps the protocol lines of the current test's
store in memory, from its ``open`` on (a new ``open`` while no store is open starts afresh), and
nothing else: a passing run writes no file. When a test of the driver fails (or finds a SHOULD
rule broken), :func:`failure_note` writes the lines to a file and returns the text the failure
carries: the file and the command that replays it::

    python -m aalis_memory.conformance replay FILE --memory-stdio-command="node dist/adapter.js"

A state machine failure has its store's lines kept when it is raised (:meth:`Recorder.keep`,
under its reproduction), since the machine opens more stores (shrinking, judging) before the
failure is reported.

The file: ``#`` comment lines (``# key: value`` headers), then each line the kit sent
(``> ``) and each line the adapter wrote (``< ``), verbatim, in the order they crossed.
:func:`replay` starts the adapter, opens a fresh store for each recorded ``open`` (the handles
mapped), sends the recorded requests one at a time, and prints each answer beside the recorded
one, marking the first that differs.
"""

from __future__ import annotations

import contextlib
import json
import queue
import re
import shlex
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Final

from aalis_memory.drivers.stdio.process import AdapterProcess

#: The first line of a transcript file.
MAGIC: Final = "# aalis-memory stdio transcript 1"
SENT: Final = "> "
GOT: Final = "< "
#: What a failure's text starts its transcript lines with.
NOTE_HEAD: Final = "stdio transcript"
#: State machine failures kept per test, at most (each a shrinking candidate's store).
MAX_KEPT: Final = 1000
#: Characters of protocol lines one transcript keeps, at most (a scaling test's store sends
#: megabytes): past it the lines are counted, not kept, and the file says where it stops.
MAX_CHARS: Final = 16_000_000


class Recorder:
    """The protocol lines of the store(s) the current test opened on one adapter session."""

    def __init__(self, driver: str, command: Sequence[str], cwd: Path | None) -> None:
        self.driver = driver
        self.command = list(command)
        self.cwd = cwd
        self._lines: list[str] = []
        self._chars = 0
        self._dropped = 0
        self._open = 0
        self._kept: dict[tuple[str, ...], tuple[str, ...]] = {}
        #: Whether the lines are the running test's: a store was opened since it began
        #: (:meth:`begin`). A test that opens none here (the crash tests' stores live in
        #: a child process and a reopened session) has no transcript of its own.
        self._current = False
        self._lock = threading.Lock()

    def sent(self, method: str, line: str) -> None:
        """A request line (called in the order the lines are written)."""
        if method == "hello":
            return
        with self._lock:
            if method == "open":
                if self._open <= 0 or not self._current:
                    self._lines, self._chars, self._dropped, self._open = [], 0, 0, 0
                self._open += 1
                self._current = True
            elif method == "close":
                self._open -= 1
            self._add(SENT + line)

    def got(self, line: str) -> None:
        """A line the adapter wrote (an answer, or anything it should not have written)."""
        with self._lock:
            if self._lines:
                self._add(GOT + line)

    def _add(self, line: str) -> None:
        if self._dropped or self._chars + len(line) > MAX_CHARS:
            self._dropped += 1
            return
        self._chars += len(line)
        self._lines.append(line)

    def restarted(self) -> None:
        """A new adapter process: the stores of the old one are gone (the next ``open`` starts a
        new transcript; the lines so far stay for the failure that is being reported)."""
        with self._lock:
            self._open = 0

    def lines(self) -> tuple[str, ...]:
        """The running test's lines (none when it opened no store here: never another test's)."""
        with self._lock:
            return self._snapshot() if self._current else ()

    def _snapshot(self) -> tuple[str, ...]:
        if not self._dropped:
            return tuple(self._lines)
        return (
            *self._lines,
            f"# stopped: {self._dropped} more lines were not kept (a "
            f"transcript keeps {MAX_CHARS:,} characters)",
        )

    def keep(self, key: tuple[str, ...]) -> None:
        """Keep the current lines under ``key`` (a machine failure's reproduction)."""
        with self._lock:
            if len(self._kept) < MAX_KEPT:
                self._kept[key] = self._snapshot()

    def kept(self, key: tuple[str, ...]) -> tuple[str, ...] | None:
        with self._lock:
            return self._kept.get(key)

    def begin(self) -> None:
        """A test begins: the lines so far are an earlier test's, never its transcript."""
        with self._lock:
            self._current = False

    def forget(self) -> None:
        """The test is over: its kept failures go."""
        with self._lock:
            self._kept.clear()

    def replay_command(self, path: Path) -> str:
        """The shell command that replays ``path`` against this adapter."""
        line = (
            f"python -m aalis_memory.conformance replay {shlex.quote(str(path))} "
            f"--memory-stdio-command={shlex.quote(shlex.join(self.command))}"
        )
        return line if self.cwd is None else f"cd {shlex.quote(str(self.cwd))} && {line}"


def write(path: Path, recorder: Recorder, lines: Sequence[str], test: str) -> Path:
    header = [
        MAGIC,
        f"# driver: {recorder.driver}",
        f"# test: {test}",
        f"# command: {shlex.join(recorder.command)}",
    ]
    if recorder.cwd is not None:
        header.append(f"# cwd: {recorder.cwd}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([*header, *lines]) + "\n", encoding="utf-8")
    return path


def file_name(test: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", test.split("::")[-1]).strip("_")[:120] + ".transcript"


def failure_note(
    recorder: Recorder, test: str, folder: Path, machine_key: tuple[str, ...] | None
) -> str | None:
    """Write the transcript of ``recorder``'s driver's failing test into ``folder``; the lines the
    failure text gets (``None``: nothing recorded)."""
    lines = recorder.lines() if machine_key is None else recorder.kept(machine_key)
    if not lines:
        return None
    path = write(folder / file_name(test), recorder, lines, test)
    what = (
        "the shrunk history's store"
        if machine_key is not None
        else "this test's store, from its open to the failure"
    )
    return f"  {NOTE_HEAD} ({what}): {path}\n  replay it: {recorder.replay_command(path)}"


# -- replay --------------------------------------------------------------------------------------


class Transcript:
    """A transcript file read back: its headers, requests and the answers recorded by id."""

    def __init__(self, text: str) -> None:
        self.headers: dict[str, str] = {}
        self.requests: list[dict[str, Any]] = []
        self.answers: dict[Any, dict[str, Any]] = {}
        #: Lines the adapter wrote that answer no request (not JSON, no id).
        self.stray: list[str] = []
        for raw in text.splitlines():
            if raw.startswith("# ") and ": " in raw:
                key, _, value = raw[2:].partition(": ")
                self.headers[key] = value
            elif raw.startswith(SENT):
                self.requests.append(json.loads(raw[len(SENT) :]))
            elif raw.startswith(GOT):
                answer = _json(raw[len(GOT) :])
                if isinstance(answer, dict) and answer.get("id") is not None:
                    self.answers[answer["id"]] = answer
                else:
                    self.stray.append(raw[len(GOT) :])


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def comparable(answer: dict[str, Any] | None, method: str) -> Any:
    """What of an answer must be the same on a replay: not its id, a store's handle, the stack
    of an error or the time of a metadata write (``updatedAt``)."""
    if answer is None:
        return None
    if "error" in answer:
        error = dict(answer["error"])
        data = error.get("data")
        if isinstance(data, dict):
            error["data"] = {k: v for k, v in data.items() if k != "stack"}
        return {"error": error}
    result = answer.get("result")
    if method == "open" and isinstance(result, dict):
        result = {**result, "handle": "<handle>"}
    return {"result": _without_times(result)}


def _without_times(value: Any) -> Any:
    if isinstance(value, list):
        return [_without_times(v) for v in value]
    if isinstance(value, dict):
        return {k: "<time>" if k == "updatedAt" else _without_times(v) for k, v in value.items()}
    return value


def _shown(answer: dict[str, Any] | None) -> str:
    if answer is None:
        return "(no answer)"
    shown = {k: v for k, v in answer.items() if k in ("result", "error")}
    if "error" in shown and isinstance(shown["error"].get("data"), dict):
        shown["error"] = {
            **shown["error"],
            "data": {k: v for k, v in shown["error"]["data"].items() if k != "stack"},
        }
    return json.dumps(shown, ensure_ascii=False, separators=(",", ":"))


class _Lines:
    """The adapter's stdout, line by line, with a timeout."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._queue: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in stream:
                self._queue.put(line)
        self._queue.put(None)

    def next(self, timeout: float) -> bytes | None:
        """The next line; ``None`` at the end of output; raises ``TimeoutError``."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError from None


@contextlib.contextmanager
def _adapter(command: Sequence[str], cwd: Path | None) -> Iterator[AdapterProcess]:
    process = AdapterProcess(command, cwd)
    try:
        yield process
    finally:
        process.stop()


def _ask(
    process: AdapterProcess, lines: _Lines, request: dict[str, Any], timeout: float, out: IO[str]
) -> dict[str, Any] | str:
    """Send ``request``, return its answer (or why there is none); other lines are shown."""
    process.stdin.write(json.dumps(request, separators=(",", ":")).encode("utf-8") + b"\n")
    process.stdin.flush()
    deadline = time.monotonic() + timeout
    while True:
        try:
            raw = lines.next(max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            return f"no answer within {timeout:g} s (the adapter hangs)"
        if raw is None:
            code = process.exit_code(2.0)
            return "the adapter exited" + ("" if code is None else f" with code {code}")
        answer = _json(raw.decode("utf-8", "replace"))
        if isinstance(answer, dict) and answer.get("id") == request["id"]:
            return answer
        print(f"     adapter wrote: {raw.decode('utf-8', 'replace').rstrip()[:300]}", file=out)


def replay(
    path: Path, command: Sequence[str] | None, out: IO[str], *, cwd: Path | None = None, timeout: float = 30.0
) -> int:
    """Replay the transcript at ``path`` (against ``command``, by default the recorded one):
    0 when every answer is the recorded one, 1 when one differs, 2 when it cannot run."""
    text = path.read_text(encoding="utf-8")
    if not text.startswith(MAGIC):
        print(f"replay: {path} is not a stdio transcript (it starts with {MAGIC!r})", file=out)
        return 2
    transcript = Transcript(text)
    argv = list(command) if command else shlex.split(transcript.headers.get("command", ""))
    if not argv:
        print("replay: no command (give --memory-stdio-command)", file=out)
        return 2
    where = cwd or (Path(transcript.headers["cwd"]) if "cwd" in transcript.headers else None)
    print(
        f"replaying {len(transcript.requests)} requests of {transcript.headers.get('test', '?')}"
        f" ({transcript.headers.get('driver', '?')}) against: {shlex.join(argv)}",
        file=out,
    )
    handles: dict[str, str] = {}
    first_difference: int | None = None
    with tempfile.TemporaryDirectory(prefix="aalis-replay-") as folders, _adapter(argv, where) as process:
        lines = _Lines(process.stdout)
        hello = _ask(
            process,
            lines,
            {"jsonrpc": "2.0", "id": 0, "method": "hello", "params": {"protocolVersion": 1}},
            timeout,
            out,
        )
        if not isinstance(hello, dict) or "result" not in hello:
            print(f"replay: the handshake failed: {hello}\n{process.stderr_tail(1.0)}", file=out)
            return 2
        print(f"adapter: {hello['result'].get('adapter')}", file=out)
        for number, recorded in enumerate(transcript.requests, 1):
            method = str(recorded.get("method"))
            params = dict(recorded.get("params") or {})
            if isinstance(params.get("handle"), str):
                params["handle"] = handles.get(params["handle"], params["handle"])
            if method == "open" and "path" in params:  # a fresh store: a new, empty folder
                params["path"] = tempfile.mkdtemp(dir=folders)
            request = {"jsonrpc": "2.0", "id": number, "method": method, "params": params}
            answer = _ask(process, lines, request, timeout, out)
            before = transcript.answers.get(recorded.get("id"))
            now = answer if isinstance(answer, dict) else None
            if method == "open" and now is not None and before is not None:
                old, new = before.get("result"), now.get("result")
                if isinstance(old, dict) and isinstance(new, dict):
                    handles[str(old.get("handle"))] = str(new.get("handle"))
            same = comparable(before, method) == comparable(now, method)
            mark = ""
            if not same and first_difference is None:
                first_difference = number
                mark = "   <-- the first answer that differs"
            elif not same:
                mark = "   <-- differs"
            shown_params = {k: v for k, v in (recorded.get("params") or {}).items() if k != "handle"}
            print(f"#{number} {method} {json.dumps(shown_params, ensure_ascii=False)}", file=out)
            print(f"     recorded: {_shown(before)}", file=out)
            print(f"     replayed: {_shown(now) if now is not None else answer}{mark}", file=out)
            if now is None:  # the adapter hangs or exited: nothing more can be asked
                print(f"replay: stopped at #{number}: {answer}\n{process.stderr_tail(1.0)}", file=out)
                break
    for stray in transcript.stray:
        print(f"recorded, answering no request: {stray[:300]}", file=out)
    if "stopped" in transcript.headers:
        print(f"the transcript stopped early: {transcript.headers['stopped']}", file=out)
    if first_difference is None:
        print(f"every answer is the recorded one ({len(transcript.requests)} requests)", file=out)
        return 0
    print(f"the first answer that differs: #{first_difference}", file=out)
    return 1


__all__ = ["Recorder", "Transcript", "failure_note", "replay", "write"]
