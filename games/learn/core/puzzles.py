"""Puzzles cut from real hands (issue 32), pure: the standard library, the engine and
the computer players only.

A puzzle is one decision of a finished hand: the position exactly as the player to
move saw it (the engine's ``player_view`` of that seat: their hand, the discard pile,
the cards the opponent took from it, the stock count, the public history), its legal
actions, and one action that is clearly best. ``find_puzzles`` walks a hand's
decisions and keeps a candidate only when

1. a **screening** evaluation (the live analysis's method: every candidate played out
   in the same sampled worlds with the expert's card inference and playout policy,
   ``SCREEN_WORLDS`` worlds) finds a best action ahead of the second best by
   ``MARGIN`` points of expected hand points;
2. a **stronger re-evaluation** (every legal action, ``STRONG_WORLDS`` worlds, more
   than the live analysis's 160 at most, from another random stream) agrees on the
   best action, still ahead by ``MARGIN`` points and by two standard errors of the
   difference (both played in the same worlds);
3. it is no **near copy** of a puzzle already kept (``Collection``: the same phase,
   the same best action and top of the pile, and hands differing by at most one card);
4. a **knock** is the answer only where the hard computer knocks too: the playouts play
   the rest of the hand with the simple policy, which undervalues waiting, and where
   hard waits, the knocks they found clearly best (by 10 points on average) won
   nothing over waiting once hard played the rest of the hand on the true cards
   (docs/benchmarks.md, "Puzzles").

The values of every legal action (``values``) come from the re-evaluation; the page
shows them after an answer. ``themes`` tags a position from what it is (knock now or
wait, undercut danger, a safe discard, take the upcard or not, chase gin, lay off).
``initial_rating`` is where a new puzzle's Glicko-2 rating starts: lower when the easy
computer finds the answer, higher when even medium does not.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.bots import choose_action, policy
from games.bots.cards import INDEX
from games.bots.knowledge import read_view
from games.bots.playout import big_gin_value
from games.bots.search import Config, Search
from games.bots.worlds import sample_worlds
from games.engine.melds import deadwood
from games.engine.rules import RuleSet
from games.engine.state import HandState
from games.learn.core.lessons import _

Action = dict[str, Any]

MARGIN = 5.0
"""Expected hand points by which the best action must beat the second best."""
SCREEN_WORLDS = 32
STRONG_WORLDS = 192
"""More sampled worlds than the live analysis ever uses (docs/analysis.md: 160)."""
BATCH = 8
CLEAR = 2.0
MAX_DRAWS = 2
"""Puzzles of a draw kept per hand at most (the commonest clear decision)."""
THEMES = ("knock_or_wait", "undercut_danger", "safe_discard", "take_upcard", "chase_gin", "lay_off")
THEME_NAMES = {
    "knock_or_wait": _("Knock now or wait"),
    "undercut_danger": _("Undercut danger"),
    "safe_discard": _("A safe discard"),
    "take_upcard": _("Take the upcard or not"),
    "chase_gin": _("Chase gin"),
    "lay_off": _("Lay off"),
}
"""The themes' names, marked for translation (the views translate them)."""


@dataclass(frozen=True)
class ActionValue:
    action: Action
    value: float  # expected hand points for the player to move
    error: float  # standard error of (best's value - this value); 0 for the best


@dataclass(frozen=True)
class Puzzle:
    """One kept decision: what its player saw and the verdict."""

    view: dict[str, Any]
    legal_actions: list[Action]
    best: Action
    values: list[ActionValue]
    themes: list[str]
    rating: float
    key: tuple[Any, ...]
    source_ply: int
    worlds: int

    def values_json(self) -> list[dict[str, Any]]:
        return [{"action": v.action, "value": round(v.value, 1)} for v in self.values]


def action_key(action: Mapping[str, Any]) -> tuple[str, str, str]:
    """An action as a comparable key (a drawn card's name left out)."""
    kind = str(action.get("type"))
    source = str(action.get("source", "")) if kind == "draw" else ""
    card = str(action.get("card", "")) if kind in ("discard", "knock") else ""
    return kind, source, card


