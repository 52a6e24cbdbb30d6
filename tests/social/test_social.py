"""Friends, notifications and their e-mails, through the services and pages: follows
make friends, a block stops them, a private player is never shown online, the friends
list shows who is online, playing and their rating; a challenge and a moderator's
decision notify the player, opening a notification marks it read; an e-mail goes to a
player who is away, at most one per kind an hour, and its signed link unsubscribes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from accounts import services as accounts_services
from games.chat.services import user_block
from social import selectors, services
from social.models import EmailSent, Follow, Notification
from tests.factories import create_challenge, create_match, create_moderator, create_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_background(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict]]:
    """The e-mail task's queueing, recorded instead of sent to a broker."""
    queued: list[tuple[str, dict]] = []

    class Recorder:
        def run_in_background(self, task: str, kwargs: dict) -> None:
            queued.append((task, kwargs))

    monkeypatch.setattr("social.services.runtime.scheduler", lambda: Recorder())
    return queued


@pytest.fixture(autouse=True)
def offline() -> Any:
    cache.delete_many([selectors.online_key(pk) for pk in range(1, 2000)])
    yield


def friends(a: Any, b: Any) -> None:
    services.follow_create(user=a, followee=b)
    services.follow_create(user=b, followee=a)


def test_two_players_who_follow_each_other_are_friends_and_a_block_ends_it() -> None:
    alice, bob = create_user("alice"), create_user("bob")
    services.follow_create(user=alice, followee=bob)
    assert not selectors.are_friends(alice, bob)
    assert [n.kind for n in Notification.objects.filter(user=bob)] == ["follow"]
    services.follow_create(user=bob, followee=alice)
    assert selectors.are_friends(alice, bob)
    assert [n.kind for n in Notification.objects.filter(user=alice)] == ["friend"]
    assert selectors.friend_ids(user=alice) == {bob.pk}
    user_block(blocker=bob, blocked=alice)
    assert not selectors.are_friends(alice, bob)
    assert selectors.friends_list(user=alice) == []
    with pytest.raises(services.SocialError):
        services.follow_create(user=alice, followee=bob)


def test_a_follow_is_refused_for_oneself_and_guests() -> None:
    alice = create_user("alice")
    guest = create_user("guest1", guest=True)
    with pytest.raises(services.SocialError):
        services.follow_create(user=alice, followee=alice)
    with pytest.raises(services.SocialError):
        services.follow_create(user=guest, followee=alice)
    with pytest.raises(services.SocialError):
        services.follow_create(user=alice, followee=guest)
    assert not Follow.objects.exists()


def test_the_friends_list_shows_online_playing_and_rating_unless_private() -> None:
    alice, bob = create_user("alice"), create_user("bob", rating=1612.4)
    carol = create_user("carol")
    friends(alice, bob)
    friends(alice, carol)
    rows = {row.username: row for row in selectors.friends_list(user=alice)}
    assert rows["bob"].online is False and rows["bob"].rating == 1612
    assert rows["carol"].rating is None
    services.presence_open(user_id=bob.pk)
    match = create_match(carol, "easy")
    rows = {row.username: row for row in selectors.friends_list(user=alice)}
    assert rows["bob"].online is True and rows["bob"].playing_match_id is None
    assert rows["carol"].playing_match_id == match.pk
    services.settings_update(user=carol, online_private=True)
    services.settings_update(user=bob, online_private=True)
    rows = {row.username: row for row in selectors.friends_list(user=alice)}
    assert rows["bob"].online is None and rows["carol"].online is None
    assert rows["carol"].playing_match_id is None
    page = Client()
    page.force_login(alice)
    html = page.get("/friends/").content.decode()
    assert f"/match/{match.pk}/" not in html and "private" in html


def test_online_counts_open_pages() -> None:
    bob = create_user("bob")
    services.presence_open(user_id=bob.pk)
    services.presence_open(user_id=bob.pk)
    services.presence_close(user_id=bob.pk)
    assert selectors.is_online(user_id=bob.pk)
    services.presence_close(user_id=bob.pk)
    assert not selectors.is_online(user_id=bob.pk)


def test_a_challenge_and_a_moderators_warning_notify_and_opening_marks_read(
    django_capture_on_commit_callbacks: Any,
) -> None:
    alice, bob = create_user("alice"), create_user("bob")
    warned = create_moderator()
    with django_capture_on_commit_callbacks(execute=True):
        challenge = create_challenge(alice, bob, variant="default", target=100)
        accounts_services.user_warn(staff=warned, user=bob, reason="be kind")
    kinds = [n.kind for n in Notification.objects.filter(user=bob).order_by("pk")]
    assert kinds == ["challenge", "moderation"]
    client = Client()
    client.force_login(bob)
    page = client.get("/notifications/").content.decode()
    assert "alice challenges you to a match." in page and "be kind" in page
    first = Notification.objects.filter(user=bob, kind="challenge").get()
    assert selectors.unread_count(user=bob) == 2
    response = client.get(f"/notifications/{first.pk}/")
    assert response.status_code == 302 and response["Location"] == f"/challenge/{challenge.pk}/"
    assert selectors.unread_count(user=bob) == 1
    # Another player's notification is as unknown as a missing one.
    other = Client()
    other.force_login(alice)
    assert other.get(f"/notifications/{first.pk}/").status_code == 404


