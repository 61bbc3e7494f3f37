"""Rules for hostile input, concurrency and crashes: what every backend must survive.

The documents type every identifier as a string and say what each call does; they are silent on
what a backend does with values of other types, on concurrent callers and on a process killed
mid-write. Where a rule follows from their words it is MUST and cites them; everything else is
SHOULD, with the open point it reads and the one-line argument for its reading.
"""

from aalis_memory.conformance.rules.rule import cite, must, should

API = "api-memory"
CORE = "核心方法"
SIGNATURE = cite(API, CORE, "saveMessage(sessionId: string, message: Message)")
PER_SESSION = cite(API, "概述", "按 sessionId 检索历史")
RETURNS_COUNT = cite(API, CORE, "返回归档条数")
ALL_OR_NOTHING = cite(API, CORE, "sqlite 与 inmemory 全成或全不成")

RULES = (
    # -- hostile identifiers ------------------------------------------------------------------
    should(
        "HOST-01",
        "A session id, namespace or key that is not a str (a dict such as {'$gt': ''}, a list, "
        "None, a number, a bool, bytes, a regex) makes every method raise TypeError.",
        point="what a backend does with an identifier that is not a string",
        argument="nothing in Python enforces the declared string type, and a backend that "
        "passes such a value into its query language lets a caller address other "
        "sessions",
        cites=(SIGNATURE,),
    ),
    should(
        "HOST-02",
        "A call refused for a non-str identifier reads and changes nothing: every session and "
        "namespace is as before.",
        point="what a refused call may have done before refusing",
        argument="a check placed after the query (or a driver that deletes first and fails "
        "later) still wipes or leaks data",
    ),
    must(
        "HOST-03",
        "Strings that look like query operators, SQL or patterns ('$gt', \"'; DROP TABLE "
        "messages; --\", '%', '_', '.', '.*', '') are ordinary ids: each one addresses exactly "
        "its own session, namespace or key.",
        SIGNATURE,
        PER_SESSION,
    ),
    should(
        "HOST-04",
        "Arguments of the wrong type other than identifiers (a non-Message to save_message, "
        "a Message whose fields have the wrong types, a non-operation in a batch or a batch "
        "that is not a list, a payload that is a list or a string, a query that is not a "
        "RecentMessagesAcrossSessionsQuery, a role or kind list that is a string or a dict "
        "or holds non-strings, timestamps that are not a list of numbers, a timestamp, range "
        "bound or since_ts that is a string) raise TypeError and change nothing.",
        point="arguments of the wrong type",
        argument="AttributeError or a storage error tells the caller nothing and may come "
        "after a partial write",
    ),
    # -- bad timestamps, sizes and text ---------------------------------------------------------
    should(
        "INPUT-01",
        "A bool where a timestamp is expected (message timestamp, range bounds, since_ts, "
        "timestamps to delete) raises TypeError and changes nothing.",
        point="a bool given as a timestamp",
        argument="True == 1 in Python, so an unchecked delete_messages_by_timestamps(s, "
        "[True]) deletes the message at 1 ms",
    ),
    should(
        "INPUT-02",
        "NaN anywhere a timestamp is expected, and an infinite message timestamp, raise "
        "ValueError and change nothing; infinite range bounds and since_ts are accepted as "
        "unbounded, and an infinite timestamp to delete matches no message.",
        point="NaN and infinite timestamps",
        argument="NaN cannot be ordered or compared and JSON cannot spell infinity, while an "
        "open range end is a meaningful query",
    ),
    should(
        "INPUT-03",
        "An integer timestamp outside the signed 64-bit range raises ValueError wherever a "
        "timestamp is expected, and changes nothing.",
        point="integer timestamps too large for storage",
        argument="SQLite and BSON integers are 64-bit; one documented refusal beats an "
        "OverflowError from one backend and silent rounding in another",
    ),
    should(
        "INPUT-04",
        "Text holding a lone surrogate (in content, an id, a metadata value or key) raises "
        "ValueError and stores nothing.",
        point="text no UTF-8 storage can hold",
        argument="SQLite text and BSON cannot hold a lone surrogate, and replacing it "
        "silently with U+FFFD would corrupt what was saved",
    ),
    should(
        "INPUT-05",
        "NUL characters round-trip unchanged in content, ids, metadata keys and values.",
        point="NUL characters in text",
        argument="they are valid characters of a JSON string; a C-string backend that cuts "
        "at NUL silently loses the rest",
    ),
    should(
        "INPUT-06",
        "A message or metadata payload larger than the backend can store (here: about 20 MB) "
        "either round-trips exactly or raises ValueError with nothing stored.",
        point="payloads larger than a backend stores",
        argument="a size limit is the backend's to choose, but a half-written or untyped failure is not",
    ),
    should(
        "INPUT-07",
        "A payload nested 20 levels deep round-trips; one nested thousands of levels deep "
        "raises ValueError (never RecursionError) with nothing stored.",
        point="deeply nested payloads",
        argument="moderate nesting is ordinary data, while unbounded nesting can only be "
        "refused, and refused the same way as other data that cannot be stored",
    ),
    # -- concurrency ----------------------------------------------------------------------------
    should(
        "CONC-01",
        "Concurrent update_message_content calls on one session each apply: no rewrite is "
        "lost, and each call returns the number of messages it really changed.",
        point="concurrent rewrites of one session",
        argument="the caller announces the rewrite (memory:messages-rewritten) and indexes "
        "follow it, so a lost or phantom rewrite leaves them wrong",
        cites=(cite(API, "记忆变更事件", "由改写的一方在改写成功后发"),),
    ),
    must(
        "CONC-02",
        "Concurrent archive_span calls each return the number they archived: the returns add "
        "up to the number of messages archived.",
        RETURNS_COUNT,
    ),
    should(
        "CONC-03",
        "k concurrent archive_span(s, c) calls on a long enough history archive exactly the "
        "earliest k*c messages, as if run one after another.",
        point="concurrent archive_span calls on one session",
        argument="each call's positions are those of the history at its own moment, so two "
        "calls never share a span; the tiers allow a partial archive only when a "
        "call fails",
        cites=(cite(API, CORE, "位置按调用这一刻的活跃历史算"),),
    ),
    should(
        "CONC-04",
        "Concurrent commit_metadata calls lose nothing: every key of every batch is written, "
        "concurrent puts of one new key all succeed (the last one wins), and no call fails "
        "with an error of the backend's own making.",
        point="concurrent metadata batches",
        argument="plugins save their state from independent tasks; a duplicate-key race is "
        "the backend's to resolve",
    ),
    should(
        "CONC-05",
        "updated_at of a key never goes backwards while several tasks overwrite it: each read "
        "shows a value at least the previous read's.",
        point="updated_at under concurrent overwrites",
        argument="updated_at orders versions; a stamp computed before a write that lands "
        "after a newer one inverts them",
    ),
    should(
        "CONC-06",
        "Concurrent save_message calls lose nothing: every message is stored once.",
        point="concurrent saves",
        argument="a backend that reads before it writes (a next position, a sequence) can "
        "give two saves one slot",
    ),
    # -- crash consistency (drivers that declare durability) -----------------------------------
    should(
        "CRASH-01",
        "After the process writing to a durable store is killed with SIGKILL, every write it "
        "had acknowledged is there when the store is reopened.",
        point="what survives a killed process",
        argument="an acknowledged write that disappears is silent data loss; this is what a "
        "durable backend is for",
    ),
    must(
        "CRASH-02",
        "A driver declaring an atomic tier leaves no archive_span or commit_metadata call half "
        "applied when its process is killed mid-call: after reopening, each is all or nothing.",
        ALL_OR_NOTHING,
    ),
)
