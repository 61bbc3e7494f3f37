"""A verdict a reviewer can trust: ``pass`` only for what was exercised and held (issue 9).

The pytester runs below are the default, non-strict mode from an empty directory, as a backend
author runs the kit; the drivers are written the way an author would write them.
"""

from __future__ import annotations

from typing import Any

import pytest

from aalis_memory.conformance.registration import tiers
from aalis_memory.conformance.registration.registry import Capabilities
from aalis_memory.conformance.verdicts.model import (
    Outcome,
    RuleVerdict,
    Verdict,
    VerdictSkip,
    counts,
    skip,
)
from aalis_memory.conformance.verdicts.terminal import summary_line
from reports import load_report

# -- the rules of combination ------------------------------------------------------------------


def verdict_of(*verdicts: Verdict) -> RuleVerdict:
    result = RuleVerdict()
    for index, verdict in enumerate(verdicts):
        result.add(Outcome(verdict=verdict, rule="HIST-01", test=f"t{index}", detail=f"m{index}"))
    return result


def test_a_rule_without_outcomes_did_not_run() -> None:
    assert RuleVerdict().verdict is Verdict.NOT_RUN


@pytest.mark.parametrize(
    "others",
    [
        (Verdict.NOT_IMPLEMENTED,),
        (Verdict.EXCLUDED,),
        (Verdict.NOT_RUN,),
    ],
)
def test_only_an_exercised_check_makes_a_pass(others: tuple[Verdict, ...]) -> None:
    assert verdict_of(*others).verdict is others[0]
    assert verdict_of(*others, Verdict.PASS).verdict is Verdict.PASS


@pytest.mark.parametrize("gap", [Verdict.UNVERIFIED, Verdict.BLOCKED])
def test_a_pass_with_a_part_unchecked_is_partial(gap: Verdict) -> None:
    """A part the kit could not check, or a part a failed step blocked, is no pass: the rule is
    a partial pass, never the plain ✅, and its message is the gap's."""
    result = verdict_of(Verdict.PASS, gap, Verdict.EXCLUDED)
    assert result.verdict is Verdict.PARTIAL
    assert result.caveats == [gap, Verdict.EXCLUDED]
    assert result.message == "m1"
    assert verdict_of(Verdict.FAIL, gap, Verdict.PASS).verdict is Verdict.FAIL


def test_a_rule_whose_tests_are_all_blocked_is_blocked_and_names_its_blocker() -> None:
    result = RuleVerdict(
        [
            Outcome(verdict=Verdict.BLOCKED, rule="ARCH-01", test="t0", cause="...", blocker="REQ-01"),
            Outcome(verdict=Verdict.NOT_RUN, rule="ARCH-01", test="t1", detail="deselected", ran=False),
        ]
    )
    assert result.verdict is Verdict.BLOCKED
    assert result.blockers == ["REQ-01"]
    assert result.message == "blocked by REQ-01: ..."  # rendered from its fields
    assert verdict_of(Verdict.BLOCKED, Verdict.UNVERIFIED).verdict is Verdict.BLOCKED


def test_a_failure_or_advisory_wins_over_passes() -> None:
    assert verdict_of(Verdict.PASS, Verdict.FAIL, Verdict.ADVISORY).verdict is Verdict.FAIL
    advisory = verdict_of(Verdict.PASS, Verdict.ADVISORY, Verdict.PASS)
    assert advisory.verdict is Verdict.ADVISORY
    assert advisory.message == "m1"  # the message of the deciding outcome


def test_a_pass_names_the_parts_that_did_not_pass() -> None:
    result = verdict_of(Verdict.PASS, Verdict.EXCLUDED, Verdict.NOT_RUN)
    assert result.verdict is Verdict.PASS
    assert result.caveats == [Verdict.EXCLUDED]


@pytest.mark.parametrize("verdict", [Verdict.NOT_IMPLEMENTED, Verdict.EXCLUDED, Verdict.UNVERIFIED])
def test_a_skip_carries_its_verdict_as_a_field(verdict: Verdict) -> None:
    """The verdict and the reason travel as fields; pytest's text says both, for ``-rs``."""
    with pytest.raises(VerdictSkip) as raised:
        skip(verdict, "no raw access")
    assert (raised.value.verdict, raised.value.reason) == (verdict, "no raw access")
    assert raised.value.msg == f"{verdict.value}: no raw access"


def test_a_skip_cannot_give_a_failure() -> None:
    with pytest.raises(ValueError, match="cannot give"):
        skip(Verdict.FAIL, "no")


def test_the_summary_line_names_every_state() -> None:
    line = summary_line(counts([Verdict.PASS, Verdict.PASS, Verdict.FAIL, Verdict.NOT_RUN]))
    assert line == (
        "2 pass, 1 fail, 0 advisory, 0 not implemented, 0 excluded by tier, "
        "0 unverified, 1 not run (of 4 rules)"
    )


@pytest.mark.parametrize(
    ("caps", "backend", "warned"),
    [
        (Capabilities(ordering="write"), "inmemory", []),
        (Capabilities(ordering="write"), None, ["ordering"]),
        (Capabilities(metadata_atomicity="ordered", archive_atomicity="partial"), "mongodb", []),
        (
            Capabilities(metadata_atomicity="ordered", archive_atomicity="partial"),
            "sqlite",
            ["archive_atomicity", "metadata_atomicity"],
        ),
        (Capabilities(), None, []),
    ],
)
def test_a_tier_weaker_than_granted_is_warned(
    caps: Capabilities, backend: str | None, warned: list[str]
) -> None:
    warnings = tiers.weaker_than_granted(caps, backend)
    assert sorted(w.split("=")[0].removeprefix("declares ") for w in warnings) == warned


