"""The table settings (issue 33) through the test client and on paper: a registered
player's are saved on the account and drawn on every page's <html>; a visitor's page
says the browser keeps them; a guest's browser settings go to the account made on
sign-up (the invalid ones dropped); the browser code, the offline table and
accounts/display.py agree on the attributes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

from accounts import display
from accounts.models import Profile, User
from accounts.services import AccountError, profile_update
from games import services
from tests.factories import create_user

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
HTML_TAG = re.compile(r"<html[^>]*>")

EVERYTHING = {
    "card_size": "huge", "card_style": "large", "four_colour_deck": "", "card_back": "blue",
    "theme": "contrast", "motion": "none", "sound_on": "on", "volume": "35",
    "hand_sort": "suit", "left_handed": "on", "confirm_discard": "on",
}


def html_tag(client: Client, path: str = "/") -> str:
    match = HTML_TAG.search(client.get(path).content.decode())
    assert match
    return match.group(0)


def test_a_player_saves_every_setting_and_every_page_carries_them() -> None:
    ann = create_user("ann")
    client = Client()
    client.force_login(ann)
    assert 'data-prefs="account"' in html_tag(client)
    tag = html_tag(client)
    assert 'data-card-size="medium"' in tag and 'data-theme="green"' in tag

    response = client.post("/players/settings/table/", EVERYTHING)
    assert response.status_code == 302
    profile = Profile.objects.get(user=ann)
    assert (profile.card_size, profile.theme, profile.volume, profile.left_handed) == (
        "huge", "contrast", 35, True
    )
    assert not profile.four_colour_deck
    page = client.get("/players/settings/table/").content.decode()
    assert "Your table settings are saved." in page
    tag = html_tag(client, "/fairness/")
    for expected in (
        'data-card-size="huge"', 'data-card-style="large"', 'data-suits="two"',
        'data-card-back="blue"', 'data-theme="contrast"', 'data-motion="none"', 'data-sound="on"',
        'data-volume="35"', 'data-hand-sort="suit"', 'data-hand="left"',
        'data-confirm-discard="on"',
    ):
        assert expected in tag, (expected, tag)


def test_an_invalid_setting_is_refused_and_nothing_changes() -> None:
    ann = create_user("ann")
    client = Client()
    client.force_login(ann)
    client.post("/players/settings/table/", EVERYTHING)
    for field, bad in (("theme", "neon"), ("volume", "180"), ("card_size", "gigantic")):
        wrong = {**EVERYTHING, "theme": "blue", field: bad}
        response = client.post("/players/settings/table/", wrong)
        assert response.status_code == 400, field
    assert Profile.objects.get(user=ann).theme == "contrast"
    with pytest.raises(AccountError):
        profile_update(user=ann, theme="neon")
    with pytest.raises(AccountError):
        profile_update(user=ann, colour_of_the_sky="blue")
    assert Profile.objects.get(user=ann).theme == "contrast"


def test_a_visitor_reads_the_page_and_is_told_the_browser_keeps_them() -> None:
    client = Client()
    page = client.get("/players/settings/table/").content.decode()
    assert 'data-prefs="browser"' in HTML_TAG.search(page).group(0)  # type: ignore[union-attr]
    assert "Kept by this browser" in page and "data-prefs-form" in page
    response = client.post("/players/settings/table/", EVERYTHING)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_guest_page_applies_the_browser_settings() -> None:
    guest = services.guest_user_create()
    client = Client()
    client.force_login(guest)
    assert 'data-prefs="browser"' in html_tag(client)


def signup(client: Client, username: str, carried: str) -> User:
    response = client.post("/accounts/signup/", {
        "username": username, "email": f"{username}@example.com",
        "password1": "a-long-Secret-42", "password2": "a-long-Secret-42",
        "table_settings": carried,
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    return User.objects.get(username=username)


def test_a_guest_signing_up_keeps_the_settings_their_browser_kept() -> None:
    guest = services.guest_user_create()
    client = Client()
    client.force_login(guest)
    assert 'name="table_settings"' in client.get("/accounts/signup/").content.decode()
    carried = {"card-size": "huge", "theme": "contrast", "suits": "two", "volume": "40",
               "hand": "left", "motion": "warp", "nonsense": "x", "sound": 1}
    user = signup(client, "keeper", json.dumps(carried))
    assert user.pk == guest.pk
    profile = Profile.objects.get(user=user)
    assert (profile.card_size, profile.theme, profile.four_colour_deck, profile.volume,
            profile.left_handed) == ("huge", "contrast", False, 40, True)
    assert profile.motion == "auto" and profile.sound_on  # invalid values: the defaults
    tag = html_tag(client)
    assert 'data-prefs="account"' in tag and 'data-card-size="huge"' in tag


def test_a_visitor_signing_up_with_nothing_or_garbage_kept_gets_the_defaults() -> None:
    for name, carried in (("plain", ""), ("garbage", "{not json"), ("listed", "[1, 2]")):
        user = signup(Client(), name, carried)
        assert not Profile.objects.filter(user=user).exists(), name


def test_attributes_round_trip_and_the_cached_pages_are_drawn_with_the_defaults() -> None:
    profile = Profile(card_size="small", theme="wine", volume=0, sound_on=False,
                      four_colour_deck=False, confirm_discard=True)
    attributes = display.html_attributes(profile)
    assert tuple(attributes) == display.ATTRIBUTES
    fields = display.fields_from_attributes(attributes)
    assert set(fields) == set(display.FIELDS)
    assert all(getattr(profile, name) == value for name, value in fields.items())
    assert display.fields_from_attributes({"volume": "101", "theme": "green ", "hand": "up"}) == {}

    # The pages cached for every visitor (the offline table, the lessons) are drawn
    # with the defaults, and the browser's settings put in by the blocking script.
    cached = [path for path in (ROOT / "templates").rglob("*.html")
              if "<html" in path.read_text() and path.name != "base.html"
              and "prefs_boot.js" in path.read_text()]
    assert ROOT / "templates/games/offline.html" in cached
    for path in cached:
        tag = HTML_TAG.search(path.read_text()).group(0)  # type: ignore[union-attr]
        for name, value in display.html_attributes(Profile()).items():
            assert f'data-{name}="{value}"' in tag, (path.name, name)
        assert "data-prefs" not in tag, path.name  # always the browser's copy


@pytest.mark.parametrize("script", ["prefs.js", "prefs_boot.js"])
def test_the_browser_code_knows_the_same_attributes(script: str) -> None:
    text = (ROOT / "games/static/games" / script).read_text()
    listed = re.search(r"(?:ATTRIBUTES|NAMES) = \[(.*?)\]", text, re.S)
    assert listed, script
    assert tuple(re.findall(r'"([a-z-]+)"', listed.group(1))) == display.ATTRIBUTES
