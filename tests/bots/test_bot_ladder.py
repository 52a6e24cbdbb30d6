"""The ladder's smoke test: on fixed duplicate hands each level nets more points
than the level below it (medium over easy, hard over medium).

Each pair of hands deals the same cards twice with the two levels' seats
exchanged (as ``bench/bothands.py`` does), so the luck of the deal cancels; the
deals are fixed and the search budget is counted in simulated turns, so the
outcome reproduces exactly and cannot be flaky. The samples are far too small to
measure strength (the figures are in docs/benchmarks.md, "The ladder (issue
16)"): the test catches a change that makes a level clearly weaker than the one
below it on these deals. When written, medium netted +289 points over easy on its
20 pairs and hard +120 over medium on its 16 (about 1.5 s and 15 s of CPU).
Expert over hard is not checked here: a pair of expert hands costs about 9 s of
CPU, and a sample small enough for the suite says nothing about its wider search.
"""

from __future__ import annotations

import pytest

from games.engine import RuleSet

from .helpers import play_hand, seed_bytes

RUNGS = [
    # (upper level, lower level, pairs of hands)
    ("medium", "easy", 20),
    ("hard", "medium", 16),
]


def net_points(upper: str, lower: str, pairs: int) -> int:
    """``upper``'s points minus ``lower``'s over ``pairs`` seat-swapped pairs of hands."""
    net = 0
    for n in range(pairs):
        seed = seed_bytes("ladder", n)
        for seats in ((upper, lower), (lower, upper)):
            result = play_hand(RuleSet.default(), seats, seed, dealer=n % 2).result
            if result.winner is not None:
                sign = 1 if seats[result.winner] == upper else -1
                net += sign * result.points
    return net


@pytest.mark.parametrize(("upper", "lower", "pairs"), RUNGS)
def test_each_level_outscores_the_one_below(upper: str, lower: str, pairs: int) -> None:
    assert net_points(upper, lower, pairs) > 0
