"""Speed of the export verifier (``games.engine.verify``) and the size of exports.

Run: ``.venv/bin/python -m bench.verify --matches 200 --seed 1``

Matches are played in memory by the engine alone (no database): seeded deals, both
seats knocking or going gin as soon as they may and otherwise playing the clock's
move, to the Default preset's 100 points. Each is written as a ``gin-match/1``
document exactly as docs/export.md describes, then verified; the figures are the
verification time per match and per hand, and the document size (compact JSON).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

from games.engine import HandState, RuleSet, commitment, deal_cards, next_dealer, score_match
from games.engine.clock import timeout_action
from games.engine.verify import FORMAT, sign_export, verify_export


def play_document(rng: random.Random, number: int) -> dict:
    rules = RuleSet.default()
    hands, results, dealer = [], [], rng.randrange(2)
    while not score_match(rules, results).over:
        seed = rng.randbytes(32)
        state = HandState.deal(rules, dealer, seed)
        actions = []
        while not state.is_over:
            knocks = [a for a in state.legal_actions() if a["type"] in ("big_gin", "knock")]
            action = knocks[0] if knocks else timeout_action(state)
            actions.append({"seat": state.current_player, "action": action, "timeout": False})
            state, _ = state.apply(action)
        cards = deal_cards(seed, dealer)
        hands.append({
            "number": len(hands) + 1, "dealer": dealer, "commitment": commitment(seed),
            "seed": seed.hex(),
            "deal": {"hands": [[str(c) for c in cards.hands[0]], [str(c) for c in cards.hands[1]]],
                     "upcard": str(cards.upcard), "stock": [str(c) for c in cards.stock]},
            "actions": actions, "result": state.result.to_dict(),
        })
        results.append(state.result)
        dealer = next_dealer(dealer, state.result)
    final = score_match(rules, results)
    return sign_export({  # signed as the site signs (with a key of the benchmark's own)
        "format": FORMAT, "id": number, "variant": "default", "rules": rules.to_dict(),
        "players": [{"seat": s, "name": f"p{s}", "bot_level": None, "bot": False}
                    for s in (0, 1)],
        "hands": hands, "final": final.to_dict(), "end_reason": "target", "winner": final.winner,
    }, BENCH_KEY)


BENCH_KEY = bytes(range(32))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    documents = [play_document(rng, n) for n in range(1, args.matches + 1)]
    per_match, per_hand, sizes, hands, actions = [], [], [], 0, 0
    for document in documents:
        text = json.dumps(document, separators=(",", ":"))
        sizes.append(len(text))
        started = time.perf_counter()
        verify_export(json.loads(text))
        elapsed = (time.perf_counter() - started) * 1000
        per_match.append(elapsed)
        per_hand.append(elapsed / len(document["hands"]))
        hands += len(document["hands"])
        actions += sum(len(h["actions"]) for h in document["hands"])
    print(f"python {platform.python_version()}, {args.matches} matches to 100 (seed "
          f"{args.seed}), {hands} hands, {actions} actions")
    q = statistics.quantiles
    print(f"verify per match: median {statistics.median(per_match):.1f} ms, "
          f"p95 {q(per_match, n=20)[18]:.1f} ms")
    print(f"verify per hand:  median {statistics.median(per_hand):.2f} ms, "
          f"p95 {q(per_hand, n=20)[18]:.2f} ms")
    print(f"export size:      median {statistics.median(sizes) / 1024:.1f} KiB, "
          f"max {max(sizes) / 1024:.1f} KiB per match")


if __name__ == "__main__":
    main()
