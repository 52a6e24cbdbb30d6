"""A tournament round starts many matches at once (games.services.matches.
create_started_matches): every player's event stream (``GET /api/stream/event``) hears
its ``matchStart``, on the Redis channel layer, however many matches start together."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.db import connection, transaction

from games.api import events as api_events

pytestmark = pytest.mark.django_db(transaction=True)  # the events go after commit


def test_a_bulk_start_announces_each_match_on_each_players_event_stream():
    # 150 players (more than the layer's 100 Redis connections of a process: sent all
    # at once, the sends past the hundredth failed and those players never heard).
    layer = get_channel_layer()
    # User ids no account of the test database has (another test's real matches send
    # to their players' groups on the same Redis database).
    base = 10**9
    players = {match_id: [base + 2 * match_id, base + 1 + 2 * match_id]
               for match_id in range(1, 76)}
    uids = [uid for ids in players.values() for uid in ids]

    def start_all() -> None:
        try:
            with transaction.atomic():
                api_events.matches_started(players)
        finally:
            connection.close()  # this thread's own connection

    async def scenario() -> dict[int, int]:
        # One event loop throughout: the pub/sub layer's subscriptions belong to the
        # loop that made them, as a stream's do to its server's loop.
        streams = {uid: await layer.new_channel() for uid in uids}
        for uid, channel in streams.items():
            await layer.group_add(api_events.events_group(uid), channel)
        await sync_to_async(start_all, thread_sensitive=False)()
        got = {}
        for uid, channel in streams.items():
            message = await asyncio.wait_for(layer.receive(channel), timeout=30)
            assert message["event"]["type"] == "matchStart"
            got[uid] = message["event"]["match"]["id"]
        return got

    assert async_to_sync(scenario)() == {uid: match_id for match_id, ids in players.items()
                                         for uid in ids}
