"""Tolerated rules: how a non-strict run goes on past a broken SHOULD rule.

A SHOULD rule is this project's reading of a point the documents leave open; outside strict mode a
driver that reads it otherwise gets an advisory, not a failure. Ending the run there would hide
every MUST bug further down the history (issue 9), so the runner records the advisory and runs
again with the rule *tolerated*: the machine stops generating the inputs whose outcome only that
rule decides and stops comparing the aspects only it fixes (:data:`TOLERATIONS` says what
changes for each rule), and goes on checking everything else.

The same goes for the failure that ends a run (:mod:`.runner`): its rule is tolerated and the
histories run again, so the other rules' violations further down are still found. A rule with an
entry in :data:`TOLERATIONS` is tolerated as above; any other one *past its failure*
(:meth:`Tolerance.past_failure`): its inputs stay as they were, and a divergence that involves
it is not held against the rules it was found with (:meth:`Tolerance.excuses`). When such a
rule says what a write does, the store may then hold what the model does not: the machine stops
checking that history (:meth:`Tolerance.derails`), so no check of a state the model no longer
knows is credited or blamed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any, Final

import attrs

from aalis_memory.types import ABSENT, Message, RecentMessageRecord

_NO_UPDATES: Final = "content rewrites only with recent_limit 0 (LIM-03 is still checked)"
_NO_PLANTS: Final = "no unreadable entries planted"

#: What the machine stops generating or comparing for each rule it can tolerate. SHOULD rules
#: first; the MUST rules below are listed so that a catalogue which lowers one of them to SHOULD
#: keeps the run going, and so that the judging after a failure of one goes on (the runner)
#: (tests/kit/test_rule_attribution.py: every covered SHOULD rule is here). A toleration narrows
#: inputs (or what is compared) to those the rule alone decides, never a whole operation others
#: are checked through.
TOLERATIONS: Final = MappingProxyType(
    {
        "LIM-05": "every read and rewrite passes a limit",
        "LIM-06": "no limits outside the contract",
        "MSG-02": "messages compared on role, content, kind and timestamp only",
        "MSG-03": "every message saved with a timestamp",
        "MSG-07": "a reasoning_content of None compared as absent",
        "MSG-04": "sessions that hold nothing are neither read nor written",
        "TS-01": "every message saved at a positive whole millisecond (no history starts at 0 or "
        "below, no step is a fraction)",
        "ARCH-11": "no spans outside the contract",
        "CLEAR-02": "no clear_session (clear_all still runs)",
        "RANGE-02": "range reads unbounded, and only of sessions without archived messages",
        "RANGE-03": "range results compared as sets (a truncated one by its size and members)",
        "RANGE-04": "range reads without roles or exclude_kinds",
        "CROSS-02": "cross-session reads compared by size only, and only while nothing is archived",
        "CROSS-03": "cross-session reads always name their roles",
        "CROSS-04": "cross-session reads without kinds or exclude_kinds",
        "CROSS-05": "cross-session reads without since_ts, platform or exclude_session_ids",
        "UPD-01": _NO_UPDATES,
        "UPD-02": _NO_UPDATES,
        "UPD-03": "no empty old_text",
        "DEL-01": "no deletions by timestamp",
        "DEL-02": "no deletions by an empty list (every other deletion still runs)",
        "META-04": "listings compared sorted by key",
        "META-05": "updated_at not compared",
        "META-06": "callers never change what they handed over or got back",
        "META-07": "payloads hold lists, no tuples, and arrays are not compared by Python type",
        "META-08": "no payload that is not JSON, saved or in a batch (no batch is refused then)",
        "META-11": "delete_metadata only of stored keys",
        "COMMIT-03": "no empty batches, no del of a key that is not stored",
        "COMMIT-04": "no batch with a payload that is not JSON",
        "COMMIT-07": "no batch with a payload that is not JSON",
        "COMMIT-06": "no batch deletes an unreadable entry",
        "META-09": _NO_PLANTS,
        "META-10": _NO_PLANTS,
        "COUNT-01": "count_history not compared (no other rule is read through it)",
        "ARCH-10": "archive_span not watched by a concurrent reader",
        "COMMIT-05": "commit_metadata not watched by a concurrent reader",
    }
)


#: Rules about what a read answers, not what a write leaves: a divergence only they explain
#: leaves the stored state as the model has it. Every other rule's divergence may not.
READ_RULES: Final = frozenset(
    {
        "LIM-01",
        "LIM-02",
        "LIM-04",
        "LIM-06",
        "HIST-01",
        "HIST-02",
        "HIST-03",
        "HIST-04",
        "HIST-05",
        "COUNT-01",
        "FULL-01",
        "FULL-02",
        "ARCH-09",
        "ARCH-10",
        "RANGE-01",
        "RANGE-02",
        "RANGE-03",
        "RANGE-04",
        "CROSS-01",
        "CROSS-02",
        "CROSS-03",
        "CROSS-04",
        "CROSS-05",
        "META-04",
        "META-05",
        "META-07",
        "META-09",
        "META-10",
        "COMMIT-05",
    }
)


@attrs.frozen
class Tolerance:
    """The rules a run tolerates (empty: every divergence counts); ``failed``: those of them
    tolerated past their failure with nothing narrowed (no entry in :data:`TOLERATIONS`)."""

    rules: frozenset[str] = frozenset()
    failed: frozenset[str] = frozenset()

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self.rules

    def adding(self, rule_id: str) -> Tolerance:
        """The same tolerance with ``rule_id`` added; a rule without a toleration cannot be added."""
        if rule_id not in TOLERATIONS:
            raise ValueError(f"the state machine cannot go on past {rule_id}: no toleration")
        return Tolerance(self.rules | {rule_id}, self.failed)

    def past_failure(self, rule_id: str) -> Tolerance:
        """The same tolerance with ``rule_id`` added, which failed: through its toleration if it has one,
        else with its inputs unchanged and its divergences excused (:meth:`excuses`)."""
        if rule_id in TOLERATIONS:
            return self.adding(rule_id)
        return Tolerance(self.rules | {rule_id}, self.failed | {rule_id})

    def excusing(self, rules: Sequence[str]) -> list[str]:
        """The tolerated rules that explain a divergence involving ``rules``: those tolerated
        past their failure (nothing of theirs narrowed, so the divergence may well be theirs),
        else all of ``rules`` when every one is tolerated; ``[]``: it counts."""
        failed = [r for r in rules if r in self.failed]
        if failed:
            return failed
        return list(rules) if rules and all(r in self.rules for r in rules) else []

    def excuses(self, rules: Sequence[str]) -> bool:
        """Whether a divergence involving ``rules`` is not held against any rule."""
        return bool(self.excusing(rules))

    def derails(self, rules: Sequence[str]) -> bool:
        """Whether a divergence involving ``rules``, excused, may have left the store unlike the
        model: a rule that excuses it says what a write does (not in :data:`READ_RULES`)."""
        return any(r not in READ_RULES for r in self.excusing(rules))

    def blame(self, rules: Sequence[str]) -> list[str]:
        """``rules`` without the tolerated ones (all of them if every one is tolerated)."""
        kept = [r for r in rules if r not in self.rules]
        return kept or list(rules)

    def compared(self, value: Any) -> Any:
        """``value`` as far as the comparison looks at it: with MSG-02 tolerated, messages (also
        inside records and lists) keep only role, content, kind and timestamp; with MSG-07
        tolerated, a reasoning_content of None reads as absent."""
        if "MSG-02" in self.rules:
            return _each_message(value, _fields_others_need)
        if "MSG-07" in self.rules:
            return _each_message(value, _absent_for_null)
        return value


def _fields_others_need(message: Message) -> Message:
    return Message(role=message.role, content=message.content, kind=message.kind, timestamp=message.timestamp)


def _absent_for_null(message: Message) -> Message:
    return (
        message if message.reasoning_content is not None else attrs.evolve(message, reasoning_content=ABSENT)
    )


def _each_message(value: Any, change: Callable[[Message], Message]) -> Any:
    """``value`` with ``change`` applied to each message in it (also inside records and lists)."""
    if isinstance(value, Message):
        return change(value)
    if isinstance(value, RecentMessageRecord):
        return RecentMessageRecord(value.session_id, change(value.message))
    if isinstance(value, list):
        return [_each_message(v, change) for v in value]
    return value


__all__ = ["READ_RULES", "TOLERATIONS", "Tolerance"]
