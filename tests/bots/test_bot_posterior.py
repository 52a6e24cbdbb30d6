"""bench/botposterior.py, on which docs/benchmarks-log.md's "Issue 36: how much of the
opponent's hand its play tells" rests: the opponent's past hands it rebuilds and the
likelihoods it gives them are right where the answer is known (the true hands)."""

from __future__ import annotations

import random

from bench.botposterior import discard_likelihood, draw_likelihood, hand_at_discard, play_hand
from games.bots.cards import mask_of


def held(state: object, seat: int) -> int:
    return mask_of([str(card) for card in state.hands[seat]])  # type: ignore[attr-defined]


def test_the_true_hand_rebuilt_explains_the_opponents_play() -> None:
    rebuilt = likely = drawn_as = draws = worse = tried = 0
    for seed in (9800, 9801):
        steps = play_hand(seed)
        for i, (state, seat, _action) in enumerate(steps):
            if seat != 0 or state.phase != "draw":
                continue
            discards = [j for j in range(i)
                        if steps[j][1] == 1 and steps[j][2]["type"] == "discard"]
            if not discards:
                continue
            last = discards[-1]
            hand11 = hand_at_discard(held(state, 1), steps, last, i, random.Random(1))
            # Since its last discard the opponent has not moved: its hand then is exact.
            assert hand11 == held(steps[last][0], 1)
            rebuilt += 1
            # The default player made that discard: the true hand explains it fully.
            likely += discard_likelihood(steps, last, hand11, 0.05, 1.0) == 1.0
            # Other hands explain it less, as a rule: one card of it exchanged for the
            # pile's bottom card (never in either hand) often makes another discard best.
            thrown = mask_of([steps[last][2]["card"]])
            other = mask_of([str(state.discard_pile[0])])
            for card in range(52):
                if hand11 >> card & 1 and not thrown >> card & 1 and not other & hand11:
                    wrong = hand11 & ~(1 << card) | other
                    worse += discard_likelihood(steps, last, wrong, 0.05, 1.0) < 1.0
                    tried += 1
            if steps[last - 1][1] == 1 and steps[last - 1][0].phase == "draw":
                draws += 1
                drawn_as += draw_likelihood(steps, last - 1, hand11, random.Random(2), 0.05) > 0
    # A draw is weighed on the hand less a guessed stock card: never ruled out.
    assert draws >= 4 and drawn_as == draws
    assert rebuilt >= 8 and likely == rebuilt
    assert tried >= 50 and worse >= tried // 2
