"""Rules of the MongoDB reference backend (plugin-memory-mongodb.zh.md).

They bind the ``mongodb`` driver of this kit (its configuration, storage layout, activation and
logging); the storage contract it shares with every backend is in ``messages`` and ``metadata``.
The document's two caps also bind any backend that has such a cap (RANGE-01, CROSS-01).
"""

from aalis_memory.conformance.rules.rule import (
    MONGODB_DRIVER,
    OutOfScope,
    Rule,
    cite,
    must,
    ordered,
    should,
)
from aalis_memory.defaults import (
    DEFAULT_CROSS_SESSION_MAX_LIMIT,
    DEFAULT_RANGE_QUERY_LIMIT,
)

DOC = "plugin-memory-mongodb"
CFG = f"{DOC} §配置"
FEAT = f"{DOC} §特性"
OWN = f"{DOC} §特性, 库的归属"


def mdb(rule_id: str, summary: str, *phrases: str, section: str = "特性") -> Rule:
    """A rule the MongoDB document states for its own plugin."""
    return must(rule_id, summary, *(cite(DOC, section, p) for p in phrases), binds=MONGODB_DRIVER)


RULES = (
    # -- configuration ------------------------------------------------------------------------
    mdb(
        "MDB-01",
        "Settings and defaults: uri mongodb://localhost:27017, database empty (derived), "
        "claim_from empty, collection 'messages', connect_timeout_ms 5000, range_query_limit "
        f"{DEFAULT_RANGE_QUERY_LIMIT}, cross_session_max_limit {DEFAULT_CROSS_SESSION_MAX_LIMIT}.",
        "'mongodb://localhost:27017'",
        "'messages'集合名",
        "5000连接超时(毫秒)",
        "500范围查询返回上限",
        "1000跨会话查询返回上限",
        section="配置",
    ),
    mdb(
        "MDB-02",
        "connect_timeout_ms is used both as the connect timeout and as the server-selection timeout.",
        "建立连接与服务器选择(serverSelection)的超时时间,两者共用此值",
        section="配置",
    ),
    mdb(
        "MDB-03",
        "The configured caps are the ones the reads obey: range reads are cut silently, "
        "cross-session reads asking for more are narrowed.",
        "getMessagesBySessionRange 受 rangeQueryLimit 限制",
        "getRecentMessagesAcrossSessions 受 crossSessionMaxLimit 限制",
    ),
    should(
        "MDB-04",
        "A setting of the wrong type or out of range (non-positive caps, empty uri, a message "
        "collection named like the metadata one) raises ConfigError before any connection.",
        point="settings of the wrong type or range",
        argument="a bad setting caught at activation names the field; caught at the first query "
        "it looks like a database fault",
        binds=MONGODB_DRIVER,
    ),
    should(
        "MDB-05",
        "The uri is a secret: the configuration's repr never shows its password.",
        point="whether the configuration's repr may show the uri",
        argument="the uri may carry a password and is kept as a secret the WebUI never echoes; "
        "a repr ends up in logs and tracebacks all the same",
        cites=(cite(DOC, "配置", "连接串可能带账号密码"),),
        binds=MONGODB_DRIVER,
    ),
    # -- storage layout -----------------------------------------------------------------------
    mdb(
        "MDB-06",
        "The message collection gets three indexes: sessionId+timestamp, archived+timestamp "
        "(descending) and metadata.platform+timestamp (descending).",
        "在消息集合上创建 { sessionId: 1, timestamp: 1 }",
        "{ archived: 1, timestamp: -1 }",
        "{ 'metadata.platform': 1, timestamp: -1 } 三个索引",
    ),
    mdb(
        "MDB-07",
        "Metadata lives in a collection always called 'metadata' in the same database, whatever "
        "the message collection is called, with a unique namespace+key index.",
        "结构化元数据存放在同库固定名为 metadata 的集合中",
        "并建有 { namespace: 1, key: 1 } 唯一索引",
    ),
    mdb(
        "MDB-08",
        "clear_all empties the message collection only; the metadata collection keeps every document.",
        "其中 clearAll 只清空消息集合",
    ),
    mdb(
        "MDB-09",
        "The history limit and count_history consider conversation messages only; the history "
        "is everything after the (N+1)-th newest conversation message.",
        "getHistory 的条数与 countHistory 只数对话消息",
        "getHistory 先找到第 N+1 新的那条对话消息",
    ),
    ordered(
        mdb(
            "MDB-10",
            "History and archive_span share one order (timestamp, then insertion id, so one "
            "millisecond keeps write order); archiving flags messages and never deletes them.",
            "与 getHistory 同按 timestamp、_id 排序",
            "其中调用方列出的位置不归档,不删除",
        )
    ),
    mdb(
        "MDB-11",
        "archive_span is a single multi-document update, not a transaction: the driver declares "
        "archive_atomicity='partial'.",
        "一次 updateMany,不是事务",
    ),
    mdb(
        "MDB-12",
        "commit_metadata is one ordered bulk write, not a transaction: it stops at the first "
        "failing operation and the operations before it stay written.",
        "commitMetadata 用有序 bulkWrite 批量写入",
        "遇错即停,失败点之前的写已生效",
    ),
    mdb(
        "MDB-13",
        "list_metadata skips a document whose data is not an object and logs one warning that "
        "names its namespace and key.",
        "data 不是对象的文档跳过并记一条 warn,点名命名空间与键",
    ),
    mdb(
        "MDB-14",
        "A document whose updatedAt is missing or not a date is still listed, with updated_at 0.",
        "缺少 updatedAt 或它不是日期的文档照常返回,updatedAt 记为 0",
    ),
    mdb(
        "MDB-15",
        "list_metadata_keys reads keys only, so documents list_metadata skips are included.",
        "listMetadataKeys 只取键、不读 data,跳过的文档也在其中",
    ),
    # -- instances and database names ---------------------------------------------------------
    mdb(
        "MDB-16",
        "An empty database setting is derived: 'aalis' for the main data directory, "
        "'aalis_<profile>' for a profile directory, plus '-<suffix>' or '_<suffix>' for a "
        "suffixed instance; a configured name is used as written.",
        "database 留空时按数据目录与实例派生",
        "配置里写明的库名照用",
    ),
    mdb(
        "MDB-17",
        "A database name over 63 bytes fails activation with a one-line ConfigError.",
        "库名超过 MongoDB 63 字节的上限时激活失败",
    ),
    mdb(
        "MDB-18",
        "Two instances on one database under the same literal uri (even with different message "
        "collections): the later one fails with a one-line ConfigError naming the holder, "
        "without connecting; closing the holder frees the database.",
        "即使 collection 不同也算共用",
        "点名占用该库的实例,不发起连接",
    ),
    # -- ownership ------------------------------------------------------------------------------
    mdb(
        "MDB-19",
        "With host paths, a new database (no owner record, no data anywhere) records its owner "
        "(real data directory path and instance) under aalis.data/owner.",
        "新库(没有记录、任何集合里也没有数据)直接记下本数据目录",
    ),
    mdb(
        "MDB-20",
        "A database recorded for another data directory fails activation with a one-line "
        "ConfigError naming that directory and instance, and nothing is written.",
        "点名库归属的数据目录与实例,不会共写",
    ),
    mdb(
        "MDB-21",
        "Ownership compares real paths: another spelling of the same directory (a symlink) is "
        "the same owner.",
        "归属按数据目录的真实路径认",
    ),
    mdb(
        "MDB-22",
        "A database holding data but no owner record fails activation unless claim_from is "
        "'unowned', which records this owner.",
        "库里已有数据却没有记录时不默认认走,要写 claimFrom: unowned",
    ),
    mdb(
        "MDB-23",
        "A broken owner record (no data directory or instance) fails activation the same way; "
        "claim_from='unowned' rewrites it.",
        "记录坏了(缺数据目录或实例)时同样报错",
    ),
    mdb(
        "MDB-24",
        "claim_from=<previous data directory> moves the ownership to this data directory; "
        "afterwards the record names the new owner.",
        "再在配置里写 claimFrom: <原数据目录> 启动一次认领",
    ),
    mdb(
        "MDB-25",
        "Without host paths (embedded host, test fixture) no ownership record is read or written.",
        "宿主不提供 host-paths(嵌入式宿主、测试夹具)时不做这项检查",
    ),
    # -- lifecycle and logging ----------------------------------------------------------------
    mdb("MDB-26", "Closing the store closes the MongoDB client.", "dispose 时关闭 MongoDB 连接"),
    mdb(
        "MDB-27",
        "A connection or index-creation failure closes the client and raises the documented "
        "'MongoDB connection failed (check it runs and the uri setting)' text with the cause.",
        "连接或建索引失败时关闭客户端",
    ),
    mdb(
        "MDB-28",
        "Cancelling an activation that is still connecting closes the client and frees the database.",
        "停用或停机时关闭客户端,中止连接与建索引",
    ),
    mdb(
        "MDB-29",
        "URIs written to logs hide the password (user:***@host), for mongodb+srv too; URIs "
        "without a password are logged unchanged.",
        "日志中打印的 URI 会隐去密码段",
    ),
    # -- hardening: hostile input, concurrency, crashes -----------------------------------------
    ordered(
        mdb(
            "MDB-30",
            "Same-millisecond messages keep write order even when different clients (processes) "
            "write them in turns: the order is assigned by the server, not by a per-process id.",
            "同毫秒按写入序",
        )
    ),
    mdb(
        "MDB-31",
        "Every metadata document the driver writes holds data as a BSON object and updatedAt as "
        "a BSON date (checked in the stored document, not through the API).",
        "本插件写入时总会带上这两个字段",
    ),
    mdb(
        "MDB-32",
        "Cancelling an activation while it builds indexes closes the client at once and frees "
        "the database; the next activation finds or builds every index.",
        "停用或停机时关闭客户端,中止连接与建索引",
    ),
    mdb(
        "MDB-33",
        "Database names differing only in case are one database (MongoDB refuses the second): "
        "the later instance fails with the one-line ConfigError naming the holder, without "
        "connecting.",
        "点名占用该库的实例",
    ),
    should(
        "MDB-34",
        "No text the driver produces (exception messages and their chained causes, reprs, log "
        "records, traceback arguments) shows the uri's password, however it is spelled.",
        point="whether errors, reprs and tracebacks may show the uri",
        argument="the documents make the uri a secret and hide it in logs; an error message "
        "or a traceback lands in the same logs",
        cites=(cite(DOC, "特性", "日志中打印的 URI 会隐去密码段"),),
        binds=MONGODB_DRIVER,
    ),
    should(
        "MDB-35",
        "A message or metadata document over MongoDB's 16 MiB limit, or nested past what it "
        "stores, is refused with ValueError before anything of the call is sent.",
        point="documents MongoDB cannot store",
        argument="an ordered bulk write split by the client would otherwise write the batches before it",
        binds=MONGODB_DRIVER,
    ),
)

OUT_OF_SCOPE = (
    OutOfScope(
        f"{DOC} §概述",
        "The plugin registers the memory service with priority 5; servicePreferences picks it over sqlite.",
        "Host service selection, not backend behaviour.",
    ),
    OutOfScope(
        f"{CFG}, uri",
        "The uri is kept in secrets.yaml and not echoed by the WebUI; a secret reference "
        "missing from secrets.yaml fails activation instead of using the default.",
        "Host configuration and secret resolution; the driver only receives a value "
        "(its repr hiding is MDB-05).",
    ),
    OutOfScope(
        f"{FEAT}, failure",
        "When activation fails, another enabled memory plugin provides the service; list "
        "them in disabledPlugins to use MongoDB only.",
        "Host plugin fallback and configuration advice.",
    ),
    OutOfScope(
        OWN,
        "Ownership is checked only at activation; after a claim an instance still running "
        "on the old data directory is not told and both write.",
        "A stated limitation, nothing a backend can be tested for.",
    ),
    OutOfScope(
        OWN,
        "Paths mean something on one machine only: containers with identical data paths "
        "on one server need distinct database settings.",
        "Deployment advice; the rule it follows from is MDB-20.",
    ),
)
