"""Hand and discard evaluation shared by the medium, hard and expert levels.

The value of a 10-card hand is its expected deadwood after one more draw from the
stock, counted only over the cards that can still be in the stock (the live
cards: those in our hand, the discard pile or known to be in the opponent's hand
are dead), with a reward for reaching the knock limit and for gin. A discard
also costs the chance that it completes a meld in the opponent's hand (its
danger), estimated from where the unseen cards probably are.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.bots.cards import (
    MELD_PAIRS,
    NEAR1,
    SAME_RANK,
    VALUE,
    best_discard,
    deadwood,
    indices,
)
from games.bots.knowledge import Knowledge

CONNECT: tuple[int, ...] = tuple(SAME_RANK[i] | NEAR1[i] for i in range(52))
"""Cards that can share a meld with card i without a third card between them."""


@dataclass(frozen=True)
class Weights:
    """Tunable constants of the evaluation, in deadwood points."""

    knockable: float = 10.0
    gin: float = 8.0
    danger: float = 2.5
    stock_gain: float = 1.0
    """A stock draw is valued as the hand after one draw, improved again by this share
    of that draw's gain."""


class Evaluator:
    """Evaluates hands and discards for one decision, with a per-decision cache."""

    def __init__(self, knowledge: Knowledge, weights: Weights | None = None) -> None:
        self.k = knowledge
        self.w = weights or Weights()
        self.p_opp = knowledge.opp_probabilities()
        unseen = indices(knowledge.unseen)
        stock_share = [max(0.0, 1.0 - self.p_opp[c]) for c in unseen]
        total = sum(stock_share) or 1.0
        self.draws = [(c, share / total) for c, share in zip(unseen, stock_share, strict=True)]
        self.limit = knowledge.knock_limit
        self._cache: dict[int, float] = {}

    def shape(self, dw: int) -> float:
        """Deadwood with the rewards for being able to knock and for gin."""
        if dw == 0:
            return -self.w.knockable - self.w.gin
        if dw <= self.limit:
            return dw - self.w.knockable
        return float(dw)

    def hand_value(self, hand: int) -> float:
        """Expected shaped deadwood of a 10-card hand after one stock draw (lower is better)."""
        cached = self._cache.get(hand)
        if cached is not None:
            return cached
        dw = deadwood(hand)
        # Best single-card reduction, for draws that join nothing in hand.
        relief = 0
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            gain = dw - deadwood(hand ^ low)
            if gain > relief:
                relief = gain
        connected = 0
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            connected |= CONNECT[low.bit_length() - 1]
        shape = self.shape
        value = 0.0
        for card, prob in self.draws:
            if connected >> card & 1:
                after = best_discard(hand | (1 << card))[0]
            else:
                after = min(dw, dw - relief + VALUE[card])
            value += prob * shape(after)
        self._cache[hand] = value
        return value

    def danger(self, card: int, hand_after: int) -> float:
        """Probability that the opponent holds two cards melding with ``card``."""
        p = self.p_opp
        safe = 1.0
        for pair in MELD_PAIRS[card]:
            if pair & hand_after:
                continue
            low = pair & -pair
            a = low.bit_length() - 1
            b = (pair ^ low).bit_length() - 1
            safe *= 1.0 - p[a] * p[b]
        return 1.0 - safe

    def discard_scores(self, hand11: int, forbidden: int = 0) -> list[tuple[float, int]]:
        """(score, card) for every allowed discard, best (lowest score) first."""
        scores = []
        rest = hand11 & ~forbidden
        while rest:
            low = rest & -rest
            rest ^= low
            card = low.bit_length() - 1
            after = hand11 ^ low
            score = self.hand_value(after) + self.w.danger * self.danger(card, after)
            scores.append((score, card))
        scores.sort(key=lambda sc: (sc[0], -VALUE[sc[1]], -sc[1]))
        return scores

    def stock_value(self, hand10: int) -> float:
        """Estimated value of drawing from the stock now (comparable to a discard score):
        the expected deadwood after this draw, improved once more at the same rate."""
        now = deadwood(hand10)
        after_one = self.hand_value(hand10)
        return after_one - self.w.stock_gain * (self.shape(now) - after_one)

    def take_value(self, hand10: int, top: int) -> tuple[float, int]:
        """(score, discard) of taking ``top`` and then discarding the best card."""
        score, card = self.discard_scores(hand10 | (1 << top), forbidden=1 << top)[0]
        return score, card
