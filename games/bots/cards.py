"""Compact card sets for the bots' inner loops: a set of cards is an int bitmask.

Bit ``suit * 13 + rank - 1`` stands for one card, suits in the order ``C D H S``
(the engine's canonical deck order), so ``AC`` is bit 0 and ``KS`` bit 51.
The engine's ``deadwood_mask`` is the exact reference; around it these helpers add
what the bots' inner loops need: a cache, the best discard of 11 cards with one
table lookup per suit when no rank is held three times, one optimal arrangement,
the defender's deadwood after lay-offs, and per-card neighbour masks.
"""

from __future__ import annotations

from itertools import combinations

from games.engine import deadwood_mask

SUITS = "CDHS"
RANKS = "A23456789TJQK"
M13 = (1 << 13) - 1
FULL = (1 << 52) - 1

TEXT: tuple[str, ...] = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))
INDEX: dict[str, int] = {text: i for i, text in enumerate(TEXT)}
VALUE: tuple[int, ...] = tuple(min(i % 13 + 1, 10) for i in range(52))
RANK_VALUE: tuple[int, ...] = tuple(min(r + 1, 10) for r in range(13))


def bit(text: str) -> int:
    """The mask of one card given as text, e.g. ``bit("TD")``."""
    return 1 << INDEX[text]


def mask_of(texts: list[str] | tuple[str, ...]) -> int:
    """The mask of several cards given as text."""
    mask = 0
    for text in texts:
        mask |= 1 << INDEX[text]
    return mask


def indices(mask: int) -> list[int]:
    """Card indices of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def texts(mask: int) -> list[str]:
    """Card texts of a mask, in index order."""
    return [TEXT[i] for i in indices(mask)]


def _run_tables() -> tuple[list[int], list[tuple[int, ...]], list[int]]:
    """For every 13-bit rank pattern of one suit: least deadwood using runs only,
    the runs achieving it, and the pattern's total value."""
    size = 1 << 13
    best = [0] * size
    runs: list[tuple[int, ...]] = [()] * size
    total = [0] * size
    for pattern in range(1, size):
        low = (pattern & -pattern).bit_length() - 1
        rest = pattern & ~(1 << low)
        total[pattern] = total[rest] + RANK_VALUE[low]
        # The lowest card is deadwood, or it starts a run (nothing lower can hold it).
        score, chosen = best[rest] + RANK_VALUE[low], runs[rest]
        length, run = 1, 1 << low
        while low + length < 13 and pattern >> (low + length) & 1:
            run |= 1 << (low + length)
            length += 1
            if length >= 3 and best[pattern & ~run] < score:
                score, chosen = best[pattern & ~run], (run, *runs[pattern & ~run])
        best[pattern], runs[pattern] = score, chosen
    return best, runs, total


RUN_DEADWOOD, RUN_MELDS, PATTERN_VALUE = _run_tables()


def value_of(mask: int) -> int:
    """Total card value of a mask."""
    return (
        PATTERN_VALUE[mask & M13]
        + PATTERN_VALUE[(mask >> 13) & M13]
        + PATTERN_VALUE[(mask >> 26) & M13]
        + PATTERN_VALUE[mask >> 39]
    )


def _set_ranks(c: int, d: int, h: int, s: int) -> int:
    """13-bit mask of the ranks present in at least three suits."""
    return (c & d & (h | s)) | (h & s & (c | d))


def _set_options(pats: tuple[int, int, int, int], rank_bit: int) -> list[tuple[int, ...]]:
    """The suit choices (indices) that can form a set of this rank."""
    present = [i for i in range(4) if pats[i] & rank_bit]
    options: list[tuple[int, ...]] = [tuple(present)] if len(present) == 4 else []
    options.extend(combinations(present, 3))
    return options


_CACHE: dict[int, int] = {}
_CACHE_LIMIT = 300_000