def same_action(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return action_key(a) == action_key(b)


# --- evaluation -------------------------------------------------------------------------


def _move(action: Mapping[str, Any], top: int) -> tuple[str, int]:
    kind = action["type"]
    if kind == "pass":
        return ("pass", top)
    if kind == "draw":
        return ("take", top) if action["source"] == "discard" else ("stock", top)
    if kind == "big_gin":
        return ("big_gin", -1)
    return (kind, INDEX[str(action["card"])])


def evaluate_actions(
    view: dict[str, Any], actions: Sequence[Action], rng: random.Random, worlds: int
) -> tuple[list[float], list[list[float]], list[float]]:
    """Play every action out in the same ``worlds`` sampled worlds (the live analysis's
    method: games/bots/analysis.py): (weighted mean value per action, the per-world
    values, the worlds' weights)."""
    k = read_view(view)
    top = -1 if k.top is None else k.top
    moves = [_move(a, top) for a in actions]
    search = Search(k, rng, Config(budget=0, alternatives=0, params=policy.MEDIUM))
    search.rules = replace(search.rules, line_bonus=0)  # hand points, as the analysis
    per_world: list[list[float]] = [[] for _ in moves]
    weights: list[float] = []
    played = 0
    while played < worlds:
        for weight, opp_hand, stock in sample_worlds(k, rng, BATCH):
            weights.append(weight)
            for i, move in enumerate(moves):
                if move[0] == "big_gin":
                    value = big_gin_value(search.rules, opp_hand)
                else:
                    value = search.play(move, opp_hand, stock)[0]
                per_world[i].append(float(value))
        played += BATCH
    total = sum(weights) or 1.0
    means = [sum(w * v for w, v in zip(weights, vals, strict=True)) / total for vals in per_world]
    return means, per_world, weights


def _difference_error(a: list[float], b: list[float], weights: list[float]) -> float:
    total = sum(weights)
    total_sq = sum(w * w for w in weights)
    if not total:
        return 0.0
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(w * d for w, d in zip(weights, diffs, strict=True)) / total
    square = sum(w * d * d for w, d in zip(weights, diffs, strict=True)) / total
    spread = max(0.0, square - mean * mean)
    effective = total * total / total_sq if total_sq else 0.0
    return math.sqrt(spread / max(1.0, effective - 1.0))


def _ranked(means: list[float]) -> list[int]:
    return sorted(range(len(means)), key=lambda i: -means[i])


def _screen_actions(view: dict[str, Any], legal: list[Action]) -> list[Action]:
    """The few actions worth screening: both options of a draw; after a draw, the
    discards leaving the least deadwood (four), every knock leaving the least, and big gin."""
    if view["phase"] in ("first_turn", "draw"):
        return list(legal)
    hand = view["hand"]
    after = {c: deadwood([d for d in hand if d != c]) for c in hand}
    discards = sorted(
        (a for a in legal if a["type"] == "discard"), key=lambda a: (after[a["card"]], a["card"])
    )
    chosen = discards[:4]
    knocks = sorted((a for a in legal if a["type"] == "knock"), key=lambda a: after[a["card"]])
    chosen += knocks[:2]
    chosen += [a for a in legal if a["type"] == "big_gin"]
    return chosen


Verdict = tuple[Action, list[ActionValue], int]


def judge(
    view: dict[str, Any], *, seed: str, margin: float = MARGIN,
    screen_worlds: int = SCREEN_WORLDS, strong_worlds: int = STRONG_WORLDS,
    knock_check: bool = True,
) -> Verdict | None:
    """(best action, the value of every legal action, worlds) when one action is
    clearly best in ``view`` (screened, then confirmed by a stronger re-evaluation, and
    a knock only where hard knocks too; ``knock_check`` False leaves that out, to
    measure those knocks: bench/puzzle_knocks.py); None otherwise."""
    legal = list(view["legal_actions"])
    if len(legal) < 2:
        return None
    screened = _screen_actions(view, legal)
    if len(screened) < 2:
        return None
    means, _worlds, _weights = evaluate_actions(
        view, screened, random.Random(f"{seed}:screen"), screen_worlds
    )
    order = _ranked(means)
    if means[order[0]] - means[order[1]] < margin * 0.6:
        return None
    quick_best = screened[order[0]]
    if knock_check and quick_best["type"] == "knock" and not hard_knocks_too(view, seed=seed):
        # 4. a knock hard would not make is no clear answer (the re-evaluation must
        # agree with the screen, so it is asked only of those hard would make too).
        return None
    means, per_world, weights = evaluate_actions(
        view, legal, random.Random(f"{seed}:strong"), strong_worlds
    )
    order = _ranked(means)
    best, second = order[0], order[1]
    if not same_action(legal[best], quick_best):
        return None  # the stronger evaluation disagrees
    gap = means[best] - means[second]
    error = _difference_error(per_world[best], per_world[second], weights)
    if gap < margin or gap < CLEAR * error:
        return None
    values = [
        ActionValue(
            legal[i], means[i],
            0.0 if i == best else _difference_error(per_world[best], per_world[i], weights),
        )
        for i in order
    ]
    return legal[best], values, len(weights)


def hard_knocks_too(view: dict[str, Any], *, seed: str) -> bool:
    """Whether the hard computer knocks in ``view`` (check 4; also asked again of the
    knock puzzles kept before the check: ``manage.py puzzles_rejudge``)."""
    action = choose_action("hard", view, list(view["legal_actions"]), random.Random(f"{seed}:hard"))
    return bool(action["type"] == "knock")


# --- themes ----------------------------------------------------------------------------


def _neighbours(card: str) -> set[str]:
    ranks = "A23456789TJQK"
    r, s = ranks.index(card[0]), card[1]
    out = {f"{card[0]}{t}" for t in "CDHS" if t != s}
    for d in (-1, 1):
        if 0 <= r + d < 13:
            out.add(f"{ranks[r + d]}{s}")
    return out


def themes(
    view: Mapping[str, Any], best: Mapping[str, Any], values: Sequence[ActionValue]
) -> list[str]:
    """The themes of a position (``THEMES``), from the position and its verdict."""
    found: list[str] = []
    legal = view["legal_actions"]
    hand = list(view["hand"])
    known = list(view["opponent_known_cards"])
    if view["phase"] in ("first_turn", "draw"):
        found.append("take_upcard")
    can_knock = any(a["type"] == "knock" for a in legal)
    if can_knock:
        found.append("knock_or_wait")
    if view["phase"] == "discard":
        after = {c: deadwood([d for d in hand if d != c]) for c in hand}
        leaving = after.get(best.get("card", ""), 99)
        least = min(after.values())
        if best["type"] == "knock" and leaving == 0:
            found.append("chase_gin")
        elif can_knock and best["type"] == "discard":
            # Waiting is clearly better than knocking: close to gin, chase it; otherwise
            # the knock would be undercut too often.
            found.append("chase_gin" if leaving <= 3 else "undercut_danger")
        if best["type"] == "discard" and known and leaving > least:
            found.append("safe_discard")
        elif best["type"] == "discard" and known and not (_neighbours(best["card"]) & set(known)):
            if any(_neighbours(v.action.get("card", "")) & set(known) for v in values[1:2]
                   if v.action["type"] == "discard"):
                found.append("safe_discard")
        if known and len(known) >= 2:
            near = set().union(*(_neighbours(c) for c in known))
            if any(c in near for c in hand if c != best.get("card")):
                found.append("lay_off")
    return [t for t in THEMES if t in found]


# --- hands and their decisions ------------------------------------------------------------


def decisions(
    state: HandState, actions: Iterable[Mapping[str, Any]]
) -> Iterator[tuple[int, HandState, Mapping[str, Any]]]:
    """(ply, the state before, the action played) for each decision of a hand."""
    for ply, action in enumerate(actions):
        if state.is_over:
            return
        yield ply, state, action
        state, _events = state.apply(action)


def self_play_hand(seed: int, levels: tuple[str, str] = ("medium", "medium"),
                   rules: RuleSet | None = None) -> tuple[HandState, list[Action]]:
    """A hand of the computer against itself, dealt from ``seed``: (deal, actions)."""
    rng = random.Random(seed)
    start = HandState.deal(rules or RuleSet.time_freedom(), seed % 2, rng.randbytes(32))
    state = start
    actions: list[Action] = []
    while not state.is_over and len(actions) < 400:
        seat = state.current_player
        assert seat is not None
        view = state.player_view(seat)
        action = choose_action(levels[seat], view, state.legal_actions(), rng)
        actions.append(action)
        state, _events = state.apply(action)
    return start, actions


def initial_rating(view: dict[str, Any], best: Mapping[str, Any], seed: str) -> float:
    """Where a new puzzle's rating starts: 1250 when the easy computer plays the best
    action, 1500 when only medium does, 1750 when neither."""
    legal = list(view["legal_actions"])
    for level, rating in (("easy", 1250.0), ("medium", 1500.0)):
        if same_action(choose_action(level, view, legal, random.Random(seed)), best):
            return rating
    return 1750.0


# --- the collection: no near copies ----------------------------------------------------------


def position_key(view: Mapping[str, Any], best: Mapping[str, Any]) -> tuple[Any, ...]:
    top = view["discard_pile"][-1] if view["discard_pile"] else ""
    return (view["phase"], top, action_key(best), tuple(sorted(view["hand"])))


def near_copy(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Same phase, top of the pile and best action, hands differing by at most one card."""
    if a[:3] != b[:3]:
        return False
    return len(set(a[3]) ^ set(b[3])) <= 2


@dataclass
class Collection:
    """The keys of the puzzles kept so far, to refuse near copies."""

    keys: dict[tuple[Any, ...], list[tuple[Any, ...]]] = field(default_factory=dict)

    def add(self, key: tuple[Any, ...]) -> bool:
        """Keep ``key`` unless it nearly copies one already kept (then False)."""
        bucket = self.keys.setdefault(key[:3], [])
        if any(near_copy(key, other) for other in bucket):
            return False
        bucket.append(key)
        return True


@dataclass
class Tally:
    decisions: int = 0
    screened_out: int = 0
    kept: int = 0
    near_copies: int = 0


def find_puzzles(
    state: HandState, actions: Sequence[Mapping[str, Any]], *, seed: str,
    collection: Collection, tally: Tally | None = None,
    judge_kwargs: Mapping[str, Any] | None = None,
    every: int = 1, judge_with: Callable[..., Verdict | None] | None = None,
    max_draws: int = MAX_DRAWS,
) -> list[Puzzle]:
    """The puzzles of one finished hand (``state`` its deal, ``actions`` its moves),
    each judged from its player's view only; ``every``: look at every n-th decision;
    ``judge_with``: another judge than ``judge`` (a test's, to make many puzzles fast);
    at most ``max_draws`` puzzles of a draw (take the upcard or not) per hand, the
    commonest kind, so that the collection is not mostly draws."""
    tally = tally or Tally()
    kept: list[Puzzle] = []
    for ply, before, _action in decisions(state, actions):
        if ply % every:
            continue
        seat = before.current_player
        assert seat is not None
        view = before.player_view(seat)
        if len(view["legal_actions"]) < 2:
            continue
        draws = sum(p.view["phase"] != "discard" for p in kept)
        if view["phase"] != "discard" and draws >= max_draws:
            continue
        tally.decisions += 1
        verdict = (judge_with or judge)(view, seed=f"{seed}:{ply}", **dict(judge_kwargs or {}))
        if verdict is None:
            tally.screened_out += 1
            continue
        best, values, worlds = verdict
        key = position_key(view, best)
        if not collection.add(key):
            tally.near_copies += 1
            continue
        tally.kept += 1
        kept.append(Puzzle(
            view=view, legal_actions=list(view["legal_actions"]), best=dict(best), values=values,
            themes=themes(view, best, values), rating=initial_rating(view, best, f"{seed}:{ply}"),
            key=key, source_ply=ply, worlds=worlds,
        ))
    return kept
