"""Tournament benchmark (issue 14's targets), on the configured PostgreSQL and Redis:

- arena pairing: the pure pass over 500 waiting players; the service passes (locks,
  match creation) at 500 entrants when all wait (the start, in slices of
  ``services.ARENA_PASS_PAIRS`` matches) and when a few wait (the steady state); the
  time from a finished match to its players' next pairing;
- Swiss 256 x 8: each round paired by the service (pure pairing time too);
- the tournament page at 500 entrants (p50/p95 over requests with Django's client),
  and the first request after each new standings version (ranked again);
- the standings fan-out: 500 open tournament sockets (in this process, the Redis
  channel layer), time from the publish to the last socket receiving it; then the
  same over real WebSockets to 1 and 2 daphne processes of bench/stack.py.

    DATABASE_URL=postgres://.../gin_bench REDIS_URL=redis://.../N \\
        nice -n 19 .venv/bin/python bench/tournaments.py [--entrants 500] [--swiss 256]

The database is migrated and used as is (rows are added under a fresh name prefix).
Celery tasks run in-process (eager), as in the embedded mode.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.stats import percentile  # noqa: E402  (the repository root is on the path now)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def make_players(prefix: str, n: int) -> list:
    from django.contrib.auth import get_user_model

    from leaderboards.models import Rating

    model = get_user_model()
    rng = random.Random(n)
    users = model.objects.bulk_create(
        [model(username=f"{prefix}{i}", email=f"{prefix}{i}@example.com", password="!")
         for i in range(n)])
    Rating.objects.bulk_create([Rating(user=u, rating=rng.gauss(1500, 200)) for u in users])
    return users


def entered(prefix: str, fmt: str, n: int, **kwargs):
    from django.utils import timezone

    from games.tournaments import services
    from games.tournaments.models import Entrant

    users = make_players(prefix, n)
    now = timezone.now()
    t = services.tournament_create(user=None, staff=True, name=f"Bench {fmt} {prefix}",
                                   format=fmt, starts_at=now, max_players=n, **kwargs)
    Entrant.objects.bulk_create([Entrant(tournament=t, user=u, rating=1500 + (i % 400))
                                 for i, u in enumerate(users)])
    return t, users


def resign_all(t, round_number=None) -> None:
    from games.services import match_resign
    from games.tournaments.models import Pairing

    for p in Pairing.objects.filter(tournament=t, finished=False, match__isnull=False,
                                    round=round_number).select_related("seat1__user", "match"):
        match_resign(match=p.match, user=p.seat1.user)


def bench_arena(prefix: str, n: int):
    from django.utils import timezone

    from games.services import match_resign
    from games.tournaments import services, tasks
    from games.tournaments.core.pairing import Waiting, arena_pairs
    from games.tournaments.models import Entrant, Pairing

    print(f"Arena, {n} entrants")
    rng = random.Random(1)
    pool = [Waiting(i, rng.choice(range(0, 40, 2)), rng.gauss(1500, 200),
                    rng.randrange(n), rng.random()) for i in range(n)]
    runs = []
    for _ in range(50):
        start = time.perf_counter()
        arena_pairs(pool)
        runs.append(time.perf_counter() - start)
    print(f"  pure pairing of {n} waiting (p50 / max of 50)   {ms(statistics.median(runs))} "
          f"/ {ms(max(runs))}")
    t, _ = entered(prefix + "a", "arena", n, duration_minutes=60)
    # The start: the first pass, then the follow-up passes (the progress task each
    # pass enqueues; run one after another here) until nobody is left to pair.
    saved, tasks.ENQUEUE_PROGRESS = tasks.ENQUEUE_PROGRESS, False
    passes = []
    begin = time.perf_counter()
    services.tournament_progress(tournament_id=t.pk)
    passes.append(time.perf_counter() - begin)
    while True:
        start = time.perf_counter()
        if not services.arena_pair(tournament_id=t.pk):
            break
        passes.append(time.perf_counter() - start)
    everyone = time.perf_counter() - begin
    tasks.ENQUEUE_PROGRESS = saved
    print(f"  start: {Pairing.objects.filter(tournament=t).count()} matches in {len(passes)} "
          f"passes (p50 / max) {ms(statistics.median(passes))} / {ms(max(passes))}; "
          f"first pass {ms(passes[0])}; everyone paired after {ms(everyone)}")
    steady = []
    for _ in range(5):
        open_ = list(Pairing.objects.filter(tournament=t, finished=False)
                     .select_related("seat1__user", "match")[:5])
        saved, tasks.ENQUEUE_PROGRESS = tasks.ENQUEUE_PROGRESS, False
        for p in open_:
            match_resign(match=p.match, user=p.seat1.user)
        tasks.ENQUEUE_PROGRESS = saved
        waiting = Entrant.objects.filter(tournament=t, waiting_since__isnull=False).count()
        start = time.perf_counter()
        services.arena_pair(tournament_id=t.pk)
        steady.append(time.perf_counter() - start)
    print(f"  steady pass ({waiting} waiting of {n}; p50 / max of 5) "
          f"{ms(statistics.median(steady))} / {ms(max(steady))}")
    # A finished player with an opponent waiting: from the resignation to the new pairing
    # (the match-finish hook enqueues the progress task; eager here, as embedded).
    latencies = []
    for _ in range(5):
        p = Pairing.objects.filter(tournament=t, finished=False).select_related(
            "seat0", "seat1__user", "match").first()
        other = Entrant.objects.filter(tournament=t, waiting_since__isnull=True).exclude(
            pk__in=[p.seat0_id, p.seat1_id]).first()
        Entrant.objects.filter(pk=other.pk).update(waiting_since=timezone.now())
        Pairing.objects.filter(seat0=other, finished=False).update(finished=True)
        Pairing.objects.filter(seat1=other, finished=False).update(finished=True)
        start = time.perf_counter()
        match_resign(match=p.match, user=p.seat1.user)
        while not Pairing.objects.filter(tournament=t, finished=False,
                                         seat0_id__in=[p.seat0_id, p.seat1_id]).exists() and \
                not Pairing.objects.filter(tournament=t, finished=False,
                                           seat1_id__in=[p.seat0_id, p.seat1_id]).exists():
            if time.perf_counter() - start > 10:
                break
            time.sleep(0.005)
        latencies.append(time.perf_counter() - start)
    print(f"  finish -> paired again (p50 / max of 5)          "
          f"{ms(statistics.median(latencies))} / {ms(max(latencies))}")
    return t


def bench_swiss(prefix: str, n: int, rounds: int):
    from games.tournaments import services, tasks
    from games.tournaments.core.pairing import SwissPlayer, swiss_pairs
    from games.tournaments.models import Entrant, Pairing

    print(f"Swiss, {n} players x {rounds} rounds")
    t, _ = entered(prefix + "s", "swiss", n, rounds=rounds)
    saved, tasks.ENQUEUE_PROGRESS = tasks.ENQUEUE_PROGRESS, False
    try:
        for number in range(1, rounds + 1):
            entrants = list(Entrant.objects.filter(tournament=t))
            opponents = {e.pk: set() for e in entrants}
            for a, b in Pairing.objects.filter(tournament=t, seat1__isnull=False) \
                    .values_list("seat0_id", "seat1_id"):
                opponents[a].add(b)
                opponents[b].add(a)
            start = time.perf_counter()
            swiss_pairs([SwissPlayer(e.pk, e.points, e.rating, frozenset(opponents[e.pk]))
                         for e in entrants])
            pure = time.perf_counter() - start
            start = time.perf_counter()
            done = services.tournament_progress(tournament_id=t.pk)
            took = time.perf_counter() - start
            print(f"  round {number}: service {ms(took)} (pure pairing {ms(pure)})  {done}")
            resign_all(t, number)
        print(f"  after the last round: {services.tournament_progress(tournament_id=t.pk)}")
    finally:
        tasks.ENQUEUE_PROGRESS = saved
    return t


def bench_page(t, requests: int) -> None:
    from django.test import Client
    from django.urls import reverse

    client = Client(HTTP_HOST="localhost")
    url = reverse("tournaments:detail", args=[t.pk])
    client.get(url)
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200
    print(f"  tournament page ({t.format}, {t.entrants.count()} entrants): "
          f"p50 {ms(statistics.median(times))}  p95 {ms(percentile(times, 95))}"
          f"  ({requests} requests)")
    # Each request after a new standings version (a result, a pairing): the first
    # reader ranks the entrants again; the worst case, every request the first.
    from django.db.models import F

    from games.tournaments.models import Tournament

    cold = []
    for _ in range(max(10, requests // 10)):
        Tournament.objects.filter(pk=t.pk).update(standings_version=F("standings_version") + 1)
        start = time.perf_counter()
        response = client.get(url)
        cold.append(time.perf_counter() - start)
        assert response.status_code == 200
    print(f"    first request after a new version: p50 {ms(statistics.median(cold))}  "
          f"p95 {ms(percentile(cold, 95))}  ({len(cold)} requests)")


def bench_fanout(t, sockets: int) -> None:
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.db.models import F

    from games.tournaments import broadcast
    from games.tournaments.models import Tournament
    from ginsite.asgi import application

    async def run() -> None:
        clients = []
        for _ in range(sockets):
            c = WebsocketCommunicator(application, f"/ws/tournament/{t.pk}/",
                                      headers=[(b"origin", b"http://localhost")])
            ok, _ = await c.connect(timeout=30)
            assert ok
            await c.receive_json_from(timeout=30)  # the opening standings
            clients.append(c)
        for attempt in range(3):
            await database_sync_to_async(
                lambda: Tournament.objects.filter(pk=t.pk).update(
                    standings_version=F("standings_version") + 1))()
            start = time.perf_counter()
            await database_sync_to_async(broadcast.publish)(t.pk)
            sent = time.perf_counter() - start
            await asyncio.gather(*(c.receive_json_from(timeout=30) for c in clients))
            took = time.perf_counter() - start
            print(f"  in-process sockets, try {attempt + 1}: last of {sockets} after "
                  f"{ms(took)} (publish call incl. building the message {ms(sent)})")
        for c in clients:
            await c.disconnect()

    asyncio.run(run())


def bench_fanout_stack(t, sockets: int, processes: int, database: str, redis_db: int) -> None:
    """The same fan-out to real WebSockets: ``processes`` daphne processes of the
    production stack (bench/stack.py, the Redis channel layer) hold the sockets, spread
    over them as a load balancer would; the clients (the ``websockets`` package) run
    here, in other processes than the server's."""
    import json

    from django.db.models import F
    from websockets.asyncio.client import connect

    from bench.stack import Stack
    from games.tournaments import broadcast
    from games.tournaments.models import Tournament

    async def run(ports: list[int]) -> None:
        clients = []
        for i in range(sockets):
            port = ports[i % len(ports)]
            ws = await connect(f"ws://127.0.0.1:{port}/ws/tournament/{t.pk}/",
                               origin=f"http://127.0.0.1:{port}", open_timeout=60,
                               max_size=2**22)
            json.loads(await asyncio.wait_for(ws.recv(), 60))  # the opening standings
            clients.append(ws)

        async def until(ws, version: int) -> None:
            while json.loads(await ws.recv()).get("version", -1) < version:
                pass

        for attempt in range(3):
            version = await asyncio.to_thread(lambda: (
                Tournament.objects.filter(pk=t.pk).update(
                    standings_version=F("standings_version") + 1),
                Tournament.objects.get(pk=t.pk).standings_version)[1])
            start = time.perf_counter()
            await asyncio.to_thread(broadcast.publish, t.pk)
            sent = time.perf_counter() - start
            await asyncio.wait_for(asyncio.gather(*(until(ws, version) for ws in clients)), 60)
            took = time.perf_counter() - start
            print(f"  real sockets, {processes} daphne process(es), try {attempt + 1}: last of "
                  f"{sockets} after {ms(took)} (publish call {ms(sent)})", flush=True)
        for ws in clients:
            await ws.close()

    with Stack(asgi=processes, database=database, redis_db=redis_db, worker=False,
               beat=False) as stack:
        asyncio.run(run(stack.ports))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=500)
    parser.add_argument("--swiss", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--sockets", type=int, default=500)
    parser.add_argument("--stack-processes", type=int, nargs="*", default=[1, 2],
                        help="daphne processes for the real-socket fan-out (none: skip)")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    import django

    django.setup()
    from django.core.management import call_command

    from ginsite.celery import app

    call_command("migrate", verbosity=0)
    app.conf.task_always_eager = True
    from django.conf import settings

    settings.CELERY_TASK_ALWAYS_EAGER = True
    from games.analysis import hooks as analysis_hooks

    analysis_hooks.hand_finished = lambda hand_id: None  # not part of this benchmark
    from django.core.cache import cache

    cache.get("bench-warm-up")  # a worker's cache connection is open (the first: ~1 s)
    from django.urls import reverse

    reverse("tournaments:list")  # and its URLs loaded (the first reverse: ~0.35 s)
    prefix = f"b{int(time.time()) % 100000}x"
    arena = bench_arena(prefix, args.entrants)
    print("Pages")
    bench_page(arena, args.requests)
    swiss = bench_swiss(prefix, args.swiss, args.rounds)
    bench_page(swiss, args.requests)
    print("Fan-out")
    bench_fanout(arena, args.sockets)
    from django.db import connection

    database = connection.settings_dict["NAME"]
    redis_db = int(settings.REDIS_URL.rstrip("/").rsplit("/", 1)[1] or 0)
    for processes in args.stack_processes:
        bench_fanout_stack(arena, args.sockets, processes, database, redis_db)


if __name__ == "__main__":
    main()
