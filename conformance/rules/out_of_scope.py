"""Statements of the documents that are not storage rules, listed so nothing is dropped silently."""

from aalis_memory.conformance.rules.model import OutOfScope

OUT_OF_SCOPE = (
    OutOfScope("api-memory §概述",
               "Several implementations may be loaded; each consumer binds one of them.",
               "Host service selection, not backend behaviour."),
    OutOfScope("api-memory §消费方式",
               "Consumers reach the bound service through caps.memory.use and check presence.",
               "Plugin wiring of the host framework."),
    OutOfScope("api-memory §跨会话取料的范围",
               "Whether one session may read another is decided by the session manager's canTake "
               "and by per-session fields of the vector and relation plugins.",
               "Access policy lives above storage; a backend returns what it is asked for."),
    OutOfScope("api-memory §countHistory",
               "Without count_history, plugin-agent reads the whole active history and counts it.",
               "Consumer fallback; the kit checks count_history where a driver has it."),
    OutOfScope("api-memory §archiveSpan",
               "Callers must re-check their snapshot before archiving, because late arrivals and "
               "deletions shift positions.",
               "A caller obligation; the backend rule (positions at call time) is ARCH-08."),
    OutOfScope("api-memory §压缩服务, §触发判定",
               "The compression service, compressionLine and compressionDue.",
               "Not a storage rule; covered by the compression part of the kit (planned)."),
    OutOfScope("api-memory §钩子与贡献点",
               "The memory:clear hook, historyCleared, memory:clear-type and "
               "clearMetadataNamespaces.",
               "Helpers built on the storage API; covered by the compression/clearing part of the "
               "kit (planned). The storage rules they rely on are META-09, META-10 and CLEAR-04."),
    OutOfScope("api-memory §钩子与贡献点",
               "The clearing chain stops and holds sessions through AgentService.clearing.",
               "Agent orchestration, not storage."),
    OutOfScope("api-memory §记忆变更事件",
               "memory:messages-deleted, memory:messages-rewritten and history:changed are emitted "
               "by whoever changed stored messages.",
               "Events are sent by callers of the storage API, never by the backend."),
)
