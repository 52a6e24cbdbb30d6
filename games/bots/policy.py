"""A parametrised heuristic player: medium's design with tunable constants.

``Params()`` plays exactly as medium does (tests/bots/test_bot_policy.py checks
it); other values of its fields are the knobs that the self-play tuning of the
search levels' default move turns (``bench/bottune.py``; the values chosen and
their measurement are in docs/benchmarks.md, "The ladder (issue 16)").
Medium itself stays as it is: the browser's offline medium must choose exactly
as ``games.bots.medium`` does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.bots.cards import INDEX, TEXT
from games.bots.heuristics import Evaluator, Weights
from games.bots.knowledge import Knowledge, read_view
from games.bots.medium import find, knock_card
from games.bots.playout import knock_value
from games.bots.worlds import sample_worlds, sim_rules

Action = dict[str, Any]


@dataclass(frozen=True)
class Params:
    """The constants of one heuristic player (defaults: medium's)."""

    weights: Weights = field(default_factory=Weights)
    take_margin: float = 0.0
    """How much better than a stock draw taking the discard must look."""
    full_turns: int = 2
    """Opponent turns during which the full knock limit is used."""
    shrink: float = 1.5
    """Knock allowance lost per opponent turn after ``full_turns``."""
    floor: int = 2
    """The knock allowance never shrinks below this (nor above the limit)."""
    risk_cap: float = 1.0
    """Decline a scheduled knock whose estimated undercut probability is above this."""
    early_risk: float = -1.0
    """Knock beyond the schedule when the estimated undercut probability is at most this."""
    worlds: int = 48
    """Sampled opponent hands behind the undercut estimate."""

    def allowance_after(self, knock_limit: int, opp_turns: int) -> int:
        """The most deadwood this player knocks with after ``opp_turns`` opponent turns."""
        if opp_turns <= self.full_turns:
            return knock_limit
        late = opp_turns - self.full_turns
        # medium's integer form for shrink 1.5: limit - (3 * late + 1) // 2
        drop = int(self.shrink * late + 0.5 + 1e-9)
        return max(min(knock_limit, self.floor), knock_limit - drop)


MEDIUM = Params()


def choose_draw(k: Knowledge, ev: Evaluator, legal: list[Action], p: Params) -> Action:
    """Take the top of the discard pile or draw from the stock (pass on the first turn)."""
    take = find(legal, type="draw", source="discard")
    other = find(legal, type="draw", source="stock") or find(legal, type="pass")
    if take is None or other is None or k.top is None:
        return take or other or legal[0]
    if k.top in k.my_discards:
        return other
    take_score, _ = ev.take_value(k.hand, k.top)
    if take_score < ev.stock_value(k.hand) - p.take_margin:
        return take
    return other


def undercut_risk(k: Knowledge, hand10: int, rng: random.Random, count: int) -> float:
    """Probability that a knock with ``hand10`` is undercut (or loses to a tie), over
    ``count`` opponent hands sampled from the card model and weighted by behaviour."""
    rules = sim_rules(k)
    lost = total = 0.0
    for weight, opp_hand, _ in sample_worlds(k, rng, count):
        total += weight
        if knock_value(rules, hand10, opp_hand) < 0:
            lost += weight
    return lost / total if total else 0.0


def should_knock(k: Knowledge, knock: tuple[int, Action], rng: random.Random, p: Params) -> bool:
    """Whether to take the legal knock ``knock`` (deadwood, action) now."""
    dw, action = knock
    if dw == 0:
        return True
    scheduled = dw <= p.allowance_after(k.knock_limit, k.opp_turns)
    if scheduled and p.risk_cap >= 1.0:
        return True
    if not scheduled and p.early_risk < 0.0:
        return False
    risk = undercut_risk(k, k.hand & ~(1 << INDEX[action["card"]]), rng, p.worlds)
    return risk <= (p.risk_cap if scheduled else p.early_risk)


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
    if knock is not None and should_knock(k, knock, rng, p):
        return knock[1]
    forbidden = 1 << k.taken if k.taken is not None else 0
    for _, card in ev.discard_scores(k.hand, forbidden):
        action = find(legal, type="discard", card=TEXT[card])
        if action is not None:
            return action
    return rng.choice([a for a in legal if a["type"] == "discard"])
