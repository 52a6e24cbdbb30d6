"""Presence that expires unless renewed: a seated player's sockets are rows that their
server process renews; a process killed with -9 never closes its sockets, and the
clock sweep then finds them stale, marks the seat disconnected as of when its player
was last seen, tells the table, and the abandonment rule of docs/rules.md section 9 runs.

Times are passed to the services (``now``); nothing sleeps for minutes.
"""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone
from websockets.sync.client import connect

from games import broadcast, services
from games.engine import RuleSet
from games.models import Match, Seat, SeatSocket
from games.presence_renewer import Renewer
from games.services import presence, scheduling
from tests.factories import create_match, seated
from tests.games.sockets import Socket, session_cookie

SECOND = timedelta(seconds=1)
EXPIRY = presence.SOCKET_EXPIRY


class Table:
    """What the sockets of a match would hear: the presence messages broadcast."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict]] = []

    def group_send(self, sends: list[tuple[str, dict]]) -> None:
        self.sent.extend(sends)

    def presence(self, match: Match) -> list[list[bool]]:
        """Each presence message sent to the match's sockets, as connected flags."""
        return [
            [s["connected"] for s in event["message"]["seats"]]
            for group, event in self.sent
            if group == broadcast.public_group(match.pk) and event["type"] == "match.presence"
        ]


@pytest.fixture
def table(monkeypatch) -> Table:
    table = Table()
    monkeypatch.setattr(broadcast, "group_send", table.group_send)
    return table


