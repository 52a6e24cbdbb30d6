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

The faults, the players and the checks are bench/topology_faults.py's, which
``bench.topology_load`` runs with 200 players. The whole topology is started and
stopped by the test (about 20 s), on free ports and in a run directory of its own
under ``build/``; the suite's PostgreSQL and Redis are not touched.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from bench.topology import ROOT, Topology
from bench.topology_faults import (
    check_logs,
    players_for,
    print_outcomes,
    run_faults,
    setup_matches,
)

MATCHES = 3


@pytest.fixture(scope="module")
def topology() -> Any:
    directory = ROOT / "build" / f"topology-faults-{os.getpid()}"
    running = Topology.up(Path(directory), log=lambda *_: None)
    try:
        yield running
    finally:
        running.down(log=lambda *_: None)
    shutil.rmtree(directory)  # kept, with its logs, when the topology failed to stop


def test_every_fault_once_on_the_topology_through_nginx(topology: Topology) -> None:
    tables = setup_matches(topology, computer=MATCHES)
    players = players_for(tables, topology.layout.url, pace=0.1)

    run = asyncio.run(run_faults(topology, players, log=lambda *_: None))

    print()
    print_outcomes(run)
    assert len(run.outcomes) == 5
    for outcome in run.outcomes:
        assert outcome.stalled is None, outcome.stalled
    assert run.named("kill -9 of the ASGI process").drops, (
        "no player's socket was on the ASGI process killed")
    for player in players:
        assert player.accepted(), f"{player.name} had no move acknowledged"
    checked = check_logs(topology, players)
    assert checked.problems == [], "\n".join(checked.problems)
    # While PgBouncer is down a move cannot be stored, and its refusal is honest; once it
    # answers again, every ASGI process's pooled connections are dead, and a move must
    # not be refused for that (the pool checks a connection before lending it).
    refused_once_back = {o.name: o.refused_once_back for o in run.outcomes
                         if o.refused_once_back is not None}
    assert refused_once_back == {"restart of PgBouncer": 0}, (
        f"moves refused with server_error once PgBouncer was back: {refused_once_back}")
