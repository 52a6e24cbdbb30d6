"""Per-move cost of live play: the services on PostgreSQL, and the round trip of an
action over the match WebSocket through the Redis channel layer.

    createdb -h 127.0.0.1 -U postgres gin_bench_live   # once
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gin_bench_live \\
    REDIS_URL=redis://127.0.0.1:6379/3 .venv/bin/python -m bench.live_play --moves 300

Prints, per kind of call, the latency percentiles, the CPU time of the calling process
(and, per call, of its PostgreSQL backend) and the number of SQL queries:
``move_submit`` (a player's action, publishing included), ``bot_turn_play`` (the
computer's action: choice, lock, write, publishing), and for the socket: the time
from sending an action to the player's own answer and to the opponent's frame. The
database is migrated if needed; the rows created are deleted at the end. Tasks
are not enqueued (the benchmark plays the computer's turns itself).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import time
from collections.abc import Callable
from typing import Any

from bench.stats import cpu_seconds, spread

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")


def percentiles(values: list[float]) -> str:
    return spread(values, count=True, mean=True)


def timed(call: Callable[..., Any], cpu: list[float], **kwargs: Any) -> tuple[float, int, float]:
    """Wall-clock milliseconds, SQL statements and the PostgreSQL backend's CPU seconds
    of one call; its CPU milliseconds (this process's) are appended to ``cpu``."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    connection.ensure_connection()
    backend = connection.connection.info.backend_pid
    with CaptureQueriesContext(connection) as queries:
        start, start_cpu, start_db = time.perf_counter(), time.process_time(), cpu_seconds(backend)
        call(**kwargs)
        elapsed = (time.perf_counter() - start) * 1000
        cpu.append((time.process_time() - start_cpu) * 1000)
        db = cpu_seconds(backend) - start_db
    return elapsed, len(queries.captured_queries), db


def bench_services(moves: int, users: list) -> None:
    from games import services
    from games.engine import HandState, RuleSet, timeout_action
    from games.models import Hand, Match, Seat

    rng = random.Random(1)
    human_ms: list[float] = []
    bot_ms: list[float] = []
    human_cpu: list[float] = []
    bot_cpu: list[float] = []
    human_q: set[int] = set()
    bot_q: set[int] = set()
    match = None
    backend_cpu = 0.0
    while len(human_ms) + len(bot_ms) < moves:
        if match is None or match.status != Match.Status.ACTIVE:
            match = services.match_create_computer(
                user=users[0], level="easy", rules=RuleSet.default()
            )
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            continue
        seat = Seat.objects.get(match=match, index=match.current_seat)
        version = match.version
        if seat.bot_level:
            ms, queries, db = timed(
                services.bot_turn_play, bot_cpu, match_id=match.pk, expected_version=version
            )
            bot_ms.append(ms)
            bot_q.add(queries)
            backend_cpu += db
            continue
        state = HandState.from_dict(Hand.objects.filter(match=match).latest("number").state)
        legal = state.legal_actions()
        knocks = [a for a in legal if a["type"] in ("knock", "big_gin")]
        action = rng.choice(knocks) if knocks else timeout_action(state)
        ms, queries, db = timed(
            services.move_submit, human_cpu,
            match=match, user=users[0], action=action, expected_version=version,
        )
        human_ms.append(ms)
        human_q.add(queries)
        backend_cpu += db
    print("services (PostgreSQL, broadcast to the Redis layer included)")
    print(f"  move_submit    {percentiles(human_ms)}  queries {sorted(human_q)}")
    print(f"  bot_turn_play  {percentiles(bot_ms)}  queries {sorted(bot_q)}")
    print("  CPU of this process (the Python side of the call: ORM, engine, messages, publish)")
    print(f"  move_submit    {percentiles(human_cpu)}")
    print(f"  bot_turn_play  {percentiles(bot_cpu)}")
    calls = len(human_ms) + len(bot_ms)
    per_call = backend_cpu / calls * 1000
    print(f"  CPU of the PostgreSQL backend per call (both kinds): {per_call:.2f} ms")


async def bench_socket(moves: int, users: list) -> None:
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.test import Client

    from games import services
    from games.engine import RuleSet
    from games.messages import apply_frame
    from ginsite.asgi import application

    @database_sync_to_async
    def friends_match() -> tuple[int, dict[int, bytes]]:
        match = services.match_create_invite(
            user=users[0], rules=RuleSet.time_freedom(), variant="time_freedom"
        )
        match = services.match_join_invite(user=users[1], token=match.invite_token)
        cookies = {}
        for user in users[:2]:
            client = Client()
            client.force_login(user)
            seat = match.seats.get(user=user).index
            cookies[seat] = f"sessionid={client.cookies['sessionid'].value}".encode()
        return match.pk, cookies

    async def next_state(socket: WebsocketCommunicator, held: dict | None = None) -> dict:
        """The table after the next frame: a ``state``, or an ``event`` applied to ``held``."""
        while True:
            frame = await socket.receive_json_from(timeout=10)
            if frame["type"] == "state":
                return frame
            if frame["type"] == "event":
                state = apply_frame(held, frame)
                if state is not None:
                    return state

    own_ms: list[float] = []
    other_ms: list[float] = []
    while len(own_ms) < moves:
        match_id, cookies = await friends_match()
        sockets = {}
        states = {}
        for seat, cookie in cookies.items():
            socket = WebsocketCommunicator(
                application, f"/ws/match/{match_id}/",
                headers=[(b"origin", b"http://127.0.0.1"), (b"cookie", cookie)],
            )
            await socket.connect()
            sockets[seat] = socket
            states[seat] = await next_state(socket)
        while len(own_ms) < moves and states[0]["match"]["status"] == "active":
            mover = states[0]["view"]["current_player"]
            view = states[mover]["view"]
            legal = view["legal_actions"]
            ends = [a for a in legal if a["type"] in ("knock", "big_gin")]
            if ends:
                action = ends[0]
            elif view["phase"] == "first_turn":
                action = {"type": "pass"}
            elif view["phase"] == "draw":
                action = {"type": "draw", "source": "stock"}
            else:
                action = random.choice([a for a in legal if a["type"] == "discard"])
            version = states[mover]["version"]
            start = time.perf_counter()
            await sockets[mover].send_to(
                text_data=json.dumps({"type": "action", "version": version, "action": action})
            )
            states[mover] = await next_state(sockets[mover], states[mover])
            own_ms.append((time.perf_counter() - start) * 1000)
            other = 1 - mover
            states[other] = await next_state(sockets[other], states[other])
            other_ms.append((time.perf_counter() - start) * 1000)
            # Each socket may send 5 frames a second (the consumer's rate limit).
            await asyncio.sleep(0.1)
        for socket in sockets.values():
            await socket.disconnect()
    print("match socket, in-process ASGI app, Redis channel layer")
    print(f"  own state      {percentiles(own_ms)}")
    print(f"  opponent state {percentiles(other_ms)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    args = parser.parse_args()

    import django

    django.setup()
    from asgiref.sync import async_to_sync
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games.models import Match
    from games.services import scheduling

    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        raise SystemExit("set DATABASE_URL (PostgreSQL) and REDIS_URL (Redis) as shown above")
    call_command("migrate", verbosity=0)
    # The benchmark plays the computer itself: nothing is enqueued.
    scheduling._run_later = lambda *args, **kwargs: None  # type: ignore[assignment]
    user_model = get_user_model()
    users = [
        user_model.objects.create_user(username=f"bench-live-{i}-{os.getpid()}", password=None)
        for i in range(2)
    ]
    try:
        bench_services(args.moves, users)
        async_to_sync(bench_socket)(args.moves, users)
    finally:
        Match.objects.filter(seats__user__in=users).delete()
        for user in users:
            user.delete()


if __name__ == "__main__":
    main()
