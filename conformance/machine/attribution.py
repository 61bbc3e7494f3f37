"""Which catalogue rules a generated call exercises, and which rule a divergence is filed under.

Two questions, both answered by pure functions of the call and the model's state:

- **exercised** (``*_exercises``): the rules whose behaviour a comparison really depended on. The
  machine credits them (``PROP_CHECKED``) only after the comparison held, so a rule is reported
  ``pass`` only when a step reached it: a count of 0 for LIM-01 unless a limit of 0 was read on
  a non-empty history, no ARCH-05 unless a span ran past the active history, and so on.
- **blamed** (``*_rules``): the rules a divergence may be filed under, the most telling first.
  The first is the one a user reads (``[ID LEVEL]``); the minimizer may narrow to another one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Final, Literal

import attrs

from aalis_memory.conformance.machine.contract_model import (
    FULL_HISTORY_DEFAULT,
    HISTORY_DEFAULT,
    UPDATE_DEFAULT,
    cross_session_rejections,
    history_window,
    take_newest,
)
from aalis_memory.conformance.machine.failure import Raised
from aalis_memory.conformance.rules import CATALOGUE
from aalis_memory.types import (
    ABSENT,
    CONTROL_KINDS,
    JsonObject,
    Message,
    MetadataDel,
    MetadataOp,
    RecentMessageRecord,
    RecentMessagesAcrossSessionsQuery,
)

#: Every rule the machine can report, in catalogue order (the rules marked ``machine``; the suite
#: test's spec marker, SPEC_MAP.md reads it).
COVERED_RULES: Final = tuple(r.id for r in CATALOGUE.values() if r.machine)

#: The rule a message's fields coming back changed is filed under when no narrower one says
#: more (kind: MSG-05; a timestamp: see :func:`field_rules`).
FIELDS_RULE: Final = "MSG-02"

#: Where a message whose fields came back changed got them (:func:`field_rules`): saved by the
#: step that found it (``stamped``: saved without a timestamp, so the store stamped it),
#: rewritten by it, or neither (``None``: an earlier step, or a read that changed them).
Origin = Literal["save", "stamped", "rewrite"] | None


def odd_timestamp(timestamp: object) -> bool:
    """Whether ``timestamp`` is one TS-01 is about: 0, negative or fractional."""
    return (
        isinstance(timestamp, int | float)
        and not isinstance(timestamp, bool)
        and (timestamp <= 0 or timestamp != int(timestamp))
    )


def field_rules(expected: Message, actual: Any, origin: Origin, cause: Sequence[str] = ()) -> list[str]:
    """The rules for one message that came back (the same one: same identity) with other field
    values than ``expected``: the aspect picks the rule, the origin the operation.

    A kind is MSG-05's; a timestamp is the rewrite's (UPD-04) when the step rewrote the message,
    the save's when the step saved it (MSG-03 for a stamp the store chose, TS-01 for 0, a
    negative or a fractional timestamp, MSG-02 for any other); every other field is MSG-02's
    (UPD-02's first after a rewrite: it rewrites content only). With no origin known, the step's
    ``cause`` says which operation: UPD-04 or MSG-03 in it take a timestamp. Only when the origin
    is not the step's save or rewrite does ``cause`` follow: a field a save or a rewrite changed
    is never blamed on what was read through it (membership, order, a window).
    """
    rules: list[str] = []
    if getattr(actual, "kind", None) != expected.kind:
        rules.append("MSG-05")
    if getattr(actual, "timestamp", None) != expected.timestamp:
        if origin == "rewrite" or (origin is None and "UPD-04" in cause):
            rules.append("UPD-04")
        elif origin == "stamped" or (origin is None and "MSG-03" in cause):
            rules.append("MSG-03")
        elif odd_timestamp(expected.timestamp) and origin in ("save", None):
            rules.append("TS-01")
        else:
            rules.append(FIELDS_RULE)
    rest = (
        not isinstance(actual, Message)
        or attrs.evolve(actual, kind=expected.kind, timestamp=expected.timestamp) != expected
    )
    if rest and null_for_absent(expected, actual):
        rules.append("MSG-07")  # the only other difference: the field's own rule, whatever the step
    elif rest:
        rules += ["UPD-02", FIELDS_RULE] if origin == "rewrite" else [FIELDS_RULE]
    if not rules:
        rules.append(FIELDS_RULE)
    return list(dict.fromkeys(rules if origin is not None else [*rules, *cause]))


def null_for_absent(expected: Message, actual: Any) -> bool:
    """Whether ``actual`` differs from ``expected`` (kind and timestamp aside) only in holding
    ``reasoning_content=None`` where it was saved absent: MSG-07's point, not MSG-02's."""
    return (
        isinstance(actual, Message)
        and expected.reasoning_content is ABSENT
        and actual.reasoning_content is None
        and attrs.evolve(actual, kind=expected.kind, timestamp=expected.timestamp, reasoning_content=ABSENT)
        == expected
    )


def _identity(message: Any) -> str:
    """What tells a message from the others of a list, its fields aside: its content (each
    generated message carries a unique tag no rewrite touches)."""
    return repr(getattr(message, "content", None))


def first_changed(expected: Sequence[Message], actual: Sequence[Any]) -> tuple[Message, Any] | None:
    """The first message of ``expected`` that ``actual`` holds (the same identity, the n-th of
    its content matched to the n-th) with other field values; ``None`` when every message both
    hold is unchanged (then only membership or order differs)."""
    returned: dict[tuple[str, int], Any] = {}
    seen: dict[str, int] = {}
    for message in actual:
        key = _identity(message)
        returned[(key, seen.get(key, 0))] = message
        seen[key] = seen.get(key, 0) + 1
    counted: dict[str, int] = {}
    for message in expected:
        key = _identity(message)
        got = returned.get((key, counted.get(key, 0)), message)
        counted[key] = counted.get(key, 0) + 1
        if got != message:
            return message, got
    return None


def _conversation(messages: Sequence[Message]) -> int:
    return sum(1 for m in messages if m.kind not in CONTROL_KINDS)


def _hits(messages: Sequence[Message], old: str) -> int:
    return sum(1 for m in messages if isinstance(m.content, str) and old in m.content)


# -- exercised: message reads ---------------------------------------------------------------


def session_read_exercises(*, returned: bool, unknown: bool, others_hold: bool) -> set[str]:
    """What any compared read of one session exercised besides its own rules: the fields of
    what it returned (MSG-02), the session boundary while other sessions hold messages
    (MSG-01), an unknown session reading as empty (MSG-04)."""
    out = set()
    if returned:
        out.add(FIELDS_RULE)
    if others_hold:
        out.add("MSG-01")
    if unknown:
        out.add("MSG-04")
    return out


def field_exercises(messages: Sequence[Message]) -> set[str]:
    """The field rules a compared read of ``messages`` exercised beyond MSG-02: a kind coming
    back (MSG-05), a reasoning_content saved absent coming back absent (MSG-07), a timestamp of
    0, below it or fractional coming back exactly (TS-01)."""
    out = set()
    if any(m.kind is not None for m in messages):
        out.add("MSG-05")
    if any(m.reasoning_content is ABSENT for m in messages):
        out.add("MSG-07")
    if any(odd_timestamp(m.timestamp) for m in messages):
        out.add("TS-01")
    return out


def history_read_exercises(active: Sequence[Message], limit: int | float | None, archived: bool) -> set[str]:
    """A compared ``get_history(session, limit)`` over the active history ``active``."""
    if not active:
        return set()
    out = {"HIST-01"} if archived else set()
    conversation = _conversation(active)
    if limit is None:
        if conversation > HISTORY_DEFAULT:
            out.add("LIM-05")
        limit = HISTORY_DEFAULT
    if limit == 0:
        return {*out, "LIM-01"}
    if limit == math.inf:
        out.add("LIM-02")
    else:
        out.add("HIST-04" if conversation > limit else "HIST-05")
        if history_window(active, limit) != take_newest(active, limit):
            out.add("HIST-03")  # counting control records would have cut elsewhere
    if len(history_window(active, limit)) >= 2:
        out.add("HIST-02")
    return out


def full_read_exercises(
    full: Sequence[Message], limit: int | float | None, archived: Collection[str | None]
) -> set[str]:
    """A compared ``get_full_history(session, limit)``; ``archived``: contents of archived rows."""
    if not full:
        return set()
    out = set()
    if limit is None:
        if len(full) > FULL_HISTORY_DEFAULT:
            out.add("LIM-05")
        limit = FULL_HISTORY_DEFAULT
    if limit == 0:
        return {"LIM-01"}
    if limit == math.inf:
        out.add("LIM-02")
    elif len(full) > limit:
        out.add("FULL-02")
    window = take_newest(full, limit)
    if len(window) >= 2:
        out.add("FULL-02")
    old = [m.content in archived for m in window]
    if any(old):
        out.add("FULL-01")
        if not all(old):
            out.add("ARCH-09")  # archived and kept rows interleaved in one answer
    return out


def archive_exercises(
    active: Sequence[Message], count: int, keep: Sequence[int], archived_before: bool
) -> set[str]:
    """A compared ``archive_span``: its result (ARCH-07) and the state it left."""
    out = {"ARCH-07"}
    if not active:
        return out
    span = min(count, len(active))
    inside = [k for k in keep if k < span]
    if span:
        out.add("ARCH-01")
    if inside:
        out.add("ARCH-02")
    if any(m.kind in CONTROL_KINDS for m in active[:span]):
        out.add("ARCH-03")
    if count == 0:
        out.add("ARCH-04")
    if count > len(active):
        out.add("ARCH-05")
    if len(inside) != len(keep) or len(set(inside)) != len(inside):
        out.add("ARCH-06")
    if archived_before:
        out.add("ARCH-08")
    return out


def update_exercises(
    active: Sequence[Message], stored: Sequence[Message], old: str, new: str, limit: int | float | None
) -> set[str]:
    """A compared ``update_message_content`` (count and the state after it)."""
    everywhere = _hits(stored, old)
    out = set()
    if limit == 0:
        return {"LIM-03"} if everywhere else set()
    if new == old:
        return {"UPD-02"} if everywhere else set()  # the window decides nothing
    if limit == math.inf and everywhere:
        out.add("LIM-03")
    if limit is None:
        if len(active) > UPDATE_DEFAULT:
            out.add("LIM-05")
        limit = UPDATE_DEFAULT
    in_window = _hits(take_newest(active, limit), old)
    if in_window != everywhere:
        out.add("UPD-01")  # the window decided which messages changed
    if in_window:
        out.add("UPD-02")
    return out


def delete_exercises(
    stored: Sequence[Message], timestamps: Sequence[int | float], others: Sequence[Message]
) -> set[str]:
    """A compared ``delete_messages_by_timestamps`` (count, and every session after it)."""
    doomed = set(timestamps)
    out = set()
    if any(m.timestamp in doomed for m in stored):
        out.add("DEL-01")
    if not doomed:
        out.add("DEL-02")  # an empty list
    if any(m.timestamp in doomed for m in others):
        out.add("MSG-06")  # other sessions hold the same timestamps: only the session filter
    return out


def clear_exercises(
    *, everything: bool, cleared: bool, archived: bool, others_hold: bool, metadata_held: bool
) -> set[str]:
    """A compared ``clear_session`` (or ``clear_all`` with ``everything``)."""
    if everything:
        return {r for r, held in (("CLEAR-03", cleared), ("CLEAR-04", metadata_held)) if held}
    out = {"CLEAR-01"} if cleared else set()
    if archived or metadata_held:
        out.add("CLEAR-02")
    if others_hold:
        out.add("MSG-06")  # other sessions stayed as they were
    return out


def range_exercises(
    hits: Sequence[Message],
    unfiltered: Sequence[Message],
    cap: int,
    bounds: tuple[float, float],
    archived: Collection[str | None],
    filtered: bool,
) -> set[str]:
    """A compared range read: ``hits`` before the cap, ``unfiltered`` the same bounds without
    roles/exclude_kinds, ``archived`` the contents of archived rows."""
    out = set()
    if len(hits) > cap:
        out |= {"RANGE-01", "RANGE-03"}  # the exact cap, and which end it keeps
    if len(hits[:cap]) >= 2:
        out.add("RANGE-03")
    edges = {b for b in bounds if math.isfinite(b)}
    if any(m.timestamp in edges for m in hits) or any(m.content in archived for m in hits):
        out.add("RANGE-02")
    kindless = any(m.kind is None for m in hits)
    if filtered and (list(hits) != list(unfiltered) or kindless):
        out.add("RANGE-04")
    return out


#: Query fields each cross-session filter rule owns (roles: CROSS-03, its default included).
CROSS_FILTERS: Final = (
    ("CROSS-03", ("roles",)),
    ("CROSS-04", ("kinds", "exclude_kinds")),
    ("CROSS-05", ("since_ts",)),
    ("CROSS-05", ("platform",)),
    ("CROSS-05", ("exclude_session_ids",)),
)


def cross_exercises(
    query: RecentMessagesAcrossSessionsQuery,
    candidates: Sequence[RecentMessageRecord],
    cap: int,
    without: Callable[[tuple[str, ...]], Sequence[RecentMessageRecord]],
) -> set[str]:
    """A compared cross-session read; ``without(fields)`` gives the candidates the query would
    have with those fields cleared (roles cleared means every role). A filter is exercised when
    it changes the candidates, or sits on an edge its rule fixes (``since_ts`` equal to a
    candidate's timestamp, ``exclude_kinds`` keeping kind-less records)."""
    out = set()
    if query.limit == 0:
        return {"LIM-01"} if candidates else set()
    if len(candidates) > cap:
        if query.limit == math.inf:
            out.add("LIM-04")
        elif query.limit > cap:
            out.add("CROSS-01")
    if candidates:
        out.add("CROSS-02")
    for rule_id, fields in CROSS_FILTERS:
        if all(getattr(query, f) is None for f in fields) and rule_id != "CROSS-03":
            continue
        if list(without(fields)) != list(candidates):
            out.add(rule_id)
    stamps = {r.message.timestamp for r in candidates}
    if query.since_ts is not None and query.since_ts in stamps:
        out.add("CROSS-05")  # since_ts is inclusive
    if query.exclude_kinds and any(r.message.kind is None for r in candidates):
        out.add("CROSS-04")  # exclude_kinds keeps kind-less records
    return out


# -- exercised: metadata --------------------------------------------------------------------


def exotic_json(data: object) -> bool:
    """Whether ``data`` holds what a store easily loses on the way to storage and back (META-01:
    whatever JSON object was saved comes back): nesting, non-ASCII text, keys with '.' or a
    leading '$'."""
    if isinstance(data, dict):
        return any(
            isinstance(v, dict | list)
            or not str(k).isascii()
            or "." in str(k)
            or str(k).startswith("$")
            or exotic_json(v)
            for k, v in data.items()
        )
    if isinstance(data, list):
        return any(isinstance(v, dict | list) or exotic_json(v) for v in data)
    return isinstance(data, str) and not data.isascii()


def json_alike(data: object) -> bool:
    """Whether ``data`` holds values JSON writes like others (META-07): a tuple (an array, read
    back as a list) or a whole-valued float (a number, read back as 2 or 2.0)."""
    if isinstance(data, dict):
        return any(json_alike(v) for v in data.values())
    if isinstance(data, tuple):
        return True
    if isinstance(data, list):
        return any(json_alike(v) for v in data)
    return isinstance(data, float) and data.is_integer()


def listing_exercises(
    data: Sequence[JsonObject], unreadable: bool, others_hold: bool, alike: bool = False
) -> set[str]:
    """A compared ``list_metadata`` of one namespace holding entries with ``data``; ``alike``:
    one of them was saved holding values JSON writes like others (:func:`json_alike`)."""
    out = set()
    if data or others_hold:
        out.add("META-02")
    if len(data) >= 2:
        out.add("META-04")
    if unreadable:
        out.add("META-09")
    if any(exotic_json(d) for d in data):
        out.add("META-01")
    if alike:
        out.add("META-07")
    return out


def commit_exercises(
    batch: Sequence[MetadataOp],
    *,
    rejected: bool,
    missing_del: bool,
    unreadable_del: bool,
    refused: str | None,
) -> set[str]:
    """A compared ``commit_metadata`` (its result, then every namespace after it); ``refused``:
    the rule a refused batch is checked under (COMMIT-04 or COMMIT-07, by tier)."""
    if rejected:
        return {refused} if refused is not None else set()
    out = set()
    targets = [(op.namespace, op.key) for op in batch]
    if targets:
        out.add("COMMIT-01")
    if len({ns for ns, _ in targets}) > 1:
        out.add("COMMIT-02")
    if not batch or missing_del:
        out.add("COMMIT-03")
    if unreadable_del:
        out.add("COMMIT-06")
    return out


# -- blamed ---------------------------------------------------------------------------------


def archive_rules(
    active: Sequence[Message], count: int, keep: Sequence[int], archived_before: bool = False
) -> list[str]:
    """The archive rules this call exercises, the narrowest first.

    The count above the active history (ARCH-05) goes last: most long spans exercise it, so it
    explains little on its own; the minimizer narrows a failure down to fewer rules. ARCH-08
    only with earlier archives (as :func:`archive_exercises` credits it): a history cut down to
    no earlier archive then narrows a failure to the span's own rules.
    """
    span = min(count, len(active))
    rules: list[str] = []
    if count == 0:
        rules.append("ARCH-04")
    if archived_before:
        rules.append("ARCH-08")
    if any(k >= span for k in keep) or len(set(keep)) != len(keep):
        rules.append("ARCH-06")
    if any(m.kind in CONTROL_KINDS for m in active[:span]):
        rules.append("ARCH-03")
    if any(k < span for k in keep):
        rules.append("ARCH-02")
    if count > len(active):
        rules.append("ARCH-05")
    return list(dict.fromkeys([*rules, "ARCH-01"]))


def update_rules(
    active: Sequence[Message], stored: Sequence[Message], old: str, new: str, limit: object
) -> list[str]:
    """UPD-01 when the window decides which messages change, LIM-03 at the limit edges, UPD-02
    when old_text is rewritten to itself (nothing changes, wherever the window ends).

    Archived messages count as hits outside the window: only the window keeps them unchanged.
    """
    hits = _hits(stored, old)
    if limit == 0:
        return ["LIM-03", "UPD-01", "UPD-02"] if hits else ["UPD-02", "LIM-03"]
    if new == old:
        return ["UPD-02", "UPD-01", "LIM-03"]
    size = len(active) if limit is None or limit == math.inf else int(str(limit))
    if _hits(active[len(active) - min(size, len(active)) :], old) != hits:
        return ["UPD-01", "UPD-02", "LIM-03"]
    return ["UPD-02", "UPD-01", "LIM-03"]


def commit_rules(batch: Sequence[MetadataOp]) -> list[str]:
    """The commit rules a batch's outcome depends on, most telling first: op order only matters
    when ops share a key (COMMIT-01), namespaces only when there are several (COMMIT-02)."""
    if not batch:
        return ["COMMIT-03"]
    targets = [(op.namespace, op.key) for op in batch]
    rules = ["COMMIT-01"] if len(set(targets)) < len(targets) else []
    rules += ["COMMIT-02"] if len({ns for ns, _ in targets}) > 1 else []
    rules += ["COMMIT-03"] if any(isinstance(op, MetadataDel) for op in batch) else []
    return [*rules, "COMMIT-01"]


def cross_rules(query: RecentMessagesAcrossSessionsQuery, matches: int, cap: int) -> list[str]:
    """The rules a cross-session read's answer depends on, the limit edges first."""
    rules: list[str] = []
    if query.limit == 0:
        rules.append("LIM-01")
    if query.limit > cap and matches > cap:
        rules += ["LIM-04"] if query.limit == math.inf else ["CROSS-01"]
    if query.roles is None:
        rules.append("CROSS-03")
    if query.kinds is not None or query.exclude_kinds:
        rules.append("CROSS-04")
    if query.roles is not None:
        rules.append("CROSS-03")
    if query.since_ts is not None or query.platform or query.exclude_session_ids:
        rules.append("CROSS-05")
    return [*rules, "CROSS-02"]


def list_mismatch_rules(
    session: str,
    expected: Sequence[Message],
    actual: Any,
    *,
    owner: Mapping[str, str],
    read: Sequence[str],
    order_rule: str,
    cause: Sequence[str],
    unknown: Sequence[str],
    origin: Callable[[Message], Origin] | None = None,
    compared: Callable[[Any], Any] | None = None,
) -> list[str]:
    """Rule IDs for a message list that differs from ``expected``, by the aspect that differs:
    a foreign message (MSG-01); a message both hold with other field values (the field's rule,
    :func:`field_rules`, ``origin`` telling where the message got them; checked before order
    and membership, which a changed timestamp or kind may have moved); the same messages in
    another order (``order_rule``); or other membership (then ``cause`` first: the step that
    changed the state). ``owner`` maps each content tag to the session it was saved in;
    ``compared``: the message as far as the run compares it (tolerated fields left out)."""
    if isinstance(actual, Raised):  # the read itself failed: its limit first, then the rest
        limits = [r for r in read if r.startswith("LIM-")]
        return [*unknown, *limits, *(r for r in read if r not in limits), *cause]
    if not isinstance(actual, list):
        return [*unknown, *cause, *read]
    if any(owner.get(getattr(m, "content", None) or "", session) != session for m in actual):
        return ["MSG-01", *cause, *read]
    seen = compared or (lambda value: value)
    changed = first_changed(seen(list(expected)), seen(actual))
    if changed is not None:
        return field_rules(*changed, origin(changed[0]) if origin is not None else None, cause)
    want = [m.content for m in expected]
    got = [getattr(m, "content", None) for m in actual]
    if want == got:
        return [FIELDS_RULE, *read, *cause]
    if sorted(map(str, want)) == sorted(map(str, got)):
        return [order_rule, *read, *cause]
    control = _control_rule(read)
    if control is not None and _drops_only_control(expected, got):
        return [control, *read, *cause]  # the read lost markers: the window rule, not the step
    return [*cause, *read]


def _control_rule(read: Sequence[str]) -> str | None:
    """The rule that says which control records a get_history read returns: HIST-04 for a
    window, HIST-05 for a whole history; ``None`` for other reads."""
    if "HIST-04" in read:
        return "HIST-04"
    return "HIST-05" if any(r.startswith("HIST-") for r in read) else None


def _drops_only_control(expected: Sequence[Message], got: Sequence[str | None]) -> bool:
    """Whether ``got`` is ``expected`` (by content) with some control records left out."""
    kept = 0
    dropped = False
    for message in expected:
        if kept < len(got) and got[kept] == message.content:
            kept += 1
        elif message.is_control:
            dropped = True
        else:
            return False
    return dropped and kept == len(got)


def interleaving_only(expected: Sequence[Message], actual: Any, archived: Collection[str | None]) -> bool:
    """Whether ``actual`` keeps the archived and the active messages each in order and only
    interleaves them wrongly (ARCH-09 rather than a plain order bug)."""
    if not isinstance(actual, list) or len(actual) != len(expected):
        return False
    if not any(m.content in archived for m in expected):
        return False
    if sorted(map(repr, actual)) != sorted(map(repr, expected)):
        return False
    for old in (True, False):
        want = [m for m in expected if (m.content in archived) == old]
        got = [m for m in actual if (getattr(m, "content", None) in archived) == old]
        if want != got:
            return False
    return True


def _record_key(record: Any) -> tuple[Any, Any]:
    return getattr(record, "session_id", None), getattr(getattr(record, "message", None), "content", None)


def cross_witness_rules(
    query: RecentMessagesAcrossSessionsQuery,
    expected: Sequence[RecentMessageRecord],
    candidates: Sequence[RecentMessageRecord],
    actual: Any,
    stored: Callable[[str, Any], tuple[Message, bool] | None],
) -> tuple[list[str], list[str]]:
    """The filters a wrong cross-session answer points at, read off its records.

    First: every returned record that is no candidate is blamed on the parts of the query that
    drop it (the model's :func:`cross_session_rejections`; ``stored`` finds the stored message
    and whether it is archived). This is exact, where probing a filter alone may not be: under
    the cap, the record the filter should drop can be too old to show. Second: for records of
    the expected answer that are missing, the edges a filter could have got wrong (a record at
    exactly ``since_ts``, a kind-less record under ``exclude_kinds``).
    """
    if not isinstance(actual, list):
        return [], []
    known = {_record_key(r) for r in candidates}
    extra: list[str] = []
    for record in actual:
        session, content = _record_key(record)
        if (session, content) in known or not isinstance(session, str):
            continue
        found = stored(session, content)
        if found is not None:
            extra += cross_session_rejections(query, session, *found)
    returned = {_record_key(r) for r in actual}
    missing: list[str] = []
    for record in expected:
        if _record_key(record) in returned:
            continue
        if query.since_ts is not None and record.message.timestamp == query.since_ts:
            missing.append("CROSS-05")
        if query.exclude_kinds and record.message.kind is None:
            missing.append("CROSS-04")
    return list(dict.fromkeys(extra)), list(dict.fromkeys(missing))


def cross_sweep_rules(
    candidates: Sequence[RecentMessageRecord],
    actual: Any,
    cap: int,
    is_archived: Callable[[str, Any], bool],
    cause: Sequence[str],
) -> list[str]:
    """What an unfiltered cross-session read got wrong, judged by its records."""
    if not isinstance(actual, list):
        return list(cause)
    known: dict[tuple[Any, Any], RecentMessageRecord] = {
        (r.session_id, r.message.content): r for r in candidates
    }
    for record in actual:
        content = getattr(getattr(record, "message", None), "content", None)
        session = getattr(record, "session_id", None)
        if (session, content) in known:
            if known[(session, content)] != record:  # the right message, mangled fields
                return field_rules(
                    known[(session, content)].message, getattr(record, "message", None), None, cause
                )
        elif isinstance(session, str) and is_archived(session, content):
            return ["CROSS-02", *cause]  # archived messages are not read across sessions
        else:
            return [*cause, "MSG-01"]  # a message the store should no longer hold
    if len(actual) > cap:
        return ["CROSS-01", "LIM-04", *cause]
    return ["CROSS-02", *cause]


__all__ = [
    "COVERED_RULES",
    "CROSS_FILTERS",
    "FIELDS_RULE",
    "Origin",
    "archive_exercises",
    "archive_rules",
    "clear_exercises",
    "commit_exercises",
    "commit_rules",
    "cross_exercises",
    "cross_rules",
    "cross_sweep_rules",
    "cross_witness_rules",
    "delete_exercises",
    "exotic_json",
    "field_exercises",
    "field_rules",
    "first_changed",
    "full_read_exercises",
    "history_read_exercises",
    "interleaving_only",
    "json_alike",
    "list_mismatch_rules",
    "listing_exercises",
    "odd_timestamp",
    "range_exercises",
    "session_read_exercises",
    "update_exercises",
    "update_rules",
]
