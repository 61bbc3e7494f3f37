"""What the state machine generates: sessions, messages, timestamps, limits, metadata payloads.

Values are few on purpose (three sessions, a handful of keys and words) so that generated calls
keep meeting each other's data. Timestamps cover what a ``Message.timestamp`` may be, any JSON
number of epoch milliseconds: a history may start at 0, below it, or at a fractional value, and
steps of 0 ms make same-millisecond ties, within a session and across sessions.
"""

from __future__ import annotations

import json
import math
from typing import Any, Final

import attrs
from hypothesis import strategies as st

from aalis_memory.types import JsonObject, Message

#: Few sessions, two differing only by case (ids are case-sensitive strings, MSG-01).
SESSIONS: Final = ("s0", "s1", "S0")
ROLES: Final = ("user", "assistant", "system", "tool")
#: "turn-record" is a lookalike, not a control kind: a driver must count it as conversation.
KINDS: Final = (None, None, None, "event-marker", "turn-record", "note")
#: The kinds a query may name (filters never name the absent kind).
QUERY_KINDS: Final = KINDS[3:]
OLD_TEXTS: Final = ("a", "alpha", "Alpha", "ta", "zz", "")
#: The texts old_text is replaced by; SAME_TEXT rewrites old_text to itself (which changes, and
#: counts, nothing: UPD-02).
SAME_TEXT: Final = "<old_text itself>"
NEW_TEXTS: Final = ("", "A", "zz", "ALPHA", "alpha", SAME_TEXT)
#: Platforms a cross-session query may ask for (most ask for none: a platform keeps few messages).
PLATFORMS: Final = (None, None, None, "qq", "tg")
#: Namespaces, one a prefix of the others (a namespace is matched whole, META-02).
NAMESPACES: Final = ("ns", "ns2", "ns:x")
KEYS: Final = ("k1", "k$2", "k.3")
#: Payloads that cannot be stored as JSON: each must reject its whole batch.
BAD_PAYLOADS: Final = ("set", "nan", "bytes")
#: archive_span inputs outside the contract (count, keep): each must raise ValueError (ARCH-11).
#: Valid keep positions sit before a bad one, so a store that applies part of it shows.
BAD_SPANS: Final[tuple[tuple[object, list[object]], ...]] = (
    (-1, []),
    (math.nan, []),
    (1.5, []),
    ("2", []),
    (True, []),
    (3, [0, -1]),
    (3, [1, 0.5]),
    (3, ["0"]),
    (3, [math.nan]),
)
#: Long runs (see save_long_run) one example may save: each costs ~60 saves.
MAX_LONG_RUNS: Final = 1
#: Clears (clear_session or clear_all) one example may make: each wipes what the history built.
MAX_CLEARS: Final = 2
#: Where a history's clock starts: the first generated message is at 1000 ms, at 0 ms, or at
#: -3.5 ms; later ones follow by steps of 0, 0.5, 1 or 2 ms (late arrivals go back).
ORIGINS: Final = (1000, 0, -3.5)
#: A timestamp no generated message has: deleting it deletes nothing (DEL-01).
STRAY_TS: Final = -1_000_000
#: "Everything" for the reads that check the state rather than a limit: a finite limit far above
#: any history the machine builds (as the example suite's ``ALL``), so that a driver mishandling
#: math.inf fails LIM-02 on the reads that pass math.inf, and every other check stands on the
#: plain read rules.
ALL: Final = 10_000
LIMITS: Final = st.one_of(st.none(), st.integers(0, 4), st.just(math.inf))
#: Cross-session limits: around the kit's cap of 5 (6 and 8 above it, CROSS-01), 0 (LIM-01)
#: and math.inf (LIM-04).
CROSS_LIMITS: Final = (0, 1, 2, 3, 4, 6, 8, math.inf)
#: Limits the caller promises never to pass; the reference reading raises ValueError (LIM-06).
BAD_LIMITS: Final = (-1, 1.5, math.nan, "3")
#: A timestamp pick (see ``DerivedReads.stored_stamp``) that asks for 0 ms itself, stored
#: or not: since_ts=0 and the range [0, 0] are edges a ``ts or default`` bug gets wrong.
ZERO_PICK: Final = -1
STAMP_PICKS: Final = st.one_of(st.integers(0, 40), st.just(ZERO_PICK))


@attrs.frozen
class MessageSpec:
    """What a save step draws; the machine turns it into a Message with a unique content tag."""

    role: str
    kind: str | None
    words: tuple[str, ...]
    shape: int
    #: Milliseconds after the previous generated timestamp (0 makes a same-ms tie; the first
    #: message of a history is at its origin).
    step: int | float
    #: Milliseconds before it (late arrival; timestamp-ordered drivers only).
    late: int
    stamp_now: bool


#: Word runs a message may carry (one draw, not a list of draws: specs are drawn by the
#: hundred, and drawing is a good part of the machine's time).
WORD_RUNS: Final = (
    (),
    ("alpha",),
    ("beta", "Alpha"),
    ("gamma", "alpha"),
    ("Alpha",),
    ("alpha", "beta", "alpha"),
    ("gamma",),
)

MESSAGE_SPECS: Final = st.builds(
    MessageSpec,
    role=st.sampled_from(ROLES),
    kind=st.sampled_from(KINDS),
    words=st.sampled_from(WORD_RUNS),
    shape=st.integers(0, 5),
    step=st.sampled_from((1, 0, 2, 0.5)),
    late=st.sampled_from((0, 0, 1, 2, 4)),
    stamp_now=st.integers(0, 9).map(lambda n: n == 9),
)

