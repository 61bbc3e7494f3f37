"""Statements of the documents that are not storage rules, listed so nothing is dropped silently."""

from aalis_memory.conformance.rules.rule import OutOfScope

OUT_OF_SCOPE = (
    OutOfScope(
        "api-memory §概述",
        "Several implementations may be loaded; each consumer binds one of them.",
        "Host service selection, not backend behaviour.",
    ),
    OutOfScope(
        "api-memory §消费方式",
        "Consumers reach the bound service through caps.memory.use and check presence.",
        "Plugin wiring of the host framework.",
    ),
    OutOfScope(
        "api-memory §跨会话取料的范围",
        "Whether one session may read another is decided by the session manager's canTake "
        "and by per-session fields of the vector and relation plugins.",
        "Access policy lives above storage; a backend returns what it is asked for.",
    ),
    OutOfScope(
        "api-memory §countHistory",
        "Without count_history, plugin-agent reads the whole active history and counts it.",
        "Consumer fallback; the kit checks count_history where a driver has it.",
    ),
    OutOfScope(
        "api-memory §archiveSpan",
        "Callers must re-check their snapshot before archiving, because late arrivals and "
        "deletions shift positions.",
        "A caller obligation; the backend rule (positions at call time) is ARCH-08.",
    ),
    OutOfScope(
        "api-memory §压缩服务",
        "The session server turns session:compressing into a timeline notice; "
        "session/compress, the feature flag and the usage entry look the service up.",
        "Host wiring; the kit checks the events a provider sends (CSV-13).",
    ),
    OutOfScope(
        "api-memory §压缩服务",
        "Automatic compressions on usage or count are started by the provider in the "
        "background, not through compress.",
        "Provider scheduling; the trigger arithmetic is CMP-01..09 and the reference "
        "provider's automatic path is tested in tests/drivers/test_summary_service.py.",
    ),
    OutOfScope(
        "api-memory §钩子与贡献点",
        "/clear lists registered types in its help, refuses unregistered ones, and prints "
        "each result row's message as is; cross-session data pushes an unsuccessful row "
        "when named explicitly in a session clear.",
        "Command UI and the policy of cross-session plugins (not part of this kit); the "
        "registry rules the command relies on are CLR-10 and CLR-11, and what a plugin "
        "keeping metadata owes the hook is CLR-12..16.",
    ),
    OutOfScope(
        "api-memory §钩子与贡献点",
        "The clearing chain stops and holds sessions through AgentService.clearing.",
        "Agent orchestration, not storage.",
    ),
    OutOfScope(
        "api-memory §记忆变更事件",
        "memory:messages-deleted, memory:messages-rewritten and history:changed are emitted "
        "by whoever changed stored messages.",
        "A storage backend never sends them: its callers do. The one caller in this "
        "contract that changes stored messages itself, the compression provider, is "
        "checked (EVT-01..03); the checkpoint and rewriting plugins are outside it.",
    ),
    OutOfScope(
        "api-memory §记忆变更事件",
        "The payloads carry only a session id and must not be used to trigger orchestration.",
        "Advice to event consumers, not behaviour of a backend or provider.",
    ),
    OutOfScope(
        "api-memory §钩子与贡献点",
        "A result row's message is for people and states success or failure in its own "
        "words; /clear lists it as is.",
        "Wording cannot be checked mechanically; CLR-15 checks that every row of a plugin "
        "names its type and carries a message.",
    ),
)
