"""Rules for the metadata key/value store and batched commits (api-memory.zh.md, 核心方法 and the
clearing section; READING_NOTES #11)."""

from aalis_memory.conformance.rules.rule import MUST, SHOULD, Rule

API = "api-memory §核心方法"
NOTES = "READING_NOTES"

RULES = (
    Rule("META-01", MUST, f"{API}, metadata",
         "save_metadata then get_metadata returns the saved object; a missing key reads as None, "
         "and the same key in another namespace is a separate entry."),
    Rule("META-02", MUST, f"{API}, metadata",
         "list_metadata returns the namespace's entries (key, data, updated_at) and nothing from "
         "other namespaces."),
    Rule("META-03", MUST, f"{API}, metadata",
         "delete_metadata removes that one entry and leaves the namespace's other entries."),
    Rule("META-04", SHOULD, f"{NOTES} #11",
         "list_metadata is sorted by key."),
    Rule("META-05", SHOULD, f"{NOTES} #11",
         "updated_at is integer epoch milliseconds taken at write time and grows on every "
         "overwrite."),
    Rule("META-06", SHOULD, f"{NOTES} #11",
         "Stored data is isolated: mutating the object passed in or the object returned changes "
         "nothing stored."),
    Rule("META-07", SHOULD, f"{NOTES} #11",
         "Data round-trips as JSON: nested objects, lists, unicode, keys with '.' or a leading '$'."),
    Rule("META-08", SHOULD, f"{NOTES} #11",
         "save_metadata with data that is not JSON-serializable raises TypeError or ValueError and "
         "stores nothing."),
    Rule("META-09", MUST, "api-memory §钩子与贡献点 (listMetadata skips)",
         "list_metadata skips entries it cannot read (corrupt, or data that is not an object) "
         "instead of raising."),
    Rule("META-10", MUST, "api-memory §钩子与贡献点 (listMetadataKeys)",
         "list_metadata_keys lists every key of the namespace, unreadable entries included."),
    Rule("META-11", SHOULD, f"{NOTES} #11; upstream MetadataOp",
         "delete_metadata of a key that is not stored is a silent no-op, not an error."),
    Rule("COMMIT-01", MUST, f"{API}, commitMetadata",
         "commit_metadata applies its put and del operations in order: put overwrites, a later op "
         "on the same key wins."),
    Rule("COMMIT-02", MUST, "api-memory §钩子与贡献点 (clearMetadataNamespaces: one commit)",
         "One batch may touch several namespaces."),
    Rule("COMMIT-03", SHOULD, f"{NOTES} #11",
         "An empty batch is a no-op, and deleting a missing key inside a batch is ignored."),
    Rule("COMMIT-04", MUST, f"{NOTES} #11; tiers table",
         "A batch with a payload that cannot be serialized, anywhere in it, raises TypeError or "
         "ValueError and applies nothing, in every tier."),
    Rule("COMMIT-05", MUST, f"{API}, archiveSpan atomicity (same tiers); {NOTES} tiers table",
         "A driver declaring metadata_atomicity='atomic' never lets a concurrent reader see part "
         "of a batch."),
    Rule("COMMIT-06", MUST, "api-memory §钩子与贡献点 (clearMetadataNamespaces)",
         "A del in a batch removes an entry even when its stored data is unreadable: keys listed "
         "by list_metadata_keys can be deleted in one commit."),
)
