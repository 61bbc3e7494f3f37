"""English renderings of the cited words, by the exact phrase they render.

Every citation of the catalogue shows its verbatim Chinese phrase with an English rendering beside
it (SPEC_MAP.md, ``explain``, failure messages, docs/contract.md). A phrase cited by several rules
has one rendering, kept here; :func:`aalis_memory.conformance.rules.rule.cite` looks it up and
refuses a phrase without one, so a new citation needs its English here (or passed to ``cite``).

A rendering says what the phrase says, in the context of its sentence, no more: words in
brackets are the context the clause leaves implicit.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

ENGLISH: Final[Mapping[str, str]] = MappingProxyType({
    # -- api-memory §概述 (overview) ------------------------------------------------------------
    "按 sessionId 检索历史": "retrieves history by sessionId",
    "保存每轮 Message": "saves each turn's Message",
    "提供结构化元数据 K/V 存储": "provides structured metadata key/value storage",
    # -- api-memory §核心方法 (core methods): signatures ----------------------------------------
    "saveMessage(sessionId: string, message: Message)":
        "saveMessage takes a session id string and a Message",
    "getHistory(sessionId: string, limit?: number)":
        "getHistory takes a session id and an optional limit",
    "clearSession(sessionId: string): Promise<void>;":
        "clearSession takes a session id and resolves to nothing",
    "excludeKinds?: string[],": "an optional list of kinds to exclude (of getMessagesBySessionRange)",
    "fromTs: number": "the range start is a number (of getMessagesBySessionRange)",
    "getMetadata(namespace: string, key: string)": "getMetadata takes a namespace and a key",
    "listMetadata(namespace: string): Promise<MetadataEntry[]>":
        "listMetadata takes a namespace and resolves to its MetadataEntry list",
    "deleteMetadata(namespace: string, key: string)": "deleteMetadata takes a namespace and a key",
    "data: Record<string, unknown>": "the data is a string-keyed object of any values",
    "commitMetadata(ops: readonly MetadataOp[])": "commitMetadata takes a list of metadata operations",
    # -- api-memory §核心方法: limits --------------------------------------------------------
    "条数是非负整数或 Infinity(调用方保证)":
        "a limit is a non-negative integer or Infinity (the caller guarantees it)",
    "为 0 时返回空(updateMessageContent 一条都不改)":
        "0 returns nothing (updateMessageContent changes none)",
    "为 Infinity 时返回全部": "Infinity returns everything",
    "跨会话查询照样收窄到后端配置的上限":
        "a cross-session query is still narrowed to the backend's configured cap",
    # -- api-memory §核心方法: getHistory, countHistory, getFullHistory ------------------------
    "最近 limit 条活跃(未归档)对话消息": "the latest limit active (not archived) conversation messages",
    "按时间升序(同毫秒按写入序)": "ascending by time (same millisecond: in write order)",
    "inmemory 只按写入序,假定时间戳随写入递增":
        "inmemory orders by write order only, assuming timestamps grow with writes",
    "条数只数对话消息": "the limit counts conversation messages only",
    "不占条数": "[control records] do not count toward the limit",
    "读出的是第 limit + 1 新的那条对话消息之后的全部活跃消息":
        "what is read is every active message after the (limit + 1)-th newest conversation message",
    "夹在其间的标记一并带回": "markers lying in between come back too",
    "对话消息不超过 limit 条时是全部活跃消息":
        "with at most limit conversation messages it is the whole active history",
    "事件标记也占条数": "event markers count toward the limit too",
    "活跃对话消息的条数": "the number of active conversation messages",
    "与 getHistory 按条数读同一口径": "counted the same way as getHistory's limit",
    "含已归档的完整历史": "the full history, archived messages included",
    "最近 limit 条,事件标记也占条数": "the latest limit messages, event markers counting too",
    "压缩分隔线这类事件标记": "event markers such as the compression divider",
    # -- api-memory §核心方法: archiveSpan ----------------------------------------------------
    "把最早的 count 条活跃消息": "[marks as archived] the earliest count active messages",
    "顺序与 getHistory 相同": "in the same order as getHistory",
    "keep 列出的位置(这一段里从 0 数的下标)不归档、原样留在活跃历史里":
        "positions listed in keep (0-based indexes within the span) are not archived and stay "
        "active, unchanged",
    "count 与 keep 按位置数,事件标记也占位置":
        "count and keep are positions, and event markers occupy positions too",
    "即 getHistory(sessionId, Infinity) 里的位置": "that is, positions in getHistory(sessionId, Infinity)",
    "count 为 0 时什么都不归档": "a count of 0 archives nothing",
    "大于活跃条数时这一段就是全部活跃消息":
        "[a count] above the number of active messages makes the span the whole active history",
    "keep 里落在这一段之外的下标不起作用": "keep indexes falling outside the span have no effect",
    "重复的下标与一个相同": "a repeated index is the same as one",
    "返回归档条数": "returns the number archived",
    "位置按调用这一刻的活跃历史算": "positions are taken from the active history at the moment of the call",
    "之后追加的新消息在这一段之外": "new messages appended afterwards are outside the span",
    "归档的消息不再进 getHistory": "archived messages no longer appear in getHistory",
    "按原来的顺序(留下的与归档的照时间交错)":
        "in the original order (kept and archived messages interleaved by time)",
    "sqlite 与 inmemory 全成或全不成": "sqlite and inmemory: all or nothing",
    "原子性按后端分档(与 commitMetadata 同一口径)":
        "atomicity is tiered by backend (the same tiers as commitMetadata)",
    "count 与 keep 的元素都是非负整数(调用方保证)":
        "count and the elements of keep are non-negative integers (the caller guarantees it)",
    "必填:压缩靠它落定,缺了没有降级可走":
        "required: compression is settled through it, and without it there is no fallback",
    "必填:压缩靠它落定": "required: compression is settled through it",
    # -- api-memory §压缩服务 (compression service) ---------------------------------------------
    "压缩把切分点之前的全部活跃历史压成一份摘要":
        "compression condenses all active history before the split point into one summary",
    "摘要模型挑出的原文原样留在活跃历史里":
        "original messages picked by the summary model stay in the active history unchanged",
    "摘要模型挑出的原文原样留在活跃历史里、接在摘要之后":
        "original messages picked by the summary model stay in the active history unchanged, right "
        "after the summary",
    "切分点之后到达的消息再接在它们后面": "messages that arrived after the split point follow them",
    "短对话也完整压一次": "even a short conversation is fully compressed once",
    "压成才落定": "it resolves only when the compression succeeded",
    "没压成时以原因拒绝(这个会话正在压缩": "when it did not, it rejects with the reason (this session is "
                                         "already compressing",
    "没压成时以原因拒绝": "when it did not, it rejects with the reason",
    "记忆或摘要模型不在": "the memory or the summary model is absent",
    "模型失败": "the model failed",
    "期间被清空或历史被改动": "[the session] was cleared or its history changed meanwhile",
    "没有可压的对话(历史为空、只剩分隔标记)时什么都不做":
        "with no conversation to compress (empty history, only divider markers left) it does nothing",
    "照常落定": "and resolves as usual",
    "不经这个方法": "[automatic compression] does not go through this method",
    "0 时为 undefined": "undefined when [the line] is 0",
    "没有出生平台的会话按它选平台档":
        "a session without a birth platform picks its platform tier by it",
    "只在真的开始压时报": "reported only when a compression really starts",
    "start 之后压成报 done、没压成报 error":
        "after start, done when it succeeded, error when it did not",
    "开始之前就失败的(记忆不在、读不出历史)不报":
        "failures before the start (memory absent, history unreadable) are not reported",
    "读不出历史": "the history cannot be read",
    # -- api-memory §触发判定 (trigger decision) -------------------------------------------------
    "compressAt 为正时是 min(compressAt × contextWindow, tokenBudget)":  # noqa: RUF001 (verbatim)
        "with compressAt positive it is min(compressAt * contextWindow, tokenBudget)",
    "压缩线写得比裁剪预算还高时以裁剪预算为准":
        "a compression line set above the trim budget gives way to the trim budget",
    "compressAt 缺省或为 0 时取 tokenBudget": "with compressAt absent or 0 it is tokenBudget",
    "compressionDue 是判定是否该压缩的纯函数":
        "compressionDue is the pure function deciding whether to compress",
    "两维任一到线即该压缩": "compress when either dimension reaches its line",
    "用量到 compressionLine": "usage reaches compressionLine",
    "或经过了硬裁剪(trimmed:到了丢内容的地步)":
        "or a hard trim happened (trimmed: content had to be dropped)",
    "且 compressible 至少是线的一半时该压缩":
        "and compress when compressible is at least half the line",
    "后一个条件就是回差": "the latter condition is the hysteresis",
    "token 默认不超过这次新压的对话的一成":
        "by default at most a tenth of the tokens of the conversation newly compressed",
    "compressAt 缺省或为 0 时这一维不判,经过了硬裁剪也一样":
        "with compressAt absent or 0 this dimension is not judged, even after a hard trim",
    "historyMessages(只数对话消息)到 historyLimit 时该压缩":
        "compress when historyMessages (conversation messages only) reaches historyLimit",
    "缺省或 0 不按条数判": "absent or 0: not judged by message count",
    "全量压缩之后只剩挑中的原文、切分点之后的几条与分隔标记":
        "after a full compression only the picked originals, the few after the split point and the "
        "divider marker remain",
    "挑中的原文只留到它与切分点之后的对话消息合计不超过条数线的一半(向下取整)为止":
        "picked originals are kept only while they and the conversation messages after the split "
        "point total at most half the count line (rounded down)",
    # -- api-memory §钩子与贡献点 (hooks and contribution points) --------------------------------
    "清消息历史的发起方": "those who start clearing a message history",
    "clearAll 只清消息与归档、不清元数据": "clearAll clears messages and archives only, not metadata",
    "这次清了消息历史(没指定类型或类型含 context)":
        "this clearing cleared the message history (no types given, or the types include context)",
    "且结果里消息历史的各行(type 为 context)都清成了":
        "and every message-history row of the results (type context) succeeded",
    "消息历史没清成就不动": "if the message history was not cleared, do nothing",
    "要挂这个中间件按 scope 与 types 清理自己的命名空间":
        "must hook this middleware to clear their own namespaces by scope and types",
    "处理某个清理类型的插件经贡献点 memory:clear-type 登记它":
        "a plugin handling a clear type registers it via the memory:clear-type contribution point",
    "并在各行标注它,成败都标": "and labels each of its rows with it, on success and on failure",
    "成败都标": "labelled on success and on failure",
    "/clear 只认登记了的类型": "/clear only accepts registered types",
    "同一类型几家登记时显示名取收集次序里第一家的":
        "when several register one type, the display name is the first in collection order",
    "并据结果行判断显式指定的类型有没有处理者":
        "and tells from the result rows whether an explicitly given type has a handler",
    "它在一次 commitMetadata 里删掉这些命名空间的全部条目":
        "it deletes every entry of these namespaces in one commitMetadata",
    "返回各命名空间删掉的键(与传入顺序相同)":
        "returns the keys deleted per namespace (in the order passed)",
    "listMetadata 会跳过读不出的条目(数据损坏、不是对象)":
        "listMetadata skips unreadable entries (corrupt data, not an object)",
    "后端实现了只列键的 listMetadataKeys 时": "when the backend implements the keys-only listMetadataKeys",
    "读不出的条目一并删除": "unreadable entries are deleted too",
    "读不出的条目一并删除、计入返回的键":
        "unreadable entries are deleted too and counted in the keys returned",
    "并经 logger 记一条 info 点名(namespace/key,超过 10 条只列前 10 条)":
        "and one info line is logged naming them (namespace/key, only the first 10 past 10)",
    "后端没有实现时退回 listMetadata,读不出的条目留在库里":
        "without it, it falls back to listMetadata and unreadable entries stay stored",
    # -- api-memory §记忆变更事件 (memory change events) ------------------------------------------
    "落库之后动了已有消息的一方发通知":
        "whoever changes already-stored messages sends the notification",
    "会话历史发生结构性变化": "the session history changed structurally",
    "某会话的若干消息被按时间戳删除(回滚)": "some messages of a session were deleted by timestamp (rollback)",
    "某会话的若干消息被按时间戳删除(回滚),由动手的检查点发":
        "some messages of a session were deleted by timestamp (rollback); sent by the checkpoint "
        "that did it",
    "由改写的一方在改写成功后发": "sent by the rewriter after the rewrite succeeded",
    "messages 是改写后的整条(时间戳不变)": "messages are the whole rewritten messages (timestamps unchanged)",
    "会话服务据此通知订阅的客户端重新取快照":
        "the session service then tells subscribed clients to fetch a new snapshot",
    # -- plugin-memory-mongodb §配置 (configuration) ---------------------------------------------
    "'mongodb://localhost:27017'": "[uri defaults to] 'mongodb://localhost:27017'",
    "'messages'集合名": "[collection defaults to] 'messages': the collection name",
    "5000连接超时(毫秒)": "[connectTimeoutMs defaults to] 5000: connection timeout (milliseconds)",
    "500范围查询返回上限": "[rangeQueryLimit defaults to] 500: the range query cap",
    "1000跨会话查询返回上限": "[crossSessionMaxLimit defaults to] 1000: the cross-session query cap",
    "建立连接与服务器选择(serverSelection)的超时时间,两者共用此值":
        "the timeout of connecting and of server selection: both use this value",
    "连接串可能带账号密码": "the connection string may carry a user name and password",
    "单次返回的最大条数": "the most messages one call returns",
    "命中上限会静默截断": "hitting the cap truncates silently",
    "调用方请求超过此值会被收窄到此上限": "a caller asking for more is narrowed to this cap",
    # -- plugin-memory-mongodb §特性 (features) --------------------------------------------------
    "在消息集合上创建 { sessionId: 1, timestamp: 1 }":
        "creates { sessionId: 1, timestamp: 1 } on the message collection",
    "{ archived: 1, timestamp: -1 }": "[and] { archived: 1, timestamp: -1 }",
    "{ 'metadata.platform': 1, timestamp: -1 } 三个索引":
        "[and] { 'metadata.platform': 1, timestamp: -1 }: three indexes",
    "结构化元数据存放在同库固定名为 metadata 的集合中":
        "structured metadata is stored in the same database, in a collection always named metadata",
    "并建有 { namespace: 1, key: 1 } 唯一索引": "with a unique index { namespace: 1, key: 1 }",
    "其中 clearAll 只清空消息集合": "of which clearAll empties the message collection only",
    "getHistory 的条数与 countHistory 只数对话消息":
        "getHistory's limit and countHistory count conversation messages only",
    "getHistory 先找到第 N+1 新的那条对话消息":
        "getHistory first finds the (N+1)-th newest conversation message",
    "getMessagesBySessionRange 受 rangeQueryLimit 限制":
        "getMessagesBySessionRange is capped by rangeQueryLimit",
    "getRecentMessagesAcrossSessions 受 crossSessionMaxLimit 限制":
        "getRecentMessagesAcrossSessions is capped by crossSessionMaxLimit",
    "其中调用方列出的位置不归档,不删除":
        "of which the positions the caller lists are not archived; nothing is deleted",
    "与 getHistory 同按 timestamp、_id 排序": "sorted by timestamp, then _id, like getHistory",
    "同毫秒按写入序": "same millisecond: in write order",
    "一次 updateMany,不是事务": "one updateMany, not a transaction",
    "commitMetadata 用有序 bulkWrite 批量写入": "commitMetadata writes with one ordered bulkWrite",
    "遇错即停,失败点之前的写已生效":
        "it stops at the first error; the writes before the failure stay applied",
    "data 不是对象的文档跳过并记一条 warn,点名命名空间与键":
        "a document whose data is not an object is skipped with one warn naming namespace and key",
    "缺少 updatedAt 或它不是日期的文档照常返回,updatedAt 记为 0":
        "a document lacking updatedAt, or with a non-date one, is returned as usual with updatedAt 0",
    "本插件写入时总会带上这两个字段": "this plugin always writes both fields",
    "listMetadataKeys 只取键、不读 data,跳过的文档也在其中":
        "listMetadataKeys takes keys only, reads no data, and includes the skipped documents",
    "database 留空时按数据目录与实例派生":
        "an empty database is derived from the data directory and instance",
    "配置里写明的库名照用": "a database name written in the configuration is used as is",
    "库名超过 MongoDB 63 字节的上限时激活失败":
        "a database name over MongoDB's 63-byte limit fails activation",
    "即使 collection 不同也算共用": "counts as shared even with different collections",
    "点名占用该库的实例,不发起连接": "naming the instance holding that database, without connecting",
    "点名占用该库的实例": "naming the instance holding that database",
    "新库(没有记录、任何集合里也没有数据)直接记下本数据目录":
        "a new database (no record, no data in any collection) records this data directory at once",
    "点名库归属的数据目录与实例,不会共写":
        "naming the data directory and instance owning the database; they never write together",
    "归属按数据目录的真实路径认": "ownership goes by the data directory's real path",
    "库里已有数据却没有记录时不默认认走,要写 claimFrom: unowned":
        "a database with data but no record is not claimed by default: write claimFrom: unowned",
    "记录坏了(缺数据目录或实例)时同样报错":
        "a broken record (missing data directory or instance) is an error too",
    "再在配置里写 claimFrom: <原数据目录> 启动一次认领":
        "then write claimFrom: <old data directory> in the configuration and start once to claim it",
    "宿主不提供 host-paths(嵌入式宿主、测试夹具)时不做这项检查":
        "without host-paths from the host (embedded hosts, test fixtures) this check is skipped",
    "dispose 时关闭 MongoDB 连接": "dispose closes the MongoDB connection",
    "连接或建索引失败时关闭客户端": "a failure to connect or to create indexes closes the client",
    "停用或停机时关闭客户端,中止连接与建索引":
        "disabling or shutting down closes the client, aborting connecting and index creation",
    "日志中打印的 URI 会隐去密码段": "URIs printed in logs hide the password",
})

__all__ = ["ENGLISH"]
