"""The states a rule's verdict may take, in the catalogue's room: a driver's registration (what an
unmet requirement makes of a test's rules) and the tests name them, before any verdict is judged
(:mod:`aalis_memory.conformance.verdicts.model`: how the outcomes of a rule's tests combine)."""

from __future__ import annotations

import enum
from typing import Final


class Verdict(enum.Enum):
    """The states of a rule, from the one that decides a rule's verdict first to the last."""

    FAIL = "fail"
    ADVISORY = "advisory"
    KNOWN_FAILURE = "known failure"
    #: A rule state only (never one test's outcome): passes, and a part unverified or blocked.
    PARTIAL = "partial pass"
    PASS = "pass"
    BLOCKED = "blocked"
    UNVERIFIED = "unverified"
    EXCLUDED = "excluded by tier"
    NOT_IMPLEMENTED = "not implemented"
    NOT_RUN = "not run"

    @property
    def rank(self) -> int:
        return _ORDER.index(self)


_ORDER: Final = tuple(Verdict)
