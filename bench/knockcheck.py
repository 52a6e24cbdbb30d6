"""Issue 36 experiment (reverted with search.Config.knock_gain): where the knock check
would knock though hard's default player waits, what it wins on the true cards.

Hands of medium against medium (the default rules, dealt from SEED on); at each
decision where a knock is legal and hard's default player (policy.TUNED) waits, hard
with ``knock_gain`` GAIN is asked; where it knocks, the hand is branched (the knock
against the default player's discard) and each branch is played out by hard for both
seats on the cards that really lie. Prints each branched decision and the running mean
with its 95% interval.

    python -m bench.knockcheck GAIN SEED HANDS
"""

import dataclasses
import random
import statistics
import sys
import time

from games.bots import choose_action, policy, search
from games.bots.cards import TEXT
from games.bots.heuristics import Evaluator
from games.bots.knowledge import read_view
from games.bots.policy import knock_card
from games.engine import HandState, RuleSet

gain = float(sys.argv[1])
seed0 = int(sys.argv[2])
n = int(sys.argv[3])
cfg = dataclasses.replace(search.LEVELS["hard"], knock_gain=gain)


def rest(state, me, tag):
    m = 0
    while not state.is_over:
        seat = state.current_player
        a = choose_action(
            "hard", state.player_view(seat), state.legal_actions(), random.Random(f"{tag}:{m}")
        )
        state, _ = state.apply(a)
        m += 1
    r = state.result
    return 0 if r.winner is None else (r.points if r.winner == me else -r.points)


diffs = []
checked = 0
t0 = time.process_time()
for s in range(seed0, seed0 + n):
    rng = random.Random(s)
    state = HandState.deal(RuleSet.default(), s % 2, rng.randbytes(32))
    while not state.is_over:
        seat = state.current_player
        view = state.player_view(seat)
        legal = state.legal_actions()
        k = read_view(view)
        knock = knock_card(k.hand, legal) if k.phase == "discard" else None
        if knock is not None and knock[0] > 0 and not policy.should_knock(k, knock, policy.TUNED):
            checked += 1
            a = search.choose(
                view, legal, random.Random(f"{s}:{len(state.history)}"), level="hard", config=cfg
            )
            if a["type"] == "knock":
                forbidden = 1 << k.taken if k.taken is not None else 0
                best = TEXT[
                    Evaluator(k, policy.TUNED.weights).discard_scores(k.hand, forbidden)[0][1]
                ]
                wait = next(x for x in legal if x["type"] == "discard" and x["card"] == best)
                tag = f"{s}:{len(state.history)}"
                d = rest(state.apply(a)[0], seat, tag) - rest(state.apply(wait)[0], seat, tag)
                diffs.append(d)
                se = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0
                print(
                    f"seed {s} opp_turns {k.opp_turns} dw {knock[0]}: {d:+d}   n={len(diffs)} "
                    f"mean {statistics.mean(diffs):+.2f} ± {1.96 * se:.2f}  (checked {checked}, "
                    f"{time.process_time() - t0:.0f} CPU s)",
                    flush=True,
                )
        a = choose_action("medium", view, legal, rng)
        state, _ = state.apply(a)
print("DONE", len(diffs), statistics.mean(diffs) if diffs else None, checked)
