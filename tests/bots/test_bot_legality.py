"""Every level only ever chooses a legal action, in every variant of the rules.

The hands are dealt from seeded random decks and played through the real engine
(``helpers.play_hand`` asserts each action is legal before applying it). Besides
bot-against-bot hands, each level also faces a player choosing uniformly among
the legal actions, which produces positions careful players never reach.
"""

from __future__ import annotations

import random

import pytest

from games.bots import LEVELS, choose_action
from games.engine import HandState, RuleSet

from .helpers import VARIANTS, play_hand, seed_bytes

SMALL_BUDGET = 40
"""Simulated turns per decision for the search levels here: the same code, less work."""


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_easy_plays_legally_over_many_hands(variant: str) -> None:
    rules = VARIANTS[variant]
    kinds = set()
    for n in range(100):
        final = play_hand(rules, ("easy", "easy"), seed_bytes("easy", variant, n), dealer=n % 2)
        kinds.add(final.result.kind)
    assert "knock" in kinds or rules.straight or rules.knock_limit == 0
    assert "gin" in kinds


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_stronger_levels_play_legally(level: str, variant: str) -> None:
    rules = VARIANTS[variant]
    hands = 4 if level == "medium" else 2
    for n in range(hands):
        seats = (level, "easy") if n % 2 else ("easy", level)
        play_hand(
            rules, seats, seed_bytes(level, variant, n), dealer=n % 3 % 2, budget=SMALL_BUDGET
        )
    play_hand(rules, (level, level), seed_bytes(level, variant, "self"), budget=SMALL_BUDGET)


def play_against_random(level: str, rules: RuleSet, seed: int) -> int:
    """A hand of ``level`` (seat 0) against uniformly random legal play; decisions made."""
    rng = random.Random(seed)
    state = HandState.deal(rules, seed % 2, seed_bytes("random", seed))
    decisions = 0
    while not state.is_over:
        legal = state.legal_actions()
        if state.current_player == 0:
            view = state.player_view(0)
            action = choose_action(level, view, legal, random.Random(seed), budget=SMALL_BUDGET)
            assert action in legal
            decisions += 1
        else:
            action = rng.choice(legal)
        state, _ = state.apply(action)
    return decisions


@pytest.mark.parametrize("level", LEVELS)
def test_levels_stay_legal_against_random_play(level: str) -> None:
    decisions = 0
    for n, rules in enumerate(VARIANTS.values()):
        for k in range(3 if level in ("easy", "medium") else 1):
            decisions += play_against_random(level, rules, 10 * n + k)
    assert decisions > 20
