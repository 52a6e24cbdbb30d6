"""The search levels' knock policy: they may decline their default player's knock,
never knock where it waits (games/bots/search.py explains why; docs/benchmarks.md
has the measurement), except expert near the end of a match, which plays for the
match (games/bots/equity.py)."""

from __future__ import annotations

import random
from dataclasses import replace

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


def waited_turns(level: str) -> list[tuple[dict, list]]:
    """Turns where a knock was legal and ``level``'s default player discarded instead."""
    params = search.PARAMS[level]
    waited = []
    for view, legal in knock_turns():
        action = policy.choose(view, legal, random.Random(1), params)
        if action["type"] == "discard":
            waited.append((view, legal))
    assert len(waited) >= 5
    return waited


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_search_levels_never_knock_where_their_default_waits(level: str) -> None:
    for view, legal in waited_turns(level):
        # At the start of a match, and without a match score.
        for scores in ((0, 0), None):
            chosen = choose_action(level, view, legal, random.Random(1), budget=300, scores=scores)
            assert chosen["type"] == "discard", (view["hand"], scores, chosen)


def test_expert_needing_a_few_points_knocks_where_its_default_waits() -> None:
    # Seat 0 needs 8 points to win the match: a knock that is not undercut ends it,
    # while waiting for a better hand gives the opponent time to knock first.
    waited = waited_turns("expert")
    knocked = 0
    for view, legal in waited:
        chosen = choose_action("expert", view, legal, random.Random(1), scores=(92, 40))
        knocked += chosen["type"] == "knock"
        hard = choose_action("hard", view, legal, random.Random(1), scores=(92, 40))
        assert hard["type"] == "discard"  # hard plays for points, whatever the score
    assert knocked >= len(waited) // 4, (knocked, len(waited))


def draw_turns() -> list[tuple[dict, list]]:
    """(view, legal actions) on draws of seat 0 (medium) where the discard could be taken."""
    turns: list[tuple[dict, list]] = []

    def keep(state, view, legal, action) -> None:  # type: ignore[no-untyped-def]
        if view["seat"] == 0 and any(a.get("source") == "discard" for a in legal):
            turns.append((view, legal))

    for n in range(3):
        play_hand(RuleSet.default(), ("medium", "easy"), seed_bytes("draws", n), on_decision=keep)
    return turns


def test_expert_searches_wider_than_hard() -> None:
    hard, expert = search.LEVELS["hard"], search.LEVELS["expert"]
    assert expert.params == hard.params  # the same default move: only the search differs
    assert expert.budget > hard.budget and expert.oversample > hard.oversample
    assert expert.alternatives > hard.alternatives and expert.margin < hard.margin


def test_the_margin_decides_how_often_the_search_leaves_the_default() -> None:
    """With no margin the search follows its averages; with a huge one it never
    leaves the default player's move."""
    turns = knock_turns()[:12]
    base = search.LEVELS["hard"]
    left = {}
    for margin in (0.0, 1e9):
        config = replace(base, budget=400, margin=margin)
        left[margin] = 0
        for view, legal in turns:
            default = policy.choose(view, legal, random.Random(1), base.params)
            chosen = search.choose(view, legal, random.Random(1), level="hard", config=config)
            assert chosen in legal
            left[margin] += chosen != default
    assert left[1e9] == 0 < left[0.0]


def test_draw_search_only_within_its_window() -> None:
    base = search.LEVELS["expert"]
    turns = draw_turns()
    assert len(turns) >= 5
    for view, legal in turns:
        default = policy.choose(view, legal, random.Random(1), base.params)
        off = search.choose(view, legal, random.Random(1), level="expert",
                            config=replace(base, budget=200, draw_window=0.0))
        assert off == default
        on = replace(base, budget=200, draw_window=1e9, margin=0.0)
        first = search.choose(view, legal, random.Random(1), level="expert", config=on)
        assert first in legal and first["type"] in ("draw", "pass")
        assert search.choose(view, legal, random.Random(1), level="expert", config=on) == first
