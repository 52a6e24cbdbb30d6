"""A small statistical smoke test: medium outscores easy over a hundred seat-swapped hands.

The real strength figures come from the arena benchmark (docs/benchmarks.md);
this only catches a level that has become clearly weaker than the baseline. The
deals are fixed, so the outcome is reproducible, not flaky.
"""

from __future__ import annotations

from games.engine import RuleSet

from .helpers import play_hand, seed_bytes


def test_medium_outscores_easy_over_seat_swapped_hands() -> None:
    points = {"medium": 0, "easy": 0}
    won = {"medium": 0, "easy": 0}
    for n in range(50):
        for seats in (("medium", "easy"), ("easy", "medium")):
            result = play_hand(
                RuleSet.default(), seats, seed_bytes("smoke", n), dealer=n % 2
            ).result
            if result.winner is not None:
                points[seats[result.winner]] += result.points
                won[seats[result.winner]] += 1
    assert points["medium"] > 1.2 * points["easy"], (points, won)
