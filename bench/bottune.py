"""Self-play tuning of the heuristic player's constants on duplicate hands.

    python -m bench.bottune --b medium --pairs 600 --seed 7 --jobs 2 \
        'danger=4' 'take_margin=1,shrink=2' ...

Each argument is a variant of ``games.bots.policy.Params`` (fields, or the evaluation
weights ``knockable``, ``gin``, ``danger``, ``stock_gain``; empty: medium's values;
``@hard``: a level; ``@expert:margin=1.5,budget=40000``: a search level with fields of
its ``games.bots.search.Config`` changed; ``@expert/stock_gain=0.5``: a search level
whose default player's constants are changed so) and is played against ``--b`` (a
level, or a variant) on the same duplicate hands as ``bench.bothands`` deals (same
seeds, seats exchanged). Printed per variant: net points per hand with its 95%
interval. Variants are compared on the same deals, so their differences are less
noisy than their intervals suggest.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import multiprocessing
import random
import sys
import time
from typing import Any

from games.bots import LEVELS, choose_action, policy, search
from games.bots.arena import net_per_hand
from games.bots.heuristics import Weights
from games.engine import HandState, RuleSet

WEIGHT_FIELDS = {f.name for f in dataclasses.fields(Weights)}


def parse_variant(text: str, base: policy.Params | None = None) -> policy.Params:
    """``'danger=4,shrink=2'`` as Params: medium's, or ``base``'s, with those changes."""
    base = base or policy.Params()
    fields: dict[str, Any] = {}
    weights: dict[str, float] = {}
    for item in filter(None, text.split(",")):
        name, value = item.split("=")
        if name in WEIGHT_FIELDS:
            weights[name] = float(value)
        elif name in ("full_turns", "floor"):
            fields[name] = int(value)
        else:
            fields[name] = float(value)
    return dataclasses.replace(
        base, weights=dataclasses.replace(base.weights, **weights), **fields
    )


@dataclasses.dataclass(frozen=True)
class Sight:
    """A player that is also shown the opponent's cards."""

    player: Any


def parse_player(text: str) -> Any:
    """A variant as a player: a level name, (level, search Config), Params or Sight."""
    if text.startswith("sight:"):
        return Sight(parse_player(text.removeprefix("sight:")))
    if text in LEVELS:
        return text
    if not text.startswith("@"):
        return parse_variant(text)
    text, _, param_changes = text[1:].partition("/")
    level, _, changes = text.partition(":")
    if not changes and not param_changes:
        return level
    config = search.LEVELS[level]
    fields: dict[str, Any] = {}
    for item in filter(None, changes.split(",")):
        name, value = item.split("=")
        fields[name] = int(value) if name in ("budget", "alternatives") else float(value)
    if param_changes:
        fields["params"] = parse_variant(param_changes, config.params)
    return level, dataclasses.replace(config, **fields)


def decide(
    player: Any,
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    rng: random.Random,
    scores: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """The action of ``player`` (``parse_player``'s: a level name, a search level with
    its Config, or a heuristic player's Params); ``scores`` as ``choose_action`` takes.
    A Sight player needs the opponent's cards, which only ``play_hand`` has."""
    if isinstance(player, Sight):
        raise ValueError("a 'sight:' player is played by bench.bottune's hands only")
    if isinstance(player, str):
        return choose_action(player, view, legal, rng, scores=scores)
    if isinstance(player, tuple):
        return search.choose(view, legal, rng, level=player[0], config=player[1], scores=scores)
    return policy.choose(view, legal, rng, player)


def set_levels(texts: list[str]) -> None:
    """Change search levels for this run: each text is a search variant without its
    ``@`` (``'expert:margin=1/stock_gain=0.5'``); forked worker processes inherit it."""
    for text in texts:
        level, config = parse_player(f"@{text}")
        search.LEVELS[level] = config


def play_hand(
    rules: RuleSet, players: tuple[Any, Any], seed: bytes, dealer: int
) -> list[int]:
    """One hand; a player is a level name or Params. Points won per seat."""
    state = HandState.deal(rules, dealer, seed)
    move = 0
    while not state.is_over:
        seat = state.current_player
        rng = random.Random(f"{seed.hex()}:{move}")
        player, view = players[seat], state.player_view(seat)
        if isinstance(player, Sight):
            view["opponent_known_cards"] = [str(card) for card in state.hands[1 - seat]]
            player = player.player
        action = decide(player, view, state.legal_actions(), rng)
        state, _ = state.apply(action)
        move += 1
    points = [0, 0]
    if state.result.winner is not None:
        points[state.result.winner] = state.result.points
    return points


def play_pair(job: tuple[str, str, str, int, int]) -> tuple[str, int, int]:
    """Both hands of pair ``index`` for one variant: (variant, index, its net points)."""
    variant, b_text, rules_name, seed, index = job
    a, b = parse_player(variant), parse_player(b_text)
    rules = RuleSet.preset(rules_name)
    deal = hashlib.sha256(f"hands:{seed}:{index}".encode()).digest()
    p1 = play_hand(rules, (a, b), deal, index % 2)
    p2 = play_hand(rules, (b, a), deal, index % 2)
    return variant, index, (p1[0] - p1[1]) + (p2[1] - p2[0])


def report(
    options: argparse.Namespace, by_variant: dict[str, dict[int, int]], elapsed: float
) -> None:
    """Print each variant's net points per hand over the pairs every variant has played."""
    common = set.intersection(*(set(nets) for nets in by_variant.values()))
    pairs = sorted(common)
    if not pairs:
        return
    first = options.variants[0]
    print(f"vs {options.b}, seed {options.seed}, {len(pairs)} pairs, {elapsed:.0f} s", flush=True)
    for variant, nets in by_variant.items():
        values = [nets[i] for i in pairs]
        net, half = net_per_hand([(n, 2) for n in values])
        diff, dhalf = net_per_hand([(nets[i] - by_variant[first][i], 2) for i in pairs])
        print(
            f"{variant or '(medium)':40s} {net:+.2f} [{net - half:+.2f}, {net + half:+.2f}]"
            f"   vs first: {diff:+.2f} ± {dhalf:.2f}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--b", default="medium", help="a level, or a variant as above")
    parser.add_argument("--rules", default="default")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="first pair's number")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    options = parser.parse_args(argv)
    work = [
        (v, options.b, options.rules, options.seed, i)
        for i in range(options.start, options.start + options.pairs)
        for v in options.variants
    ]
    started = time.perf_counter()
    by_variant: dict[str, dict[int, int]] = {v: {} for v in options.variants}
    with multiprocessing.Pool(options.jobs) as pool:
        for done, (variant, index, net) in enumerate(
            pool.imap_unordered(play_pair, work, chunksize=2), 1
        ):
            by_variant[variant][index] = net
            if done % (len(work) // 4 or 1) == 0 or done == len(work):
                report(options, by_variant, time.perf_counter() - started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
