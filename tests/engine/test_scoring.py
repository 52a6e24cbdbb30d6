"""Match scoring (docs/rules.md section 7): target, game and line bonuses, shutout, winner."""

import pytest

from games.engine import HandResult, RuleSet, next_dealer, score_match


def won(seat: int, points: int, kind: str = "knock") -> HandResult:
    return HandResult(kind=kind, winner=seat, points=points, knocker=seat, deadwood=(0, 0),
                      melds=((), ()), deadwood_cards=((), ()), hands=((), ()))


def drawn() -> HandResult:
    return HandResult(kind="draw", winner=None, points=0, knocker=None, deadwood=(0, 0),
                      melds=((), ()), deadwood_cards=((), ()), hands=((), ()))


RULES = RuleSet.default()


def test_the_match_goes_on_below_the_target():
    score = score_match(RULES, [won(0, 60), won(1, 30)])
    assert not score.over and score.winner is None
    assert score.hand_points == (60, 30) == score.totals
    assert score.bonuses == ({"game": 0, "line": 0, "shutout": 0},) * 2


def test_the_match_ends_when_a_total_reaches_the_target():
    score = score_match(RULES, [won(0, 60), won(1, 30), won(0, 40)])
    assert score.over and score.reached_target == 0
    assert score.hand_points == (100, 30)


def test_no_hand_after_the_end():
    with pytest.raises(ValueError, match="already over"):
        score_match(RULES, [won(0, 120), won(1, 10)])


def test_game_and_line_bonuses():
    score = score_match(RULES, [won(0, 60), won(1, 30), drawn(), won(0, 40)])
    assert score.bonuses[0] == {"game": 100, "line": 50, "shutout": 0}
    assert score.bonuses[1] == {"game": 0, "line": 25, "shutout": 0}
    assert score.totals == (250, 55)
    assert score.winner == 0
    assert score.hands_won == (2, 1) and score.hands_drawn == 1


def test_bonuses_follow_the_rule_set():
    rules = RuleSet(game_bonus=50, line_bonus=10, target_score=50)
    score = score_match(rules, [won(1, 20), won(0, 55)])
    assert score.totals == (55 + 50 + 10, 20 + 10)


def test_shutout_doubles_the_winners_hand_points():
    score = score_match(RULES, [won(0, 60), won(0, 45)])
    assert score.bonuses[0] == {"game": 100, "line": 50, "shutout": 105}
    assert score.totals == (105 * 2 + 100 + 50, 0)


def test_shutout_can_be_switched_off():
    score = score_match(RuleSet(shutout=False), [won(0, 60), won(0, 45)])
    assert score.totals == (105 + 100 + 50, 0)


def test_no_shutout_after_a_drawn_hand():
    score = score_match(RULES, [won(0, 60), drawn(), won(0, 45)])
    assert score.bonuses[0]["shutout"] == 0
    assert score.totals == (105 + 100 + 50, 0)


def test_the_higher_final_total_wins_even_against_the_player_who_reached_the_target():
    results = [won(1, 10)] * 8 + [won(0, 100)]
    score = score_match(RULES, results)
    assert score.reached_target == 0
    assert score.totals == (100 + 100 + 25, 80 + 8 * 25)
    assert score.winner == 1


def test_a_tie_in_final_totals_goes_to_the_player_who_reached_the_target():
    results = [won(1, 12)] * 5 + [won(1, 15), won(0, 100)]
    score = score_match(RULES, results)
    assert score.totals == (225, 225)
    assert score.winner == 0


def test_forfeit_scores_stand_and_the_opponent_gets_the_game_bonus():
    score = score_match(RULES, [won(0, 60), won(1, 20)], forfeit=0)
    assert score.over and score.winner == 1 and score.forfeit == 0
    assert score.bonuses[1] == {"game": 100, "line": 25, "shutout": 0}
    assert score.totals == (60 + 25, 20 + 100 + 25)


def test_forfeit_of_a_finished_match_is_refused():
    with pytest.raises(ValueError, match="already over"):
        score_match(RULES, [won(0, 100)], forfeit=1)
    with pytest.raises(ValueError, match="seat 0 or 1"):
        score_match(RULES, [], forfeit=2)


def test_results_may_be_given_as_saved_dicts():
    results = [won(0, 60).to_dict(), won(0, 45).to_dict()]
    assert score_match(RULES, results).totals == (360, 0)
    assert score_match(RULES, results).to_dict()["totals"] == [360, 0]


def test_the_deal_alternates_except_after_a_draw():
    assert next_dealer(0, won(1, 10)) == 1
    assert next_dealer(1, won(1, 10)) == 0
    assert next_dealer(1, drawn()) == 1
