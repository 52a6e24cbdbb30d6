"""The bot arena: computer levels play whole matches against each other.

    python manage.py botarena --a hard --b easy --matches 200 --seed 1 [--rules default]
                              [--jobs 2] [--budget N] [--independent]

(``python -m bench.botarena`` takes the same options.) Duplicate by default:
matches come in seat-swapped pairs, both matches of a pair using the same deal
seeds hand by hand with the bots' seats exchanged, so the luck of the cards
cancels out as far as it can (``--independent`` gives every match its own deals
instead). Each match is played with the real engine (``games.engine``'s
``MatchState``) to the rules' target score, bonuses included; ``--jobs N`` plays
the pairs in N processes (every pair's deals and random generators come from the
seed and the pair's number, so the figures do not depend on N). Printed: the match
win rate of ``--a`` with a 95% Wilson confidence interval and the Elo difference
it implies, the net points per hand with a 95% interval over the pairs (it
separates two levels with far fewer matches than the win rate), gin / big gin /
undercut counts per side and per-move decision time percentiles per side, both
wall clock and the process's CPU time (measure with ``--jobs 1``: other jobs share
the cores).

Owns the arena and its statistics (Wilson interval, Elo difference, net points per
hand, the nearest-rank percentile that bench/stats.py shares with the benchmarks).
Pure like the rest of ``games.bots``: the standard library and the engine, no
Django, so the shipped management command needs nothing outside the package.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import multiprocessing
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.bots import LEVELS, choose_action
from games.engine import HandResult, MatchState, RuleSet

MAX_HANDS = 200
"""A match that has not ended after this many hands is abandoned as an error."""


@dataclass
class Side:
    """What one bot did over the matches it played."""

    matches_won: int = 0
    hands_won: int = 0
    points: int = 0
    knocks_won: int = 0
    gins: int = 0
    big_gins: int = 0
    undercuts: int = 0
    times_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)

    def add(self, other: Side) -> None:
        for name in (
            "matches_won",
            "hands_won",
            "points",
            "knocks_won",
            "gins",
            "big_gins",
            "undercuts",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.times_ms.extend(other.times_ms)
        self.cpu_ms.extend(other.cpu_ms)


@dataclass
class Tally:
    """Both sides' figures plus the shared counts."""

    a: Side = field(default_factory=Side)
    b: Side = field(default_factory=Side)
    matches: int = 0
    hands: int = 0
    draws: int = 0
    units: list[tuple[int, int]] = field(default_factory=list)
    """Per pair of matches (per match with independent deals): (net points of a, hands)."""

    def add(self, other: Tally) -> None:
        self.a.add(other.a)
        self.b.add(other.b)
        self.matches += other.matches
        self.hands += other.hands
        self.draws += other.draws
        self.units.extend(other.units)

    def net_per_hand(self) -> tuple[float, float]:
        """Net points per hand of side a and the half-width of its 95% interval
        (ratio estimator over the pairs: a pair's two matches share their luck)."""
        return net_per_hand(self.units)


def deal_seed(seed: int, pair: int, hand: int) -> bytes:
    """The deal seed of a hand: the same for both matches of a pair."""
    return hashlib.sha256(f"botarena:{seed}:{pair}:{hand}".encode()).digest()


