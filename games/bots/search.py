"""Levels "hard" and "expert": information-set search over sampled worlds.

A world is one way the hidden cards could lie, consistent with the view
(``games.bots.worlds`` samples them from the card model and weights them by the
opponent's behaviour): averages are weighted by it, or (``Config.oversample``) the
worlds played are drawn from more by their weights. Outcomes are hand points, or
(``Config.match_aware``, with the match score) the chance of winning the match that
they leave (``games.bots.equity``).

Owns the search levels' decisions and their settings (``Config``, one per level
in ``LEVELS``). The default move is that of a tuned heuristic player
(``games.bots.policy``, ``Config.params``): its draws are played as they are (a
search of the draw never changed medium's choice in 65 draws, yet took half of the
time; ``Config.draw_window`` searches the close ones, off for both levels). After the draw the
alternatives (the default player's next best discards, not knocking when it
knocks) are played out in the same worlds as the default with the fast playout
policy (``games.bots.playout``), our own future knocks following the default
player's schedule; a knock is valued exactly in each world (showdown with
lay-offs). An alternative replaces the default only if it is better on average by
more than MARGIN (``Config.margin``) standard errors: a hand's value varies far more from world to
world than between two sensible moves, and a search that followed every small
noisy difference would play worse than the heuristics. The budget is a number of
simulated turns, so the choice depends only on the view and the random
generator, never on the clock. ``Search.play`` also plays the draws out, for the
post-hand analysis (``games.bots.analysis``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from games.bots import policy
from games.bots.cards import INDEX, TEXT
from games.bots.equity import Equity
from games.bots.heuristics import Evaluator
from games.bots.knowledge import Knowledge, read_view
from games.bots.playout import DISCARD, DRAW, OFFER, knock_value, playout
from games.bots.policy import find, knock_card
from games.bots.worlds import LINEAR_PULL, SQUARE_PULL, Pull, sample_worlds, sim_rules

Action = dict[str, Any]
Move = tuple[str, int]



@dataclass(frozen=True)
class Config:
    """How one search level decides."""

    budget: int
    """Simulated turns per decision."""
    alternatives: int
    """How many of the default player's next best discards are searched besides its choice."""
    params: policy.Params = policy.TUNED
    """The heuristic player (``games.bots.policy``) whose move is the default."""
    margin: float = 2.0
    """An alternative must beat the default by this many standard errors (MARGIN in
    the module's description)."""
    max_worlds: int = 600
    """The search stops after this many worlds even with budget left."""
    draw_window: float = 0.0
    """The draw is searched (taking the discard against the stock or a pass) when the
    default player's two scores for it differ by less than this; 0: never."""
    oversample: int = 1
    """Worlds drawn per world played, the played ones chosen by their weights
    (``games.bots.worlds.sample_worlds``); 1: every world drawn is played, weighted."""
    pull: Pull = LINEAR_PULL
    """The deadwood pull of the sampled worlds (``games.bots.worlds.Pull``)."""
    match_aware: bool = False
    """Outcomes are valued by the chance of winning the match (``games.bots.equity``)
    rather than by points, when the caller gives the match score; near the end of a
    match (ENDGAME_NEED) the search may also knock where the default player waits."""


ENDGAME_NEED = 25
"""A match-aware search also tries a knock the default player would not make when
either player needs at most this many points: a knock won then usually ends the match
(or a hand lost does), so the playouts' bias against waiting matters little."""


