"""Chat benchmark: the cost of posting and reading, and the lobby's live fan-out.

Creates a separate PostgreSQL database (``gin_chatbench`` by default, dropped at the
end), migrates it, stores 100,000 lobby and table messages from 1,000 players with a
200-word filter, then prints:

- ``chat_post`` (permission, mute, rate limit under a row lock, word filter, insert,
  broadcast on commit) and ``chat_history`` latency, p50/p95, with their query counts;
- lobby fan-out through the real ASGI application and the Redis channel layer: N
  signed-in lobby sockets, one of them posts M messages one after another, and the
  time from the post to its arrival on every socket (p50/p99) and the deliveries per
  second. Sockets are in-process ``WebsocketCommunicator`` clients (one process, one
  event loop, one database thread), so this is the cost of one ASGI process.

    .venv/bin/python bench/chat.py [--sockets 50] [--messages 100]

Needs PostgreSQL and Redis (``--redis``, default redis://127.0.0.1:6379/6).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bench.stats import spread

ROOT = Path(__file__).resolve().parent.parent


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="gin_chatbench")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/6")
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--stored", type=int, default=100_000, help="messages stored first")
    parser.add_argument("--posts", type=int, default=500, help="timed chat_post calls")
    parser.add_argument("--sockets", type=int, default=50)
    parser.add_argument("--messages", type=int, default=100)
    return parser.parse_args()


def database(server: str, name: str, *, create: bool) -> None:
    import psycopg

    parts = urlsplit(server)
    admin = urlunsplit((parts.scheme, parts.netloc, "/postgres", "", ""))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if create:
            conn.execute(f'CREATE DATABASE "{name}"')


def percentiles(samples: list[float]) -> str:
    return spread(samples, scale=1000, width=7, digits=2)


def fill(players: int, stored: int) -> None:
    from django.db import connection, transaction

    players, stored = int(players), int(stored)
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute(
            f"""INSERT INTO accounts_user (id, password, is_superuser, username, first_name,
                   last_name, email, is_staff, is_active, date_joined, is_guest)
                SELECT g, '!', FALSE, 'player' || g, '', '', '', FALSE, TRUE, now(), FALSE
                FROM generate_series(1, {players}) g"""
        )
        cur.execute(f"SELECT setval('accounts_user_id_seq', {players})")
        # A fifth of the messages in the lobby, the rest at 2,000 tables (stored rows
        # need no seats), spread over the last 30 days; every 97th one hidden.
        cur.execute(
            """INSERT INTO games_match (kind, variant, rules, status, version, rated,
                   first_dealer, end_reason, created_at)
               SELECT 'friend', 'default', '{}'::jsonb, 'finished', 0, FALSE, 0, '', now()
               FROM generate_series(1, 2000)"""
        )
        cur.execute(
            f"""INSERT INTO chat_chatmessage (match_id, author_id, seat, text, original_text,
                    hidden, created_at)
                SELECT CASE WHEN g % 5 = 0 THEN NULL
                            ELSE (SELECT min(id) FROM games_match) + g % 2000 END,
                       1 + g % {players}, NULL, 'message ' || g, 'message ' || g,
                       g % 97 = 0, now() - random() * interval '30 days'
                FROM generate_series(1, {stored}) g"""
        )
        cur.execute(
            """INSERT INTO chat_wordfilter (word, created_at)
               SELECT 'badword' || g, now() FROM generate_series(1, 200) g"""
        )
        # Each of the first 300 players blocks one other.
        cur.execute(
            f"""INSERT INTO chat_userblock (blocker_id, blocked_id, created_at)
                SELECT g, 1 + (g * 7) % {players}, now() FROM generate_series(1, 300) g
                WHERE g <> 1 + (g * 7) % {players}"""
        )
        cur.execute("ANALYZE")


def bench_services(posts: int) -> None:
    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from games.chat.selectors import chat_history
    from games.chat.services import chat_post

    settings.CHAT_RATE_COUNT = 5
    users = list(User.objects.order_by("id")[:100])
    post_times, history_times = [], []
    for n in range(posts):
        user = users[n % len(users)]  # 5 posts per user at most: under the rate limit
        start = time.perf_counter()
        chat_post(user=user, text=f"good game, well played {n} badword7 indeed")
        post_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        chat_history(user=user, match_id=None)
        history_times.append(time.perf_counter() - start)
    with CaptureQueriesContext(connection) as post_queries:
        chat_post(user=users[0], text="one more")
    with CaptureQueriesContext(connection) as history_queries:
        chat_history(user=users[0], match_id=None)
    print(f"  chat_post     ({len(post_queries)} queries)  {percentiles(post_times)}")
    print(f"  chat_history  ({len(history_queries)} queries)  {percentiles(history_times)}")


async def bench_fanout(sockets: int, messages: int) -> None:
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.conf import settings
    from django.test import Client

    from accounts.models import User
    from ginsite.asgi import application

    settings.CHAT_RATE_COUNT = messages + 1

    def cookies() -> list[str]:
        result = []
        for user in User.objects.order_by("id")[200 : 200 + sockets]:
            client = Client()
            client.force_login(user)
            result.append(client.cookies["sessionid"].value)
        return result

    clients = []
    for cookie in await sync_to_async(cookies)():
        headers = [(b"origin", b"http://localhost"), (b"cookie", f"sessionid={cookie}".encode())]
        client = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
        assert (await client.connect(timeout=10))[0]
        assert (await client.receive_json_from(timeout=10))["type"] == "chat_history"
        clients.append(client)
    sender = clients[0]
    latencies = []
    start_all = time.perf_counter()
    for n in range(messages):
        sent = time.perf_counter()
        await sender.send_json_to({"type": "chat", "text": f"fan-out {n}"})
        for client in clients:
            frame = await client.receive_json_from(timeout=10)
            assert frame["type"] == "chat" and frame["message"]["text"] == f"fan-out {n}"
        latencies.append(time.perf_counter() - sent)
    elapsed = time.perf_counter() - start_all
    for client in clients:
        await client.disconnect()
    print(f"  {sockets} lobby sockets, {messages} messages, each awaited on every socket:")
    print(f"  post to last delivery   {percentiles(latencies)}")
    print(f"  deliveries/s            {sockets * messages / elapsed:9.0f}")


def main() -> None:
    args = parse_args()
    url = urlsplit(args.server)
    os.environ["DATABASE_URL"] = urlunsplit((url.scheme, url.netloc, f"/{args.database}", "", ""))
    os.environ["REDIS_URL"] = args.redis
    os.environ["CHANNEL_PREFIX"] = "chatbench"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")
    sys.path.insert(0, str(ROOT))
    database(args.server, args.database, create=True)
    try:
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command

        settings.DEBUG = False
        call_command("migrate", verbosity=0)
        start = time.perf_counter()
        fill(args.players, args.stored)
        print(f"filled {args.stored:,} messages in {time.perf_counter() - start:.1f} s")
        bench_services(args.posts)
        asyncio.run(bench_fanout(args.sockets, args.messages))
    finally:
        from django.db import connections

        connections.close_all()
        database(args.server, args.database, create=False)


if __name__ == "__main__":
    main()