def play_match(
    levels: tuple[str, str],
    rules: RuleSet,
    seed: int,
    pair: int,
    swapped: bool,
    budget: int | None = None,
) -> Tally:
    """One match; ``levels[0]`` is side a. Unless ``swapped``, side a sits in seat 0."""
    tally = Tally(matches=1)
    sides = (tally.a, tally.b)
    seat_level = (levels[1], levels[0]) if swapped else levels
    seat_side = (sides[1], sides[0]) if swapped else sides
    match = MatchState.start(rules, first_dealer=0, seed=deal_seed(seed, pair, 0))
    move = 0
    while not match.over:
        if match.hand_number > MAX_HANDS:
            raise RuntimeError(f"match {pair} did not end within {MAX_HANDS} hands")
        state, seat = match.hand, match.current_player
        assert state is not None and seat is not None  # a match in play: a hand, a mover
        view = state.player_view(seat)
        rng = random.Random(f"{seed}:{pair}:{swapped}:{match.hand_number - 1}:{move}")
        started, cpu_started = time.perf_counter(), time.process_time()
        action = choose_action(
            seat_level[seat], view, state.legal_actions(), rng, budget=budget,
            scores=match.score.hand_points,
        )
        seat_side[seat].times_ms.append((time.perf_counter() - started) * 1000)
        seat_side[seat].cpu_ms.append((time.process_time() - cpu_started) * 1000)
        match, _events = match.apply(seat, action)
        move += 1
        hand = match.hand
        if hand is not None and hand.is_over:
            assert hand.result is not None  # a hand over has its result
            _count_hand(tally, seat_side, hand.result)
            move = 0
            if match.needs_deal:
                match, _events = match.deal_next(deal_seed(seed, pair, match.hand_number))
    assert match.winner is not None  # a match over has a winner
    seat_side[match.winner].matches_won += 1
    return tally


def _count_hand(tally: Tally, seat_side: tuple[Side, Side], result: HandResult) -> None:
    tally.hands += 1
    if result.kind == "draw":
        tally.draws += 1
        return
    assert result.winner is not None  # only a drawn hand has no winner
    winner = seat_side[result.winner]
    winner.hands_won += 1
    winner.points += result.points
    if result.kind == "knock":
        winner.knocks_won += 1
    elif result.kind == "gin":
        winner.gins += 1
    elif result.kind == "big_gin":
        winner.big_gins += 1
    elif result.kind == "undercut":
        winner.undercuts += 1


def _play_pair(job: tuple[tuple[str, str], str, int, int, int | None, bool]) -> Tally:
    """Both matches of pair ``pair``: on the same deals (duplicate) or, with
    ``independent``, on deals of their own (the seats still alternate)."""
    levels, rules_name, seed, pair, budget, independent = job
    rules = RuleSet.preset(rules_name)
    tally = Tally()
    if independent:
        for swapped, deals in ((False, 2 * pair), (True, 2 * pair + 1)):
            match = play_match(levels, rules, -seed, deals, swapped=swapped, budget=budget)
            match.units.append((match.a.points - match.b.points, match.hands))
            tally.add(match)
        return tally
    for swapped in (False, True):
        tally.add(play_match(levels, rules, seed, pair, swapped=swapped, budget=budget))
    tally.units.append((tally.a.points - tally.b.points, tally.hands))
    return tally


def net_per_hand(units: list[tuple[int, int]], z: float = 1.96) -> tuple[float, float]:
    """(net points per hand, half-width of its 95% interval) over independent units of
    (net points, hands): the ratio of the sums, its error by the ratio estimator."""
    n = len(units)
    hands = sum(h for _, h in units)
    if not hands:
        return 0.0, 0.0
    ratio = sum(p for p, _ in units) / hands
    if n < 2:
        return ratio, math.inf
    mean_hands = hands / n
    spread = sum((p - ratio * h) ** 2 for p, h in units) / (n - 1)
    return ratio, z * math.sqrt(spread / n) / mean_hands


def elo_difference(rate: float) -> float:
    """The Elo rating difference at which the stronger side wins this share of matches
    (clamped to 0.1%..99.9%)."""
    rate = min(0.999, max(0.001, rate))
    return 400 * math.log10(rate / (1 - rate))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0 < q <= 100, nearest rank: the smallest sample with at
    least q% of the samples at or below it) of ``values``; NaN if empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(1, math.ceil(q / 100 * len(ordered))) - 1]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def run(
    a: str,
    b: str,
    matches: int,
    seed: int,
    rules_name: str = "default",
    jobs: int = 1,
    budget: int | None = None,
    independent: bool = False,
) -> Tally:
    """Play ``matches`` (rounded up to an even number) seat-swapped matches, in
    duplicate pairs unless ``independent``."""
    pairs = (matches + 1) // 2
    work = [((a, b), rules_name, seed, pair, budget, independent) for pair in range(pairs)]
    total = Tally()
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            for tally in pool.imap_unordered(_play_pair, work):
                total.add(tally)
    else:
        for job in work:
            total.add(_play_pair(job))
    return total


