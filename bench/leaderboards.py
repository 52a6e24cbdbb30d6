"""Leaderboard benchmark: board recomputation and page latency at scale.

Creates a separate PostgreSQL database (``gin_lbbench`` by default; dropped at the end
unless ``--keep``), migrates it, and fills it in SQL (generate_series, no ORM loops)
with 10,000 players and 200,000 finished matches of 5 hands each (1,000,000 hands)
spread over the last 365 days: 85 % rated human matches, 15 % against the computer;
a tenth of the players (the regulars) fill 60 % of the seats. Then it prints:

- the time of the weekly and monthly recomputation (first computation and re-run),
  and of the computer-opponent boards;
- the rating update per match (the Celery task's work, run in-process);
- the leaderboard pages' latency (p50/p95 over many requests with Django's test
  client, signed in as a player ranked outside the top 100), with the Python CPU
  time and the SQL time per request, and query counts: this and last week, this and
  last month, the rating board, the expert computer board.

    .venv/bin/python bench/leaderboards.py [--players 10000] [--matches 200000]

Targets (issue 6): each recomputation <= 5 s, page p95 <= 50 ms, query count
independent of the number of players.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bench.stats import percentile

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default=DEFAULT_SERVER, help="PostgreSQL server URL")
    parser.add_argument("--database", default="gin_lbbench")
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=200_000)
    parser.add_argument("--hands-per-match", type=int, default=5)
    parser.add_argument("--requests", type=int, default=300, help="requests per page")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="measure again on a database kept by an earlier --keep run (migrated, not refilled)",
    )
    return parser.parse_args()


def server_url(server: str, database: str) -> str:
    parts = urlsplit(server)
    return urlunsplit((parts.scheme, parts.netloc, f"/{database}", "", ""))


def recreate_database(server: str, database: str) -> None:
    import psycopg

    with psycopg.connect(server_url(server, "postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{database}"')


def drop_database(server: str, database: str) -> None:
    import psycopg

    with psycopg.connect(server_url(server, "postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def timed(label: str, func, *args, **kwargs):
    start = time.perf_counter()
    result = func(*args, **kwargs)
    elapsed = time.perf_counter() - start
    print(f"  {label:<52} {elapsed:8.3f} s")
    return result, elapsed


def insert_select(cursor, model, exprs: dict[str, str], source: str) -> None:
    """INSERT INTO model's table SELECT ``exprs`` FROM ``source``; every other NOT NULL
    column gets the field's default, so new model fields with defaults need no change."""
    from django.db import connection

    columns, values, params = [], [], []
    for field in model._meta.concrete_fields:
        if field.column in exprs:
            columns.append(field.column)
            values.append(exprs[field.column])
        elif not field.primary_key and not field.null:
            default = field.get_default()  # "" for text fields without a default
            if default is None:
                raise RuntimeError(f"{model.__name__}.{field.name}: no value and no default")
            columns.append(field.column)
            values.append("%s")
            params.append(field.get_db_prep_save(default, connection))
    quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
    sql = f"INSERT INTO {model._meta.db_table} ({quoted}) SELECT {', '.join(values)} FROM {source}"
    cursor.execute(sql, params)


