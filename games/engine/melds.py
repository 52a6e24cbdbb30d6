"""Melds, optimal deadwood, the best knock, and lay-offs.

How the optimum is found (exact, no search over meld lists):

* Within one suit and without sets, the best use of the cards is fixed: every
  maximal block of 3 or more consecutive ranks is one run, every shorter block is
  deadwood. A 8192-entry table per 13-bit suit mask gives that deadwood
  (``_RUN_DEADWOOD``) and the cards inside blocks of 3+ (``_RUN_CARDS``).
* Sets are the only thing that couples suits. A rank held in 3 or 4 suits whose
  cards sit in no run block of their suit always melds as a full set. Only the
  remaining "contested" ranks branch (no set, the full set, or for four of a kind
  each 3-card set leaving out a card that could be in a run); each branch is
  scored with four table lookups.

So ``deadwood`` of an 11-card hand costs a handful of table lookups, and at most a
few dozen for the most meld-rich hands. Hands are 52-bit masks (see cards.py).

>>> deadwood(["AH", "2H", "3H", "7C", "7D", "7S", "KS"])
10
>>> best_knock(["AH", "2H", "3H", "7C", "7D", "7S", "4C", "5C", "6C", "8D", "KS"])
(Card.parse('KS'), 8)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from .cards import Card, card_at, cards_to_mask, mask_to_cards, mask_value

SUIT_BITS = 0x1FFF  # the 13 rank bits of one suit
MAX_CARDS = 11


def _build_run_tables() -> tuple[list[int], list[int]]:
    run_deadwood = [0] * 8192
    run_cards = [0] * 8192
    for mask in range(8192):
        dead = 0
        melded = 0
        rank = 0
        while rank < 13:
            if not mask >> rank & 1:
                rank += 1
                continue
            start = rank
            while rank < 13 and mask >> rank & 1:
                rank += 1
            block = ((1 << (rank - start)) - 1) << start
            if rank - start >= 3:
                melded |= block
            else:
                dead += sum(min(r + 1, 10) for r in range(start, rank))
        run_deadwood[mask] = dead
        run_cards[mask] = melded
    return run_deadwood, run_cards


_RUN_DEADWOOD, _RUN_CARDS = _build_run_tables()


SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39  # rank bits * SPREAD: that rank in all four suits


def _set_options(mask: int) -> tuple[int, list[list[int]]]:
    """The set cards forced in every optimal arrangement, and per remaining rank the
    candidate set choices (each a mask of the cards put in the set; 0 = no set).

    A rank held 3 or 4 times whose cards sit in no run block always melds as a full
    set. Otherwise: three cards give {set, no set}; four give the full set, each
    3-card set leaving out a card that sits in a run block, and no set when two or
    more of them do. Every other choice is strictly worse, so every optimal
    arrangement is among these.
    """
    a = mask & SUIT_BITS
    b = mask >> 13 & SUIT_BITS
    c = mask >> 26 & SUIT_BITS
    d = mask >> 39
    trips = (a & b & (c | d)) | (c & d & (a | b))
    if not trips:
        return 0, []
    rc = _RUN_CARDS
    ra, rb, rcc, rd = rc[a], rc[b], rc[c], rc[d]
    contested = (ra | rb | rcc | rd) & trips
    forced = (trips ^ contested) * SPREAD & mask
    options = []
    if contested:
        run_cards = ra | rb << 13 | rcc << 26 | rd << 39
        while contested:
            low = contested & -contested
            contested ^= low
            cards = low * SPREAD & mask
            if cards.bit_count() == 3:
                options.append([cards, 0])
                continue
            runnable = cards & run_cards
            choices = [cards]
            rest = runnable
            while rest:
                card = rest & -rest
                rest ^= card
                choices.append(cards ^ card)
            if runnable.bit_count() >= 2:
                choices.append(0)
            options.append(choices)
    return forced, options


def deadwood_mask(mask: int) -> int:
    """Minimum deadwood points of the cards in a 52-bit mask (fast path for bots)."""
    t = _RUN_DEADWOOD
    a = mask & SUIT_BITS
    b = mask >> 13 & SUIT_BITS
    c = mask >> 26 & SUIT_BITS
    d = mask >> 39
    if not (a & b & (c | d)) | (c & d & (a | b)):
        return t[a] + t[b] + t[c] + t[d]
    forced, options = _set_options(mask)
    mask &= ~forced
    if not options:
        return t[mask & SUIT_BITS] + t[mask >> 13 & SUIT_BITS] + t[mask >> 26 & SUIT_BITS] \
            + t[mask >> 39]
    best = 999
    if len(options) == 1:
        for cards in options[0]:
            x = mask & ~cards
            v = t[x & SUIT_BITS] + t[x >> 13 & SUIT_BITS] + t[x >> 26 & SUIT_BITS] + t[x >> 39]
            if v < best:
                if not v:
                    return 0
                best = v
        return best
    if len(options) == 2:
        second = options[1]
        for first in options[0]:
            left = mask & ~first
            for cards in second:
                x = left & ~cards
                v = t[x & SUIT_BITS] + t[x >> 13 & SUIT_BITS] + t[x >> 26 & SUIT_BITS] \
                    + t[x >> 39]
                if v < best:
                    if not v:
                        return 0
                    best = v
        return best
    for combo in itertools.product(*options):
        x = mask & ~sum(combo)
        v = t[x & SUIT_BITS] + t[x >> 13 & SUIT_BITS] + t[x >> 26 & SUIT_BITS] + t[x >> 39]
        if v < best:
            if not v:
                return 0
            best = v
    return best


def _hand_mask(cards: Iterable[str | Card]) -> int:
    mask = cards_to_mask(cards)
    if mask.bit_count() > MAX_CARDS:
        raise ValueError(f"a hand has at most {MAX_CARDS} cards, got {mask.bit_count()}")
    return mask


def deadwood(cards: Iterable[str | Card]) -> int:
    """Minimum deadwood points of 0-11 cards; every card counts (nothing is discarded)."""
    return deadwood_mask(_hand_mask(cards))


# --- arrangements -----------------------------------------------------------------


def _set_choices(mask: int) -> list[int]:
    """Every candidate choice of set cards (see ``_set_options``), as masks."""
    forced, options = _set_options(mask)
    return [forced | sum(combo) for combo in itertools.product(*options)]


def _sets_of(set_cards: int) -> list[int]:
    """Split the set cards of an arrangement into one mask per rank."""
    melds = []
    ranks = (set_cards | set_cards >> 13 | set_cards >> 26 | set_cards >> 39) & SUIT_BITS
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        melds.append(low * SPREAD & set_cards)
    return melds


def _runs_of(mask: int) -> list[int]:
    """The run blocks (3+ consecutive cards of a suit) of the cards left for runs."""
    melds = []
    for suit in range(4):
        block_bits = _RUN_CARDS[mask >> (13 * suit) & SUIT_BITS]
        while block_bits:
            low = block_bits & -block_bits
            block = block_bits & ~(block_bits + low)  # the lowest run of consecutive bits
            block_bits ^= block
            melds.append(block << (13 * suit))
    return melds


def _arrangement_deadwood(mask: int, set_cards: int) -> int:
    rest = mask & ~set_cards
    t = _RUN_DEADWOOD
    return (
        t[rest & SUIT_BITS]
        + t[rest >> 13 & SUIT_BITS]
        + t[rest >> 26 & SUIT_BITS]
        + t[rest >> 39]
    )


def _arrangement(mask: int, set_cards: int) -> list[int]:
    return _sets_of(set_cards) + _runs_of(mask & ~set_cards)


def optimal_arrangements(mask: int) -> list[list[int]]:
    """Every meld arrangement (list of meld masks) reaching the minimum deadwood.

    Runs are whole blocks: two arrangements that differ only in how a long run is
    cut are the same here (they show the same cards and take the same lay-offs).
    """
    scored = [(_arrangement_deadwood(mask, s), s) for s in _set_choices(mask)]
    best = min(points for points, _ in scored)
    return [_arrangement(mask, s) for points, s in scored if points == best]


def meld_cards(meld: int) -> tuple[Card, ...]:
    """The cards of one meld in display order: a run low to high, a set by suit.

    Both are simply ascending card index, as a meld is one suit or one rank.
    """
    cards = []
    while meld:
        low = meld & -meld
        cards.append(card_at(low.bit_length() - 1))
        meld ^= low
    return tuple(cards)


def sort_melds(melds: Iterable[int]) -> list[int]:
    """Meld masks ordered by their lowest card in (rank, suit) order."""
    return sorted(melds, key=lambda meld: card_at((meld & -meld).bit_length() - 1)._key)


@dataclass(frozen=True)
class Melding:
    """An optimal arrangement: ``melds`` (each a tuple of Cards), ``deadwood`` (the
    cards in no meld) and ``points`` (their total value)."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    points: int

    @classmethod
    def from_masks(cls, mask: int, melds: Iterable[int]) -> Melding:
        melds = list(melds)
        meld_list = [meld_cards(m) for m in sort_melds(melds)]
        melded = 0
        for meld in melds:
            melded |= meld
        dead = mask & ~melded
        return cls(tuple(meld_list), tuple(mask_to_cards(dead)), mask_value(dead))

    def to_dict(self) -> dict[str, object]:
        return {
            "melds": [[str(card) for card in meld] for meld in self.melds],
            "deadwood": [str(card) for card in self.deadwood],
            "points": self.points,
        }


