"""One test (at least) per rule of docs/rules.md sections 3-6 and 8, through HandState."""

import pytest

from games.engine import HandState, IllegalAction, RuleSet

from .helpers import PASS, PILE, STOCK, chosen_deal, discard, knock, knocked, play, texts

# Two hands without any meld, and a defender whose cards fit none of the knocker's melds
# in the scenarios below (deadwood 63).
PLAIN0 = "2C 4C 6C 8C TC 2D 4D 6D 8D TD"
PLAIN1 = "3H 5H 7H 9H JH 3S 5S 7S 9S JS"
DEFENDER = "KH QD 2S 4S 6S 7D JD 3C TH AC"


def plain_deal(**kwargs) -> HandState:
    kwargs.setdefault("upcard", "KH")
    return chosen_deal(PLAIN0, PLAIN1, **kwargs)


# --- first turn ------------------------------------------------------------------------


def test_non_dealer_is_offered_the_upcard_first_then_the_dealer():
    state = plain_deal()
    assert (state.phase, state.current_player) == ("first_turn", 1)
    assert state.legal_actions() == [{"type": "pass"}, {"type": "draw", "source": "discard"}]
    state = play(state, PASS)
    assert (state.phase, state.current_player) == ("first_turn", 0)


def test_after_both_pass_the_non_dealer_takes_a_normal_turn():
    state = play(plain_deal(), PASS, PASS)
    assert (state.phase, state.current_player) == ("draw", 1)
    assert {"type": "draw", "source": "stock"} in state.legal_actions()
    assert {"type": "draw", "source": "discard"} in state.legal_actions()
    state = play(state, STOCK)
    assert len(state.hands[1]) == 11
    assert state.stock_count == 30


def test_no_stock_draw_on_the_first_turn():
    state = plain_deal()
    with pytest.raises(IllegalAction, match="stock on the first turn"):
        state.apply(STOCK)
    with pytest.raises(IllegalAction, match="stock on the first turn"):
        play(state, PASS).apply(STOCK)


def test_taking_the_upcard_then_play_goes_to_the_other_player():
    state = play(plain_deal(), PASS, PILE)  # the dealer takes it
    assert (state.phase, state.current_player) == ("discard", 0)
    assert state.discard_pile == ()
    state = play(state, discard("2C"))
    assert (state.phase, state.current_player) == ("draw", 1)
    assert texts(state.discard_pile) == ["2C"]


def test_pass_only_on_the_first_turn():
    state = play(plain_deal(), PASS, PASS)
    with pytest.raises(IllegalAction, match="pass only on the first turn"):
        state.apply(PASS)


# --- a normal turn ---------------------------------------------------------------------


def test_the_card_taken_from_the_discard_pile_cannot_be_discarded_that_turn():
    state = play(plain_deal(), PILE)
    assert state.taken_from_discard is not None
    assert {"type": "discard", "card": "KH"} not in state.legal_actions()
    with pytest.raises(IllegalAction, match="cannot discard the card you just took"):
        state.apply(discard("KH"))
    with pytest.raises(IllegalAction, match="cannot discard the card you just took"):
        state.apply(knock("KH"))
    # A later turn may discard it.
    state = play(state, discard("3H"), STOCK, discard("2C"), STOCK)
    assert {"type": "discard", "card": "KH"} in state.legal_actions()


def test_a_card_drawn_from_the_stock_may_be_discarded_at_once():
    state = play(plain_deal(stock_top="QD"), PASS, PASS, STOCK, discard("QD"))
    assert texts(state.discard_pile) == ["KH", "QD"]
    assert state.current_player == 0


def test_one_draw_per_turn_and_a_discard_needs_a_draw_first():
    state = play(plain_deal(), PASS, PASS)
    with pytest.raises(IllegalAction, match="draw a card first"):
        state.apply(discard("3H"))
    with pytest.raises(IllegalAction, match="already drawn"):
        play(state, STOCK).apply(STOCK)


def test_only_held_cards_can_be_discarded():
    state = play(plain_deal(), PASS, PASS, STOCK)
    with pytest.raises(IllegalAction, match="do not hold 2C"):
        state.apply(discard("2C"))


# --- the wall --------------------------------------------------------------------------


