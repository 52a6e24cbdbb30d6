"""Puzzles whose answer is a knock (issue 32): does the knock really win more than
waiting?

Plays ``--hands`` hands of medium against medium (``games.learn.core.puzzles.
self_play_hand``, dealt from ``--seed`` on) and judges their decisions as the puzzle
generator does, but without its last check (a knock only where hard knocks too). At each
puzzle whose answer is a knock, the hand is branched: the knock against the best
discard of the judge (the wait), each branch played out by hard for both seats on the
cards that really lie (the same random generators in both). Prints, with 95%
intervals, the judge's lead of the knock and what the knock won over the wait, for all
of them and split by whether hard itself knocks there.

    python -m bench.puzzle_knocks --seed 9600000 --hands 220
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from games.bots import choose_action
from games.bots.arena import net_per_hand
from games.engine import HandState
from games.learn.core import puzzles as core


def played_out(state: HandState, me: int, tag: str) -> int:
    """Points of seat ``me`` when hard plays both seats from ``state`` to the hand's end."""
    move = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = choose_action(
            "hard", state.player_view(seat), state.legal_actions(), random.Random(f"{tag}:{move}")
        )
        state, _events = state.apply(action)
        move += 1
    result = state.result
    assert result is not None
    if result.winner is None:
        return 0
    return result.points if result.winner == me else -result.points


def interval(values: list[float]) -> str:
    """The mean of ``values`` and the half-width of its 95% interval (each its own unit)."""
    mean, half = net_per_hand([(value, 1) for value in values])
    return f"n={len(values):4d}  {mean:+6.2f} ± {half:5.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=9600000)
    parser.add_argument("--hands", type=int, default=220)
    options = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    collection = core.Collection()
    started = time.process_time()
    for seed in range(options.seed, options.seed + options.hands):
        start, actions = core.self_play_hand(seed)
        for puzzle in core.find_puzzles(
            start, actions, seed=f"self:{seed}", collection=collection,
            judge_kwargs={"knock_check": False},
        ):
            if puzzle.best["type"] != "knock":
                continue
            state = start
            for action in actions[: puzzle.source_ply]:
                state, _events = state.apply(action)
            me = state.current_player
            assert me is not None
            wait = next(v for v in puzzle.values if v.action["type"] == "discard")
            hard = choose_action("hard", puzzle.view, puzzle.legal_actions, random.Random(1))
            tag = f"{seed}:{puzzle.source_ply}"
            won = played_out(state.apply(puzzle.best)[0], me, tag) - played_out(
                state.apply(wait.action)[0], me, tag
            )
            rows.append({"lead": puzzle.values[0].value - wait.value, "won": won,
                         "hard_knocks": hard["type"] == "knock"})
    print(f"{options.hands} hands (seeds {options.seed} on), {len(rows)} knock puzzles, "
          f"{time.process_time() - started:.0f} CPU s")
    print("  (judge's lead of the knock | what the knock won over the wait, hard playing on)")
    for name, part in (("all", rows), ("hard knocks too", [r for r in rows if r["hard_knocks"]]),
                       ("hard waits", [r for r in rows if not r["hard_knocks"]])):
        print(f"  {name:16s} lead {interval([r['lead'] for r in part])} | "
              f"won {interval([r['won'] for r in part])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
