"""Match equity (games/bots/equity.py): the chance of winning a match from the points
each player needs, and what a hand's points are worth to it."""

from __future__ import annotations

import pytest

from games.bots import equity


def test_the_hand_points_table_is_a_distribution() -> None:
    assert abs(sum(chance for _, chance in equity.HAND_POINTS) - 1) < 1e-3
    assert all(points > 0 for points, _ in equity.HAND_POINTS)


@pytest.mark.parametrize(("a", "b"), [(1, 1), (10, 90), (55, 45), (100, 100), (3, 30)])
def test_the_chances_of_the_two_players_add_up_to_one(a: int, b: int) -> None:
    assert equity.win(a, b, 100) + equity.win(b, a, 100) == pytest.approx(1, abs=1e-9)


def test_needing_fewer_points_is_better() -> None:
    for b in (5, 40, 100):
        chances = [equity.win(a, b, 100) for a in range(1, 101)]
        assert chances == sorted(chances, reverse=True)
        assert chances[0] > 0.5 > chances[-1] or b == 100
    assert equity.win(100, 100, 100) == pytest.approx(0.5)
    assert equity.win(0, 5, 100) == 1 and equity.win(5, 0, 100) == 0


def test_points_beyond_what_a_player_needs_are_worth_nothing() -> None:
    near_the_end = equity.Equity(need=8, opp_need=60, target=100, line_bonus=25)
    assert near_the_end(8 + 25) == near_the_end(40 + 25) == 100  # won the match
    assert near_the_end(7 + 25) < 100
    at_the_start = equity.Equity(need=100, opp_need=100, target=100, line_bonus=25)
    # Far from the target every point counts: 20 points are worth more than 10.
    assert at_the_start(45) > at_the_start(35) > at_the_start(0) == pytest.approx(50)
    assert at_the_start(-35) == pytest.approx(100 - at_the_start(35))
    opponent_close = equity.Equity(need=50, opp_need=10, target=100, line_bonus=25)
    assert opponent_close(-(10 + 25)) == 0  # a hand lost by 10 ends the match
    assert opponent_close.endgame(25) and not at_the_start.endgame(25)
