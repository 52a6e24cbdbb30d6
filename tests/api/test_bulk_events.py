"""A tournament round starts many matches at once (games.services.matches.
create_started_matches): every player's event stream (``GET /api/stream/event``) hears
its ``matchStart``, on the Redis channel layer, however many matches start together."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

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
    streams = {uid: f"test-events-{uid}" for ids in players.values() for uid in ids}

    async def open_streams() -> None:
        for uid, channel in streams.items():
            await layer.group_add(api_events.events_group(uid), channel)

    async def heard() -> dict[int, int]:
        got = {}
        for uid, channel in streams.items():
            message = await asyncio.wait_for(layer.receive(channel), timeout=30)
            assert message["event"]["type"] == "matchStart"
            got[uid] = message["event"]["match"]["id"]
        return got

    async_to_sync(open_streams)()
    with transaction.atomic():
        api_events.matches_started(players)
    assert async_to_sync(heard)() == {uid: match_id for match_id, ids in players.items()
                                      for uid in ids}
