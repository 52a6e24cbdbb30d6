"""examples/bot_client.py, run as its own process against the live site (daphne and a
real Celery worker playing the computer): it gets its token from ``manage.py
api_token``, upgrades to BOT, challenges the computer and plays a whole match; the
match is then downloaded and verified like any export."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from games.engine.verify import verify_export
from games.models import Match
from tests.factories import create_user
from tests.workers import process_env

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def new_token(username: str) -> str:
    run = subprocess.run(
        [sys.executable, "manage.py", "api_token", username, "--name", "bot client"],
        cwd=ROOT, env=process_env(), capture_output=True, text=True, timeout=60, check=True,
    )
    lines = run.stdout.splitlines()
    assert len(lines) == 1
    return lines[0]


def test_the_example_bot_plays_a_whole_match_against_the_computer(
    live_asgi_server, live_celery_worker
):
    create_user("robot")
    token = new_token("robot")
    run = subprocess.run(
        [sys.executable, "examples/bot_client.py", "--url", live_asgi_server.url,
         "--token", token, "--upgrade", "--computer", "easy", "--target", "50",
         "--matches", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "signed in as BOT robot" in run.stdout
    match = Match.objects.get(seats__user__username="robot")
    assert match.status == Match.Status.FINISHED
    assert match.end_reason == "target", run.stdout
    assert f"match {match.pk}: over, winner seat {match.winner_seat}" in run.stdout
    robot_seat = match.seats.get(user__username="robot")
    assert robot_seat.user.is_bot
    # The bot played its own turns: none of them by the clock. (How many there were
    # is the deal's business: the computer, dealt a hand it can knock at once against
    # one without melds, can win a match to 50 after the bot's first move.)
    assert not match.moves.filter(seat=robot_seat.index, auto=True).exists()
    assert match.moves.filter(seat=robot_seat.index).exists()
    request = urllib.request.Request(
        f"{live_asgi_server.url}/api/match/{match.pk}/export",
        headers={"Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        document = json.loads(response.read())
    assert document["players"][robot_seat.index]["bot"] is True
    verify_export(document)
