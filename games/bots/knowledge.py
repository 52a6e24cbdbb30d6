"""What a seat knows: a player view parsed into card masks, plus the inferences a
careful human draws from the public history.

Everything here is computed from the view alone (the view is read, never
changed). The unseen cards are those in neither our hand, the discard pile, nor
the opponent's known cards: each is either in the opponent's hand or in the
stock. Their relative likelihood of being in the opponent's hand is raised or
lowered by what the opponent did: a card it took from the pile suggests it holds
that card's neighbours, a card it passed or discarded suggests it does not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.bots.cards import INDEX, NEAR1, NEAR2, SAME_RANK, indices

# Likelihood factors (opponent holds an unseen card) per kind of evidence, for
# cards of the same rank, one rank apart in the suit, and two ranks apart.
PICKED = (2.0, 2.0, 1.35)
PASSED = (0.55, 0.55, 0.8)
DISCARDED = (0.65, 0.6, 0.85)


@dataclass
class Knowledge:
    """The decision-relevant content of one seat's player view."""

    seat: int
    phase: str
    hand: int
    pile: list[int]
    opp_known: int
    opp_count: int
    stock_count: int
    taken: int | None
    dealer: int
    knock_limit: int
    straight: bool
    big_gin_allowed: bool
    gin_bonus: int
    big_gin_bonus: int
    undercut_bonus: int
    line_bonus: int
    unseen: int = 0
    opp_passed: list[int] = field(default_factory=list)
    opp_discards: list[int] = field(default_factory=list)
    opp_picked: list[int] = field(default_factory=list)
    my_discards: list[int] = field(default_factory=list)
    opp_turns: int = 0
    weights: list[float] = field(default_factory=lambda: [0.0] * 52)

    @property
    def top(self) -> int | None:
        return self.pile[-1] if self.pile else None

    @property
    def opp_unknown(self) -> int:
        """How many of the opponent's cards we have not seen."""
        return self.opp_count - self.opp_known.bit_count()

    def opp_probabilities(self) -> list[float]:
        """Per card index: the probability that the opponent holds it."""
        probs = [0.0] * 52
        for i in indices(self.opp_known):
            probs[i] = 1.0
        unseen = indices(self.unseen)
        need = self.opp_unknown
        if not unseen or need <= 0:
            return probs
        weights = {i: self.weights[i] for i in unseen}
        # Scale so the probabilities sum to the number of unknown cards, capping at 0.97.
        capped: dict[int, float] = {}
        for _ in range(4):
            free = {i: w for i, w in weights.items() if i not in capped}
            left = need - sum(capped.values())
            total = sum(free.values())
            if total <= 0 or left <= 0:
                break
            over = False
            for i, w in free.items():
                p = left * w / total
                if p > 0.97:
                    capped[i] = 0.97
                    over = True
            if not over:
                for i, w in free.items():
                    probs[i] = left * w / total
                break
        for i, p in capped.items():
            probs[i] = p
        return probs


def _card(text: str) -> int:
    return INDEX[text]


def _apply_evidence(weights: list[float], card: int, factors: tuple[float, float, float]) -> None:
    same, near1, near2 = factors
    for mask, factor in ((SAME_RANK[card], same), (NEAR1[card], near1), (NEAR2[card], near2)):
        for i in indices(mask):
            weights[i] *= factor


def read_view(view: dict[str, Any]) -> Knowledge:
    """Parse a player view (``state.player_view(seat)``) into a Knowledge."""
    rules = view["rules"]
    straight = bool(rules.get("straight", False))
    seat = view["seat"]
    knowledge = Knowledge(
        seat=seat,
        phase=view["phase"],
        hand=sum(1 << _card(c) for c in view["hand"]),
        pile=[_card(c) for c in view["discard_pile"]],
        opp_known=sum(1 << _card(c) for c in view["opponent_known_cards"]),
        opp_count=int(view["opponent_card_count"]),
        stock_count=int(view["stock_count"]),
        taken=_card(view["taken_from_discard"]) if view.get("taken_from_discard") else None,
        dealer=int(view["dealer"]),
        knock_limit=0 if straight else int(view["knock_limit"]),
        straight=straight,
        big_gin_allowed=bool(rules.get("big_gin_allowed", True)),
        gin_bonus=0 if straight else int(rules.get("gin_bonus", 25)),
        big_gin_bonus=0 if straight else int(rules.get("big_gin_bonus", 31)),
        undercut_bonus=int(rules.get("undercut_bonus", 25)),
        line_bonus=int(rules.get("line_bonus", 25)),
    )
    pile_mask = sum(1 << i for i in knowledge.pile)
    knowledge.unseen = ((1 << 52) - 1) & ~(knowledge.hand | pile_mask | knowledge.opp_known)
    _read_history(knowledge, view.get("history") or [], view.get("upcard"))
    return knowledge


def _read_history(knowledge: Knowledge, history: list[dict[str, Any]], upcard: str | None) -> None:
    """Replay the public events: who passed, took and discarded which card."""
    weights = [1.0] * 52
    pile: list[int] = [_card(upcard)] if upcard else []
    opp = 1 - knowledge.seat
    for event in history:
        kind = event.get("type")
        mine = event.get("seat") != opp
        if kind == "pass" or (kind == "draw" and event.get("source") == "stock"):
            if not mine:
                knowledge.opp_turns += kind == "draw"
                if pile:
                    knowledge.opp_passed.append(pile[-1])
                    _apply_evidence(weights, pile[-1], PASSED)
        elif kind == "draw":
            card = _card(event["card"])
            if pile and pile[-1] == card:
                pile.pop()
            if not mine:
                knowledge.opp_turns += 1
                knowledge.opp_picked.append(card)
                _apply_evidence(weights, card, PICKED)
        elif kind == "discard":
            card = _card(event["card"])
            pile.append(card)
            if mine:
                knowledge.my_discards.append(card)
            else:
                knowledge.opp_discards.append(card)
                _apply_evidence(weights, card, DISCARDED)
    knowledge.weights = weights