def best_melds_mask(mask: int) -> Melding:
    """``best_melds`` for a 52-bit mask."""
    best_points = 999
    best_sets = 0
    for set_cards in _set_choices(mask):
        points = _arrangement_deadwood(mask, set_cards)
        if points < best_points:
            best_points, best_sets = points, set_cards
    return Melding.from_masks(mask, _arrangement(mask, best_sets))


def best_melds(cards: Iterable[str | Card]) -> Melding:
    """An optimal arrangement of 0-11 cards into melds (minimum deadwood points)."""
    return best_melds_mask(_hand_mask(cards))


def best_discard_mask(mask: int, forbidden: int = 0) -> tuple[Card, int]:
    """The discard (not in ``forbidden``) leaving the lowest deadwood, and that deadwood.

    Ties go to the highest-value card, then the highest card in (rank, suit) order.
    Removing a card of value v lowers the deadwood by at most v, so candidates are
    tried from the highest value down and the search stops once none can do better.
    """
    whole = deadwood_mask(mask)
    candidates = []
    rest = mask & ~forbidden
    while rest:
        low = rest & -rest
        rest ^= low
        card = card_at(low.bit_length() - 1)
        candidates.append((card.value, card._key, card))
    if not candidates:
        raise ValueError("there is no card that may be discarded")
    candidates.sort(reverse=True)
    best_points = 999
    best_card = candidates[0][2]
    for value, _, card in candidates:
        if whole - value >= best_points:
            break  # this card, and every later one, can at best tie: ties go to earlier cards
        points = deadwood_mask(mask ^ card.mask)
        if points < best_points:
            best_points, best_card = points, card
    return best_card, best_points


