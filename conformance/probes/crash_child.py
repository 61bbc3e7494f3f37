"""The writer the crash tests kill.

``python -m aalis_memory.conformance.probes.crash_child --zygote`` imports everything once, then forks
one writer per JSON spec read from stdin (so a kill costs a fork, not an interpreter start).
Each writer connects to the Unix socket named in its spec, sends ``PID <pid>``, and then
opens a durable driver's store through the driver's ``reopen`` hook and writes until it is
killed, one call at a time, printing a line before each call (``B``: begun) and after it
returns (``A``: acknowledged). Whatever an ``A`` line names must survive a SIGKILL; an atomic
call whose ``A`` line never came must be all or nothing. A hook or call that raises sends its
traceback instead (:data:`HOOK_FAILED`, :data:`WRITE_FAILED`), and to stderr (the parent's log):
the parent then reports the crash rules unverified, never failed.

Workload (all in one session and one namespace, so the parent can check it whole):
``save n`` saves message ``m<n>`` at timestamp ``n``; ``batch g`` commits ``BATCH`` keys all set
to generation ``g``; ``archive`` archives the ``ARCHIVE`` earliest active messages (only when at
least twice that many are active, so it always archives exactly that many).
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import inspect
import json
import os
import random
import signal
import socket
import sys
import traceback
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Final

from aalis_memory.conformance.harness.adapters import as_async
from aalis_memory.conformance.registration.registry import DriverContext, DriverRegistration
from aalis_memory.types import Message, MetadataPut

SESSION: Final = "s-crash"
NAMESPACE: Final = "ns-crash"
BATCH: Final = 12
ARCHIVE: Final = 3


def hook_source(hook: Callable[..., Any]) -> dict[str, str]:
    """Where a child finds ``hook``: its module name, source file and qualified name."""
    return {
        "module": hook.__module__,
        "file": inspect.getsourcefile(hook) or "",
        "qualname": hook.__qualname__,
    }


def load_hook(source: dict[str, str]) -> Callable[..., Any]:
    """The hook again, in this process: by module name, else from its source file."""
    try:
        module: Any = importlib.import_module(source["module"])
    except ImportError:
        spec = importlib.util.spec_from_file_location("aalis_crash_hook", source["file"])
        if spec is None or spec.loader is None:
            raise
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    found: Any = module
    for part in source["qualname"].split("."):
        found = getattr(found, part)
    if isinstance(found, DriverRegistration):  # a decorated factory: its module name is taken
        found = found.reopen
    if not callable(found):
        raise TypeError(f"reopen hook {source} is not callable")
    return found  # type: ignore[no-any-return]


def context(spec: dict[str, Any]) -> DriverContext:
    return DriverContext(
        name=spec["name"],
        tmp_path=Path(spec["tmp_path"]),
        range_query_limit=spec["range_query_limit"],
        cross_session_max_limit=spec["cross_session_max_limit"],
        options=spec["options"],
    )


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def write_forever(store: Any, seed: int) -> None:
    rnd = random.Random(seed)
    n = generation = archived = 0
    while True:
        pick = rnd.random()
        if pick < 0.55:
            n += 1
            say(f"B save {n}")
            await store.save_message(SESSION, Message(role="user", content=f"m{n}", timestamp=n))
            say(f"A save {n}")
        elif pick < 0.9:
            generation += 1
            say(f"B batch {generation}")
            await store.commit_metadata(
                [MetadataPut(NAMESPACE, f"k{i:02d}", {"g": generation}) for i in range(BATCH)]
            )
            say(f"A batch {generation}")
        elif n - archived >= 2 * ARCHIVE:
            say("B archive")
            done = await store.archive_span(SESSION, ARCHIVE)
            archived += done
            say(f"A archive {done}")


#: The line a writer sends instead of ``READY`` when its hook failed, or while writing when a
#: call raised: ``<tag> <traceback as a JSON string>`` (the parent reports the rules unverified).
HOOK_FAILED: Final = "HOOK-FAILED"
WRITE_FAILED: Final = "WRITE-FAILED"


async def main(spec: dict[str, Any]) -> None:
    try:
        factory = load_hook(spec["hook"])(context(spec))
        if isinstance(factory, AsyncIterator):
            opened = await anext(factory, _NOTHING)
        else:  # a sync factory: its store on this thread, lifted like the kit lifts it
            opened = next(factory, _NOTHING)
        if opened is _NOTHING:
            raise RuntimeError("the reopen hook yielded no store")
        store = as_async(opened)
    except Exception:
        say(f"{HOOK_FAILED} {json.dumps(traceback.format_exc())}")
        raise
    say("READY")
    try:
        await write_forever(store, spec["seed"])
    except Exception:
        say(f"{WRITE_FAILED} {json.dumps(traceback.format_exc())}")
        raise


_NOTHING: Final = object()


def zygote() -> None:
    """Fork a writer per spec line; writers are reaped by the kernel (SIGCHLD ignored)."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    for line in sys.stdin:
        spec = json.loads(line)
        if os.fork() == 0:
            code = 1
            try:
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                conn.connect(spec["socket"])
                os.dup2(conn.fileno(), 1)
                say(f"PID {os.getpid()}")
                asyncio.run(main(spec))
                code = 0
            except BaseException:  # to the log (os._exit below would drop it unprinted)
                traceback.print_exc()
                sys.stderr.flush()
            finally:
                os._exit(code)


if __name__ == "__main__":
    zygote()
