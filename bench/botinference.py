"""Fit and check the learned card model (``games.bots.inference``) by self-play.

    python -m bench.botinference --hands 3000 --test 1000 --seed 11 --jobs 2

Plays hands between two players (``--player``, bench/bottune.py's syntax; hard's
default player by default: it decides as hard does where hard's search keeps its
move, most of the time, at a thousandth of the cost) and, at every decision after the
opponent's first turn, records for each card the deciding seat has not seen the
model's features and whether the opponent holds it. Fits the logistic model (the
log-odds of the base rate, the unknown cards over the unseen, as offset) on the first
``--hands`` hands by Newton's method, and prints, on the ``--test`` hands after them,
the mean log loss and Brier score of the opponent-holds probabilities of three
models: the base rate alone, the fixed factors (``Knowledge.opp_probabilities``) and
the fitted model (the same normalisation), then the coefficients to paste into
``games.bots.inference.COEFFICIENTS``.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import multiprocessing
import random
import sys
import time

import numpy as np

from bench.bottune import decide, parse_player
from games.bots.cards import INDEX as INDEX_OF
from games.bots.cards import TEXT
from games.bots.inference import FEATURES, card_features, opponent_events
from games.bots.knowledge import read_view
from games.engine import HandState, RuleSet

TUNED = "gin=14,full_turns=3,shrink=2,floor=0"

Row = tuple[list[float], float, float, int, int]
"""(features, offset, fixed model's probability, label, position id)."""


def hand_rows(job: tuple[str, int, int]) -> list[Row]:
    """Play one hand; the rows of every decision after the opponent's first turn."""
    player_text, seed, index = job
    player = parse_player(player_text)
    deal = hashlib.sha256(f"inference:{seed}:{index}".encode()).digest()
    state = HandState.deal(RuleSet.preset("default"), index % 2, deal)
    rows: list[Row] = []
    move = 0
    while not state.is_over:
        seat = state.current_player
        view = state.player_view(seat)
        k = read_view(view)
        if k.opp_turns >= 1 and k.opp_unknown > 0:
            unseen = k.unseen.bit_count()
            q = k.opp_unknown / unseen
            offset = math.log(q / (1 - q)) if q < 1 else 20.0
            fixed = k.opp_probabilities()
            held = {str(c) for c in state.hands[1 - seat]}
            position = index * 1000 + move
            for card, row in card_features(k, opponent_events(view)).items():
                rows.append((row, offset, fixed[card], int(TEXT[card] in held), position))
        rng = random.Random(f"{deal.hex()}:{move}")
        state, _ = state.apply(decide(player, view, state.legal_actions(), rng))
        move += 1
    return rows


def collect(player: str, seed: int, start: int, count: int, jobs: int) -> list[Row]:
    work = [(player, seed, i) for i in range(start, start + count)]
    rows: list[Row] = []
    with multiprocessing.Pool(jobs) as pool:
        for part in pool.imap(hand_rows, work, chunksize=8):
            rows.extend(part)
    return rows


def fit(rows: list[Row], ridge: float = 1.0) -> np.ndarray:
    """Logistic regression with offset, by Newton's method (a small ridge for stability)."""
    x = np.array([r[0] for r in rows])
    off = np.array([r[1] for r in rows])
    y = np.array([r[3] for r in rows], dtype=float)
    beta = np.zeros(x.shape[1])
    for _ in range(25):
        z = np.clip(x @ beta + off, -30, 30)
        p = 1 / (1 + np.exp(-z))
        grad = x.T @ (y - p) - ridge * beta
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.max(np.abs(step)) < 1e-6:
            break
    return beta


def normalised(rows: list[Row], raw: np.ndarray) -> np.ndarray:
    """Probabilities scaled per position to sum to its unknown count (as
    ``Knowledge.opp_probabilities`` does, capped at 0.97), from unnormalised weights."""
    out = np.zeros(len(rows))
    by_pos: dict[int, list[int]] = {}
    for i, r in enumerate(rows):
        by_pos.setdefault(r[4], []).append(i)
    for idx in by_pos.values():
        q = 1 / (1 + math.exp(-rows[idx[0]][1]))
        need = q * len(idx)
        w = raw[idx]
        p = need * w / w.sum()
        out[idx] = np.minimum(p, 0.97)
    return out


def shifted(rows: list[Row], z: np.ndarray) -> np.ndarray:
    """Probabilities sigmoid(z + a) with ``a`` per position such that they sum to its
    unknown count (``games.bots.inference.probabilities``)."""
    out = np.zeros(len(rows))
    by_pos: dict[int, list[int]] = {}
    for i, r in enumerate(rows):
        by_pos.setdefault(r[4], []).append(i)
    for idx in by_pos.values():
        q = 1 / (1 + math.exp(-rows[idx[0]][1]))
        need = q * len(idx)
        zz = z[idx]
        lo, hi = -30.0, 30.0
        for _ in range(40):
            a = (lo + hi) / 2
            if (1 / (1 + np.exp(-(zz + a)))).sum() > need:
                hi = a
            else:
                lo = a
        out[idx] = 1 / (1 + np.exp(-(zz + (lo + hi) / 2)))
    return out


def scores(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    p = np.clip(p, 1e-4, 1 - 1e-4)
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    return float(loss), float(np.mean((p - y) ** 2))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--player", default=TUNED)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--test", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--worlds", type=int, default=0, help="measure the discard model with this many worlds"
    )
    options = parser.parse_args(argv)
    if options.worlds:
        work = [(options.player, options.seed, i, options.worlds) for i in range(options.hands)]
        rows = []
        with multiprocessing.Pool(options.jobs) as pool:
            for part in pool.imap_unordered(world_losses, work):
                rows.extend(part)
        means = np.array(rows).mean(axis=0)
        print(f"{len(rows)} positions; log loss of expert's worlds {means[0]:.4f};"
              " with the discard model:")
        for t, m in zip(TEMPERATURES, means[1:], strict=True):
            print(f"    temperature {t}: {m:.4f}")
        return 0
    started = time.perf_counter()
    train = collect(options.player, options.seed, 0, options.hands, options.jobs)
    test = collect(options.player, options.seed, options.hands, options.test, options.jobs)
    print(f"{len(train)} training rows, {len(test)} test rows, {time.perf_counter() - started:.0f} s")
    beta = fit(train)
    y = np.array([r[3] for r in test], dtype=float)
    base = np.array([1 / (1 + math.exp(-r[1])) for r in test])
    fixed = np.array([r[2] for r in test])
    x = np.array([r[0] for r in test])
    learned = normalised(test, np.exp(np.clip(x @ beta, -20, 20)))
    logistic = shifted(test, x @ beta)
    for name, p in (("base rate", base), ("fixed factors", fixed), ("learned, scaled", learned),
                    ("learned, logistic", logistic)):
        loss, brier = scores(p, y)
        print(f"{name:15s} log loss {loss:.4f}  Brier {brier:.4f}")
    for name, b in zip(FEATURES, beta, strict=True):
        print(f"    {name:24s} {b:+.3f}")
    print("COEFFICIENTS = (" + ", ".join(f"{b:.3f}" for b in beta) + ")")
    return 0



TEMPERATURES = (0.5, 1.0, 2.0, 4.0)


def world_losses(job: tuple[str, int, int, int]) -> list[list[float]]:
    """One hand: at each draw of either seat right after the opponent's discard, the log
    loss over the unseen cards of the opponent-holds marginals from ``worlds`` sampled
    worlds weighted as expert weighs them, then also by the discard model at each
    temperature of TEMPERATURES."""
    from games.bots.behaviour import FLOOR, last_discard
    from games.bots.policy import TUNED as TUNED_PARAMS
    from games.bots.worlds import SQUARE_PULL, sample_worlds

    player_text, seed, index, count = job
    player = parse_player(player_text)
    deal = hashlib.sha256(f"inference:{seed}:{index}".encode()).digest()
    state = HandState.deal(RuleSet.preset("default"), index % 2, deal)
    out: list[list[float]] = []
    move = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        view = state.player_view(seat)
        rng = random.Random(f"{deal.hex()}:{move}")
        k = read_view(view)
        model = last_discard(view, TUNED_PARAMS.weights) if k.phase == "draw" else None
        if model is not None and k.opp_unknown > 0:
            held = sum(1 << INDEX_OF[str(c)] for c in state.hands[1 - seat])
            worlds = sample_worlds(k, random.Random(move), count, SQUARE_PULL)
            gaps = []
            for _, hand, _ in worlds:
                gaps.append(model.likelihood_gap(hand))
            row = []
            weightings = [[w for w, _, _ in worlds]]
            for t in TEMPERATURES:
                weightings.append(
                    [w * max(FLOOR, math.exp(-g / t)) for (w, _, _), g in zip(worlds, gaps, strict=True)]
                )
            unseen = [c for c in range(52) if k.unseen >> c & 1]
            for ws in weightings:
                total = sum(ws) or 1.0
                loss = 0.0
                for c in unseen:
                    p = sum(w for w, (_, hand, _) in zip(ws, worlds, strict=True) if hand >> c & 1) / total
                    p = min(0.99, max(0.01, p))
                    loss -= math.log(p if held >> c & 1 else 1 - p)
                row.append(loss / len(unseen))
            out.append(row)
        state, _ = state.apply(decide(player, view, state.legal_actions(), rng))
        move += 1
    return out


if __name__ == "__main__":
    sys.exit(main())
