"""Shared helpers: play hands between bot levels through the real engine."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

from games.bots import choose_action
from games.engine import HandState, RuleSet

VARIANTS: dict[str, RuleSet] = {
    "default": RuleSet.default(),
    "straight": RuleSet.straight_gin(),
    "oklahoma": RuleSet.oklahoma_gin(),
    "oklahoma_ace_gin": RuleSet.oklahoma_gin().replace(oklahoma_ace_gin_only=True),
    "knock_5_no_big_gin": RuleSet.default().replace(knock_limit=5, big_gin_allowed=False),
    "knock_0": RuleSet.default().replace(knock_limit=0),
}


def seed_bytes(*parts: object) -> bytes:
    return hashlib.sha256(":".join(map(str, parts)).encode()).digest()


def play_hand(
    rules: RuleSet,
    levels: tuple[str, str],
    seed: bytes,
    *,
    dealer: int = 0,
    budget: int | None = None,
    on_decision: Callable[[HandState, dict[str, Any], list[dict], dict], None] | None = None,
) -> HandState:
    """Play one hand to its end, seat i played by ``levels[i]``; returns the final state.

    Every chosen action is checked to be one of the legal actions before it is applied.
    """
    state = HandState.deal(rules, dealer, seed)
    move = 0
    while not state.is_over:
        seat = state.current_player
        legal = state.legal_actions()
        view = state.player_view(seat)
        rng = random.Random(f"{seed.hex()}:{move}")
        action = choose_action(levels[seat], view, legal, rng, budget=budget)
        assert action in legal, (levels[seat], action, legal)
        if on_decision is not None:
            on_decision(state, view, legal, action)
        state, _ = state.apply(action)
        move += 1
        assert move < 2000, "a hand between bots did not end"
    return state
