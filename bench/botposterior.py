"""How much of the opponent's hand its past discards tell, read as the search levels'
default player would make them (issue 36: docs/benchmarks-log.md, "Issue 36: perfect
reading in matches" says the target lies in an inference that reads most of that hand).

    python -m bench.botposterior --hands 60 --seed 9800 --worlds 300 --depth 1 2 4

Hands of the tuned default player (``policy.TUNED``, hard's and expert's default move)
against itself. At seat 0's draws from the opponent's fourth turn on, the worlds the
search levels sample (``games.bots.worlds.sample_worlds``, hard's pull) are weighted
again by the likelihood of the opponent's last ``depth`` discards: for each, its hand
then is rebuilt from the world's hand (the cards discarded since put back, the cards
taken since taken out, a card drawn from the stock since chosen at random among those
that can have been), scored from its view as the default player scores discards, and
the discard it made weighs ``max(floor, exp(-(its score - the best score) / temperature))``
(``floor`` too if the default player would have knocked). The opponent's view then is
the engine's, with the rebuilt hand: only what it could see. Printed per depth, over the
decisions: the share of the opponent's unknown cards the worlds give (the mean
probability of its true hidden cards: 1 is a complete reading), the log loss of every
unseen card's probability, and the worlds' effective number. Exact for this opponent
but for the one stock draw guessed per world and past discard; an upper bound for
opponents that play otherwise. Pure: the engine and ``games.bots`` only.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import time
from typing import Any

from games.bots import policy
from games.bots.cards import TEXT, deadwood, indices, mask_of
from games.bots.heuristics import Evaluator
from games.bots.knowledge import read_view
from games.bots.worlds import LINEAR_PULL, sample_worlds
from games.engine import HandState, RuleSet

PLAYER = policy.TUNED
Step = tuple[HandState, int, dict[str, Any]]


def play_hand(seed: int) -> list[Step]:
    """One hand of the default player against itself: (state before, seat, action)."""
    deal = hashlib.sha256(f"posterior:{seed}".encode()).digest()
    state = HandState.deal(RuleSet.default(), seed % 2, deal)
    steps: list[Step] = []
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        view = state.player_view(seat)
        action = policy.choose(view, state.legal_actions(), random.Random(f"{seed}:{len(steps)}"),
                               PLAYER)
        steps.append((state, seat, action))
        state, _events = state.apply(action)
    return steps


def seen_by_seat0(state: HandState) -> int:
    """The cards seat 0 holds or sees on the pile at ``state``: none was in the stock."""
    return mask_of([str(c) for c in (*state.hands[0], *state.discard_pile)])


def hand_at_discard(now: int, steps: list[Step], j: int, until: int, rng: random.Random) -> int:
    """The opponent's 11 cards before its discard at ``steps[j]``, rebuilt from its
    10 cards ``now`` (at ``steps[until]``) by undoing its moves since; 0 if the world
    cannot have led here."""
    hand = now
    state_j = steps[j][0]
    picked = mask_of([str(s.discard_pile[-1]) for s, seat, a in steps[:until]
                      if seat == 1 and a["type"] == "draw" and a["source"] == "discard"])
    # A card drawn from the stock after j was in the stock then: in neither seat 0's
    # hand nor the pile, and never one taken from the pile.
    not_stock = seen_by_seat0(state_j) | picked
    for state, seat, action in reversed(steps[j + 1:until]):
        if seat != 1:
            continue
        if action["type"] == "discard":
            hand |= mask_of([action["card"]])
        elif action["type"] == "draw" and action["source"] == "discard":
            hand &= ~mask_of([str(state.discard_pile[-1])])
        elif action["type"] == "draw":
            could = indices(hand & ~not_stock)
            if not could:
                return 0
            hand &= ~(1 << rng.choice(could))
    hand |= mask_of([steps[j][2]["card"]])
    return hand if hand.bit_count() == 11 else 0


def discard_likelihood(steps: list[Step], j: int, hand11: int, floor: float, temp: float) -> float:
    """How likely the default player throws the card it threw at ``steps[j]`` with
    ``hand11`` (its view then, its hand replaced)."""
    state, seat, action = steps[j]
    view = state.player_view(seat)
    view["hand"] = [TEXT[c] for c in indices(hand11)]
    k = read_view(view)
    thrown = indices(mask_of([action["card"]]))[0]
    forbidden = 1 << k.taken if k.taken is not None else 0
    if k.taken is not None and not hand11 >> k.taken & 1:
        return 0.0
    best_knock = min(
        (deadwood(hand11 & ~(1 << c)) for c in indices(hand11 & ~forbidden)), default=99
    )
    if best_knock <= k.knock_limit and policy.should_knock(k, (best_knock, {}), PLAYER):
        return floor  # it would have knocked
    scores = Evaluator(k, PLAYER.weights).discard_scores(hand11, forbidden)
    best = scores[0][0]
    mine = next((s for s, c in scores if c == thrown), None)
    if mine is None:
        return 0.0
    return max(floor, math.exp(-(mine - best) / temp))


def draw_likelihood(steps: list[Step], j: int, hand11: int, rng: random.Random,
                    floor: float) -> float:
    """How likely the default player draws as it did at ``steps[j]`` (a draw, followed
    by its discard with ``hand11``): 1 if it would, ``floor`` if not."""
    state, seat, action = steps[j]
    if action["source"] == "discard":
        drawn = mask_of([str(state.discard_pile[-1])])
    else:
        known = mask_of([str(c) for c in state.known[seat]])
        could = indices(hand11 & ~seen_by_seat0(state) & ~known)
        if not could:
            return 0.0
        drawn = 1 << rng.choice(could)
    if not hand11 & drawn:
        return 0.0
    view = state.player_view(seat)
    view["hand"] = [TEXT[c] for c in indices(hand11 & ~drawn)]
    k = read_view(view)
    chosen = policy.choose_draw(k, Evaluator(k, PLAYER.weights), state.legal_actions(), PLAYER)
    return 1.0 if chosen.get("source") == action.get("source") else floor


def measure(options: argparse.Namespace) -> dict[int, list[tuple[float, float, float]]]:
    """Per depth: (read share, log loss, effective worlds) of every decision measured."""
    found: dict[int, list[tuple[float, float, float]]] = {d: [] for d in options.depth}
    found[0] = []
    for n in range(options.hands):
        seed = options.seed + n
        steps = play_hand(seed)
        for i, (state, seat, _action) in enumerate(steps):
            if seat != 0 or state.phase != "draw":
                continue
            discards = [j for j in range(i) if steps[j][1] == 1
                        and steps[j][2]["type"] == "discard"]
            if len(discards) < 3:
                continue
            k = read_view(state.player_view(0))
            truth = mask_of([str(c) for c in state.hands[1]])
            hidden = indices(truth & ~k.opp_known)
            unseen = indices(k.unseen)
            rng = random.Random(f"{seed}:{i}:worlds")
            worlds = sample_worlds(k, rng, options.worlds, LINEAR_PULL)
            for depth in [0, *options.depth]:
                weights = []
                for weight, opp_hand, _stock in worlds:
                    for j in discards[-depth:] if depth else []:
                        if weight <= 0:
                            break
                        hand11 = hand_at_discard(opp_hand, steps, j, i, rng)
                        weight *= hand11 and discard_likelihood(
                            steps, j, hand11, options.floor, options.temperature)
                        drew = steps[j - 1]
                        if options.draws and hand11 and drew[0].phase == "draw" and drew[1] == 1:
                            weight *= draw_likelihood(steps, j - 1, hand11, rng, options.floor)
                    weights.append(weight)
                total = sum(weights)
                if total <= 0:
                    continue
                probs = dict.fromkeys(unseen, 0.0)
                for w, (_w0, opp_hand, _stock) in zip(weights, worlds, strict=True):
                    for c in indices(opp_hand & k.unseen):
                        probs[c] += w / total
                share = sum(probs[c] for c in hidden) / max(1, len(hidden))
                loss = -sum(
                    math.log(min(1 - 1e-3, max(1e-3, probs[c] if c in hidden else 1 - probs[c])))
                    for c in unseen
                ) / max(1, len(unseen))
                effective = total * total / sum(w * w for w in weights)
                found[depth].append((share, loss, effective))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=300)
    parser.add_argument("--depth", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--floor", type=float, default=0.05)
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--draws", action="store_true",
                        help="each of those turns' draws weighs too (1 as the default player "
                             "draws, the floor if not)")
    options = parser.parse_args()
    started = time.process_time()
    found = measure(options)
    print(f"{options.hands} hands from seed {options.seed}, {options.worlds} worlds, "
          f"floor {options.floor}, temperature {options.temperature}, "
          f"{'draws and discards' if options.draws else 'discards'}, "
          f"{time.process_time() - started:.0f} CPU s")
    print("discards read | decisions | share of the hidden hand read | log loss | effective worlds")
    for depth in sorted(found):
        rows = found[depth]
        if not rows:
            continue
        n = len(rows)
        share = sum(r[0] for r in rows) / n
        spread = math.sqrt(sum((r[0] - share) ** 2 for r in rows) / max(1, n - 1) / n)
        print(f"{depth or 'none (as sampled)':>13} | {n:>9} | {share:.3f} ± {1.96 * spread:.3f} | "
              f"{sum(r[1] for r in rows) / n:.4f} | {sum(r[2] for r in rows) / n:.0f}")


if __name__ == "__main__":
    main()
