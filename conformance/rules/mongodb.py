"""Rules of the MongoDB reference backend (plugin-memory-mongodb.zh.md).

They bind the ``mongodb`` driver of this kit (its configuration, storage layout, activation and
logging); the storage contract it shares with every backend is in ``messages`` and ``metadata``.
"""

from aalis_memory.conformance.rules.rule import MUST, SHOULD, OutOfScope, Rule

DOC = "plugin-memory-mongodb"
CFG = f"{DOC} §配置"
FEAT = f"{DOC} §特性"
OWN = f"{DOC} §特性, 库的归属"

RULES = (
    # -- configuration ------------------------------------------------------------------------
    Rule("MDB-01", MUST, CFG,
         "Settings and defaults: uri mongodb://localhost:27017, database empty (derived), "
         "claim_from empty, collection 'messages', connect_timeout_ms 5000, range_query_limit "
         "500, cross_session_max_limit 1000."),
    Rule("MDB-02", MUST, f"{CFG}, connectTimeoutMs",
         "connect_timeout_ms is used both as the connect timeout and as the server-selection "
         "timeout."),
    Rule("MDB-03", MUST, f"{CFG}, rangeQueryLimit / crossSessionMaxLimit",
         "The configured caps are the ones the reads obey: range reads are cut silently, "
         "cross-session reads asking for more are narrowed."),
    Rule("MDB-04", SHOULD, f"{CFG} (this project's reading: typed errors)",
         "A setting of the wrong type or out of range (non-positive caps, empty uri, a message "
         "collection named like the metadata one) raises ConfigError before any connection."),
    Rule("MDB-05", SHOULD, f"{CFG}, uri (secret)",
         "The uri is a secret: the configuration's repr never shows its password."),
    # -- storage layout -----------------------------------------------------------------------
    Rule("MDB-06", MUST, f"{FEAT}, indexes",
         "The message collection gets three indexes: sessionId+timestamp, archived+timestamp "
         "(descending) and metadata.platform+timestamp (descending)."),
    Rule("MDB-07", MUST, f"{FEAT}, metadata collection",
         "Metadata lives in a collection always called 'metadata' in the same database, whatever "
         "the message collection is called, with a unique namespace+key index."),
    Rule("MDB-08", MUST, f"{FEAT}, clearAll",
         "clear_all empties the message collection only; the metadata collection keeps every "
         "document."),
    Rule("MDB-09", MUST, f"{FEAT}, getHistory / countHistory",
         "The history limit and count_history consider conversation messages only; the history "
         "is everything after the (N+1)-th newest conversation message."),
    Rule("MDB-10", MUST, f"{FEAT}, archiveSpan",
         "History and archive_span share one order (timestamp, then insertion id, so one "
         "millisecond keeps write order); archiving flags messages and never deletes them."),
    Rule("MDB-11", MUST, f"{FEAT}, archiveSpan (not a transaction)",
         "archive_span is a single multi-document update, not a transaction: the driver declares "
         "archive_atomicity='partial'."),
    Rule("MDB-12", MUST, f"{FEAT}, commitMetadata",
         "commit_metadata is one ordered bulk write, not a transaction: it stops at the first "
         "failing operation and the operations before it stay written."),
    Rule("MDB-13", MUST, f"{FEAT}, listMetadata",
         "list_metadata skips a document whose data is not an object and logs one warning that "
         "names its namespace and key."),
    Rule("MDB-14", MUST, f"{FEAT}, listMetadata",
         "A document whose updatedAt is missing or not a date is still listed, with "
         "updated_at 0."),
    Rule("MDB-15", MUST, f"{FEAT}, listMetadataKeys",
         "list_metadata_keys reads keys only, so documents list_metadata skips are included."),
    # -- instances and database names ---------------------------------------------------------
    Rule("MDB-16", MUST, f"{FEAT}, 多实例",
         "An empty database setting is derived: 'aalis' for the main data directory, "
         "'aalis_<profile>' for a profile directory, plus '-<suffix>' or '_<suffix>' for a "
         "suffixed instance; a configured name is used as written."),
    Rule("MDB-17", MUST, f"{FEAT}, 多实例",
         "A database name over 63 bytes fails activation with a one-line ConfigError."),
    Rule("MDB-18", MUST, f"{FEAT}, 多实例",
         "Two instances on one database under the same literal uri (even with different message "
         "collections): the later one fails with a one-line ConfigError naming the holder, "
         "without connecting; closing the holder frees the database."),
    # -- ownership ------------------------------------------------------------------------------
    Rule("MDB-19", MUST, OWN,
         "With host paths, a new database (no owner record, no data anywhere) records its owner "
         "(real data directory path and instance) under aalis.data/owner."),
    Rule("MDB-20", MUST, OWN,
         "A database recorded for another data directory fails activation with a one-line "
         "ConfigError naming that directory and instance, and nothing is written."),
    Rule("MDB-21", MUST, OWN,
         "Ownership compares real paths: another spelling of the same directory (a symlink) is "
         "the same owner."),
    Rule("MDB-22", MUST, OWN,
         "A database holding data but no owner record fails activation unless claim_from is "
         "'unowned', which records this owner."),
    Rule("MDB-23", MUST, OWN,
         "A broken owner record (no data directory or instance) fails activation the same way; "
         "claim_from='unowned' rewrites it."),
    Rule("MDB-24", MUST, OWN,
         "claim_from=<previous data directory> moves the ownership to this data directory; "
         "afterwards the record names the new owner."),
    Rule("MDB-25", MUST, OWN,
         "Without host paths (embedded host, test fixture) no ownership record is read or "
         "written."),
    # -- lifecycle and logging ----------------------------------------------------------------
    Rule("MDB-26", MUST, f"{FEAT}, dispose",
         "Closing the store closes the MongoDB client."),
    Rule("MDB-27", MUST, f"{FEAT}, failure",
         "A connection or index-creation failure closes the client and raises the documented "
         "'MongoDB connection failed (check it runs and the uri setting)' text with the cause."),
    Rule("MDB-28", MUST, f"{FEAT}, apply (abort on deactivation)",
         "Cancelling an activation that is still connecting closes the client and frees the "
         "database."),
    Rule("MDB-29", MUST, f"{FEAT}, logging",
         "URIs written to logs hide the password (user:***@host), for mongodb+srv too; URIs "
         "without a password are logged unchanged."),
    # -- hardening (appended; issue: hostile input, concurrency, crashes) ----------------------
    Rule("MDB-30", MUST, f"{FEAT}, archiveSpan (同毫秒按写入序)",
         "Same-millisecond messages keep write order even when different clients (processes) "
         "write them in turns: the order is assigned by the server, not by a per-process id."),
    Rule("MDB-31", MUST, f"{FEAT}, listMetadata (本插件写入时总会带上这两个字段)",
         "Every metadata document the driver writes holds data as a BSON object and updatedAt "
         "as a BSON date (checked in the stored document, not through the API)."),
    Rule("MDB-32", MUST, f"{FEAT}, apply (停用或停机时关闭客户端,中止连接与建索引)",
         "Cancelling an activation while it builds indexes closes the client at once and frees "
         "the database; the next activation finds or builds every index."),
    Rule("MDB-33", MUST, f"{FEAT}, 多实例 (点名占用该库的实例)",
         "Database names differing only in case are one database (MongoDB refuses the second): "
         "the later instance fails with the one-line ConfigError naming the holder, without "
         "connecting."),
    Rule("MDB-34", SHOULD, f"{FEAT}, logging; {CFG}, uri (secret); this project's reading",
         "No text the driver produces (exception messages and their chained causes, reprs, log "
         "records, traceback arguments) shows the uri's password, however it is spelled. Why: "
         "the documents make the uri a secret and hide it in logs; an error message or a "
         "traceback lands in the same logs."),
    Rule("MDB-35", SHOULD, f"{FEAT}; this project's reading",
         "A message or metadata document over MongoDB's 16 MiB limit, or nested past what it "
         "stores, is refused with ValueError before anything of the call is sent. Why: an "
         "ordered bulk write split by the client would otherwise write the batches before it."),
)

OUT_OF_SCOPE = (
    OutOfScope(f"{DOC} §概述",
               "The plugin registers the memory service with priority 5; servicePreferences picks "
               "it over sqlite.",
               "Host service selection, not backend behaviour."),
    OutOfScope(f"{CFG}, uri",
               "The uri is kept in secrets.yaml and not echoed by the WebUI; a secret reference "
               "missing from secrets.yaml fails activation instead of using the default.",
               "Host configuration and secret resolution; the driver only receives a value "
               "(its repr hiding is MDB-05)."),
    OutOfScope(f"{FEAT}, failure",
               "When activation fails, another enabled memory plugin provides the service; list "
               "them in disabledPlugins to use MongoDB only.",
               "Host plugin fallback and configuration advice."),
    OutOfScope(OWN,
               "Ownership is checked only at activation; after a claim an instance still running "
               "on the old data directory is not told and both write.",
               "A stated limitation, nothing a backend can be tested for."),
    OutOfScope(OWN,
               "Paths mean something on one machine only: containers with identical data paths "
               "on one server need distinct database settings.",
               "Deployment advice; the rule it follows from is MDB-20."),
)
