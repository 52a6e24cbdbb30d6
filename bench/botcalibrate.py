"""Calibration of the sampled worlds' opponent hands against real play.

    python -m bench.botcalibrate --hands 200 --seed 1 [--level medium] \
        [--calibrated [--schedule linear|square|base,linear,square,cap]]

Plays ``--level`` against itself and, at every discard decision after the
opponent's first turn, compares the opponent's real deadwood (read from the
engine's state: this is a measurement, not a bot) with the weighted mean deadwood
of the opponent hands that ``games.bots.worlds.sample_worlds`` draws from the
seat's view, for several strengths of the deadwood pull (``--pulls``). Printed
per number of opponent turns: decisions, the real mean deadwood, and the sampled
mean under each constant pull (on top of a search level's pull schedule with
``--calibrated``). The pull whose means follow the real ones is the one to use.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import sys
from collections import defaultdict

from games.bots import choose_action, worlds
from games.bots.cards import deadwood, mask_of
from games.bots.knowledge import read_view
from games.engine import HandState, RuleSet


def parse_schedule(text: str) -> worlds.Pull:
    """``linear``, ``square`` or ``base,linear,square,cap`` as a ``worlds.Pull``."""
    named = {"linear": worlds.LINEAR_PULL, "square": worlds.SQUARE_PULL}
    if text in named:
        return named[text]
    base, linear, square, cap = (float(x) for x in text.split(","))
    return worlds.Pull(base, linear, square, cap)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--pulls", default="0,0.05,0.1,0.15,0.2,0.3")
    parser.add_argument("--calibrated", action="store_true",
                        help="sample with the search levels' pull (see --schedule)")
    parser.add_argument("--schedule", default="linear",
                        help="the pull of --calibrated: linear (hard's), square (expert's), "
                             "or base,linear,square,cap")
    parser.add_argument("--worlds", type=int, default=64)
    options = parser.parse_args(argv)
    pulls = [float(p) for p in options.pulls.split(",")]
    schedule = parse_schedule(options.schedule) if options.calibrated else None
    real: dict[int, list[int]] = defaultdict(list)
    sampled: dict[int, list[list[float]]] = defaultdict(lambda: [[] for _ in pulls])
    rules = RuleSet.default()
    for n in range(options.hands):
        seed = hashlib.sha256(f"calibrate:{options.seed}:{n}".encode()).digest()
        state = HandState.deal(rules, n % 2, seed)
        move = 0
        while not state.is_over:
            seat = state.current_player
            view = state.player_view(seat)
            k = read_view(view)
            if k.phase == "discard" and k.opp_turns >= 1:
                bucket = min(k.opp_turns, 10)
                opp = mask_of(state.player_view(1 - seat)["hand"])
                real[bucket].append(deadwood(opp))
                rng = random.Random(f"{seed.hex()}:{move}:w")
                samples = worlds.sample_worlds(k, rng, options.worlds, schedule)
                dws = [(w, deadwood(hand)) for w, hand, _ in samples]
                for i, pull in enumerate(pulls):
                    total = sum(w * math.exp(-pull * d) for w, d in dws)
                    mean = sum(w * math.exp(-pull * d) * d for w, d in dws) / total
                    sampled[bucket][i].append(mean)
            rng = random.Random(f"{seed.hex()}:{move}")
            action = choose_action(options.level, view, state.legal_actions(), rng)
            state, _ = state.apply(action)
            move += 1
    print("opp turns  decisions  real  " + "  ".join(f"pull {p:g}" for p in pulls))
    for bucket in sorted(real):
        means = [sum(v) / len(v) for v in sampled[bucket]]
        print(
            f"{bucket:9d}  {len(real[bucket]):9d}  {sum(real[bucket]) / len(real[bucket]):4.1f}  "
            + "  ".join(f"{m:8.1f}" for m in means)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
