"""Fair play's periodic job at the size of a busy site: what one run of the detection
(``fairplay.detect``, every 10 minutes) costs when the window holds many accounts.

Creates a separate PostgreSQL database (``gin_fpbench``; dropped at the end unless
``--keep``), migrates it and fills it in SQL: ``--players`` accounts with ratings,
``--matches`` rated matches between them over the last 30 days (a tenth of the players
fill 60% of the seats), each with its two accounts' judged decisions
(``MatchAccuracy``: 50-200 decisions, a mean loss around 0.6) and rating changes, of
which ``--recent`` finished in the last 10 minutes. Then it times, with the CPU of this
process and the wall clock:

- ``population``: the window's figures of every account (one aggregate query);
- the bands (``signals.Bands``) and the assistance check of the accounts that played in
  the last 10 minutes;
- the pair checks of the pairs that played in the last 10 minutes;
- a whole ``detection_run`` (it finds nothing to summarise: the rows are there).

    .venv/bin/python -m bench.fairplay [--players 10000] [--matches 200000] [--recent 600]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default=DEFAULT_SERVER, help="PostgreSQL server URL")
    parser.add_argument("--database", default="gin_fpbench")
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=200_000)
    parser.add_argument("--recent", type=int, default=600,
                        help="matches finished in the last 10 minutes")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    return parser.parse_args()


def url(server: str, database: str) -> str:
    parts = urlsplit(server)
    return urlunsplit((parts.scheme, parts.netloc, f"/{database}", "", ""))


def admin(server: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(url(server, "postgres"), autocommit=True) as conn:
        conn.execute(statement)


def timed(label: str, func, *args, **kwargs):
    cpu, wall = time.process_time(), time.perf_counter()
    result = func(*args, **kwargs)
    print(f"  {label:<58} {time.perf_counter() - wall:8.3f} s wall "
          f"{time.process_time() - cpu:8.3f} s CPU")
    return result


FILL = """
INSERT INTO accounts_user (id, password, is_superuser, username, first_name, last_name,
    email, is_staff, is_active, date_joined, is_guest, is_bot)
SELECT g, '!', FALSE, 'player' || g, '', '', '', FALSE, TRUE,
       now() - interval '400 days', FALSE, FALSE
FROM generate_series(1, %(players)s) AS g;
INSERT INTO leaderboards_rating (user_id, rating, deviation, volatility, rated_matches)
SELECT g, 1200 + random() * 600, 60, 0.06, 40 FROM generate_series(1, %(players)s) AS g;
CREATE TEMP TABLE bench_match AS
SELECT g AS id,
       CASE WHEN g > %(matches)s - %(recent)s THEN now() - random() * interval '10 minutes'
            ELSE now() - interval '11 minutes' - random() * interval '29 days' END AS at,
       p0, CASE WHEN p1 = p0 THEN 1 + mod(p0, %(players)s) ELSE p1 END AS p1
FROM (SELECT g,
        CASE WHEN random() < 0.6 THEN 1 + floor(random() * %(players)s / 10)::int
             ELSE 1 + floor(random() * %(players)s)::int END AS p0,
        CASE WHEN random() < 0.6 THEN 1 + floor(random() * %(players)s / 10)::int
             ELSE 1 + floor(random() * %(players)s)::int END AS p1
      FROM generate_series(1, %(matches)s) AS g) AS drawn;
INSERT INTO games_match (id, kind, variant, rules, status, version, rated, first_dealer,
    winner_seat, end_reason, finished_hands, aborted, created_at, started_at, finished_at)
SELECT id, 'friend', 'default', '{}', 'finished', 150, TRUE, 0, (random() < 0.5)::int,
       'target', '[]', FALSE, at, at, at FROM bench_match;
INSERT INTO games_seat (match_id, "index", user_id, bot_level, score, hands_won, gins,
    big_gins, undercuts, timeouts_in_row, connected)
SELECT id, 0, p0, '', 100, 3, 0, 0, 0, 0, FALSE FROM bench_match
UNION ALL SELECT id, 1, p1, '', 60, 2, 0, 0, 0, 0, FALSE FROM bench_match;
INSERT INTO leaderboards_ratingchange (user_id, match_id, rating_before, rating, deviation,
    volatility, at)
SELECT p, id, 1500, 1500 + (random() - 0.5) * 30, 60, 0.06, at
FROM (SELECT id, p0 AS p, at FROM bench_match UNION ALL SELECT id, p1, at FROM bench_match) s;
INSERT INTO fairplay_matchaccuracy (user_id, match_id, rating, decisions, loss_sum,
    loss_squares, agreements, finished_at)
SELECT p, id, 1200 + random() * 600, n, n * (0.4 + random() * 0.4), n * 6.0,
       floor(n * (0.90 + random() * 0.05))::int, at
FROM (SELECT id, p, at, 50 + floor(random() * 150)::int AS n
      FROM (SELECT id, p0 AS p, at FROM bench_match
            UNION ALL SELECT id, p1, at FROM bench_match) s) d;
SELECT setval(pg_get_serial_sequence('games_match', 'id'), %(matches)s + 1);
SELECT setval(pg_get_serial_sequence('accounts_user', 'id'), %(players)s + 1);
ANALYZE;
"""


def main() -> int:
    options = parse_args()
    admin(options.server, f'DROP DATABASE IF EXISTS "{options.database}" WITH (FORCE)')
    admin(options.server, f'CREATE DATABASE "{options.database}"')
    os.environ["DATABASE_URL"] = url(options.server, options.database)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from games.fairplay import services, signals
    from games.fairplay.models import DetectionRun

    try:
        print(f"{options.players} players, {options.matches} rated matches in 30 days "
              f"({options.recent} in the last 10 minutes)")
        timed("migrate", call_command, "migrate", verbosity=0)
        params = {"players": options.players, "matches": options.matches,
                  "recent": options.recent}
        with connection.cursor() as cursor:
            timed("fill", cursor.execute, FILL, params)
        now = timezone.now()
        people = timed("population (figures of every account)", services.population,
                       now=now)
        print(f"    {len(people)} accounts")
        bands = timed("bands", signals.Bands, people)
        print(f"    {len(bands.pool)} accounts with enough decisions")
        pairs = services.recent_pairs(since=now - services.timedelta(minutes=10))
        fresh = sorted({pk for pair in pairs for pk in pair})
        timed(f"assistance check of {len(fresh)} accounts",
              services.assistance_check, user_ids=fresh, now=now, people=people)
        endings = timed("quick endings of the window", services._quick_endings,
                        now - services.timedelta(days=services.WINDOW_DAYS))
        timed(f"pair checks of {len(pairs)} pairs",
              lambda: [services.pair_check(user_ids=p, now=now, endings=endings)
                       for p in pairs])
        DetectionRun.objects.create(started_at=now - services.timedelta(minutes=10)
                                    + services.OVERLAP)
        run = timed("detection_run (the whole job)", services.detection_run)
        print(f"    job's own CPU {run.cpu_seconds} s: {run.accounts_checked} accounts, "
              f"{run.pairs_checked} pairs checked, {run.cases_opened} cases opened")
    finally:
        connection.close()
        if not options.keep:
            admin(options.server, f'DROP DATABASE IF EXISTS "{options.database}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    sys.exit(main())
