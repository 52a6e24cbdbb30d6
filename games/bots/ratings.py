"""Each computer level's Elo rating, anchored at easy = 1500: written by

    python -m bench.botratings \
        --result medium:easy:276:400 \
        --result hard:easy:311:420 \
        --result hard:medium:231:400 \
        --result expert:hard:110:200 \
        --result expert:easy:160:200 \
        --write

from these arena runs (duplicate matches to 100, default rules; commands and
figures in docs/benchmarks.md):

    medium vs easy: 276 of 400 matches won
    hard vs easy: 311 of 420 matches won
    hard vs medium: 231 of 400 matches won
    expert vs hard: 110 of 200 matches won
    expert vs easy: 160 of 200 matches won

Shown where a player chooses the computer's level. Do not edit by hand: rerun the
arena and the command above.
"""

from __future__ import annotations

RATINGS: dict[str, int] = {
    "easy": 1500,
    "medium": 1636,
    "hard": 1688,
    "expert": 1729,
}


def level_label(level: str) -> str:
    """The level's name with its rating, as players see it: "Expert ≈ 1700"."""
    return f"{level.capitalize()} ≈ {RATINGS[level]}"
