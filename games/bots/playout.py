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

from games.bots.cards import MELD_PAIRS, arrangement, best_discard, deadwood, layoff_deadwood

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
    my_limits: tuple[int, ...] = (),
) -> tuple[int, int]:
    """Play the hand out; return (value for seat ``me``, number of turns played).

    ``stock`` is consumed from its end. ``phase`` is OFFER (``offers`` upcard offers
    left, 2 for the non-dealer's first), DRAW, or DISCARD (``player`` holds 11 cards
    and may not discard ``forbidden``). ``hands`` is modified in place.
    ``my_limits[t]``: the most deadwood seat ``me`` knocks with on its t-th turn
    from here (the last entry repeats); by default both seats knock when allowed.
    """
    limit = -1 if rules.straight else rules.knock_limit
    turns = 0
    my_turns = 0
    last_limit = len(my_limits) - 1
    while True:
        hand = hands[player]
        if phase == OFFER:
            if any(pair & hand == pair for pair in MELD_PAIRS[top]):
                hand |= 1 << top
                forbidden = 1 << top
                phase = DISCARD
            else:
                offers -= 1
                player ^= 1
                phase = OFFER if offers else DRAW
                continue
        elif phase == DRAW:
            if any(pair & hand == pair for pair in MELD_PAIRS[top]):
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
        dw, card = best_discard(hand, forbidden)
        if dw == 0:
            # Every 11-card big gin has a meld of four or more, so it leaves 0 here too.
            if rules.big_gin_allowed and deadwood(hand) == 0:
                value = big_gin_value(rules, hands[player ^ 1])
                return (value if player == me else -value), turns
            hand ^= 1 << card
            value = knock_value(rules, hand, hands[player ^ 1])
            return (value if player == me else -value), turns
        hand ^= 1 << card
        if player == me and my_limits:
            allowed = my_limits[min(my_turns, last_limit)]
            my_turns += 1
        else:
            allowed = limit
        if dw <= allowed:
            value = knock_value(rules, hand, hands[player ^ 1])
            return (value if player == me else -value), turns
        if len(stock) <= 2:
            return 0, turns
        hands[player] = hand
        top = card
        player ^= 1
        phase = DRAW