def best_knock(cards11: Iterable[str | Card]) -> tuple[Card, int]:
    """For 11 cards: the discard leaving the lowest deadwood (ties: the highest-value
    card) and that deadwood."""
    mask = cards_to_mask(cards11)
    if mask.bit_count() != 11:
        raise ValueError(f"best_knock needs 11 cards, got {mask.bit_count()}")
    return best_discard_mask(mask)


# --- lay-offs -----------------------------------------------------------------------


def _layoff_options(meld: int, defender: int) -> list[int]:
    """The ways the defender can lay off onto one of the knocker's melds (masks)."""
    suits = [meld >> (13 * k) & SUIT_BITS for k in range(4)]
    used = [k for k in range(4) if suits[k]]
    if len(used) > 1:  # a set
        if len(used) == 3:
            rank_bits = suits[used[0]]
            missing = next(k for k in range(4) if k not in used)
            fourth = rank_bits << (13 * missing)
            if defender & fourth:
                return [0, fourth]
        return [0]
    suit = used[0]
    shift = 13 * suit
    run = suits[suit]
    own = defender >> shift & SUIT_BITS
    lower = [0]
    bit = (run & -run) >> 1
    chain = 0
    while bit and own & bit:
        chain |= bit
        lower.append(chain << shift)
        bit >>= 1
    upper = [0]
    bit = (1 << run.bit_length()) & SUIT_BITS
    chain = 0
    while bit and own & bit:
        chain |= bit
        upper.append(chain << shift)
        bit = (bit << 1) & SUIT_BITS
    return [lo | hi for lo in lower for hi in upper]


@dataclass(frozen=True)
class Layoff:
    """The defender's best answer to a knock: own melds and lay-offs chosen together."""

    deadwood_points: int
    melding: Melding  # the defender's own melds and final deadwood
    onto: tuple[int, ...]  # per knocker meld, the mask of the cards laid off on it

    @property
    def laid_off(self) -> int:
        total = 0
        for cards in self.onto:
            total |= cards
        return total


def best_layoffs(knocker_melds: list[int], defender: int) -> Layoff:
    """Lay off the defender's cards to minimise its deadwood (own melds chosen jointly).

    Ties: fewest cards laid off, then the first combination found.
    """
    per_meld = [_layoff_options(meld, defender) for meld in knocker_melds]
    best: tuple[int, int] | None = None
    best_combo: tuple[int, ...] = tuple(0 for _ in knocker_melds)
    for combo in itertools.product(*per_meld):
        laid = 0
        overlap = False
        for cards in combo:
            if laid & cards:
                overlap = True
                break
            laid |= cards
        if overlap:
            continue
        key = (deadwood_mask(defender & ~laid), laid.bit_count())
        if best is None or key < best:
            best = key
            best_combo = combo
    laid = 0
    for cards in best_combo:
        laid |= cards
    melding = best_melds_mask(defender & ~laid)
    return Layoff(melding.points, melding, tuple(best_combo))
