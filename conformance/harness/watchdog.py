"""The event-loop watchdog: a driver call that blocks the loop is seen from another thread.

Every timed driver call the kit makes (:func:`~aalis_memory.conformance.harness.adapters.within`) is
registered here. A call still awaiting past its limit is cancelled through its loop (the kit's
timeout: one periodic check here instead of a timer on the loop per call). A cancellation lands
only when the loop gets control back, so an async driver method that blocks the loop
(``time.sleep``, a ``threading`` lock, sync I/O, a busy loop) is out of its reach: a daemon
thread posts a heartbeat to each loop with a call in progress, and a loop that leaves it
unanswered is blocked. The call to blame is the one whose frame is on the
loop thread's stack (a call waiting on an ``await`` is not: kit code blocking the loop is never
charged to the driver).

What happens to a call that blocks the loop (``L`` is the per-call limit):

1. blocked for ``L``: the call is marked; when it returns it fails as a timeout all the same;
2. still blocked after ``L + grace`` (``grace`` is ``L`` too): the loop's thread is interrupted.
   In the main thread (where pytest runs tests, pytest-xdist workers included) a signal wakes a
   ``time.sleep``, a lock's ``acquire`` or a socket wait, and its handler raises
   :class:`LoopBlocked` there, only if the call is still on the stack; a loop in another thread,
   or a main thread that does not take the signal, gets :class:`LoopBlocked` through
   ``PyThreadState_SetAsyncExc``, which lands at its next bytecode (a loop of short sleeps, never
   a single long C call). The call fails, and the caller stops using the driver;
3. not back ``GIVE_UP_S`` after the interruption (a C call that ignores signals, a driver that
   swallows ``BaseException``, a coroutine that ignores its cancellation): this process cannot go
   on. The watchdog prints what happened to the terminal and ends the process with
   :data:`EXIT_STATUS`; under pytest-xdist the worker is replaced and the run goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import itertools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any, Final

import attrs

#: A call's description, rendered only when it is shown.
Described = Callable[[], str]

#: After an interruption that did not bring the loop back, how long before the process ends.
GIVE_UP_S: Final = 10.0
#: The status a process ends with when a blocked loop cannot be brought back (pytest's
#: "interrupted").
EXIT_STATUS: Final = 2
#: The signal that wakes the main thread out of a blocking call (ignored by default, so one that
#: arrives with no handler installed does nothing).
WAKE_SIGNAL: Final = getattr(signal, "SIGURG", None)


class LoopBlocked(BaseException):
    """Raised by the watchdog in a thread whose event loop a driver call blocked for too long.

    A ``BaseException``, as ``KeyboardInterrupt`` is, so a driver's ``except Exception`` does not
    swallow it. The kit turns it into a ``CallTimeout`` of the call it interrupted.
    """

    def __str__(self) -> str:
        return (
            "the kit's watchdog interrupted a driver call that blocked the event loop past "
            "the per-call limit (--memory-call-timeout)"
        )


@attrs.define(eq=False)
class Watch:
    """One timed call in progress on an event loop."""

    what: Described
    limit: float
    grace: float
    loop: asyncio.AbstractEventLoop
    thread: int
    #: A frame of the call itself: on the loop thread's stack exactly while the call runs.
    frame: FrameType
    started: float
    #: The driver the call belongs to ("" when none).
    owner: str = ""
    #: Called with a cause before the process ends over this call (the run's
    #: :meth:`~aalis_memory.conformance.harness.run_state.RunState.stopped`: it marks the driver
    #: unusable for the run's other processes).
    on_give_up: Callable[[Watch, str], None] | None = None
    #: The longest time the loop was seen blocked inside this call (seconds).
    blocked: float = 0.0
    #: When the watchdog first interrupted the call, and how often it tried.
    interrupted: float | None = None
    attempts: int = 0
    last_attempt: float = 0.0
    #: The task the call runs in: cancelled when the call outlives its limit (``None``: not
    #: timed here, only watched for blocking).
    task: asyncio.Task[Any] | None = None
    #: The watchdog asked the loop to cancel the call (past its limit), and the loop did:
    #: the call's :class:`asyncio.CancelledError` is then the kit's timeout.
    expire_posted: bool = False
    expiring: bool = False

    @property
    def overran(self) -> bool:
        """The call blocked the loop for longer than its limit."""
        return self.blocked >= self.limit


class _Beat:
    """A watched loop's heartbeat: posted by the watchdog, answered by the loop."""

    def __init__(self) -> None:
        #: When the unanswered beat was posted (``None``: answered).
        self.sent: float | None = None

    def answer(self) -> None:
        self.sent = None