def deadwood(mask: int) -> int:
    """Least deadwood points of any 0–11 cards (every card counted).

    Without a rank held three times it is four table lookups; otherwise the engine's
    exact ``deadwood_mask`` decides, remembered in a bounded cache (the bots revisit
    the same hands many times within a decision).
    """
    c = mask & M13
    d = (mask >> 13) & M13
    h = (mask >> 26) & M13
    s = mask >> 39
    if not (c & d & (h | s)) | (h & s & (c | d)):
        return RUN_DEADWOOD[c] + RUN_DEADWOOD[d] + RUN_DEADWOOD[h] + RUN_DEADWOOD[s]
    cached = _CACHE.get(mask)
    if cached is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        cached = _CACHE[mask] = deadwood_mask(mask)
    return cached


def _arrange_sets(pats: tuple[int, int, int, int], ranks: int) -> tuple[int, list[int]]:
    if not ranks:
        melds = [run << (13 * i) for i in range(4) for run in RUN_MELDS[pats[i]]]
        return sum(RUN_DEADWOOD[p] for p in pats), melds
    rank_bit = ranks & -ranks
    rank = rank_bit.bit_length() - 1
    rest = ranks ^ rank_bit
    best, best_melds = _arrange_sets(pats, rest)
    for option in _set_options(pats, rank_bit):
        cleared = tuple(p & ~rank_bit if i in option else p for i, p in enumerate(pats))
        score, melds = _arrange_sets(cleared, rest)  # type: ignore[arg-type]
        if score < best:
            best = score
            best_melds = [*melds, sum(1 << (13 * i + rank) for i in option)]
    return best, best_melds


def arrangement(mask: int) -> tuple[int, list[int]]:
    """Least deadwood of a hand and one arrangement of melds (masks) achieving it."""
    pats = (mask & M13, (mask >> 13) & M13, (mask >> 26) & M13, mask >> 39)
    return _arrange_sets(pats, _set_ranks(*pats))