LEVELS = {
    "hard": Config(budget=6000, alternatives=2),
    "expert": Config(
        budget=40000, alternatives=4, margin=1.5, oversample=4, match_aware=True,
        pull=SQUARE_PULL,
    ),
}
"""Expert plays the same default move as hard and searches more of it: more simulated
turns, one more discard, worlds drawn four for one and pulled as hard's hands play
out, and a lower margin; and it plays for the match, not for the hand's points
(docs/benchmarks-log.md, "The ladder (issue 16)"). It keeps the default cap of
``max_worlds``: a higher cap took its decisions past the one-second target (the
decision times: docs/benchmarks.md, "Computer opponents")."""
BUDGETS = {level: config.budget for level, config in LEVELS.items()}
ALTERNATIVES = {level: config.alternatives for level, config in LEVELS.items()}
PARAMS = {level: config.params for level, config in LEVELS.items()}
WORLD_BATCH = 4
"""Worlds are sampled this many at a time (every move is played in each)."""
MIN_WORLDS = WORLD_BATCH
class Search:
    """Plays candidate first moves out over shared sampled worlds."""

    def __init__(
        self,
        k: Knowledge,
        rng: random.Random,
        config: Config,
        worth: Callable[[int], float] | None = None,
    ) -> None:
        self.k = k
        self.rng = rng
        self.config = config
        self.worth = worth
        """Turns a playout's points into the value averaged (None: the points)."""
        self.rules = sim_rules(k)
        self.me = k.seat
        self.opp = 1 - k.seat
        self.my_limits = tuple(
            config.params.allowance_after(k.knock_limit, k.opp_turns + 1 + turn)
            for turn in range(16)
        )

    def pick(self, moves: list[Move]) -> Move:
        """``moves[0]`` (the default) unless another is better by more than MARGIN
        standard errors of the difference, measured over the same weighted worlds."""
        sums = [0.0] * len(moves)
        squares = [0.0] * len(moves)
        total = total_sq = 0.0
        played = used = 0
        config = self.config
        while played < MIN_WORLDS or (used < config.budget and played < config.max_worlds):
            worlds = sample_worlds(self.k, self.rng, WORLD_BATCH, config.pull, config.oversample)
            for weight, opp_hand, stock in worlds:
                base = 0.0
                for index, move in enumerate(moves):
                    points, turns = self.play(move, opp_hand, stock)
                    used += turns + 1
                    value = points if self.worth is None else self.worth(points)
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
            if mean > config.margin * error and mean > best_score:
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
    config: Config | None = None,
    scores: tuple[int, int] | None = None,
) -> Action:
    """The search player's action for this view (``config`` replaces the level's).
    ``scores``: the match's points of seats 0 and 1 before this hand, if known."""
    config = config or LEVELS[level]
    if budget is not None:
        config = replace(config, budget=budget)
    k = read_view(view)
    params = config.params
    ev = Evaluator(k, params.weights)
    if k.phase in ("first_turn", "draw"):
        return choose_draw(k, ev, legal, rng, config)
    big_gin = find(legal, type="big_gin")
    if big_gin is not None:
        return big_gin
    knock = knock_card(k.hand, legal)
    if knock is not None and knock[0] == 0:
        return knock[1]
    forbidden = 1 << k.taken if k.taken is not None else 0
    ranked = [("discard", card) for _, card in ev.discard_scores(k.hand, forbidden)]
    moves: list[Move] = ranked[: 1 + config.alternatives]
    equity = match_equity(view, k, scores) if config.match_aware else None
    if knock is not None and policy.should_knock(k, knock, params):
        # The search may decline the default player's knock, never knock where it
        # would wait: a knock is valued exactly, but play after it is valued by the
        # playout policy, weaker than ours, so the playouts undervalue waiting. Against
        # the knock a decline needs to win despite that bias; a knock where the
        # default waits would win because of it (hard knocked at almost every chance
        # and lost points per hand: docs/benchmarks-log.md, "Computer opponents").
        moves.insert(0, ("knock", INDEX[knock[1]["card"]]))
    elif knock is not None and equity is not None and equity.endgame(ENDGAME_NEED):
        moves.append(("knock", INDEX[knock[1]["card"]]))
    search = Search(k, rng, config, equity)
    best = moves[0] if len(moves) == 1 else search.pick(moves)
    if best[0] == "knock":
        assert knock is not None
        return knock[1]
    action = find(legal, type="discard", card=TEXT[best[1]])
    assert action is not None
    return action


def match_equity(
    view: dict[str, Any], k: Knowledge, scores: tuple[int, int] | None
) -> Equity | None:
    """What the hand's outcomes are worth to this seat's match, or None without a score."""
    if scores is None:
        return None
    target = int(view["rules"]["target_score"])
    return Equity(target - scores[k.seat], target - scores[1 - k.seat], target, k.line_bonus)


def choose_draw(
    k: Knowledge, ev: Evaluator, legal: list[Action], rng: random.Random, config: Config
) -> Action:
    """The default player's draw, or the other draw if the search finds it better."""
    default = policy.choose_draw(k, ev, legal, config.params)
    take = find(legal, type="draw", source="discard")
    other = find(legal, type="draw", source="stock") or find(legal, type="pass")
    if (
        config.draw_window <= 0
        or take is None
        or other is None
        or k.top is None
        or k.top in k.my_discards
        or k.stock_count <= 2
    ):
        return default
    gap = ev.take_value(k.hand, k.top)[0] - ev.stock_value(k.hand)
    if abs(gap) >= config.draw_window:
        return default
    kind = "pass" if other["type"] == "pass" else "stock"
    moves: list[Move] = [("take", k.top), (kind, k.top)]
    if default is other:
        moves.reverse()
    search = Search(k, rng, config)
    best = search.pick(moves)
    return take if best[0] == "take" else other