@pytest.fixture
def planned(monkeypatch) -> list[dict]:
    """Computer turns the services plan (none runs by itself here)."""
    calls: list[dict] = []
    monkeypatch.setattr(scheduling, "bot_turn", lambda **kwargs: calls.append(kwargs))
    return calls


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Run what the services do after commit (broadcasts, planning), as in production."""

    def run(call, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(**kwargs)

    return run


@pytest.fixture
def friends(alice, bob) -> tuple[Match, dict]:
    """``alice`` and ``bob`` at a Time Freedom table: the match, and its players by seat."""
    match = create_match(alice, bob, variant="time_freedom")
    return match, seated(match)


def seat(match: Match, index: int) -> Seat:
    return Seat.objects.get(match=match, index=index)


@pytest.mark.django_db
def test_a_socket_whose_process_died_expires_and_the_table_is_told(
    table, planned, on_commit, friends
):
    match, users = friends
    seen = timezone.now()
    # Seat 0's socket lives on a process that is then killed: it is never renewed.
    on_commit(services.seat_connect, match=match, user=users[0], channel_name="a!dead", now=seen)
    on_commit(services.seat_connect, match=match, user=users[1], channel_name="b!1", now=seen)
    assert table.presence(match)[-1] == [True, True]
    for later in (EXPIRY - SECOND, EXPIRY + 20 * SECOND):
        on_commit(services.seat_socket_renew, match=match, user=users[1],
                  channel_name="b!1", now=seen + later)
    sent = len(table.sent)

    on_commit(services.clock_sweep, now=seen + EXPIRY - SECOND)
    assert seat(match, 0).connected, "not renewed for less than the expiry: still there"
    assert len(table.sent) == sent

    on_commit(services.clock_sweep, now=seen + EXPIRY + SECOND)
    gone = seat(match, 0)
    assert (gone.connected, gone.disconnected_at) == (False, seen)
    assert table.presence(match)[-1] == [False, True]
    assert not SeatSocket.objects.filter(channel_name="a!dead").exists()
    # The renewed socket of the other player stays connected; nothing more is said.
    on_commit(services.clock_sweep, now=seen + EXPIRY + 30 * SECOND)
    assert seat(match, 1).connected
    assert len(table.presence(match)) == 3


@pytest.mark.django_db
def test_a_dead_socket_on_ones_turn_loses_two_minutes_after_last_seen(
    alice, bob, table, planned, on_commit
):
    rules = RuleSet.default().replace(turn_seconds=120)
    match = create_match(alice, bob, rules=rules)
    users = seated(match)
    mover = match.current_seat
    start = match.turn_started_at
    # The player to move was at the table as the match began; their server process
    # last renewed the socket 10 s before their turn started, then was killed.
    last_seen = start - 10 * SECOND
    on_commit(services.seat_connect, match=match, user=users[mover], channel_name="p!1",
              now=start - 40 * SECOND)
    on_commit(services.seat_socket_renew, match=match, user=users[mover], channel_name="p!1",
              now=last_seen)
    # The other player is at the table and stays (not to move).
    on_commit(services.seat_connect, match=match, user=users[1 - mover], channel_name="q!1",
              now=start)
    for step in range(1, 6):
        on_commit(services.seat_socket_renew, match=match, user=users[1 - mover],
                  channel_name="q!1", now=start + step * 25 * SECOND)
    version = match.version
    assert match.turn_deadline == start + timedelta(minutes=2)

    on_commit(services.clock_sweep, now=last_seen + EXPIRY + SECOND)
    assert table.presence(match)[-1][mover] is False
    assert seat(match, mover).disconnected_at == last_seen
    # The abandonment check is planned for two minutes after they were last seen.
    assert Match.objects.get(pk=match.pk).clock_due_at == last_seen + timedelta(minutes=2)
    assert Match.objects.get(pk=match.pk).version == version

    on_commit(services.clock_sweep, now=last_seen + timedelta(minutes=2) - SECOND)
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
    on_commit(services.clock_sweep, now=last_seen + timedelta(minutes=2))
    match.refresh_from_db()
    assert (match.status, match.end_reason) == (Match.Status.FINISHED, Match.EndReason.ABANDON)
    assert match.winner_seat == 1 - mover
    assert match.final_score["forfeit"] == mover


@pytest.mark.django_db
def test_a_time_freedom_match_ends_24_hours_after_a_dead_socket_was_last_seen(
    table, planned, on_commit, friends
):
    match, users = friends
    mover = match.current_seat
    seen = match.turn_started_at
    on_commit(services.seat_connect, match=match, user=users[mover], channel_name="p!1", now=seen)
    on_commit(services.clock_sweep, now=seen + EXPIRY + SECOND)
    assert not seat(match, mover).connected
    on_commit(services.clock_sweep, now=seen + timedelta(hours=24) - SECOND)
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
    on_commit(services.clock_sweep, now=seen + timedelta(hours=24))
    match.refresh_from_db()
    assert (match.end_reason, match.winner_seat) == (Match.EndReason.ABANDON, 1 - mover)


@pytest.mark.django_db
def test_a_renewed_socket_stays_connected(
    table, planned, on_commit, django_assert_num_queries, friends
):
    match, users = friends
    seen = timezone.now()
    on_commit(services.seat_connect, match=match, user=users[0], channel_name="a!1", now=seen)
    told = len(table.presence(match))
    for step in range(1, 13):  # five minutes of renewals every 25 s, swept every 30 s
        with django_assert_num_queries(1):  # a renewal is one UPDATE
            on_commit(services.seat_socket_renew, match=match, user=users[0],
                      channel_name="a!1", now=seen + step * 25 * SECOND)
        on_commit(services.clock_sweep, now=seen + step * 30 * SECOND)
        assert seat(match, 0).connected
    assert len(table.presence(match)) == told
    assert SeatSocket.objects.get(channel_name="a!1").last_seen == seen + 300 * SECOND


@pytest.mark.django_db
def test_two_tabs_then_one_closed_stays_connected(table, planned, on_commit, friends):
    match, users = friends
    seen = timezone.now()
    alice = users[0]
    on_commit(services.seat_connect, match=match, user=alice, channel_name="a!1", now=seen)
    on_commit(services.seat_connect, match=match, user=alice, channel_name="a!2", now=seen)
    assert table.presence(match) == [[True, False]], "two tabs are told once"
    on_commit(services.seat_disconnect, match=match, user=alice, channel_name="a!1",
              now=seen + 10 * SECOND)
    assert seat(match, 0).connected
    on_commit(services.seat_socket_renew, match=match, user=alice, channel_name="a!2",
              now=seen + 25 * SECOND)
    on_commit(services.clock_sweep, now=seen + EXPIRY + 10 * SECOND)
    assert seat(match, 0).connected
    assert table.presence(match) == [[True, False]]
    on_commit(services.seat_disconnect, match=match, user=alice, channel_name="a!2",
              now=seen + 100 * SECOND)
    closed = seat(match, 0)
    assert (closed.connected, closed.disconnected_at) == (False, seen + 100 * SECOND)
    assert table.presence(match) == [[True, False], [False, False]]
    assert not SeatSocket.objects.filter(seat=closed).exists()


@pytest.mark.django_db
def test_a_tab_closed_next_to_a_dead_one_counts_from_the_close(
    table, planned, on_commit, friends
):
    """A process dies with one tab; the player's other tab closes 30 s later: they
    were last seen at the close, not at the dead tab's last renewal."""
    match, users = friends
    seen = timezone.now()
    alice = users[0]
    on_commit(services.seat_connect, match=match, user=alice, channel_name="dead!1", now=seen)
    on_commit(services.seat_connect, match=match, user=alice, channel_name="live!1", now=seen)
    on_commit(services.seat_disconnect, match=match, user=alice, channel_name="live!1",
              now=seen + 30 * SECOND)
    on_commit(services.clock_sweep, now=seen + EXPIRY + SECOND)
    gone = seat(match, 0)
    assert (gone.connected, gone.disconnected_at) == (False, seen + 30 * SECOND)
    assert table.presence(match)[-1] == [False, False]


