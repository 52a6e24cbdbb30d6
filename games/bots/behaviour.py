"""The opponent's last discard, explained: how likely each possible opponent hand is
to have thrown the card it just threw, if it plays like our own default player.

A sampled world gives the opponent's 10 cards; with the card it last discarded they
are the 11 it chose from, exactly. Seen from its seat at that moment (its hand, the
pile and what it knew of ours then: all public, replayed from the history), the tuned
heuristic player (``games.bots.policy``) scores each of its possible discards
(``Evaluator.discard_scores``); a world in which that card scored far worse than the
best is one the opponent is unlikely to be in. The likelihood is a softmax of the
scores with temperature TEMPERATURE, floored at FLOOR so a player who thinks
otherwise (a person, or a search that overturned its default) is never ruled out.
Used by expert's worlds (``games.bots.search``, ``Config.discard_model``).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from games.bots.cards import FULL, INDEX
from games.bots.heuristics import Evaluator, Weights
from games.bots.knowledge import Knowledge, read_view

TEMPERATURE = 1.0
"""Score points (deadwood-like) per e-fold of likelihood."""
FLOOR = 0.05
"""No world's likelihood falls below this share of the likeliest one's."""


class LastDiscard:
    """The opponent's situation when it made its last discard, ready to score worlds."""

    def __init__(self, k: Knowledge, card: int, weights: Weights) -> None:
        self.k = k
        self.card = card
        self.weights = weights
        self.forbidden = 1 << k.taken if k.taken is not None else 0
        self.base_unseen = FULL & ~(sum(1 << c for c in k.pile) | k.opp_known)

    def likelihood(self, opp_hand10: int) -> float:
        """Relative likelihood that the opponent, holding ``opp_hand10`` now, threw
        ``card`` from the 11 it held (1 for the best-scored discard)."""
        return max(FLOOR, math.exp(-self.likelihood_gap(opp_hand10) / TEMPERATURE))

    def likelihood_gap(self, opp_hand10: int) -> float:
        """How much worse ``card`` scored than the best discard of those 11 cards."""
        hand11 = opp_hand10 | (1 << self.card)
        k = replace(self.k, hand=hand11, unseen=self.base_unseen & ~hand11)
        scores = Evaluator(k, self.weights).discard_scores(hand11, self.forbidden)
        best = scores[0][0]
        mine = next((s for s, c in scores if c == self.card), None)
        return 100.0 if mine is None else mine - best


def last_discard(view: dict[str, Any], weights: Weights) -> LastDiscard | None:
    """The opponent's last discard as it saw it, or None if it has not discarded since
    our last turn (or never)."""
    me = view["seat"]
    opp = 1 - me
    history = view.get("history") or []
    last = None
    for index in range(len(history) - 1, -1, -1):
        event = history[index]
        if event.get("type") == "discard":
            if event.get("seat") == opp:
                last = index
            break
    if last is None:
        return None
    upcard = view.get("upcard")
    pile: list[str] = [upcard] if upcard else []
    known: list[set[str]] = [set(), set()]
    taken = None
    for event in history[:last]:
        kind = event.get("type")
        if kind == "draw" and event.get("source") == "discard":
            card = event["card"]
            if pile and pile[-1] == card:
                pile.pop()
            known[event["seat"]].add(card)
            taken = card if event["seat"] == opp else None
        elif kind == "draw":
            taken = None
        elif kind == "discard":
            pile.append(event["card"])
            known[event["seat"]].discard(event["card"])
    their_view = {
        "seat": opp,
        "phase": "discard",
        "hand": [],
        "discard_pile": pile,
        "opponent_known_cards": sorted(known[me]),
        "opponent_card_count": 10,
        "stock_count": view["stock_count"],
        "taken_from_discard": taken,
        "dealer": view["dealer"],
        "knock_limit": view["knock_limit"],
        "rules": view["rules"],
        "upcard": upcard,
        "history": history[:last],
    }
    k = read_view(their_view)
    return LastDiscard(k, INDEX[history[last]["card"]], weights)
