"""How long the machine runs: the Hypothesis profiles and the time-budgeted rounds.

``ci`` (the default) and ``deep`` are derandomized: the same histories every run, so a pass or a
failure is reproducible. ``thorough`` is random and long, for nightly runs; with a time budget it
runs rounds of :data:`BUDGET_ROUND` examples until the budget is spent, so a nightly run ends
green at a known time instead of being killed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from hypothesis import HealthCheck, Phase, settings

#: Hypothesis profile names behind ``--memory-hypothesis-profile`` (prefixed so they never clash
#: with a project's own ``ci`` profile or Hypothesis's built-in one).
PROFILES: Final = {
    "ci": "aalis-memory-ci",
    "deep": "aalis-memory-deep",
    "thorough": "aalis-memory-thorough",
}

#: Examples per round of a time-budgeted run: the budget is overshot by at most one round.
BUDGET_ROUND: Final = 10


def _derandomized(examples: int, steps: int) -> settings:
    return settings(
        derandomize=True,
        database=None,
        deadline=None,
        max_examples=examples,
        stateful_step_count=steps,
        print_blob=True,
        report_multiple_bugs=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        # Hypothesis's shrinker needs minutes on long stateful histories; the minimizer cuts a
        # failing history down by replaying rule calls instead, in about a second.
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
    )


#: ci: the default, a few seconds per in-process driver. deep: the same histories, more of
#: them (the kit's own broken-driver check uses it). thorough: random and long, for nightly runs.
settings.register_profile(PROFILES["ci"], _derandomized(40, 30))
settings.register_profile(PROFILES["deep"], _derandomized(300, 40))
settings.register_profile(
    PROFILES["thorough"],
    derandomize=False,
    deadline=None,
    max_examples=3000,
    stateful_step_count=80,
    print_blob=True,
    report_multiple_bugs=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    # No Hypothesis shrinking here either: on a FerretDB-backed store it ran past five minutes
    # and gave up, while the minimizer cut the same failure down in seconds.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)


def profile_settings(profile: str) -> settings:
    """The Hypothesis settings of a kit profile (``ci``, ``deep`` or ``thorough``)."""
    return settings.get_profile(PROFILES[profile])


#: Seconds between two progress lines of a time-budgeted run.
PROGRESS_EVERY: Final = 30.0


def run_rounds(
    run_once: Callable[[settings], None],
    profile: str,
    deadline: float | None,
    clock: Callable[[], float],
    progress: Callable[[str], None] | None = None,
) -> int:
    """Run ``run_once`` under ``profile``: once, or (with a ``deadline`` on ``clock``) in rounds
    of :data:`BUDGET_ROUND` examples until the deadline has passed. Returns the rounds run.
    ``progress`` gets a line before a long run and, in a budgeted one, every
    :data:`PROGRESS_EVERY` seconds (histories checked, time left), so it never looks hung.

    A deadline needs a random profile: another round of a derandomized one would repeat it.
    """
    chosen = profile_settings(profile)
    say = progress or (lambda _line: None)
    if deadline is None:
        say(
            f"{chosen.max_examples} histories of up to {chosen.stateful_step_count} steps (profile {profile})"
        )
        run_once(chosen)
        return 1
    if chosen.derandomize:
        raise ValueError(f"profile {profile!r} is derandomized: a time budget would repeat it")
    rounds = 0
    said: float | None = None
    while True:  # one clock reading per round
        run_once(settings(chosen, max_examples=BUDGET_ROUND))
        rounds += 1
        now = clock()
        if now >= deadline:
            return rounds
        if said is None:
            said = now
        elif now - said >= PROGRESS_EVERY:
            said = now
            say(f"{rounds * BUDGET_ROUND} histories checked, {deadline - now:.0f} s left")


__all__ = ["BUDGET_ROUND", "PROFILES", "PROGRESS_EVERY", "profile_settings", "run_rounds"]
