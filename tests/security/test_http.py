"""HTTP security: CSRF on every POST of the site, login throttling (per account and per
client address, behind a trusted proxy too), and the rate limits on creating
matches, guest accounts and chat messages."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.test import Client

from accounts.models import User
from games.chat.models import ChatMessage
from games.models import Match, Seat
from tests.factories import create_user
from tests.games.sockets import Socket
from tests.security.test_authorisation import form
from tests.security.urls import sample_paths
from tests.security.world import build_world

pytestmark = pytest.mark.django_db

FAST_HASHER = ["django.contrib.auth.hashers.MD5PasswordHasher"]
#: POSTs that take no CSRF token, and why: the signed link itself is the credential.
SIGNED_LINKS = {
    "social:unsubscribe": "an e-mail's one-click unsubscribe, POSTed by the mail client "
                          "(RFC 8058), which has no cookie or token",
}


def test_every_post_without_a_csrf_token_is_refused():
    world = build_world()
    forms = {
        "games:play_computer": form("computer", level="easy"), "games:play_friend": form("friend"),
        "games:play_quick": form("quick"), "accounts:delete": {"confirm": "alice"},
    }
    before = (Match.objects.count(), User.objects.count(), ChatMessage.objects.count())
    for role in ("anonymous", "player"):
        for name, path in sample_paths(world).items():
            client = Client(enforce_csrf_checks=True)
            if role == "player":
                client.force_login(world.users["player"])
            response = client.post(path, forms.get(name, {"x": "1"}))
            if path.startswith("/api/"):
                # The bot API takes no cookie: a signed-in browser is refused as any
                # caller without a token, so a forged request can do nothing.
                assert response.status_code in (401, 405), (role, name, response.status_code)
                continue
            if name in SIGNED_LINKS:
                # No CSRF token by design: what the link's signature does not name is
                # refused (the sample is a forged link).
                assert response.status_code == 404, (role, name, response.status_code)
                continue
            assert response.status_code == 403, (role, name, response.status_code)
            assert b"CSRF" in response.content, (role, name)
    assert (Match.objects.count(), User.objects.count(), ChatMessage.objects.count()) == before
    # With the token from the page the same forms go through.
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users["other"])
    client.get("/")
    token = client.cookies["csrftoken"].value
    response = client.post("/play/computer/",
                           {**forms["games:play_computer"], "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"].startswith("/match/")
    response = client.post("/chat/block/", '{"username": "dave"}',
                           content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200


THROTTLED = "Too many failed login attempts"


def failed_login(client: Client, login: str) -> str:
    """"refused" (wrong password) or "throttled" (not even checked)."""
    response = client.post("/accounts/login/", {"login": login, "password": "wrong-password"})
    assert response.status_code == 200  # the form again, with its error
    return "throttled" if THROTTLED in response.content.decode() else "refused"


def test_the_sixth_failed_login_of_an_account_is_refused(settings):
    settings.PASSWORD_HASHERS = FAST_HASHER
    create_user("zoe", password="a-Good-passw0rd")
    for attempt in range(5):
        assert failed_login(Client(REMOTE_ADDR=f"10.0.0.{attempt}"), "zoe") == "refused"
    # The account is now throttled, from any address, even with the right password.
    client = Client(REMOTE_ADDR="10.0.0.99")
    refused = client.post("/accounts/login/", {"login": "zoe", "password": "a-Good-passw0rd"})
    assert THROTTLED in refused.content.decode()
    assert client.get("/matches/").status_code == 302  # not signed in


def test_failed_logins_are_throttled_per_address_behind_a_trusted_proxy(settings):
    settings.PASSWORD_HASHERS = FAST_HASHER
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1  # nginx appends the client address
    create_user("yan", password="a-Good-passw0rd")

    def via_proxy(forwarded_for: str) -> Client:
        return Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded_for)

    for attempt in range(10):  # ten unknown accounts from one address
        assert failed_login(via_proxy("203.0.113.7"), f"nobody{attempt}") == "refused"
    assert failed_login(via_proxy("203.0.113.7"), "nobody-else") == "throttled"
    # Forging an address in front of the proxy's does not help; others are unaffected.
    assert failed_login(via_proxy("198.51.100.1, 203.0.113.7"), "nobody-more") == "throttled"
    ok = via_proxy("198.51.100.2").post(
        "/accounts/login/", {"login": "yan", "password": "a-Good-passw0rd"}
    )
    assert ok.status_code == 302


def test_match_creation_is_rate_limited_per_player(settings):
    settings.MATCH_CREATE_LIMIT = (3, 600)
    alice, bob = create_user("alice"), create_user("bob")
    client = Client()
    client.force_login(alice)
    for _ in range(3):
        assert client.post("/play/computer/", form("computer", level="easy")).status_code == 302
    refused = client.post("/play/friend/", form("friend"))
    assert refused.status_code == 429
    assert "Too many new matches" in refused.content.decode()
    assert Seat.objects.filter(user=alice).count() == 3
    other = Client()
    other.force_login(bob)
    assert other.post("/play/computer/", form("computer", level="easy")).status_code == 302


def test_match_creation_is_rate_limited_per_address(settings):
    settings.MATCH_CREATE_IP_LIMIT = (4, 600)
    players = [create_user(f"p{i}") for i in range(3)]
    statuses = []
    for player in players:
        client = Client(REMOTE_ADDR="192.0.2.10")
        client.force_login(player)
        statuses += [client.post("/play/computer/", form("computer", level="easy")).status_code
                     for _ in range(2)]
    assert statuses == [302, 302, 302, 302, 429, 429]
    elsewhere = Client(REMOTE_ADDR="192.0.2.11")
    elsewhere.force_login(players[0])
    assert elsewhere.post("/play/computer/", form("computer", level="easy")).status_code == 302


def test_guest_accounts_are_rate_limited_per_address(settings):
    settings.GUEST_CREATE_IP_LIMIT = (2, 3600)
    guests_before = User.objects.filter(is_guest=True).count()
    statuses = [Client(REMOTE_ADDR="192.0.2.20").post("/play/guest/").status_code
                for _ in range(3)]
    computer = Client(REMOTE_ADDR="192.0.2.20").post(
        "/play/computer/", form("computer", level="easy")
    )
    assert statuses == [302, 302, 429] and computer.status_code == 429
    assert User.objects.filter(is_guest=True).count() == guests_before + 2


@pytest.mark.django_db(transaction=True)
async def test_chat_is_rate_limited(settings):
    world = await sync_to_async(build_world)()
    socket = await Socket.open(world.match.pk, world.users["player"])
    answers = []
    for number in range(settings.CHAT_RATE_COUNT + 1):
        await socket.send({"type": "chat", "text": f"message {number}"})
        while True:
            frame = await socket.communicator.receive_json_from(timeout=10)
            if frame["type"] in ("chat", "error"):
                answers.append(frame.get("code", frame["type"]))
                break
    # One message was already posted by this player in build_world.
    assert answers[: settings.CHAT_RATE_COUNT - 1] == ["chat"] * (settings.CHAT_RATE_COUNT - 1)
    assert answers[-1] == "rate_limited"
    await socket.close()
