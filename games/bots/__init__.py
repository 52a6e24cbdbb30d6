"""Computer players: pure functions of a player view and a random generator.

``choose_action(level, view, legal_actions, rng)`` returns one of ``legal_actions``
for the seat whose ``view`` (``state.player_view(seat)``) is given. Levels:

* ``easy``: the simple baseline of the literature (Neller's SimpleGinRummyPlayer);
* ``medium``: card tracking and heuristics (``games.bots.medium``);
* ``hard``: medium's heuristics with self-play tuned constants (``games.bots.policy``)
  checked by information-set search over sampled worlds (``games.bots.search``);
* ``expert``: the same default move with a wider search: more worlds (their deadwood
  pulled as hard's hands play out: ``games.bots.worlds.SQUARE_PULL``), one more
  alternative discard, a lower margin to leave the default move, and outcomes valued
  by the chance of winning the match (``games.bots.equity``) when the score is given.

Bots are stateless and see only the view (the public history is in it). They work
on a deep copy, so nothing they do can reach or change the caller's objects. The
search budget is counted in simulated turns, not time: the same view and the same
``rng`` state always give the same action.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from games.bots import easy, medium, search

LEVELS = ("easy", "medium", "hard", "expert")

Action = dict[str, Any]


def choose_action(
    level: str,
    view: dict[str, Any],
    legal_actions: list[Action],
    rng: random.Random,
    *,
    budget: int | None = None,
    scores: tuple[int, int] | None = None,
) -> Action:
    """The action the computer player of ``level`` takes (one of ``legal_actions``).

    ``budget`` overrides the search levels' number of simulated turns (tests use a
    small one); other levels ignore it. ``scores``: the match's points of seats 0 and
    1 before this hand (``MatchState.score.hand_points``); expert plays for the match
    with them, and for the hand's points without.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    if not legal_actions:
        raise ValueError("the bot has no legal action to choose from (not its turn?)")
    view = copy.deepcopy(view)
    legal = copy.deepcopy(list(legal_actions))
    if level == "easy":
        action = easy.choose(view, legal, rng)
    elif level == "medium":
        action = medium.choose(view, legal, rng)
    else:
        action = search.choose(view, legal, rng, level=level, budget=budget, scores=scores)
    index = legal.index(action)
    return legal_actions[index]
