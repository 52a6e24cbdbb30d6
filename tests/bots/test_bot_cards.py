"""The bots' fast card-mask arithmetic agrees with the engine's exact melding."""

from __future__ import annotations

import random

from games.bots.cards import (
    INDEX,
    TEXT,
    arrangement,
    best_discard,
    deadwood,
    layoff_deadwood,
    makes_meld,
    mask_of,
    value_of,
)
from games.engine import deadwood_mask
from games.engine.melds import best_layoffs


def random_hands(count: int, seed: int) -> list[int]:
    """Uniform hands and meld-rich ones (drawn from a narrow window of ranks)."""
    rng = random.Random(seed)
    hands = []
    for n in range(count):
        size = rng.choice([3, 7, 10, 10, 11, 11])
        if n % 2:
            cards = rng.sample(range(52), size)
        else:
            low = rng.randrange(0, 8)
            pool = [13 * suit + rank for suit in range(4) for rank in range(low, low + 6)]
            cards = rng.sample(pool, size)
        hands.append(sum(1 << c for c in cards))
    return hands


def test_card_text_round_trip() -> None:
    assert TEXT[0] == "AC" and TEXT[51] == "KS" and TEXT[INDEX["TD"]] == "TD"
    assert mask_of(["AC", "2C"]) == 0b11


def test_deadwood_equals_the_engine_on_random_hands() -> None:
    for hand in random_hands(4000, seed=1):
        assert deadwood(hand) == deadwood_mask(hand)


def test_arrangement_is_valid_and_optimal() -> None:
    for hand in random_hands(1500, seed=2):
        points, melds = arrangement(hand)
        used = 0
        for meld in melds:
            assert meld & hand == meld and not meld & used
            assert deadwood(meld) == 0 and meld.bit_count() >= 3
            used |= meld
        assert points == value_of(hand & ~used) == deadwood_mask(hand)


def test_layoffs_equal_the_engine() -> None:
    rng = random.Random(3)
    checked = 0
    while checked < 800:
        deck = list(range(52))
        rng.shuffle(deck)
        knocker = sum(1 << c for c in deck[:10])
        defender = sum(1 << c for c in deck[10:20])
        _, melds = arrangement(knocker)
        if not melds:
            continue
        assert layoff_deadwood(defender, melds) == best_layoffs(melds, defender).deadwood_points
        checked += 1


def test_best_discard_never_discards_a_forbidden_card() -> None:
    hand = mask_of(["AH", "2H", "3H", "7C", "7D", "7S", "4C", "5C", "6C", "8D", "KS"])
    assert best_discard(hand) == (8, INDEX["KS"])
    points, card = best_discard(hand, forbidden=1 << INDEX["KS"])
    assert card != INDEX["KS"] and points == 10


def test_makes_meld() -> None:
    hand = mask_of(["5H", "6H", "9C", "9D", "KS"])
    assert makes_meld(hand, INDEX["7H"]) and makes_meld(hand, INDEX["4H"])
    assert makes_meld(hand, INDEX["9S"])
    assert not makes_meld(hand, INDEX["8H"]) and not makes_meld(hand, INDEX["KD"])


def test_best_discard_equals_trying_every_allowed_card() -> None:
    """The table paths (with or without a forbidden card) against the definition: the
    least deadwood left, ties to the highest value, then the highest index."""
    rng = random.Random(17)
    for hand in random_hands(3000, 11):
        held = [i for i in range(52) if hand >> i & 1]
        if len(held) != 11:
            continue
        for forbidden in (0, 1 << rng.choice(held)):
            allowed = [i for i in held if not forbidden >> i & 1]
            expected = min(
                allowed, key=lambda i: (deadwood_mask(hand & ~(1 << i)), -value_of(1 << i), -i)
            )
            assert best_discard(hand, forbidden) == (
                deadwood_mask(hand & ~(1 << expected)),
                expected,
            )
