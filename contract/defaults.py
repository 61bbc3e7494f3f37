"""The contract's defaults and caps, each written once.

The reference drivers, the contract model, the suite, the rule texts (LIM-05, CROSS-03, CFG-01,
MDB-01) and ``docs/contract.md`` read them from here. Copies in another language (the TypeScript
bridge's ``src/contract-table.ts``) are generated from this module by
``python -m aalis_memory.conformance contract-tables``, and a kit test fails while one is stale.
A backend author may import them too (the JSON-file example does).
"""

from __future__ import annotations

from typing import Final

DEFAULT_HISTORY_LIMIT: Final = 50
"""The window of ``get_history(session_id)`` with the limit omitted (LIM-05)."""

DEFAULT_FULL_HISTORY_LIMIT: Final = 200
"""How many messages ``get_full_history(session_id)`` returns with the limit omitted (LIM-05)."""

DEFAULT_UPDATE_RECENT_LIMIT: Final = 100
"""How many of the newest active messages ``update_message_content`` rewrites with
``recent_limit`` omitted (LIM-05)."""

DEFAULT_RANGE_QUERY_LIMIT: Final = 500
"""The cap of a range read of a reference driver built without settings (RANGE-03, CFG-01)."""

DEFAULT_CROSS_SESSION_MAX_LIMIT: Final = 1000
"""The cap of a cross-session read of a reference driver built without settings (LIM-04,
CFG-01)."""

DEFAULT_CROSS_SESSION_ROLES: Final[tuple[str, ...]] = ("user", "assistant")
"""The roles a cross-session read keeps when the query names none (CROSS-03)."""

#: Every default above by its name, in the order above (what the generated copies and the
#: defaults table of ``docs/contract.md`` list).
ALL: Final[dict[str, int | tuple[str, ...]]] = {
    "DEFAULT_HISTORY_LIMIT": DEFAULT_HISTORY_LIMIT,
    "DEFAULT_FULL_HISTORY_LIMIT": DEFAULT_FULL_HISTORY_LIMIT,
    "DEFAULT_UPDATE_RECENT_LIMIT": DEFAULT_UPDATE_RECENT_LIMIT,
    "DEFAULT_RANGE_QUERY_LIMIT": DEFAULT_RANGE_QUERY_LIMIT,
    "DEFAULT_CROSS_SESSION_MAX_LIMIT": DEFAULT_CROSS_SESSION_MAX_LIMIT,
    "DEFAULT_CROSS_SESSION_ROLES": DEFAULT_CROSS_SESSION_ROLES,
}
