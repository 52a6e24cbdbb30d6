"""Card text, ordering and the deck."""

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import RANKS, SUITS, Card, cards_to_mask, mask_to_cards, new_deck


def test_the_deck_has_52_distinct_cards_in_canonical_order():
    deck = new_deck()
    assert len(set(deck)) == 52
    assert [str(card) for card in deck[:14]] == [
        "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AD",
    ]
    assert str(deck[-1]) == "KS"
    assert new_deck() is not deck  # callers may shuffle their copy


def test_card_values_follow_the_rules():
    assert [Card.parse(r + "H").value for r in RANKS] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


def test_cards_are_ordered_by_rank_then_suit():
    assert sorted(Card.parse(t) for t in ["KS", "AD", "AC", "TH", "2S"]) == [
        Card.parse(t) for t in ["AC", "AD", "2S", "TH", "KS"]
    ]


@given(st.sampled_from(RANKS), st.sampled_from(SUITS), st.booleans())
def test_card_text_round_trips(rank, suit, lower):
    text = rank + suit
    card = Card.parse(text.lower() if lower else text)
    assert str(card) == text
    assert Card.parse(str(card)) is card
    assert Card(card.rank, card.suit) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert hash(card) == hash(Card.parse(text))


@pytest.mark.parametrize("text", ["", "1H", "AX", "10H", "TDD", "T", None, 12])
def test_bad_card_text_is_refused_clearly(text):
    with pytest.raises(ValueError, match="card"):
        Card.parse(text)


def test_cards_are_immutable():
    with pytest.raises(AttributeError):
        Card.parse("AS").rank = 2


def test_masks_round_trip_and_refuse_repeats():
    hand = ["QH", "AS", "TD"]
    assert [str(c) for c in mask_to_cards(cards_to_mask(hand))] == ["AS", "TD", "QH"]
    with pytest.raises(ValueError, match="more than once"):
        cards_to_mask(["AS", Card.parse("AS")])
