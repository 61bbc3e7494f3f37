"""A misbehaving stdio adapter for the bridge's failure tests (run as a script).

A store that is always empty, except: ``countHistory`` crashes the process, ``getHistory``
answers with a line that is not JSON, ``listMetadataKeys`` with a result of the wrong shape,
``clearAll`` never answers. Each logs a line to stderr first, which the failure must show.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

EMPTY: dict[str, Any] = {
    "getFullHistory": [],
    "listMetadata": [],
    "getMessagesBySessionRange": [],
    "getRecentMessagesAcrossSessions": [],
    "archiveSpan": 0,
    "updateMessageContent": 0,
    "deleteMessagesByTimestamps": 0,
    "plantRawMetadata": False,
}
HELLO = {
    "protocolVersion": 1,
    "adapter": "fake",
    "rawMetadata": False,
    "capabilities": {"ordering": "timestamp", "metadataAtomicity": "atomic", "archiveAtomicity": "atomic"},
    "methods": ["clearAll", "countHistory", "listMetadataKeys", "getFullHistory"],
}


def log(text: str) -> None:
    print(f"fake adapter: {text}", file=sys.stderr, flush=True)


def reply(request_id: int, result: Any) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}) + "\n")
    sys.stdout.flush()


def main() -> None:
    log("ready")
    for line in sys.stdin:
        request = json.loads(line)
        method, request_id = request["method"], request["id"]
        if method == "hello":
            reply(request_id, HELLO)
        elif method == "open":
            reply(request_id, {"handle": "h1"})
        elif method == "countHistory":
            log("out of memory while counting (simulated crash)")
            sys.exit(3)
        elif method == "getHistory":
            log("about to write garbage")
            sys.stdout.write("this is not json\n")
            sys.stdout.flush()
        elif method == "listMetadataKeys":
            log("answering with numbers")
            reply(request_id, [1, 2])
        elif method == "clearAll":
            log("stuck in clearAll")
            time.sleep(3600)
        else:
            reply(request_id, EMPTY.get(method))


if __name__ == "__main__":
    main()
