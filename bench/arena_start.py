"""An arena's start through a running topology's nginx: every player on the tournament
page when it starts, and how long until each is told of their first match and their
table reaches them.

    from bench.arena_start import run_arena_start
    figures = run_arena_start(url, players=1000, clients=2)   # Django set up for the topology

``prepare`` writes the arena into the topology's database (through its PgBouncer): a
staff arena scheduled an hour ahead, ``players`` registered players entered (with a
rating each, as ``bench/tournaments.py`` makes them) and a signed-in session each.
Client processes (``clients``, spawned: the load generator's CPU is the machine's too)
open each player's tournament socket (``/ws/tournament/<id>/``, signed in, as the page
does) and wait for its opening standings. Once every socket is open, the arena's start
is brought to now and its ``tournaments.progress`` task enqueued (beat's tick would
start it within 2 s: the task starts it at once); the worker starts it and pairs
everyone, in passes of ``ARENA_PASS_PAIRS`` matches (games/tournaments/services.py).
Each player, on its ``match_ready``, does what the page does: loads the table page
(``/match/<id>/``) and opens the match socket, whose first frame is the table
(``state``); but at once, without the page's pause before it goes (``GO_AFTER_MS``,
1.2 s, in games/tournaments/static/tournaments/match_ready.js).

Measured from the arena's start (its ``started_at``, written by the worker's start; the
moment the start was asked for is printed beside it), per player: ``match_ready``
received, the table page loaded, the table's first ``state`` received; p50/p99/max, and
the players who got none of it within ``WAIT_SECONDS``.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import queue
import resource
import time
from dataclasses import dataclass, field
from typing import Any

from bench.stats import percentile, tree_cpu_seconds

CONNECT_CONCURRENCY = 16
WAIT_SECONDS = 30.0  # from the start: a player told nothing by then is counted as missed
TARGET_SECONDS = 3.0


@dataclass
class PlayerTimes:
    """Wall-clock times (time.time()) of one player's start, None for what never came."""

    match_id: int | None = None
    ready: float | None = None
    page: float | None = None
    state: float | None = None
    errors: list[str] = field(default_factory=list)


@dataclass
class ArenaFigures:
    players: int
    matches: int
    asked_to_started: float  # s from asking for the start to its started_at
    ready: list[float]  # s from started_at, per player told
    page: list[float]
    state: list[float]
    missed_ready: int
    missed_state: int
    errors: dict[str, int]
    client_cpu: float  # s of CPU of the client processes


def prepare(players: int) -> tuple[int, list[str]]:
    """The scheduled arena and each entrant's session key (Django must be set up)."""
    import uuid
    from datetime import timedelta

    from django.utils import timezone

    from bench.live_load import signed_in_session
    from bench.tournaments import make_players
    from games.tournaments import services
    from games.tournaments.models import Entrant

    tag = uuid.uuid4().hex[:6]
    users = make_players(f"ar{tag}x", players)
    arena = services.tournament_create(
        user=None, staff=True, name=f"Arena start {tag}", format="arena",
        starts_at=timezone.now() + timedelta(hours=1), max_players=players,
        duration_minutes=60)
    Entrant.objects.bulk_create([Entrant(tournament=arena, user=user, rating=1500 + (i % 400))
                                 for i, user in enumerate(users)])
    return arena.pk, [signed_in_session(user) for user in users]


def start_now(tournament_id: int) -> float:
    """Bring the arena's start to now and ask the worker to start it; the time asked."""
    from django.utils import timezone

    from games.tournaments import tasks
    from games.tournaments.models import Tournament

    asked = time.time()
    Tournament.objects.filter(pk=tournament_id).update(starts_at=timezone.now())
    tasks.progress.delay(tournament_id)
    return asked


