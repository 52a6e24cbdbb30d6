"""The post-hand evaluator (games.bots.analysis) on chosen deals: what a coach
would say about a decision, seen from the player's view at that moment."""

from __future__ import annotations

from games.bots.analysis import (
    BLUNDER,
    accuracy,
    analyse_decision,
    analyse_hand,
    decision_accuracy,
    label,
)
from games.engine import HandState
from tests.engine.helpers import PASS, STOCK, chosen_deal, discard, knock, play

# Seat 1 (the non-dealer) holds a run 5-6-7 of clubs and a set of eights, and
# high loose cards; after both pass it draws the 3 of diamonds.
RUN_AND_SET = "5C 6C 7C 8D 8H 8S KS QD 2H 9S"
OTHER = "AC 2C 3S 4S JH TH 9D 7H 4D 6S"


def meld_position() -> HandState:
    state = chosen_deal(OTHER, RUN_AND_SET, upcard="KH", stock_top="3D")
    return play(state, PASS, PASS, STOCK)


def test_breaking_a_complete_meld_to_keep_a_high_card_is_a_mistake_or_a_blunder() -> None:
    state = meld_position()
    decision = analyse_decision(state, discard("6C"), seed="meld", ply=3)
    assert decision.seat == 1
    assert decision.played == {"type": "discard", "card": "6C"}
    assert decision.label in ("mistake", "blunder")
    assert decision.best["type"] == "discard"
    assert decision.best["card"] in ("KS", "QD", "9S")
    assert decision.loss >= 6


def test_the_best_play_is_labelled_nothing() -> None:
    decision = analyse_decision(meld_position(), discard("KS"), seed="meld", ply=3)
    assert decision.label is None
    assert decision.loss < 3
    assert decision.best == {"type": "discard", "card": "KS"} or decision.loss == 0


def wall_position() -> HandState:
    """Seat 1 draws the last card it may: a discard now ends the hand as a draw,
    while a knock with 2 deadwood (discarding the king) is legal."""
    state = chosen_deal(
        OTHER, "5C 6C 7C 8D 8H 8S AD 2D 3D KS", upcard="KH", stock_top="2H", stock_size=3
    )
    return play(state, PASS, PASS, STOCK)


def test_a_legal_knock_skipped_for_a_drawn_hand_is_flagged() -> None:
    state = wall_position()
    assert {"type": "knock", "card": "KS"} in state.legal_actions()
    decision = analyse_decision(state, discard("KS"), seed="wall", ply=3)
    assert decision.best == {"type": "knock", "card": "KS"}
    assert decision.label == "blunder"
    assert decision.loss >= BLUNDER
    knocked = analyse_decision(state, knock("KS"), seed="wall", ply=3)
    assert knocked.label is None and knocked.loss == 0


def test_a_whole_hand_lists_every_decision_of_both_seats_in_order() -> None:
    deal = chosen_deal(
        OTHER, "5C 6C 7C 8D 8H 8S AD 2D 3D KS", upcard="KH", stock_top="2H", stock_size=3
    )
    actions = [PASS, PASS, STOCK, discard("KS")]
    analysis = analyse_hand(deal, actions, seed="hand")
    assert [(d.ply, d.seat) for d in analysis.decisions] == [(0, 1), (1, 0), (2, 1), (3, 1)]
    assert [d.played for d in analysis.decisions] == [
        {"type": "pass"}, {"type": "pass"}, {"type": "draw", "source": "stock"},
        {"type": "discard", "card": "KS"},
    ]
    assert analysis.decisions[3].label == "blunder"
    seat1 = analysis.accuracy[1]
    assert seat1 is not None and seat1 < 60
    again = analyse_hand(deal, actions, seed="hand")
    assert again.to_dict() == analysis.to_dict()


def test_labels_and_accuracy_follow_the_documented_thresholds() -> None:
    assert [label(x) for x in (0, 2.9, 3, 5.9, 6, 11.9, 12, 40)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder",
    ]
    assert decision_accuracy(0) == 100
    assert round(decision_accuracy(6)) == 40
    assert decision_accuracy(100) == 0
    assert accuracy([]) is None
    assert accuracy([0, 0, 0]) == 100
    assert accuracy([0, 0, 0, 20]) < accuracy([0, 0, 0, 6]) < accuracy([0, 0, 0, 1])
