"""Sampled worlds: ways the hidden cards could lie, drawn from one seat's knowledge.

A world is the opponent's unknown cards and the order of the stock, consistent
with the view. The opponent's cards are drawn by their card weights (the card
model of ``games.bots.knowledge``), and each world is then weighted as a whole by
how well it explains what the opponent did (an opponent that could have knocked
usually would have; one that passed a card rarely held two cards melding with
it; one that just discarded a card rarely kept higher loose cards). Used by the
search (``games.bots.search``), the knock estimate of the tuned heuristic player
(``games.bots.policy``) and the post-hand analysis.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from games.bots.cards import VALUE, arrangement, indices, makes_meld
from games.bots.knowledge import Knowledge
from games.bots.playout import SimRules

KNOCK_SKIPPED = 0.2
"""Likelihood factor of a world where the opponent could have knocked but did not."""
KEPT_HIGHER = 0.6
"""... per deadwood card it kept that is worth more than the card it just discarded."""
PASSED_MELD = 0.3
"""... per recent pass of a card that would have made a meld in its hand."""
PULL = 0.03
"""The deadwood pull per opponent turn (see ``world_weight``), calibrated on real
hands with ``bench/botcalibrate.py`` (docs/benchmarks-log.md, "The ladder")."""
PULL_CAP = 0.45


@dataclass(frozen=True)
class Pull:
    """The strength of the deadwood pull after ``t`` opponent turns:
    ``min(cap, base + linear * t + square * t * t)``."""

    base: float = 0.0
    linear: float = PULL
    square: float = 0.0
    cap: float = PULL_CAP

    def at(self, turns: int) -> float:
        return min(self.cap, self.base + self.linear * turns + self.square * turns * turns)


LINEAR_PULL = Pull()
"""Calibrated on medium's hands: hard's worlds."""
SQUARE_PULL = Pull(base=0.02, linear=0.0, square=0.004, cap=0.6)
"""Calibrated on hard's hands, where the linear pull's worlds held too little deadwood
at the opponent's fifth turn (20.5 against 23.7) and a quarter too much from its tenth
(8.2 against 6.6; this pull: 22.4 and 6.4): expert's worlds (docs/benchmarks-log.md,
"The ladder")."""


def sim_rules(k: Knowledge) -> SimRules:
    """The rule-set fields the playouts and knock values need, from the view."""
    return SimRules(
        knock_limit=k.knock_limit,
        straight=k.straight,
        big_gin_allowed=k.big_gin_allowed,
        gin_bonus=k.gin_bonus,
        big_gin_bonus=k.big_gin_bonus,
        undercut_bonus=k.undercut_bonus,
        line_bonus=k.line_bonus,
    )


def world_weight(k: Knowledge, opp_hand: int, pull: Pull | None = None) -> float:
    """Relative likelihood of an opponent hand given its visible behaviour.

    With ``pull``, a hand of ``dw`` deadwood is also weighted by ``exp(-p * dw)``,
    ``p`` growing with the opponent's turns (``Pull.at``): a player keeps what melds and throws
    what does not, so its deadwood falls turn by turn, which hands drawn card by
    card from the card weights do not show (after five turns they held 37 points
    of deadwood on average where real hands of medium held 22).
    """
    weight = 1.0
    if k.opp_turns > 0 and k.opp_count == 10:
        dw, melds = arrangement(opp_hand)
        if pull is not None:
            weight *= math.exp(-pull.at(k.opp_turns) * dw)
        if dw == 0 or (not k.straight and dw <= k.knock_limit):
            weight *= KNOCK_SKIPPED
        if k.opp_discards:
            thrown = VALUE[k.opp_discards[-1]]
            loose = opp_hand
            for meld in melds:
                loose &= ~meld
            for card in indices(loose):
                if VALUE[card] > thrown:
                    weight *= KEPT_HIGHER
    for card in k.opp_passed[-3:]:
        if not opp_hand >> card & 1 and makes_meld(opp_hand, card):
            weight *= PASSED_MELD
    return weight


def sample_worlds(
    k: Knowledge, rng: random.Random, count: int, pull: Pull | None = None, oversample: int = 1
) -> list[tuple[float, int, list[int]]]:
    """``count`` worlds as (likelihood weight, opponent's hand, stock with the next
    card last). The opponent's unknown cards are drawn by their card weights (the
    Efraimidis-Spirakis keys), the rest of the unseen cards form the stock in a
    random order, and the whole world gets its behavioural weight (with the deadwood
    pull ``pull``: the search levels use one, the post-hand analysis none).

    With ``oversample`` n > 1, ``n * count`` worlds are drawn and ``count`` of them
    kept, each with the chance of its weight (again by Efraimidis-Spirakis keys), and
    returned with weight 1: the weights are skewed (late in a hand a few worlds
    carry most of the total), so a search that plays every drawn world spends most
    of its playouts on worlds that barely count."""
    if oversample > 1:
        pool = sample_worlds(k, rng, count * oversample, pull)
        keys = sorted(
            ((math.log(1.0 - rng.random()) / weight, index) for index, (weight, _, _) in
             enumerate(pool) if weight > 0),
            reverse=True,
        )
        return [(1.0, pool[i][1], pool[i][2]) for _, i in keys[:count]]
    unseen = indices(k.unseen)
    need = max(0, min(k.opp_unknown, len(unseen)))
    worlds = []
    for _ in range(count):
        keys = sorted(((rng.random() ** (1.0 / k.weights[c]), c) for c in unseen), reverse=True)
        hidden = [c for _, c in keys[:need]]
        stock = [c for _, c in keys[need:]]
        rng.shuffle(stock)
        opp_hand = k.opp_known | sum(1 << c for c in hidden)
        worlds.append((world_weight(k, opp_hand, pull), opp_hand, stock))
    return worlds
