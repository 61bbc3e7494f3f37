"""Rules for the compression trigger functions and the compression service (api-memory
§触发判定 and §压缩服务)."""

from aalis_memory.conformance.rules.rule import (
    HELPERS,
    PROVIDERS,
    Rule,
    cite,
    must,
    ordered,
    should,
)

API_DOC = "api-memory"
TRIGGER = "触发判定"
SERVICE = "压缩服务"


def trigger(rule_id: str, summary: str, *phrases: str) -> Rule:
    """A rule of §触发判定, binding the trigger functions."""
    return must(rule_id, summary, *(cite(API_DOC, TRIGGER, p) for p in phrases), binds=HELPERS)


TRIGGER_RULES = (
    # -- compression_line / compression_due (pure) ----------------------------------------
    trigger(
        "CMP-01",
        "With a positive compress_at the line is the smaller of compress_at x context_window "
        "and token_budget.",
        "compressAt 为正时是 min(compressAt \N{MULTIPLICATION SIGN} contextWindow, tokenBudget)",
        "压缩线写得比裁剪预算还高时以裁剪预算为准",
    ),
    trigger(
        "CMP-02",
        "With compress_at missing or 0 the line is token_budget (a cap only).",
        "compressAt 缺省或为 0 时取 tokenBudget",
    ),
    trigger(
        "CMP-03",
        "With a positive compress_at, usage at or above the line makes compression due when "
        "compressible is at least half the line.",
        "用量到 compressionLine",
        "且 compressible 至少是线的一半时该压缩",
    ),
    trigger(
        "CMP-04",
        "With a positive compress_at, a trimmed call makes compression due when compressible is "
        "at least half the line, even below the line.",
        "或经过了硬裁剪(trimmed:到了丢内容的地步)",
    ),
    trigger(
        "CMP-05",
        "When compressible is below half the line the usage dimension never fires, trimmed or not.",
        "后一个条件就是回差",
    ),
    trigger(
        "CMP-06",
        "With compress_at missing or 0 the usage dimension never fires, trimmed included.",
        "compressAt 缺省或为 0 时这一维不判,经过了硬裁剪也一样",
    ),
    trigger(
        "CMP-07",
        "With a positive history_limit, compression is due once history_messages reaches it; "
        "with the limit missing or 0 the count never fires.",
        "historyMessages(只数对话消息)到 historyLimit 时该压缩",
        "缺省或 0 不按条数判",
    ),
    trigger(
        "CMP-08",
        "Either dimension alone makes compression due; below both lines it is not.",
        "两维任一到线即该压缩",
    ),
    should(
        "CMP-09",
        "Negative, NaN, boolean or non-numeric usage figures and lines raise TypeError or "
        "ValueError instead of deciding.",
        point="usage figures and lines that are not non-negative numbers",
        argument="the host calls these pure functions after every model call: a NaN or a "
        "negative budget would decide silently and wrongly",
        cites=(cite(API_DOC, TRIGGER, "compressionDue 是判定是否该压缩的纯函数"),),
        binds=HELPERS,
    ),
)


def service(rule_id: str, summary: str, *phrases: str, section: str = SERVICE) -> Rule:
    """A rule the documents state for the compression service, binding every provider."""
    return must(rule_id, summary, *(cite(API_DOC, section, p) for p in phrases), binds=PROVIDERS)


