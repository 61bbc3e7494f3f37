"""The states a rule's verdict may take, in the catalogue's room: a driver's registration (what an
unmet requirement makes of a test's rules) and the tests name them, before any verdict is judged
(:mod:`aalis_memory.conformance.verdicts.model`: how the outcomes of a rule's tests combine)."""

from __future__ import annotations

import enum
from typing import Final, NoReturn

import pytest


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


#: Verdicts a test can give by skipping itself (see :func:`skip`).
SKIP_CATEGORIES: Final = (Verdict.NOT_IMPLEMENTED, Verdict.EXCLUDED, Verdict.UNVERIFIED)


class VerdictSkip(pytest.skip.Exception):  # type: ignore[name-defined,misc]
    """A skip that gives its test's rules a verdict: the verdict and the reason travel as
    fields (pytest's text of the skip, for ``-rs``, says both)."""

    # read as pytest's own skip in its output (``Skipped: unverified: ...``), as pytest's does
    __module__ = "builtins"
    __qualname__ = "Skipped"

    def __init__(self, verdict: Verdict, reason: str) -> None:
        if verdict not in SKIP_CATEGORIES:
            raise ValueError(f"a skip cannot give the verdict {verdict.value!r}")
        super().__init__(f"{verdict.value}: {reason}")
        self.verdict = verdict
        self.reason = reason


def skip(verdict: Verdict, reason: str) -> NoReturn:
    """Skip the running test; its rules get ``verdict``, with ``reason`` as their message."""
    raise VerdictSkip(verdict, reason)
