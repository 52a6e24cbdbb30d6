"""A guest who signs up keeps their history: the same account, now registered."""

import pytest
from django.test import Client

from games import services
from games.models import Seat
from tests.factories import create_user

pytestmark = pytest.mark.django_db


def signup(client: Client, username: str) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": "a-long-Secret-42",
            "password2": "a-long-Secret-42",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]


def test_guest_signs_up_and_keeps_their_matches(client: Client) -> None:
    guest = services.guest_user_create()
    match = services.match_create_computer(user=guest, level="easy")
    client.force_login(guest)

    page = client.get("/accounts/signup/")
    assert page.status_code == 200  # a guest is not sent away from the signup form

    signup(client, "keeper")
    guest.refresh_from_db()
    assert guest.username == "keeper" and not guest.is_guest
    assert guest.check_password("a-long-Secret-42")
    assert Seat.objects.get(match=match, user__isnull=False).user_id == guest.pk
    assert client.get("/").wsgi_request.user.pk == guest.pk  # still signed in, same account


def test_visitor_signup_creates_a_new_registered_account(client: Client, django_user_model) -> None:
    signup(client, "newcomer")
    user = django_user_model.objects.get(username="newcomer")
    assert not user.is_guest


def test_registered_player_is_sent_away_from_signup(client: Client, django_user_model) -> None:
    user = create_user("member", "pw-Long-enough-1")
    client.force_login(user)
    assert client.get("/accounts/signup/").status_code == 302
