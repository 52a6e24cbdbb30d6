"""The fault run on the production topology (``bench.topology``: nginx, four ASGI
processes, PgBouncer in transaction mode, a private PostgreSQL cluster, two channel-layer
Redis servers and one for the broker, the two Celery workers and beat, each under a
supervisor that restarts it as systemd's ``Restart=always`` does).

A few people play the computer through nginx while each fault happens once: kill -9 of
the busiest ASGI process, a restart of PgBouncer, a restart of the busiest channel-layer
Redis server, a restart of PostgreSQL (the topology's own cluster, never the machine's)
and kill -9 of the default Celery worker while the computer is thinking. After each,
every match must move on; at the end every acknowledged move is in the Move log once
and the log holds nothing nobody sent (``check_against_log``). The longest time a
player waited for the table to move, from each fault until their match moved on, is
printed per fault (run with ``-s`` to see it).

The whole topology is started and stopped by the test (about 20 s), on free ports and
in a run directory of its own under ``build/``; the suite's PostgreSQL and Redis are
not touched.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import psycopg
import pytest

from bench.topology import DATABASE, ROOT, Topology, process_env
from tests.reliability.players import Player, check_against_log

MATCHES = 3
PROGRESS_TIMEOUT = 60.0  # seconds a match may take to move on after a fault


def setup_matches(topology: Topology) -> list[tuple[int, str]]:
    """``MATCHES`` started computer matches (no clock), each with its person's cookie,
    made in the topology's own database by a process with its environment."""
    env = dict(line.split("=", 1) for line in
               (topology.layout.path / "env").read_text().splitlines() if "=" in line)
    code = (
        "import django, json; django.setup()\n"
        "from tests.factories import create_match, create_user\n"
        "from tests.games.sockets import session_cookie\n"
        "made = []\n"
        f"for i in range({MATCHES}):\n"
        "    user = create_user(f'fault{i}')\n"
        "    match = create_match(user, 'easy', variant='time_freedom')\n"
        "    made.append((match.pk, session_cookie(user).decode()))\n"
        "print(json.dumps(made))\n"
    )
    answer = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=process_env(env),
                            capture_output=True, text=True, timeout=120)
    assert answer.returncode == 0, answer.stderr[-3000:]
    return [tuple(pair) for pair in json.loads(answer.stdout.strip().splitlines()[-1])]


def move_log(topology: Topology, match_id: int) -> list[SimpleNamespace]:
    with psycopg.connect(topology.layout.direct_database_url()) as conn:
        rows = conn.execute(
            "SELECT seq, seat, action, auto FROM games_move WHERE match_id = %s ORDER BY seq",
            [match_id],
        ).fetchall()
    return [SimpleNamespace(seq=s, seat=seat, action=a, auto=auto) for s, seat, a, auto in rows]