def fill(players: int, matches: int, hands_per_match: int) -> None:
    from django.db import connection, transaction

    from accounts.models import User
    from games.models import Hand, Match, Seat
    from leaderboards.models import Rating

    with transaction.atomic(), connection.cursor() as cur:
        cur.execute("SELECT setseed(0.42)")
        insert_select(
            cur,
            User,
            {
                "id": "g",
                "username": "'player' || lpad(g::text, 5, '0')",
                "password": "'!'",
                "email": "'player' || g || '@example.com'",
                "is_active": "TRUE",
                "is_guest": "FALSE",
                "date_joined": "now() - interval '400 days'",
            },
            f"generate_series(1, {players}) AS g",
        )
        # One row per match: when, rated or computer, and the two players. Activity is
        # skewed as on a real site: a tenth of the players (the regulars) fill 60 % of
        # the seats, so weekly boards have a few hundred players with 5+ matches.
        regulars = max(players // 10, 2)
        pick = f"""CASE WHEN random() < 0.6 THEN 1 + floor(random() * {regulars})::int
                        ELSE 1 + floor(random() * {players})::int END"""
        cur.execute(
            f"""
            CREATE TEMP TABLE bench_match AS
            SELECT id, finished_at, rated, p0,
                   CASE WHEN p1 = p0 THEN 1 + mod(p0, {players}) ELSE p1 END AS p1, bot
            FROM (
                SELECT g AS id,
                       now() - random() * interval '365 days' AS finished_at,
                       (g % 20) < 17 AS rated,
                       {pick} AS p0, {pick} AS p1,
                       (ARRAY['easy', 'medium', 'hard', 'expert'])[1 + g % 4] AS bot
                FROM generate_series(1, {matches}) AS g
            ) AS drawn
            """
        )
        cur.execute(
            f"""
            CREATE TEMP TABLE bench_hand AS
            SELECT m.id AS match_id, k AS number, (random() < 0.5)::int AS winner,
                   random() < 0.12 AS gin, 5 + floor(random() * 40)::int AS points,
                   m.finished_at - ({hands_per_match} - k) * interval '3 minutes' AS finished_at
            FROM bench_match m CROSS JOIN generate_series(1, {hands_per_match}) AS k
            """
        )
        cur.execute(
            """
            CREATE TEMP TABLE bench_seat AS
            SELECT h.match_id, s.idx,
                   SUM(CASE WHEN h.winner = s.idx THEN h.points ELSE 0 END)::int AS points,
                   COUNT(*) FILTER (WHERE h.winner = s.idx)::int AS hands_won,
                   COUNT(*) FILTER (WHERE h.winner = s.idx AND h.gin)::int AS gins
            FROM bench_hand h CROSS JOIN generate_series(0, 1) AS s(idx)
            GROUP BY h.match_id, s.idx;
            CREATE TEMP TABLE bench_winner AS
            SELECT a.match_id, CASE WHEN a.points >= b.points THEN 0 ELSE 1 END AS winner
            FROM bench_seat a JOIN bench_seat b ON b.match_id = a.match_id AND b.idx = 1
            WHERE a.idx = 0
            """
        )
        insert_select(
            cur,
            Match,
            {
                "id": "m.id",
                "kind": "CASE WHEN m.rated THEN 'quick' ELSE 'computer' END",
                "rules": "'{}'::jsonb",
                "status": "'finished'",
                "rated": "m.rated",
                "winner_seat": "w.winner",
                "end_reason": "'target'",
                "created_at": f"m.finished_at - {hands_per_match + 1} * interval '3 minutes'",
                "started_at": f"m.finished_at - {hands_per_match} * interval '3 minutes'",
                "finished_at": "m.finished_at",
            },
            "bench_match m JOIN bench_winner w ON w.match_id = m.id",
        )
        insert_select(
            cur,
            Seat,
            {
                "match_id": "s.match_id",
                "index": "s.idx",
                "user_id": "CASE WHEN s.idx = 0 THEN m.p0 WHEN m.rated THEN m.p1 END",
                "bot_level": "CASE WHEN s.idx = 1 AND NOT m.rated THEN m.bot ELSE '' END",
                "score": "s.points + CASE WHEN w.winner = s.idx THEN 100 ELSE 0 END",
                "hands_won": "s.hands_won",
                "gins": "s.gins",
            },
            """bench_seat s JOIN bench_match m ON m.id = s.match_id
               JOIN bench_winner w ON w.match_id = s.match_id""",
        )
        insert_select(
            cur,
            Hand,
            {
                "match_id": "h.match_id",
                "number": "h.number",
                "dealer": "mod(h.number, 2)",
                "seed": "decode(md5(h.match_id || '-' || h.number), 'hex')",
                "seed_hash": "md5(h.match_id::text) || md5(h.number::text)",
                "state": "'{}'::jsonb",
                "result_kind": "CASE WHEN h.gin THEN 'gin' ELSE 'knock' END",
                "winner_seat": "h.winner",
                "points": "h.points",
                "started_at": "h.finished_at - interval '3 minutes'",
                "finished_at": "h.finished_at",
            },
            "bench_hand h",
        )
        insert_select(
            cur,
            Rating,
            {
                "user_id": "u.id",
                "rating": "1500 + 400 * (random() - 0.5)",
                "deviation": "50 + 150 * random()",
                "rated_matches": "1 + floor(100 * random())::int",
                "updated_at": "now()",
            },
            f"{User._meta.db_table} u",
        )
        for model in (User, Match):
            table = model._meta.db_table
            sequence = f"pg_get_serial_sequence('{table}', 'id')"
            cur.execute(f"SELECT setval({sequence}, (SELECT max(id) FROM {table}))")
        cur.execute("DROP TABLE bench_match, bench_hand, bench_seat, bench_winner")
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE")


def bench_page(client, url: str, requests: int) -> dict:
    """Time ``requests`` GETs of ``url`` after 20 warm-up ones: wall time, this process's
    CPU time (Python, template rendering) and the time spent waiting on SQL."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    sql_time = [0.0]

    def timed_sql(execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            sql_time[0] += time.perf_counter() - start

    for _ in range(20):  # warm-up: connections, template cache
        client.get(url)
    samples, cpu, sql = [], [], []
    with connection.execute_wrapper(timed_sql):
        for _ in range(requests):
            sql_time[0] = 0.0
            start, start_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            samples.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            sql.append(sql_time[0] * 1000)
            assert response.status_code == 200, (url, response.status_code)
    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    figures = {
        "url": url,
        "p50": statistics.median(samples),
        "p95": percentile(samples, 95),
        "max": max(samples),
        "cpu": statistics.median(cpu),
        "sql": statistics.median(sql),
        "queries": len(ctx.captured_queries),
    }
    print(
        f"  {url:<32} p50 {figures['p50']:5.1f} ms  p95 {figures['p95']:5.1f} ms  "
        f"max {figures['max']:6.1f} ms  (Python CPU p50 {figures['cpu']:4.1f} ms, "
        f"SQL p50 {figures['sql']:4.1f} ms)  {figures['queries']} queries"
    )
    return figures


def main() -> None:
    args = parse_args()
    os.environ["DATABASE_URL"] = server_url(args.server, args.database)
    os.environ.pop("REDIS_URL", None)  # no broker or cache traffic: tasks run in-process
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")
    sys.path.insert(0, str(ROOT))

    if not args.reuse:
        recreate_database(args.server, args.database)
    try:
        run(args)
    finally:
        if not (args.keep or args.reuse):
            from django.db import connections

            connections.close_all()
            drop_database(args.server, args.database)


def run(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import Exists, OuterRef
    from django.test import Client
    from django.utils import timezone

    from accounts.models import User
    from games.models import Hand, Match
    from leaderboards.models import BoardEntry, RatingChange
    from leaderboards.periods import PeriodKind, period_containing
    from leaderboards.services import (
        board_recompute,
        computer_boards_recompute,
        rating_apply_match,
    )

    settings.DEBUG = False  # no query log overhead; the static storage stays the plain one
    print(
        f"PostgreSQL {connection.cursor().connection.info.server_version}, database {args.database}"
    )
    timed("migrate", call_command, "migrate", verbosity=0)  # a kept database too
    if not args.reuse:
        total_hands = args.matches * args.hands_per_match
        timed(
            f"fill {args.players:,} players, {args.matches:,} matches, {total_hands:,} hands",
            fill,
            args.players,
            args.matches,
            args.hands_per_match,
        )
    print(
        f"{User.objects.count():,} players, {Match.objects.count():,} matches, "
        f"{Hand.objects.count():,} hands; load average {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} cores"
    )

    now = timezone.now()
    print("Recomputation (target <= 5 s each)")
    current_week = period_containing(PeriodKind.WEEK, now)
    current_month = period_containing(PeriodKind.MONTH, now)
    last_week, last_month = current_week.previous(), current_month.previous()
    for period, label in [
        (current_week, "this week"),
        (last_week, "last week (full)"),
        (current_month, "this month"),
        (last_month, "last month (full)"),
    ]:
        timed(f"{label}: first computation", board_recompute, period=period, now=now)
        board, _ = timed(
            f"{label}: re-run", board_recompute, period=period, now=now, refinalise=True
        )
        entries = BoardEntry.objects.filter(board=board)
        ranked = entries.filter(rank__isnull=False).count()
        print(f"    {period.label}: {entries.count():,} players, {ranked:,} ranked")
    timed("computer-opponent boards (all time, 2 levels)", computer_boards_recompute)
    with connection.cursor() as cur:
        cur.execute("ANALYZE")  # what autovacuum does after the boards' first inserts

    recent = list(
        Match.objects.filter(rated=True)
        .exclude(Exists(RatingChange.objects.filter(match=OuterRef("pk"))))
        .order_by("-finished_at")
        .values_list("pk", flat=True)[:1000]
    )
    applied, elapsed = timed(
        f"rating update of {len(recent):,} matches (the per-match task's work)",
        lambda: sum(rating_apply_match(match_id=pk) for pk in reversed(recent)),
    )
    assert applied == len(recent), (applied, len(recent))
    print(f"    {elapsed / len(recent) * 1000:.1f} ms per match")

    print(f"Pages ({args.requests} requests each, signed in as a player outside the top 100)")
    this_week = BoardEntry.objects.filter(
        board__kind="week", board__period_start=current_week.start
    ).select_related("user")
    viewer = (
        this_week.filter(rank__gt=100).order_by("rank").first()
        or this_week.filter(rank__isnull=True).first()
        or this_week.order_by("-rank").first()
    ).user
    client = Client(HTTP_HOST="localhost")
    client.force_login(viewer)
    year, week = last_week.url_args
    year_of_month, month = last_month.url_args
    print(f"  load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    pages = [
        bench_page(client, url, args.requests)
        for url in [
            "/leaderboards/",
            "/leaderboards/month/",
            f"/leaderboards/week/{year}/{week}/",
            f"/leaderboards/month/{year_of_month}/{month}/",
            "/leaderboards/rating/",
            "/leaderboards/computer/expert/",
        ]
    ]
    print(f"  load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    worst = max(pages, key=lambda page: page["p95"])
    verdict = "meets" if worst["p95"] <= 50 else "MISSES"
    print(f"  worst p95: {worst['p95']:.1f} ms ({worst['url']}): {verdict} the 50 ms target")


if __name__ == "__main__":
    main()
