"""Rules for the metadata key/value store and batched commits (api-memory §核心方法 and the
clearing helpers of §钩子与贡献点, which rely on what the store lists and deletes)."""

from aalis_memory.conformance.rules.rule import cite, must, ordered, should

API_DOC = "api-memory"
MONGODB_DOC = "plugin-memory-mongodb"
CORE = "核心方法"
HOOK = "钩子与贡献点"
METADATA_STORE = cite(API_DOC, "概述", "提供结构化元数据 K/V 存储")

RULES = (
    must(
        "META-01",
        "save_metadata then get_metadata returns the saved object, whatever JSON object it is "
        "(nested objects and lists, an empty object, unicode, keys holding '.' or starting with "
        "'$'); a missing key reads as None, and the same key in another namespace is a "
        "separate entry.",
        METADATA_STORE,
        cite(API_DOC, CORE, "getMetadata(namespace: string, key: string)"),
        subjects={"get_metadata", "save_metadata"},
        machine=True,
    ),
    must(
        "META-02",
        "list_metadata returns the namespace's entries (key, data, updated_at) and nothing from "
        "other namespaces.",
        METADATA_STORE,
        cite(API_DOC, CORE, "listMetadata(namespace: string): Promise<MetadataEntry[]>"),
        subjects={"list_metadata"},
        machine=True,
    ),
    must(
        "META-03",
        "delete_metadata removes that one entry and leaves the namespace's other entries.",
        METADATA_STORE,
        cite(API_DOC, CORE, "deleteMetadata(namespace: string, key: string)"),
        subjects={"delete_metadata"},
        machine=True,
    ),
    ordered(
        should(
            "META-04",
            "list_metadata is sorted by key.",
            point="the order of list_metadata",
            argument="an order callers can rely on makes listings comparable across calls and "
            "backends; key order is what the upstream drivers give",
            subjects={"list_metadata"},
            machine=True,
        )
    ),
    should(
        "META-05",
        "updated_at is integer epoch milliseconds taken at write time and grows on every overwrite.",
        point="the unit and meaning of updated_at",
        argument="message timestamps are epoch milliseconds, so the same unit lets callers "
        "compare them, and only a value that grows on overwrite is an update time",
        subjects={"commit_metadata", "list_metadata", "save_metadata"},
        machine=True,
    ),
    should(
        "META-06",
        "Stored data is isolated: mutating the object passed in or the object returned changes "
        "nothing stored.",
        point="whether stored data is shared with the caller",
        argument="a database never lets a later mutation of the caller's object change what it "
        "stored, so a backend that keeps objects in memory must not either",
        subjects={"get_metadata", "save_metadata"},
        machine=True,
    ),
    should(
        "META-07",
        "Values JSON writes alike come back as a JSON round trip reads them: a tuple comes "
        "back as a list, and a whole-valued float as a number of the same value (2.0 or 2).",
        point="the Python types of values a JSON round trip cannot tell apart",
        argument="data is a JSON object in a TypeScript contract: a backend that keeps Python "
        "objects would hand back tuples where a JSON store hands back lists, and a "
        "language with one number type cannot keep 2.0 apart from 2",
        cites=(cite(API_DOC, CORE, "data: Record<string, unknown>"),),
        subjects={"get_metadata", "save_metadata"},
        machine=True,
    ),
    should(
        "META-08",
        "Data that is not JSON-serializable raises TypeError or ValueError: save_metadata "
        "stores nothing, and commit_metadata refuses a batch holding such a put.",
        point="data that JSON cannot carry",
        argument="storing it would fail later on read or change it silently; a typed error at "
        "the call keeps the store readable",
        subjects={"commit_metadata", "save_metadata"},
        machine=True,
    ),
    must(
        "META-09",
        "list_metadata skips entries it cannot read (corrupt, or data that is not an object) "
        "instead of raising.",
        cite(API_DOC, HOOK, "listMetadata 会跳过读不出的条目(数据损坏、不是对象)"),
        subjects={"list_metadata"},
        machine=True,
    ),
    must(
        "META-10",
        "list_metadata_keys lists every key of the namespace, unreadable entries included.",
        cite(API_DOC, HOOK, "后端实现了只列键的 listMetadataKeys 时"),
        cite(API_DOC, HOOK, "读不出的条目一并删除"),
        subjects={"list_metadata_keys"},
        machine=True,
    ),
    should(
        "META-11",
        "delete_metadata of a key that is not stored is a silent no-op, not an error.",
        point="deleting a key that is not stored",
        argument="a deletion states the wanted end; two plugins clearing one key would "
        "otherwise fail for nothing, and a del of a missing key in a batch is ignored",
        subjects={"delete_metadata"},
        machine=True,
    ),
    must(
        "COMMIT-01",
        "commit_metadata applies its put and del operations in order: put overwrites, a later op "
        "on the same key wins.",
        METADATA_STORE,
        cite(API_DOC, CORE, "commitMetadata(ops: readonly MetadataOp[])"),
        subjects={"commit_metadata"},
        machine=True,
    ),
    must(
        "COMMIT-02",
        "One batch may touch several namespaces.",
        cite(API_DOC, HOOK, "它在一次 commitMetadata 里删掉这些命名空间的全部条目"),
        subjects={"commit_metadata"},
        machine=True,
    ),
    should(
        "COMMIT-03",
        "An empty batch is a no-op, and deleting a missing key inside a batch is ignored.",
        point="an empty batch, and a del of a key that is not stored",
        argument="clearing an empty namespace builds an empty batch, and a key may go between "
        "listing and deleting: neither is worth failing a clear for",
        subjects={"commit_metadata"},
        machine=True,
    ),
    must(
        "COMMIT-04",
        "A driver declaring metadata_atomicity='atomic' applies a batch whole or not at all: "
        "when commit_metadata raises, whatever the error, no op of the batch has been applied "
        "and every entry is as it was.",
        cite(API_DOC, CORE, "原子性按后端分档(与 commitMetadata 同一口径)"),
        cite(API_DOC, CORE, "sqlite 与 inmemory 全成或全不成"),
        subjects={"commit_metadata"},
        machine=True,
    ),
    must(
        "COMMIT-05",
        "A driver declaring metadata_atomicity='atomic' never lets a concurrent reader see part of a batch.",
        cite(API_DOC, CORE, "原子性按后端分档(与 commitMetadata 同一口径)"),
        cite(API_DOC, CORE, "sqlite 与 inmemory 全成或全不成"),
        subjects={"commit_metadata"},
        machine=True,
    ),
    must(
        "COMMIT-06",
        "A del in a batch removes an entry even when its stored data is unreadable: keys listed "
        "by list_metadata_keys can be deleted in one commit.",
        cite(API_DOC, HOOK, "读不出的条目一并删除"),
        subjects={"commit_metadata"},
        machine=True,
    ),
    should(
        "COMMIT-07",
        "A driver of the ordered tier checks every payload before writing too: a batch holding "
        "one that cannot be serialized raises TypeError or ValueError and applies nothing.",
        point="whether an ordered, non-transactional batch may write the ops before a payload "
        "that cannot be serialized",
        argument="the ordered tier stops at a storage error, but a payload that cannot be "
        "encoded is a caller bug known before anything is sent",
        cites=(cite(MONGODB_DOC, "特性", "遇错即停,失败点之前的写已生效"),),
        subjects={"commit_metadata"},
        machine=True,
    ),
)
