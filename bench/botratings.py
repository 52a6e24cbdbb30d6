"""Elo ratings of the computer levels from arena results, anchored at easy.

    python -m bench.botratings --result medium:easy:276:400 --result hard:easy:140:200 ...
                               [--write]

Each ``--result A:B:WINS:MATCHES`` is one arena run (``python -m bench.botarena``):
level A won WINS of MATCHES matches against level B. The ratings are the maximum
likelihood fit of the Elo model (A beats B with probability
1 / (1 + 10 ** ((R_B - R_A) / 400))) to all the runs at once, easy fixed at
``ANCHOR``. Printed with each level's 95% interval (from the fit's curvature);
``--write`` stores them in ``games/bots/ratings.py`` (with the runs and this
command in its docstring), from where the site shows them where a player chooses
the computer's level.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from games.bots import LEVELS

ANCHOR = 1500
"""The rating of the easy level, to which the others are relative."""
SCALE = 400 / math.log(10)
RATINGS_FILE = Path(__file__).resolve().parent.parent / "games" / "bots" / "ratings.py"

Result = tuple[str, str, int, int]


def parse_result(text: str) -> Result:
    """``A:B:WINS:MATCHES`` as a tuple; ValueError with the reason if malformed."""
    parts = text.split(":")
    if len(parts) != 4:
        raise ValueError(f"a result is A:B:WINS:MATCHES, not {text!r}")
    a, b, wins_text, matches_text = parts
    for level in (a, b):
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} in {text!r}")
    if a == b:
        raise ValueError(f"a result needs two different levels: {text!r}")
    try:
        wins, matches = int(wins_text), int(matches_text)
    except ValueError:
        raise ValueError(f"wins and matches must be whole numbers: {text!r}") from None
    if matches < 1 or not 0 <= wins <= matches:
        raise ValueError(f"need 0 <= WINS <= MATCHES and MATCHES >= 1: {text!r}")
    return a, b, wins, matches


def fit(results: list[Result]) -> dict[str, tuple[float, float]]:
    """Per level: (rating, half-width of its 95% interval), easy fixed at ANCHOR.

    Newton's method on the log-likelihood; half a win is added to both sides of
    every run so that a clean sweep has a finite rating. Every level must be
    connected to easy through the runs.
    """
    others = sorted({lv for r in results for lv in r[:2]} - {"easy"}, key=LEVELS.index)
    levels = ["easy", *others]
    free = levels[1:]
    linked = {"easy"}
    for _ in levels:
        for a, b, _, _ in results:
            if a in linked or b in linked:
                linked |= {a, b}
    if set(levels) - linked or "easy" not in {lv for r in results for lv in r[:2]}:
        raise ValueError("every level must be linked to easy by the results")
    rating = {level: 0.0 for level in levels}
    for _ in range(100):
        grad = {level: 0.0 for level in free}
        hess = {(x, y): 0.0 for x in free for y in free}
        for a, b, wins, matches in results:
            p = 1 / (1 + math.exp(rating[b] - rating[a]))
            score = (wins + 0.5) - (matches + 1) * p
            curve = (matches + 1) * p * (1 - p)
            for x, sign_x in ((a, 1), (b, -1)):
                if x not in grad:
                    continue
                grad[x] += sign_x * score
                for y, sign_y in ((a, 1), (b, -1)):
                    if y in grad:
                        hess[(x, y)] += sign_x * sign_y * curve
        step = _solve([[hess[(x, y)] for y in free] for x in free], [grad[x] for x in free])
        for x, delta in zip(free, step, strict=True):
            rating[x] += delta
        if max((abs(d) for d in step), default=0.0) < 1e-10:
            break
    inverse = _invert([[hess[(x, y)] for y in free] for x in free])
    out = {"easy": (float(ANCHOR), 0.0)}
    for i, x in enumerate(free):
        out[x] = (ANCHOR + SCALE * rating[x], 1.96 * SCALE * math.sqrt(max(0.0, inverse[i][i])))
    return out


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    inverse = _invert(matrix)
    return [sum(row[j] * vector[j] for j in range(len(vector))) for row in inverse]


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse of a small positive definite matrix."""
    n = len(matrix)
    aug = [row[:] + [float(i == j) for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(aug[r][col]))
        aug[col], aug[pivot] = aug[pivot], aug[col]
        lead = aug[col][col]
        if abs(lead) < 1e-12:
            raise ValueError("the results do not determine every rating")
        aug[col] = [v / lead for v in aug[col]]
        for r in range(n):
            if r != col and aug[r][col]:
                factor = aug[r][col]
                aug[r] = [v - factor * w for v, w in zip(aug[r], aug[col], strict=True)]
    return [row[n:] for row in aug]


def module_text(results: list[Result], ratings: dict[str, tuple[float, float]]) -> str:
    """The source of ``games/bots/ratings.py`` for these results."""
    command = "python -m bench.botratings" + "".join(
        f" \\\n        --result {a}:{b}:{w}:{m}" for a, b, w, m in results
    )
    runs = "\n".join(f"    {a} vs {b}: {w} of {m} matches won" for a, b, w, m in results)
    values = "\n".join(f'    "{lv}": {round(ratings[lv][0])},' for lv in LEVELS if lv in ratings)
    return f'''"""Each computer level's Elo rating, anchored at easy = {ANCHOR}: written by

    {command} \\
        --write

from these arena runs (duplicate matches to 100, default rules; commands and
figures in docs/benchmarks.md):

{runs}

Shown where a player chooses the computer's level. Do not edit by hand: rerun the
arena and the command above.
"""

from __future__ import annotations

RATINGS: dict[str, int] = {{
{values}
}}


def level_label(level: str) -> str:
    """The level's name with its rating, as players see it: "Expert ≈ 1700"."""
    return f"{{level.capitalize()}} ≈ {{RATINGS[level]}}"
'''


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--result", action="append", default=[], help="A:B:WINS:MATCHES")
    parser.add_argument("--write", action="store_true", help=f"write {RATINGS_FILE.name}")
    options = parser.parse_args(argv)
    try:
        results = [parse_result(text) for text in options.result]
        if not results:
            raise ValueError("give at least one --result")
        ratings = fit(results)
    except ValueError as error:
        parser.error(str(error))
    for level in LEVELS:
        if level in ratings:
            value, half = ratings[level]
            print(f"{level:<8}{value:7.0f}   95% CI [{value - half:.0f}, {value + half:.0f}]")
    missing = [level for level in LEVELS if level not in ratings]
    if options.write:
        if missing:
            parser.error(f"cannot write ratings without results for {', '.join(missing)}")
        RATINGS_FILE.write_text(module_text(results, ratings))
        print(f"written to {RATINGS_FILE.relative_to(RATINGS_FILE.parent.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