def started_at(tournament_id: int, timeout: float = WAIT_SECONDS) -> float:
    from games.tournaments.models import Tournament

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        at = Tournament.objects.filter(pk=tournament_id).values_list("started_at", flat=True)[0]
        if at is not None:
            return at.timestamp()
        time.sleep(0.05)
    raise RuntimeError(f"the arena did not start within {timeout:g} s")


# --- a client process ---------------------------------------------------------------


async def get_page(base: str, path: str, cookie: str) -> int:
    """GET ``path`` as a browser loads a page (HTTP/1.1, the session cookie); its status."""
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        writer.write((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                      f"Cookie: sessionid={cookie}\r\nAccept: text/html\r\n"
                      "Connection: close\r\n\r\n").encode())
        await writer.drain()
        status = int((await reader.readline()).split()[1])
        while await reader.read(65536):
            pass
        return status
    finally:
        writer.close()


class ArenaPlayer:
    def __init__(self, base: str, tournament_id: int, cookie: str) -> None:
        self.base = base
        self.tournament_id = tournament_id
        self.cookie = cookie
        self.times = PlayerTimes()
        self.sockets: list[Any] = []
        self.table: asyncio.Task | None = None

    async def open_page(self, gate: asyncio.Semaphore) -> None:
        """The tournament page's socket, open with its opening standings read."""
        import json

        from websockets.asyncio.client import connect

        async with gate:
            ws = await connect(
                self.base.replace("http://", "ws://") + f"/ws/tournament/{self.tournament_id}/",
                additional_headers={"Cookie": f"sessionid={self.cookie}"}, origin=self.base,
                open_timeout=60, max_size=2**22)
            self.sockets.append(ws)
            while json.loads(await asyncio.wait_for(ws.recv(), 60))["type"] != "standings":
                pass

    async def listen(self) -> None:
        import json

        ws = self.sockets[0]
        async for text in ws:
            if '"match_ready"' not in text:  # standings, chat, the bell: not parsed
                continue
            frame = json.loads(text)
            if frame.get("type") == "match_ready" and self.times.ready is None:
                self.times.ready = time.time()
                self.times.match_id = frame["match_id"]
                self.table = asyncio.create_task(self.open_table(frame["match_id"]))

    async def open_table(self, match_id: int) -> None:
        import json

        from websockets.asyncio.client import connect

        try:
            status = await get_page(self.base, f"/match/{match_id}/", self.cookie)
            if status != 200:
                self.times.errors.append(f"table_page_{status}")
            self.times.page = time.time()
            ws = await connect(
                self.base.replace("http://", "ws://") + f"/ws/match/{match_id}/",
                additional_headers={"Cookie": f"sessionid={self.cookie}"}, origin=self.base,
                open_timeout=60, max_size=2**22)
            self.sockets.append(ws)
            async for text in ws:
                if json.loads(text).get("type") == "state":
                    self.times.state = time.time()
                    break
        except Exception as error:
            self.times.errors.append(f"table:{type(error).__name__}")


async def client_run(plan: dict[str, Any], ready: Any, stop: Any) -> list[PlayerTimes]:
    players = [ArenaPlayer(plan["url"], plan["tournament_id"], cookie)
               for cookie in plan["cookies"]]
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    opened = await asyncio.gather(*(p.open_page(gate) for p in players), return_exceptions=True)
    for player, outcome in zip(players, opened, strict=True):
        if isinstance(outcome, BaseException):
            player.times.errors.append(f"tournament_socket:{type(outcome).__name__}")
    listeners = [asyncio.create_task(p.listen()) for p in players if p.sockets]
    ready.put(("open", sum(1 for p in players if p.sockets)))
    parent = os.getppid()

    def running() -> bool:  # until told to stop, or the run that started us is gone
        return not stop.is_set() and os.getppid() == parent

    while running() and not all(p.times.state is not None or p.times.errors
                                for p in players):
        await asyncio.sleep(0.1)
    ready.put(("done", 0))
    while running():  # the others still measuring: keep the tables open
        await asyncio.sleep(0.1)
    for task in listeners:
        task.cancel()
    for player in players:
        if player.table is not None:
            player.table.cancel()
        for ws in player.sockets:
            await ws.close()
    return [p.times for p in players]