class TimedPlayer(Player):
    """A player that also notes when each new table reached it (monotonic seconds)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arrivals: list[tuple[float, int]] = []

    async def _on_state(self, ws: Any, state: dict[str, Any]) -> None:
        if not self.arrivals or state["version"] > self.arrivals[-1][1]:
            self.arrivals.append((time.monotonic(), state["version"]))
        await super()._on_state(ws, state)


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


@pytest.fixture(scope="module")
def topology() -> Any:
    directory = ROOT / "build" / f"topology-faults-{os.getpid()}"
    running = Topology.up(Path(directory), log=lambda *_: None)
    try:
        yield running
    finally:
        running.down(log=lambda *_: None)
    shutil.rmtree(directory)  # kept, with its logs, when the topology failed to stop


async def wait_all_move_on(players: list[TimedPlayer], fault: str, started: float) -> float:
    """Wait until every unfinished match has moved on twice since ``started``; returns
    the longest wait a player had for a new table from ``started`` until then."""
    def moved(player: TimedPlayer) -> bool:
        return player.finished or sum(1 for at, _ in player.arrivals if at > started) >= 2

    deadline = time.monotonic() + PROGRESS_TIMEOUT
    while not all(moved(player) for player in players):
        assert time.monotonic() < deadline, (
            f"after {fault}, a match did not move on within {PROGRESS_TIMEOUT:g} s: "
            f"{[(p.name, p.version, p.drops, p.errors[-2:]) for p in players]}")
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
            assert time.monotonic() < deadline, f"PgBouncer did not answer within {timeout:g} s"
            time.sleep(0.05)


def test_every_fault_once_on_the_topology_through_nginx(topology: Topology) -> None:
    layout = topology.layout
    matches = setup_matches(topology)
    players = [TimedPlayer(f"p{match_id}", match_id, cookie, [layout.url], pace=0.1,
                           retry_server_errors=True)
               for match_id, cookie in matches]
    waits: dict[str, float] = {}
    refusals: dict[str, int] = {}
    refused_once_back: dict[str, int] = {}  # moves sent once the service answered again
    drops: dict[str, int] = {}

    async def run() -> None:
        stop = asyncio.Event()
        tasks = [asyncio.create_task(player.play(stop)) for player in players]
        try:
            await wait_all_move_on(players, "the start", time.monotonic())

            async def fault(name: str, hurt: Any, service: str) -> None:
                started = time.monotonic()
                errors_before = sum(len(p.errors) for p in players)
                drops_before = sum(p.drops for p in players)
                old = hurt(service)
                await asyncio.to_thread(topology.wait_running, service, old)
                if service == "pgbouncer":
                    await asyncio.to_thread(answers_queries, topology)
                    back = time.monotonic()
                waits[name] = await wait_all_move_on(players, name, started)
                refusals[name] = sum(len(p.errors) for p in players) - errors_before
                if service == "pgbouncer":
                    refused_once_back[name] = sum(
                        s.outcome == "refused" and s.sent_at > back
                        for p in players for s in p.submissions)
                drops[name] = sum(p.drops for p in players) - drops_before

            port = busiest(layout.asgi_ports)
            await fault(f"kill -9 of the ASGI process on {port}", topology.kill, f"asgi-{port}")
            assert drops[f"kill -9 of the ASGI process on {port}"], (
                "no player's socket was on the ASGI process killed")
            await fault("restart of PgBouncer", topology.restart, "pgbouncer")
            shards = layout.redis_ports[:-1]
            shard = max(range(len(shards)), key=lambda i: redis_channels(shards[i]))
            await fault(f"restart of channel-layer Redis {shard + 1}", topology.restart,
                        f"redis-channel-{shard + 1}")
            await fault("restart of PostgreSQL", topology.restart, "postgres")
            # The computer is thinking (its move enqueued, BOT_THINK_SECONDS away) when a
            # match's person has just moved and the table shows the computer to move.
            deadline = time.monotonic() + PROGRESS_TIMEOUT
            while not any(p.states and p.states[-1]["view"]
                          and p.states[-1]["view"]["current_player"] != p.you
                          and not p.finished for p in players):
                assert time.monotonic() < deadline, "the computer never had the turn"
                await asyncio.sleep(0.02)
            await fault("kill -9 of the Celery worker while the computer thinks",
                        topology.kill, "worker")
        finally:
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())

    print("\nlongest wait for the table to move on, from the fault; sockets lost (the page "
          "reconnects); moves answered server_error (tried again a second later, as the "
          "page asks):")
    for name, wait in waits.items():
        print(f"  {wait:6.2f} s  {drops[name]:2d} lost  {refusals[name]:2d} refused  {name}")
    for player in players:
        moves = move_log(topology, player.match_id)
        assert player.accepted(), f"{player.name} had no move acknowledged"
        check_against_log([player], moves)
    assert len(waits) == 5
    # While PgBouncer is down a move cannot be stored, and its refusal is honest; once it
    # answers again, every ASGI process's pooled connections are dead, and a move must
    # not be refused for that (the pool checks a connection before lending it).
    assert refused_once_back == {"restart of PgBouncer": 0}, (
        f"moves refused with server_error once PgBouncer was back: {refused_once_back}")
