"""Rules for the compression trigger functions and the compression service (api-memory.zh.md,
§触发判定 and §压缩服务)."""

from aalis_memory.conformance.rules.rule import MUST, SHOULD, Rule

TRIGGER = "api-memory §触发判定"
SERVICE = "api-memory §压缩服务"
KIT = "kit choice (document silent)"

RULES = (
    # -- compression_line / compression_due (pure) ----------------------------------------
    Rule("CMP-01", MUST, f"{TRIGGER}, compressionLine",
         "With a positive compress_at the line is the smaller of compress_at x context_window "
         "and token_budget."),
    Rule("CMP-02", MUST, f"{TRIGGER}, compressionLine",
         "With compress_at missing or 0 the line is token_budget (a cap only)."),
    Rule("CMP-03", MUST, f"{TRIGGER}, usage dimension",
         "With a positive compress_at, usage at or above the line makes compression due when "
         "compressible is at least half the line."),
    Rule("CMP-04", MUST, f"{TRIGGER}, usage dimension",
         "With a positive compress_at, a trimmed call makes compression due when compressible is "
         "at least half the line, even below the line."),
    Rule("CMP-05", MUST, f"{TRIGGER}, usage dimension (hysteresis)",
         "When compressible is below half the line the usage dimension never fires, trimmed or "
         "not."),
    Rule("CMP-06", MUST, f"{TRIGGER}, usage dimension",
         "With compress_at missing or 0 the usage dimension never fires, trimmed included."),
    Rule("CMP-07", MUST, f"{TRIGGER}, count dimension",
         "With a positive history_limit, compression is due once history_messages reaches it; "
         "with the limit missing or 0 the count never fires."),
    Rule("CMP-08", MUST, f"{TRIGGER}, compressionDue",
         "Either dimension alone makes compression due; below both lines it is not."),
    Rule("CMP-09", SHOULD, f"{KIT}; READING_NOTES #3 style",
         "Negative, NaN, boolean or non-numeric usage figures and lines raise TypeError or "
         "ValueError instead of deciding."),
)

SERVICE_RULES = (
    # -- what a committed compression leaves ----------------------------------------------
    Rule("CSV-01", MUST, f"{SERVICE}, overview",
         "compress archives every message before the split point except the picked originals: "
         "they leave get_history and stay in get_full_history."),
    Rule("CSV-02", MUST, f"{SERVICE}, overview",
         "Picked originals stay active verbatim, in their original order, ahead of the messages "
         "that arrived after the split point."),
    Rule("CSV-03", MUST, f"{SERVICE}, overview",
         "Messages that arrive while the summary is written stay active, after the picked "
         "originals."),
    Rule("CSV-04", MUST, "api-memory §核心方法, archiveSpan (compression commits through it)",
         "The compression is committed by one archive_span(count, keep): count covers the "
         "compressed positions (markers included), keep the picked originals' positions."),
    Rule("CSV-05", MUST, f"{TRIGGER}, usage dimension (picked originals)",
         "Picked originals cost at most the configured share (10% by default) of the compressed "
         "conversation's tokens, counted with the configured token counter."),
    Rule("CSV-06", MUST, f"{TRIGGER}, count dimension",
         "With a history limit, picked originals are kept only while they and the post-split "
         "conversation messages stay within half the limit, rounded down."),
    # -- how compress resolves and rejects -----------------------------------------------
    Rule("CSV-07", MUST, f"{SERVICE}, compress",
         "compress resolves only once the compression is committed."),
    Rule("CSV-08", MUST, f"{SERVICE}, compress",
         "A compress of a session that is already compressing rejects with AlreadyCompressing; "
         "the running one still completes."),
    Rule("CSV-09", MUST, f"{SERVICE}, compress and progress",
         "With the memory or the summarizer absent, compress rejects with MemoryUnavailable or "
         "SummarizerUnavailable, archives nothing and sends no event."),
    Rule("CSV-10", MUST, f"{SERVICE}, compress",
         "When the summarizer fails, compress rejects with SummarizerFailed and archives "
         "nothing."),
    Rule("CSV-11", MUST, f"{SERVICE}, compress",
         "When the history is cleared, or changed before the split point, while the summary is "
         "written, compress rejects with HistoryCleared or HistoryChanged and archives nothing."),
    Rule("CSV-12", MUST, f"{SERVICE}, compress and progress",
         "An empty or markers-only history is left alone: compress resolves, calls no summarizer "
         "and sends no event."),
    Rule("CSV-13", MUST, f"{SERVICE}, progress",
         "A compression that starts sends session:compressing start, then done when committed "
         "or error when rejected, and nothing else."),
    Rule("CSV-14", MUST, f"{SERVICE}, compressAt",
         "compress_at is the session's ratio for its platform tier (birth platform first, the "
         "entry platform without one), None when that ratio is 0."),
    Rule("CSV-15", MUST, f"{SERVICE}, compress (manual)",
         "A manual compress compresses even a short conversation fully: every conversation "
         "message before the split goes to the summarizer."),
    # -- the kit's reading of silent points ----------------------------------------------
    Rule("CSV-16", SHOULD, f"{KIT}; §触发判定 (only picks, post-split and dividers remain)",
         "The summary is not a history message: it is stored per session (summary(session_id) "
         "reads it) and the previous one is handed to the summarizer to fold in."),
    Rule("CSV-17", SHOULD, f"{KIT}; upstream divider",
         "Each compression adds one divider (role system, kind event-marker) stamped at commit "
         "time, so it sits after the kept messages."),
    Rule("CSV-18", SHOULD, f"{KIT}; upstream never starts the kept part with a tool reply",
         "Tool exchanges stay whole: the split never cuts one still waiting for replies, and a "
         "picked message brings its whole exchange."),
    Rule("CSV-19", SHOULD, KIT,
         "Picks are taken in the summarizer's order, skipping those that no longer fit; an "
         "empty summary or an impossible pick counts as a summarizer failure."),
    Rule("CSV-20", SHOULD, KIT,
         "compress with a reason other than 'manual' raises ValueError before anything happens."),
    Rule("CSV-21", SHOULD, f"{SERVICE}, progress (reading history fails before start)",
         "When the history cannot be read, compress rejects with HistoryUnreadable and sends no "
         "event."),
)
