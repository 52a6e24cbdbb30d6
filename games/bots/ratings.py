"""Each computer level's Elo rating, anchored at easy = 1500: written by

    python -m bench.botratings \
        --result medium:easy:276:400 \
        --result hard:easy:43:60 \
        --result hard:medium:48:80 \
        --result expert:hard:11:20 \
        --write

from these arena runs (duplicate matches to 100, default rules; commands and
figures in docs/benchmarks.md):

    medium vs easy: 276 of 400 matches won
    hard vs easy: 43 of 60 matches won
    hard vs medium: 48 of 80 matches won
    expert vs hard: 11 of 20 matches won

Shown where a player chooses the computer's level. Do not edit by hand: rerun the
arena and the command above.
"""

from __future__ import annotations

RATINGS: dict[str, int] = {
    "easy": 1500,
    "medium": 1635,
    "hard": 1687,
    "expert": 1720,
}


def level_label(level: str) -> str:
    """The level's name with its rating, as players see it: "Expert ≈ 1700"."""
    return f"{level.capitalize()} ≈ {RATINGS[level]}"
