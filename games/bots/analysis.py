"""Post-hand analysis: every decision of a finished hand judged by the expert's
evaluation, from the view its player had at that moment (docs/analysis.md).

A decision is one action: the first-turn pass or take, a draw (stock or discard
pile), and the action after the draw (a discard, a knock, gin or big gin; a
discard on a turn where a knock was legal is one decision whose best may be the
knock). For each decision the candidates are the action played, the medium
player's best discards (``ALTERNATIVES`` of them), the knock leaving the least
deadwood and big gin when legal, or both draw options. Every candidate is played
out with the expert's playout policy in the same sampled worlds (the opponent's
hidden cards and the stock order, drawn from the player's view with the expert's
card inference: ``games.bots.search.sample_worlds``). The loss of the played
action is the weighted mean, over the worlds, of the best candidate's value minus
the played action's value, in points (hand points plus the line bonus a won hand
earns): common worlds make that difference far more precise than either value.

Worlds are sampled in batches until every candidate's difference to the played
action is known to ``Setting.target_error`` points (one standard error), or the
candidate is clearly worse than the played action or than the best candidate, or
``Setting.max_worlds`` is reached. The random generator is seeded per decision,
so the analysis of a hand is reproducible.

>>> from games.engine import HandState, RuleSet
>>> state = HandState.deal(RuleSet.default(), 0, bytes(range(32)))
>>> label(0.4), label(4.0), label(9.0), label(30.0)
(None, 'inaccuracy', 'mistake', 'blunder')
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from games.bots import policy
from games.bots.cards import INDEX, TEXT
from games.bots.heuristics import Evaluator
from games.bots.knowledge import Knowledge, read_view
from games.bots.playout import big_gin_value
from games.bots.policy import knock_card
from games.bots.search import Config, Search
from games.bots.worlds import sample_worlds
from games.engine import HandState

Action = dict[str, Any]
Move = tuple[str, int]

ALTERNATIVES = 3
"""Medium's best discards searched besides the played action."""
WORLD_BATCH = 8
"""Worlds are sampled this many at a time (every live candidate is played in each)."""
CLEAR = 2.0
"""A candidate this many standard errors below the played or the best one is dropped."""

INACCURACY = 3.0
MISTAKE = 6.0
BLUNDER = 12.0
"""Label thresholds: a decision losing at least this many points (docs/analysis.md)."""
LABELS = ("inaccuracy", "mistake", "blunder")

# Per-decision accuracy: lichess's curve, 103.1668 * exp(-k * x) - 3.1669, with x
# the loss in points and k set so that a loss of MISTAKE points scores 40 (as a
# 20% drop in winning chances does on lichess, their mistake threshold).
_A, _B = 103.1668, 3.1669
_K = math.log(_A / (40 + _B)) / MISTAKE


@dataclass(frozen=True)
class Setting:
    """How hard the analysis looks: worlds per decision and the error aimed at."""

    min_worlds: int = 32
    max_worlds: int = 160
    target_error: float = 1.0


DEFAULT = Setting()


@dataclass
class Decision:
    """One analysed decision (JSON-ready through ``to_dict``).

    ``value`` is the played action's expected points for its player and
    ``best_value`` the best candidate's, from that player's view; ``error`` is the
    standard error of ``loss``; ``worlds`` how many worlds were played.
    """

    ply: int
    seat: int
    played: Action
    best: Action
    loss: float
    label: str | None
    value: float
    best_value: float
    error: float
    worlds: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class HandAnalysis:
    """Every decision of one hand, and each seat's accuracy over the hand."""

    decisions: list[Decision]
    accuracy: list[float | None]

    def to_dict(self) -> dict[str, Any]:
        return {
            "decisions": [d.to_dict() for d in self.decisions],
            "accuracy": list(self.accuracy),
        }


