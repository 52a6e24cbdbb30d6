"""Cards, the deck, and the 52-bit card masks used by the fast meld code.

A card is written rank then suit: ``AS``, ``TD``, ``QH``. Ranks ``A23456789TJQK``
(ace low, rank 1..13), suits ``CDHS``. There are exactly 52 ``Card`` objects:
``Card.parse`` and ``Card(rank, suit)`` return the same shared instance.

Ordering: by rank, then by suit in the order C, D, H, S (``AC < AD < ... < KS``).

Each card also has an ``index`` 0..51, its position in ``new_deck()``:
``index = suit_index * 13 + rank - 1`` (AC=0, 2C=1, ..., KC=12, AD=13, ..., KS=51).
A set of cards is a mask with bit ``index`` set for each card.

>>> str(Card.parse("td"))
'TD'
>>> Card.parse("QH").value
10
>>> [str(c) for c in new_deck()[:3]]
['AC', '2C', '3C']
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter

RANKS = "A23456789TJQK"
SUITS = "CDHS"


class Card:
    """One playing card; immutable, hashable, ordered by (rank, suit)."""

    __slots__ = ("_key", "_text", "index", "rank", "suit", "value")

    index: int
    rank: int
    suit: str
    value: int
    _key: int
    _text: str

    def __new__(cls, rank: int, suit: str) -> Card:
        if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= 13:
            raise ValueError(f"card rank must be 1..13 (ace=1), got {rank!r}")
        if not isinstance(suit, str) or len(suit) != 1 or suit not in SUITS:
            raise ValueError(f"card suit must be one of C, D, H, S, got {suit!r}")
        return _BY_INDEX[SUITS.index(suit) * 13 + rank - 1]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        suit_index, rank0 = divmod(index, 13)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "rank", rank0 + 1)
        object.__setattr__(card, "suit", SUITS[suit_index])
        object.__setattr__(card, "value", min(rank0 + 1, 10))
        object.__setattr__(card, "_key", rank0 * 4 + suit_index)
        object.__setattr__(card, "_text", RANKS[rank0] + SUITS[suit_index])
        return card

    @staticmethod
    def parse(text: str | Card) -> Card:
        """The card written ``text`` (case-insensitive, e.g. "TD"); a Card is returned as is."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise ValueError(f"a card is written like 'TD', got {text!r}")
        card = _BY_TEXT.get(text.upper())
        if card is None:
            raise ValueError(f"not a card: {text!r} (write rank then suit, like 'TD' or 'AS')")
        return card

    @property
    def mask(self) -> int:
        return 1 << self.index

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int, str]]:
        return (Card, (self.rank, self.suit))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key < other._key

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key <= other._key

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key > other._key

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key >= other._key


_BY_INDEX: list[Card] = [Card._make(i) for i in range(52)]
sort_key = attrgetter("_key")  # sorted(cards, key=sort_key) == sorted(cards), faster
_BY_TEXT: dict[str, Card] = {str(card): card for card in _BY_INDEX}


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    """``Card.parse`` of each text, with one dictionary look-up per card when they are
    written as the engine writes them (a saved state holds over fifty)."""
    try:
        return tuple([_BY_TEXT[text] for text in texts])
    except (KeyError, TypeError):
        return tuple(Card.parse(text) for text in texts)


# Card objects and their texts both map to the card's bit: one dict lookup per card.
_BIT: dict[object, int] = {}
for _card in _BY_INDEX:
    _BIT[_card] = 1 << _card.index
    _BIT[str(_card)] = 1 << _card.index
del _card

VALUES: tuple[int, ...] = tuple(card.value for card in _BY_INDEX)


def new_deck() -> list[Card]:
    """The 52 cards in canonical order: for suit in CDHS, for rank in A..K."""
    return list(_BY_INDEX)


def card_at(index: int) -> Card:
    """The card with this index (0..51)."""
    return _BY_INDEX[index]


def cards_to_mask(cards: Iterable[str | Card]) -> int:
    """The mask of these cards; ValueError on bad text or a repeated card."""
    items = cards if isinstance(cards, list | tuple) else list(cards)
    try:
        mask = sum(map(_BIT.__getitem__, items))
    except (KeyError, TypeError):
        mask = sum(Card.parse(card).mask for card in items)  # lower case, or the clear error
    # A sum of distinct bits has one bit per card; any repeat carries and loses bits.
    if mask.bit_count() != len(items):
        raise ValueError("the same card is given more than once")
    return mask


def mask_to_cards(mask: int) -> list[Card]:
    """The cards of a mask, sorted by (rank, suit)."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(_BY_INDEX[low.bit_length() - 1])
        mask ^= low
    cards.sort(key=sort_key)
    return cards


def mask_value(mask: int) -> int:
    """Sum of the deadwood values of the cards in a mask."""
    total = 0
    while mask:
        low = mask & -mask
        total += VALUES[low.bit_length() - 1]
        mask ^= low
    return total
