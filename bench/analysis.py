"""Calibration and cost of the post-hand analysis (games/bots/analysis.py).

    python -m bench.analysis --hands 200 --seed 1 [--jobs 1] [--repeat 5 --sample 60]

Easy plays expert in whole matches to 100 (seat-swapped pairs on the same deal
seeds, as bench/botarena.py) until at least ``--hands`` hands are played; every
hand is analysed at the default setting. Printed per level: decisions, mean loss
per decision, the share labelled inaccuracy / mistake / blunder, mean accuracy
per hand; then the analysis CPU time per hand and per match (process time: run
with ``--jobs 1`` for clean figures). With ``--repeat R``, ``--sample`` decisions
drawn from the analysed hands are evaluated R more times with other seeds, and
the standard deviation of their loss is printed (median, 90th percentile, and by
label). Needs no Django.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

from bench.stats import percentile
from games.bots import choose_action
from games.bots.analysis import LABELS, analyse_decision, analyse_hand
from games.engine import HandState, RuleSet, next_dealer, score_match

LEVELS = ("easy", "expert")


@dataclass
class Played:
    """One hand as played: its deal, its actions, which level sat where."""

    key: str
    state: HandState
    actions: list[dict]
    seat_level: tuple[str, str]


@dataclass
class Tally:
    hands: int = 0
    matches: int = 0
    cpu_hands: list[float] = field(default_factory=list)
    cpu_matches: list[float] = field(default_factory=list)
    losses: dict[str, list[float]] = field(default_factory=lambda: {lv: [] for lv in LEVELS})
    labels: dict[str, list[str | None]] = field(default_factory=lambda: {lv: [] for lv in LEVELS})
    accuracy: dict[str, list[float]] = field(default_factory=lambda: {lv: [] for lv in LEVELS})
    played: list[Played] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.hands += other.hands
        self.matches += other.matches
        self.cpu_hands += other.cpu_hands
        self.cpu_matches += other.cpu_matches
        for lv in LEVELS:
            self.losses[lv] += other.losses[lv]
            self.labels[lv] += other.labels[lv]
            self.accuracy[lv] += other.accuracy[lv]
        self.played += other.played


def deal_seed(seed: int, pair: int, hand: int) -> bytes:
    return hashlib.sha256(f"bench-analysis:{seed}:{pair}:{hand}".encode()).digest()


def play_match(seed: int, pair: int, swapped: bool) -> Tally:
    """One easy-vs-expert match to 100, every hand analysed."""
    rules = RuleSet.default()
    seat_level = (LEVELS[1], LEVELS[0]) if swapped else LEVELS
    tally = Tally(matches=1)
    results = []
    dealer = 0
    match_cpu = 0.0
    for number in range(200):
        start = state = HandState.deal(rules, dealer, deal_seed(seed, pair, number))
        actions = []
        while not state.is_over:
            seat = state.current_player
            rng = random.Random(f"{seed}:{pair}:{swapped}:{number}:{len(actions)}")
            action = choose_action(
                seat_level[seat], state.player_view(seat), state.legal_actions(), rng
            )
            actions.append(action)
            state, _ = state.apply(action)
        key = f"{seed}:{pair}:{swapped}:{number}"
        cpu = time.process_time()
        analysis = analyse_hand(start, actions, seed=key)
        cpu = time.process_time() - cpu
        match_cpu += cpu
        tally.cpu_hands.append(cpu)
        tally.hands += 1
        tally.played.append(Played(key, start, actions, seat_level))
        for decision in analysis.decisions:
            level = seat_level[decision.seat]
            tally.losses[level].append(decision.loss)
            tally.labels[level].append(decision.label)
        for seat in (0, 1):
            if analysis.accuracy[seat] is not None:
                tally.accuracy[seat_level[seat]].append(analysis.accuracy[seat])
        results.append(state.result)
        if score_match(rules, results).over:
            tally.cpu_matches.append(match_cpu)
            return tally
        dealer = next_dealer(dealer, state.result)
    raise RuntimeError("a match did not end")


def _pair(job: tuple[int, int]) -> Tally:
    seed, pair = job
    tally = play_match(seed, pair, swapped=False)
    tally.add(play_match(seed, pair, swapped=True))
    return tally


def _repeat(job: tuple[Played, int, int, list[int]]) -> list[tuple[str | None, list[float]]]:
    """Losses of some decisions of one hand evaluated with ``repeats`` other seeds."""
    played, repeats, _, plies = job
    out = []
    state = played.state
    for ply, action in enumerate(played.actions):
        if ply in plies:
            first = analyse_decision(state, action, seed=played.key, ply=ply)
            losses = [first.loss] + [
                analyse_decision(state, action, seed=f"{played.key}:r{r}", ply=ply).loss
                for r in range(repeats)
            ]
            out.append((first.label, losses))
        state, _ = state.apply(action)
    return out


def run(hands: int, seed: int, jobs: int, repeat: int, sample: int) -> str:
    total = Tally()
    pair = 0
    started = time.perf_counter()
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    try:
        while total.hands < hands:
            batch = [(seed, pair + i) for i in range(max(1, jobs))]
            pair += len(batch)
            results = pool.map(_pair, batch) if pool else [_pair(j) for j in batch]
            for tally in results:
                total.add(tally)
        lines = [
            f"matches: {total.matches}   hands: {total.hands}   "
            f"wall time {time.perf_counter() - started:.0f} s",
        ]
        for level in LEVELS:
            losses = total.losses[level]
            labels = total.labels[level]
            n = max(1, len(losses))
            shares = "   ".join(
                f"{name} {100 * labels.count(name) / n:.2f}%" for name in LABELS
            )
            lines.append(
                f"{level:>6}: {len(losses)} decisions   mean loss {statistics.mean(losses):.2f} "
                f"points/decision   {shares}   mean hand accuracy "
                f"{statistics.mean(total.accuracy[level]):.1f}"
            )
        easy, expert = total.losses["easy"], total.losses["expert"]
        diff = statistics.mean(easy) - statistics.mean(expert)
        se = math.sqrt(
            statistics.variance(easy) / len(easy) + statistics.variance(expert) / len(expert)
        )
        lines.append(
            f"easy minus expert: {diff:.2f} points/decision   95% CI "
            f"[{diff - 1.96 * se:.2f}, {diff + 1.96 * se:.2f}]"
        )
        cpu = total.cpu_hands
        lines.append(
            f"analysis CPU per hand: mean {statistics.mean(cpu):.2f} s   p50 "
            f"{percentile(cpu, 50):.2f}   p90 {percentile(cpu, 90):.2f}   max {max(cpu):.2f}"
        )
        lines.append(
            f"analysis CPU per match to 100: mean {statistics.mean(total.cpu_matches):.2f} s   "
            f"p90 {percentile(total.cpu_matches, 90):.2f}   max {max(total.cpu_matches):.2f}"
        )
        if repeat:
            rng = random.Random(seed)
            spots = [
                (i, ply)
                for i, p in enumerate(total.played)
                for ply in range(len(p.actions))
            ]
            chosen = rng.sample(spots, min(sample, len(spots)))
            by_hand: dict[int, list[int]] = {}
            for i, ply in chosen:
                by_hand.setdefault(i, []).append(ply)
            work = [(total.played[i], repeat, i, plies) for i, plies in by_hand.items()]
            rows = pool.map(_repeat, work) if pool else [_repeat(w) for w in work]
            spreads = [(lab, statistics.pstdev(ls)) for row in rows for lab, ls in row]
            sds = [sd for _, sd in spreads]
            lines.append(
                f"loss SD over {repeat + 1} seeds, {len(sds)} decisions: median "
                f"{percentile(sds, 50):.2f}   p90 {percentile(sds, 90):.2f}   "
                f"max {max(sds):.2f}   mean {statistics.mean(sds):.2f}"
            )
            for name in (None, *LABELS):
                group = [sd for lab, sd in spreads if lab == name]
                if group:
                    lines.append(
                        f"  labelled {name or 'nothing'}: {len(group)} decisions, "
                        f"median SD {percentile(group, 50):.2f}, max {max(group):.2f}"
                    )
        return "\n".join(lines)
    finally:
        if pool:
            pool.close()
            pool.join()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=0)
    parser.add_argument("--sample", type=int, default=60)
    args = parser.parse_args(argv)
    print(run(args.hands, args.seed, args.jobs, args.repeat, args.sample))
    return 0


if __name__ == "__main__":
    sys.exit(main())
