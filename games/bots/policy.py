"""The heuristic player (medium's design, ``games.bots.medium``) with tunable constants.

``MEDIUM`` (= ``Params()``) is medium: its constants must stay as they are, since the
browser's offline medium chooses exactly as it does (tests/offline/test_crosscheck.py).
Other values of its fields are the knobs that the self-play tuning of the search
levels' default move turns (``bench/bottune.py``; the values chosen and their
measurement are in docs/benchmarks-log.md, "The ladder (issue 16)").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.bots.cards import INDEX, TEXT, VALUE, deadwood
from games.bots.heuristics import Evaluator, Weights
from games.bots.knowledge import Knowledge, read_view

Action = dict[str, Any]


def find(legal: list[Action], **fields: Any) -> Action | None:
    """The legal action with these fields, or None."""
    for action in legal:
        if all(action.get(k) == v for k, v in fields.items()):
            return action
    return None


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


@dataclass(frozen=True)
class Params:
    """The constants of one heuristic player (defaults: medium's, tuned in seat-swapped
    matches against easy)."""

    weights: Weights = field(default_factory=Weights)
    take_margin: float = 0.0
    """How much better than a stock draw taking the discard must look."""
    full_turns: int = 2
    """Opponent turns during which the full knock limit is used."""
    shrink: float = 1.5
    """Knock allowance lost per opponent turn after ``full_turns``."""
    floor: int = 2
    """The knock allowance never shrinks below this (nor above the limit)."""

    def allowance_after(self, knock_limit: int, opp_turns: int) -> int:
        """The most deadwood this player knocks with after ``opp_turns`` opponent turns."""
        if opp_turns <= self.full_turns:
            return knock_limit
        late = opp_turns - self.full_turns
        # medium's integer form for shrink 1.5: limit - (3 * late + 1) // 2
        drop = int(self.shrink * late + 0.5 + 1e-9)
        return max(min(knock_limit, self.floor), knock_limit - drop)


MEDIUM = Params()
TUNED = Params(weights=Weights(gin=14.0), full_turns=3, shrink=2.0, floor=0)
"""Tuned by self-play against medium on duplicate hands (``bench/bottune.py``): the
full knock limit for one opponent turn longer, then 2 points less per turn down to
gin only, and a larger reward for a gin hand."""


def choose_draw(k: Knowledge, ev: Evaluator, legal: list[Action], p: Params) -> Action:
    """Take the top of the discard pile or draw from the stock (pass on the first turn)."""
    take = find(legal, type="draw", source="discard")
    other = find(legal, type="draw", source="stock") or find(legal, type="pass")
    if take is None or other is None or k.top is None:
        return take or other or legal[0]
    if k.top in k.my_discards:
        return other  # never take back our own discard: bots could otherwise cycle
    take_score, _ = ev.take_value(k.hand, k.top)
    if take_score < ev.stock_value(k.hand) - p.take_margin:
        return take
    return other


def should_knock(k: Knowledge, knock: tuple[int, Action], p: Params) -> bool:
    """Whether to take the legal knock ``knock`` (deadwood, action) now."""
    return knock[0] == 0 or knock[0] <= p.allowance_after(k.knock_limit, k.opp_turns)


def choose(
    view: dict[str, Any], legal: list[Action], rng: random.Random, p: Params = MEDIUM
) -> Action:
    """This heuristic player's action for the view."""
    k = read_view(view)
    ev = Evaluator(k, p.weights)
    if k.phase in ("first_turn", "draw"):
        return choose_draw(k, ev, legal, p)
    big_gin = find(legal, type="big_gin")
    if big_gin is not None:
        return big_gin
    knock = knock_card(k.hand, legal)
    if knock is not None and should_knock(k, knock, p):
        return knock[1]
    forbidden = 1 << k.taken if k.taken is not None else 0
    for _, card in ev.discard_scores(k.hand, forbidden):
        action = find(legal, type="discard", card=TEXT[card])
        if action is not None:
            return action
    return rng.choice([a for a in legal if a["type"] == "discard"])
