"""The Glicko-2 module against Glickman's worked example ("Example of the Glicko-2
system": a 1500/200/0.06 player beats 1400/30, loses to 1550/100 and 1700/300)."""

import math

import pytest

from leaderboards.glicko2 import SCALE, GameResult, Glicko2Rating, rate

PLAYER = Glicko2Rating(1500, 200, 0.06)
EXAMPLE = [
    GameResult(Glicko2Rating(1400, 30, 0.06), 1.0),
    GameResult(Glicko2Rating(1550, 100, 0.06), 0.0),
    GameResult(Glicko2Rating(1700, 300, 0.06), 0.0),
]


def test_worked_example_matches_the_paper():
    new = rate(PLAYER, EXAMPLE, tau=0.5)
    # The paper's figures: r' = 1464.06, RD' = 151.52, sigma' = 0.05999 (it rounds mu'
    # to -0.2069 before converting back, hence the 0.01 tolerance on the rating).
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)
    # On the Glicko-2 scale, to the paper's 4 decimals: mu' = -0.2069, phi' = 0.8722.
    assert round((new.rating - 1500) / SCALE, 4) == -0.2069
    assert round(new.deviation / SCALE, 4) == 0.8722


def test_no_games_only_widens_the_deviation():
    new = rate(PLAYER, [])
    assert new.rating == PLAYER.rating
    assert new.volatility == PLAYER.volatility
    assert new.deviation == pytest.approx(SCALE * math.hypot(200 / SCALE, 0.06))


def test_a_win_raises_and_a_loss_lowers_symmetrically_between_equals():
    a = Glicko2Rating()
    win = rate(a, [GameResult(a, 1.0)])
    loss = rate(a, [GameResult(a, 0.0)])
    draw = rate(a, [GameResult(a, 0.5)])
    assert win.rating > 1500 > loss.rating
    assert win.rating - 1500 == pytest.approx(1500 - loss.rating)
    assert draw.rating == pytest.approx(1500)
    assert win.deviation < 350


def test_beating_a_stronger_player_gains_more():
    me = Glicko2Rating(1500, 100)
    weak = rate(me, [GameResult(Glicko2Rating(1300, 50), 1.0)])
    strong = rate(me, [GameResult(Glicko2Rating(1800, 50), 1.0)])
    assert strong.rating - 1500 > weak.rating - 1500 > 0


@pytest.mark.parametrize("score", [-0.1, 1.5])
def test_scores_outside_zero_to_one_are_refused(score):
    with pytest.raises(ValueError, match="score"):
        GameResult(PLAYER, score)


def test_non_positive_deviation_is_refused():
    with pytest.raises(ValueError, match="positive"):
        Glicko2Rating(1500, 0, 0.06)
