"""Authorisation of every bot API endpoint for each role of tests/api/world.py
(anonymous, the player, another BOT, a person, a banned account, a revoked token),
and fuzzing of every endpoint with bad bodies: each is refused with a clear JSON
error and a 4xx status, and changes nothing."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.api.models import Challenge
from games.chat.models import ChatMessage
from games.models import Match
from tests.api.world import ROLES, ApiWorld, build_api_world

pytestmark = pytest.mark.django_db

BAD_TOKEN = {"anonymous": "401 unauthorized", "banned": "401 invalid_token",
             "revoked": "401 invalid_token"}


def cells(default: str, **by_role: str) -> dict[str, str]:
    """Expected ``"status code"`` (or ``"status"``) per role; tokens refused first."""
    return {role: by_role.get(role, BAD_TOKEN.get(role, default)) for role in ROLES}


def legal_action(world: ApiWorld) -> dict:
    from tests.api.drivers import current_state

    return current_state(world.match).legal_actions()[0]


# (label, method, path, body, expected per role); paths and bodies get the world.
ENDPOINTS = [
    ("account", "GET", "/api/account", None, cells("200")),
    ("upgrade", "POST", "/api/bot/account/upgrade", None,
     cells("409 already_bot", person="200")),
    ("event stream", "GET", "/api/stream/event", None, cells("200")),
    ("match stream", "GET", "/api/bot/match/{m}/stream", None,
     cells("200", other="403 not_a_player", person="403 not_a_bot")),
    ("match state", "GET", "/api/bot/match/{m}/state", None,
     cells("200", other="403 not_a_player", person="403 not_a_bot")),
    ("action", "POST", "/api/bot/match/{m}/action", "action",
     cells("200", other="403 not_a_player", person="403 not_a_bot")),
    ("resign", "POST", "/api/bot/match/{m}/resign", None,
     cells("200", other="403 not_a_player", person="403 not_a_bot")),
    ("chat", "POST", "/api/bot/match/{m}/chat", {"text": "good luck"},
     cells("200", other="403 not_a_player", person="403 not_a_bot")),
    ("challenge", "POST", "/api/challenge/carol", {"target": 50}, cells("200")),
    ("rated challenge of a person", "POST", "/api/challenge/carol", {"rated": True},
     cells("400 invalid_settings", person="200")),
    ("computer", "POST", "/api/challenge/computer", {"level": "easy"}, cells("200")),
    ("accept", "POST", "/api/challenge/{c}/accept", None,
     cells("404 not_found", player="200")),
    ("decline", "POST", "/api/challenge/{c}/decline", None,
     cells("404 not_found", player="200")),
    ("cancel", "POST", "/api/challenge/{c}/cancel", None,
     cells("404 not_found", player="403 not_allowed")),
    ("export", "GET", "/api/match/{m}/export", None, cells("200")),
    ("matches", "GET", "/api/user/robo/matches", None, cells("200", anonymous="200")),
    ("unknown match", "GET", "/api/bot/match/999999/state", None,
     cells("404 not_found", person="403 not_a_bot")),
]


def outcome(response) -> str:
    if response.status_code == 200:
        return "200"
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["message"]
    return f"{response.status_code} {body['error']['code']}"


def fill(world: ApiWorld, path: str, body):
    path = path.format(m=world.match.pk, c=world.challenge.pk)
    if body == "action":
        body = {"version": world.match.version, "action": legal_action(world)}
    return path, body


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_every_endpoint_for_every_role(endpoint):
    label, method, path_template, body_template, expected = endpoint
    failures = []
    for role in ROLES:
        world = build_api_world()  # a fresh world: a success may change it
        path, body = fill(world, path_template, body_template)
        got = outcome(world.call(role, method, path, body))
        if got != expected[role]:
            failures.append(f"{method} {label} as {role}: {got}, expected {expected[role]}")
        from django.contrib.auth import get_user_model

        Match.objects.all().delete()
        get_user_model().objects.all().delete()
    assert not failures, "\n".join(failures)


def test_refusals_by_role_change_nothing():
    world = build_api_world()
    version = world.match.version
    for role in ("anonymous", "other", "person", "banned", "revoked"):
        for suffix, body in (("action", {"version": version,
                                         "action": legal_action(world)}),
                             ("resign", None), ("chat", {"text": "hi"})):
            response = world.call(role, "POST", f"/api/bot/match/{world.match.pk}/{suffix}",
                                  body)
            assert response.status_code in (401, 403)
        for suffix in ("accept", "decline", "cancel"):
            world.call(role, "POST", f"/api/challenge/{world.challenge.pk}/{suffix}")
    world.match.refresh_from_db()
    assert world.match.version == version and world.match.status == Match.Status.ACTIVE
    assert not ChatMessage.objects.exists()
    world.challenge.refresh_from_db()
    assert world.challenge.status == Challenge.Status.CREATED


# --- fuzzing ----------------------------------------------------------------------------

BAD_BODIES = [
    (b"{", "400 bad_json"),
    (b"\xff\xfe{}", "400 bad_json"),
    (b"[]", "400 bad_message"),
    (b'"text"', "400 bad_message"),
    (b"null", "400 bad_message"),
    (b"17", "400 bad_message"),
    (b"[" * 3000 + b"]" * 3000, "413 body_too_large"),
    (json.dumps({"text": "x" * 5000}).encode(), "413 body_too_large"),
]
BODY_ENDPOINTS = [
    "/api/bot/account/upgrade", "/api/bot/match/{m}/action", "/api/bot/match/{m}/resign",
    "/api/bot/match/{m}/chat", "/api/challenge/carol", "/api/challenge/computer",
    "/api/challenge/{c}/accept", "/api/challenge/{c}/decline", "/api/challenge/{c}/cancel",
]
FIELD_BODIES = {
    "/api/bot/match/{m}/action": [
        ({}, "400 bad_message"),
        ({"version": "3", "action": {"type": "pass"}}, "400 bad_message"),
        ({"version": True, "action": {"type": "pass"}}, "400 bad_message"),
        ({"version": 1.5, "action": {"type": "pass"}}, "400 bad_message"),
        ({"version": "V", "action": []}, "400 bad_message"),
        ({"version": "V", "action": "pass"}, "400 bad_message"),
        ({"version": "V", "action": {}}, "400 malformed_action"),
        ({"version": "V", "action": {"type": "fly"}}, "400 malformed_action"),
        ({"version": "V", "action": {"type": "draw", "source": "deck"}}, "400 malformed_action"),
        ({"version": "V", "action": {"type": "discard", "card": "ZZ"}}, "400 malformed_action"),
        ({"version": "V", "action": {"type": "discard", "card": 5}}, "400 malformed_action"),
        ({"version": "V", "action": {"type": "pass", "card": "AS"}}, "400 malformed_action"),
        ({"version": "V", "action": {"type": "discard", "card": "AS"}}, "400 illegal_action"),
        ({"version": 10**30, "action": {"type": "pass"}}, "409 stale_version"),
        ({"version": -1, "action": {"type": "pass"}}, "409 stale_version"),
    ],
    "/api/bot/match/{m}/chat": [
        ({}, "400 bad_message"),
        ({"text": 5}, "400 bad_message"),
        ({"text": None}, "400 bad_message"),
        ({"text": "   \n\t "}, "400 chat_empty"),
        ({"text": "x" * 301}, "400 chat_too_long"),
    ],
    "/api/challenge/carol": [
        ({"variant": "chess"}, "400 invalid_settings"),
        ({"variant": 5}, "400 invalid_settings"),
        ({"variant": None}, "400 invalid_settings"),
        ({"target": "100"}, "400 invalid_settings"),
        ({"target": 99}, "400 invalid_settings"),
        ({"target": True}, "400 invalid_settings"),
        ({"rated": "yes"}, "400 invalid_settings"),
    ],
    "/api/challenge/computer": [
        ({}, "400 invalid_settings"),
        ({"level": "godlike"}, "400 invalid_settings"),
        ({"level": ["easy"]}, "400 invalid_settings"),
        ({"level": "easy", "target": 1000}, "400 invalid_settings"),
        ({"level": "easy", "variant": "poker"}, "400 invalid_settings"),
    ],
}


def snapshot(world: ApiWorld) -> tuple:
    world.match.refresh_from_db()
    robo = world.users["player"]
    robo.refresh_from_db()
    return (world.match.version, world.match.status, Match.objects.count(),
            list(Challenge.objects.values_list("pk", "status")), ChatMessage.objects.count(),
            robo.is_bot, world.users["person"].__class__.objects.get(pk=world.users["person"].pk)
            .is_bot)


def test_bad_bodies_are_refused_by_every_endpoint_and_change_nothing():
    world = build_api_world()
    before = snapshot(world)
    failures = []
    for template in BODY_ENDPOINTS:
        path, _ = fill(world, template, None)
        for raw, expected in BAD_BODIES:
            for role in ("player", "person"):
                response = world.call(role, "POST", path, raw=raw)
                got = outcome(response)
                if got not in (expected, "403 not_a_bot"):
                    failures.append(f"{path} as {role} with {raw[:20]!r}: {got}, expected "
                                    f"{expected}")
        for body, expected in FIELD_BODIES.get(template, []):
            if body.get("version") == "V":
                body = {**body, "version": world.match.version}
            got = outcome(world.call("player", "POST", path, body))
            if got != expected:
                failures.append(f"{path} with {body}: {got}, expected {expected}")
    assert not failures, "\n".join(failures)
    assert snapshot(world) == before


def test_bad_query_parameters_of_the_match_list():
    world = build_api_world()
    for query in ("max=0", "max=301", "max=ten", "since=yesterday", "since=99999999999999999"):
        got = outcome(world.call("player", "GET", f"/api/user/robo/matches?{query}"))
        assert got == "400 bad_request", query
    assert outcome(world.call("player", "GET", "/api/user/nobody/matches")) == \
        "404 no_such_player"


def test_wrong_methods_are_refused():
    world = build_api_world()
    assert outcome(world.call("player", "GET", "/api/bot/account/upgrade")) == \
        "405 method_not_allowed"
    assert outcome(world.call("player", "POST", "/api/account")) == "405 method_not_allowed"


@override_settings(API_RATE_LIMIT=(10_000, 60), MATCH_CREATE_LIMIT=(10_000, 600))
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(body=st.dictionaries(
    st.sampled_from(["version", "action", "text", "type", "card", "level", "target", "x"]),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5)
        | st.sampled_from(["AS", "stock", "discard", "pass", "knock", "easy"]),
        lambda inner: st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["type", "source", "card"]), inner, max_size=3),
        max_leaves=8,
    ),
    max_size=4,
))
def test_random_bodies_never_break_an_endpoint(api_world, body):
    for template in ("/api/bot/match/{m}/action", "/api/bot/match/{m}/chat",
                     "/api/challenge/computer"):
        path, _ = fill(api_world, template, None)
        response = api_world.call("other", "POST", path, body)  # not seated: no change
        assert response.status_code in (200, 400, 403), response.content
        if response.status_code != 200:
            outcome(response)
    response = api_world.call("player", "POST", fill(api_world, "/api/bot/match/{m}/action",
                                                     None)[0], body)
    assert response.status_code in (200, 400, 409), response.content
    if response.status_code == 200:  # a random body that is a legal move: the world moved
        api_world.match.refresh_from_db()
    else:
        outcome(response)


@pytest.fixture
def api_world() -> ApiWorld:
    return build_api_world()