def test_the_hand_is_drawn_when_a_discard_leaves_two_cards_in_the_stock():
    state = play(plain_deal(stock_size=3), PASS, PASS, STOCK)
    assert state.stock_count == 2
    state, events = state.apply(discard("3H"))
    assert state.is_over and state.current_player is None
    assert state.result.kind == "draw"
    assert (state.result.winner, state.result.points) == (None, 0)
    assert events[-1]["type"] == "hand_over"


def test_drawing_from_the_pile_near_the_wall_does_not_end_the_hand():
    state = play(plain_deal(stock_size=3), PASS, PASS, PILE, discard("3H"))
    assert not state.is_over and state.stock_count == 3


def test_a_player_may_still_knock_after_drawing_to_the_wall():
    state = chosen_deal(DEFENDER, "4H 5H 6H 9C 9D 9S JC QC 2D TS", upcard="AS",
                        stock_top="KC", stock_size=3)
    state = play(state, PASS, PASS, STOCK, knock("TS"))
    assert state.result.kind == "knock"


# --- knocking --------------------------------------------------------------------------


def test_knock_limit_is_inclusive():
    # After the knock: 2H-5H, 5C 6C 7C, and 8S AD AS = 10 deadwood: allowed.
    state = knocked("2H 3H 4H 5H 5C 6C 7C 8S AD KD", DEFENDER, drawn="AS", knock_card="KD")
    result = state.result
    assert (result.kind, result.knocker, result.winner) == ("knock", 1, 1)
    assert result.deadwood == (63, 10)
    assert result.points == 53
    # 9S instead of 8S: 11 deadwood, refused.
    with pytest.raises(IllegalAction, match="10 or less deadwood, you would have 11"):
        knocked("2H 3H 4H 5H 5C 6C 7C 9S AD KD", DEFENDER, drawn="AS", knock_card="KD")


def test_knocks_are_offered_only_when_legal():
    def knocks(knocker_hand: str) -> list[dict[str, str]]:
        state = chosen_deal(DEFENDER, knocker_hand, upcard="QH", stock_top="AS")
        state = play(state, PASS, PASS, STOCK)
        return [action for action in state.legal_actions() if action["type"] == "knock"]

    assert knocks("2H 3H 4H 5H 5C 6C 7C 8S AD KD") == [{"type": "knock", "card": "KD"}]
    assert knocks("2H 3H 4H 5H 5C 6C 7C 9S AD KD") == []


def test_a_player_is_never_forced_to_knock():
    state = chosen_deal(DEFENDER, "4H 5H 6H 9C 9D 9S JC QC KC 2D", upcard="AS", stock_top="8D")
    state = play(state, PASS, PASS, STOCK, discard("8D"))
    assert not state.is_over and state.current_player == 0


def test_knock_without_a_card_uses_the_card_leaving_the_lowest_deadwood():
    state = knocked("4H 5H 6H 9C 9D 9S JC QC 2D TS", DEFENDER, drawn="KC", knock_card=None)
    assert str(state.result.knock_card) == "TS"
    assert state.result.deadwood[1] == 2


def test_knock_without_a_card_never_uses_the_card_just_taken_from_the_pile():
    # Taking TS from the pile: discarding TS would be best, but it is not allowed.
    state = chosen_deal(DEFENDER, "4H 5H 6H 9C 9D 9S JC QC KC 2D", upcard="TS")
    state = play(state, PILE, knock())
    assert str(state.result.knock_card) == "2D"
    assert state.result.deadwood[1] == 10


def test_knock_without_a_card_is_refused_above_the_limit():
    state = chosen_deal(DEFENDER, PLAIN1, upcard="KD")
    with pytest.raises(IllegalAction, match="10 or less"):
        play(state, PILE, knock())


def test_gin():
    state, events = chosen_deal(
        DEFENDER, "2H 3H 4H 5H 5C 6C 7C 8S 8D KD", upcard="QH", stock_top="8H"
    ).apply(PASS)
    state = play(state, PASS, STOCK)
    state, events = state.apply(knock("KD"))
    assert [e["type"] for e in events] == ["gin", "hand_over"]
    result = state.result
    assert (result.kind, result.winner, result.knocker) == ("gin", 1, 1)
    assert result.deadwood == (63, 0)
    assert result.points == 63 + 25


