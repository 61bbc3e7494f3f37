"""The bridge's reader thread at shutdown (issue 35): stop() closes the adapter's stdout while
the thread may still be reading it, which once let ``ValueError: readline of closed file``
escape the thread and print at the end of a run."""

from __future__ import annotations

import sys
import threading
import time
from typing import Final

import pytest

from aalis_memory.drivers.stdio.client import Connection

#: An adapter that never stops writing (blank lines, which the reader skips): its reader is
#: always inside a read when the pipe is closed.
FLOOD: Final = [
    sys.executable,
    "-c",
    "import sys\nwhile True:\n    sys.stdout.write('\\n' * 4096)\n    sys.stdout.flush()",
]

#: Connections stopped at once: before the fix about half of them let the exception out.
CONNECTIONS: Final = 8


def test_no_exception_escapes_the_reader_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    escaped: list[str] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: escaped.append(repr(args.exc_value)))
    connections = [Connection(f"flood-{n}", FLOOD) for n in range(CONNECTIONS)]
    time.sleep(0.2)  # every reader is reading
    stopping = [threading.Thread(target=connection.stop) for connection in connections]
    for thread in stopping:
        thread.start()
    for thread in stopping:
        thread.join()
    for connection in connections:
        connection._reader.join(5.0)
        assert not connection._reader.is_alive()
        assert connection.broken is not None  # the reader saw the end, and says why
    assert not escaped, escaped
