"""Rules for the ``memory:clear`` helpers: history_cleared, clear_metadata_namespaces and the
clear-type registry (api-memory.zh.md §钩子与贡献点; READING_NOTES #13)."""

from aalis_memory.conformance.rules.rule import MUST, SHOULD, Rule

HOOK = "api-memory §钩子与贡献点"
KIT = "kit choice (document silent)"

RULES = (
    # -- history_cleared (pure) ------------------------------------------------------------
    Rule("CLR-01", MUST, f"{HOOK}, historyCleared",
         "history_cleared is False when explicit types leave out 'context'."),
    Rule("CLR-02", MUST, f"{HOOK}, historyCleared",
         "history_cleared is False when any result row of type 'context' failed, and True when "
         "types are absent or include 'context' and every such row succeeded."),
    Rule("CLR-03", SHOULD, "READING_NOTES #13; kit extends it to absent types",
         "history_cleared is False when no result row of type 'context' exists: nothing reported "
         "the history cleared, so dependants must not act."),
    # -- clear_metadata_namespaces (runs against every driver) ------------------------------
    Rule("CLR-04", MUST, f"{HOOK}, clearMetadataNamespaces",
         "clear_metadata_namespaces deletes every readable entry of the given namespaces in a "
         "single commit_metadata and leaves other namespaces alone."),
    Rule("CLR-05", MUST, f"{HOOK}, clearMetadataNamespaces",
         "It returns the deleted keys of each namespace, namespaces in the order they were "
         "passed (an empty namespace maps to no keys)."),
    Rule("CLR-06", MUST, f"{HOOK}, clearMetadataNamespaces with listMetadataKeys",
         "When the store has list_metadata_keys, unreadable entries are deleted too and counted "
         "among the returned keys."),
    Rule("CLR-07", MUST, f"{HOOK}, clearMetadataNamespaces with listMetadataKeys",
         "Deleting unreadable entries logs exactly one info line naming them as namespace/key: "
         "the first 10, then how many more."),
    Rule("CLR-08", MUST, f"{HOOK}, clearMetadataNamespaces without listMetadataKeys",
         "Without list_metadata_keys it falls back to list_metadata: readable entries go, "
         "unreadable entries stay and are neither returned nor logged."),
    Rule("CLR-09", SHOULD, f"{KIT}; brief standards",
         "A namespaces argument that is a single string or holds non-strings raises TypeError "
         "before anything is read or deleted."),
    # -- clear types (pure) ----------------------------------------------------------------
    Rule("CLR-10", MUST, f"{HOOK}, memory:clear-type",
         "A requested clear type counts as handled only when some result row names it, "
         "successful or not."),
    Rule("CLR-11", MUST, f"{HOOK}, memory:clear-type",
         "When several plugins register one clear type, its label is the first registrant's "
         "in collection order; unregistered types are reported as unknown."),
)
