"""The five faults of the production topology (``bench.topology``), each once, while
players play through its nginx: kill -9 of the busiest ASGI process, a restart of
PgBouncer, a restart of the busiest channel-layer Redis server, a restart of PostgreSQL
(the topology's own cluster, never the machine's) and kill -9 of the default Celery
worker while the computer is thinking. Each service comes back under its supervisor,
as systemd's ``Restart=always`` brings it back.

One implementation for two sizes: the suite's fault run
(tests/reliability/test_topology_faults.py: three people against the computer) and
``bench.topology_load`` (200 players: people against people, and a few against the
computer). The players are the fault tests' (``tests.reliability.players.Player``: one
socket each, reconnecting when it dies, recording every action and what became of
it), so what they saw is checked against the Move log by ``check_against_log``.

``run_faults`` returns, per fault, the longest time a player waited for the table to
move on, from the fault until their match had moved on twice (``no fault``: the same
wait measured with nothing broken, the players' own pace); the sockets lost; the
moves answered ``server_error``; and, after PgBouncer's restart, those refused once it
answered again. ``check_logs`` then compares every match's Move log with its players.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import psycopg

from bench.topology import DATABASE, ROOT, Topology, process_env
from tests.reliability.players import Player, check_against_log

PROGRESS_TIMEOUT = 60.0  # seconds a match may take to move on after a fault


@dataclass
class TableSeats:
    """One match of the run: its players' session cookies in seat order (one for a
    match against the computer), and whether the computer plays in it."""

    match_id: int
    cookies: list[str]
    computer: bool


def setup_matches(topology: Topology, *, people: int = 0, computer: int = 0,
                  variant: str = "time_freedom") -> list[TableSeats]:
    """``people`` started matches between two people and ``computer`` against the easy
    computer (``time_freedom``: no clock, so a long fault ends no match), made in the
    topology's own database by a process with its environment."""
    code = (
        "import django, json, uuid; django.setup()\n"
        "from tests.factories import create_match, create_user\n"
        "from tests.games.sockets import session_cookie\n"
        "made = []\n"
        "def user():\n"
        "    return create_user('fault-' + uuid.uuid4().hex[:12])\n"
        f"for i in range({people}):\n"
        "    host, guest = user(), user()\n"
        f"    match = create_match(host, guest, variant={variant!r})\n"
        "    made.append((match.pk, [session_cookie(u).decode() for u in (host, guest)], False))\n"
        f"for i in range({computer}):\n"
        "    person = user()\n"
        f"    match = create_match(person, 'easy', variant={variant!r})\n"
        "    made.append((match.pk, [session_cookie(person).decode()], True))\n"
        "print(json.dumps(made))\n"
    )
    answer = subprocess.run([sys.executable, "-c", code], cwd=ROOT,
                            env=process_env(topology_env(topology)),
                            capture_output=True, text=True, timeout=600)
    if answer.returncode:
        raise RuntimeError(f"making the matches failed:\n{answer.stderr[-3000:]}")
    return [TableSeats(match_id, cookies, computer)
            for match_id, cookies, computer in json.loads(answer.stdout.strip().splitlines()[-1])]


def topology_env(topology: Topology) -> dict[str, str]:
    """The environment of the topology's site processes (``<dir>/env``)."""
    return dict(line.split("=", 1) for line in
                (topology.layout.path / "env").read_text().splitlines() if "=" in line)


