"""MatchState: the rules that span hands (docs/rules.md sections 6 and 7): dealer
rotation, running scores, the end at the target or by forfeit, the next deal."""

from __future__ import annotations

import hashlib
import random

import pytest

from games.engine import (
    IllegalAction,
    MatchState,
    RuleSet,
    next_dealer,
    score_match,
    timeout_action,
)


def seed(n: int) -> bytes:
    return hashlib.sha256(f"match-test:{n}".encode()).digest()


def play_to_the_end(rules: RuleSet, rng: random.Random) -> tuple[MatchState, list[dict]]:
    match = MatchState.start(rules, first_dealer=1, seed=seed(0))
    events: list[dict] = []
    for _ in range(20000):
        if match.over:
            return match, events
        hand = match.hand
        legal = hand.legal_actions()
        knocks = [a for a in legal if a["type"] in ("knock", "big_gin")]
        action = knocks[0] if knocks else (
            rng.choice(legal) if rng.random() < 0.1 else timeout_action(hand)
        )
        match, new = match.apply(hand.current_player, action, next_seed=seed(len(events)))
        events.extend(new)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("preset", ["default", "straight", "oklahoma"])
def test_a_match_rotates_the_deal_scores_and_ends_at_the_target(preset):
    rules = RuleSet.preset(preset).replace(target_score=100)
    match, events = play_to_the_end(rules, random.Random(preset))
    assert match.over and match.current_player is None and match.legal_actions() == []
    score = score_match(rules, match.results)
    assert match.score == score and match.winner == score.winner
    assert max(score.hand_points) >= 100
    started = [e for e in events if e["type"] == "hand_started"]
    ended = [e for e in events if e["type"] == "hand_over"]
    assert len(started) == len(ended) - 1 == match.hand_number - 1 == len(match.results) - 1
    dealer = 1
    for result, hand_started in zip(match.results, started, strict=False):
        dealer = next_dealer(dealer, result)  # a drawn hand is dealt again by its dealer
        assert hand_started["dealer"] == dealer
    assert events[-1] == {"type": "match_over", "winner": score.winner, "final": score.to_dict()}
    assert MatchState.from_dict(match.to_dict()).score == score


def test_without_a_seed_a_finished_hand_waits_for_the_next_deal():
    rules = RuleSet.default()
    match = MatchState.start(rules, first_dealer=0, seed=seed(1))
    while not match.needs_deal:  # knock as soon as possible, else the clock's play
        hand = match.hand
        legal = hand.legal_actions()
        knocks = [a for a in legal if a["type"] == "knock"]
        match, _ = match.apply(hand.current_player, knocks[0] if knocks else timeout_action(hand))
    assert match.hand.is_over and not match.over and match.current_player is None
    with pytest.raises(IllegalAction):
        match.apply(0, {"type": "pass"})
    dealt, events = match.deal_next(seed(2))
    assert events == [{"type": "hand_started", "number": 2, "dealer": match.next_dealer}]
    assert dealt.hand_number == 2 and dealt.results == match.results


def test_a_forfeit_ends_the_match_with_the_game_bonus_to_the_opponent():
    match = MatchState.start(RuleSet.default(), first_dealer=0, seed=seed(3))
    over, events = match.resign(1)
    assert over.over and over.winner == 0 and over.score.forfeit == 1
    assert events[0] == {"type": "forfeit", "seat": 1}
    assert over.score.bonuses[0]["game"] == RuleSet.default().game_bonus
    with pytest.raises(IllegalAction):
        over.resign(0)
    with pytest.raises(IllegalAction):
        over.apply(1, {"type": "pass"})


def test_an_action_out_of_turn_changes_nothing():
    match = MatchState.start(RuleSet.default(), first_dealer=0, seed=seed(4))
    with pytest.raises(IllegalAction):
        match.apply(0, {"type": "pass"})  # the non-dealer (1) acts first
    assert match.hand.history == ()
