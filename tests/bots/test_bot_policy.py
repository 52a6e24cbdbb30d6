"""The parametrised heuristic player (games/bots/policy.py) with its default
constants is medium: it chooses exactly medium's action on every decision of a
few hands, so tuned variants differ from medium only by their constants."""

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


def test_allowance_matches_medium_schedule() -> None:
    from games.bots.medium import allowance_after

    for limit in range(11):
        for turns in range(20):
            assert policy.MEDIUM.allowance_after(limit, turns) == allowance_after(limit, turns)
