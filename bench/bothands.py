"""Duplicate hands: net points per hand between two computer levels, hand by hand.

    python -m bench.bothands --a hard --b medium --pairs 150 --seed 1 [--jobs 2]
                             [--rules default]

Every pair deals the same cards twice (the deal from the seed and the pair's
number, the dealer alternating from pair to pair) with the levels' seats exchanged,
and plays one hand each time through the real engine. Printed: the net points per
hand of ``--a`` (its points minus ``--b``'s, over both hands of every pair) with a
95% interval over the pairs, and ``--a``'s CPU time per decision. Single hands have
no match score, so this measures strength in points, not matches (the arena,
``bench.botarena``, plays whole matches); it needs far fewer hands than a match win
rate to separate two levels. ``--histogram`` also prints how many points the hands'
winners scored, the table of games/bots/equity.py.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import random
import sys
import time

from games.bots import choose_action
from games.bots.arena import add_level_arguments, net_per_hand
from games.engine import HandState, RuleSet


def play_hand(
    rules: RuleSet, levels: tuple[str, str], seed: bytes, dealer: int
) -> tuple[list[int], list[float], list[int]]:
    """One hand, seat i played by ``levels[i]``: per seat, (points won, CPU seconds
    spent choosing, decisions)."""
    state = HandState.deal(rules, dealer, seed)
    points, cpu, decisions = [0, 0], [0.0, 0.0], [0, 0]
    move = 0
    while not state.is_over:
        seat = state.current_player
        rng = random.Random(f"{seed.hex()}:{move}")
        started = time.process_time()
        action = choose_action(levels[seat], state.player_view(seat), state.legal_actions(), rng)
        cpu[seat] += time.process_time() - started
        decisions[seat] += 1
        state, _ = state.apply(action)
        move += 1
    if state.result.winner is not None:
        points[state.result.winner] = state.result.points
    return points, cpu, decisions


def play_pair(job: tuple[str, str, str, int, int]) -> tuple[int, float, int, list[int]]:
    """Both hands of pair ``index``: (net points of a, a's CPU seconds, a's decisions,
    the winner's points of each hand, 0 for a drawn hand)."""
    a, b, rules_name, seed, index = job
    rules = RuleSet.preset(rules_name)
    deal = hashlib.sha256(f"hands:{seed}:{index}".encode()).digest()
    p1, cpu1, n1 = play_hand(rules, (a, b), deal, index % 2)
    p2, cpu2, n2 = play_hand(rules, (b, a), deal, index % 2)
    return (p1[0] - p1[1]) + (p2[1] - p2[0]), cpu1[0] + cpu2[1], n1[0] + n2[1], [
        max(p1), max(p2)
    ]


def points_histogram(won: list[int]) -> str:
    """The winners' points as games/bots/equity.py's HAND_POINTS: (points, share of the
    hands won), in buckets of 3 points (their mean) to keep the table short."""
    buckets: dict[int, list[int]] = {}
    for points in won:
        buckets.setdefault(points // 3, []).append(points)
    rows = [
        f"({round(sum(b) / len(b))}, {len(b) / len(won):.4f})"
        for _, b in sorted(buckets.items())
    ]
    return "HAND_POINTS = (" + ", ".join(rows) + ")"


def summary(nets: list[int]) -> tuple[float, float]:
    """(net points per hand, half-width of its 95% interval) from per-pair nets: the
    arena's estimator (``games/bots/arena.py``) over pairs of two hands each."""
    return net_per_hand([(net, 2) for net in nets])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_level_arguments(parser)
    parser.add_argument("--pairs", type=int, default=100, help="pairs of hands")
    parser.add_argument("--histogram", action="store_true",
                        help="also print the winners' points per hand (for games/bots/equity.py)")
    options = parser.parse_args(argv)
    if options.pairs < 1 or options.jobs < 1:
        parser.error("--pairs and --jobs must be at least 1")
    work = [(options.a, options.b, options.rules, options.seed, i) for i in range(options.pairs)]
    started = time.perf_counter()
    if options.jobs > 1:
        with multiprocessing.Pool(options.jobs) as pool:
            results = pool.map(play_pair, work, chunksize=4)
    else:
        results = [play_pair(job) for job in work]
    net, half = summary([r[0] for r in results])
    cpu_ms = 1000 * sum(r[1] for r in results) / max(1, sum(r[2] for r in results))
    print(
        f"{options.a} vs {options.b}, rules {options.rules}, seed {options.seed}, "
        f"{options.pairs} pairs ({2 * options.pairs} hands), "
        f"{time.perf_counter() - started:.0f} s\n"
        f"net points per hand of {options.a}: {net:+.2f}   95% CI [{net - half:+.2f}, "
        f"{net + half:+.2f}]   {options.a}: {cpu_ms:.1f} ms CPU per decision"
    )
    if options.histogram:
        won = [points for r in results for points in r[3] if points > 0]
        print(f"{len(won)} hands won, {2 * options.pairs - len(won)} drawn\n"
              + points_histogram(won))
    return 0


if __name__ == "__main__":
    sys.exit(main())