def _layoff_chains(defender: int, melds: list[int]) -> list[list[int]]:
    """Per knocker meld, the cumulative masks the defender could lay off on it."""
    chains = []
    for meld in melds:
        low = (meld & -meld).bit_length() - 1
        high = meld.bit_length() - 1
        if (
            high - low < 13
            and (meld >> low) == (1 << (high - low + 1)) - 1
            and high // 13 == (low // 13)
        ):
            suit_base = (low // 13) * 13
            down, cur, i = [], 0, low - 1
            while i >= suit_base and defender >> i & 1:
                cur |= 1 << i
                down.append(cur)
                i -= 1
            up, cur, i = [], 0, high + 1
            while i < suit_base + 13 and defender >> i & 1:
                cur |= 1 << i
                up.append(cur)
                i += 1
            if down:
                chains.append(down)
            if up:
                chains.append(up)
        elif meld.bit_count() == 3:
            rank = low % 13
            fourth = sum(1 << (13 * s + rank) for s in range(4)) & ~meld & defender
            if fourth:
                chains.append([fourth])
    return chains


def layoff_deadwood(defender: int, knocker_melds: list[int]) -> int:
    """Least deadwood of the defender's 10 cards after their best lay-offs."""
    options = [0]
    for chain in _layoff_chains(defender, knocker_melds):
        options = [o | extra for o in options for extra in (0, *chain)]
    return min(deadwood(defender & ~off) for off in options)


def _pairs(i: int) -> tuple[int, ...]:
    """Two-card masks that form a meld together with card ``i``."""
    suit, rank = divmod(i, 13)
    others = [13 * s + rank for s in range(4) if s != suit]
    out = [(1 << a) | (1 << b) for a, b in combinations(others, 2)]
    for a, b in ((rank - 2, rank - 1), (rank - 1, rank + 1), (rank + 1, rank + 2)):
        if 0 <= a and b < 13:
            out.append((1 << (13 * suit + a)) | (1 << (13 * suit + b)))
    return tuple(out)


MELD_PAIRS: tuple[tuple[int, ...], ...] = tuple(_pairs(i) for i in range(52))
"""For each card, the two-card masks that would complete a meld with it."""

SAME_RANK: tuple[int, ...] = tuple(
    sum(1 << (13 * s + i % 13) for s in range(4)) & ~(1 << i) for i in range(52)
)
NEAR1: tuple[int, ...] = tuple(
    sum(1 << (i + k) for k in (-1, 1) if 0 <= i % 13 + k < 13) for i in range(52)
)
NEAR2: tuple[int, ...] = tuple(
    sum(1 << (i + k) for k in (-2, 2) if 0 <= i % 13 + k < 13) for i in range(52)
)


def makes_meld(hand: int, i: int) -> bool:
    """Whether card ``i`` would be part of some meld together with cards of ``hand``."""
    return any(pair & hand == pair for pair in MELD_PAIRS[i])


def _removal_table() -> list[tuple[int, int]]:
    """Per 13-bit suit pattern: (least run-only deadwood after removing one of its
    cards, that card's rank), ties to the highest rank; (big, -1) for no cards."""
    table = [(1 << 30, -1)] * (1 << 13)
    for pattern in range(1, 1 << 13):
        best, best_rank = 1 << 30, -1
        for rank in range(13):
            if pattern >> rank & 1:
                dw = RUN_DEADWOOD[pattern ^ (1 << rank)]
                if dw <= best:
                    best, best_rank = dw, rank
        table[pattern] = (best, best_rank)
    return table


BEST_REMOVAL = _removal_table()
_DISCARD_CACHE: dict[int, tuple[int, int]] = {}
"""The slow path's answers, by hand | forbidden << 52 (cleared when full)."""
_DISCARD_CACHE_LIMIT = 100_000


def best_discard(hand11: int, forbidden: int = 0) -> tuple[int, int]:
    """(deadwood after, card index) of the discard leaving the least deadwood;
    ties go to the highest-value card, then the highest index. ``forbidden`` is a
    mask of cards that may not be discarded."""
    t = RUN_DEADWOOD
    c = hand11 & M13
    d = (hand11 >> 13) & M13
    h = (hand11 >> 26) & M13
    s = hand11 >> 39
    if not (c & d & (h | s)) | (h & s & (c | d)) and forbidden & (forbidden - 1) == 0:
        # No rank in three suits: only the suit losing the card changes. A forbidden
        # card's suit is searched rank by rank without it (ties as in the table).
        total = t[c] + t[d] + t[h] + t[s]
        banned = forbidden.bit_length() - 1
        best_dw, best_i = 1 << 30, -1
        for suit, pattern in enumerate((c, d, h, s)):
            if not pattern:
                continue
            if banned // 13 == suit:
                rest = total - t[pattern]
                for rank in range(13):
                    if pattern >> rank & 1 and rank != banned - 13 * suit:
                        dw = t[pattern ^ (1 << rank)] + rest
                        i = 13 * suit + rank
                        if dw < best_dw or (dw == best_dw and VALUE[i] >= VALUE[best_i]):
                            best_dw, best_i = dw, i
                continue
            dw, rank = BEST_REMOVAL[pattern]
            dw += total - t[pattern]
            i = 13 * suit + rank
            if dw < best_dw or (dw == best_dw and VALUE[i] >= VALUE[best_i]):
                best_dw, best_i = dw, i
        return best_dw, best_i
    key = hand11 | forbidden << 52
    cached = _DISCARD_CACHE.get(key)
    if cached is not None:
        return cached
    best_dw, best_i = 1 << 30, -1
    mask = hand11 & ~forbidden
    while mask:
        low = mask & -mask
        mask ^= low
        i = low.bit_length() - 1
        dw = deadwood(hand11 ^ low)
        if dw < best_dw or (dw == best_dw and VALUE[i] >= VALUE[best_i]):
            best_dw, best_i = dw, i
    if len(_DISCARD_CACHE) >= _DISCARD_CACHE_LIMIT:
        _DISCARD_CACHE.clear()
    _DISCARD_CACHE[key] = best_dw, best_i
    return best_dw, best_i
