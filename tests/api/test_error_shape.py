"""One error shape everywhere: every JSON refusal of the site, on the bot API and on
the site's own JSON routes (the analysis, the hint, the offline upload, the chat
panel), is ``{"error": {"code", "message"}}`` with the status of ginsite/errors.py's
error classes (``status_of``); and a JSON body must say it is JSON (``415``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games import services
from games.analysis.models import Hint
from games.api.models import Challenge
from games.engine import RuleSet
from games.models import Match, Move
from ginsite.errors import status_of
from tests.api.world import build_api_world

pytestmark = pytest.mark.django_db


def bearer(token: str | None) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(
    client: Client, path: str, body: Any, content_type: str = "application/json", **headers: str
) -> Any:
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(path, data, content_type=content_type, **headers)


def assert_refusal(response: Any, code: str) -> None:
    """``response`` is the one refusal shape, with the code and the table's status."""
    assert response["Content-Type"] == "application/json", response.content
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"], body
    assert response.status_code == status_of(code), (response.status_code, body)


def test_every_json_refusal_has_the_one_shape_and_the_tables_status() -> None:
    world = build_api_world()
    robo, dave = world.users["player"], world.users["person"]
    player, person = world.tokens["player"], world.tokens["person"]
    active = world.match.pk
    anonymous = Client()
    robo_page, dave_page = signed_in(robo), signed_in(dave)
    computer = services.match_create_computer(user=dave, level="easy", rules=RuleSet.default())

    refusals = [
        # the bot API: authentication, method, body, services
        (anonymous.get("/api/account"), "unauthorized"),
        (anonymous.get("/api/account", **bearer("gin_nothing")), "invalid_token"),
        (anonymous.get("/api/challenge/computer", **bearer(player)), "method_not_allowed"),
        (post(anonymous, "/api/challenge/computer", "{", **bearer(player)), "bad_json"),
        (post(anonymous, "/api/challenge/computer", "[]", **bearer(player)), "bad_message"),
        (
            post(anonymous, "/api/challenge/computer", {"pad": "x" * 5000}, **bearer(player)),
            "body_too_large",
        ),
        (
            post(anonymous, "/api/challenge/computer", {"level": "nope"}, **bearer(player)),
            "invalid_settings",
        ),
        (anonymous.get("/api/match/999999/export", **bearer(player)), "not_found"),
        (anonymous.get("/match/999999/export.json"), "not_found"),
        (anonymous.get(f"/api/bot/match/{active}/state", **bearer(person)), "not_a_bot"),
        (anonymous.get("/api/user/nobody/matches"), "no_such_player"),
        (
            post(
                anonymous,
                f"/api/bot/match/{active}/action",
                {"version": 0, "action": {"type": "pass"}},
                **bearer(player),
            ),
            "stale_version",
        ),
        # the analysis (an API route) and the hint
        (anonymous.get("/api/match/999999/analysis"), "no_such_match"),
        (anonymous.get(f"/api/match/{active}/analysis"), "not_a_player"),
        (anonymous.get(f"/match/{computer.pk}/hint"), "method_not_allowed"),
        (post(anonymous, f"/match/{computer.pk}/hint", {}), "not_a_player"),
        (post(dave_page, f"/match/{computer.pk}/hint", {"version": "x"}), "malformed_request"),
        (post(robo_page, f"/match/{computer.pk}/hint", {}), "not_a_player"),
        # the offline upload and the chat panel
        (post(anonymous, "/play/offline/upload/", {}), "not_signed_in"),
        (post(dave_page, "/play/offline/upload/", "not json"), "offline_match_refused"),
        (post(dave_page, "/chat/block/", {"username": "nobody"}), "no_such_player"),
        (post(dave_page, "/chat/block/", "[1]"), "bad_json"),
    ]
    for response, code in refusals:
        assert_refusal(response, code)


def test_a_json_body_sent_as_another_type_is_refused_with_415_and_changes_nothing() -> None:
    assert status_of("unsupported_media_type") == 415
    world = build_api_world()
    dave = world.users["person"]
    player = world.tokens["player"]
    client = Client()
    matches = Match.objects.count()
    challenges = Challenge.objects.count()
    computer = {"level": "easy", "target": 50}

    # A JSON object sent as text/plain (or a form) creates nothing.
    for kind in ("text/plain", "application/x-www-form-urlencoded"):
        refused = post(client, "/api/challenge/computer", computer, kind, **bearer(player))
        assert_refusal(refused, "unsupported_media_type")
        assert "application/json" in refused.json()["error"]["message"]
    refused = post(client, "/api/challenge/carol", {"target": 50}, "text/plain", **bearer(player))
    assert_refusal(refused, "unsupported_media_type")
    match = world.match
    match.refresh_from_db()
    moves = Move.objects.filter(hand__match=match).count()
    action = {"version": match.version, "action": {"type": "draw", "source": "stock"}}
    refused = post(
        client, f"/api/bot/match/{match.pk}/action", action, "text/plain", **bearer(player)
    )
    assert_refusal(refused, "unsupported_media_type")
    assert (Match.objects.count(), Challenge.objects.count()) == (matches, challenges)
    match.refresh_from_db()
    assert Move.objects.filter(hand__match=match).count() == moves
    assert match.version == action["version"]

    # The site's JSON routes the browser posts to: the hint and the offline upload.
    page = signed_in(dave)
    mine = services.match_create_computer(user=dave, level="easy", rules=RuleSet.default())
    assert_refusal(
        post(page, f"/match/{mine.pk}/hint", {"version": mine.version}, "text/plain"),
        "unsupported_media_type",
    )
    assert not Hint.objects.exists()
    assert_refusal(
        post(page, "/play/offline/upload/", {"id": "x"}, "text/plain"), "unsupported_media_type"
    )

    # application/json (with a charset too) is accepted, and so is an empty body.
    made = post(
        client,
        "/api/challenge/computer",
        computer,
        "application/json; charset=utf-8",
        **bearer(player),
    )
    assert made.status_code == 200, made.content
    assert Match.objects.count() == matches + 2  # the hint's match and this one
    empty = client.post(
        f"/api/challenge/{world.challenge.pk}/decline", b"", content_type="", **bearer(player)
    )
    assert empty.status_code == 200, empty.content