@pytest.mark.django_db
def test_a_socket_expired_while_its_process_stalled_comes_back_on_its_next_renewal(
    table, planned, on_commit, friends
):
    match, users = friends
    seen = timezone.now()
    on_commit(services.seat_connect, match=match, user=users[0], channel_name="a!1", now=seen)
    on_commit(services.clock_sweep, now=seen + EXPIRY + SECOND)
    assert not seat(match, 0).connected
    on_commit(services.seat_socket_renew, match=match, user=users[0], channel_name="a!1",
              now=seen + EXPIRY + 5 * SECOND)
    back = seat(match, 0)
    assert (back.connected, back.disconnected_at) == (True, None)
    assert table.presence(match)[-1] == [True, False]
    assert SeatSocket.objects.filter(seat=back).count() == 1


@pytest.mark.django_db
def test_spectators_have_no_presence(carol, table, planned, on_commit, friends):
    match, _users = friends
    assert on_commit(services.seat_connect, match=match, user=carol, channel_name="c!1") is None
    assert not SeatSocket.objects.exists()
    assert table.presence(match) == []


# --- the consumer renews its socket, and stops when it closes ------------------------------


@database_sync_to_async
def sockets_of(match: Match) -> list[tuple[str, datetime]]:
    return list(
        SeatSocket.objects.filter(seat__match=match).values_list("channel_name", "last_seen")
    )


@database_sync_to_async
def is_connected(match: Match, user) -> bool:
    return Seat.objects.get(match=match, user=user).connected


@pytest.mark.django_db(transaction=True)
async def test_an_open_socket_renews_its_presence_until_it_closes(alice, monkeypatch):
    monkeypatch.setattr(Renewer, "period", 0.2)
    match = await database_sync_to_async(create_match)(alice, "easy", variant="time_freedom")
    socket = await Socket.open(match.pk, alice)
    await socket.receive_type("state")
    [(channel, first_seen)] = await sockets_of(match)
    await asyncio.sleep(0.7)
    [(same_channel, renewed)] = await sockets_of(match)
    assert same_channel == channel and renewed > first_seen
    assert await is_connected(match, alice)
    await socket.close()
    assert await sockets_of(match) == []
    assert not await is_connected(match, alice)
    await asyncio.sleep(0.5)  # the renewal stopped: nothing brings the socket back
    assert await sockets_of(match) == []
    assert not await is_connected(match, alice)


@pytest.mark.django_db(transaction=True)
async def test_sockets_the_sweep_expired_while_their_process_stalled_come_back_at_its_next_renewal(
    alice, monkeypatch
):
    """A process renews all its sockets together; those it finds expired (the process
    stalled past the expiry and the sweep removed them) are registered again."""
    monkeypatch.setattr(Renewer, "period", 0.2)
    match = await database_sync_to_async(create_match)(alice, "easy", variant="time_freedom")
    tabs = [await Socket.open(match.pk, alice) for _ in range(2)]
    for tab in tabs:
        await tab.receive_type("state")
    channels = {channel for channel, _seen in await sockets_of(match)}
    assert len(channels) == 2
    expired = await database_sync_to_async(services.seat_sockets_expire)(
        now=timezone.now() + presence.SOCKET_EXPIRY + SECOND
    )
    assert expired == 1
    # The next renewal, in about 0.2 s, registers each socket on its own: the seat is
    # connected again with the first, so wait for both.
    for _ in range(100):
        back = {channel for channel, _seen in await sockets_of(match)}
        if back == channels and await is_connected(match, alice):
            break
        await asyncio.sleep(0.05)
    assert await is_connected(match, alice)
    assert {channel for channel, _seen in await sockets_of(match)} == channels
    for tab in tabs:
        await tab.close()
    assert await sockets_of(match) == []


# --- a real server process killed with -9 --------------------------------------------------


def recv_state(ws) -> dict:
    while True:
        frame = json.loads(ws.recv(timeout=20))
        if frame["type"] == "state":
            return frame


@pytest.mark.django_db(transaction=True)
def test_a_killed_server_process_leaves_a_seat_that_the_sweep_disconnects(
    live_asgi_server, table, planned, on_commit, friends
):
    match, users = friends
    mover = match.current_seat
    server = live_asgi_server
    options = {
        "additional_headers": {"Cookie": session_cookie(users[mover]).decode()},
        "origin": server.url,
    }
    try:
        with connect(f"{server.ws_url}/ws/match/{match.pk}/", **options) as ws:
            assert recv_state(ws)["you"] == mover
            server.kill()  # its sockets never run their disconnect
    finally:
        if not server.alive():
            server.start()
    assert seat(match, mover).connected, "the counter-like state the kill leaves behind"
    [last_seen] = SeatSocket.objects.filter(seat__match=match).values_list("last_seen", flat=True)

    on_commit(services.clock_sweep, now=last_seen + EXPIRY + SECOND)
    gone = seat(match, mover)
    assert (gone.connected, gone.disconnected_at) == (False, last_seen)
    assert table.presence(match)[-1][mover] is False
    on_commit(services.clock_sweep, now=last_seen + timedelta(hours=24))
    match.refresh_from_db()
    assert (match.end_reason, match.winner_seat) == (Match.EndReason.ABANDON, 1 - mover)
