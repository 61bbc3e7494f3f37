"""Rules found missing by mutation testing (issue 16): message isolation, timestamps that are
0, negative or fractional, and the constructor settings of the reference drivers.

The documents are silent on all of them, so each is a SHOULD whose source names this project's
reading and, after "why:", the one-line argument for it.
"""

from aalis_memory.conformance.rules.rule import SHOULD, Rule

NUMBER = "api-memory §核心方法 types timestamps as number (epoch ms)"

RULES = (
    # -- isolation of messages --------------------------------------------------------------
    Rule("ISO-01", SHOULD,
         "reading: READING_NOTES #11's isolation of stored data, applied to messages; why: a "
         "caller reusing its Message (or a dict inside it) would otherwise rewrite history",
         "A saved message belongs to the store: mutating the metadata of the Message passed to "
         "save_message, or a dict inside its tool_calls or segments, changes nothing stored."),
    Rule("ISO-02", SHOULD,
         "reading: READING_NOTES #11's isolation of returned data, applied to messages; why: "
         "consumers edit what they read (to trim or annotate it) and must not edit the store",
         "What a read returns belongs to the caller: mutating the messages returned by "
         "get_history, get_full_history, a range read or a cross-session read changes no later "
         "read."),
    # -- timestamps --------------------------------------------------------------------------
    Rule("TS-01", SHOULD,
         f"reading: {NUMBER}, so 0, negatives and fractions are ordinary; why: a `ts || now` "
         "or an integer column silently moves such a message",
         "A message saved with timestamp 0, a negative or a fractional timestamp reads back with "
         "exactly that timestamp: never restamped, rounded or turned into another number."),
    Rule("TS-02", SHOULD,
         f"reading: {NUMBER}, ordered by value; why: ordering rules (HIST-02, RANGE-03, "
         "CROSS-02) say nothing special about 0 or fractions",
         "Reads ordered by timestamp order 0, negative and fractional timestamps by their value: "
         "1.25 before 1.5 before 2, -1 before 0."),
    Rule("TS-03", SHOULD,
         f"reading: {NUMBER}, compared exactly; why: 0 is a bound, not a missing one (a falsy "
         "test turns `since_ts=0` or `[0, 0]` into no filter at all)",
         "Filters compare such timestamps exactly: the range [0, 0] returns exactly the messages "
         "at 0, since_ts=0 keeps 0 and drops negatives, fractional range bounds are inclusive, "
         "and delete_messages_by_timestamps([1.5]) deletes exactly the messages at 1.5."),
    Rule("TS-04", SHOULD,
         f"reading: {NUMBER}, and NaN, infinities, strings and bools are no JSON number; why: "
         "such a stamp can never be ordered or matched, so storing it loses the message silently",
         "save_message refuses a message whose timestamp is NaN, an infinity, a string or a bool "
         "with TypeError or ValueError, and stores nothing."),
    Rule("TS-05", SHOULD,
         f"reading: {NUMBER}, so a bound that is NaN or no number is a caller error; why: NaN "
         "matches nothing, so a read would answer [] as if all were well",
         "A range bound or since_ts that is NaN, a string or a bool raises TypeError or "
         "ValueError."),
    # -- constructor settings of the reference drivers (kit tests in tests/) ----------------
    Rule("CFG-01", SHOULD,
         "reading: plugin-memory-mongodb §配置 defaults (rangeQueryLimit 500, "
         "crossSessionMaxLimit 1000) taken by every reference driver; why: a host sees the same "
         "caps whichever reference driver it picks",
         "A reference driver built without settings cuts range reads at 500 messages and "
         "cross-session reads at 1000."),
    Rule("CFG-02", SHOULD,
         "reading: a cap is a positive integer (documents silent on bad settings); why: a cap of "
         "0 or True would silently cut every read, so a typo must fail when the store is built",
         "A reference driver refuses, with ValueError when it is built, a cap that is not a "
         "positive integer: 0, a negative number, True, a fraction or a string."),
)
