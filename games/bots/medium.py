"""Level "medium": card tracking and heuristics, no search.

Draws: takes the discard when the hand it leads to is worth more than a stock
draw is expected to be (a meld made, or a high deadwood card replaced by a low
one), but never a card it discarded itself earlier in the hand. Discards: the
card whose remaining hand has the best expected deadwood over the live cards,
penalised by the chance that the opponent can meld it. Knocks: at once early in
the hand; later only with low enough deadwood that an undercut is unlikely, the
allowance shrinking as the opponent has had more turns to build melds.
"""

from __future__ import annotations

import random
from typing import Any

from games.bots import policy

Action = dict[str, Any]


def choose(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """The medium player's action for this view: the heuristic player of
    ``games.bots.policy`` with medium's constants (``policy.MEDIUM``), which the
    browser's offline medium (games/static/games/offline/bots.js) mirrors."""
    return policy.choose(view, legal, rng, policy.MEDIUM)