SERVICE_RULES = (
    # -- what a committed compression leaves ----------------------------------------------
    service(
        "CSV-01",
        "compress archives every message before the split point except the picked originals: "
        "they leave get_history and stay in get_full_history.",
        "压缩把切分点之前的全部活跃历史压成一份摘要",
        "摘要模型挑出的原文原样留在活跃历史里",
    ),
    ordered(
        service(
            "CSV-02",
            "Picked originals stay active verbatim, in their original order, ahead of the messages "
            "that arrived after the split point.",
            "摘要模型挑出的原文原样留在活跃历史里、接在摘要之后",
        )
    ),
    ordered(
        service(
            "CSV-03",
            "Messages that arrive while the summary is written stay active, after the picked originals.",
            "切分点之后到达的消息再接在它们后面",
        )
    ),
    service(
        "CSV-04",
        "The compression is committed by one archive_span(count, keep): count covers the "
        "compressed positions (markers included), keep the picked originals' positions.",
        "必填:压缩靠它落定",
        section="核心方法",
    ),
    service(
        "CSV-05",
        "Picked originals cost at most the configured share (10% by default) of the compressed "
        "conversation's tokens, counted with the configured token counter.",
        "token 默认不超过这次新压的对话的一成",
        section=TRIGGER,
    ),
    service(
        "CSV-06",
        "With a history limit, picked originals are kept only while they and the post-split "
        "conversation messages stay within half the limit, rounded down.",
        "挑中的原文只留到它与切分点之后的对话消息合计不超过条数线的一半(向下取整)为止",
        section=TRIGGER,
    ),
    # -- how compress resolves and rejects -----------------------------------------------
    service("CSV-07", "compress resolves only once the compression is committed.", "压成才落定"),
    service(
        "CSV-08",
        "A compress of a session that is already compressing rejects with AlreadyCompressing; "
        "the running one still completes.",
        "没压成时以原因拒绝(这个会话正在压缩",
    ),
    service(
        "CSV-09",
        "With the memory or the summarizer absent, compress rejects with MemoryUnavailable or "
        "SummarizerUnavailable and archives nothing.",
        "记忆或摘要模型不在",
    ),
    service(
        "CSV-10",
        "When the summarizer fails, compress rejects with SummarizerFailed and archives nothing.",
        "模型失败",
    ),
    service(
        "CSV-11",
        "When the history is cleared, or changed before the split point, while the summary is "
        "written, compress rejects with HistoryCleared or HistoryChanged and archives nothing.",
        "期间被清空或历史被改动",
    ),
    service(
        "CSV-12",
        "An empty or markers-only history is left alone: compress resolves, calls no summarizer "
        "and sends no event.",
        "没有可压的对话(历史为空、只剩分隔标记)时什么都不做",
        "照常落定",
    ),
    service(
        "CSV-13",
        "A compression that starts sends session:compressing start, then done when committed "
        "or error when rejected, and nothing else.",
        "只在真的开始压时报",
        "start 之后压成报 done、没压成报 error",
    ),
    service(
        "CSV-14",
        "compress_at is the session's ratio for its platform tier (birth platform first, the "
        "entry platform without one), None when that ratio is 0.",
        "0 时为 undefined",
        "没有出生平台的会话按它选平台档",
    ),
    service(
        "CSV-15",
        "A manual compress compresses even a short conversation fully: every conversation "
        "message before the split goes to the summarizer.",
        "短对话也完整压一次",
    ),
    # -- the kit's reading of silent points ----------------------------------------------
    should(
        "CSV-16",
        "The summary is not a history message: it is stored per session (summary(session_id) "
        "reads it), the previous one is handed to the summarizer to fold in, and the new one "
        "takes its place (one summary kept per session).",
        point="where the summary lives, and what becomes of the previous one",
        argument="a message written now cannot sort before the older picks on a write-ordered "
        "store; folding the previous summary into the new one keeps what earlier "
        "compressions archived, so the previous one is no longer needed",
        cites=(cite(API_DOC, SERVICE, "压缩把切分点之前的全部活跃历史压成一份摘要"),),
        binds=PROVIDERS,
    ),
    must(
        "CSV-17",
        "A committed compression leaves a divider in the active history: a control record "
        "(kind event-marker) that was not there before.",
        cite(API_DOC, TRIGGER, "全量压缩之后只剩挑中的原文、切分点之后的几条与分隔标记"),
        cite(API_DOC, "核心方法", "压缩分隔线这类事件标记"),
        binds=PROVIDERS,
    ),
    should(
        "CSV-18",
        "Tool exchanges stay whole: the split never cuts one still waiting for replies, and a "
        "picked message brings its whole exchange.",
        point="how the split and the picks treat tool exchanges",
        argument="model APIs refuse a tool reply without its call and a call without its "
        "replies, so the kept part must hold whole exchanges",
        binds=PROVIDERS,
    ),
    should(
        "CSV-19",
        "Picks are taken in the summarizer's order, skipping those that no longer fit; an "
        "empty summary or an impossible pick counts as a summarizer failure.",
        point="which picks win when not all fit, and what an unusable draft is",
        argument="the summarizer lists picks most wanted first, so that order keeps the most "
        "wanted; no text or a pick outside the messages is the model failing",
        binds=PROVIDERS,
    ),
    should(
        "CSV-20",
        "compress with a reason other than 'manual' raises ValueError before anything happens.",
        point="a reason other than 'manual'",
        argument="the signature takes only 'manual' (automatic runs never go through compress), "
        "so a typo must not start a compression",
        cites=(cite(API_DOC, SERVICE, "不经这个方法"),),
        binds=PROVIDERS,
    ),
    should(
        "CSV-21",
        "When the history cannot be read, compress rejects with HistoryUnreadable and archives nothing.",
        point="the reason a compression gives when the history cannot be read",
        argument="the documents name an unreadable history as its own failure before start; a "
        "reason of its own lets the notice say so",
        cites=(cite(API_DOC, SERVICE, "读不出历史"),),
        binds=PROVIDERS,
    ),
    service(
        "CSV-22",
        "A call that fails before a compression starts (memory or summarizer absent, history "
        "unreadable, session already compressing) sends no session:compressing event.",
        "开始之前就失败的(记忆不在、读不出历史)不报",
        "只在真的开始压时报",
    ),
    service(
        "CSV-23",
        "A committed compression leaves a summary of what it compressed: the provider keeps "
        "the summarizer's text as the session's summary (whether earlier summaries stay is "
        "CSV-16's reading).",
        "压缩把切分点之前的全部活跃历史压成一份摘要",
    ),
    service(
        "CSV-24",
        "A rejected compression keeps no new summary: the session's summary is what it was before the call.",
        "压成才落定",
        "没压成时以原因拒绝",
    ),
    should(
        "CSV-25",
        "A compression adds exactly one divider, a system message stamped at commit time, so "
        "that it sits after the kept messages (the last active message right after the "
        "commit).",
        point="how many dividers a compression adds, their role, and where they sit",
        argument="the documents say a divider remains, not how many or where; one divider "
        "stamped at commit lands after the picks and the post-split messages (as "
        "upstream does), marking where the compressed part ends",
        cites=(cite(API_DOC, TRIGGER, "全量压缩之后只剩挑中的原文、切分点之后的几条与分隔标记"),),
        binds=PROVIDERS,
    ),
)

RULES = TRIGGER_RULES + SERVICE_RULES
