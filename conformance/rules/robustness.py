"""Rules for hostile input, concurrency and crashes: what every backend must survive.

The documents type every identifier as a string and say what each call does; they are silent on
what a backend does with values of other types, on concurrent callers and on a process killed
mid-write. Where a rule follows from their words it is MUST and cites them; everything else is
SHOULD, and each SHOULD rule carries its reading and its one-line argument in its own text.
"""

from aalis_memory.conformance.rules.rule import MUST, SHOULD, Rule

API = "api-memory §核心方法"
SIG = f"{API} (signatures: sessionId, namespace, key: string)"
ARCH = f"{API}, archiveSpan"
READ = "this project's reading"

RULES = (
    # -- hostile identifiers ------------------------------------------------------------------
    Rule("HOST-01", SHOULD, f"{SIG}; {READ}",
         "A session id, namespace or key that is not a str (a dict such as {'$gt': ''}, a list, "
         "None, a number, a bool, bytes, a regex) makes every method raise TypeError. Why: "
         "nothing in Python enforces the string type the contract declares, and a backend that "
         "passes such a value into its query language lets a caller address other sessions."),
    Rule("HOST-02", SHOULD, f"{SIG}; {READ}",
         "A call refused for a non-str identifier reads and changes nothing: every session and "
         "namespace is as before. Why: a check placed after the query (or a driver that deletes "
         "first and fails later) still wipes or leaks data."),
    Rule("HOST-03", MUST, f"{SIG}; {API}, getHistory (the session's own messages)",
         "Strings that look like query operators, SQL or patterns ('$gt', \"'; DROP TABLE "
         "messages; --\", '%', '_', '.', '.*', '') are ordinary ids: each one addresses exactly "
         "its own session, namespace or key."),
    Rule("HOST-04", SHOULD, f"{API} (signatures); {READ}",
         "Arguments of the wrong type other than identifiers (a non-Message to save_message, a "
         "non-operation in a batch, a payload that is a list or a string, a query that is not a "
         "RecentMessagesAcrossSessionsQuery, a role or kind list holding non-strings, timestamps "
         "that are not a list of numbers) raise TypeError and change "
         "nothing. Why: AttributeError or a storage error tells the caller nothing and may come "
         "after a partial write."),
    # -- bad timestamps, sizes and text ---------------------------------------------------------
    Rule("INPUT-01", SHOULD, f"{API} (timestamps: number); {READ}",
         "A bool where a timestamp is expected (message timestamp, range bounds, since_ts, "
         "timestamps to delete) raises TypeError and changes nothing. Why: True == 1 in Python, "
         "so an unchecked delete_messages_by_timestamps(s, [True]) deletes the message at 1 ms."),
    Rule("INPUT-02", SHOULD, f"{API} (timestamps: epoch ms); {READ}",
         "NaN anywhere a timestamp is expected, and an infinite message timestamp, raise "
         "ValueError and change nothing; infinite range bounds and since_ts are accepted as "
         "unbounded. Why: NaN cannot be ordered or compared and JSON cannot spell infinity, "
         "while an open range end is a meaningful query."),
    Rule("INPUT-03", SHOULD, f"{API} (timestamps: epoch ms); {READ}",
         "An integer timestamp outside the signed 64-bit range raises ValueError wherever a "
         "timestamp is expected, and changes nothing. Why: SQLite and BSON integers are 64-bit; "
         "one documented refusal beats an OverflowError from one backend and silent rounding in "
         "another."),
    Rule("INPUT-04", SHOULD, f"{API} (Message text); {READ}",
         "Text holding a lone surrogate (in content, an id, a metadata value or key) raises "
         "ValueError and stores nothing. Why: UTF-8 storage (SQLite text, BSON) cannot hold it, "
         "and replacing it silently with U+FFFD would corrupt what was saved."),
    Rule("INPUT-05", SHOULD, f"{API} (Message text); {READ}",
         "NUL characters round-trip unchanged in content, ids, metadata keys and values. Why: "
         "they are valid characters of a JSON string; a C-string backend that cuts at NUL "
         "silently loses the rest."),
    Rule("INPUT-06", SHOULD, f"{API}; {READ}",
         "A message or metadata payload larger than the backend can store (here: about 20 MB) "
         "either round-trips exactly or raises ValueError with nothing stored. Why: a size "
         "limit is the backend's to choose, but a half-written or untyped failure is not."),
    Rule("INPUT-07", SHOULD, f"{API}; {READ}",
         "A payload nested 20 levels deep round-trips; one nested thousands of levels deep "
         "raises ValueError (never RecursionError) with nothing stored. Why: moderate nesting "
         "is ordinary data, while unbounded nesting can only be refused, and refused the same "
         "way as other data that cannot be stored."),
    # -- concurrency ----------------------------------------------------------------------------
    Rule("CONC-01", SHOULD, f"{API}, updateMessageContent; {READ}",
         "Concurrent update_message_content calls on one session each apply: no rewrite is lost, "
         "and each call returns the number of messages it really changed. Why: the caller "
         "announces the rewrite (memory:messages-rewritten) and indexes follow it, so a lost or "
         "phantom rewrite leaves them wrong."),
    Rule("CONC-02", MUST, f"{ARCH} (返回归档条数)",
         "Concurrent archive_span calls each return the number they archived: the returns add up "
         "to the number of messages archived."),
    Rule("CONC-03", SHOULD, f"{ARCH} (位置按调用这一刻的活跃历史算); {READ}",
         "k concurrent archive_span(s, c) calls on a long enough history archive exactly the "
         "earliest k*c messages, as if run one after another. Why: each call's positions are "
         "those of the history at its own moment, so two calls never share a span; the tiers "
         "allow a partial archive only when a call fails."),
    Rule("CONC-04", SHOULD, f"{API}, commitMetadata; {READ}",
         "Concurrent commit_metadata calls lose nothing: every key of every batch is written, "
         "concurrent puts of one new key all succeed (the last one wins), and no call fails "
         "with an error of the backend's own making. Why: plugins save their state from "
         "independent tasks; a duplicate-key race is the backend's to resolve."),
    Rule("CONC-05", SHOULD, f"{API}, listMetadata (updatedAt); {READ}",
         "updated_at of a key never goes backwards while several tasks overwrite it: each read "
         "shows a value at least the previous read's. Why: updated_at orders versions; a "
         "stamp computed before a write that lands after a newer one inverts them."),
    Rule("CONC-06", SHOULD, f"{API}, saveMessage; {READ}",
         "Concurrent save_message calls lose nothing: every message is stored once. Why: a "
         "backend that reads before it writes (a next position, a sequence) can give two saves "
         "one slot."),
    # -- crash consistency (drivers that declare durability) -----------------------------------
    Rule("CRASH-01", SHOULD, f"{API}; {READ} (durable drivers)",
         "After the process writing to a durable store is killed with SIGKILL, every write it "
         "had acknowledged is there when the store is reopened. Why: an acknowledged write that "
         "disappears is silent data loss; this is what a durable backend is for."),
    Rule("CRASH-02", MUST, f"{ARCH} (原子性按后端分档: 全成或全不成)",
         "A driver declaring an atomic tier leaves no archive_span or commit_metadata call half "
         "applied when its process is killed mid-call: after reopening, each is all or nothing."),
)
