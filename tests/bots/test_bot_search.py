"""The search levels' knock policy: they may decline medium's knock, never knock
before medium's schedule (games/bots/search.py explains why; docs/benchmarks.md
has the measurement)."""

from __future__ import annotations

import random

import pytest

from games.bots import choose_action
from games.engine import RuleSet

from .helpers import play_hand, seed_bytes


def knock_turns() -> list[tuple[dict, list, dict]]:
    """(view, legal actions, medium's choice) on turns of medium where a knock was legal."""
    turns: list[tuple[dict, list, dict]] = []

    def keep(state, view, legal, action) -> None:  # type: ignore[no-untyped-def]
        if view["seat"] == 0 and any(a["type"] == "knock" for a in legal):
            turns.append((view, legal, action))

    for n in range(12):
        play_hand(RuleSet.default(), ("medium", "easy"), seed_bytes("knocks", n), on_decision=keep)
    return turns


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_search_levels_never_knock_where_medium_waits(level: str) -> None:
    turns = knock_turns()
    waited = [(view, legal) for view, legal, action in turns if action["type"] == "discard"]
    knocked = [(view, legal) for view, legal, action in turns if action["type"] == "knock"]
    assert len(waited) >= 5 and knocked
    for view, legal in waited:
        chosen = choose_action(level, view, legal, random.Random(1), budget=300)
        assert chosen["type"] == "discard", (view["hand"], chosen)
