"""Rules for ``memory:clear``: the helpers (history_cleared, clear_metadata_namespaces, the
clear-type registry) and what a plugin keeping data in metadata owes the hook (api-memory
§钩子与贡献点)."""

from collections.abc import Iterable

from aalis_memory.conformance.rules.rule import (
    HELPERS,
    METADATA_KEEPERS,
    PROVIDERS,
    Binds,
    Rule,
    cite,
    must,
    ordered,
    should,
)

API_DOC = "api-memory"
HOOK = "钩子与贡献点"
BY_SCOPE_AND_TYPES = "要挂这个中间件按 scope 与 types 清理自己的命名空间"
#: The subjects of a rule about the clearing helper, kit code run over the store: no store
#: method is judged, so every store call the helper makes is a step.
OVER_THE_STORE: tuple[str, ...] = ()


def hook(
    rule_id: str, summary: str, *phrases: str, binds: Binds = HELPERS, subjects: Iterable[str] | None = None
) -> Rule:
    """A rule §钩子与贡献点 states."""
    return must(rule_id, summary, *(cite(API_DOC, HOOK, p) for p in phrases), binds=binds, subjects=subjects)


RULES = (
    # -- history_cleared (pure) ------------------------------------------------------------
    hook(
        "CLR-01",
        "history_cleared is False when explicit types leave out 'context'.",
        "这次清了消息历史(没指定类型或类型含 context)",
    ),
    hook(
        "CLR-02",
        "history_cleared is False when any result row of type 'context' failed, and True when "
        "types are absent or include 'context' and every such row succeeded.",
        "且结果里消息历史的各行(type 为 context)都清成了",
        "消息历史没清成就不动",
    ),
    should(
        "CLR-03",
        "history_cleared is False when no result row of type 'context' exists: nothing reported "
        "the history cleared, so dependants must not act.",
        point="history_cleared when no result row reports on the history",
        argument="'every context row succeeded' holds vacuously with no rows, yet nobody said the "
        "history went; deleting sub-sessions on that guess loses data",
        cites=(cite(API_DOC, HOOK, "消息历史没清成就不动"),),
        binds=HELPERS,
    ),
    # -- clear_metadata_namespaces (runs against every driver) ------------------------------
    hook(
        "CLR-04",
        "clear_metadata_namespaces deletes every readable entry of the given namespaces in a "
        "single commit_metadata and leaves other namespaces alone.",
        "它在一次 commitMetadata 里删掉这些命名空间的全部条目",
        subjects=OVER_THE_STORE,
    ),
    ordered(
        hook(
            "CLR-05",
            "It returns the deleted keys of each namespace, namespaces in the order they were "
            "passed (an empty namespace maps to no keys).",
            "返回各命名空间删掉的键(与传入顺序相同)",
            subjects=OVER_THE_STORE,
        )
    ),
    hook(
        "CLR-06",
        "When the store has list_metadata_keys, unreadable entries are deleted too and counted "
        "among the returned keys.",
        "读不出的条目一并删除、计入返回的键",
        subjects=OVER_THE_STORE,
    ),
    hook(
        "CLR-07",
        "Deleting unreadable entries logs exactly one info line naming them as namespace/key: "
        "the first 10, then how many more.",
        "并经 logger 记一条 info 点名(namespace/key,超过 10 条只列前 10 条)",
        subjects=OVER_THE_STORE,
    ),
    hook(
        "CLR-08",
        "Without list_metadata_keys it falls back to list_metadata: readable entries go, "
        "unreadable entries stay and are neither returned nor logged.",
        "后端没有实现时退回 listMetadata,读不出的条目留在库里",
        subjects=OVER_THE_STORE,
    ),
    should(
        "CLR-09",
        "A namespaces argument that is a single string or holds non-strings raises TypeError "
        "before anything is read or deleted.",
        point="a namespaces argument of the wrong shape",
        argument="a Python string is a sequence of one-letter names: clearing those would "
        "delete the wrong namespaces, so the helper refuses before touching anything",
        binds=HELPERS,
        subjects=OVER_THE_STORE,
    ),
    # -- clear types (pure) ----------------------------------------------------------------
    hook(
        "CLR-10",
        "A requested clear type counts as handled only when some result row names it, successful or not.",
        "并据结果行判断显式指定的类型有没有处理者",
        "成败都标",
    ),
    hook(
        "CLR-11",
        "When several plugins register one clear type, its label is the first registrant's "
        "in collection order; unregistered types are reported as unknown.",
        "同一类型几家登记时显示名取收集次序里第一家的",
        "/clear 只认登记了的类型",
    ),
    # -- plugins that keep data in metadata (checked on compression providers) -------------
    hook(
        "CLR-12",
        "On memory:clear a plugin clears the metadata it keeps by scope: a session clear removes "
        "that session's data and keeps other sessions', a clear of all sessions removes all of it.",
        BY_SCOPE_AND_TYPES,
        binds=METADATA_KEEPERS,
    ),
    hook(
        "CLR-13",
        "A memory:clear whose types leave out the plugin's clear type leaves its data alone; no "
        "types, or its type among them, clears it.",
        BY_SCOPE_AND_TYPES,
        binds=METADATA_KEEPERS,
    ),
    hook(
        "CLR-14",
        "A plugin that handles a clear type registers it through memory:clear-type, with its id and a label.",
        "处理某个清理类型的插件经贡献点 memory:clear-type 登记它",
        binds=METADATA_KEEPERS,
    ),
    hook(
        "CLR-15",
        "Its memory:clear result rows carry that registered type, on success and on failure "
        "alike, each with a message.",
        "并在各行标注它,成败都标",
        binds=METADATA_KEEPERS,
    ),
    must(
        "CLR-16",
        "A memory:clear that lands while a compression runs stays in effect: the compression "
        "rejected by it does not bring back the data the clear removed.",
        cite(API_DOC, HOOK, BY_SCOPE_AND_TYPES),
        cite(API_DOC, "压缩服务", "期间被清空或历史被改动"),
        binds=PROVIDERS,
    ),
)
