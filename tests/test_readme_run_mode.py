"""The README's run mode, the way it is run, with no browser and no WebSocket anywhere:
the site is started exactly as the README's run command starts it (tests/embedded_site.py:
``setup_dev``, then ``runserver`` on a free port, on the embedded defaults), and
programs meet it over plain HTTP as docs/bot-api.md describes.

- A bot (an account signed up on the site, with a token made on its tokens page,
  upgraded to BOT) plays the computer to the end of a match from its match stream
  alone: every move of the computer reaches the stream, a median of under a second
  after the server wrote it (nothing may wait for some other client to connect
  first: the embedded publisher once dropped every event until a WebSocket had).
- A second account's challenge reaches the bot's event stream in under a second.
- A wrong address answers the site's own "page not found" page, and a server error
  the site's own error page: never Django's technical pages, which list the site's
  URL patterns and settings.
"""

from __future__ import annotations

import http.cookiejar
import json
import queue
import re
import sqlite3
import statistics
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.embedded_site import EmbeddedSite, running_embedded_site

PASSWORD = "a-long-Passw0rd!"  # a throwaway account of a throwaway site
# Seconds the bot waits for the stream to bring the computer's move (or anything due):
# far more than a second, far less than the 25 s of the presence renewal's full state.
STREAM_WAIT_SECONDS = 10.0
LATENCY_LIMIT_SECONDS = 1.0


@pytest.fixture(scope="module")
def site() -> Iterator[EmbeddedSite]:
    # The computer's think time shortened (a setting of docs/operations.md) so the
    # match takes seconds, not a minute; nothing else differs from the README's run.
    with running_embedded_site(BOT_THINK_SECONDS="0.1") as running:
        yield running


class Visitor:
    """A person's HTTP session (cookies, CSRF), with nothing but the standard library."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, path: str) -> tuple[int, str]:
        try:
            with self.opener.open(self.url + path, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def post_form(self, path: str, fields: dict[str, str]) -> tuple[int, str, str]:
        """Post the form of the page at ``path``: status, page and address reached."""
        status, page = self.get(path)
        assert status == 200, page
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert csrf, page
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": csrf.group(1), **fields})
        request = urllib.request.Request(
            self.url + path, data=body.encode(), method="POST", headers={"Referer": self.url + path}
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode(), response.url
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(), error.url

    def sign_up_with_token(self, username: str) -> str:
        """Sign up on the site's form, then make an API token on the tokens page."""
        status, page, reached = self.post_form(
            "/accounts/signup/",
            {
                "username": username,
                "email": f"{username}@example.com",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        )
        assert (status, reached) == (200, self.url + "/"), page  # signed up and in
        status, page, _reached = self.post_form("/players/settings/tokens/", {"name": "test"})
        token = re.search(r"<code data-token>(gin_[^<]+)</code>", page)
        assert status == 200 and token, page
        return token.group(1)


class Api:
    """The bot API's requests (docs/bot-api.md)."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token

    def _request(self, method: str, path: str, body: dict | None = None) -> urllib.request.Request:
        return urllib.request.Request(
            self.url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        try:
            with urllib.request.urlopen(self._request(method, path, body), timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def stream(self, path: str) -> Stream:
        return Stream(urllib.request.urlopen(self._request("GET", path), timeout=60))


class Stream:
    """An NDJSON stream read on a thread of its own: each line with the moment
    (``time.time()``) it arrived; keep-alive lines are left out."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.lines: queue.Queue[tuple[float, dict | None]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.response:
                if raw.strip():
                    self.lines.put((time.time(), json.loads(raw)))
        except (OSError, ValueError, AttributeError):
            pass  # closed (http.client drops its socket, mid-read, on close)
        self.lines.put((time.time(), None))  # the stream ended

    def next(self, timeout: float, what: str) -> tuple[float, dict]:
        try:
            arrived, value = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"nothing on the stream within {timeout} s: {what}") from None
        assert value is not None, f"the stream ended: {what}"
        return arrived, value

    def close(self) -> None:
        self.response.close()


def choose(legal: list[dict]) -> dict:
    """Knock or go gin as soon as possible, else take the stock (or pass), else throw
    the first card the rules allow."""
    for kind in ("big_gin", "gin", "knock"):
        for action in legal:
            if action["type"] == kind:
                return action
    for action in legal:
        if action == {"type": "draw", "source": "stock"} or action["type"] == "pass":
            return action
    return legal[0]


def turn_of(line: dict) -> int | None:
    """The seat to move after this line of the match stream (None: not a table line)."""
    if line["type"] == "state":
        return line["match"]["current_seat"]
    if line["type"] == "event":
        return line["turn"]["player"]
    return None


