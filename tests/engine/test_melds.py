"""Melds, optimal deadwood and the best knock, checked against an exhaustive search."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Card, best_knock, best_melds, deadwood, new_deck

from .helpers import cards, texts

DECK = new_deck()


def _all_melds() -> list[frozenset[Card]]:
    melds = []
    for rank in range(1, 14):
        same = [Card(rank, suit) for suit in "CDHS"]
        melds += [frozenset(c) for size in (3, 4) for c in itertools.combinations(same, size)]
    for suit in "CDHS":
        for low in range(1, 12):
            for high in range(low + 2, 14):
                melds.append(frozenset(Card(r, suit) for r in range(low, high + 1)))
    return melds


ALL_MELDS = _all_melds()


def exhaustive_deadwood(hand: frozenset[Card]) -> int:
    """Try every set of disjoint melds inside the hand."""
    melds = [m for m in ALL_MELDS if m <= hand]
    best = sum(card.value for card in hand)

    def search(left: frozenset[Card], start: int) -> None:
        nonlocal best
        best = min(best, sum(card.value for card in left))
        for i in range(start, len(melds)):
            if melds[i] <= left:
                search(left - melds[i], i + 1)

    search(hand, 0)
    return best


def is_meld(group: tuple[Card, ...]) -> bool:
    return frozenset(group) in ALL_MELDS


uniform_hands = st.lists(st.sampled_from(DECK), min_size=0, max_size=11, unique=True)
meld_rich_hands = st.integers(min_value=1, max_value=9).flatmap(
    lambda low: st.lists(
        st.sampled_from([c for c in DECK if low <= c.rank < low + 5]),
        min_size=6, max_size=11, unique=True,
    )
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(uniform_hands, meld_rich_hands))
def test_best_melds_equals_an_exhaustive_search(hand):
    melding = best_melds(hand)
    assert melding.points == exhaustive_deadwood(frozenset(hand))
    assert deadwood(hand) == melding.points
    shown = [card for meld in melding.melds for card in meld] + list(melding.deadwood)
    assert sorted(shown) == sorted(hand)  # every card exactly once
    assert all(is_meld(meld) for meld in melding.melds)
    assert melding.points == sum(card.value for card in melding.deadwood)


def test_sets_and_runs():
    assert deadwood(cards("8H 8S 8D")) == 0
    assert deadwood(cards("8H 8S 8D 8C")) == 0
    assert deadwood(cards("5C 6C 7C 8C 9C")) == 0
    assert deadwood(cards("5C 6C 7D")) == 18  # a run is one suit
    assert deadwood([]) == 0


def test_aces_are_low_and_runs_never_wrap():
    assert deadwood(cards("AH 2H 3H")) == 0
    assert deadwood(cards("QH KH AH")) == 21
    assert deadwood(cards("KS AS 2S")) == 13


def test_a_card_belongs_to_one_meld_only():
    # 7H could finish the set or the run, not both: 5H 6H or 7C 7D stay deadwood.
    assert deadwood(cards("5H 6H 7H 7C 7D")) == 11
    melding = best_melds(cards("5H 6H 7H 7C 7D"))
    assert [texts(m) for m in melding.melds] == [["7C", "7D", "7H"]]
    assert texts(melding.deadwood) == ["5H", "6H"]


def test_the_arrangement_minimises_points_not_cards():
    # Four 9s as a set leave 6S 7S 8S... no: 6S 7S 8S 9S run plus 9C 9D 9H set is gin.
    assert deadwood(cards("6S 7S 8S 9S 9C 9D 9H")) == 0
    # Run 3-4-5 of hearts or set of 5s: the set leaves 3H 4H (7), the run leaves 5C 5D (10).
    assert deadwood(cards("3H 4H 5H 5C 5D")) == 7


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (DECK[:12], "at most 11"),
        (["AS", "AS"], "more than once"),
        (["AS", "XX"], "not a card"),
    ],
)
def test_bad_hands_are_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        deadwood(bad)


def test_best_knock_picks_the_lowest_deadwood():
    hand = cards("AH 2H 3H 7C 7D 7S 4C 5C 6C 8D KS")
    assert best_knock(hand) == (Card.parse("KS"), 8)
    assert best_knock(texts(hand)) == (Card.parse("KS"), 8)


def test_best_knock_ties_go_to_the_highest_value_card():
    # Discarding QD or KS leaves 10 either way: KS (same value, higher card).
    assert best_knock(cards("AH 2H 3H 4C 5C 6C 9D 9S 9H QD KS")) == (Card.parse("KS"), 10)
    # 8D or 8S leave 8: 8S.
    assert best_knock(cards("AH 2H 3H 4C 5C 6C 9D 9S 9H 8D 8S")) == (Card.parse("8S"), 8)
    # The lowest deadwood comes first: keeping 2D 2H 2S as a set beats dropping a 2.
    assert best_knock(cards("AH 2H 3H 4C 5C 6C 9D 9S 9H 2D 2S")) == (Card.parse("3H"), 1)


def test_best_knock_needs_eleven_cards():
    with pytest.raises(ValueError, match="11 cards"):
        best_knock(DECK[:10])


@settings(max_examples=200, deadline=None)
@given(st.one_of(
    st.lists(st.sampled_from(DECK), min_size=11, max_size=11, unique=True),
    st.integers(min_value=1, max_value=9).flatmap(lambda low: st.lists(
        st.sampled_from([c for c in DECK if low <= c.rank < low + 5]),
        min_size=11, max_size=11, unique=True)),
))
def test_best_knock_equals_trying_every_discard(hand):
    # Lowest deadwood first, then the highest value, then the highest card.
    tries = sorted(((deadwood([c for c in hand if c != card]), -card.value, card) for card in hand),
                   key=lambda t: (t[0], t[1], [-x for x in (t[2].rank, "CDHS".index(t[2].suit))]))
    points, _, card = tries[0]
    assert best_knock(hand) == (card, points)
