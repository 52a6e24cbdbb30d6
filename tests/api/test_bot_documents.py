"""docs/bot-api.md is enough to write a bot: a minimal bot written from it alone
(tests/api/minimal_bot.py, standard library only) plays a whole match against the
computer on the live site; and examples/bot_client.py applies the match stream's
`event` lines to the state it holds instead of asking for the whole state after each
one."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from games.models import Match
from tests.factories import create_api_token, create_user

ROOT = Path(__file__).resolve().parents[2]
MINIMAL_BOT = ROOT / "tests" / "api" / "minimal_bot.py"
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative import"
            names.add((node.module or "").split(".")[0])
    return names


def bot_account(name: str) -> str:
    """The API token of a new BOT account."""
    return create_api_token(create_user(name, bot=True))[0]


def assert_played_to_the_end(name: str) -> Match:
    match = Match.objects.get(seats__user__username=name)
    assert match.status == Match.Status.FINISHED
    assert match.end_reason == "target"
    seat = match.seats.get(user__username=name)
    # The bot played its own turns, none of them by the clock.
    assert match.moves.filter(seat=seat.index).exists()
    assert not match.moves.filter(seat=seat.index, auto=True).exists()
    return match


def test_a_minimal_bot_written_from_the_document_plays_a_match_to_the_end(
    live_asgi_server, live_celery_worker
):
    assert imported_modules(MINIMAL_BOT) <= set(sys.stdlib_module_names), (
        "the minimal bot uses the standard library only"
    )
    token = bot_account("minimal")
    run = subprocess.run(
        [sys.executable, str(MINIMAL_BOT), live_asgi_server.url, token, "easy", "50"],
        cwd=ROOT / "tests" / "api",
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    match = assert_played_to_the_end("minimal")
    assert f"match {match.pk} over: winner seat {match.winner_seat} (target)" in run.stdout


def load_example_bot():
    spec = importlib.util.spec_from_file_location(
        "example_bot_client", ROOT / "examples" / "bot_client.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_bot_applies_event_lines_without_asking_for_the_state(
    live_asgi_server, live_celery_worker
):
    assert imported_modules(ROOT / "examples" / "bot_client.py") <= set(sys.stdlib_module_names)
    example = load_example_bot()
    token = bot_account("example")
    calls: list[tuple[str, str]] = []
    lines: list[dict] = []

    class CountingApi(example.Api):
        def call(self, method, path, body=None):
            calls.append((method, path))
            return super().call(method, path, body)

        def stream(self, path):
            for line in super().stream(path):
                lines.append(line)
                yield line

    api = CountingApi(live_asgi_server.url, token)
    status, answer = api.call("POST", "/api/challenge/computer", {"level": "easy", "target": 50})
    assert status == 200, answer
    bot = example.Bot(api, matches=1, accept_from=[])
    player = threading.Thread(target=bot.play, args=(answer["match"]["id"],), daemon=True)
    player.start()
    player.join(240)
    assert not player.is_alive(), "the example bot did not finish its match"
    assert bot.finished == 1
    assert_played_to_the_end("example")

    events = [line for line in lines if line["type"] == "event"]
    asked = [path for method, path in calls if method == "GET" and path.endswith("/state")]
    actions = [path for method, path in calls if path.endswith("/action")]
    assert events, "the match stream carried event lines"
    # The bot acted on the states it built from event lines; it asked for the whole
    # state only on a gap (none is expected on a healthy server).
    assert len(asked) <= 1, (len(asked), len(events))
    assert len(actions) > len([line for line in lines if line["type"] == "state"])
