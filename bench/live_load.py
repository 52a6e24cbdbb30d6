"""Live load: simulated players play real matches against the production-like stack.

    .venv/bin/python -m bench.live_load                       # 100 ... 1,000 players
    .venv/bin/python -m bench.live_load --steps 50,100 --step-seconds 15   # a quick look
    .venv/bin/python -m bench.live_load --target http://127.0.0.1:PORT    # a running topology

Starts a private ``redis-server`` on a free loopback port and ``bench.stack.Stack``
on it (two daphne processes sharing the Redis channel layer, a Celery worker,
Celery beat, PostgreSQL database ``gin_liveload``, created afresh for each run: an
earlier run's matches would still be in play, their clocks firing), then ramps the number of
connected players up in steps. Every player is a headless WebSocket client
(the ``websockets`` package) signed in with its own session; the two players of a
match sit on different ASGI processes, so every move crosses the channel layer.
Each match makes one move about every ``--interval`` seconds (2 s), chosen by the
easy computer player (``games.bots``) from the player's own view. A finished match
is followed by a rematch over the socket, as people do.

Per step it prints: moves per second, the move round trip (action sent -> the
sender's socket receives the new state) p50/p95/p99, the relay time (action sent ->
the opponent's socket, on the other process, receives it) p99, error counts by
kind, the load average and the share of the machine's CPU time its hypervisor gave to
other machines (``steal``: a run beside a high one compares only with runs beside it);
then the first step at which p99 passed 100 ms.

With ``--target URL`` it starts nothing: the players play through that address (the
nginx of ``python -m bench.topology up``, both seats of a match through it, nginx
spreading their sockets over its ASGI processes), their accounts are written into the
topology's database (through its PgBouncer, from ``--topology-dir``'s ``env``), and the
CPU time is that of the topology's processes (nginx and PgBouncer included).

Users and sessions are written straight into the stack's database (what a
successful login leaves behind): the login form's password hashing costs about
0.3 s of CPU per login by design and would be measured instead of live play.

Bounded: at most ``MAX_PLAYERS`` players, every step a fixed duration, loopback
only; every process it starts is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import random
import signal
import subprocess
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.stack import ROOT, Stack, free_port
from bench.stats import (
    MachineTimes,
    machine_times,
    percentile,
    stolen_share,
    tree_cpu_seconds,
)
from games.messages import apply_frame

MAX_PLAYERS = 2000
TARGET_P99_MS = 100.0
REPLY_TIMEOUT = 10.0
CONNECT_CONCURRENCY = 16


# --- the stack's Redis ---------------------------------------------------------------


class RedisServer:
    """A private ``redis-server`` (no persistence) so the run disturbs no one else."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        (ROOT / "build").mkdir(exist_ok=True)
        log = open(ROOT / "build" / "live-load-redis.log", "ab")
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no"],
            stdout=log, stderr=log, start_new_session=True,
        )
        for _ in range(100):
            ping = subprocess.run(["redis-cli", "-p", str(self.port), "ping"],
                                  capture_output=True, text=True)
            if ping.stdout.strip() == "PONG":
                return
            time.sleep(0.1)
        raise RuntimeError("redis-server did not start")

    def match_groups(self) -> int:
        """The match groups with members held on this server: its pub/sub channels
        (the pub/sub layer) or its group keys (the core layer)."""
        found = 0
        for command in (["PUBSUB", "CHANNELS", "*group__match-*"],
                        ["--scan", "--pattern", "*group:match-*"]):
            listed = subprocess.run(["redis-cli", "-p", str(self.port), *command],
                                    capture_output=True, text=True)
            found += sum(1 for name in listed.stdout.split() if name)
        return found

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)


# --- CPU time of the stack's processes ------------------------------------------------