def test_big_gin():
    knocker = "2H 3H 4H 5H 5C 6C 7C 8S 8D 8C"
    state = chosen_deal(DEFENDER, knocker, upcard="QH", stock_top="8H")
    state = play(state, PASS, PASS, STOCK)
    assert {"type": "big_gin"} in state.legal_actions()
    state, events = state.apply({"type": "big_gin"})
    assert [e["type"] for e in events] == ["big_gin", "hand_over"]
    result = state.result
    assert (result.kind, result.winner, result.points) == ("big_gin", 1, 63 + 31)
    assert len(result.hands[1]) == 11 and result.knock_card is None


def test_big_gin_can_be_switched_off_and_needs_eleven_melded_cards():
    knocker = "2H 3H 4H 5H 5C 6C 7C 8S 8D 8C"
    rules = RuleSet(big_gin_allowed=False)
    state = play(chosen_deal(DEFENDER, knocker, upcard="QH", stock_top="8H", rules=rules),
                 PASS, PASS, STOCK)
    assert {"type": "big_gin"} not in state.legal_actions()
    with pytest.raises(IllegalAction, match="Big Gin is not allowed"):
        state.apply({"type": "big_gin"})
    state = play(chosen_deal(DEFENDER, knocker, upcard="QH", stock_top="QC"), PASS, PASS, STOCK)
    with pytest.raises(IllegalAction, match="all 11 cards in melds"):
        state.apply({"type": "big_gin"})


# --- showdown and lay-offs -------------------------------------------------------------

KNOCKER = "4H 5H 6H 9C 9D 9S JC QC 2D TS"  # draws KC, knocks TS: 4H-6H, 9s, JC-KC, 2D


def knock_against(defender: str, rules: RuleSet | None = None) -> HandState:
    return knocked(KNOCKER, defender, drawn="KC", knock_card="TS", rules=rules)


def test_lay_offs_chain_at_both_ends_of_a_run():
    result = knock_against("2H 3H 7H 8H KS QD 5S 3C 7S TD").result
    assert texts(result.layoffs) == ["2H", "3H", "7H", "8H"]
    assert [texts(m) for m in result.melds[1]] == [["4H", "5H", "6H"], ["9C", "9D", "9S"],
                                                   ["JC", "QC", "KC"]]
    assert [texts(cards) for cards in result.layoffs_onto] == [["2H", "3H", "7H", "8H"], [], []]
    assert result.deadwood == (45, 2)
    assert (result.kind, result.winner, result.points) == ("knock", 1, 43)


def test_the_fourth_card_of_a_set_is_laid_off():
    result = knock_against("9H KS QD 5S 3C 7S TD 4C 2S 6D").result
    assert texts(result.layoffs) == ["9H"]
    assert [texts(cards) for cards in result.layoffs_onto] == [[], ["9H"], []]
    assert result.deadwood == (57, 2)
    assert result.points == 55


def test_the_defender_chooses_own_melds_and_lay_offs_together():
    # Laying 7H and 8H on 4H-6H leaves 8C 8D; keeping 8C 8D 8H as a set and laying only
    # 7H leaves nothing of them.
    result = knock_against("7H 8H 8C 8D KS QD 5S 3C 2S AS").result
    assert texts(result.layoffs) == ["7H"]
    assert [texts(m) for m in result.melds[0]] == [["8C", "8D", "8H"]]
    assert result.deadwood == (31, 2)


def test_the_knocker_never_lays_off():
    # The knocker's 2D would extend the defender's 3D 4D 5D: it stays deadwood.
    result = knock_against("3D 4D 5D KS QS 5S 3C 7S TD 6C").result
    assert result.deadwood == (51, 2)
    assert texts(result.deadwood_cards[1]) == ["2D"]
    assert result.layoffs == ()
    assert result.points == 49


def test_the_knocker_shows_the_arrangement_allowing_the_fewest_lay_off_points():
    # 4H 5H 6H 5C 5D: run 4H-6H (5C 5D dead) or set of 5s (4H 6H dead): 10 either way.
    # Against 3H 7H (10 points to lay off on the run) and 5S (5 points on the set) the
    # knocker shows the set.
    state = knocked("4H 5H 6H 5C 5D 9S TS JS QS KD", "3H 7H 5S KC QD 9C 2C AD 8C JD",
                    drawn="KS", knock_card="KD")
    result = state.result
    assert [texts(m) for m in result.melds[1]] == [["5C", "5D", "5H"],
                                                   ["9S", "TS", "JS", "QS", "KS"]]
    assert texts(result.layoffs) == ["5S"]
    assert result.deadwood == (60, 10)
    assert result.points == 50


