"""Match equity: the chance of winning a match from the points each player still
needs, and what a hand's points are worth to the match (expert's search values its
moves by it, ``games.bots.search``).

The model: either player wins a hand with even chance; its winner scores ``p`` points
toward the target with the probability in ``HAND_POINTS`` (the hands of medium
against itself under the default rules); drawn hands change
nothing. The first to reach the target wins the match: the game bonus outweighs
the line bonuses the other may have collected, in all but rare matches. ``win(a, b)``
is then a small dynamic programme over the two needs, computed once per target.

Far from the target a point is worth about the same as any other, and the search
chooses as it would by points; near it, points beyond what a player needs are worth
nothing, and a hand lost can end the match. So a player who needs 8 knocks as soon
as it can, and one whose opponent needs 8 stops waiting for gin.
"""

from __future__ import annotations

from functools import lru_cache

HAND_POINTS: tuple[tuple[int, float], ...] = (
    (2, 0.1054), (4, 0.1854), (7, 0.0952), (10, 0.0425), (13, 0.0459), (16, 0.0425),
    (19, 0.0408), (22, 0.0289), (25, 0.0680), (28, 0.0935), (31, 0.0935), (34, 0.0459),
    (37, 0.0357), (40, 0.0187), (43, 0.0153), (46, 0.0085), (49, 0.0136), (52, 0.0068),
    (55, 0.0034), (62, 0.0034), (68, 0.0017), (71, 0.0017), (74, 0.0017), (95, 0.0017),
)
"""(points toward the target of the hand's winner, probability), summing to 1, in
buckets of 3 points: ``python -m bench.bothands --a medium --b medium --pairs 600
--seed 7 --histogram`` (1,176 hands won of 1,200)."""


@lru_cache(maxsize=8)
def table(target: int) -> tuple[tuple[float, ...], ...]:
    """``table(t)[a][b]``: the chance that a player needing ``a`` points beats one
    needing ``b`` (0 < a, b <= t; a need of 0 has won)."""
    scale = sum(chance for _, chance in HAND_POINTS)  # the rounded shares sum to ~1
    hands = [(points, chance / scale) for points, chance in HAND_POINTS]
    rows = [[0.0] * (target + 1) for _ in range(target + 1)]
    for b in range(1, target + 1):
        rows[0][b] = 1.0
    for a in range(1, target + 1):
        row = rows[a]
        for b in range(1, target + 1):
            total = 0.0
            for points, chance in hands:
                total += chance * (rows[max(0, a - points)][b] + row[max(0, b - points)])
            row[b] = total / 2
    return tuple(tuple(row) for row in rows)


def win(need: int, opp_need: int, target: int) -> float:
    """The chance of winning the match when needing ``need`` against ``opp_need``."""
    if need <= 0:
        return 1.0
    if opp_need <= 0:
        return 0.0
    rows = table(max(target, need, opp_need))
    return rows[need][opp_need]


class Equity:
    """What a hand's outcome is worth to one player's chance of winning the match."""

    def __init__(self, need: int, opp_need: int, target: int, line_bonus: int) -> None:
        self.need = need
        self.opp_need = opp_need
        self.target = target
        self.line_bonus = line_bonus

    def endgame(self, need: int) -> bool:
        """Either player needs at most ``need`` points."""
        return min(self.need, self.opp_need) <= need

    def __call__(self, value: int) -> float:
        """``value``: the hand's points for us (negative: for the opponent), line bonus
        included as the playouts count it; the result is a chance in percent."""
        if value > 0:
            return 100 * win(self.need - (value - self.line_bonus), self.opp_need, self.target)
        if value < 0:
            return 100 * win(self.need, self.opp_need - (-value - self.line_bonus), self.target)
        return 100 * win(self.need, self.opp_need, self.target)
