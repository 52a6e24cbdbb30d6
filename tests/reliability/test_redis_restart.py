"""Redis (channel layer and Celery broker) crashes and restarts empty during play:
the site recovers by itself and the matches go on.

This test runs its own ``redis-server`` (the suite's Redis is shared with other
test runs) with two ASGI processes and a Celery worker on it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from channels.db import database_sync_to_async

from games import services
from tests.games.helpers import make_user
from tests.reliability.common import NO_CLOCK, cookie, move_log, people_matches, versions, wait_for
from tests.reliability.players import Player, check_against_log
from tests.reliability.servers import PrivateAsgiServer, PrivateCeleryWorker, RedisServer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


@pytest.fixture
def private_stack(django_db_setup: None) -> Iterator[tuple[RedisServer, list[PrivateAsgiServer]]]:
    redis_server = RedisServer()
    redis_server.start()
    processes = [PrivateAsgiServer(redis_server.url), PrivateAsgiServer(redis_server.url),
                 PrivateCeleryWorker(redis_server.url)]
    try:
        for process in processes:
            process.start()
        yield redis_server, processes[:2]
    finally:
        for process in processes:
            process.stop()
            process.remove_log()
        redis_server.stop()
        redis_server.remove_log()


def computer_matches(user_model, count: int) -> list:
    matches = []
    for index in range(count):
        user = make_user(user_model, f"solo{index}")
        match = services.match_create_computer(
            user=user, level="easy", rules=NO_CLOCK, variant="time_freedom"
        )
        matches.append((match, user))
    return matches


async def test_redis_restart_during_play(private_stack, django_user_model):
    redis_server, (first, second) = private_stack
    people = await database_sync_to_async(people_matches)(django_user_model, 2, "r")
    solo = await database_sync_to_async(computer_matches)(django_user_model, 2)
    players: list[Player] = []
    for match, host, guest in people:
        players.append(Player(host.username, match.pk, await _cookie(host),
                              servers=[first.url, second.url]))
        players.append(Player(guest.username, match.pk, await _cookie(guest),
                              servers=[second.url, first.url]))
    for index, (match, user) in enumerate(solo):
        servers = [first.url, second.url][:: 1 if index % 2 else -1]
        players.append(Player(user.username, match.pk, await _cookie(user), servers=servers))
    ids = sorted({p.match_id for p in players})
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.play(stop)) for p in players]
    try:
        await wait_for(lambda: _advanced(ids, {i: 6 for i in ids}), 30, "play to start")
        await asyncio.to_thread(redis_server.restart)
        after = await versions(ids)
        await wait_for(
            lambda: _advanced(ids, {i: v + 8 for i, v in after.items()}), 45,
            "every match to go on after the restart",
        )
    finally:
        stop.set()
        await asyncio.gather(*tasks)
    # The sockets the failure closed reconnected and resynced by themselves.
    assert all(after >= before for p in players for before, after in p.resyncs)
    for match_id in ids:
        check_against_log([p for p in players if p.match_id == match_id], await move_log(match_id))


async def _cookie(user) -> str:
    return await database_sync_to_async(cookie)(user)


async def _advanced(ids: list[int], targets: dict[int, int]) -> bool:
    now = await versions(ids)
    return all(now[i] >= targets[i] for i in ids)
