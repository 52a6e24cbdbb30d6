"""The seeded shuffle and deal (docs/dealing.md), as known answers."""

import hashlib
import itertools

import pytest

from games.engine import (
    HandState,
    RuleSet,
    commitment,
    deal_cards,
    dealing,
    new_seed,
    shuffled_deck,
)

from .helpers import texts

SEED = bytes(range(32))  # the worked example of docs/dealing.md
SHUFFLED = (
    "KD 4S AS TH 7C AH TS KS JH 2H QS 9H 5C 5H JD 5D AD 3S 7D 8D 7H TD 3H 3C JS 8S 6D 6S "
    "QH 8H 2C TC 9C 4C QC 3D 9D QD KC 6H 4D 6C AC 7S 2S JC 9S 4H 8C 5S 2D KH"
)


def test_the_byte_stream_is_hmac_sha256_in_counter_mode():
    words = list(itertools.islice(dealing._words(SEED), 10))
    assert words[:3] == [0x80EE2CE6, 0x15B6AFF8, 0x8D5B50B5]
    assert words[8:] == [0xE7226CC2, 0xC632193A]  # the second block (counter 1)


def test_the_worked_example_shuffle():
    assert " ".join(texts(shuffled_deck(SEED))) == SHUFFLED


def test_the_worked_example_deal():
    deal = deal_cards(SEED, dealer=0)
    assert texts(deal.hands[1]) == "KD AS 7C TS JH QS 5C JD AD 7D".split()  # non-dealer
    assert texts(deal.hands[0]) == "4S TH AH KS 2H 9H 5H 5D 3S 8D".split()  # dealer
    assert str(deal.upcard) == "7H"
    assert texts(deal.stock[:3]) == ["TD", "3H", "3C"]
    assert len(deal.stock) == 31
    swapped = deal_cards(SEED, dealer=1)
    assert swapped.hands == (deal.hands[1], deal.hands[0])


def test_the_commitment_is_the_sha256_of_the_seed():
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest() == (
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    )


def test_a_deal_is_deterministic_and_the_first_stock_card_is_drawn_first():
    first = HandState.deal(RuleSet.default(), 0, SEED)
    assert first == HandState.deal(RuleSet.default(), 0, SEED)
    assert texts(first.discard_pile) == ["7H"] and str(first.upcard) == "7H"
    state, _ = first.apply({"type": "pass"})
    state, _ = state.apply({"type": "pass"})
    state, _ = state.apply({"type": "draw", "source": "stock"})
    assert "TD" in texts(state.hands[1])


def test_different_seeds_give_different_deals():
    decks = {tuple(shuffled_deck(new_seed())) for _ in range(20)}
    assert len(decks) == 20
    assert len(new_seed()) == 32


def test_draws_at_or_above_the_limit_are_rejected(monkeypatch):
    # For n = 52 the limit is 2**32 - (2**32 % 52) = 4294967248: a leading 0xFFFFFFFF is
    # skipped and the shuffle is the same as without it.
    real = dealing._words

    def words(seed):
        yield 0xFFFFFFFF
        yield from real(seed)

    monkeypatch.setattr(dealing, "_words", words)
    assert " ".join(texts(shuffled_deck(SEED))) == SHUFFLED


@pytest.mark.parametrize("seed", [b"", "text", None])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(ValueError, match="seed"):
        shuffled_deck(seed)
