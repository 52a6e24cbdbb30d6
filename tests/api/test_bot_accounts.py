"""BOT accounts: the upgrade and who may make it, the "BOT" mark wherever a name
appears, no quick match or invitations, rated only against other BOT accounts and on
their own rating board (never on the weekly and monthly boards of people); and a
player's matches as NDJSON (newest first, ``max``, ``since``)."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import selectors, services
from games.api import selectors as api_selectors
from games.api import services as api_services
from games.chat.selectors import message_to_dict
from games.chat.services import chat_post
from games.engine.verify import verify_export
from games.errors import BotNotAllowedError
from games.models import Match
from leaderboards.models import BoardEntry
from leaderboards.periods import PeriodKind, period_containing
from leaderboards.services import board_recompute, rating_apply_match
from tests.api.drivers import Script, play_match
from tests.factories import create_api_token, create_match, create_user

pytestmark = pytest.mark.django_db


def bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def upgrade(token: str):
    return Client().post("/api/bot/account/upgrade", "", content_type="application/json",
                         **bearer(token))


def test_only_an_account_without_rated_matches_becomes_a_bot_for_good():
    ann, bob = create_user("ann"), create_user("bob")
    assert create_match(ann, bob).rated
    answer = upgrade(create_api_token(ann)[0])
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "has_rated_matches"
    ann.refresh_from_db()
    assert not ann.is_bot

    token, _ = create_api_token(create_user("robo"))
    assert upgrade(token).json() == {"ok": True, "username": "robo", "bot": True}
    assert upgrade(token).json()["error"]["code"] == "already_bot"
    assert Client().get("/api/account", **bearer(token)).json()["bot"] is True


def test_a_bot_is_marked_wherever_its_name_appears():
    robo, ann = create_user("robo"), create_user("ann")
    api_services.bot_account_upgrade(user=robo)
    challenge = api_services.challenge_create(user=ann, dest=robo, body={})
    match = api_services.challenge_accept(user=robo, challenge_id=challenge.pk)
    state = selectors.match_state_message(match=match, user=ann)
    assert "BOT robo" in [seat["name"] for seat in state["match"]["seats"]]
    message = chat_post(user=robo, text="hello", match_id=match.pk)
    assert message_to_dict(message)["author"] == "BOT robo"
    assert "<h1>BOT robo</h1>" in Client().get("/players/robo/").text
    export = Client().get(f"/match/{match.pk}/export.json").json()
    assert [p["bot"] for p in export["players"]].count(True) == 1


def test_bots_never_enter_quick_match_or_invitations():
    robo, ann = create_user("robo"), create_user("ann")
    api_services.bot_account_upgrade(user=robo)
    with pytest.raises(BotNotAllowedError):
        services.quickmatch_enqueue(user=robo)
    with pytest.raises(BotNotAllowedError):
        services.match_create_invite(user=robo)
    invite = services.match_create_invite(user=ann)
    with pytest.raises(BotNotAllowedError):
        services.match_join_invite(user=robo, token=invite.invite_token)
    # ... but they play the computer.
    assert services.match_create_computer(user=robo, level="easy").status == "active"


def test_rated_bot_matches_count_on_the_bot_board_only():
    robo, otto = create_user("robo"), create_user("otto")
    ann, bob = create_user("ann"), create_user("bob")
    for bot in (robo, otto):
        api_services.bot_account_upgrade(user=bot)
    with pytest.raises(api_services.ApiError, match="BOT"):
        api_services.challenge_create(user=ann, dest=robo, body={"rated": True})
    challenge = api_services.challenge_create(user=robo, dest=otto, body={"rated": True,
                                                                          "target": 50})
    bots = api_services.challenge_accept(user=otto, challenge_id=challenge.pk)
    people = create_match(ann, bob)
    rng = random.Random(2)
    for match in (bots, people):
        match = play_match(match, rng, Script())
        assert rating_apply_match(match_id=match.pk)
    now = timezone.now()
    board = board_recompute(period=period_containing(PeriodKind.WEEK, now), now=now)
    on_board = set(BoardEntry.objects.filter(board=board).values_list("user__username",
                                                                      flat=True))
    assert on_board == {"ann", "bob"}
    people_page = Client().get("/leaderboards/rating/").text
    bot_page = Client().get("/leaderboards/rating/bots/").text
    for name in ("robo", "otto"):
        assert name in bot_page and f">{name}<" not in people_page
    for name in ("ann", "bob"):
        assert name in people_page and f">{name}<" not in bot_page


def body_of(response) -> bytes:
    """Everything an NDJSON response (an async iterator) sends."""

    async def collect() -> bytes:
        return b"".join([chunk async for chunk in response.streaming_content])

    return asyncio.run(collect())


@pytest.mark.django_db(transaction=True)  # the stream reads in its own threads
def test_a_players_matches_as_ndjson_newest_first():
    robo = create_user("robo")
    ids = []
    for _ in range(3):
        match = services.match_create_computer(user=robo, level="easy", variant="straight")
        services.match_resign(match=match, user=robo)
        ids.append(match.pk)
    services.match_create_computer(user=robo, level="easy")  # in play: not listed
    Match.objects.filter(pk=ids[0]).update(created_at=timezone.now() - timedelta(days=2))
    response = Client().get("/api/user/robo/matches")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    lines = body_of(response).decode().splitlines()
    documents = [json.loads(line) for line in lines]
    assert [d["id"] for d in documents] == ids[::-1]
    for document in documents:
        verify_export(document)
    one = body_of(Client().get("/api/user/robo/matches?max=1"))
    assert [json.loads(line)["id"] for line in one.splitlines()] == [ids[2]]
    since = int((timezone.now() - timedelta(days=1)).timestamp() * 1000)
    recent = body_of(Client().get(f"/api/user/robo/matches?since={since}"))
    assert [json.loads(line)["id"] for line in recent.splitlines()] == ids[:0:-1]


def test_a_challenge_left_unanswered_expires():
    from games.api.catch_up import Told
    from games.api.models import Challenge

    robo, ann = create_user("robo"), create_user("ann")
    api_services.bot_account_upgrade(user=robo)
    old = api_services.challenge_create(user=ann, dest=robo, body={})
    fresh = api_services.challenge_create(user=ann, dest=robo, body={})
    Challenge.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - api_selectors.CHALLENGE_EXPIRY - timedelta(seconds=1)
    )
    announced = [e["challenge"]["id"] for e in Told().opening(robo)]
    assert announced == [fresh.pk]
    with pytest.raises(api_services.ApiError, match="expired"):
        api_services.challenge_accept(user=robo, challenge_id=old.pk)
    assert not Match.objects.exists()
    client = Client()
    client.force_login(ann)
    assert client.get(f"/challenge/{old.pk}/status.json").json()["status"] == "expired"
    assert "This challenge was expired" in client.get(f"/challenge/{old.pk}/").text


def test_a_challenge_accepted_while_its_page_loads_is_never_called_expired(monkeypatch):
    """The bot accepts between the page's read of the challenge and the rest of the
    page: the waiting page (or its status poll) must not say "expired" and stop, it
    must go on to the table (CI saw a fresh challenge called expired this way)."""
    robo, ann = create_user("robo"), create_user("ann")
    api_services.bot_account_upgrade(user=robo)
    client = Client()
    client.force_login(ann)
    real_get = api_selectors.challenge_get

    for url in ("/challenge/{}/", "/challenge/{}/status.json"):
        challenge = api_services.challenge_create(user=ann, dest=robo, body={})

        def read_then_accepted(*, challenge_id, challenge=challenge):
            row = real_get(challenge_id=challenge_id)
            if challenge_id == challenge.pk and row.status == "created":
                api_services.challenge_accept(user=robo, challenge_id=challenge_id)
            return row

        monkeypatch.setattr(api_selectors, "challenge_get", read_then_accepted)
        answer = client.get(url.format(challenge.pk))
        monkeypatch.setattr(api_selectors, "challenge_get", real_get)
        if url.endswith(".json"):
            assert answer.json()["status"] == "created"  # the next poll finds the match
        else:
            assert "expired" not in answer.text
            assert "Waiting for BOT robo to answer" in answer.text  # it polls on
        follow = client.get(f"/challenge/{challenge.pk}/status.json").json()
        assert follow["match_id"] is not None


def test_a_person_accepts_or_declines_a_bots_challenge_from_the_lobby():
    from games.api.models import Challenge

    robo, ann = create_user("robo"), create_user("ann")
    api_services.bot_account_upgrade(user=robo)
    first = api_services.challenge_create(user=robo, dest=ann, body={"target": 50})
    second = api_services.challenge_create(user=robo, dest=ann, body={"variant": "straight"})
    client = Client()
    client.force_login(ann)
    lobby = client.get("/").text
    assert "Challenges to you" in lobby and "BOT robo" in lobby
    assert f"/challenge/{first.pk}/accept/" in lobby
    assert "Challenges to you" not in Client().get("/").text  # visitors: nothing
    declined = client.post(f"/challenge/{second.pk}/decline/")
    assert declined.status_code == 302 and declined["Location"] == "/"
    accepted = client.post(f"/challenge/{first.pk}/accept/")
    match = Match.objects.get()
    assert accepted["Location"] == f"/match/{match.pk}/"
    assert set(match.seats.values_list("user__username", flat=True)) == {"robo", "ann"}
    assert Challenge.objects.get(pk=second.pk).status == "declined"
    assert "Challenges to you" not in client.get("/").text
    robo_client = Client()
    robo_client.force_login(robo)  # only the challenged player accepts
    third = api_services.challenge_create(user=robo, dest=ann, body={})
    robo_client.post(f"/challenge/{third.pk}/accept/")
    assert Challenge.objects.get(pk=third.pk).status == "created"
