"""Personal API tokens: created on the settings page (shown once, stored hashed) or by
``manage.py api_token``; Bearer authentication; revoked and banned accounts' tokens
stop at once; per-token rate limits answer 429 with Retry-After."""

from __future__ import annotations

import hashlib
import io

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from accounts import services as accounts_services
from games.api.models import ApiToken
from tests.factories import create_moderator, create_user

pytestmark = pytest.mark.django_db


def bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def test_a_token_created_on_the_settings_page_is_shown_once_and_stored_hashed():
    ann = create_user("ann")
    client = Client()
    client.force_login(ann)
    assert "Manage API tokens" in client.get("/players/settings/").text
    response = client.post("/players/settings/tokens/", {"name": "my bot"})
    assert response.status_code == 200
    token = response.text.split("<code data-token>")[1].split("</code>")[0]
    assert token.startswith("gin_") and len(token) > 40
    row = ApiToken.objects.get(user=ann)
    assert row.name == "my bot"
    assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in str(ApiToken.objects.values().get())
    listing = client.get("/players/settings/tokens/").text
    assert token not in listing and row.prefix in listing and "never" in listing
    answer = Client().get("/api/account", **bearer(token))
    assert answer.json() == {"id": ann.pk, "username": "ann", "bot": False}
    row.refresh_from_db()
    assert row.last_used_at is not None
    assert row.last_used_at.strftime("%Y-%m-%d %H:%M") in client.get(
        "/players/settings/tokens/").text


def test_the_command_prints_the_token_alone_on_one_line():
    create_user("bob")
    out = io.StringIO()
    call_command("api_token", "bob", "--name", "script", stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gin_")
    assert Client().get("/api/account", **bearer(lines[0])).json()["username"] == "bob"
    assert ApiToken.objects.get().name == "script"
    with pytest.raises(Exception, match="No account named"):
        call_command("api_token", "nobody", stdout=io.StringIO())


def test_a_revoked_token_stops_at_once_and_revoking_is_the_owners_alone():
    ann, eve = create_user("ann"), create_user("eve")
    out = io.StringIO()
    call_command("api_token", "ann", stdout=out)
    token = out.getvalue().strip()
    row = ApiToken.objects.get()
    thief = Client()
    thief.force_login(eve)
    assert thief.post(f"/players/settings/tokens/{row.pk}/revoke/").status_code == 404
    assert Client().get("/api/account", **bearer(token)).status_code == 200
    owner = Client()
    owner.force_login(ann)
    assert owner.post(f"/players/settings/tokens/{row.pk}/revoke/").status_code == 302
    answer = Client().get("/api/account", **bearer(token))
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "invalid_token"
    assert "revoked" in owner.get("/players/settings/tokens/").text


def test_a_banned_accounts_tokens_stop_at_once():
    eve = create_user("eve")
    out = io.StringIO()
    call_command("api_token", "eve", stdout=out)
    token = out.getvalue().strip()
    assert Client().get("/api/account", **bearer(token)).status_code == 200
    accounts_services.user_ban(staff=create_moderator(), user=eve, reason="cheating")
    answer = Client().get("/api/account", **bearer(token))
    assert answer.status_code == 401 and answer.json()["error"]["code"] == "invalid_token"


def test_requests_without_a_token_or_with_a_bad_one_are_refused():
    for headers in ({}, {"HTTP_AUTHORIZATION": "Basic abc"}, {"HTTP_AUTHORIZATION": "Bearer"}):
        answer = Client().get("/api/account", **headers)
        assert answer.status_code == 401
        assert answer.json()["error"]["code"] == "unauthorized"
    for token in ("gin_nope", "x" * 500, "gin_" + "a" * 43):
        answer = Client().get("/api/account", **bearer(token))
        assert answer.status_code == 401
        assert answer.json()["error"]["code"] == "invalid_token"


def test_guests_cannot_create_tokens():
    guest = create_user("guest-1", is_guest=True)
    client = Client()
    client.force_login(guest)
    assert client.post("/players/settings/tokens/", {"name": "x"}).status_code == 400
    assert not ApiToken.objects.exists()


@override_settings(API_RATE_LIMIT=(5, 60))
def test_each_token_has_its_own_rate_limit_with_retry_after():
    create_user("ann")
    create_user("bob")
    tokens = []
    for name in ("ann", "bob"):
        out = io.StringIO()
        call_command("api_token", name, stdout=out)
        tokens.append(out.getvalue().strip())
    for _ in range(5):
        assert Client().get("/api/account", **bearer(tokens[0])).status_code == 200
    refused = Client().get("/api/account", **bearer(tokens[0]))
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(refused["Retry-After"]) <= 61
    assert Client().get("/api/account", **bearer(tokens[1])).status_code == 200