class Watchdog:
    """Watches the event loops of the timed driver calls in progress (one per process)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watches: dict[int, Watch] = {}
        self._beats: dict[asyncio.AbstractEventLoop, _Beat] = {}
        self._ids = itertools.count()
        self._thread: threading.Thread | None = None
        #: The call the main thread's signal handler interrupts (set by the watchdog thread).
        self._target: Watch | None = None
        self._previous_handler: Any = None
        self._handler_installed = False
        #: Where the give-up message goes: a copy of the terminal's stderr, taken before pytest
        #: captures the tests' output (see :func:`keep_terminal`).
        self.terminal_fd = 2

    # -- the loop's side ------------------------------------------------------------------

    def start(
        self,
        what: Described,
        limit: float,
        grace: float,
        frame: FrameType,
        owner: str = "",
        on_give_up: Callable[[Watch, str], None] | None = None,
        task: asyncio.Task[Any] | None = None,
    ) -> int:
        """Watch a call of driver ``owner`` starting now on the running loop; ``frame`` is the
        call's own frame, ``on_give_up`` what to tell before ending the process over it;
        ``task``, the call's task, is cancelled once the call outlives ``limit`` (the timeout of
        :func:`~aalis_memory.conformance.harness.adapters.within`: a timer on the loop per call
        cost the state machine about a twentieth of its CPU)."""
        loop = asyncio.get_running_loop()
        main = threading.current_thread() is threading.main_thread()
        if main and not self._handler_installed:
            self._install_handler()
        watch = Watch(
            what,
            limit,
            grace,
            loop,
            threading.get_ident(),
            frame,
            time.monotonic(),
            owner,
            on_give_up,
            task=task,
        )
        watch_id = next(self._ids)
        with self._lock:
            self._watches[watch_id] = watch
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="aalis-loop-watchdog", daemon=True)
                self._thread.start()
        return watch_id

    def stop(self, watch_id: int) -> Watch | None:
        """The call ended: its watch, with what the watchdog saw."""
        with self._lock:
            watch = self._watches.pop(watch_id, None)
            if watch is not None and self._target is watch:
                self._target = None
        return watch

    def _install_handler(self) -> None:
        self._handler_installed = True
        if WAKE_SIGNAL is None or not hasattr(signal, "pthread_kill"):
            return
        try:
            self._previous_handler = signal.signal(WAKE_SIGNAL, self._on_signal)
        except (ValueError, OSError):  # not the main interpreter: the async exception remains
            return

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        target = self._target
        if target is not None and _on_stack(frame, target.frame):
            self._target = None
            raise LoopBlocked
        previous = self._previous_handler
        if callable(previous):
            previous(signum, frame)

    # -- the watchdog's side --------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._lock:
                limits = [w.limit for w in self._watches.values()]
            time.sleep(min(0.1, max(0.01, min(limits, default=1.0) / 10)))
            try:
                self._check()
            except Exception:  # the watchdog must outlive any surprise
                continue

    def _check(self) -> None:
        now = time.monotonic()
        with self._lock:
            by_loop: dict[asyncio.AbstractEventLoop, list[Watch]] = {}
            for watch in self._watches.values():
                by_loop.setdefault(watch.loop, []).append(watch)
        for gone in [loop for loop in self._beats if loop not in by_loop]:
            del self._beats[gone]
        for loop, watches in by_loop.items():
            for watch in watches:
                if watch.task is not None and not watch.expire_posted and now - watch.started >= watch.limit:
                    watch.expire_posted = True
                    with contextlib.suppress(RuntimeError):  # the loop closed: nothing to cancel
                        loop.call_soon_threadsafe(self._expire, watch)
            beat = self._beats.setdefault(loop, _Beat())
            if beat.sent is None:
                self._post(loop, beat, now)
                self._ignored_cancellation(watches, now)
                continue
            blocked_since = beat.sent
            if now - blocked_since < min(w.limit for w in watches) / 2:
                continue
            culprit = _running(watches)
            if culprit is None:  # the kit's own code holds the loop, not a driver call
                continue
            blocked = now - max(blocked_since, culprit.started)
            culprit.blocked = max(culprit.blocked, blocked)
            if blocked >= culprit.limit + culprit.grace:
                self._interrupt(culprit, now)

    def _expire(self, watch: Watch) -> None:
        """On the call's loop: cancel the call that outlived its limit, if it is still running."""
        with self._lock:
            running = any(w is watch for w in self._watches.values())
        if running and watch.task is not None and not watch.task.done():
            watch.expiring = True
            watch.task.cancel()

    def _post(self, loop: asyncio.AbstractEventLoop, beat: _Beat, now: float) -> None:
        beat.sent = now
        try:
            loop.call_soon_threadsafe(beat.answer)
        except RuntimeError:  # the loop closed under the watch: nothing to watch
            beat.sent = None

    def _ignored_cancellation(self, watches: list[Watch], now: float) -> None:
        """A call far past its limit on a loop that runs: its coroutine ignores cancellation."""
        for watch in watches:
            if now - watch.started >= watch.limit + watch.grace + GIVE_UP_S:
                self._give_up(
                    watch,
                    f"did not return within {watch.limit:g} s and went on "
                    "after the kit cancelled it (it swallows asyncio.CancelledError)",
                )

    def _interrupt(self, watch: Watch, now: float) -> None:
        if watch.interrupted is None:
            watch.interrupted = now
        elif now - watch.interrupted >= GIVE_UP_S:
            self._give_up(
                watch,
                f"has blocked the event loop for {watch.blocked:.0f} s and did "
                "not stop when the kit interrupted it (a C call that ignores signals, "
                "or code that catches BaseException?)",
            )
            return
        if now - watch.last_attempt < 1.0:
            return
        watch.last_attempt = now
        watch.attempts += 1
        main = watch.thread == threading.main_thread().ident
        if main and self._handler_installed and WAKE_SIGNAL is not None and watch.attempts % 2:
            self._target = watch
            with contextlib.suppress(OSError, ValueError):
                signal.pthread_kill(watch.thread, WAKE_SIGNAL)
            return
        if _on_stack(sys._current_frames().get(watch.thread), watch.frame):
            ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(watch.thread), ctypes.py_object(LoopBlocked)
            )

    def _give_up(self, watch: Watch, why: str) -> None:
        try:
            what = watch.what()
        except Exception:
            what = "a driver call"
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        goes_on = (
            f"pytest-xdist replaces worker {worker} and the run goes on without this driver"
            if worker
            else "run the other drivers in a run of their own, or "
            "under pytest-xdist (-n 1), whose worker is replaced and the run goes on"
        )
        cause = f"{what} {why}"
        text = (
            f"\n\naalis-memory: {cause}. The kit cannot stop it, so this test process cannot "
            f"go on: it ends now, with exit status {EXIT_STATUS}, without the conformance "
            f"summary ({goes_on}).\n"
        )
        if watch.on_give_up is not None:
            with contextlib.suppress(Exception):  # ending the process matters more
                watch.on_give_up(watch, cause)
        with contextlib.suppress(OSError):
            os.write(self.terminal_fd, text.encode("utf-8", "replace"))
        os._exit(EXIT_STATUS)


def _on_stack(frame: FrameType | None, wanted: FrameType) -> bool:
    while frame is not None:
        if frame is wanted:
            return True
        frame = frame.f_back
    return False


def _running(watches: list[Watch]) -> Watch | None:
    """The innermost watched call running on the (shared) thread of ``watches`` right now."""
    frame = sys._current_frames().get(watches[0].thread)
    while frame is not None:
        for watch in watches:
            if watch.frame is frame:
                return watch
        frame = frame.f_back
    return None


#: The process's watchdog: one per process, whatever the run (it owns a thread and a signal
#: handler); what a run needs told when it gives up travels with each watch.
WATCHDOG: Final = Watchdog()


def keep_terminal() -> None:
    """Keep a copy of the terminal's stderr for the give-up message: once pytest captures a
    test's output, file descriptor 2 is a temporary file that an ending process never shows."""
    try:
        fd = os.dup(2)
    except OSError:
        return
    previous, WATCHDOG.terminal_fd = WATCHDOG.terminal_fd, fd
    if previous != 2:
        with contextlib.suppress(OSError):
            os.close(previous)


__all__ = ["EXIT_STATUS", "GIVE_UP_S", "WATCHDOG", "LoopBlocked", "Watch", "keep_terminal"]