def report(a: str, b: str, tally: Tally) -> str:
    """The printed summary of an arena run."""
    low, high = wilson(tally.a.matches_won, tally.matches)
    rate = tally.a.matches_won / max(1, tally.matches)
    hands = max(1, tally.hands)
    net, half = tally.net_per_hand()
    lines = [
        f"matches: {tally.matches}   hands: {tally.hands}   drawn hands: {tally.draws}",
        f"match win rate of {a}: {tally.a.matches_won}/{tally.matches} = "
        f"{100 * rate:.1f}%   95% CI [{100 * low:.1f}%, {100 * high:.1f}%]",
        f"Elo difference ({a} - {b}): {elo_difference(rate):+.0f}   "
        f"95% CI [{elo_difference(low):+.0f}, {elo_difference(high):+.0f}]",
        f"points per hand: {a} {tally.a.points / hands:.2f}   {b} {tally.b.points / hands:.2f}   "
        f"net {net:+.2f} ± {half:.2f} (95%, over {len(tally.units)} "
        f"{'matches' if tally.matches == len(tally.units) else 'pairs'})",
    ]
    header = f"{'side':<12}{'hands won':>10}{'knocks':>8}{'gins':>6}{'big gins':>10}"
    header += f"{'undercuts':>11}"
    lines.append(header)
    for name, side in ((f"a={a}", tally.a), (f"b={b}", tally.b)):
        lines.append(
            f"{name:<12}{side.hands_won:>10}{side.knocks_won:>8}{side.gins:>6}"
            f"{side.big_gins:>10}{side.undercuts:>11}"
        )
    lines.append("decision time per move, ms: p50 / p95 / p99 / max (wall clock; CPU time)")
    for name, side in ((f"a={a}", tally.a), (f"b={b}", tally.b)):
        lines.append(f"{name:<12}{_spread(side.times_ms)}   (cpu {_spread(side.cpu_ms)})")
    return "\n".join(lines)


def _spread(times: list[float]) -> str:
    return (
        f"{percentile(times, 50):.1f} / {percentile(times, 95):.1f} / "
        f"{percentile(times, 99):.1f} / {max(times, default=0.0):.1f}"
    )


def add_level_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of every level-against-level measurement (the arena, bench/bothands.py):
    the two levels, the seed, the rules, the worker processes."""
    parser.add_argument("--a", required=True, choices=LEVELS, help="the level measured")
    parser.add_argument("--b", required=True, choices=LEVELS, help="its opponent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="default", choices=sorted(RuleSet.PRESETS))
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arena's options (shared by its two commands)."""
    add_level_arguments(parser)
    parser.add_argument("--matches", type=int, default=100, help="matches (rounded up to even)")
    parser.add_argument(
        "--budget", type=int, default=None, help="override the search budget (simulated turns)"
    )
    parser.add_argument(
        "--independent",
        action="store_true",
        help="give every match its own deals (default: duplicate pairs on the same deals)",
    )


def execute(options: dict[str, Any]) -> str:
    """Run the arena for parsed options and return the report text."""
    if options["matches"] < 1:
        raise ValueError("--matches must be at least 1")
    if options["jobs"] < 1:
        raise ValueError("--jobs must be at least 1")
    started = time.perf_counter()
    tally = run(
        options["a"],
        options["b"],
        options["matches"],
        options["seed"],
        options["rules"],
        options["jobs"],
        options["budget"],
        options.get("independent", False),
    )
    elapsed = time.perf_counter() - started
    deals = "independent deals" if options.get("independent") else "duplicate"
    title = (
        f"{options['a']} vs {options['b']}, rules {options['rules']}, seed {options['seed']}, "
        f"jobs {options['jobs']}, {deals}, {elapsed:.0f} s"
    )
    return title + "\n" + report(options["a"], options["b"], tally)


def main(argv: list[str] | None = None) -> int:
    """The arena as a program (``python -m bench.botarena``): options from ``argv``, the
    report printed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    add_arguments(parser)
    options = vars(parser.parse_args(argv))
    try:
        print(execute(options))
    except ValueError as error:
        parser.error(str(error))
    return 0

