"""Level "easy": the simple baseline of the gin rummy AI literature.

Written from the published description of Neller's SimpleGinRummyPlayer (EAAI
gin rummy challenge): take the upcard or the discard only if it would be part of
a meld with the cards in hand, otherwise draw from the stock; discard a card
leaving the least deadwood (so the highest-value card in no meld), never the one
just taken, choosing at random among equals; knock as soon as it is legal (with
gin, and big gin, whenever available). Like the original it never repeats a
(card taken from the pile, card discarded) pair within a hand, so that two simple
players cannot pass the same cards back and forth for ever.
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.cards import INDEX, VALUE, deadwood, makes_meld, mask_of

Action = dict[str, Any]


def _find(legal: list[Action], **fields: Any) -> Action | None:
    for action in legal:
        if all(action.get(k) == v for k, v in fields.items()):
            return action
    return None


def _after_discard(hand: int, card: str) -> tuple[int, int, str]:
    """Sort key of a knock: least deadwood left, then the highest card thrown."""
    i = INDEX[card]
    return deadwood(hand & ~(1 << i)), -VALUE[i], card


def _taken_then_discarded(view: dict[str, Any]) -> set[tuple[str, str]]:
    """(card taken from the pile, card then discarded) pairs of this seat's past turns."""
    pairs = set()
    taken = None
    for event in view.get("history") or []:
        if event.get("seat") != view["seat"]:
            continue
        if event["type"] == "draw":
            taken = event.get("card") if event.get("source") == "discard" else None
        elif event["type"] == "discard" and taken is not None:
            pairs.add((taken, event["card"]))
    return pairs


def choose(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """The simple player's action for this view."""
    hand = mask_of(view["hand"])
    if view["phase"] in ("first_turn", "draw"):
        pile = view["discard_pile"]
        take = _find(legal, type="draw", source="discard")
        if take is not None and pile and makes_meld(hand, INDEX[pile[-1]]):
            return take
        return _find(legal, type="draw", source="stock") or _find(legal, type="pass") or legal[0]
    big_gin = _find(legal, type="big_gin")
    if big_gin is not None:
        return big_gin
    knocks = [a for a in legal if a["type"] == "knock"]
    if knocks:
        return min(knocks, key=lambda a: _after_discard(hand, a["card"]))
    discards = [a for a in legal if a["type"] == "discard"]
    taken = view.get("taken_from_discard")
    if taken:
        repeats = _taken_then_discarded(view)
        fresh = [a for a in discards if (taken, a["card"]) not in repeats]
        discards = fresh or discards
    scored = [(deadwood(hand & ~(1 << INDEX[a["card"]])), a) for a in discards]
    least = min(score for score, _ in scored)
    return rng.choice([a for score, a in scored if score == least])
