"""A stdio adapter that answers in the protocol's tagged forms (run as a script).

Every number it returns past 2**53 travels as ``{"$int": "..."}`` and the infinities as
``{"$num": ...}``, as docs/stdio-protocol.md says values JSON cannot spell travel, the way an
adapter in a language with int64 (Go, Rust, Java, C#) writes them. Its store is fixed: one
session ``s`` of two messages, at -2**63 and 2**63 - 1, one metadata entry, and counts.
"""

from __future__ import annotations

import json
import sys
from typing import Any

TOP = {"$int": str(2**63 - 1)}
BOTTOM = {"$int": str(-(2**63))}
HISTORY = [
    {"role": "user", "content": "bottom", "timestamp": BOTTOM},
    {"role": "assistant", "content": "top", "timestamp": TOP, "reasoningContent": None},
]
RESULTS: dict[str, Any] = {
    "hello": {
        "protocolVersion": 1,
        "adapter": "tagged",
        "rawMetadata": False,
        "capabilities": {
            "ordering": "timestamp",
            "metadataAtomicity": "atomic",
            "archiveAtomicity": "atomic",
        },
        "methods": ["countHistory", "deleteMessagesByTimestamps", "updateMessageContent"],
        "transport": {
            "language": "Go",
            "safeInteger": {"$int": str(2**63 - 1)},
            "kinds": ["non-finite", "big-integer"],
        },
    },
    "open": {"handle": "h1"},
    "getHistory": HISTORY,
    "countHistory": {"$int": str(2**60)},
    "archiveSpan": {"$int": "2"},
    "updateMessageContent": {"$int": "0"},
    "deleteMessagesByTimestamps": {"$int": "1"},
    "listMetadata": [{"key": "k", "data": {"big": {"$int": str(2**64)}}, "updatedAt": TOP}],
}


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        result = RESULTS.get(request["method"])
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
