"""Engine speed on one core: deadwood, best_knock, random playouts, and RLCard side by side.

Run: ``.venv/bin/python bench/engine.py`` (RLCard comes from the ``bench`` extra:
``.venv/bin/pip install -e '.[dev,bench]'``; without it that line is skipped).

Hands are generated first from a fixed seed, then each figure is the best of
``--repeat`` timed passes over the same hands. "Meld-rich" hands are drawn from a
window of 5 consecutive ranks (20 cards), so most of them hold several sets and runs.
RLCard's figure uses its gin rummy judge's own method for 11 cards: every meld cluster
from ``melding.get_meld_clusters``, its unmelded cards summed with
``utils.get_deadwood_value``, minimum kept (no cluster: every card counts).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import (
    Card,
    HandState,
    RuleSet,
    best_knock,
    best_melds,
    cards_to_mask,
    deadwood,
    deadwood_mask,
    new_deck,
)

DECK = new_deck()


def uniform_hands(rng: random.Random, count: int, size: int) -> list[list[Card]]:
    return [rng.sample(DECK, size) for _ in range(count)]


def meld_rich_hands(rng: random.Random, count: int, size: int) -> list[list[Card]]:
    hands = []
    for _ in range(count):
        low = rng.randint(1, 9)
        window = [card for card in DECK if low <= card.rank < low + 5]
        hands.append(rng.sample(window, size))
    return hands


def rate(function: Callable[[object], object], items: Sequence[object], repeat: int) -> float:
    """Items per second: the best of ``repeat`` passes."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for item in items:
            function(item)
        best = min(best, time.process_time() - start)
    return len(items) / best


def random_playout(seed: int) -> object:
    rng = random.Random(seed)
    state = HandState.deal(RuleSet.default(), seed % 2, seed.to_bytes(32, "big"))
    while not state.is_over:
        state, _ = state.apply(rng.choice(state.legal_actions()))
    return state.result


def rlcard_deadwood_function() -> Callable[[list[object]], int] | None:
    """RLCard's deadwood of a hand of RLCard cards, or None when rlcard is missing."""
    try:
        from rlcard.games.gin_rummy.utils import melding, utils
    except ImportError:
        return None

    def rlcard_deadwood(hand: list[object]) -> int:
        # As the judge's _get_going_out_cards scores 11-card hands: each cluster's
        # unmelded cards summed with get_deadwood_value (get_deadwood_count takes 10 only).
        best = sum(utils.get_deadwood_value(card) for card in hand)
        for cluster in melding.get_meld_clusters(hand=hand):
            meld_cards = [card for meld_pile in cluster for card in meld_pile]
            dead = [card for card in hand if card not in meld_cards]
            best = min(best, sum(utils.get_deadwood_value(card) for card in dead))
        return best

    return rlcard_deadwood


def to_rlcard(hands: list[list[Card]]) -> list[object]:
    from rlcard.games.gin_rummy.utils import utils

    return [[utils.card_from_text(str(card)) for card in hand] for hand in hands]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000, help="hands per measurement")
    parser.add_argument("--playouts", type=int, default=300, help="random playout hands")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes, best kept")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    n, repeat = args.hands, args.repeat

    sets = {
        "uniform 10": uniform_hands(rng, n, 10),
        "uniform 11": uniform_hands(rng, n, 11),
        "meld-rich 10": meld_rich_hands(rng, n, 10),
        "meld-rich 11": meld_rich_hands(rng, n, 11),
    }
    print(f"Python {platform.python_version()} on {platform.machine()}, one core; "
          f"{n} hands per line, best of {repeat}")
    rows: list[tuple[str, float]] = []
    for name, hands in sets.items():
        rows.append((f"deadwood(cards), {name}", rate(deadwood, hands, repeat)))
    for name in ("uniform 11", "meld-rich 11"):
        masks = [cards_to_mask(hand) for hand in sets[name]]
        rows.append((f"deadwood_mask(mask), {name}", rate(deadwood_mask, masks, repeat)))
    rows.append(("best_melds(cards), meld-rich 11", rate(best_melds, sets["meld-rich 11"],
                                                          repeat)))
    for name in ("uniform 11", "meld-rich 11"):
        rows.append((f"best_knock(cards), {name}", rate(best_knock, sets[name], repeat)))
    seeds = list(range(args.playouts))
    rows.append(("random playout hands (HandState)", rate(random_playout, seeds, 1)))

    rlcard_deadwood = rlcard_deadwood_function()
    if rlcard_deadwood is None:
        print("rlcard is not installed: pip install -e '.[bench]' for the comparison")
    else:
        from rlcard.games.gin_rummy.utils import melding

        rich = sets["meld-rich 11"]
        theirs = to_rlcard(rich)
        mismatches = sum(rlcard_deadwood(t) != deadwood(o) for t, o in zip(theirs, rich,
                                                                           strict=True))
        ours = rate(deadwood, rich, repeat)
        rl = rate(rlcard_deadwood, theirs, repeat)
        rows.append(("RLCard judge's deadwood, meld-rich 11", rl))
        rows.append(("RLCard get_meld_clusters alone (no scoring)",
                     rate(lambda hand: melding.get_meld_clusters(hand=hand), theirs, repeat)))
        rows.append(("  ours (same hands, same run)", ours))
        rows.append((f"  speed-up x{ours / rl:.1f}; answers differing: {mismatches}", 0.0))
    width = max(len(label) for label, _ in rows)
    for label, per_second in rows:
        figure = f"{per_second:>12,.0f} /s" if per_second else ""
        print(f"{label:<{width}}  {figure}")


if __name__ == "__main__":
    main()
