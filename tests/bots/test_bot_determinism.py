"""Same view and same random seed: same action, at every level and full budget."""

from __future__ import annotations

import random

import pytest

from games.bots import LEVELS, choose_action
from games.engine import RuleSet

from .helpers import play_hand, seed_bytes


def sample_positions(count: int) -> list[tuple[dict, list]]:
    """Views (with their legal actions) from the middle of a few played hands."""
    positions: list[tuple[dict, list]] = []

    def keep(state, view, legal, action) -> None:
        if len(legal) > 1:
            positions.append((view, legal))

    for n in range(2):
        play_hand(RuleSet.default(), ("easy", "easy"), seed_bytes("det", n), on_decision=keep)
    step = max(1, len(positions) // count)
    return positions[3::step][:count]


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_and_seed_give_the_same_action(level: str) -> None:
    count = 2 if level == "expert" else 4
    for view, legal in sample_positions(count):
        first = choose_action(level, view, legal, random.Random(42))
        again = choose_action(level, view, legal, random.Random(42))
        assert first == again and first in legal


def test_unknown_level_and_empty_legal_actions_are_refused() -> None:
    view, legal = sample_positions(1)[0]
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_action("grandmaster", view, legal, random.Random(1))
    with pytest.raises(ValueError, match="no legal action"):
        choose_action("easy", view, [], random.Random(1))
