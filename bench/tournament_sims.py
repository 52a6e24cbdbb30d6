"""Many seeds of the tournament simulator (games/tournaments/simulate.py, the engine of
``manage.py tournament_sim``), each summary checked against its format's rules
(``check_summary``: no repeated Swiss pairing, at most one bye each, every player at
most once a round, points, wins, losses and byes equal to the results, arena points
replayed with their streaks). Swiss and arena alternate; the number of players and
of rounds (or minutes) change with the seed, odd numbers included (byes).

    DATABASE_URL=postgres://.../gin_sims REDIS_URL=redis://.../N \\
        .venv/bin/python bench/tournament_sims.py --seeds 20

The database is migrated and used as is (the simulated players get fresh names).
Prints one line per tournament and the number of summaries that broke a rule; exits
with 1 if any did.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="tournaments to simulate")
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    import django

    django.setup()
    from django.core.management import call_command

    from ginsite.celery import app

    call_command("migrate", verbosity=0)
    app.conf.task_always_eager = True
    from games.tournaments.simulate import check_summary, simulate

    broken = 0
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        swiss = seed % 2 == 1
        players = 2 + (seed // 2) % 6  # 2 to 7, odd and even in both formats
        start = time.perf_counter()
        summary = simulate(format="swiss" if swiss else "arena", players=players,
                           rounds=2 + seed % 2 if swiss else None,
                           minutes=None if swiss else 2 + seed % 3, seed=seed)
        problems = check_summary(summary)
        broken += bool(problems)
        matches = sum(1 for p in summary["pairings"] if p["seat1"])
        byes = len(summary["pairings"]) - matches
        print(f"seed {seed:3d}: {summary['format']:5s} {players} players, {matches} matches, "
              f"{byes} byes, {time.perf_counter() - start:5.1f} s: "
              f"{'; '.join(problems) if problems else 'by the rules'}")
    print(f"{args.seeds} tournaments, {broken} broke a rule")
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
