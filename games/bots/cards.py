"""Compact card sets for the bots' inner loops: a set of cards is an int bitmask.

Bit ``suit * 13 + rank - 1`` stands for one card, suits in the order ``C D H S``
(the engine's canonical deck order), so ``AC`` is bit 0 and ``KS`` bit 51.
The engine's ``best_melds`` is exact and general; these helpers compute the same
deadwood much faster, because the bots evaluate it hundreds of thousands of times
per decision: runs are looked up per suit in a table of all 8,192 rank patterns,
and only ranks holding three or more cards branch on sets.
"""

from __future__ import annotations

from itertools import combinations

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


def _set_removals() -> list[list[tuple[int, ...]]]:
    """Per rank and 4-bit suit pattern: the masks a set of that rank may take out
    of the hand (0 first: no set)."""
    table = []
    for rank in range(13):
        row = []
        for pattern in range(16):
            present = [suit for suit in range(4) if pattern >> suit & 1]
            options = [0]
            for size in (3, 4):
                for combo in combinations(present, size):
                    options.append(sum(1 << (13 * suit + rank) for suit in combo))
            row.append(tuple(options))
        table.append(row)
    return table


SET_REMOVALS = _set_removals()
_CACHE: dict[int, int] = {}
_CACHE_LIMIT = 300_000


def deadwood(mask: int) -> int:
    """Least deadwood points of any 0–11 cards (every card counted)."""
    c = mask & M13
    d = (mask >> 13) & M13
    h = (mask >> 26) & M13
    s = mask >> 39
    ranks = (c & d & (h | s)) | (h & s & (c | d))
    if not ranks:
        return RUN_DEADWOOD[c] + RUN_DEADWOOD[d] + RUN_DEADWOOD[h] + RUN_DEADWOOD[s]
    cached = _CACHE.get(mask)
    if cached is not None:
        return cached
    options = [0]
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        r = low.bit_length() - 1
        pattern = (c >> r & 1) | (d >> r & 1) << 1 | (h >> r & 1) << 2 | (s >> r & 1) << 3
        removals = SET_REMOVALS[r][pattern]
        options = [o | x for o in options for x in removals]
    best = 1 << 30
    for option in options:
        rest = mask & ~option
        score = (
            RUN_DEADWOOD[rest & M13]
            + RUN_DEADWOOD[(rest >> 13) & M13]
            + RUN_DEADWOOD[(rest >> 26) & M13]
            + RUN_DEADWOOD[rest >> 39]
        )
        if score < best:
            best = score
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[mask] = best
    return best


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


def best_discard(hand11: int, forbidden: int = 0) -> tuple[int, int]:
    """(deadwood after, card index) of the discard leaving the least deadwood;
    ties go to the highest-value card, then the highest index. ``forbidden`` is a
    mask of cards that may not be discarded."""
    best_dw, best_i = 1 << 30, -1
    mask = hand11 & ~forbidden
    while mask:
        low = mask & -mask
        mask ^= low
        i = low.bit_length() - 1
        dw = deadwood(hand11 ^ low)
        if dw < best_dw or (dw == best_dw and VALUE[i] >= VALUE[best_i]):
            best_dw, best_i = dw, i
    return best_dw, best_i
