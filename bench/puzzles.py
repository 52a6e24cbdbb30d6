"""Puzzles (issue 32): how many the generator keeps per CPU minute and their themes,
and whether the puzzle ratings mean something (the computer levels, answering through
the API as players would, come out ordered).

Creates a separate PostgreSQL database (``gin_puzzlebench``; dropped at the end unless
``--keep``) and migrates it, then:

1. **generate**: plays ``--self-play`` hands of the computer against itself (medium
   against medium, dealt from ``--seed`` on) and keeps their puzzles with
   ``services.puzzles_generate`` (games/learn/core/puzzles.py: screened in 32 worlds,
   re-evaluated in 192, a lead of 5 points, no near copies), timing this process's
   CPU; prints the tally, puzzles kept per CPU minute and the theme mix.
2. **levels** (``--attempts N``, 0 to skip): one account per computer level answers N
   puzzles, the levels in turn, through the API (``GET /api/puzzle/next``,
   ``POST /api/puzzle/{id}/answer`` with an API token, Django's test client), choosing
   with ``games.bots.choose_action``
   on the puzzle's view; prints each level's puzzle rating, deviation and 95% interval
   (rating ± 1.96 deviations) and the share solved.

3. **deviation floor** (``--deviation-floor``, alone: no database): what deviation a
   player's puzzle rating keeps after ``--attempts`` answers when every answer is its
   own Glicko-2 rating period, as the site rates them (a simulated player solving 80%
   of puzzles rated 1500; the volatility adds back to the deviation at each period),
   and so how far apart two levels' ratings must be for their 95% intervals not to
   overlap.

    nice -n 19 .venv/bin/python -m bench.puzzles [--self-play 300] [--attempts 300]
    .venv/bin/python -m bench.puzzles --deviation-floor --attempts 300
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from itertools import pairwise
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432"
LEVELS = ("easy", "medium", "hard", "expert")
CHUNK = 10


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default=DEFAULT_SERVER, help="PostgreSQL server URL")
    parser.add_argument("--database", default="gin_puzzlebench")
    parser.add_argument("--self-play", type=int, default=300, help="self-play hands to mine")
    parser.add_argument("--target", type=int, default=0,
                        help="mine until this many puzzles are kept (instead of --self-play)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--attempts", type=int, default=300, help="answers per level (0: skip)")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--keep", action="store_true", help="keep the database")
    parser.add_argument("--reuse", action="store_true",
                        help="use the database as it is (puzzles of an earlier --keep run)")
    parser.add_argument("--deviation-floor", action="store_true",
                        help="only print the deviation left after --attempts answers")
    return parser.parse_args()


def url(server: str, database: str) -> str:
    parts = urlsplit(server)
    return urlunsplit((parts.scheme, parts.netloc, f"/{database}", "", ""))


def admin(server: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(url(server, "postgres"), autocommit=True) as conn:
        conn.execute(statement)


def generate(options: argparse.Namespace) -> None:
    from games.learn import services
    from games.learn.core.puzzles import THEMES
    from games.learn.models import Puzzle

    totals: Counter[str] = Counter()
    cpu = 0.0
    hands = 0
    seed = options.seed
    while (options.target and Puzzle.objects.count() < options.target) or (
        not options.target and hands < options.self_play
    ):
        started = time.process_time()
        tally = services.puzzles_generate(self_play=CHUNK, seed=seed)
        cpu += time.process_time() - started
        seed += CHUNK
        hands += CHUNK
        for key in ("decisions", "screened_out", "near_copies", "kept"):
            totals[key] += tally[key]
        print(f"  {hands} hands: {totals['kept']} kept, {cpu / 60:.1f} CPU min", flush=True)
    kept = Puzzle.objects.count()
    print(f"generate: {hands} self-play hands (seeds {options.seed}..{seed - 1}), "
          f"{totals['decisions']} decisions with a choice, {totals['screened_out']} not clear, "
          f"{totals['near_copies']} near copies, {totals['kept']} kept")
    print(f"  {cpu:.0f} CPU s: {totals['kept'] / (cpu / 60):.1f} puzzles kept per CPU minute "
          f"({totals['decisions'] / (cpu / 60):.0f} decisions judged per CPU minute)")
    themes: Counter[str] = Counter()
    phases: Counter[str] = Counter()
    ratings: Counter[int] = Counter()
    for puzzle in Puzzle.objects.all():
        themes.update(puzzle.themes or ["(none)"])
        phases[puzzle.view["phase"]] += 1
        ratings[int(puzzle.rating)] += 1
    print("  themes (a puzzle may have several): " + ", ".join(
        f"{t} {themes[t]} ({100 * themes[t] / kept:.0f}%)" for t in (*THEMES, "(none)")))
    print("  phases: " + ", ".join(f"{p} {n}" for p, n in phases.most_common()))
    print("  starting ratings: " + ", ".join(f"{r} {n}" for r, n in sorted(ratings.items())))


def levels(options: argparse.Namespace) -> None:
    from django.test import Client

    from games.api.tokens import api_token_create
    from games.bots import choose_action
    from games.learn.models import PuzzlePlayer
    from games.learn.selectors import puzzle_player
    from tests.factories import create_user

    host = os.environ.get("ALLOWED_HOSTS", "localhost").split(",")[0]
    players = {}
    for level in options.levels.split(","):
        user = create_user(f"puzzle-{level}", bot=True)
        _row, token = api_token_create(user=user, name="bench")
        client = Client(HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_HOST=host)
        players[level] = {"user": user, "client": client, "solved": 0, "cpu": 0.0,
                          "rng": random.Random(f"{options.seed}:{level}"), "done": False}
    # Round robin: one answer of each level in turn, so that every level meets the same
    # pool of puzzles as the answers move its ratings (one level after another, the
    # later ones would meet puzzles the earlier ones had already moved).
    for _n in range(options.attempts):
        for level, p in players.items():
            if p["done"]:
                continue
            started = time.process_time()
            asked = p["client"].get("/api/puzzle/next")
            if asked.status_code != 200:
                print(f"  {level}: no puzzle left")
                p["done"] = True
                continue
            puzzle = asked.json()
            action = choose_action(level, puzzle["view"], puzzle["legal_actions"], p["rng"])
            if action["type"] == "draw":
                action = {"type": "draw", "source": action["source"]}
            answer = p["client"].post(f"/api/puzzle/{puzzle['id']}/answer",
                                      data=json.dumps({"action": action}),
                                      content_type="application/json")
            assert answer.status_code == 200, answer.content
            p["solved"] += answer.json()["correct"]
            p["cpu"] += time.process_time() - started
    results = {}
    for level, p in players.items():
        row = PuzzlePlayer.objects.get(user=p["user"])
        low, high = row.rating - 1.96 * row.deviation, row.rating + 1.96 * row.deviation
        results[level] = (row.rating, low, high)
        print(f"  {level:7s} rating {row.rating:7.1f}  deviation {row.deviation:5.1f}  "
              f"95% [{low:7.1f}, {high:7.1f}]  solved {p['solved']}/{row.attempts} "
              f"({100 * p['solved'] / max(1, row.attempts):.0f}%)  {p['cpu']:.0f} CPU s",
              flush=True)
        assert puzzle_player(user=p["user"])["attempts"] == row.attempts
    names = list(results)
    ordered = all(results[a][0] < results[b][0] for a, b in pairwise(names))
    apart = all(results[a][2] < results[b][1] for a, b in pairwise(names))
    print(f"levels: ratings ordered {' < '.join(names)}: {ordered}; "
          f"95% intervals apart: {apart}")


def deviation_floor(attempts: int) -> None:
    from leaderboards.glicko2 import DEFAULT_VOLATILITY, GameResult, Glicko2Rating, rate

    for volatility in (DEFAULT_VOLATILITY, DEFAULT_VOLATILITY / 3):
        for puzzle_deviation in (250.0, 100.0, 50.0):
            rng = random.Random(1)
            player = Glicko2Rating(1500.0, 350.0, volatility)
            for _n in range(attempts):
                puzzle = Glicko2Rating(1500.0, puzzle_deviation, DEFAULT_VOLATILITY)
                player = rate(player, [GameResult(puzzle, float(rng.random() < 0.8))])
            print(f"  volatility {volatility:.3f}, puzzles' deviation {puzzle_deviation:3.0f}: "
                  f"deviation after {attempts} answers {player.deviation:5.1f}: two levels' "
                  f"95% intervals are apart only if their ratings differ by "
                  f"{2 * 1.96 * player.deviation:3.0f} or more", flush=True)


def main() -> int:
    options = parse_args()
    if options.deviation_floor:
        sys.path.insert(0, str(ROOT))
        deviation_floor(options.attempts)
        return 0
    if not options.reuse:
        admin(options.server, f'DROP DATABASE IF EXISTS "{options.database}" WITH (FORCE)')
        admin(options.server, f'CREATE DATABASE "{options.database}"')
    os.environ["DATABASE_URL"] = url(options.server, options.database)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    # The levels answer as fast as they choose: above the API's rate limit per token.
    os.environ.setdefault("API_REQUESTS_PER_MINUTE", "1000000")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    try:
        call_command("migrate", verbosity=0)
        if not options.reuse:
            generate(options)
        if options.attempts:
            # Only puzzles no one has answered yet (an earlier --keep run's answers moved
            # the ratings of theirs).
            from games.learn.models import Puzzle

            Puzzle.objects.filter(attempts__gt=0).delete()
            levels(options)
    finally:
        if not options.keep:
            from django.db import connections

            connections.close_all()
            admin(options.server, f'DROP DATABASE IF EXISTS "{options.database}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    sys.exit(main())
