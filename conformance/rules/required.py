"""The methods every backend must have (api-memory §核心方法: those declared without ``?``)."""

from aalis_memory.conformance.rules.rule import cite, must

RULES = (
    must(
        "REQ-01",
        "A backend implements every required method: save_message, get_history, clear_session, "
        "archive_span, save_metadata, get_metadata, list_metadata, delete_metadata and "
        "commit_metadata.",
        cite("api-memory", "核心方法", "必填:压缩靠它落定,缺了没有降级可走"),
        cite("api-memory", "核心方法", "saveMessage(sessionId: string, message: Message)"),
    ),
)
