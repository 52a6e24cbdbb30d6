"""The search levels' knock policy: they may decline their default player's knock,
never knock where it waits (games/bots/search.py explains why; docs/benchmarks.md
has the measurement)."""

from __future__ import annotations

import random

import pytest

from games.bots import choose_action, policy, search
from games.engine import RuleSet

from .helpers import play_hand, seed_bytes


def knock_turns() -> list[tuple[dict, list]]:
    """(view, legal actions) on turns of seat 0 (medium) where a knock was legal."""
    turns: list[tuple[dict, list]] = []

    def keep(state, view, legal, action) -> None:  # type: ignore[no-untyped-def]
        if view["seat"] == 0 and any(a["type"] == "knock" for a in legal):
            turns.append((view, legal))

    for n in range(12):
        play_hand(RuleSet.default(), ("medium", "easy"), seed_bytes("knocks", n), on_decision=keep)
    return turns


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_search_levels_never_knock_where_their_default_waits(level: str) -> None:
    params = search.PARAMS[level]
    waited = []
    for view, legal in knock_turns():
        action = policy.choose(view, legal, random.Random(1), params)
        if action["type"] == "discard":
            waited.append((view, legal))
    assert len(waited) >= 5
    for view, legal in waited:
        chosen = choose_action(level, view, legal, random.Random(1), budget=300)
        assert chosen["type"] == "discard", (view["hand"], chosen)
