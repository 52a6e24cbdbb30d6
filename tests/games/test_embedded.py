"""The embedded mode (no Redis: in-memory channel layer, eager Celery): the
computer's moves and the clock run on timer threads of the server process and
reach the sockets through the in-memory layer."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import Match, Move, Seat
from ginsite import embedded_beat, runtime
from tests.factories import create_match
from tests.games.sockets import Socket, choose_from_view

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def embedded(settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "ginsite.runtime.EmbeddedChannelLayer"}}
    settings.BOT_THINK_SECONDS = 0.05
    settings.EMBEDDED_SCHEDULER = True  # beat's jobs in-process: the clock tick every second
    yield
    scheduler = runtime.scheduler()
    assert isinstance(scheduler, runtime.TimerScheduler)  # the embedded adapters were chosen
    scheduler.cancel_all()
    embedded_beat.stop()


@database_sync_to_async
def run_out_the_clock(match_id: int) -> None:
    """Bring the deadline of the turn on the table to half a second from now (the
    embedded scheduler checks due clocks every second)."""
    soon = timezone.now() + timedelta(seconds=0.5)
    Match.objects.filter(pk=match_id).update(turn_deadline=soon, clock_due_at=soon)


@database_sync_to_async
def auto_moves(match_id: int) -> int:
    return Move.objects.filter(match_id=match_id, auto=True).count()


@database_sync_to_async
def moves_of(match_id: int, seat: int) -> int:
    return Move.objects.filter(match_id=match_id, seat=seat, auto=False).count()


@database_sync_to_async
def bot_seat(match_id: int) -> int:
    return Seat.objects.exclude(bot_level="").get(match_id=match_id).index


async def test_the_computer_moves_and_the_clock_runs_without_redis(alice, embedded):
    match = await database_sync_to_async(create_match)(alice, "easy")
    socket = await Socket.open(match.pk, alice)
    state = await socket.receive_type("state")
    computer = await bot_seat(match.pk)
    # The computer moves by itself, whoever starts, pushed from timer threads.
    for _ in range(3):
        while state["view"]["current_player"] == computer:
            state = await socket.state_at_least(state["version"] + 1)
        action = choose_from_view(state["view"])
        await socket.send({"type": "action", "version": state["version"], "action": action})
        state = await socket.state_at_least(state["version"] + 1)
    while state["view"]["current_player"] == computer:
        state = await socket.state_at_least(state["version"] + 1)
    # (Counted in the log: a hand may have ended meanwhile, and the new hand's history
    # starts empty.)
    assert await moves_of(match.pk, computer) >= 1

    # The player does not move: the server plays the turn when the clock runs out.
    await run_out_the_clock(match.pk)
    timed_out = await socket.state_at_least(state["version"] + 1, timeout=10)
    assert timed_out["view"]["history"][-1]["seat"] == state["you"]
    assert await auto_moves(match.pk) >= 1
    await socket.close()