def test_no_lay_offs_after_gin():
    state = knocked("2H 3H 4H 5H 5C 6C 7C 8S 8D KD", "9C JC KC 3D 5D 6H 9D JD KS QS",
                    drawn="8H", knock_card="KD")
    result = state.result
    assert result.kind == "gin"
    assert result.layoffs == ()
    assert result.deadwood == (82, 0)  # 6H would have extended 2H-5H
    assert result.points == 82 + 25


def test_undercut_on_equal_deadwood():
    # The defender lays 3H, 7H, 8H off and keeps 5S-7S, TD-QD: 2C left, as the knocker.
    result = knock_against("2C 5S 6S 7S TD JD QD 3H 7H 8H").result
    assert result.deadwood == (2, 2)
    assert (result.kind, result.winner, result.knocker) == ("undercut", 0, 1)
    assert result.points == 0 + 25


def test_undercut_scores_the_difference_plus_the_bonus():
    result = knock_against("AC 5S 6S 7S TD JD QD 3H 7H 8H", RuleSet(undercut_bonus=20)).result
    assert (result.kind, result.winner, result.points) == ("undercut", 0, 1 + 20)


def test_gin_is_never_undercut():
    state = knocked("2H 3H 4H 5H 5C 6C 7C 8S 8D KD", "AS 2S 3S 4S TD JD QD KC QC JC",
                    drawn="8H", knock_card="KD")
    result = state.result
    assert result.deadwood == (0, 0)
    assert (result.kind, result.winner, result.points) == ("gin", 1, 25)


# --- variants --------------------------------------------------------------------------


@pytest.mark.parametrize(("upcard", "limit"), [("5D", 5), ("2S", 2), ("KD", 10), ("AD", 10)])
def test_oklahoma_knock_limit_is_the_upcard_value(upcard, limit):
    state = plain_deal(upcard=upcard, rules=RuleSet.oklahoma_gin())
    assert state.knock_limit == limit
    assert state.player_view(0)["knock_limit"] == limit


def test_oklahoma_ace_may_mean_gin_only():
    rules = RuleSet(oklahoma=True, oklahoma_ace_gin_only=True)
    assert plain_deal(upcard="AD", rules=rules).knock_limit == 0
    with pytest.raises(IllegalAction, match="only go gin"):
        knocked(KNOCKER, DEFENDER, drawn="KC", knock_card="TS", rules=rules, upcard="AD")
    gin = knocked("2H 3H 4H 5H 5C 6C 7C 8S 8D KD", DEFENDER, drawn="8H", knock_card="KD",
                  rules=rules, upcard="AD")
    assert gin.result.kind == "gin"


def test_oklahoma_knock_with_the_upcard_limit():
    rules = RuleSet.oklahoma_gin()
    assert knocked(KNOCKER, DEFENDER, drawn="KC", knock_card="TS", rules=rules,
                   upcard="2C").result.kind == "knock"
    with pytest.raises(IllegalAction, match="2 or less deadwood"):
        knocked("4H 5H 6H 9C 9D 9S JC QC 3D TS", DEFENDER, drawn="KC", knock_card="TS",
                rules=rules, upcard="2C")


def test_straight_gin_has_no_knocking_and_no_gin_bonus():
    rules = RuleSet.straight_gin()
    state = play(chosen_deal(DEFENDER, KNOCKER, upcard="AS", stock_top="KC", rules=rules),
                 PASS, PASS, STOCK)
    assert [a for a in state.legal_actions() if a["type"] == "knock"] == []
    with pytest.raises(IllegalAction, match="Straight Gin has no knocking"):
        state.apply(knock("TS"))
    gin = knocked("2H 3H 4H 5H 5C 6C 7C 8S 8D KD", DEFENDER, drawn="8H", knock_card="KD",
                  rules=rules)
    assert (gin.result.kind, gin.result.points) == ("gin", 63)
    big = play(chosen_deal(DEFENDER, "2H 3H 4H 5H 5C 6C 7C 8S 8D 8C", upcard="QH",
                           stock_top="8H", rules=rules), PASS, PASS, STOCK, {"type": "big_gin"})
    assert (big.result.kind, big.result.points) == ("big_gin", 63)
