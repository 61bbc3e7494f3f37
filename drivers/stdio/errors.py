"""What a call through the bridge raises: the adapter's own errors as Python's, and bridge
failures (crash, hang, bad JSON, protocol violation) naming the method and the child's stderr."""

from __future__ import annotations

from typing import Final


class StdioBridgeError(Exception):
    """The adapter broke the protocol, crashed or hung during one call."""

    def __init__(self, driver: str, method: str, problem: str, stderr_tail: str) -> None:
        tail = stderr_tail.rstrip() or "(the adapter wrote nothing to stderr)"
        super().__init__(
            f"stdio driver {driver!r}: {method}: {problem}\n--- the end of the adapter's stderr ---\n{tail}"
        )
        self.method = method
        self.problem = problem


class AdapterError(Exception):
    """The adapter threw an ``Error`` that is none of the classes the contract names."""


class AdapterConfigError(ValueError):
    """The adapter threw its ``ConfigError`` (a ``ValueError``, as the MongoDB driver's is)."""


class AdapterSizeError(ValueError):
    """The adapter's runtime could not hold a value that large (JavaScript: ``RangeError``
    "Invalid string length", "Array buffer allocation failed", ...): a refusal of oversized
    input, so a ``ValueError`` as the contract asks of one (INPUT-06)."""


class AdapterRecursionError(RecursionError):
    """The adapter overflowed its stack (JavaScript: ``RangeError`` "Maximum call stack size
    exceeded"): Python's ``RecursionError`` in another language, never a ``ValueError``, so the
    rules that say "never RecursionError" (INPUT-07) see it for what it is."""


#: ``error.data.errorClass`` of a JSON-RPC error -> the exception the Python side raises.
ERROR_CLASSES: Final[dict[str, type[Exception]]] = {
    "TypeError": TypeError,
    "ValueError": ValueError,
    "SizeError": AdapterSizeError,
    "RecursionError": AdapterRecursionError,
    "ConfigError": AdapterConfigError,
    "Error": AdapterError,
}
