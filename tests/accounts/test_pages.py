"""Player pages through the test client: the profile with its statistics, the settings
page (a link to the table settings, blocked players, moderation notices), account deletion (matches
stay, shown as "deleted player"), and the etiquette page."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import ModerationAction, Mute, User
from accounts.selectors import player_stats, recent_matches
from games.chat.models import UserBlock
from games.models import Match, Seat
from tests.factories import create_finished_match

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def ann_with_history(make_user) -> User:
    ann, bob = make_user("ann"), make_user("bob")
    create_finished_match(
        (ann, bob), kind=Match.Kind.FRIEND, winner=0, scores=(120, 45), hands_won=(2, 0),
        hands=[(0, 30, "gin"), (1, 10, "knock"), (0, 20, "knock")],
    )
    create_finished_match(
        (None, ann), bot_level="hard", rated=False, variant="oklahoma", winner=0,
        scores=(45, 120), hands_won=(0, 1), gins=(0, 0), big_gins=(0, 1),
        hands=[(1, 40, "big_gin"), (0, 25, "undercut")],
    )
    create_finished_match(
        (bob, ann), kind=Match.Kind.FRIEND, winner=1, scores=(45, 120), hands_won=(0, 1),
        gins=(0, 0), undercuts=(0, 1), hands=[(1, 15, "undercut")],
    )
    # Still in play: not counted.
    active = Match.objects.create(kind=Match.Kind.FRIEND, rules={}, status=Match.Status.ACTIVE)
    Seat.objects.create(match=active, index=0, user=ann, hands_won=5)
    return ann


def test_player_stats_add_up_finished_matches_only(ann_with_history) -> None:
    stats = player_stats(user=ann_with_history)
    assert (stats.matches_played, stats.matches_won) == (3, 2)
    assert (stats.hands_played, stats.hands_won) == (6, 4)
    assert (stats.gins, stats.big_gins, stats.undercuts) == (1, 1, 1)
    assert stats.points_won == 30 + 20 + 40 + 15
    assert stats.average_points_per_hand == round(105 / 6, 1)
    assert stats.favourite_variant == "Default"


def test_profile_page_shows_stats_and_recent_matches(ann_with_history, make_user) -> None:
    html = signed_in(make_user("visitor")).get("/players/ann/").content.decode()
    assert "Playing since" in html and "favourite variant: Default" in html
    assert "17.5" in html  # average points per hand
    assert "vs Computer (hard)" in html and "vs bob" in html
    assert "Block ann" in html
    rows = recent_matches(user=ann_with_history)
    assert [r.won for r in rows] == [True, False, True]
    assert "No rated match yet." in html  # the leaderboards' rating chart


def test_profile_names_variants_as_the_lobby_does(make_user) -> None:
    cy, dan = make_user("cy"), make_user("dan")
    for variant in ("time_freedom", "time_freedom", "straight"):
        create_finished_match((cy, dan), kind=Match.Kind.FRIEND, variant=variant,
                              hands=[(0, 30, "gin")])
    html = signed_in(dan).get("/players/cy/").content.decode()
    assert "favourite variant: Time Freedom" in html
    recent = html.split('aria-label="Recent matches"')[1]
    assert recent.count("Time Freedom") == 2 and "Straight Gin" in recent
    shown = re.sub(r"<[^>]+>", " ", html)  # what a person reads (the challenge form's
    assert "time_freedom" not in shown and "· straight ·" not in shown  # values aside)


def test_profiles_of_guests_deleted_and_unknown_players_are_not_found(make_user) -> None:
    make_user("guest-1a2b3c", is_guest=True)
    gone = make_user("gone")
    gone.is_active = False
    gone.save()
    for name in ("guest-1a2b3c", "gone", "nobody"):
        assert Client().get(f"/players/{name}/").status_code == 404


def test_settings_page_leads_to_the_table_settings(make_user) -> None:
    ann = make_user("ann")
    client = signed_in(ann)
    page = client.get("/players/settings/").content.decode()
    assert "Change password" in page and "Delete my account" in page
    assert 'href="/players/settings/table/"' in page
    # The table settings have their own page (tests/accounts/test_table_settings.py).
    assert client.post("/players/settings/", {"card_style": "large"}).status_code == 405


def test_settings_show_blocks_and_an_active_mute(make_user, moderator) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    UserBlock.objects.create(blocker=ann, blocked=bob)
    Mute.objects.create(
        user=ann, until=timezone.now() + timedelta(hours=3), reason="spamming", created_by=moderator
    )
    page = signed_in(ann).get("/players/settings/").content.decode()
    assert "bob" in page and "Unblock" in page
    assert "You are muted until" in page and "spamming" in page


def test_settings_need_a_sign_in() -> None:
    response = Client().get("/players/settings/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_delete_account_keeps_matches_as_deleted_player(ann_with_history, make_user) -> None:
    ann = ann_with_history
    bob = User.objects.get(username="bob")
    client = signed_in(ann)
    wrong = client.post("/players/settings/delete/", {"confirm": "not-ann"})
    assert wrong.status_code == 400 and User.objects.get(pk=ann.pk).is_active

    response = client.post("/players/settings/delete/", {"confirm": "ann"})
    assert response.status_code == 302
    ann.refresh_from_db()
    assert not ann.is_active and ann.email == "" and not ann.has_usable_password()
    assert ann.display_name == "deleted player"
    assert Seat.objects.filter(user=ann).count() == 4, "matches stay"
    assert [r.opponent for r in recent_matches(user=bob)] == ["deleted player", "deleted player"]
    assert client.get("/players/settings/").status_code == 302, "signed out"
    assert Client().get("/players/ann/").status_code == 404
    assert ModerationAction.objects.get().kind == "delete_account"


def test_staff_accounts_cannot_delete_themselves_here(make_user) -> None:
    boss = make_user("boss", is_staff=True)
    response = signed_in(boss).post("/players/settings/delete/", {"confirm": "boss"})
    assert response.status_code == 400
    assert User.objects.get(pk=boss.pk).is_active


def test_reserved_names_cannot_be_signed_up() -> None:
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "settings",
            "email": "s@example.com",
            "password1": "A-long-pass-123",
            "password2": "A-long-pass-123",
        },
    )
    assert response.status_code == 200 and not User.objects.filter(username="settings").exists()


def test_etiquette_page() -> None:
    html = Client().get("/players/etiquette/").content.decode()
    assert "Chat etiquette" in html and "Report, don't retaliate" in html


def test_display_preferences_reach_every_page(make_user) -> None:
    ann = make_user("ann")
    client = signed_in(ann)
    assert 'data-suits="four"' in client.get("/").content.decode()
    client.post("/players/settings/table/", {
        "card_size": "medium", "card_style": "minimal", "card_back": "red", "theme": "green",
        "motion": "auto", "sound_on": "on", "volume": "70", "hand_sort": "melds",
    })
    html = client.get("/").content.decode()
    assert 'data-suits="two"' in html
    assert 'data-card-style="minimal"' in html and 'data-sound="on"' in html
