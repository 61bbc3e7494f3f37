"""Rules for messages: limits, history reads, archiving, clearing, range and cross-session reads,
content rewrites and deletions (api-memory.zh.md, section 核心方法)."""

from aalis_memory.conformance.rules.rule import MUST, SHOULD, Rule

API = "api-memory §核心方法"
NOTES = "READING_NOTES"

RULES = (
    # -- the one limit rule shared by every counted read ---------------------------------
    Rule("LIM-01", MUST, f"{API}, limit rule",
         "A limit of 0 yields an empty list (get_history, get_full_history, cross-session read)."),
    Rule("LIM-02", MUST, f"{API}, limit rule",
         "A limit of math.inf yields every matching message (get_history, get_full_history)."),
    Rule("LIM-03", MUST, f"{API}, limit rule",
         "update_message_content with recent_limit 0 rewrites nothing; math.inf covers the whole "
         "active history."),
    Rule("LIM-04", MUST, f"{API}, limit rule",
         "A cross-session read with limit math.inf is still narrowed to the backend's "
         "cross_session_max_limit."),
    Rule("LIM-05", SHOULD, f"{NOTES} #1",
         "Omitted limits default to 50 (get_history), 200 (get_full_history) and 100 "
         "(update_message_content)."),
    Rule("LIM-06", SHOULD, f"{NOTES} #3",
         "A negative, NaN, fractional or non-numeric limit raises ValueError and changes nothing."),
    # -- saving and reading messages -----------------------------------------------------
    Rule("MSG-01", MUST, f"{API}, overview",
         "History is kept per session id: one session never sees another's messages."),
    Rule("MSG-02", SHOULD, f"{NOTES} #12",
         "Every Message field round-trips unchanged (images and audios included); absent fields "
         "come back absent, not as empty values."),
    Rule("MSG-03", SHOULD, f"{NOTES} #2",
         "A message saved without a timestamp is stamped with the current epoch milliseconds "
         "and returned with that stamp."),
    Rule("MSG-04", SHOULD, f"{NOTES} #10",
         "An unknown session reads as empty: [] for lists, 0 for counts and archive results."),
    # -- get_history ------------------------------------------------------------------------
    Rule("HIST-01", MUST, f"{API}, getHistory",
         "get_history returns only active (not archived) messages."),
    Rule("HIST-02", MUST, f"{API}, getHistory",
         "get_history is ascending by time; messages of the same millisecond keep write order "
         "(write-ordered drivers: plain write order)."),
    Rule("HIST-03", MUST, f"{API}, getHistory",
         "The limit counts conversation messages only; CONTROL_KINDS records never use it up."),
    Rule("HIST-04", MUST, f"{API}, getHistory",
         "get_history returns every active message after the (limit+1)-th newest conversation "
         "message, control records in between included."),
    Rule("HIST-05", MUST, f"{API}, getHistory",
         "With at most limit conversation messages, get_history returns the whole active "
         "history, leading control records included."),
    # -- count_history / get_full_history -----------------------------------------------
    Rule("COUNT-01", MUST, f"{API}, countHistory",
         "count_history is the number of active conversation messages, the same figure as the "
         "non-control part of get_history(session, inf)."),
    Rule("FULL-01", MUST, f"{API}, getFullHistory",
         "get_full_history includes archived messages."),
    Rule("FULL-02", MUST, f"{API}, getFullHistory",
         "get_full_history returns the newest limit messages, control records counting toward "
         "the limit, in ascending order."),
    # -- archive_span -----------------------------------------------------------------------
    Rule("ARCH-01", MUST, f"{API}, archiveSpan",
         "archive_span archives the earliest count active messages, in get_history order."),
    Rule("ARCH-02", MUST, f"{API}, archiveSpan",
         "Positions listed in keep (0-based within the span) stay active and unchanged."),
    Rule("ARCH-03", MUST, f"{API}, archiveSpan",
         "count and keep are positions in get_history(session, inf): control records occupy "
         "positions too."),
    Rule("ARCH-04", MUST, f"{API}, archiveSpan",
         "count 0 archives nothing."),
    Rule("ARCH-05", MUST, f"{API}, archiveSpan",
         "A count above the number of active messages makes the span the whole active history."),
    Rule("ARCH-06", MUST, f"{API}, archiveSpan",
         "keep positions outside the span do nothing; a repeated position acts once."),
    Rule("ARCH-07", MUST, f"{API}, archiveSpan",
         "archive_span returns how many messages it archived."),
    Rule("ARCH-08", MUST, f"{API}, archiveSpan",
         "Positions are taken from the active history at call time: earlier archives are not "
         "counted, and messages appended afterwards are outside the span."),
    Rule("ARCH-09", MUST, f"{API}, archiveSpan",
         "Archived messages leave get_history but stay in get_full_history, interleaved with the "
         "kept ones in their original order."),
    Rule("ARCH-10", MUST, f"{API}, archiveSpan atomicity",
         "A driver declaring archive_atomicity='atomic' never lets a concurrent reader see part "
         "of a span archived."),
    Rule("ARCH-11", SHOULD, f"{API}, archiveSpan; {NOTES} #3 applied to positions",
         "A negative, NaN, fractional or non-numeric count or keep position raises ValueError "
         "and archives nothing."),
    # -- clearing -----------------------------------------------------------------------------
    Rule("CLEAR-01", MUST, "api-memory §钩子与贡献点 (clearing message history)",
         "clear_session removes the session's messages from its history."),
    Rule("CLEAR-02", SHOULD, f"{NOTES} #8",
         "clear_session also removes the session's archived messages, leaves other sessions "
         "alone and never touches metadata."),
    Rule("CLEAR-03", MUST, "api-memory §钩子与贡献点 (clearAll)",
         "clear_all removes every message and every archived message of every session."),
    Rule("CLEAR-04", MUST, "api-memory §钩子与贡献点 (clearAll)",
         "clear_all never touches metadata."),
    # -- session range read -------------------------------------------------------------
    Rule("RANGE-01", MUST, "plugin-memory-mongodb §配置 rangeQueryLimit",
         "A session range read never returns more than the backend's range_query_limit; it "
         "truncates silently."),
    Rule("RANGE-02", SHOULD, f"{NOTES} #4",
         "The range [from_ts, to_ts] is inclusive at both ends and includes archived messages."),
    Rule("RANGE-03", SHOULD, f"{NOTES} #4",
         "Range results are ascending by timestamp (same millisecond in write order) and a "
         "truncated result keeps the earliest messages."),
    Rule("RANGE-04", SHOULD, f"{NOTES} #4",
         "roles is a whitelist; exclude_kinds drops those kinds and keeps kind-less messages."),
    # -- cross-session read --------------------------------------------------------------
    Rule("CROSS-01", MUST, "plugin-memory-mongodb §配置 crossSessionMaxLimit",
         "A cross-session read asking for more than cross_session_max_limit is narrowed to it."),
    Rule("CROSS-02", SHOULD, f"{NOTES} #5",
         "A cross-session read returns the newest N active messages by timestamp, ascending, "
         "each with its session id."),
    Rule("CROSS-03", SHOULD, f"{NOTES} #5",
         "roles defaults to user and assistant; given roles are a whitelist."),
    Rule("CROSS-04", SHOULD, f"{NOTES} #5",
         "kinds is a whitelist that drops kind-less messages; exclude_kinds wins over kinds and "
         "keeps kind-less messages."),
    Rule("CROSS-05", SHOULD, f"{NOTES} #5",
         "since_ts keeps timestamps >= since_ts; platform must equal metadata['platform']; "
         "exclude_session_ids drops those sessions."),
    # -- content rewrite / deletion ------------------------------------------------------
    Rule("UPD-01", SHOULD, f"{NOTES} #6",
         "update_message_content looks only at the newest recent_limit active messages, control "
         "records taking places in that window."),
    Rule("UPD-02", SHOULD, f"{NOTES} #6",
         "Only string content is rewritten, every occurrence, case-sensitively; the result is the "
         "number of messages whose content changed (a rewrite to the same text changes none) and "
         "timestamps never change."),
    Rule("UPD-03", SHOULD, f"{NOTES} #6",
         "An empty old_text raises ValueError and changes nothing."),
    Rule("DEL-01", SHOULD, f"{NOTES} #7",
         "delete_messages_by_timestamps deletes every message of the session, active or archived, "
         "whose timestamp is listed, and returns how many it deleted."),
    Rule("DEL-02", SHOULD, f"{NOTES} #7",
         "Deleting by an empty list returns 0; other sessions are never touched."),
)