def client_main(plan: dict[str, Any], ready: Any, results: Any, stop: Any) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    results.put(asyncio.run(client_run(plan, ready, stop)))


# --- the run --------------------------------------------------------------------------


def run_arena_start(url: str, *, players: int, clients: int = 2,
                    log: Any = print) -> ArenaFigures:
    from games.models import Match
    from games.tournaments.models import Pairing

    began = time.monotonic()
    tournament_id, cookies = prepare(players)
    log(f"arena {tournament_id}: {players} players entered and signed in "
        f"({time.monotonic() - began:.1f} s); their tournament sockets opening")
    began = time.monotonic()
    context = multiprocessing.get_context("spawn")
    ready, results, stop = context.Queue(), context.Queue(), context.Event()
    processes = []
    for index in range(clients):
        plan = {"url": url.rstrip("/"), "tournament_id": tournament_id,
                "cookies": cookies[index::clients]}
        process = context.Process(target=client_main, args=(plan, ready, results, stop),
                                  daemon=True)
        process.start()
        processes.append(process)
    opened = sum(ready.get(timeout=600)[1] for _ in processes)
    cpu_before = sum(tree_cpu_seconds(p.pid) for p in processes if p.pid)
    log(f"{opened} tournament sockets open ({time.monotonic() - began:.1f} s); "
        "starting the arena")
    asked = start_now(tournament_id)
    started = started_at(tournament_id)
    done = 0
    while done < len(processes) and time.time() < started + WAIT_SECONDS:
        try:
            done += ready.get(timeout=0.2)[0] == "done"
        except queue.Empty:
            pass
    cpu_after = sum(tree_cpu_seconds(p.pid) for p in processes if p.pid)
    stop.set()
    times: list[PlayerTimes] = []
    for _ in processes:
        times.extend(results.get(timeout=120))
    for process in processes:
        process.join(10)
        if process.is_alive():
            process.terminate()
    errors: dict[str, int] = {}
    for t in times:
        for kind in t.errors:
            errors[kind] = errors.get(kind, 0) + 1
    matches = Match.objects.filter(
        pk__in=Pairing.objects.filter(tournament_id=tournament_id).values("match_id")).count()

    def since(values: list[float | None]) -> list[float]:
        return sorted(v - started for v in values if v is not None and v - started <= WAIT_SECONDS)

    ready_at = since([t.ready for t in times])
    state_at = since([t.state for t in times])
    return ArenaFigures(
        players=players, matches=matches, asked_to_started=started - asked,
        ready=ready_at, page=since([t.page for t in times]), state=state_at,
        missed_ready=players - len(ready_at), missed_state=players - len(state_at),
        errors=errors, client_cpu=cpu_after - cpu_before,
    )


def print_arena(f: ArenaFigures) -> None:
    def line(name: str, values: list[float]) -> str:
        most = max(values, default=float("nan"))
        return (f"  {name:<34} n={len(values):5d}  p50 {percentile(values, 50):6.2f} s  "
                f"p99 {percentile(values, 99):6.2f} s  max {most:6.2f} s")

    print(f"\narena start through nginx: {f.players} players, {f.matches} matches started; "
          f"started {f.asked_to_started:.2f} s after it was asked for")
    print("from the start (started_at) to:")
    print(line("match_ready on the tournament page", f.ready))
    print(line("the table page loaded", f.page))
    print(line("the table's first state", f.state))
    print(f"  players never told within {WAIT_SECONDS:g} s: {f.missed_ready}; without their "
          f"table: {f.missed_state}; errors {f.errors or 0}; the client processes used "
          f"{f.client_cpu:.1f} s of CPU from the start")