def postmaster_pid() -> int:
    """The pid of the PostgreSQL server's postmaster (the parent of its checkpointer)."""
    answer = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-Atc",
         "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'"],
        capture_output=True, text=True, check=True,
    )
    with open(f"/proc/{int(answer.stdout)}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[1])


@dataclass
class CpuSample:
    """CPU seconds used so far, by part of the system, at ``at`` (wall clock), and the
    machine's CPU time (how much of it the hypervisor gave to other machines)."""

    at: float
    parts: dict[str, float]
    machine: MachineTimes


class CpuMeter:
    """Samples the CPU time of the stack's processes. PostgreSQL's is the whole
    server's: every backend's, including those that closed during the step (the
    site's connections are closed and opened again every minute, and a backend read
    only at the window's edges would lose its time), and its background workers'
    (WAL writer, checkpointer, autovacuum). Other databases' work on the same server
    counts too: measure on a quiet machine. Each process counts with its children
    (granian serves from a worker process of its own)."""

    def __init__(self, groups: dict[str, list[int]], postmaster: int | None = None) -> None:
        self.groups = groups
        self.postmaster = postmaster or postmaster_pid()

    def sample(self) -> CpuSample:
        parts = {
            name: sum(tree_cpu_seconds(pid) for pid in pids) for name, pids in self.groups.items()
        }
        parts["postgres"] = tree_cpu_seconds(self.postmaster)
        return CpuSample(time.time(), parts, machine_times())


# --- what a client process measures ------------------------------------------------


@dataclass
class Sample:
    """One accepted move: when it was sent (wall clock) and its two delays (s)."""

    sent_at: float
    round_trip: float
    relay: float | None


@dataclass
class ClientResult:
    samples: list[Sample] = field(default_factory=list)
    errors: list[tuple[float, str]] = field(default_factory=list)  # (wall time, kind)
    sockets: list[tuple[float, int]] = field(default_factory=list)  # (wall time, open)


@dataclass
class Pending:
    """A move in flight: sent at ``sent`` (monotonic) for ``version`` by ``seat``."""

    seat: int
    version: int
    sent: float
    sent_wall: float
    round_trip: float | None = None
    relay: float | None = None


class Table:
    """The two players of one match, socket ``i`` for seat ``i``, each on its own
    ASGI process."""

    def __init__(self, run: ClientRun, match_id: int, cookies: list[str], urls: list[str]):
        self.run = run
        self.match_id = match_id
        self.cookies = cookies
        self.urls = urls
        self.sockets: list[Any] = [None, None]
        self.pending: Pending | None = None
        self.last_move_at = time.monotonic()
        self.acted_on: set[int] = set()
        self.rematch_sent = [False, False]
        self.next_match: int | None = None
        self.rng = random.Random(match_id)
        self.tables: list[dict[str, Any] | None] = [None, None]
        self.background: set[asyncio.Task] = set()

    async def play(self, gate: asyncio.Semaphore) -> None:
        """Connect, then read both sockets until the run stops; follow rematches."""
        while not self.run.stopping:
            try:
                async with gate:
                    await self.connect()
            except Exception as error:  # refused, timed out: counted, then retried
                self.run.error(f"connect:{type(error).__name__}")
                await self.close()
                await asyncio.sleep(1)
                continue
            readers = [asyncio.create_task(self.read(seat)) for seat in (0, 1)]
            await asyncio.wait(readers, return_when=asyncio.FIRST_COMPLETED)
            for task in readers:
                task.cancel()
            outcomes = await asyncio.gather(*readers, return_exceptions=True)
            await self.close()
            if self.next_match is not None:
                self.match_id, self.next_match = self.next_match, None
                self.rematch_sent = [False, False]
                self.acted_on.clear()
                self.pending = None
                self.tables = [None, None]
            elif not self.run.stopping:
                failure = next((o for o in outcomes if isinstance(o, BaseException)
                                and not isinstance(o, asyncio.CancelledError)), None)
                self.run.error(f"socket_lost:{type(failure).__name__}")
                await asyncio.sleep(0.5)

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        for seat in (0, 1):
            base = self.urls[seat]
            self.sockets[seat] = await connect(
                base.replace("http://", "ws://") + f"/ws/match/{self.match_id}/",
                additional_headers={"Cookie": f"sessionid={self.cookies[seat]}"},
                origin=base, open_timeout=30, max_size=2**22,
            )
            self.run.open_sockets += 1

    async def close(self) -> None:
        for seat, ws in enumerate(self.sockets):
            if ws is not None:
                self.sockets[seat] = None
                self.run.open_sockets -= 1
                await ws.close()

    async def read(self, seat: int) -> None:
        """Until the run stops, or the match is over and its rematch exists."""
        ws = self.sockets[seat]
        while not self.run.stopping:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                self.check_timeout()
                continue
            frame = json.loads(text)
            kind = frame.get("type")
            if kind in ("state", "event"):
                state = self.take(seat, frame)
                if state is not None and await self.on_state(seat, state):
                    return
            elif kind == "error":
                self.run.error(frame["code"])
                if self.pending is not None and self.pending.seat == seat:
                    self.pending = None

    def take(self, seat: int, frame: dict[str, Any]) -> dict[str, Any] | None:
        """The table after ``frame`` (a ``state``, or an ``event`` applied to the last
        one); None for a copy already held, or a gap (then ``sync`` is asked for)."""
        held = self.tables[seat]
        if frame["type"] == "state":
            self.tables[seat] = frame
            return frame
        if held is None or frame["version"] <= held["version"]:
            return None
        state = apply_frame(held, frame)
        if state is None:
            self.run.error("gap")
            task = asyncio.get_running_loop().create_task(
                self.sockets[seat].send(json.dumps({"type": "sync"}))
            )
            self.background.add(task)
            task.add_done_callback(self.background.discard)
            return None
        self.tables[seat] = state
        return state

    def check_timeout(self) -> None:
        pending = self.pending
        if pending is not None and time.monotonic() - pending.sent > REPLY_TIMEOUT:
            self.settle(pending)

    def settle(self, pending: Pending) -> None:
        """Record a move in flight: a sample once it was answered, errors for what
        never came (the sender's answer, or the opponent's copy)."""
        if pending.round_trip is None:
            self.run.error("reply_missing")
        else:
            self.run.result.samples.append(
                Sample(pending.sent_wall, pending.round_trip, pending.relay)
            )
            if pending.relay is None:
                self.run.error("relay_missing")
        if self.pending is pending:
            self.pending = None

    async def on_state(self, seat: int, state: dict[str, Any]) -> bool:
        """Account for the move this state answers; act when it is our turn.
        True when the socket should move on to a rematch."""
        now = time.monotonic()
        version = state["version"]
        pending = self.pending
        if pending is not None and version > pending.version:
            if pending.seat == seat and pending.round_trip is None:
                pending.round_trip = now - pending.sent
            elif pending.seat != seat and pending.relay is None:
                pending.relay = now - pending.sent
            if pending.round_trip is not None and pending.relay is not None:
                self.settle(pending)
        match = state["match"]
        if match["status"] == "finished":
            return await self.on_finished(seat, match)
        view = state["view"]
        if view is None or view["current_player"] != seat or version in self.acted_on:
            return False
        if not view["legal_actions"]:  # a hand over, the next not dealt yet: nothing to do
            return False
        self.acted_on.add(version)
        asyncio.get_running_loop().create_task(self.act(seat, state))
        return False

    async def act(self, seat: int, state: dict[str, Any]) -> None:
        from games.bots import choose_action

        wait = self.last_move_at + self.run.interval * self.rng.uniform(0.8, 1.2)
        await asyncio.sleep(max(0.0, wait - time.monotonic()))
        ws = self.sockets[seat]
        if self.run.stopping or ws is None:
            return
        if self.pending is not None:
            self.settle(self.pending)  # the last move's copies had two seconds to arrive
        view = state["view"]
        action = choose_action("easy", view, view["legal_actions"], self.rng)
        self.last_move_at = time.monotonic()
        self.pending = Pending(seat, state["version"], time.monotonic(), time.time())
        try:
            await ws.send(
                json.dumps({"type": "action", "version": state["version"], "action": action})
            )
        except Exception:
            self.run.error("send_failed")

    async def on_finished(self, seat: int, match: dict[str, Any]) -> bool:
        """Both players ask for a rematch (the first offers, the second's call
        creates it); once it exists, both move to it."""
        if match["rematch"]["match_id"] is not None:
            self.next_match = match["rematch"]["match_id"]
            return True
        if not self.rematch_sent[seat]:
            self.rematch_sent[seat] = True
            await self.sockets[seat].send(json.dumps({"type": "rematch"}))
        return False


class ClientRun:
    """One client process: creates its share of matches at each step and plays them."""

    def __init__(self, plan: dict[str, Any]) -> None:
        self.plan = plan
        self.interval = plan["interval"]
        self.result = ClientResult()
        self.stopping = False
        self.open_sockets = 0

    def error(self, kind: str) -> None:
        self.result.errors.append((time.time(), kind))

    async def main(self) -> ClientResult:
        plan = self.plan
        gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
        monitor = asyncio.create_task(self.count_sockets())
        tables = []
        for step_start, new_matches in zip(plan["step_starts"], plan["new_matches"], strict=True):
            await asyncio.sleep(max(0.0, step_start - time.time()))
            created = await asyncio.to_thread(create_matches, new_matches, plan["rules"])
            for match_id, cookies in created:
                table = Table(self, match_id, cookies, plan["urls"])
                tables.append(asyncio.create_task(table.play(gate)))
        await asyncio.sleep(max(0.0, plan["end"] - time.time()))
        self.stopping = True
        await asyncio.gather(*tables, return_exceptions=True)
        monitor.cancel()
        return self.result

    async def count_sockets(self) -> None:
        while True:
            self.result.sockets.append((time.time(), self.open_sockets))
            await asyncio.sleep(1)


def signed_in_session(user: Any) -> str:
    """The key of a new session signed in as ``user``: what a successful login leaves
    behind, without the login form's password hashing (0.3 s of CPU by design)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    assert session.session_key is not None
    return session.session_key


def create_matches(count: int, rules: str) -> list[tuple[int, list[str]]]:
    """``count`` started matches between new players, with a session per player."""
    from django.db import connection

    from accounts.models import User
    from games import services
    from games.engine import RuleSet

    ruleset = RuleSet.preset(rules)
    made = []
    for _ in range(count):
        cookies = []
        users = []
        for _side in (0, 1):
            user = User(username=f"load-{uuid.uuid4().hex[:12]}")
            user.set_unusable_password()
            user.save()
            cookies.append(signed_in_session(user))
            users.append(user)
        match = services.match_create_invite(user=users[0], rules=ruleset, variant=rules)
        match = services.match_join_invite(user=users[1], token=match.invite_token)
        seat_of_first = match.seats.get(user=users[0]).index
        made.append((match.pk, cookies if seat_of_first == 0 else cookies[::-1]))
    connection.close()
    return made


def client_main(plan: dict[str, Any], queue: multiprocessing.Queue) -> None:
    """Entry point of a client process (spawned: a fresh interpreter)."""
    os.environ.update(plan["env"])
    os.environ["DJANGO_SETTINGS_MODULE"] = "ginsite.settings"
    import django

    django.setup()
    result = asyncio.run(ClientRun(plan).main())
    queue.put(result)


# --- the run --------------------------------------------------------------------------


def split(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if index < total % parts else 0) for index in range(parts)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default="100,200,400,600,800,1000",
                        help="connected players at each step (even numbers)")
    parser.add_argument("--step-seconds", type=float, default=30.0, help="measured time per step")
    parser.add_argument("--settle-seconds", type=float, default=8.0,
                        help="time after a step's players connect before measuring")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between moves")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--asgi", type=int, default=2, help="ASGI processes")
    parser.add_argument("--server", choices=["daphne", "uvicorn", "granian"], default="daphne",
                        help="the ASGI server (uvicorn and granian with the asyncio loop)")
    parser.add_argument("--layer", choices=["core", "pubsub"], default="pubsub",
                        help="channels-redis's default layer, or its pub/sub layer")
    parser.add_argument("--redis-shards", type=int, default=1,
                        help="Redis servers the channel layer is sharded over")
    parser.add_argument("--rules", default="default", help="variant preset of the matches")
    parser.add_argument("--database", default="gin_liveload")
    parser.add_argument("--target", metavar="URL",
                        help="play through this running topology's nginx (bench.topology up) "
                             "instead of starting a stack")
    parser.add_argument("--topology-dir", default=None,
                        help="the run directory of --target's topology (build/topology)")
    args = parser.parse_args()
    steps = [int(s) for s in args.steps.split(",")]
    if any(s % 2 or s <= 0 for s in steps) or steps != sorted(steps) or steps[-1] > MAX_PLAYERS:
        parser.error(f"steps: increasing even numbers up to {MAX_PLAYERS}")

    if args.target:
        run_against_target(args, steps)
        return
    if args.asgi < 2:
        parser.error("--asgi: at least 2 (the players of a match are on different processes)")
    redis_servers = [RedisServer() for _ in range(max(1, args.redis_shards))]
    for server in redis_servers:
        server.start()
    stack = Stack(asgi=args.asgi, database=args.database, server=args.server,
                  fresh_database=True, extra_env={
        "REDIS_URL": redis_servers[0].url, "LOG_LEVEL": "WARNING",
        "REQUEST_LOG_LEVEL": "WARNING", "CHANNEL_LAYER": args.layer,
        "CHANNEL_REDIS_URLS": ",".join(server.url for server in redis_servers),
    })
    try:
        stack.start()
        urls = [f"http://127.0.0.1:{port}" for port in stack.ports]
        print(f"stack: {args.server} {', '.join(urls)}, worker, beat; {args.layer} layer on "
              f"Redis {', '.join(s.url for s in redis_servers)}; database {args.database}",
              flush=True)
        outcome = run_clients(args, steps, stack.env, urls, redis_servers, {
            "asgi": [p.pid for p in stack.asgi],
            "worker+beat": [p.pid for p in (stack.worker, stack.beat) if p is not None],
            "redis": [server.process.pid for server in redis_servers if server.process],
        })
    finally:
        stack.stop()
        for server in redis_servers:
            server.stop()
    report(args, steps, outcome)


@dataclass
class Outcome:
    results: list[ClientResult]
    windows: list[tuple[float, float]]  # measured part of each step (wall clock)
    loads: list[tuple[float, float]]  # (wall time, 1-minute load average)
    cpu: list[tuple[CpuSample, CpuSample]]  # at the start and the end of each window
    shards: list[list[int]]  # match groups on each Redis server at the end of each window


class ShardCounter:
    """A running Redis server of a topology, counted as ``RedisServer.match_groups``."""

    def __init__(self, port: int) -> None:
        self.port = port

    def match_groups(self) -> int:
        return RedisServer.match_groups(self)  # type: ignore[arg-type]


def run_against_target(args: argparse.Namespace, steps: list[int]) -> None:
    """The players through a running topology's nginx (``bench.topology up``)."""
    outcome = target_outcome(args, steps)
    report(args, steps, outcome)


def target_outcome(args: argparse.Namespace, steps: list[int],
                   on_windows: Callable[[list[tuple[float, float]]], None] | None = None,
                   ) -> Outcome:
    """Run the steps through ``args.target`` (the topology in ``args.topology_dir``);
    ``on_windows`` is told the measured windows (wall clock) as soon as they are fixed,
    before the first player connects (bench.topology_load loads pages in one)."""
    from pathlib import Path

    from bench.topology import DEFAULT_DIR, Topology

    topology = Topology.find(Path(args.topology_dir) if args.topology_dir else DEFAULT_DIR)
    layout = topology.layout
    env = dict(line.split("=", 1) for line in
               (layout.path / "env").read_text().splitlines() if "=" in line)
    pids = {name: topology.pid(name) for name in layout.services}

    def of(*prefixes: str) -> list[int]:
        return [pid for name, pid in pids.items()
                if pid is not None and name.startswith(prefixes)]

    print(f"target: {args.target} (nginx of the topology in {layout.path}): "
          f"{len(layout.asgi_ports)} ASGI processes, channel layer on "
          f"{len(layout.redis_ports) - 1} Redis servers, PgBouncer", flush=True)
    args.asgi = len(layout.asgi_ports)
    return run_clients(
        args, steps, env, [args.target.rstrip("/")],
        [ShardCounter(port) for port in layout.redis_ports[:-1]],
        {"asgi": of("asgi-"), "worker+beat": of("worker", "beat"),
         "analysis": of("analysis-worker"), "redis": of("redis-"), "nginx": of("nginx"),
         "pgbouncer": of("pgbouncer")},
        postmaster=topology.pid("postgres"), on_windows=on_windows,
    )


def run_clients(args: argparse.Namespace, steps: list[int], env: dict[str, str],
                urls: list[str], redis_servers: list[Any], groups: dict[str, list[int]],
                postmaster: int | None = None,
                on_windows: Callable[[list[tuple[float, float]]], None] | None = None,
                ) -> Outcome:
    step_length = args.settle_seconds + args.step_seconds
    start = time.time() + 3
    step_starts = [start + index * step_length for index in range(len(steps))]
    windows = [(t + args.settle_seconds, t + step_length) for t in step_starts]
    if on_windows is not None:
        on_windows(windows)
    new_players = [steps[0], *(b - a for a, b in itertools.pairwise(steps))]
    shares = [split(n // 2, args.clients) for n in new_players]
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    processes = []
    for index in range(args.clients):
        plan = {
            "env": {k: v for k, v in env.items() if k.isupper()},
            # The two seats of a match on two different processes, matches spread
            # over all of them.
            "urls": [urls[index % len(urls)], urls[(index + 1) % len(urls)]],
            "interval": args.interval,
            "rules": args.rules,
            "step_starts": step_starts,
            "new_matches": [share[index] for share in shares],
            "end": windows[-1][1],
        }
        process = context.Process(target=client_main, args=(plan, queue), daemon=True)
        process.start()
        processes.append(process)
    meter = CpuMeter({**groups, "clients": [p.pid for p in processes]}, postmaster)
    loads: list[tuple[float, float]] = []
    edges = [edge for window in windows for edge in window]
    samples: list[CpuSample] = []
    shards: list[list[int]] = []
    results: list[ClientResult] = []
    deadline = windows[-1][1] + 120
    while len(results) < len(processes) and time.time() < deadline:
        loads.append((time.time(), os.getloadavg()[0]))
        if len(samples) < len(edges) and time.time() >= edges[len(samples)]:
            samples.append(meter.sample())
            if len(samples) % 2 == 0:  # the end of a step's window
                shards.append([server.match_groups() for server in redis_servers])
        try:
            results.append(queue.get(timeout=0.5))
        except Exception:  # queue.Empty: sample the load again
            if not any(p.is_alive() for p in processes) and queue.empty():
                break
    for process in processes:
        process.join(10)
        if process.is_alive():
            process.terminate()
    if len(results) < len(processes):
        raise RuntimeError("a client process did not report (see its traceback above)")
    cpu = list(zip(samples[0::2], samples[1::2], strict=False))
    return Outcome(results, windows, loads, cpu, shards)


@dataclass
class StepFigures:
    """What one step measured: latencies in ms, CPU in ms per accepted move by part
    (``server``: every part but the clients and the analysis worker, whose work is per
    finished hand, deferred, and on machines of its own in production), the clients'
    CPU as a share of one core per client process (a client process near a whole core
    measures itself)."""

    players: int
    sockets: int
    moves: int
    moves_per_second: float
    p50: float
    p95: float
    p99: float
    relay_p99: float
    errors: dict[str, int]
    load: float
    steal: float
    cpu_per_move: dict[str, float]
    server_per_move: float
    client_core_share: float


def step_figures(args: argparse.Namespace, steps: list[int], outcome: Outcome
                 ) -> list[StepFigures]:
    results = outcome.results
    samples = [s for r in results for s in r.samples]
    errors = [e for r in results for e in r.errors]
    figures = []
    for index, (players, (begin, end)) in enumerate(zip(steps, outcome.windows, strict=True)):
        inside = [s for s in samples if begin <= s.sent_at < end]
        trips = [s.round_trip * 1000 for s in inside]
        relays = [s.relay * 1000 for s in inside if s.relay is not None]
        sockets = sum(
            max((n for at, n in r.sockets if begin <= at < end), default=0) for r in results
        )
        loads = [load for at, load in outcome.loads if begin <= at < end]
        cpu: dict[str, float] = {}
        steal = float("nan")
        client_share = float("nan")
        if index < len(outcome.cpu):
            first, last = outcome.cpu[index]
            steal = stolen_share(first.machine, last.machine)
            moves = len(inside) or 1
            cpu = {name: (last.parts[name] - first.parts[name]) * 1000 / moves
                   for name in first.parts}
            if "clients" in first.parts:
                client_share = ((last.parts["clients"] - first.parts["clients"])
                                / max(last.at - first.at, 1e-9) / max(len(results), 1))
        figures.append(StepFigures(
            players=players, sockets=sockets, moves=len(inside),
            moves_per_second=len(inside) / (end - begin),
            p50=percentile(trips, 50), p95=percentile(trips, 95), p99=percentile(trips, 99),
            relay_p99=percentile(relays, 99),
            errors=dict(Counter(kind for at, kind in errors if begin <= at < end)),
            load=max(loads, default=float("nan")), steal=steal, cpu_per_move=cpu,
            server_per_move=sum(v for n, v in cpu.items() if n not in ("clients", "analysis")),
            client_core_share=client_share,
        ))
    return figures


def report(args: argparse.Namespace, steps: list[int], outcome: Outcome) -> None:
    results = outcome.results
    samples = [s for r in results for s in r.samples]
    errors = [e for r in results for e in r.errors]
    figures = step_figures(args, steps, outcome)
    print(f"\nlive load: {args.asgi} ASGI processes, {args.clients} client processes, "
          f"one move per match every "
          f"~{args.interval:g} s, {args.rules} rules, {args.step_seconds:g} s measured per step")
    print(f"{'players':>7} {'sockets':>7} {'moves/s':>8} {'p50 ms':>7} {'p95 ms':>7} "
          f"{'p99 ms':>7} {'relay p99':>9} {'errors':>6} {'load':>5} {'steal':>6}  error kinds")
    passed_at = None
    for step in figures:
        if passed_at is None and step.p99 > TARGET_P99_MS:
            passed_at = step.players
        print(f"{step.players:>7} {step.sockets:>7} {step.moves_per_second:>8.1f} "
              f"{step.p50:>7.1f} {step.p95:>7.1f} {step.p99:>7.1f} "
              f"{step.relay_p99:>9.1f} {sum(step.errors.values()):>6} "
              f"{step.load:>5.2f} {step.steal:>6.1%}  {step.errors or ''}")
    print("\nCPU per accepted move (ms of CPU time, by part; the machine's other work excluded;"
          " server: all but the clients and the analysis worker; client core: the share of a"
          " core per client process)")
    names = list(outcome.cpu[0][0].parts) if outcome.cpu else []
    print(f"{'players':>7} " + " ".join(f"{n:>11}" for n in names) + f" {'server':>8}"
          + f" {'client core':>11}")
    for step in figures:
        if not step.cpu_per_move:
            continue
        print(f"{step.players:>7} " + " ".join(f"{step.cpu_per_move[n]:>11.2f}" for n in names)
              + f" {step.server_per_move:>8.2f} {step.client_core_share:>11.0%}")
    if len(outcome.shards[0] if outcome.shards else []) > 1:
        print("\nmatch groups held on each Redis shard of the channel layer, end of each step")
        for players, counts in zip(steps, outcome.shards, strict=False):
            print(f"{players:>7} " + " ".join(f"{n:>6}" for n in counts))
    if passed_at is None:
        print(f"p99 stayed at or under {TARGET_P99_MS:g} ms at every step")
    else:
        print(f"p99 passed {TARGET_P99_MS:g} ms at {passed_at} players")
    total = Counter(kind for _at, kind in errors)
    print(f"whole run: {len(samples)} moves measured, errors {dict(total) or 0}")


if __name__ == "__main__":
    main()
