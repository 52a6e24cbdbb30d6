"""The sampled worlds' deadwood pull: expert's follows how hard's hands play out."""

from __future__ import annotations

import random

from games.bots import search, worlds
from games.bots.cards import deadwood
from games.bots.knowledge import Knowledge, read_view
from games.engine import RuleSet

from .helpers import play_hand, seed_bytes


def discard_views() -> list[Knowledge]:
    """What a seat knows at each of its discards, over a few hands of medium."""
    seen: list[Knowledge] = []

    def keep(state, view, legal, action) -> None:
        k = read_view(view)
        if k.phase == "discard" and k.opp_turns >= 1:
            seen.append(k)

    for n in range(6):
        seed = seed_bytes("worlds", n)
        play_hand(RuleSet.default(), ("medium", "medium"), seed, on_decision=keep)
    return seen


def sampled_deadwood(k: Knowledge, pull: worlds.Pull) -> float:
    """The weighted mean deadwood of the opponent hands sampled from ``k``."""
    samples = worlds.sample_worlds(k, random.Random(7), 64, pull)
    total = sum(weight for weight, _, _ in samples)
    return sum(weight * deadwood(hand) for weight, hand, _ in samples) / total


def test_expert_expects_less_deadwood_late_in_a_hand_and_more_early_than_hard() -> None:
    hard, expert = search.LEVELS["hard"].pull, search.LEVELS["expert"].pull
    views = discard_views()
    early = [k for k in views if 2 <= k.opp_turns <= 3]
    late = [k for k in views if k.opp_turns >= 10]
    assert early and late
    for k in early:
        assert sampled_deadwood(k, expert) >= sampled_deadwood(k, hard)
    assert sum(sampled_deadwood(k, expert) for k in late) < sum(
        sampled_deadwood(k, hard) for k in late
    )


def test_the_pull_grows_with_the_opponents_turns_up_to_its_cap() -> None:
    for pull in (worlds.LINEAR_PULL, worlds.SQUARE_PULL):
        strengths = [pull.at(t) for t in range(40)]
        assert strengths == sorted(strengths) and max(strengths) == pull.cap
