"""Bot arena: computer levels play whole matches against each other.

    python -m bench.botarena --a hard --b easy --matches 200 --seed 1 [--rules default]
                             [--jobs 2] [--budget N] [--independent]
                             [--level 'expert:match_aware=0/stock_gain=1'] [--sight]

The arena itself (duplicate pairs, the figures printed, every option but the last two)
is ``games/bots/arena.py``, shipped with the site so that ``python manage.py botarena``
runs the same code; this is its entry point among the benchmarks. Needs no Django.
``--level`` (repeatable) is for experiments: it changes a search level's settings for
the run, written as ``bench/bottune.py`` writes a search variant without its ``@``.
``--sight`` shows side a its opponent's cards all match long (as if it had picked them
all from the pile): an upper bound on what reading the opponent's hand is worth.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from bench.bottune import set_levels
from games.bots import arena
from games.bots.arena import main
from games.engine import HandState

_seat_of_a = [0]
"""Side a's seat in the match being played (``--sight``; a process plays one at a time)."""


def sight_patches() -> tuple[Callable[..., arena.Tally], Callable[..., dict[str, Any]]]:
    """For ``--sight``, replacements of ``games.bots.arena.play_match`` (it notes which
    seat side a holds) and of ``HandState.player_view`` (that seat's views carry the
    opponent's hand)."""
    play_match, player_view = arena.play_match, HandState.player_view

    def play_match_noting_seats(*args: Any, **kwargs: Any) -> arena.Tally:
        _seat_of_a[0] = 1 if kwargs.get("swapped") else 0
        return play_match(*args, **kwargs)

    def view_with_sight(state: HandState, seat: int) -> dict[str, Any]:
        view = player_view(state, seat)
        if seat == _seat_of_a[0]:
            view["opponent_known_cards"] = [str(card) for card in state.hands[1 - seat]]
        return view

    return play_match_noting_seats, view_with_sight


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--level", action="append", default=[])
    parser.add_argument("--sight", action="store_true")
    options, rest = parser.parse_known_args()
    set_levels(options.level)  # the worker processes are forked with it
    if options.sight:  # patched before the workers are forked, like the levels
        arena.play_match, HandState.player_view = sight_patches()  # type: ignore[method-assign]
    sys.exit(main(rest))
