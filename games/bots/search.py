"""Levels "hard" and "expert": information-set search over sampled worlds.

A world is one way the hidden cards could lie, consistent with the view: the
opponent's unknown cards and the order of the stock. Worlds are drawn with the
opponent's cards weighted by what it did (``games.bots.knowledge``), then
reweighted as a whole (an opponent that could have knocked usually would have;
one that passed a card rarely held two cards melding with it) and resampled.

Candidate actions come from the medium evaluation (its best few discards, the
best knock, taking or leaving the discard); each is then played out in every
world with the fast playout policy (``games.bots.playout``), the same worlds for
every candidate so that their differences are not drowned in luck. A knock is
valued exactly in each world (showdown with lay-offs). The candidate with the
best mean hand value wins. The budget is a number of simulated turns, so the
choice depends only on the view and the random generator, never on the clock.
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.cards import INDEX, TEXT, deadwood, indices, makes_meld
from games.bots.heuristics import Evaluator
from games.bots.knowledge import Knowledge, read_view
from games.bots.medium import find, knock_card
from games.bots.playout import DISCARD, DRAW, OFFER, SimRules, knock_value, playout

Action = dict[str, Any]

BUDGETS = {"hard": 2500, "expert": 10000}
"""Simulated turns per decision."""
CANDIDATES = {"hard": 3, "expert": 5}
"""How many of medium's best discards are searched."""
WORLD_BATCH = 4
"""Worlds are sampled (and resampled by likelihood) this many at a time."""
MIN_WORLDS = WORLD_BATCH
MAX_WORLDS = 400


def _sim_rules(k: Knowledge) -> SimRules:
    return SimRules(
        knock_limit=k.knock_limit,
        straight=k.straight,
        big_gin_allowed=k.big_gin_allowed,
        gin_bonus=k.gin_bonus,
        big_gin_bonus=k.big_gin_bonus,
        undercut_bonus=k.undercut_bonus,
        line_bonus=k.line_bonus,
    )


def _world_weight(k: Knowledge, opp_hand: int) -> float:
    """Relative likelihood of an opponent hand given its visible behaviour."""
    weight = 1.0
    if k.opp_turns > 0 and k.opp_count == 10:
        dw = deadwood(opp_hand)
        if dw == 0 or (not k.straight and dw <= k.knock_limit):
            weight *= 0.2
    for card in k.opp_passed[-3:]:
        if not opp_hand >> card & 1 and makes_meld(opp_hand, card):
            weight *= 0.3
    return weight


def sample_worlds(k: Knowledge, rng: random.Random, count: int) -> list[tuple[int, list[int]]]:
    """``count`` worlds as (opponent's hand, stock with the next card last)."""
    unseen = indices(k.unseen)
    need = max(0, min(k.opp_unknown, len(unseen)))
    pool = []
    for _ in range(count * 3):
        keys = sorted(((rng.random() ** (1.0 / k.weights[c]), c) for c in unseen), reverse=True)
        hidden = [c for _, c in keys[:need]]
        stock = [c for _, c in keys[need:]]
        rng.shuffle(stock)
        opp_hand = k.opp_known | sum(1 << c for c in hidden)
        pool.append((_world_weight(k, opp_hand), opp_hand, stock))
    total = sum(w for w, _, _ in pool)
    # Systematic resampling: deterministic given the generator, low variance.
    step = total / count
    point = rng.random() * step
    worlds, acc = [], 0.0
    for weight, opp_hand, stock in pool:
        acc += weight
        while point < acc and len(worlds) < count:
            worlds.append((opp_hand, stock))
            point += step
    while len(worlds) < count:
        worlds.append(pool[len(worlds)][1:])
    return worlds


