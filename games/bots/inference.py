"""A learned card model: how likely the opponent is to hold each unseen card.

``games.bots.knowledge`` weighs the unseen cards with fixed factors per kind of
evidence (a pick, a pass, a discard) and per relation to the card (same rank, one
or two ranks apart in the suit). This model weighs them with a logistic model of
more evidence, its coefficients fitted by self-play (``bench/botinference.py``): the
same evidence split by how recent it is, how many of the card's meld partners are
dead (in the pile or our hand, so it can no longer meld with them), how many it has
among the opponent's known cards, and its point value as the hand goes on (players
throw high loose cards). Its weights replace the fixed ones where a search level's
``Config.card_model`` asks for it (expert); hard and medium keep the fixed ones.
"""

from __future__ import annotations

import math
from typing import Any

from games.bots.cards import INDEX, NEAR1, NEAR2, SAME_RANK, VALUE, indices
from games.bots.knowledge import Knowledge

RECENT = 2
"""Evidence from the opponent's last this-many turns counts apart from older evidence."""

FEATURES: tuple[str, ...] = (
    *(
        f"{kind}_{age}_{relation}"
        for kind in ("picked", "passed", "discarded")
        for age in ("recent", "old")
        for relation in ("same", "near1", "near2")
    ),
    "known_same", "known_near1", "known_near2",
    "dead_same", "dead_near1", "dead_near2",
    "value_turns", "value", "turns",
)


def card_features(k: Knowledge, events: list[tuple[str, int, int]]) -> dict[int, list[float]]:
    """Per unseen card: its feature values (in FEATURES' order). ``events``: the
    opponent's (kind, card, opponent turn) in order, kind "picked", "passed" or
    "discarded" (``opponent_events``)."""
    turns = k.opp_turns
    relations = (SAME_RANK, NEAR1, NEAR2)
    # Per evidence slot (kind, age, relation): the masks of cards its events touch.
    slot_index = {"picked": 0, "passed": 6, "discarded": 12}
    slot_masks: list[list[int]] = [[] for _ in range(18)]
    for kind, card, turn in events:
        base = slot_index[kind] + (0 if turns - turn < RECENT else 3)
        for r, table in enumerate(relations):
            slot_masks[base + r].append(table[card])
    known = indices(k.opp_known)
    pile_mask = sum(1 << i for i in k.pile)
    dead = k.hand | pile_mask
    out: dict[int, list[float]] = {}
    for card in indices(k.unseen):
        bit = 1 << card
        row = [float(sum(1 for m in masks if m & bit)) for masks in slot_masks]
        for table in relations:
            row.append(float(sum(1 for other in known if table[other] & bit)))
        for table in relations:
            row.append(float((table[card] & dead).bit_count()))
        value = VALUE[card] / 10.0
        row.extend((value * turns / 10.0, value, turns / 10.0))
        out[card] = row
    return out


def opponent_events(view: dict[str, Any]) -> list[tuple[str, int, int]]:
    """The opponent's picks, passes and discards from the view's public history, each
    with the opponent turn it happened in (counted as ``Knowledge.opp_turns`` is)."""
    opp = 1 - view["seat"]
    upcard = view.get("upcard")
    pile: list[int] = [INDEX[upcard]] if upcard else []
    events: list[tuple[str, int, int]] = []
    turn = 0
    for event in view.get("history") or []:
        kind = event.get("type")
        theirs = event.get("seat") == opp
        if kind == "pass" or (kind == "draw" and event.get("source") == "stock"):
            if theirs:
                turn += kind == "draw"
                if pile:
                    events.append(("passed", pile[-1], turn))
        elif kind == "draw":
            card = INDEX[event["card"]]
            if pile and pile[-1] == card:
                pile.pop()
            if theirs:
                turn += 1
                events.append(("picked", card, turn))
        elif kind == "discard":
            card = INDEX[event["card"]]
            pile.append(card)
            if theirs:
                events.append(("discarded", card, turn))
    return events


COEFFICIENTS: tuple[float, ...] = (0.0,) * len(FEATURES)
"""Fitted by ``python -m bench.botinference`` (docs/benchmarks-log.md)."""


def learned_weights(
    k: Knowledge, view: dict[str, Any], coefficients: tuple[float, ...] = COEFFICIENTS
) -> list[float]:
    """Card weights (as ``Knowledge.weights``) from the learned model."""
    weights = [0.0] * 52
    for card, row in card_features(k, opponent_events(view)).items():
        z = sum(c * x for c, x in zip(coefficients, row, strict=True))
        weights[card] = math.exp(max(-20.0, min(20.0, z)))
    return weights
