"""What a driver's transport can carry: a backend in another language is judged on the inputs
its own callers can pass, not on Python values its language cannot hold.

A Python driver gets every value as it is (:func:`transport_of` is ``None``). A stdio adapter
declares its transport in the handshake (``docs/stdio-protocol.md``): the language, the largest
integer it holds as a number, and which of the values JSON cannot spell it makes in its own terms.
A check that needs a value the transport cannot carry is ``unverified``, saying so: a whole test
through :class:`Uncarriable` (raised by the store before anything is sent), a part of one
through :func:`carries_integer` and the like, which the suite asks first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from aalis_memory.conformance.rules.verdict import Verdict, VerdictSkip

#: Value kinds a transport may carry beyond JSON (the protocol's tags):
#: ``non-finite`` NaN and the infinities, ``big-integer`` integers past ``safe_integer``,
#: ``bytes``, ``map`` (non-string keys), ``opaque`` (a value of no JSON type, made as an object
#: of some class), ``cycle`` (a cyclic value, made cyclic on the adapter's side), ``deep``
#: (nesting past the protocol's 40 levels, made on the adapter's side).
KINDS: Final = frozenset({"non-finite", "big-integer", "bytes", "map", "opaque", "cycle", "deep"})

#: An adapter that declares no transport: the encoding of protocol version 1 as it was (the
#: tags of :mod:`~aalis_memory.drivers.stdio.codec`, nesting cut at 40 levels).
LEGACY_KINDS: Final = frozenset({"non-finite", "big-integer", "bytes", "map", "opaque"})


@attrs.frozen
class Transport:
    """What a driver's transport carries."""

    language: str
    #: The largest integer (either sign) it holds as a number; larger ones need ``big-integer``.
    safe_integer: int
    kinds: frozenset[str]
    #: Whether the handshake declared it (an undeclared one keeps the version-1 encoding).
    declared: bool = True

    @classmethod
    def from_hello(cls, hello: Mapping[str, Any]) -> Transport:
        declared = hello.get("transport")
        if not isinstance(declared, Mapping):
            return cls("the adapter's", 2**53, LEGACY_KINDS, declared=False)
        safe = declared["safeInteger"]  # past 2**53 it may come tagged, {"$int": "..."}
        return cls(
            str(declared["language"]),
            int(safe["$int"] if isinstance(safe, Mapping) else safe),
            frozenset(declared.get("kinds", ())) & KINDS,
        )

    def carries(self, kind: str) -> bool:
        return kind in self.kinds

    def carries_integer(self, value: int) -> bool:
        return abs(value) <= self.safe_integer or self.carries("big-integer")

    def cannot(self, what: str) -> str:
        """The reason a check needing ``what`` is unverified."""
        return f"the {self.language} transport cannot carry {what}"


class Uncarriable(VerdictSkip):
    """A call needs a value the driver's transport cannot carry: the test is ``unverified``.

    A skip, not an ``Exception``: no ``except Exception`` of a test can take it for the
    driver's refusal of the value.
    """

    def __init__(self, transport: Transport, what: str) -> None:
        super().__init__(Verdict.UNVERIFIED, transport.cannot(what))
        self.transport = transport
        self.what = what


def transport_of(memory: Any) -> Transport | None:
    """The transport of the store under test (``None``: a Python driver, every value carried)."""
    found = getattr(memory, "transport", None)
    return found if isinstance(found, Transport) else None


def carries_integer(memory: Any, value: int) -> bool:
    transport = transport_of(memory)
    return transport is None or transport.carries_integer(value)


def integer_limit(memory: Any) -> int | None:
    """The largest integer the store's transport holds as a number (``None``: any)."""
    transport = transport_of(memory)
    if transport is None or transport.carries("big-integer"):
        return None
    return transport.safe_integer


__all__ = ["KINDS", "Transport", "Uncarriable", "carries_integer", "integer_limit", "transport_of"]
