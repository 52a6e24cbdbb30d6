"""A banned player who signs in is told why and for how long, not only that the
account is inactive."""

import pytest

from accounts.services import user_ban, user_unban
from tests.factories import create_moderator, create_user

pytestmark = pytest.mark.django_db

PASSWORD = "felt-table-Knock-42"


def sign_in(client, username):
    return client.post("/accounts/login/", {"login": username, "password": PASSWORD}, follow=True)


def text_of(response) -> str:
    return " ".join(response.content.decode().split())


def test_a_banned_player_signing_in_reads_the_reason_and_that_the_ban_is_permanent(client):
    mod = create_moderator()
    cheat = create_user("cheat", PASSWORD)
    user_ban(staff=mod, user=cheat, reason="Abusive chat after three warnings")
    response = sign_in(client, "cheat")
    page = text_of(response)
    assert "Your account has been suspended" in page
    assert "Reason: Abusive chat after three warnings" in page
    assert "The suspension is permanent: it ends only if a moderator lifts it." in page
    assert "_auth_user_id" not in client.session  # still not signed in


def test_a_wrong_password_on_a_banned_account_tells_nothing(client):
    mod = create_moderator()
    cheat = create_user("cheat", PASSWORD)
    user_ban(staff=mod, user=cheat, reason="Abusive chat after three warnings")
    response = client.post("/accounts/login/", {"login": "cheat", "password": "nope-nope-1"})
    assert "Abusive chat" not in response.content.decode()


def test_after_the_ban_is_lifted_the_player_signs_in(client):
    mod = create_moderator()
    cheat = create_user("cheat", PASSWORD)
    user_ban(staff=mod, user=cheat, reason="Abusive chat")
    user_unban(staff=mod, user=cheat, reason="Appeal accepted")
    sign_in(client, "cheat")
    assert client.session["_auth_user_id"] == str(cheat.pk)
