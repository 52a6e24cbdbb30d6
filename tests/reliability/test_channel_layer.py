"""The Redis channel layer as configured (settings.CHANNEL_LAYERS) loses no message:
thousands of group messages sent while other members join and leave the group
reach every member that stayed in it, each once and in order."""

from __future__ import annotations

import asyncio

from channels.layers import get_channel_layer

from games import broadcast

MESSAGES = 3000
STAYING = 4
GROUP = "layer-test-table"


async def test_group_messages_reach_every_member_in_order_while_others_come_and_go():
    layer = get_channel_layer()
    staying = [await layer.new_channel() for _ in range(STAYING)]
    for channel in staying:
        await layer.group_add(GROUP, channel)
    received: dict[str, list[int]] = {channel: [] for channel in staying}

    async def read(channel: str) -> None:
        while len(received[channel]) < MESSAGES:
            message = await layer.receive(channel)
            received[channel].append(message["n"])

    async def come_and_go() -> None:
        for round_number in range(60):
            visitor = await layer.new_channel()
            await layer.group_add(GROUP, visitor)
            await asyncio.sleep(0)
            await layer.group_discard(GROUP, visitor)
            if round_number % 10 == 0:
                await asyncio.sleep(0.01)

    async def send() -> None:
        for n in range(MESSAGES):
            # A channel holds at most the layer's `capacity` (1,500): stay well within it,
            # as live play does (a socket hears a few messages a second).
            while min(len(r) for r in received.values()) < n - 500:
                await asyncio.sleep(0.001)
            await layer.group_send(GROUP, {"type": "match.message", "n": n})

    readers = [asyncio.create_task(read(channel)) for channel in staying]
    await asyncio.gather(send(), come_and_go())
    await asyncio.wait_for(asyncio.gather(*readers), timeout=120)
    for channel in staying:
        assert received[channel] == list(range(MESSAGES))
        await layer.group_discard(GROUP, channel)


async def test_events_published_from_threads_reach_every_member_in_order():
    """What the site publishes after a commit (games/broadcast.py, from a database
    thread or a Celery worker) reaches the layer's group members: thousands of events
    in batches of two groups, as a move's, each group's in order."""
    layer = get_channel_layer()
    groups = [f"{GROUP}-seat-1", f"{GROUP}-spectators"]
    members = {group: [await layer.new_channel() for _ in range(2)] for group in groups}
    for group, channels in members.items():
        for channel in channels:
            await layer.group_add(group, channel)
    received: dict[str, list[int]] = {c: [] for channels in members.values() for c in channels}

    async def read(channel: str) -> None:
        while len(received[channel]) < MESSAGES:
            message = await layer.receive(channel)
            received[channel].append(message["n"])

    def publish(first: int, last: int) -> None:
        for n in range(first, last):
            broadcast.group_send([(group, {"type": "match.message", "n": n}) for group in groups])

    readers = [asyncio.create_task(read(channel)) for channel in received]
    for first in range(0, MESSAGES, 500):  # from a thread, as the database threads do
        await asyncio.to_thread(publish, first, first + 500)
        while min(len(r) for r in received.values()) < first:  # within the capacity
            await asyncio.sleep(0.001)
    await asyncio.wait_for(asyncio.gather(*readers), timeout=120)
    for group, channels in members.items():
        for channel in channels:
            assert received[channel] == list(range(MESSAGES))
            await layer.group_discard(group, channel)


async def test_an_event_published_after_redis_dropped_the_publishers_connection_arrives():
    """Redis closes the connection a database thread publishes on (a restart, an idle
    timeout): the next batch goes out on a new connection, and nothing is lost."""
    import redis
    from django.conf import settings

    from ginsite import runtime

    publisher = runtime.publisher()
    assert isinstance(publisher, runtime.PubSubPublisher)
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(GROUP, channel)
    send = [(GROUP, {"type": "match.message", "n": 1})]
    await asyncio.to_thread(broadcast.group_send, send)
    assert (await asyncio.wait_for(layer.receive(channel), 10))["n"] == 1
    admin = redis.Redis.from_url(settings.REDIS_URL)
    idle = [c for c in admin.client_list() if c["cmd"] == "publish"]
    assert idle, "the publisher keeps its connection between batches"
    for client in idle:
        admin.client_kill_filter(_id=client["id"])
    await asyncio.to_thread(broadcast.group_send, [(GROUP, {"type": "match.message", "n": 2})])
    assert (await asyncio.wait_for(layer.receive(channel), 10))["n"] == 2
    await layer.group_discard(GROUP, channel)
    admin.close()
