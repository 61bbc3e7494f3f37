"""Rules for the memory change events a compression provider sends when it archives stored
messages (api-memory §记忆变更事件).

A storage backend never sends these events (its callers do); the compression provider is the one
party of this contract that changes stored messages itself, so the kit checks it.
"""

from aalis_memory.conformance.rules.rule import PROVIDERS, cite, must, should

API_DOC = "api-memory"
EVENTS = "记忆变更事件"

RULES = (
    must(
        "EVT-01",
        "A committed compression sends history:changed {sessionId} for its session, once the "
        "archive is committed.",
        cite(API_DOC, EVENTS, "落库之后动了已有消息的一方发通知"),
        cite(API_DOC, EVENTS, "会话历史发生结构性变化"),
        binds=PROVIDERS,
    ),
    must(
        "EVT-02",
        "A compression never sends memory:messages-deleted or memory:messages-rewritten: it "
        "deletes and rewrites nothing.",
        cite(API_DOC, EVENTS, "某会话的若干消息被按时间戳删除(回滚),由动手的检查点发"),
        cite(API_DOC, EVENTS, "由改写的一方在改写成功后发"),
        binds=PROVIDERS,
    ),
    should(
        "EVT-03",
        "A compression sends history:changed at most once, and never for a call that archived "
        "nothing (rejected before archiving, or with nothing to compress).",
        point="whether a compression that changed nothing sends history:changed",
        argument="the notice makes every subscribed client fetch a new snapshot; sending it "
        "when the history is as it was costs each of them a refetch for nothing",
        cites=(cite(API_DOC, EVENTS, "会话服务据此通知订阅的客户端重新取快照"),),
        binds=PROVIDERS,
    ),
)
