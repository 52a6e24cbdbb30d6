"""Level "medium": card tracking and heuristics, no search.

Draws: takes the discard when the hand it leads to is worth more than a stock
draw is expected to be (a meld made, or a high deadwood card replaced by a low
one), but never a card it discarded itself earlier in the hand. Discards: the
card whose remaining hand has the best expected deadwood over the live cards,
penalised by the chance that the opponent can meld it. Knocks: at once early in
the hand; later only with low enough deadwood that an undercut is unlikely, the
allowance shrinking as the opponent has had more turns to build melds.
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.cards import INDEX, TEXT, VALUE, deadwood
from games.bots.heuristics import Evaluator
from games.bots.knowledge import Knowledge, read_view

Action = dict[str, Any]

TAKE_MARGIN = 0.0
"""How much better than a stock draw taking the discard must look (tuned vs easy)."""
KNOCK_FULL_TURNS = 2
"""Opponent turns during which medium knocks with the full knock limit."""


def find(legal: list[Action], **fields: Any) -> Action | None:
    """The legal action with these fields, or None."""
    for action in legal:
        if all(action.get(k) == v for k, v in fields.items()):
            return action
    return None


def allowance_after(knock_limit: int, opp_turns: int) -> int:
    """The most deadwood medium knocks with once the opponent has had ``opp_turns``
    turns: the full limit for the first two, then 1.5 points less per turn, down to 2
    (a later knock risks an undercut more; tuned in seat-swapped matches vs easy)."""
    if opp_turns <= KNOCK_FULL_TURNS:
        return knock_limit
    return max(min(knock_limit, 2), knock_limit - (3 * (opp_turns - KNOCK_FULL_TURNS) + 1) // 2)


def knock_allowance(k: Knowledge) -> int:
    """The most deadwood medium knocks with now."""
    return allowance_after(k.knock_limit, k.opp_turns)


def knock_card(hand11: int, legal: list[Action]) -> tuple[int, Action] | None:
    """(deadwood, action) of the legal knock leaving the least deadwood, if any."""
    best: tuple[int, int, Action] | None = None
    for action in legal:
        if action["type"] != "knock":
            continue
        card = INDEX[action["card"]]
        key = (deadwood(hand11 & ~(1 << card)), -VALUE[card])
        if best is None or key < best[:2]:
            best = (*key, action)
    return None if best is None else (best[0], best[2])


def choose_draw(k: Knowledge, ev: Evaluator, legal: list[Action]) -> Action:
    """Take the top of the discard pile or draw from the stock (pass on the first turn)."""
    take = find(legal, type="draw", source="discard")
    other = find(legal, type="draw", source="stock") or find(legal, type="pass")
    if take is None or other is None or k.top is None:
        return take or other or legal[0]
    if k.top in k.my_discards:
        return other  # never take back our own discard: bots could otherwise cycle
    take_score, _ = ev.take_value(k.hand, k.top)
    if take_score < ev.stock_value(k.hand) - TAKE_MARGIN:
        return take
    return other


def choose(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """The medium player's action for this view."""
    k = read_view(view)
    ev = Evaluator(k)
    if k.phase in ("first_turn", "draw"):
        return choose_draw(k, ev, legal)
    big_gin = find(legal, type="big_gin")
    if big_gin is not None:
        return big_gin
    knock = knock_card(k.hand, legal)
    if knock is not None and (knock[0] == 0 or knock[0] <= knock_allowance(k)):
        return knock[1]
    forbidden = 1 << k.taken if k.taken is not None else 0
    for _, card in ev.discard_scores(k.hand, forbidden):
        action = find(legal, type="discard", card=TEXT[card])
        if action is not None:
            return action
    return rng.choice([a for a in legal if a["type"] == "discard"])
