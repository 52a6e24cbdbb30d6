"""The chat panel's HTTP side: report and block endpoints (JSON and form posts, CSRF
enforced), and what the panel offers to each kind of viewer."""

import json
from datetime import timedelta

import pytest
from django.template import Context, Template
from django.test import Client, RequestFactory
from django.utils import timezone

from accounts.models import Mute
from games.chat.models import ChatReport, UserBlock
from games.chat.services import chat_post
from tests.factories import create_table

pytestmark = pytest.mark.django_db


def signed_in(user, *, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def post_json(client: Client, url: str, body: dict):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_report_a_message_then_the_same_again(make_user) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    message = chat_post(user=bob, text="rude words")
    client = signed_in(ann)
    url = f"/chat/messages/{message.pk}/report/"
    first = post_json(client, url, {"reason": "abuse", "comment": "mean"})
    assert first.status_code == 200 and first.json()["ok"]
    report = ChatReport.objects.get()
    assert (report.reporter, report.reason, report.comment) == (ann, "abuse", "mean")
    again = post_json(client, url, {"reason": "abuse"})
    assert again.status_code == 400 and again.json()["error"]["code"] == "already_reported"
    assert post_json(client, "/chat/messages/999999/report/", {"reason": "spam"}).status_code == 404
    bad = client.post(url, "{oops", content_type="application/json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_json"
    assert ChatReport.objects.count() == 1


def test_report_and_block_need_a_signed_in_post_with_csrf(make_user) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    message = chat_post(user=bob, text="hi")
    url = f"/chat/messages/{message.pk}/report/"
    assert Client().post(url, {"reason": "spam"}).status_code == 302  # to the login page
    assert signed_in(ann).get(url).status_code == 405
    assert signed_in(ann, csrf=True).post(url, {"reason": "spam"}).status_code == 403
    assert signed_in(ann, csrf=True).post("/chat/block/", {"username": "bob"}).status_code == 403
    assert not ChatReport.objects.exists() and not UserBlock.objects.exists()


def test_block_by_message_hides_and_unblock_by_username(make_user) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    message = chat_post(user=bob, text="hi")
    client = signed_in(ann)
    response = post_json(client, "/chat/block/", {"message": message.pk})
    assert response.status_code == 200 and response.json()["author"] == "bob"
    assert UserBlock.objects.filter(blocker=ann, blocked=bob).exists()
    refused = post_json(client, "/chat/block/", {"username": "ann"})
    assert refused.json()["error"]["code"] == "block_self"
    assert post_json(client, "/chat/block/", {"username": "zed"}).status_code == 404
    # The settings and profile pages post plain forms and are sent back.
    response = client.post("/chat/unblock/", {"username": "bob", "next": "/players/settings/"})
    assert response.status_code == 302 and response["Location"] == "/players/settings/"
    assert not UserBlock.objects.exists()
    evil = client.post("/chat/block/", {"username": "bob", "next": "//evil.example/"})
    assert evil["Location"] == "/"


def test_a_spectator_cannot_block_through_a_table_message_they_cannot_read(
    make_user, settings
) -> None:
    ann, bob, eve = make_user("ann"), make_user("bob"), make_user("eve")
    match = create_table(ann, bob)
    message = chat_post(user=bob, text="hi", match_id=match.pk)
    settings.CHAT_SPECTATORS_CAN_READ = False
    response = post_json(signed_in(eve), "/chat/block/", {"message": message.pk})
    assert response.status_code == 404 and not UserBlock.objects.exists()


def render_panel(user, match=None) -> str:
    request = RequestFactory().get("/")
    request.user = user
    template = Template(
        "{% load chat %}{% if match %}{% chat_panel match %}{% else %}{% chat_panel %}{% endif %}"
    )
    return template.render(Context({"request": request, "match": match}))


def test_panel_offers_writing_quick_phrases_and_etiquette_to_players(make_user) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    html = render_panel(ann, create_table(ann, bob))
    assert "Table chat" in html and "data-chat-form" in html
    for quick in ('data-chat-quick="Good game"', 'data-chat-quick="Nice gin!"', "👍"):
        assert quick in html
    assert 'href="/players/etiquette/"' in html
    assert 'data-room="table"' in html and 'data-me="ann"' in html


def test_panel_for_spectators_guests_and_muted_players(make_user, moderator, settings) -> None:
    ann, bob, eve = make_user("ann"), make_user("bob"), make_user("eve")
    match = create_table(ann, bob)
    spectator = render_panel(eve, match)
    assert "Only the players chat at this table." in spectator
    assert "data-chat-log" in spectator and "data-chat-form" not in spectator
    settings.CHAT_SPECTATORS_CAN_READ = False
    assert "data-chat-log" not in render_panel(eve, match)

    guest = render_panel(make_user("guest-9f9f9f", is_guest=True))
    assert "Guests cannot chat" in guest and "data-chat-form" not in guest

    Mute.objects.create(
        user=ann, until=timezone.now() + timedelta(hours=1), reason="flooding", created_by=moderator
    )
    muted = render_panel(ann)
    assert "You are muted until" in muted and "flooding" in muted


def test_lobby_chat_is_on_the_home_page_for_signed_in_players(make_user) -> None:
    assert "data-chat" not in Client().get("/").content.decode()
    html = signed_in(make_user("ann")).get("/").content.decode()
    assert 'data-room="lobby"' in html and "Lobby chat" in html
    assert 'href="/players/settings/"' in html  # the header's name leads to the settings
