"""Rules for messages: limits, history reads, archiving, clearing, range and cross-session reads,
content rewrites and deletions (api-memory §核心方法; the caps of plugin-memory-mongodb §配置)."""

from aalis_memory.conformance.rules.rule import (
    CROSS_SESSION_CAP,
    RANGE_CAP,
    cite,
    must,
    ordered,
    should,
)
from aalis_memory.defaults import (
    DEFAULT_CROSS_SESSION_ROLES,
    DEFAULT_FULL_HISTORY_LIMIT,
    DEFAULT_HISTORY_LIMIT,
    DEFAULT_UPDATE_RECENT_LIMIT,
)

CORE = "核心方法"
API_DOC = "api-memory"
MONGODB_DOC = "plugin-memory-mongodb"
#: The two history reads, judged together by the limit and message rules.
READS = frozenset({"get_history", "get_full_history"})

#: The caller promises limits and positions; what a backend does with a broken promise.
_CALLER_GUARANTEES = (
    "a typed error at the call finds the caller's bug at once; a guess (clamping, slicing from the "
    "end, reading 'unlimited') silently returns or changes the wrong messages"
)

RULES = (
    # -- the one limit rule shared by every counted read ---------------------------------
    must(
        "LIM-01",
        "A limit of 0 yields an empty list (get_history, get_full_history, cross-session read).",
        cite(API_DOC, CORE, "为 0 时返回空(updateMessageContent 一条都不改)"),
        subjects=READS | {"get_recent_messages_across_sessions"},
        machine=True,
    ),
    must(
        "LIM-02",
        "A limit of math.inf yields every matching message (get_history, get_full_history).",
        cite(API_DOC, CORE, "为 Infinity 时返回全部"),
        subjects=READS,
        machine=True,
        infinity=True,
    ),
    must(
        "LIM-03",
        "update_message_content with recent_limit 0 rewrites nothing; math.inf covers the whole "
        "active history.",
        cite(API_DOC, CORE, "为 0 时返回空(updateMessageContent 一条都不改)"),
        cite(API_DOC, CORE, "为 Infinity 时返回全部"),
        subjects={"update_message_content"},
        machine=True,
    ),
    must(
        "LIM-04",
        "A cross-session read with limit math.inf is still narrowed to the backend's "
        "cross_session_max_limit.",
        cite(API_DOC, CORE, "跨会话查询照样收窄到后端配置的上限"),
        subjects={"get_recent_messages_across_sessions"},
        machine=True,
    ),
    should(
        "LIM-05",
        f"Omitted limits default to {DEFAULT_HISTORY_LIMIT} (get_history), "
        f"{DEFAULT_FULL_HISTORY_LIMIT} (get_full_history) and {DEFAULT_UPDATE_RECENT_LIMIT} "
        "(update_message_content).",
        point="the value of an omitted limit",
        argument="the upstream plugins use these windows, and callers written against them omit "
        "the limit expecting them",
        cites=(cite(API_DOC, CORE, "getHistory(sessionId: string, limit?: number)"),),
        subjects=READS | {"update_message_content"},
        machine=True,
    ),
    should(
        "LIM-06",
        "A negative, NaN, fractional, bool or non-numeric limit raises ValueError and changes nothing.",
        point="a limit the caller promised never to pass",
        argument=_CALLER_GUARANTEES,
        cites=(cite(API_DOC, CORE, "条数是非负整数或 Infinity(调用方保证)"),),
        subjects=READS | {"get_recent_messages_across_sessions", "update_message_content"},
        machine=True,
    ),
    must(
        "LIM-07",
        "A finite limit larger than the history is an ordinary count of any size: limits of "
        "2**63 - 1, 2**63 and past 64 bits read the whole history (get_history, "
        "get_full_history) and rewrite the whole active history (update_message_content).",
        cite(API_DOC, CORE, "条数是非负整数或 Infinity(调用方保证)"),
        cite(API_DOC, CORE, "对话消息不超过 limit 条时是全部活跃消息"),
        subjects=READS | {"update_message_content"},
    ),
    # -- saving and reading messages -----------------------------------------------------
    must(
        "MSG-01",
        "History is kept per session id: one session never sees another's messages.",
        cite(API_DOC, "概述", "按 sessionId 检索历史"),
        subjects=READS | {"save_message"},
        machine=True,
    ),
    should(
        "MSG-02",
        "Every Message field other than kind round-trips unchanged (images and audios "
        "included); absent fields come back absent, not as empty values.",
        point="which Message fields a backend keeps, and how it returns an absent one",
        argument="a field lost on the way (the upstream drivers dropped images and audios) can "
        "never be read back, and an empty value where none was saved changes meaning",
        cites=(cite(API_DOC, "概述", "保存每轮 Message"),),
        subjects=READS | {"save_message"},
        machine=True,
    ),
    should(
        "MSG-03",
        "A message saved without a timestamp is stamped with the current epoch milliseconds "
        "and returned with that stamp.",
        point="the timestamp of a message saved without one",
        argument="history is ordered by time, so every message needs a stamp, and the save time "
        "is the only one a backend knows (the upstream drivers use it)",
        subjects=READS | {"save_message"},
        machine=True,
    ),
    should(
        "MSG-04",
        "An unknown session reads as empty: [] for lists, 0 for counts and archive results.",
        point="reads of a session that was never written (the documents define every read by "
        "the session's messages, never say whether an unwritten session has any)",
        argument="a session exists from its first message; an error for a new session would make "
        "every caller special-case its first turn",
        cites=(cite(API_DOC, CORE, "对话消息不超过 limit 条时是全部活跃消息"),),
        subjects=READS
        | {
            "archive_span",
            "count_history",
            "get_messages_by_session_range",
            "get_recent_messages_across_sessions",
        },
        machine=True,
    ),
    must(
        "MSG-05",
        "A message's kind comes back as it was saved (no kind stays no kind): consumers tell "
        "markers from conversation by it.",
        cite(API_DOC, CORE, "夹在其间的标记一并带回"),
        cite(API_DOC, CORE, "事件标记也占条数"),
        subjects=READS | {"save_message"},
        machine=True,
    ),
    must(
        "MSG-06",
        "clear_session and delete_messages_by_timestamps change only the session they name: "
        "every other session's messages, active and archived, stay as they were.",
        cite(API_DOC, "概述", "按 sessionId 检索历史"),
        cite(API_DOC, "记忆变更事件", "某会话的若干消息被按时间戳删除(回滚)"),
        subjects={
            "clear_session",
            "delete_messages_by_timestamps",
            "save_message",
            "archive_span",
            "update_message_content",
        },
        machine=True,
    ),
    should(
        "MSG-07",
        "An optional Message field a message was saved without comes back absent, not as "
        "null (reasoningContent: absent where it was saved absent).",
        point="how a backend returns an optional field a message does not have",
        argument="the TypeScript Message marks these fields optional (`kind?: string`), so "
        "`message.kind === undefined` is how a caller asks; a store that keeps the "
        "absence as null (BSON and many JavaScript stores do) breaks that test for "
        "every caller. The kit takes null for absent on the way back from an adapter, "
        "so this rule is the only one that speaks of it",
        cites=(cite(API_DOC, "概述", "保存每轮 Message"),),
        machine=True,
    ),
    # -- get_history ------------------------------------------------------------------------
    must(
        "HIST-01",
        "get_history returns only active (not archived) messages.",
        cite(API_DOC, CORE, "最近 limit 条活跃(未归档)对话消息"),
        subjects={"get_history"},
        machine=True,
    ),
    ordered(
        must(
            "HIST-02",
            "get_history is ascending by time; messages of the same millisecond keep write order "
            "(write-ordered drivers: plain write order).",
            cite(API_DOC, CORE, "按时间升序(同毫秒按写入序)"),
            cite(API_DOC, CORE, "inmemory 只按写入序,假定时间戳随写入递增"),
            subjects={"get_history"},
            machine=True,
        )
    ),
    must(
        "HIST-03",
        "The limit counts conversation messages only; CONTROL_KINDS records never use it up.",
        cite(API_DOC, CORE, "条数只数对话消息"),
        cite(API_DOC, CORE, "不占条数"),
        subjects={"get_history"},
        machine=True,
        window=True,
    ),
    must(
        "HIST-04",
        "get_history returns every active message after the (limit+1)-th newest conversation "
        "message, control records in between included.",
        cite(API_DOC, CORE, "读出的是第 limit + 1 新的那条对话消息之后的全部活跃消息"),
        cite(API_DOC, CORE, "夹在其间的标记一并带回"),
        subjects={"get_history"},
        machine=True,
        window=True,
    ),
    must(
        "HIST-05",
        "With at most limit conversation messages, get_history returns the whole active "
        "history, leading control records included.",
        cite(API_DOC, CORE, "对话消息不超过 limit 条时是全部活跃消息"),
        subjects={"get_history"},
        machine=True,
        window=True,
    ),
    # -- count_history / get_full_history -----------------------------------------------
    must(
        "COUNT-01",
        "count_history is the number of active conversation messages, the same figure as the "
        "non-control part of get_history(session, inf).",
        cite(API_DOC, CORE, "活跃对话消息的条数"),
        cite(API_DOC, CORE, "与 getHistory 按条数读同一口径"),
        subjects={"count_history"},
        machine=True,
    ),
    must(
        "FULL-01",
        "get_full_history includes archived messages.",
        cite(API_DOC, CORE, "含已归档的完整历史"),
        subjects={"get_full_history"},
        machine=True,
        window=True,
    ),
    ordered(
        must(
            "FULL-02",
            "get_full_history returns the newest limit messages, control records counting toward "
            "the limit, in ascending order.",
            cite(API_DOC, CORE, "最近 limit 条,事件标记也占条数"),
            cite(API_DOC, CORE, "按原来的顺序(留下的与归档的照时间交错)"),
            subjects={"get_full_history"},
            machine=True,
            window=True,
        )
    ),
    # -- archive_span -----------------------------------------------------------------------
    must(
        "ARCH-01",
        "archive_span archives the earliest count active messages, in get_history order.",
        cite(API_DOC, CORE, "把最早的 count 条活跃消息"),
        cite(API_DOC, CORE, "顺序与 getHistory 相同"),
        subjects={"archive_span"},
        machine=True,
    ),
    must(
        "ARCH-02",
        "Positions listed in keep (0-based within the span) stay active and unchanged.",
        cite(API_DOC, CORE, "keep 列出的位置(这一段里从 0 数的下标)不归档、原样留在活跃历史里"),
        subjects={"archive_span"},
        machine=True,
    ),
    must(
        "ARCH-03",
        "count and keep are positions in get_history(session, inf): control records occupy positions too.",
        cite(API_DOC, CORE, "count 与 keep 按位置数,事件标记也占位置"),
        cite(API_DOC, CORE, "即 getHistory(sessionId, Infinity) 里的位置"),
        subjects={"archive_span"},
        machine=True,
    ),
    must(
        "ARCH-04",
        "count 0 archives nothing.",
        cite(API_DOC, CORE, "count 为 0 时什么都不归档"),
        subjects={"archive_span"},
        machine=True,
    ),
    must(
        "ARCH-05",
        "A count above the number of active messages makes the span the whole active history.",
        cite(API_DOC, CORE, "大于活跃条数时这一段就是全部活跃消息"),
        subjects={"archive_span"},
        machine=True,
    ),
    must(
        "ARCH-06",
        "keep positions outside the span do nothing; a repeated position acts once.",
        cite(API_DOC, CORE, "keep 里落在这一段之外的下标不起作用"),
        cite(API_DOC, CORE, "重复的下标与一个相同"),
        subjects={"archive_span"},
        machine=True,
    ),
    must(
        "ARCH-07",
        "archive_span returns how many messages it archived.",
        cite(API_DOC, CORE, "返回归档条数"),
        subjects={"archive_span"},
        machine=True,
    ),
    must(
        "ARCH-08",
        "Positions are taken from the active history at call time: earlier archives are not "
        "counted, and messages appended afterwards are outside the span.",
        cite(API_DOC, CORE, "位置按调用这一刻的活跃历史算"),
        cite(API_DOC, CORE, "之后追加的新消息在这一段之外"),
        subjects={"archive_span"},
        machine=True,
    ),
    ordered(
        must(
            "ARCH-09",
            "Archived messages leave get_history but stay in get_full_history, interleaved with the "
            "kept ones in their original order.",
            cite(API_DOC, CORE, "归档的消息不再进 getHistory"),
            cite(API_DOC, CORE, "按原来的顺序(留下的与归档的照时间交错)"),
            subjects={"archive_span", "get_full_history"},
            machine=True,
            window=True,
        )
    ),
    must(
        "ARCH-10",
        "A driver declaring archive_atomicity='atomic' never lets a concurrent reader see part "
        "of a span archived.",
        cite(API_DOC, CORE, "sqlite 与 inmemory 全成或全不成"),
        subjects={"archive_span"},
        machine=True,
    ),
    should(
        "ARCH-11",
        "A count or keep position that is not a non-negative integer (negative, NaN, math.inf, "
        "fractional, a bool or non-numeric) raises ValueError and archives nothing.",
        point="a count or keep position the caller promised never to pass",
        argument=_CALLER_GUARANTEES,
        cites=(cite(API_DOC, CORE, "count 与 keep 的元素都是非负整数(调用方保证)"),),
        subjects={"archive_span"},
        machine=True,
    ),
    # -- clearing -----------------------------------------------------------------------------
    must(
        "CLEAR-01",
        "clear_session removes the session's messages from its history.",
        cite(API_DOC, CORE, "clearSession(sessionId: string): Promise<void>;"),
        cite(API_DOC, "钩子与贡献点", "清消息历史的发起方"),
        subjects={"clear_session"},
        machine=True,
    ),
    should(
        "CLEAR-02",
        "clear_session also removes the session's archived messages and never touches metadata.",
        point="whether clearing one session takes its archive and its metadata with it",
        argument="clear_all takes messages and archives but never metadata; clearing one "
        "session is the same operation narrowed to it, and plugins clear their own "
        "metadata through memory:clear",
        cites=(cite(API_DOC, "钩子与贡献点", "clearAll 只清消息与归档、不清元数据"),),
        subjects={"clear_session"},
        machine=True,
    ),
    must(
        "CLEAR-03",
        "clear_all removes every message and every archived message of every session.",
        cite(API_DOC, "钩子与贡献点", "clearAll 只清消息与归档、不清元数据"),
        subjects={"clear_all"},
        machine=True,
    ),
    must(
        "CLEAR-04",
        "clear_all never touches metadata.",
        cite(API_DOC, "钩子与贡献点", "clearAll 只清消息与归档、不清元数据"),
        subjects={"clear_all"},
        machine=True,
    ),
    # -- session range read -------------------------------------------------------------
    must(
        "RANGE-01",
        "A session range read is cut silently at the backend's range_query_limit: with more "
        "matching messages than the cap it returns exactly the cap, never fewer, never an error. "
        "A backend declaring no range cap (range_cap=False) is not bound; the MongoDB backend "
        "always has one.",
        cite(MONGODB_DOC, "配置", "单次返回的最大条数"),
        cite(MONGODB_DOC, "配置", "命中上限会静默截断"),
        binds=RANGE_CAP,
        subjects={"get_messages_by_session_range"},
        machine=True,
    ),
    should(
        "RANGE-02",
        "The range [from_ts, to_ts] is inclusive at both ends and includes archived messages.",
        point="the ends of the range, and whether archived messages are in it",
        argument="the read expands the context around recalled messages, which may sit in the "
        "archive; an inclusive [from, to] is how the upstream drivers and callers count",
        subjects={"get_messages_by_session_range"},
        machine=True,
    ),
    ordered(
        should(
            "RANGE-03",
            "Range results are ascending by timestamp (same millisecond in write order) and a "
            "truncated result keeps the earliest messages.",
            point="the order of range results and which end a truncated result keeps",
            argument="context expansion reads forward in time; keeping the earliest (as upstream "
            "does) lets a caller page on by moving from_ts",
            subjects={"get_messages_by_session_range"},
            machine=True,
        )
    ),
    should(
        "RANGE-04",
        "roles is a whitelist; exclude_kinds drops those kinds and keeps kind-less messages.",
        point="how roles and exclude_kinds filter a range",
        argument="roles names what to keep and exclude_kinds what to drop; a message without a "
        "kind is not of an excluded kind (upstream keeps it). An empty roles list is read two "
        "ways (upstream: no filter; a whitelist: nothing), so the kit judges neither",
        cites=(cite(API_DOC, CORE, "excludeKinds?: string[],"),),
        subjects={"get_messages_by_session_range"},
        machine=True,
    ),
    # -- cross-session read --------------------------------------------------------------
    must(
        "CROSS-01",
        "A cross-session read asking for more than cross_session_max_limit is narrowed to it: it "
        "returns exactly min(cap, matching messages), never fewer.",
        cite(MONGODB_DOC, "配置", "调用方请求超过此值会被收窄到此上限"),
        binds=CROSS_SESSION_CAP,
        subjects={"get_recent_messages_across_sessions"},
        machine=True,
    ),
    ordered(
        should(
            "CROSS-02",
            "A cross-session read returns the newest N active messages by timestamp, ascending, "
            "each with its session id.",
            point="which messages a cross-session read picks and in what order",
            argument="it feeds recent-message injection: the newest live conversation is what a "
            "prompt wants, oldest first like a history; archived text was compressed away",
            subjects={"get_recent_messages_across_sessions"},
            machine=True,
        )
    ),
    should(
        "CROSS-03",
        f"roles defaults to {' and '.join(DEFAULT_CROSS_SESSION_ROLES)}; given roles are a whitelist.",
        point="the roles of a cross-session read when none are given",
        argument="tool and system messages of another session mean nothing in this session's "
        "prompt; user and assistant is the upstream query default. An empty roles list is read "
        "two ways (upstream: the default roles; a whitelist: nothing), so the kit judges neither",
        subjects={"get_recent_messages_across_sessions"},
        machine=True,
    ),
    should(
        "CROSS-04",
        "kinds is a whitelist that drops kind-less messages; exclude_kinds wins over kinds and "
        "keeps kind-less messages.",
        point="how kinds and exclude_kinds combine",
        argument="kinds asks for those kinds only, so a kind-less message is not one of them; "
        "exclude_kinds only drops, so it wins and spares kind-less messages (upstream). An empty "
        "kinds list is read two ways (upstream: no filter; a whitelist: nothing), so the kit "
        "judges neither",
        subjects={"get_recent_messages_across_sessions"},
        machine=True,
    ),
    should(
        "CROSS-05",
        "since_ts keeps timestamps >= since_ts; platform must equal metadata['platform']; "
        "exclude_session_ids drops those sessions.",
        point="the since_ts bound, the platform match and excluded sessions",
        argument="since_ts is a start time, inclusive like a range start; the platform of a "
        "message is its metadata['platform'], as the cross-platform filter reads it",
        subjects={"get_recent_messages_across_sessions"},
        machine=True,
    ),
    # -- content rewrite / deletion ------------------------------------------------------
    should(
        "UPD-01",
        "update_message_content looks only at the newest recent_limit active messages, control "
        "records taking places in that window.",
        point="which messages recent_limit counts",
        argument="a rewrite follows up something just sent (an image description), so it looks "
        "at the newest active messages, counted as positions like get_history(inf)",
        subjects={"update_message_content"},
        machine=True,
    ),
    should(
        "UPD-02",
        "Only string content is rewritten, every occurrence, case-sensitively; the result is the "
        "number of messages whose content changed (a rewrite to the same text changes none).",
        point="what a rewrite matches and what it returns",
        argument="it replaces a placeholder the caller wrote, so an exact match of every "
        "occurrence finds it; counting real changes tells the caller whether to notify",
        subjects={"update_message_content"},
        machine=True,
    ),
    should(
        "UPD-03",
        "An empty old_text raises ValueError and changes nothing.",
        point="an empty old_text",
        argument="an empty pattern matches between every two characters; it is always a caller "
        "bug, never a rewrite anyone wants",
        subjects={"update_message_content"},
        machine=True,
    ),
    must(
        "UPD-04",
        "update_message_content never changes a message's timestamp.",
        cite(API_DOC, "记忆变更事件", "messages 是改写后的整条(时间戳不变)"),
        subjects={"update_message_content"},
        machine=True,
    ),
    should(
        "DEL-01",
        "delete_messages_by_timestamps deletes every message of the session, active or archived, "
        "whose timestamp is listed, and returns how many it deleted.",
        point="which messages a deletion by timestamps reaches, and what it returns",
        argument="it is the checkpoint rollback: what was written after the checkpoint goes, "
        "archived or not, and the count says what the rollback removed",
        cites=(cite(API_DOC, "记忆变更事件", "某会话的若干消息被按时间戳删除(回滚)"),),
        subjects={"delete_messages_by_timestamps"},
        machine=True,
    ),
    should(
        "DEL-02",
        "Deleting by an empty list returns 0 and deletes nothing.",
        point="a deletion by an empty list of timestamps",
        argument="an empty rollback is a harmless no-op a checkpoint may issue; an error, or a "
        "filter that matches everything, would punish it",
        subjects={"delete_messages_by_timestamps"},
        machine=True,
    ),
)
