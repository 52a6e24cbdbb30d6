"""The Move log is the truth: replaying each hand's moves on its seed rebuilds the
stored state exactly, and the replayed results give the stored scores."""

from __future__ import annotations

import random

import pytest

from games.engine import HandState, RuleSet, score_match
from games.models import Hand, Match, Move, Seat
from tests.factories import create_match, create_user
from tests.games.helpers import play_out

pytestmark = pytest.mark.django_db


def replay_match(match: Match) -> list[dict]:
    """Rebuild every hand of ``match`` from its seed and moves; returns the results."""
    rules = RuleSet.from_dict(match.rules)
    results = []
    seq = 1  # version 1 is the deal of the first hand
    for hand in Hand.objects.filter(match=match).order_by("number"):
        state = HandState.deal(rules, hand.dealer, bytes(hand.seed))
        for move in Move.objects.filter(hand=hand).order_by("seq"):
            seq += 1
            assert move.seq == seq, "the log has no gap and no duplicate"
            assert move.seat == state.current_player
            state, _events = state.apply(move.action)
        assert state.to_dict() == hand.state
        if hand.result is not None:
            assert state.result.to_dict() == hand.result
            assert (hand.result_kind, hand.winner_seat, hand.points) == (
                state.result.kind, state.result.winner, state.result.points,
            )
            results.append(hand.result)
    return results


@pytest.mark.parametrize(
    ("variant", "tweaks", "level", "seed"),
    [
        ("default", {}, "easy", 1),
        ("oklahoma", {}, "medium", 2),
        # Straight Gin hands end only by gin: a gin bonus keeps the match short.
        ("straight", {"gin_bonus": 40}, "easy", 3),
    ],
)
def test_replaying_the_log_of_a_finished_match_gives_its_scores(
    variant, tweaks, level, seed
):
    user = create_user(f"replayer-{variant}")
    rules = RuleSet.preset(variant).replace(target_score=50, **tweaks)
    match = create_match(user, level, rules=rules, variant=variant)
    match = play_out(match, random.Random(seed))
    assert match.status == Match.Status.FINISHED
    assert match.end_reason == Match.EndReason.TARGET

    results = replay_match(match)
    score = score_match(rules, results)
    assert score.over and score.to_dict() == match.final_score
    assert match.winner_seat == score.winner
    seats = list(Seat.objects.filter(match=match).order_by("index"))
    assert [s.score for s in seats] == list(score.totals)
    assert [s.hands_won for s in seats] == list(score.hands_won)
    for seat in seats:
        kinds = [r["kind"] for r in results if r["winner"] == seat.index]
        assert (seat.gins, seat.big_gins, seat.undercuts) == (
            kinds.count("gin"), kinds.count("big_gin"), kinds.count("undercut"),
        )
