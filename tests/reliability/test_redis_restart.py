"""Redis (channel layer and Celery broker) crashes and restarts empty during play:
the site recovers by itself and the matches go on.

This test runs its own ``redis-server`` (the suite's Redis is shared with other
test runs) with two ASGI processes, a Celery worker and beat on it, under a
supervisor that restarts whatever exits, as systemd does in the deployment: the
Celery worker can die of the lost connection (kombu's "Unrecoverable error:
AttributeError ... 'hostname'" while it acknowledges a task) and is restarted.
Sockets whose channel-layer read failed are closed by the server; the players
reconnect, get a full state, and their reconnection enqueues again whatever the
match waits for (a computer move lost with the broker's queue). A socket that
stayed open missed what was published while Redis was down: as soon as the channel
layer is connected again its process renews its sockets, which joins them to their
groups again and sends the state to each whose match moved on meanwhile (the second
test shows this does not wait for the next renewal); if its match waits for a
computer move lost with the queue, beat's clock tick enqueues it again ten seconds
after it was enqueued.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.api import events as api_events
from games.api import services as api_services
from games.engine import RuleSet
from games.engine.rules import TARGET_SCORES
from games.models import Match
from tests.api.streams import StreamReader
from tests.factories import (
    create_api_token,
    create_challenge,
    create_match,
    create_user,
    create_users,
    play_to_turn_of,
)
from tests.reliability.common import (
    assert_frames_hide_secrets,
    cookie,
    move_log,
    people_matches,
    versions,
    wait_for,
    waiting_on,
)
from tests.reliability.players import Player, check_against_log
from tests.reliability.servers import (
    PrivateAsgiServer,
    PrivateCeleryBeat,
    PrivateCeleryWorker,
    RedisServer,
    Supervisor,
)
from tests.workers import started

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


@pytest.fixture
def private_stack(django_db_setup: None) -> Iterator[tuple[RedisServer, list]]:
    with started([RedisServer()]) as (redis_server,), started(
        [PrivateAsgiServer(redis_server.url), PrivateAsgiServer(redis_server.url),
         PrivateCeleryWorker(redis_server.url), PrivateCeleryBeat(redis_server.url)]
    ) as processes:
        yield redis_server, processes


@pytest.fixture(scope="module")
def hourly_renewal(django_db_setup: None) -> Iterator[tuple[RedisServer, PrivateAsgiServer]]:
    """A private Redis and one ASGI server on it that renews its sockets once an hour:
    its next renewal cannot be what brings a socket up to date."""
    with started([RedisServer()]) as (redis_server,), started(
        [PrivateAsgiServer(redis_server.url, PRESENCE_RENEW_SECONDS="3600")]
    ) as (server,):
        yield redis_server, server


LONG = RuleSet.time_freedom().replace(target_score=max(TARGET_SCORES))
"""The longest match (no clock): a match that ends before Redis restarts tests nothing."""


def computer_matches(count: int) -> list:
    """``count`` started matches (no clock, to LONG's target) of new players against
    the easy computer."""
    return [(create_match(user, "easy", rules=LONG, variant="time_freedom"), user)
            for user in create_users(count, "solo")]


async def test_redis_restart_during_play(private_stack):
    redis_server, processes = private_stack
    first, second = processes[:2]
    people = await database_sync_to_async(people_matches)(2, "r", LONG)
    solo = await database_sync_to_async(computer_matches)(2)
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
    supervisor = Supervisor(processes)
    tasks = [asyncio.create_task(p.play(stop)) for p in players]
    tasks.append(asyncio.create_task(supervisor.watch(stop)))
    try:
        await wait_for(lambda: _advanced(ids, {i: 6 for i in ids}), 60, "play to start")
        await asyncio.to_thread(redis_server.restart)
        after = await versions(ids)
        # A match that ended meanwhile cannot go on; under load one match can start
        # late while the others play fast. At least one match of each kind must be
        # in play at the restart, or the test would prove nothing for that kind.
        playing = await in_play(ids)
        assert {p.match_id for p in players[:4]} & playing, f"no match of people in play: {after}"
        assert {p.match_id for p in players[4:]} & playing, f"no computer match in play: {after}"
        try:
            await wait_for(
                lambda: _went_on(sorted(playing), after, 8), 60,
                "every match in play to go on after the restart",
            )
        except AssertionError as error:
            seen = [(p.name, p.version, p.drops, p.resyncs[-1], p.submissions[-1].outcome)
                    for p in players]
            raise AssertionError(
                f"{error}: versions {await versions(ids)} (at restart {after}), players "
                f"{seen}, restarted {supervisor.restarts}, waiting on (status, seat, "
                f"computer's, clock check) {await waiting_on(ids)}"
                + "".join(f"\n--- {p.name} ---\n{p.log()}" for p in processes)
            ) from error
    finally:
        stop.set()
        await asyncio.gather(*tasks)
    # The sockets the failure closed reconnected and resynced by themselves.
    assert all(after >= before for p in players for before, after in p.resyncs)
    for match_id in ids:
        pair = [p for p in players if p.match_id == match_id]
        check_against_log(pair, await move_log(match_id))
        await assert_frames_hide_secrets(match_id, [(p.you, p.states) for p in pair])


async def test_open_sockets_hear_of_the_moves_made_while_redis_was_down(hourly_renewal):
    """A move made while the channel layer's Redis is down is published to nobody. Once
    Redis is back, the players whose sockets stayed open are sent the match as it is and
    play on, at once, on a server whose next renewal is an hour away."""
    redis_server, server = hourly_renewal
    [(match, host, guest)] = await database_sync_to_async(people_matches)(1, "d")
    players = [Player(user.username, match.pk, await _cookie(user), servers=[server.url])
               for user in (host, guest)]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.play(stop)) for p in players]
    try:
        await wait_for(lambda: _advanced([match.pk], {match.pk: 4}), 60, "play to start")
        # Read before the kill: a move made between the kill and the read would leave the
        # other player, who never heard of it, with no move to make while Redis is down.
        down = (await versions([match.pk]))[match.pk]
        redis_server.kill()
        await wait_for(lambda: _advanced([match.pk], {match.pk: down + 1}), 60,
                       "a move while Redis is down")
        await asyncio.to_thread(redis_server.start)
        back = (await versions([match.pk]))[match.pk]
        await wait_for(lambda: _advanced([match.pk], {match.pk: back + 6}), 60,
                       "the match to go on once Redis is back")
    finally:
        stop.set()
        await asyncio.gather(*tasks)
    assert [p.drops for p in players] == [0, 0], "a socket was closed"
    check_against_log(players, await move_log(match.pk))


async def test_a_bot_stream_hears_of_the_move_made_while_redis_was_down(hourly_renewal):
    """The same for a BOT playing over the API: once Redis is back, its match stream is
    sent the state at its next keep-alive. The person's move is made by the test through
    the services, whose publisher is not on the server's Redis: published to nobody
    there, as a move made while that Redis was down."""
    redis_server, server = hourly_renewal
    match, robot, token = await database_sync_to_async(_person_to_move_against_a_bot)()
    reader = await asyncio.to_thread(
        StreamReader, server.url, f"/api/bot/match/{match.pk}/stream", token
    )
    try:
        first = await asyncio.to_thread(reader.next)
        assert first["type"] == "state"
        redis_server.kill()
        await database_sync_to_async(play_to_turn_of)(match, robot)
        await asyncio.to_thread(redis_server.start)
        state = await asyncio.to_thread(
            reader.wait_for,
            lambda line: line["type"] == "state" and line["version"] > first["version"], 60,
        )
    finally:
        await asyncio.to_thread(reader.close)
    assert state["view"]["current_player"] == state["you"]


async def test_a_bot_event_stream_hears_of_what_happened_while_redis_was_down(hourly_renewal):
    """A BOT's event stream that stayed open is sent, once Redis is back, the events
    published to nobody meanwhile: a challenge withdrawn, a new one, a match started,
    and one of its own challenges declined. The test makes them through the services,
    whose publisher is not on the server's Redis, as if while that Redis was down."""
    redis_server, server = hourly_renewal
    cast, opening, token = await database_sync_to_async(_challenged_bot)()
    reader = await asyncio.to_thread(StreamReader, server.url, "/api/stream/event", token)
    try:
        assert await asyncio.to_thread(reader.next) == opening
        redis_server.kill()
        wanted = await database_sync_to_async(_while_down)(**cast)
        await asyncio.to_thread(redis_server.start)
        heard = [await asyncio.to_thread(reader.next, 60) for _ in wanted]
    finally:
        await asyncio.to_thread(reader.close)
    assert sorted(heard, key=str) == sorted(wanted, key=str)


def _challenged_bot() -> tuple[dict[str, Any], dict[str, Any], str]:
    """A BOT challenged by ann and challenging bob: who is who, the stream's opening
    line, the BOT's token."""
    robot = create_user("e-bot", bot=True)
    ann, bob = create_user("e-ann"), create_user("e-bob")
    withdrawn = create_challenge(ann, robot, variant="time_freedom", target=50)
    declined = create_challenge(robot, bob, variant="time_freedom", target=50)
    cast = {"robot": robot, "withdrawn": withdrawn, "declined": declined}
    opening = {"type": "challenge", "challenge": api_events.challenge_json(withdrawn)}
    return cast, opening, create_api_token(robot)[0]


def _while_down(robot: Any, withdrawn: Any, declined: Any) -> list[dict[str, Any]]:
    """Withdraw, decline, offer and accept challenges; the events the BOT should hear."""
    ann = withdrawn.challenger
    api_services.challenge_cancel(user=ann, challenge_id=withdrawn.pk)
    api_services.challenge_decline(user=declined.dest, challenge_id=declined.pk)
    offered = create_challenge(create_user("e-carl"), robot, variant="time_freedom", target=50)
    accepted = create_challenge(ann, robot, variant="time_freedom", target=50)
    match = api_services.challenge_accept(user=robot, challenge_id=accepted.pk)
    return [
        {"type": "challengeCanceled", "challenge": {"id": withdrawn.pk}},
        {"type": "challengeDeclined", "challenge": {"id": declined.pk}},
        {"type": "challenge", "challenge": api_events.challenge_json(offered)},
        {"type": "matchStart", "match": {"id": match.pk}},
    ]


def _person_to_move_against_a_bot() -> tuple[Any, Any, str]:
    person, robot = create_user("d-person"), create_user("d-bot", bot=True)
    challenge = create_challenge(person, robot, variant="time_freedom", target=50)
    match = api_services.challenge_accept(user=robot, challenge_id=challenge.pk)
    return play_to_turn_of(match, person), robot, create_api_token(robot)[0]


async def _cookie(user) -> str:
    return await database_sync_to_async(cookie)(user)


async def _advanced(ids: list[int], targets: dict[int, int]) -> bool:
    now = await versions(ids)
    return all(now[i] >= targets[i] for i in ids)


@database_sync_to_async
def in_play(ids: list[int]) -> set[int]:
    """Those of the matches ``ids`` that are not over."""
    return set(Match.objects.filter(pk__in=ids, status=Match.Status.ACTIVE)
               .values_list("pk", flat=True))


async def _went_on(ids: list[int], since: dict[int, int], moves: int) -> bool:
    """Each match is ``moves`` versions past ``since``, or has moved and is over."""
    now = await versions(ids)
    playing = await in_play(ids)
    return all(now[i] >= since[i] + moves or (i not in playing and now[i] > since[i])
               for i in ids)