#: The plainest message a save step can make: the minimizer moves generated specs toward it.
PLAIN_SPEC: Final = MessageSpec(role="user", kind=None, words=(), shape=0, step=1, late=0, stamp_now=False)


def build_message(number: int, spec: MessageSpec, timestamp: int | float | None) -> Message:
    """A message whose content starts with a unique tag that no rewrite can touch."""
    content: str | None = " ".join((f"#{number}", *spec.words))
    fields: dict[str, Any] = {}
    if spec.shape == 1:
        fields = {"images": ("img://1",), "audios": ("aud://1",)}
    elif spec.shape == 2:
        fields = {
            "tool_calls": ({"id": f"c{number}", "name": "f", "arguments": "{}"},),
            "tool_call_id": f"c{number}",
            "name": "f",
        }
        content = None if spec.role == "assistant" else content
    elif spec.shape == 3:
        fields = {"reasoning_content": None, "segments": ({"type": "text", "text": "t"},)}
    elif spec.shape == 4:
        fields = {"metadata": {"platform": "qq", "n": number}}
    elif spec.shape == 5:
        fields = {"metadata": {"platform": "tg"}}
    return Message(role=spec.role, content=content, kind=spec.kind, timestamp=timestamp, **fields)


#: Metadata payloads, as JSON text: nesting, lists, unicode, keys with '.' or a leading '$'
#: (META-01: whatever JSON object was saved comes back). A fixed catalogue rather than a
#: recursive strategy: payloads are drawn by the hundred and one draw each keeps the machine's
#: time for checking. Each draw parses its own fresh object, so a driver that keeps a reference
#: cannot change the catalogue.
PAYLOAD_TEXTS: Final = (
    "{}",
    '{"a": 1}',
    '{"a": null, "b.c": true}',
    '{"$d": [1, "x"], "a": -3}',
    '{"ü": "ünï", "a": ""}',
    '{"a": {"b.c": {"$d": 2}}}',
    '{"a": [[], {}], "ü": false}',
    '{"b.c": "x", "$d": {"a": [null, 0]}}',
    '{"a": 0, "b.c": 1, "$d": 2, "ü": 3}',
    '{"a": [1, 2, 3]}',
    '{"$d": "", "ü": {"ü": "x"}}',
    '{"a": "x"}',
)
#: Payloads holding values JSON writes like others (META-07): their arrays are drawn as tuples
#: (written as arrays, they must come back lists) and their whole-valued floats may come back as
#: 2 or 2.0 (compared as numbers).
ALIKE_TEXTS: Final = (
    '{"a": [1, [2, "x"]]}',
    '{"$d": [[], {"b.c": [null]}], "w": 2.0}',
    '{"w": [1.0, -3.0], "a": 0.0}',
)


def whitelist(values: list[str] | None) -> list[str] | None:
    """A drawn whitelist (roles, kinds) as the histories send it: an empty one as none. An empty
    whitelist is read two ways: the upstream code takes empty roles for the default ones and
    empty kinds for no filter, the model for a list that keeps nothing; neither the documents nor
    the kit's readings say which, so no history asks and neither reading is judged."""
    return values or None


def tupled(value: Any) -> Any:
    """``value`` with every list made a tuple (at any depth)."""
    if isinstance(value, dict):
        return {k: tupled(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return tuple(tupled(v) for v in value)
    return value


def _drawn(text: str) -> JsonObject:
    data: JsonObject = json.loads(text)
    return tupled(data) if text in ALIKE_TEXTS else data


JSON_OBJECTS: Final = st.sampled_from((*PAYLOAD_TEXTS, *ALIKE_TEXTS)).map(_drawn)


def listed(value: Any) -> Any:
    """``value`` with every tuple made a list (at any depth)."""
    if isinstance(value, dict):
        return {k: listed(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [listed(v) for v in value]
    return value


def plain_payload(data: JsonObject) -> JsonObject:
    """``data`` without what only META-07 decides: its tuples made lists (everything META-01
    covers, nesting, unicode, keys with '.' or '$', stays). Used once META-07 is tolerated."""
    plain: JsonObject = listed(data)
    return plain


def bad_payload(kind: str) -> JsonObject:
    """A payload that is not JSON (a set, NaN or bytes inside an otherwise fine object)."""
    values: dict[str, Any] = {"set": {1, 2}, "nan": math.nan, "bytes": b"raw"}
    return {"a": 1, "bad": values[kind]}


OPS: Final = st.lists(
    st.tuples(
        st.sampled_from(("put", "put", "del")),
        st.sampled_from(NAMESPACES),
        st.sampled_from(KEYS),
        JSON_OBJECTS,
    ),
    max_size=4,
)


__all__ = [
    "ALIKE_TEXTS",
    "ALL",
    "BAD_LIMITS",
    "BAD_PAYLOADS",
    "BAD_SPANS",
    "CROSS_LIMITS",
    "JSON_OBJECTS",
    "KEYS",
    "KINDS",
    "LIMITS",
    "MESSAGE_SPECS",
    "NAMESPACES",
    "OPS",
    "ORIGINS",
    "PLAIN_SPEC",
    "ROLES",
    "SESSIONS",
    "MessageSpec",
    "bad_payload",
    "build_message",
    "listed",
    "plain_payload",
    "tupled",
    "whitelist",
]
