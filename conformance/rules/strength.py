"""Rules found missing by mutation testing (issue 16): message isolation, timestamps that are
0, negative, fractional or at the ends of the 64-bit range, and the constructor settings of the
reference drivers.

The documents are silent on all of them, so each is a SHOULD with the open point it reads and
the one-line argument for its reading.
"""

from aalis_memory.conformance.rules.rule import Binds, cite, ordered, should
from aalis_memory.defaults import (
    DEFAULT_CROSS_SESSION_MAX_LIMIT,
    DEFAULT_RANGE_QUERY_LIMIT,
)

NUMBER = cite("api-memory", "核心方法", "fromTs: number")
#: The kit's own reference drivers (constructor settings are theirs, not the contract's).
REFERENCE_DRIVERS = Binds("the kit's reference drivers")

RULES = (
    # -- isolation of messages --------------------------------------------------------------
    should(
        "ISO-01",
        "A saved message belongs to the store: mutating the metadata of the Message passed to "
        "save_message, or a dict inside its tool_calls or segments, changes nothing stored.",
        point="whether a stored message is shared with the caller",
        argument="a caller reusing its Message (or a dict inside it) would otherwise rewrite "
        "history, as isolated metadata (META-06) already rules out for metadata",
    ),
    should(
        "ISO-02",
        "What a read returns belongs to the caller: mutating the messages returned by "
        "get_history, get_full_history, a range read or a cross-session read changes no "
        "later read.",
        point="whether returned messages are shared with the store",
        argument="consumers edit what they read (to trim or annotate it) and must not edit the store",
    ),
    # -- timestamps --------------------------------------------------------------------------
    should(
        "TS-01",
        "A message saved with timestamp 0, a negative or a fractional timestamp reads back "
        "with exactly that timestamp: never restamped, rounded or turned into another number.",
        point="timestamps that are 0, negative or fractional",
        argument="a timestamp is a number of epoch ms, so these are ordinary values; a "
        "`ts || now` or an integer column silently moves such a message",
        cites=(NUMBER,),
        machine=True,
    ),
    ordered(
        should(
            "TS-02",
            "Reads ordered by timestamp order 0, negative and fractional timestamps by their "
            "value: 1.25 before 1.5 before 2, -1 before 0.",
            point="the order of such timestamps",
            argument="the ordering rules (HIST-02, RANGE-03, CROSS-02) say nothing special about "
            "0 or fractions",
            cites=(NUMBER,),
        )
    ),
    should(
        "TS-03",
        "Filters compare such timestamps exactly: the range [0, 0] returns exactly the "
        "messages at 0, since_ts=0 keeps 0 and drops negatives, fractional range bounds are "
        "inclusive, and delete_messages_by_timestamps([1.5]) deletes exactly the messages at "
        "1.5.",
        point="filters on such timestamps",
        argument="0 is a bound, not a missing one: a falsy test turns since_ts=0 or [0, 0] "
        "into no filter at all",
        cites=(NUMBER,),
    ),
    # TS-04 and TS-05 were folded into HOST-04 and INPUT-01..03; their IDs are not reused.
    should(
        "TS-06",
        "The ends of the signed 64-bit range are ordinary timestamps, distinct from the "
        "double 2.0**63 next to the top one: messages at 2**63 - 1 and -2**63 read back "
        "exactly, a range with both bounds on one of them returns exactly its message, and "
        "delete_messages_by_timestamps removes exactly the messages at them.",
        point="timestamps at the ends of the 64-bit range",
        argument="INPUT-03 accepts them, and a backend passing them on as doubles "
        "(float(2**63 - 1) == 2**63) silently misses the message at the top end",
        cites=(NUMBER,),
    ),
    # -- constructor settings of the reference drivers (kit tests in tests/) ----------------
    should(
        "CFG-01",
        f"A reference driver built without settings cuts range reads at {DEFAULT_RANGE_QUERY_LIMIT} "
        f"messages and cross-session reads at {DEFAULT_CROSS_SESSION_MAX_LIMIT}.",
        point="the caps of the in-memory and SQLite reference drivers",
        argument="the MongoDB document's defaults (rangeQueryLimit 500, crossSessionMaxLimit "
        "1000) taken by every reference driver give a host the same caps whichever "
        "one it picks",
        cites=(cite("plugin-memory-mongodb", "配置", "500范围查询返回上限"),),
        binds=REFERENCE_DRIVERS,
    ),
    should(
        "CFG-02",
        "A reference driver refuses, with ValueError when it is built, a cap that is not a "
        "positive integer: 0, a negative number, True, a fraction or a string.",
        point="caps that are not positive integers",
        argument="a cap of 0 or True would silently cut every read, so a typo must fail "
        "when the store is built",
        binds=REFERENCE_DRIVERS,
    ),
    should(
        "CFG-03",
        "A reference driver stores metadata nested up to 32 levels and JSON texts up to "
        "15 MiB, and refuses one level or one byte more with ValueError.",
        point="the size and nesting limits of the reference drivers",
        argument="INPUT-06 and INPUT-07 let each backend choose its limits; the reference "
        "drivers document theirs, so a change to them must be deliberate",
        binds=REFERENCE_DRIVERS,
    ),
)
