"""Revoking an API token on the tokens page ends, within seconds, every stream open
with that token (as a ban does), and every later request with it is refused; the
account's other tokens and their streams go on."""

from __future__ import annotations

import time

import pytest
from django.test import Client

from games.api.models import ApiToken
from games.api.tokens import token_hash
from tests.api.streams import ENDED, StreamReader, api
from tests.factories import create_api_token, create_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]

REVOKED_WITHIN = 2.0  # seconds: the bound of docs/bot-api.md


def ends_within(stream: StreamReader, seconds: float) -> list:
    """The lines the stream sent before it ended; AssertionError if it is still open
    ``seconds`` after the call."""
    deadline = time.monotonic() + seconds
    lines = []
    while True:
        item = stream.next(max(0.05, deadline - time.monotonic()), keepalives=True)
        if item is ENDED:
            return lines
        if item is not None:
            lines.append(item)


def test_revoking_a_token_on_the_page_ends_its_streams_and_refuses_it(
    live_asgi_server, live_celery_worker
):
    base = live_asgi_server.url
    robo = create_user("robo", bot=True)
    (revoked, _), (kept, _) = create_api_token(robo), create_api_token(robo)
    status, answer = api(
        base, revoked, "POST", "/api/challenge/computer", {"level": "easy", "target": 50}
    )
    assert status == 200, answer
    match_id = answer["match"]["id"]

    events = StreamReader(base, "/api/stream/event", revoked)
    match = StreamReader(base, f"/api/bot/match/{match_id}/stream", revoked)
    other = StreamReader(base, "/api/stream/event", kept)
    try:
        assert events.next() == {"type": "matchStart", "match": {"id": match_id}}
        assert match.next()["type"] == "state"
        assert other.next() == {"type": "matchStart", "match": {"id": match_id}}

        # The owner revokes the token on the tokens page.
        page = Client()
        page.force_login(robo)
        row = ApiToken.objects.get(token_hash=token_hash(revoked))
        assert page.post(f"/players/settings/tokens/{row.pk}/revoke/").status_code == 302

        # Both of its streams end (the match stream says why), within the bound.
        ends_within(events, REVOKED_WITHIN)
        last = ends_within(match, REVOKED_WITHIN)
        assert last and last[-1]["type"] == "error", last
        assert last[-1]["code"] == "token_revoked"
        # Any request with it is refused; the other token still works, its stream open.
        status, refusal = api(base, revoked, "GET", "/api/account")
        assert status == 401
        assert refusal["error"]["code"] == "invalid_token"
        assert api(base, kept, "GET", "/api/account")[0] == 200
        assert other.next(timeout=30, keepalives=True) is None  # a keep-alive, not the end
    finally:
        events.close()
        match.close()
        other.close()