# -- as an author meets it -------------------------------------------------------------------

AUTHOR_DRIVERS = '''
import asyncio
import math

from aalis_memory.conformance import Capabilities, memory_driver
from aalis_memory.drivers.inmemory import InMemoryMemory

OPTIONAL = ("count_history", "get_full_history", "update_message_content",
            "delete_messages_by_timestamps", "get_messages_by_session_range",
            "get_recent_messages_across_sessions", "list_metadata_keys")


class Bare(InMemoryMemory):
    """Only the required methods."""


for _name in OPTIONAL:
    setattr(Bare, _name, None)


class Torn(InMemoryMemory):
    """archive_span archives one message at a time, handing the loop over in between."""

    async def archive_span(self, session_id, count, keep=()):
        if keep or not isinstance(count, int) or isinstance(count, bool) or count < 0:
            return await super().archive_span(session_id, count, keep)
        total = 0
        for _ in range(min(count, len(await self.get_history(session_id, math.inf)))):
            total += await super().archive_span(session_id, 1)
            await asyncio.sleep(0)
        return total


def register(name, cls, caps):
    @memory_driver(name, capabilities=caps)
    async def factory(ctx):
        yield cls(range_query_limit=ctx.range_query_limit,
                  cross_session_max_limit=ctx.cross_session_max_limit)


WEAK = Capabilities(ordering="write", metadata_atomicity="ordered", archive_atomicity="partial")
register("bare", Bare, WEAK)
register("torn-partial", Torn, Capabilities(ordering="write", archive_atomicity="partial"))
register("torn-atomic", Torn, Capabilities(ordering="write"))
'''


@pytest.fixture
def author(pytester: pytest.Pytester) -> tuple[pytest.RunResult, dict[str, Any]]:
    pytester.makeini("[pytest]\n")  # not the repository's ini: the default, non-strict mode
    pytester.makeconftest(AUTHOR_DRIVERS)
    report = pytester.path / "report.json"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--memory-driver=bare,torn-partial,torn-atomic",
        f"--memory-report={report}",
    )
    return result, load_report(report)["drivers"]


def rules_with(data: dict[str, Any], driver: str, verdict: str) -> set[str]:
    return {rule for rule, entry in data[driver]["rules"].items() if entry["verdict"] == verdict}


def test_verdicts_as_an_author_meets_them(
    author: tuple[pytest.RunResult, dict[str, Any]],
) -> None:
    result, data = author
    output = result.stdout.str()
    # The torn archive declared atomic fails ARCH-10: the run fails, in the default mode too.
    assert result.ret == pytest.ExitCode.TESTS_FAILED, output
    assert rules_with(data, "torn-atomic", "fail") == {"ARCH-10"}

    # Declared partial, the same tearing is excluded by its tier, and said so.
    assert data["torn-partial"]["rules"]["ARCH-10"]["verdict"] == "excluded by tier"
    assert rules_with(data, "torn-partial", "fail") == set()
    assert any("archive_atomicity='partial'" in w for w in data["torn-partial"]["tier_warnings"])

    # Only the required methods: what nobody exercised is not implemented, never pass.
    bare = data["bare"]["rules"]
    for rule in ("COUNT-01", "DEL-01", "UPD-01", "RANGE-01", "CROSS-01", "FULL-01"):
        assert bare[rule]["verdict"] == "not implemented", (rule, bare[rule])
    # No raw hook: the unreadable-entry rules are unverified, not pass.
    for rule in ("META-09", "META-10"):
        assert bare[rule]["verdict"] == "unverified", (rule, bare[rule])
    # Weak tiers: their checks are excluded, and each weak tier is warned about once.
    for rule in ("ARCH-10", "COMMIT-05"):
        assert bare[rule]["verdict"] == "excluded by tier", (rule, bare[rule])
    assert len(data["bare"]["tier_warnings"]) == 3
    for warning in data["bare"]["tier_warnings"]:
        # Once, in the summary (the header has its own line); the other drivers' lines name them.
        assert output.count(f"WARNING: bare {warning}") == 1, warning

    # Every pass was exercised: a passing test of that rule ran.
    for rule, entry in bare.items():
        if entry["verdict"] == "pass":
            assert any(t["verdict"] == "pass" for t in entry["tests"]), rule

    # The summary line a reviewer reads agrees with the report, state by state.
    totals = data["bare"]["totals"]
    line = (
        f"bare: {totals['pass']} pass, {totals['fail']} fail, {totals['advisory']} advisory, "
        f"{totals['not implemented']} not implemented, {totals['excluded by tier']} excluded "
        f"by tier, {totals['unverified']} unverified, {totals['not run']} not run "
        f"(of {sum(totals.values())} rules)"
    )
    assert line in output, output[-4000:]
    assert totals["not implemented"] >= 6
    assert totals["unverified"] >= 2


def test_a_deselected_rule_is_not_run(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\n")
    report = pytester.path / "report.json"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--memory-driver=inmemory",
        f"--memory-report={report}",
        "-k",
        "archive and not state_machine",
    )
    assert result.ret == 0, result.stdout.str()
    rules = load_report(report)["drivers"]["inmemory"]["rules"]
    assert rules["ARCH-01"]["verdict"] == "pass"
    assert rules["LIM-01"]["verdict"] == "not run"
    assert rules["LIM-01"]["message"] == "its tests were deselected"
    assert rules["META-01"]["verdict"] == "not run"
