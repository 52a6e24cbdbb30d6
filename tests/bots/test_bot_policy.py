"""The parametrised heuristic player (games/bots/policy.py) with its default
constants is medium: the level "medium" chooses exactly its action on every decision
of a few hands, and its knock schedule is the integer one the browser's offline
medium uses, so tuned variants differ from medium only by their constants."""

from __future__ import annotations

import random

from games.bots import choose_action, policy
from games.engine import RuleSet

from .helpers import VARIANTS, play_hand, seed_bytes


def test_default_params_choose_as_medium() -> None:
    checked = 0

    def check(state, view, legal, action) -> None:  # type: ignore[no-untyped-def]
        nonlocal checked
        medium = choose_action("medium", view, legal, random.Random(3))
        assert policy.choose(view, legal, random.Random(3), policy.MEDIUM) == medium
        checked += 1

    for n, rules in enumerate((RuleSet.default(), VARIANTS["straight"], VARIANTS["oklahoma"])):
        for dealer in (0, 1):
            play_hand(rules, ("medium", "easy"), seed_bytes("policy", n), dealer=dealer,
                      on_decision=check)
    assert checked > 60


def medium_allowance(knock_limit: int, opp_turns: int) -> int:
    """Medium's knock schedule in integers, as games/static/games/offline/bots.js has it:
    the full limit for two opponent turns, then 1.5 points less per turn, down to 2."""
    if opp_turns <= 2:
        return knock_limit
    return max(min(knock_limit, 2), knock_limit - (3 * (opp_turns - 2) + 1) // 2)


def test_allowance_matches_medium_schedule() -> None:
    for limit in range(11):
        for turns in range(20):
            assert policy.MEDIUM.allowance_after(limit, turns) == medium_allowance(limit, turns)