def test_an_email_goes_to_a_player_away_once_an_hour_with_a_working_unsubscribe(
    no_background: list, django_capture_on_commit_callbacks: Any,
) -> None:
    alice, bob = create_user("alice"), create_user("bob")
    with django_capture_on_commit_callbacks(execute=True):
        create_challenge(alice, bob, variant="default", target=100)
    assert no_background and no_background[0][0] == "social.email_send"
    first = Notification.objects.get(user=bob, kind="challenge")
    with django_capture_on_commit_callbacks(execute=True):
        assert services.email_send(notification_id=first.pk)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["bob@example.com"] and "alice challenges you" in message.subject
    # A second challenge within the hour: stored and shown, not e-mailed.
    with django_capture_on_commit_callbacks(execute=True):
        create_challenge(create_user("carol"), bob, variant="default", target=100)
    second = Notification.objects.filter(user=bob, kind="challenge").order_by("-pk")[0]
    assert not services.email_send(notification_id=second.pk)
    assert len(mail.outbox) == 1
    # An hour later it would go; a player who is online gets none.
    EmailSent.objects.update(sent_at=timezone.now() - timedelta(minutes=61))
    services.presence_open(user_id=bob.pk)
    assert not services.email_send(notification_id=second.pk)
    services.presence_close(user_id=bob.pk)
    # The link in the e-mail: one click, no sign-in, that kind switched off.
    link = next(word for word in message.body.split() if "/notifications/unsubscribe/" in word)
    path = link.split("127.0.0.1:8000", 1)[1] if "127.0.0.1:8000" in link else link
    assert message.extra_headers["List-Unsubscribe"] == f"<{link}>"
    response = Client().get(path)
    assert response.status_code == 200 and "no more e-mails about challenges" in (
        response.content.decode())
    assert selectors.settings_get(user=bob).email_challenge is False
    assert not services.email_send(notification_id=second.pk)
    # A forged link is refused and changes nothing.
    assert Client().get(path[:-3] + "xyz/").status_code == 404


def test_settings_switch_each_kind_of_email() -> None:
    bob = create_user("bob")
    client = Client()
    client.force_login(bob)
    response = client.post("/notifications/settings/", {"email_challenge": "on",
                                                         "online_private": "on"})
    assert response.status_code == 302
    row = selectors.settings_get(user=bob)
    assert (row.email_challenge, row.email_turn, row.online_private) == (True, False, True)
    assert 'name="email_turn"' in client.get("/players/settings/").content.decode()


def test_entrants_are_told_once_when_their_tournament_starts_in_five_minutes() -> None:
    from games.tournaments.models import Entrant, Tournament
    from tests.factories import create_tournament

    alice, bob = create_user("alice"), create_user("bob")
    now = timezone.now()
    soon = create_tournament(players=[alice, bob], name="Friday Arena",
                             starts_at=now + timedelta(minutes=4))
    create_tournament(players=[alice], name="Later", starts_at=now + timedelta(minutes=30))
    Entrant.objects.filter(tournament=soon, user=bob).update(status=Entrant.Status.WITHDRAWN)
    assert services.tournament_reminders_send(now=now) == 1
    assert services.tournament_reminders_send(now=now + timedelta(minutes=1)) == 0
    told = Notification.objects.get(user=alice, kind="tournament")
    assert told.url == f"/tournaments/{soon.pk}/"
    from social.texts import notification_text

    assert notification_text(told.kind, told.params) == "Friday Arena starts in five minutes."
    assert Tournament.objects.count() == 2


@pytest.mark.django_db(transaction=True)
async def test_a_ban_closes_the_players_notification_socket() -> None:
    from channels.db import database_sync_to_async
    from django.db import connections

    from tests.chat.helpers import ws_connect

    bob = await database_sync_to_async(create_user)("bob")
    staff = await database_sync_to_async(create_moderator)()
    socket = await ws_connect(bob, "/ws/notifications/")
    assert (await socket.receive_json_from(timeout=5))["type"] == "unread"
    await database_sync_to_async(accounts_services.user_ban)(staff=staff, user=bob, reason="x")
    assert (await socket.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4003}
    await database_sync_to_async(connections.close_all)()


def test_read_notifications_go_after_90_days_unread_ones_stay() -> None:
    bob = create_user("bob")
    old = timezone.now() - timedelta(days=91)
    for read_at in (old, None, timezone.now()):
        Notification.objects.create(user=bob, kind="follow", url="/", read_at=read_at)
    EmailSent.objects.create(user=bob, kind="challenge", sent_at=old)
    assert services.notifications_prune() == 1
    assert Notification.objects.count() == 2 and not EmailSent.objects.exists()
