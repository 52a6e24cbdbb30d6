"""Fast simulation of the rest of a hand over card masks, for the search bots.

A playout starts from a sampled world (both hands, the stock order, the top of the
discard pile, whose turn it is and in which phase) and plays both seats with a
cheap policy until the hand ends: take the discard only if it makes a meld,
discard to the least deadwood, knock as soon as allowed. It returns the hand's
value for one seat: the points won (plus the line bonus a won hand earns at the
end of the match), negative when lost, 0 for a draw at the wall. The engine
remains the authority on the rules; this is the bots' private model of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.bots.cards import arrangement, best_discard, deadwood, layoff_deadwood, makes_meld

OFFER, DRAW, DISCARD = 0, 1, 2
MAX_TURNS = 80
"""Playout policies can pass cards back and forth; such a hand is scored as drawn."""


@dataclass(frozen=True)
class SimRules:
    """The rule-set fields a playout needs (knock limit already effective)."""

    knock_limit: int
    straight: bool
    big_gin_allowed: bool
    gin_bonus: int
    big_gin_bonus: int
    undercut_bonus: int
    line_bonus: int

    def can_knock(self, dw: int) -> bool:
        return dw == 0 or (not self.straight and dw <= self.knock_limit)


def knock_value(rules: SimRules, knocker: int, defender: int) -> int:
    """The knocker's gain (negative: loss) when knocking with these 10-card hands."""
    dw, melds = arrangement(knocker)
    if dw == 0:
        return deadwood(defender) + rules.gin_bonus + rules.line_bonus
    other = layoff_deadwood(defender, melds)
    if other <= dw:
        return -(dw - other + rules.undercut_bonus + rules.line_bonus)
    return other - dw + rules.line_bonus


def big_gin_value(rules: SimRules, defender: int) -> int:
    """The gain of a big gin against this 10-card hand."""
    return deadwood(defender) + rules.big_gin_bonus + rules.line_bonus


def playout(
    rules: SimRules,
    hands: list[int],
    stock: list[int],
    top: int,
    player: int,
    phase: int,
    me: int,
    forbidden: int = 0,
    offers: int = 0,
) -> tuple[int, int]:
    """Play the hand out; return (value for seat ``me``, number of turns played).

    ``stock`` is consumed from its end. ``phase`` is OFFER (``offers`` upcard offers
    left, 2 for the non-dealer's first), DRAW, or DISCARD (``player`` holds 11 cards
    and may not discard ``forbidden``). ``hands`` is modified in place.
    """
    limit = -1 if rules.straight else rules.knock_limit
    turns = 0
    while True:
        hand = hands[player]
        if phase == OFFER:
            if makes_meld(hand, top):
                hand |= 1 << top
                forbidden = 1 << top
                phase = DISCARD
            else:
                offers -= 1
                player ^= 1
                phase = OFFER if offers else DRAW
                continue
        elif phase == DRAW:
            if makes_meld(hand, top):
                hand |= 1 << top
                forbidden = 1 << top
            else:
                if not stock:
                    return 0, turns
                hand |= 1 << stock.pop()
                forbidden = 0
        turns += 1
        if turns > MAX_TURNS:
            return 0, turns
        if rules.big_gin_allowed and deadwood(hand) == 0:
            value = big_gin_value(rules, hands[player ^ 1])
            return (value if player == me else -value), turns
        dw, card = best_discard(hand, forbidden)
        hand ^= 1 << card
        if dw <= limit or dw == 0:
            value = knock_value(rules, hand, hands[player ^ 1])
            return (value if player == me else -value), turns
        if len(stock) <= 2:
            return 0, turns
        hands[player] = hand
        top = card
        player ^= 1
        phase = DRAW
