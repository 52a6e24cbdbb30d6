"""First checks of the engine's public API: a whole hand, the deal, melds, knocks."""

import random

from games.engine import (
    Card,
    HandState,
    RuleSet,
    best_knock,
    best_melds,
    deadwood,
    new_deck,
)


def test_card_text_and_deck_order():
    deck = new_deck()
    assert [str(card) for card in deck[:3]] == ["AC", "2C", "3C"]
    assert str(deck[13]) == "AD"
    assert Card.parse("td") is Card.parse("TD")
    assert Card.parse("KS").value == 10


def test_deadwood_uses_the_best_arrangement():
    # 7C 7D 7H with 5C 6C: the set (deadwood 11) beats the run 5C 6C 7C (deadwood 14).
    assert deadwood(["5C", "6C", "7C", "7D", "7H"]) == 11
    melding = best_melds(["5C", "6C", "7C", "7D", "7H"])
    assert [[str(c) for c in meld] for meld in melding.melds] == [["7C", "7D", "7H"]]
    assert melding.points == 11


def test_best_knock_discards_the_highest_card_on_ties():
    cards = ["AH", "2H", "3H", "7C", "7D", "7S", "4C", "5C", "6C", "8D", "KS"]
    assert best_knock(cards) == (Card.parse("KS"), 8)


def test_random_hands_play_to_the_end():
    rng = random.Random(7)
    for number in range(20):
        state = HandState.deal(RuleSet.default(), number % 2, bytes([number]) * 32)
        while not state.is_over:
            state, _ = state.apply(rng.choice(state.legal_actions()))
        assert state.result is not None
        assert state.result.kind in {"knock", "gin", "big_gin", "undercut", "draw"}
