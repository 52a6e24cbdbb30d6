"""Levels "hard" and "expert": information-set search over sampled worlds.

A world is one way the hidden cards could lie, consistent with the view: the
opponent's unknown cards and the order of the stock. Worlds are drawn with the
opponent's cards weighted by what it did (``games.bots.knowledge``), then
reweighted as a whole (an opponent that could have knocked usually would have;
one that passed a card rarely held two cards melding with it; one that just
discarded a card rarely kept higher loose cards): averages are weighted by it.

The medium player's choice is the default move. The alternatives (medium's next
best discards, not knocking when medium knocks, taking the discard or not) are
played out in the same worlds as the default with the fast playout policy
(``games.bots.playout``),
our own future knocks following medium's schedule; a knock is valued exactly in
each world (showdown with lay-offs). An alternative replaces the default only if
it is better on average by more than its standard error: a hand's value varies
far more from world to world than between two sensible moves, and a search that
followed every small noisy difference would play worse than the heuristics. The
budget is a number of simulated turns, so the choice depends only on the view and
the random generator, never on the clock.
"""

from __future__ import annotations

import math
import random
from typing import Any

from games.bots.cards import INDEX, TEXT, VALUE, arrangement, indices, makes_meld
from games.bots.heuristics import Evaluator
from games.bots.knowledge import Knowledge, read_view
from games.bots.medium import allowance_after, choose_draw, find, knock_allowance, knock_card
from games.bots.playout import DISCARD, DRAW, OFFER, SimRules, knock_value, playout

Action = dict[str, Any]
Move = tuple[str, int]

BUDGETS = {"hard": 6000, "expert": 24000}
"""Simulated turns per decision."""
ALTERNATIVES = {"hard": 2, "expert": 3}
"""How many of medium's next best discards are searched besides its choice."""
MARGIN = 2.0
"""An alternative must beat the default by this many standard errors."""
WORLD_BATCH = 4
"""Worlds are sampled this many at a time (every move is played in each)."""
MIN_WORLDS = WORLD_BATCH
MAX_WORLDS = 600
KNOCK_SKIPPED = 0.2
"""Likelihood factor of a world where the opponent could have knocked but did not."""
KEPT_HIGHER = 0.6
"""... per deadwood card it kept that is worth more than the card it just discarded."""
PASSED_MELD = 0.3
"""... per recent pass of a card that would have made a meld in its hand."""


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
        dw, melds = arrangement(opp_hand)
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
    k: Knowledge, rng: random.Random, count: int
) -> list[tuple[float, int, list[int]]]:
    """``count`` worlds as (likelihood weight, opponent's hand, stock with the next
    card last). The opponent's unknown cards are drawn by their card weights (the
    Efraimidis-Spirakis keys), the rest of the unseen cards form the stock in a
    random order, and the whole world gets its behavioural weight."""
    unseen = indices(k.unseen)
    need = max(0, min(k.opp_unknown, len(unseen)))
    worlds = []
    for _ in range(count):
        keys = sorted(((rng.random() ** (1.0 / k.weights[c]), c) for c in unseen), reverse=True)
        hidden = [c for _, c in keys[:need]]
        stock = [c for _, c in keys[need:]]
        rng.shuffle(stock)
        opp_hand = k.opp_known | sum(1 << c for c in hidden)
        worlds.append((_world_weight(k, opp_hand), opp_hand, stock))
    return worlds