def play_from_the_stream(api: Api, match_id: int) -> tuple[int, dict[int, float], dict]:
    """Play the match to its end, told of every turn by the match stream alone (the
    state is fetched only to act on). Answers the bot's seat, the moment the first line
    of each version arrived, and the final state."""
    stream = api.stream(f"/api/bot/match/{match_id}/stream")
    try:
        arrived, first = stream.next(STREAM_WAIT_SECONDS, "the first state")
        seat = first["you"]
        arrivals = {first["version"]: arrived}
        line = first
        while True:
            if line["type"] == "state" and line["match"]["status"] == "finished":
                return seat, arrivals, line
            if turn_of(line) == seat:
                status, state = api.call("GET", f"/api/bot/match/{match_id}/state")
                assert status == 200, state
                while (
                    state["match"]["status"] == "active" and state["match"]["current_seat"] == seat
                ):
                    status, answer = api.call(
                        "POST",
                        f"/api/bot/match/{match_id}/action",
                        {
                            "version": state["version"],
                            "action": choose(state["view"]["legal_actions"]),
                        },
                    )
                    assert status == 200, answer
                    status, state = api.call("GET", f"/api/bot/match/{match_id}/state")
                    assert status == 200, state
            # Wait for the stream to say the bot's turn has come again (or the end).
            while True:
                arrived, line = stream.next(
                    STREAM_WAIT_SECONDS,
                    f"the computer's move after version {max(arrivals)} of match {match_id}",
                )
                if isinstance(line.get("version"), int):
                    arrivals.setdefault(line["version"], arrived)
                if line["type"] == "state" and line["match"]["status"] == "finished":
                    break
                if turn_of(line) == seat:
                    break
    finally:
        stream.close()


def moves_written(site: EmbeddedSite, match_id: int, seat: int) -> list[tuple[int, float]]:
    """``(version, moment written)`` of each move the seat made, from the site's database."""
    with sqlite3.connect(f"file:{site.database}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT seq, created_at FROM games_move WHERE match_id = ? AND seat = ? "
            "AND NOT auto ORDER BY seq",
            (match_id, seat),
        ).fetchall()
    return [
        (seq, datetime.fromisoformat(str(at)).replace(tzinfo=UTC).timestamp()) for seq, at in rows
    ]


def test_a_bot_plays_the_computer_and_hears_a_challenge_over_http_alone(
    site: EmbeddedSite,
) -> None:
    bot = Api(site.url, Visitor(site.url).sign_up_with_token("streambot"))
    status, answer = bot.call("POST", "/api/bot/account/upgrade")
    assert status == 200 and answer["bot"] is True, answer
    status, answer = bot.call(
        "POST", "/api/challenge/computer", {"level": "easy", "variant": "default", "target": 50}
    )
    assert status == 200, answer
    match_id = answer["match"]["id"]

    events = bot.stream("/api/stream/event")
    try:
        # The stream opens with the match in play: from here on it is listening.
        _at, opening = events.next(STREAM_WAIT_SECONDS, "the opening matchStart")
        assert opening == {"type": "matchStart", "match": {"id": match_id}}

        seat, arrivals, final = play_from_the_stream(bot, match_id)
        assert final["match"]["status"] == "finished"
        assert final["match"]["end_reason"] == "target", final["match"]

        # Every move of the computer reached the stream, promptly.
        delays = []
        for version, written in moves_written(site, match_id, 1 - seat):
            carried = min((at for v, at in arrivals.items() if v >= version), default=None)
            assert carried is not None, f"the computer's move {version} never reached the stream"
            delays.append(carried - written)
        # A match's deals are random: it may end after only a few computer moves.
        assert delays, "the computer made no move"
        assert statistics.median(delays) < LATENCY_LIMIT_SECONDS, sorted(delays)

        _at, finish = events.next(STREAM_WAIT_SECONDS, "matchFinish on the event stream")
        assert finish == {"type": "matchFinish", "match": {"id": match_id}}

        # A second account challenges the bot: the bot's event stream hears it at once.
        person = Api(site.url, Visitor(site.url).sign_up_with_token("challenger"))
        sent = time.time()
        status, answer = person.call("POST", "/api/challenge/streambot", {"target": 50})
        assert status == 200, answer
        arrived, event = events.next(STREAM_WAIT_SECONDS, "the challenge on the event stream")
        assert event["type"] == "challenge", event
        assert event["challenge"]["id"] == answer["challenge"]["id"]
        assert event["challenge"]["from"] == "challenger"
        assert arrived - sent < LATENCY_LIMIT_SECONDS
    finally:
        events.close()