class Search:
    """Evaluates candidate first moves over shared sampled worlds."""

    def __init__(self, k: Knowledge, rng: random.Random, budget: int) -> None:
        self.k = k
        self.rng = rng
        self.budget = budget
        self.rules = _sim_rules(k)
        self.me = k.seat
        self.opp = 1 - k.seat

    def evaluate(self, moves: list[tuple]) -> list[float]:
        """Mean value of each move (a tuple understood by ``_play``) over shared worlds:
        batches of worlds are drawn until the budget of simulated turns is spent."""
        totals = [0.0] * len(moves)
        played = 0
        used = 0
        while played < MIN_WORLDS or (used < self.budget and played < MAX_WORLDS):
            for opp_hand, stock in sample_worlds(self.k, self.rng, WORLD_BATCH):
                for index, move in enumerate(moves):
                    value, turns = self._play(move, opp_hand, stock)
                    totals[index] += value
                    used += turns + 1
                played += 1
        return [t / played for t in totals]

    def _play(self, move: tuple, opp_hand: int, stock: list[int]) -> tuple[int, int]:
        k = self.k
        me, opp = self.me, self.opp
        hands = [0, 0]
        hands[opp] = opp_hand
        stock = stock.copy()
        kind = move[0]
        if kind == "knock":
            hand10 = k.hand & ~(1 << move[1])
            return knock_value(self.rules, hand10, opp_hand), 0
        if kind == "discard":
            if k.stock_count <= 2:
                return 0, 0
            hands[me] = k.hand & ~(1 << move[1])
            return playout(self.rules, hands, stock, move[1], opp, DRAW, me)
        if kind == "take":
            top = k.top
            hands[me] = k.hand | (1 << top)
            return playout(self.rules, hands, stock, top, me, DISCARD, me, forbidden=1 << top)
        if kind == "stock":
            hands[me] = k.hand | (1 << stock.pop())
            return playout(self.rules, hands, stock, -1, me, DISCARD, me)
        # "pass" on the first turn: the dealer is offered next, or the non-dealer draws.
        hands[me] = k.hand
        if move[1]:
            return playout(self.rules, hands, stock, k.top, opp, OFFER, me, offers=1)
        return playout(self.rules, hands, stock, k.top, opp, DRAW, me)


def _first_pass(k: Knowledge) -> bool:
    """Whether nobody has passed the upcard yet (we are the non-dealer's first offer)."""
    return k.seat != k.dealer


def choose(
    view: dict[str, Any],
    legal: list[Action],
    rng: random.Random,
    *,
    level: str,
    budget: int | None = None,
) -> Action:
    """The search player's action for this view."""
    k = read_view(view)
    ev = Evaluator(k)
    search = Search(k, rng, BUDGETS[level] if budget is None else budget)
    if k.phase in ("first_turn", "draw"):
        return _choose_draw(k, search, legal)
    big_gin = find(legal, type="big_gin")
    if big_gin is not None:
        return big_gin
    knock = knock_card(k.hand, legal)
    if knock is not None and knock[0] == 0:
        return knock[1]
    forbidden = 1 << k.taken if k.taken is not None else 0
    ranked = ev.discard_scores(k.hand, forbidden)
    chosen = [card for _, card in ranked[: CANDIDATES[level]]]
    moves: list[tuple] = [("discard", card) for card in chosen]
    if knock is not None:
        moves.append(("knock", INDEX[knock[1]["card"]]))
    if len(moves) == 1:
        best = moves[0]
    else:
        values = search.evaluate(moves)
        best = max(zip(values, range(len(moves)), strict=True), key=lambda vi: (vi[0], -vi[1]))
        best = moves[best[1]]
    if best[0] == "knock":
        assert knock is not None
        return knock[1]
    action = find(legal, type="discard", card=TEXT[best[1]])
    assert action is not None
    return action


def _choose_draw(k: Knowledge, search: Search, legal: list[Action]) -> Action:
    take = find(legal, type="draw", source="discard")
    if k.phase == "first_turn":
        other = find(legal, type="pass")
        other_move: tuple = ("pass", _first_pass(k))
    else:
        other = find(legal, type="draw", source="stock")
        other_move = ("stock",)
    if take is None or other is None or k.top is None:
        return take or other or legal[0]
    if k.top in k.my_discards:
        return other  # never take back our own discard: bots could otherwise cycle
    values = search.evaluate([("take",), other_move])
    return take if values[0] > values[1] else other