class Search:
    """Plays candidate first moves out over shared sampled worlds."""

    def __init__(self, k: Knowledge, rng: random.Random, budget: int) -> None:
        self.k = k
        self.rng = rng
        self.budget = budget
        self.rules = _sim_rules(k)
        self.me = k.seat
        self.opp = 1 - k.seat
        self.my_limits = tuple(
            allowance_after(k.knock_limit, k.opp_turns + 1 + turn) for turn in range(16)
        )

    def pick(self, moves: list[Move]) -> Move:
        """``moves[0]`` (the default) unless another is better by more than MARGIN
        standard errors of the difference, measured over the same weighted worlds."""
        sums = [0.0] * len(moves)
        squares = [0.0] * len(moves)
        total = total_sq = 0.0
        played = used = 0
        while played < MIN_WORLDS or (used < self.budget and played < MAX_WORLDS):
            for weight, opp_hand, stock in sample_worlds(self.k, self.rng, WORLD_BATCH):
                base = 0
                for index, move in enumerate(moves):
                    value, turns = self.play(move, opp_hand, stock)
                    used += turns + 1
                    if index == 0:
                        base = value
                    diff = value - base
                    sums[index] += weight * diff
                    squares[index] += weight * diff * diff
                total += weight
                total_sq += weight * weight
                played += 1
        effective = total * total / total_sq if total_sq else 0.0
        best, best_score = moves[0], 0.0
        for index in range(1, len(moves)):
            mean = sums[index] / total
            spread = max(0.0, squares[index] / total - mean * mean)
            error = math.sqrt(spread / max(1.0, effective - 1.0))
            if mean > MARGIN * error and mean > best_score:
                best, best_score = moves[index], mean
        return best

    def play(self, move: Move, opp_hand: int, stock: list[int]) -> tuple[int, int]:
        """(value for us, turns simulated) of ``move`` played out in one world."""
        k = self.k
        me, opp = self.me, self.opp
        hands = [0, 0]
        hands[opp] = opp_hand
        stock = stock.copy()
        kind, card = move
        if kind == "knock":
            return knock_value(self.rules, k.hand & ~(1 << card), opp_hand), 0
        if kind == "discard":
            if k.stock_count <= 2:
                return 0, 0
            hands[me] = k.hand & ~(1 << card)
            return playout(self.rules, hands, stock, card, opp, DRAW, me, my_limits=self.my_limits)
        if kind == "take":
            hands[me] = k.hand | (1 << card)
            return playout(
                self.rules,
                hands,
                stock,
                card,
                me,
                DISCARD,
                me,
                forbidden=1 << card,
                my_limits=self.my_limits,
            )
        if kind == "stock":
            hands[me] = k.hand | (1 << stock.pop())
            return playout(self.rules, hands, stock, -1, me, DISCARD, me, my_limits=self.my_limits)
        # "pass" on the first turn: the dealer is offered the upcard next, or (after
        # the dealer passed too) the non-dealer draws.
        hands[me] = k.hand
        if k.seat != k.dealer:
            return playout(
                self.rules,
                hands,
                stock,
                card,
                opp,
                OFFER,
                me,
                offers=1,
                my_limits=self.my_limits,
            )
        return playout(self.rules, hands, stock, card, opp, DRAW, me, my_limits=self.my_limits)


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
        return _choose_draw(k, ev, search, legal)
    big_gin = find(legal, type="big_gin")
    if big_gin is not None:
        return big_gin
    knock = knock_card(k.hand, legal)
    if knock is not None and knock[0] == 0:
        return knock[1]
    forbidden = 1 << k.taken if k.taken is not None else 0
    ranked = [("discard", card) for _, card in ev.discard_scores(k.hand, forbidden)]
    moves: list[Move] = ranked[: 1 + ALTERNATIVES[level]]
    if knock is not None:
        knock_move = ("knock", INDEX[knock[1]["card"]])
        # The search may decline medium's knock, never knock earlier than medium's
        # schedule: a knock is valued exactly, but play after it is valued by the
        # playout policy, weaker than ours, so the playouts undervalue waiting. Against
        # the knock a decline needs to win despite that bias; a knock before the
        # schedule would win because of it (hard knocked at almost every chance and
        # lost points per hand: docs/benchmarks.md, "Computer opponents").
        if knock[0] <= knock_allowance(k):
            moves.insert(0, knock_move)
    best = moves[0] if len(moves) == 1 else search.pick(moves)
    if best[0] == "knock":
        assert knock is not None
        return knock[1]
    action = find(legal, type="discard", card=TEXT[best[1]])
    assert action is not None
    return action


def _choose_draw(k: Knowledge, ev: Evaluator, search: Search, legal: list[Action]) -> Action:
    default = choose_draw(k, ev, legal)
    if k.top is None or len(legal) < 2 or k.top in k.my_discards:
        return default
    take = find(legal, type="draw", source="discard")
    assert take is not None  # the top of the discard pile may be taken: len(legal) >= 2
    other = next(a for a in legal if a is not take)
    other_move: Move = ("pass" if other["type"] == "pass" else "stock", k.top)
    take_move: Move = ("take", k.top)
    if default is take:
        return take if search.pick([take_move, other_move]) == take_move else other
    return take if search.pick([other_move, take_move]) == take_move else other