class TimedPlayer(Player):
    """A player that also notes when each new table reached it (monotonic seconds)."""

    def __init__(self, *args: Any, computer: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arrivals: list[tuple[float, int]] = []
        self.computer = computer

    async def _on_state(self, ws: Any, state: dict[str, Any]) -> None:
        if not self.arrivals or state["version"] > self.arrivals[-1][1]:
            self.arrivals.append((time.monotonic(), state["version"]))
        await super()._on_state(ws, state)


def players_for(tables: Sequence[TableSeats], url: str, *, pace: float,
                ) -> list[TimedPlayer]:
    """One player per seated person of ``tables``, each through ``url`` (nginx)."""
    return [TimedPlayer(f"m{table.match_id}s{seat}", table.match_id, cookie, [url],
                        pace=pace, retry_server_errors=True, computer=table.computer)
            for table in tables for seat, cookie in enumerate(table.cookies)]


def busiest(ports: list[int]) -> int:
    """The port among ``ports`` whose established connections sent the most bytes: the
    ASGI process holding the players' sockets (nginx's idle keep-alive connections to
    the others carried a health check or two)."""
    listed = subprocess.run(["ss", "-Htni", "state", "established"], capture_output=True,
                            text=True).stdout.splitlines()
    sent = dict.fromkeys(ports, 0)
    for line, info in itertools.pairwise(listed):
        fields = line.split()
        if line.startswith(("\t", " ")) or len(fields) < 3:
            continue
        port = int(fields[2].rsplit(":", 1)[1])
        found = re.search(r"bytes_sent:(\d+)", info)
        if port in sent and found:
            sent[port] += int(found.group(1))
    return max(ports, key=lambda port: sent[port])


def redis_channels(port: int) -> int:
    listed = subprocess.run(["redis-cli", "-p", str(port), "PUBSUB", "CHANNELS", "*"],
                            capture_output=True, text=True).stdout
    return len(listed.split())


async def wait_all_move_on(players: Sequence[TimedPlayer], fault: str, started: float,
                           timeout: float = PROGRESS_TIMEOUT) -> float:
    """Wait until every unfinished match has moved on twice since ``started``; returns
    the longest wait a player had for a new table from ``started`` until then. Fails
    (AssertionError, naming the players) if one has not within ``timeout``."""
    def moved(player: TimedPlayer) -> bool:
        return player.finished or sum(1 for at, _ in player.arrivals if at > started) >= 2

    deadline = time.monotonic() + timeout
    while not all(moved(player) for player in players):
        stuck = [player for player in players if not moved(player)]
        assert time.monotonic() < deadline, (
            f"after {fault}, {len(stuck)} match(es) did not move on within {timeout:g} s: "
            f"{[(p.name, p.version, p.drops, p.errors[-2:]) for p in stuck[:10]]}")
        await asyncio.sleep(0.1)
    longest = 0.0
    for player in players:
        times = [started, *[at for at, _ in player.arrivals if at > started][:2]]
        longest = max(longest, *(b - a for a, b in itertools.pairwise(times)))
    return longest


def answers_queries(topology: Topology, timeout: float = 30.0) -> None:
    """Wait until PgBouncer, just restarted, answers a query."""
    pgbouncer = f"postgres://postgres@127.0.0.1:{topology.layout.pgbouncer_port}/{DATABASE}"
    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(pgbouncer, connect_timeout=2, prepare_threshold=None) as db:
                db.execute("SELECT 1")
            return
        except psycopg.OperationalError:
            if time.monotonic() >= deadline:
                raise RuntimeError(f"PgBouncer did not answer within {timeout:g} s") from None
            time.sleep(0.05)


@dataclass
class FaultOutcome:
    """What the players saw of one fault (``stalled``: why a match did not move on)."""

    name: str
    service: str
    wait: float | None = None
    drops: int = 0
    refusals: int = 0
    refused_once_back: int | None = None
    stalled: str | None = None
    players: int = 0


@dataclass
class FaultRun:
    outcomes: list[FaultOutcome] = field(default_factory=list)

    def named(self, prefix: str) -> FaultOutcome:
        return next(o for o in self.outcomes if o.name.startswith(prefix))


async def run_faults(topology: Topology, players: Sequence[TimedPlayer], *,
                     baseline: bool = False, log: Callable[[str], None] = print) -> FaultRun:
    """Let ``players`` play through the topology's nginx, and hurt it five times, one
    fault after the other once every match has moved on from the last (``baseline``:
    first the same wait with no fault). A match that does not move on within
    ``PROGRESS_TIMEOUT`` is recorded (``stalled``) and the run goes on to the next fault."""
    layout = topology.layout
    run = FaultRun()
    stop = asyncio.Event()
    tasks = [asyncio.create_task(player.play(stop)) for player in players]
    playing = [p for p in players if not p.finished]

    async def measure(outcome: FaultOutcome, hurt: Callable[[str], int] | None) -> None:
        started = time.monotonic()
        errors_before = sum(len(p.errors) for p in players)
        drops_before = sum(p.drops for p in players)
        outcome.players = sum(1 for p in players if not p.finished)
        back = started
        if hurt is not None:
            old = hurt(outcome.service)
            await asyncio.to_thread(topology.wait_running, outcome.service, old)
            if outcome.service == "pgbouncer":
                await asyncio.to_thread(answers_queries, topology)
                back = time.monotonic()
        try:
            outcome.wait = await wait_all_move_on(players, outcome.name, started)
        except AssertionError as stalled:
            outcome.stalled = str(stalled)
        outcome.refusals = sum(len(p.errors) for p in players) - errors_before
        outcome.drops = sum(p.drops for p in players) - drops_before
        if outcome.service == "pgbouncer":
            outcome.refused_once_back = sum(
                s.outcome == "refused" and s.sent_at > back
                for p in players for s in p.submissions)
        run.outcomes.append(outcome)
        shown = "did not move on" if outcome.wait is None else f"{outcome.wait:.2f} s"
        log(f"  {outcome.name}: longest wait {shown}, {outcome.drops} sockets lost, "
            f"{outcome.refusals} refused")

    try:
        try:
            await wait_all_move_on(playing, "the start", time.monotonic())
        except AssertionError as stalled:
            raise RuntimeError(f"the players never got going: {stalled}") from None
        if baseline:
            await measure(FaultOutcome("no fault (the players' own pace)", ""), None)
        port = busiest(layout.asgi_ports)
        await measure(FaultOutcome(f"kill -9 of the ASGI process on {port}",
                                   f"asgi-{port}"), topology.kill)
        await measure(FaultOutcome("restart of PgBouncer", "pgbouncer"), topology.restart)
        shards = layout.redis_ports[:-1]
        shard = max(range(len(shards)), key=lambda i: redis_channels(shards[i]))
        await measure(FaultOutcome(f"restart of channel-layer Redis {shard + 1}",
                                   f"redis-channel-{shard + 1}"), topology.restart)
        await measure(FaultOutcome("restart of PostgreSQL", "postgres"), topology.restart)
        # The computer is thinking (its move enqueued, BOT_THINK_SECONDS away) when a
        # match's person has just moved and the table shows the computer to move.
        against = [p for p in players if p.computer]
        deadline = time.monotonic() + PROGRESS_TIMEOUT
        while not any(p.states and p.states[-1]["view"]
                      and p.states[-1]["view"]["current_player"] != p.you
                      and not p.finished for p in against):
            if time.monotonic() > deadline:
                raise RuntimeError("the computer never had the turn")
            await asyncio.sleep(0.02)
        await measure(FaultOutcome("kill -9 of the Celery worker while the computer thinks",
                                   "worker"), topology.kill)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    return run


def move_log(topology: Topology, match_id: int) -> list[SimpleNamespace]:
    with psycopg.connect(topology.layout.direct_database_url()) as conn:
        rows = conn.execute(
            "SELECT seq, seat, action, auto FROM games_move WHERE match_id = %s ORDER BY seq",
            [match_id],
        ).fetchall()
    return [SimpleNamespace(seq=s, seat=seat, action=a, auto=auto) for s, seat, a, auto in rows]


@dataclass
class LogCheck:
    matches: int
    accepted: int  # acknowledged moves checked against the log
    problems: list[str]


def check_logs(topology: Topology, players: Sequence[TimedPlayer]) -> LogCheck:
    """Every match's Move log against its players (``check_against_log``): every
    acknowledged move in it once, nothing in it that nobody sent."""
    problems = []
    by_match: dict[int, list[TimedPlayer]] = {}
    for player in players:
        by_match.setdefault(player.match_id, []).append(player)
    for match_id, seated in by_match.items():
        try:
            check_against_log(seated, move_log(topology, match_id))
        except AssertionError as wrong:
            problems.append(f"match {match_id}: {wrong}")
    return LogCheck(len(by_match), sum(len(p.accepted()) for p in players), problems)


def print_outcomes(run: FaultRun, log: Callable[[str], None] = print) -> None:
    log("longest wait for the table to move on, from the fault; sockets lost (the page "
        "reconnects); moves answered server_error (tried again a second later, as the "
        "page asks):")
    for o in run.outcomes:
        wait = "  stall" if o.wait is None else f"{o.wait:6.2f} s"
        log(f"  {wait}  {o.drops:3d} lost  {o.refusals:3d} refused  {o.name}")
        if o.stalled:
            log(f"      {o.stalled}")
