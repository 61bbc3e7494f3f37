"""Drivers in any language: an adapter process speaking JSON-RPC 2.0 over stdin/stdout
(``docs/stdio-protocol.md``; the schema is ``protocol.schema.json`` next to this module)."""

from aalis_memory.drivers.stdio.driver import stdio_driver
from aalis_memory.drivers.stdio.errors import (
    AdapterConfigError,
    AdapterError,
    AdapterRecursionError,
    AdapterSizeError,
    StdioBridgeError,
)
from aalis_memory.drivers.stdio.schema import SCHEMA_PATH

__all__ = [
    "SCHEMA_PATH",
    "AdapterConfigError",
    "AdapterError",
    "AdapterRecursionError",
    "AdapterSizeError",
    "StdioBridgeError",
    "stdio_driver",
]