def label(loss: float) -> str | None:
    """The label of a decision losing ``loss`` points: None, or one of LABELS."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def decision_accuracy(loss: float) -> float:
    """0–100: 100 for the best play, 40 at the mistake threshold, 0 far below."""
    return round(max(0.0, min(100.0, _A * math.exp(-_K * max(0.0, loss)) - _B)), 1)


def accuracy(losses: Iterable[float]) -> float | None:
    """A seat's accuracy over decisions (lichess's blend): the mean of the
    arithmetic and the harmonic mean of the per-decision accuracies (each at least
    1 in the harmonic mean), so that one blunder weighs more than in a plain
    average. None without decisions."""
    scores = [decision_accuracy(loss) for loss in losses]
    if not scores:
        return None
    mean = sum(scores) / len(scores)
    harmonic = len(scores) / sum(1.0 / max(1.0, s) for s in scores)
    return round((mean + harmonic) / 2, 1)


# --- actions and moves ------------------------------------------------------------------


def _to_move(action: Mapping[str, Any], k: Knowledge) -> Move:
    kind = action["type"]
    top = -1 if k.top is None else k.top
    if kind == "pass":
        return ("pass", top)
    if kind == "draw":
        return ("take", top) if action["source"] == "discard" else ("stock", top)
    if kind == "big_gin":
        return ("big_gin", -1)
    return (kind, INDEX[str(action["card"])])


def _to_action(move: Move) -> Action:
    kind, card = move
    if kind == "pass":
        return {"type": "pass"}
    if kind == "take":
        return {"type": "draw", "source": "discard", "card": TEXT[card]}
    if kind == "stock":
        return {"type": "draw", "source": "stock"}
    if kind == "big_gin":
        return {"type": "big_gin"}
    return {"type": kind, "card": TEXT[card]}


def candidates(k: Knowledge, legal: list[Action], played: Move) -> list[Move]:
    """The moves compared with ``played`` (which comes first)."""
    moves = [played]
    if k.phase in ("first_turn", "draw"):
        for action in legal:
            move = _to_move(action, k)
            if move not in moves:
                moves.append(move)
        return moves
    forbidden = 1 << k.taken if k.taken is not None else 0
    ranked = Evaluator(k).discard_scores(k.hand, forbidden)
    extra: list[Move] = [("discard", card) for _, card in ranked[:ALTERNATIVES]]
    knock = knock_card(k.hand, legal)
    if knock is not None:
        extra.append(("knock", INDEX[knock[1]["card"]]))
    if any(a["type"] == "big_gin" for a in legal):
        extra.append(("big_gin", -1))
    for move in extra:
        if move not in moves:
            moves.append(move)
    return moves


# --- evaluation -------------------------------------------------------------------------


def _value(search: Search, move: Move, opp_hand: int, stock: list[int]) -> int:
    if move[0] == "big_gin":
        return big_gin_value(search.rules, opp_hand)
    return search.play(move, opp_hand, stock)[0]


def evaluate(
    view: dict[str, Any],
    legal: list[Action],
    played: Action,
    rng: random.Random,
    setting: Setting = DEFAULT,
) -> tuple[Action, float, float, float, float, int]:
    """Judge ``played`` (one of ``legal``) in the position of ``view``.

    Returns (best action, loss, error of the loss, value of the played action,
    value of the best action, worlds played).
    """
    k = read_view(view)
    moves = candidates(k, legal, _to_move(played, k))
    search = Search(k, rng, Config(budget=0, alternatives=0, params=policy.MEDIUM))
    # Hand points only: the line bonus (25 a won hand) doubles the spread of the
    # outcomes between worlds, and with it the samples needed (docs/analysis.md).
    search.rules = replace(search.rules, line_bonus=0)
    count = len(moves)
    diff_sum = [0.0] * count
    diff_sq = [0.0] * count
    live = list(range(1, count))
    base_sum = total = total_sq = 0.0
    worlds = 0
    means = [0.0] * count
    errors = [0.0] * count
    while live:
        for weight, opp_hand, stock in sample_worlds(k, rng, WORLD_BATCH):
            base = _value(search, moves[0], opp_hand, stock)
            base_sum += weight * base
            for index in live:
                diff = _value(search, moves[index], opp_hand, stock) - base
                diff_sum[index] += weight * diff
                diff_sq[index] += weight * diff * diff
            total += weight
            total_sq += weight * weight
        worlds += WORLD_BATCH
        effective = total * total / total_sq if total_sq else 0.0
        for index in live:
            mean = diff_sum[index] / total
            spread = max(0.0, diff_sq[index] / total - mean * mean)
            means[index] = mean
            errors[index] = math.sqrt(spread / max(1.0, effective - 1.0))
        if worlds < setting.min_worlds:
            continue
        if worlds >= setting.max_worlds:
            break
        floor = max(0.0, max(means[i] - CLEAR * errors[i] for i in live))
        live = [
            i for i in live
            if means[i] + CLEAR * errors[i] >= floor  # could still be the best
            and errors[i] > setting.target_error  # not yet known well enough
            and means[i] + CLEAR * errors[i] >= INACCURACY  # could still earn a label
        ]
    base_value = base_sum / total if total else 0.0
    better = [i for i in range(1, count) if means[i] > CLEAR * errors[i]]
    if not better:
        return played_action(played), 0.0, 0.0, base_value, base_value, worlds
    best = max(better, key=lambda i: means[i])
    loss = means[best]
    return (
        _to_action(moves[best]), loss, errors[best], base_value, base_value + loss, worlds
    )


def played_action(action: Mapping[str, Any]) -> Action:
    """An action as the analysis reports it (cards as text)."""
    return {key: str(value) if key == "card" else value for key, value in action.items()}


def analyse_decision(
    state: HandState, action: Mapping[str, Any], *, seed: str, ply: int,
    setting: Setting = DEFAULT,
) -> Decision:
    """Judge ``action`` played by the player to move in ``state``, from that
    player's view only; the random generator is ``Random(f"{seed}:{ply}")``.
    Raises the engine's errors if the action is not legal there."""
    seat = state.current_player
    if seat is None:
        raise ValueError("the hand is over: there is no decision to analyse")
    after, _events = state.apply(action)
    played = played_action(action)
    if played["type"] == "knock" and after.result is not None:
        played["card"] = str(after.result.knock_card)
    if played["type"] == "draw" and played["source"] == "discard":
        played["card"] = str(state.discard_pile[-1])
    best, loss, error, value, best_value, worlds = evaluate(
        state.player_view(seat), state.legal_actions(), played,
        random.Random(f"{seed}:{ply}"), setting,
    )
    loss = round(loss, 1)
    return Decision(
        ply=ply,
        seat=seat,
        played=played,
        best=best,
        loss=loss,
        label=label(loss),
        value=round(value, 1),
        best_value=round(best_value, 1),
        error=round(error, 2),
        worlds=worlds,
    )


def analyse_hand(
    state: HandState,
    actions: Iterable[Mapping[str, Any]],
    *,
    seed: str,
    setting: Setting = DEFAULT,
) -> HandAnalysis:
    """Analyse every decision of the hand dealt as ``state`` and played with
    ``actions`` (in order, to its end). ``seed`` names the hand (see
    ``analyse_decision``). Raises the engine's errors for an illegal action and
    ValueError if the actions do not finish the hand."""
    decisions: list[Decision] = []
    for ply, action in enumerate(actions):
        decisions.append(analyse_decision(state, action, seed=seed, ply=ply, setting=setting))
        state, _events = state.apply(action)
    if not state.is_over:
        raise ValueError("the actions do not finish the hand")
    return HandAnalysis(
        decisions=decisions,
        accuracy=[accuracy(d.loss for d in decisions if d.seat == seat) for seat in (0, 1)],
    )
