"""Which language and time zone a request is answered in (ginsite/i18n.py): the
account's saved language, else the footer chooser's cookie, else the browser's;
the chooser itself; the browser code's catalog; a socket's language; the tz cookie."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from ginsite.i18n import socket_language
from tests.factories import create_user

pytestmark = pytest.mark.django_db


def lang_of(response) -> str:
    html = response.content.decode()
    return html.split('<html lang="', 1)[1].split('"', 1)[0]


def test_the_browser_language_then_the_choosers_cookie_then_the_accounts_choice():
    browser = Client(HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")
    assert lang_of(browser.get("/")) == "de"
    assert "Spielen" in browser.get("/").content.decode()
    # A visitor's choice in the footer: a cookie, the same address back.
    response = browser.post("/language/", {"language": "fr", "next": "/leaderboards/"})
    assert response.status_code == 302 and response["Location"] == "/leaderboards/"
    assert lang_of(browser.get("/")) == "fr"
    # An account's choice is saved on the account and follows it to another browser.
    create_user("lucia", "pw-Secret-42")
    other = Client(HTTP_ACCEPT_LANGUAGE="en")
    other.login(username="lucia", password="pw-Secret-42")
    other.post("/language/", {"language": "es", "next": "/"})
    assert User.objects.get(username="lucia").language == "es"
    elsewhere = Client(HTTP_ACCEPT_LANGUAGE="it")
    elsewhere.login(username="lucia", password="pw-Secret-42")
    assert lang_of(elsewhere.get("/")) == "es"


def test_the_chooser_refuses_an_unknown_language_and_another_sites_address():
    client = Client()
    response = client.post("/language/", {"language": "xx", "next": "https://evil.example/"})
    assert response["Location"] == "/"
    assert lang_of(client.get("/")) == "en"


def test_the_browser_code_gets_its_words_per_language():
    response = Client().get("/jsi18n/pt-br.js")
    assert response.status_code == 200 and response["Content-Language"] == "pt-br"
    assert "Bater" in response.content.decode()
    assert Client().get("/jsi18n/xx.js").status_code == 404


def test_a_socket_speaks_its_persons_language():
    anonymous = SimpleNamespace(is_authenticated=False, language="")
    scope = {"user": anonymous, "cookies": {}, "headers": [(b"accept-language", b"it-IT,it")]}
    assert socket_language(scope) == "it"
    scope["cookies"] = {"django_language": "de"}
    assert socket_language(scope) == "de"
    player = SimpleNamespace(is_authenticated=True, language="pt-br")
    assert socket_language({**scope, "user": player}) == "pt-br"
    assert socket_language({"headers": []}) == "en"


def test_times_are_shown_in_the_browsers_time_zone():
    from django.contrib.auth.models import AnonymousUser
    from django.test import RequestFactory

    from ginsite.i18n import SiteLocaleMiddleware

    middleware = SiteLocaleMiddleware(lambda request: None)
    request = RequestFactory().get("/", HTTP_COOKIE="tz=America%2FSao_Paulo")
    request.user = AnonymousUser()
    try:
        middleware.process_request(request)
        assert timezone.get_current_timezone_name() == "America/Sao_Paulo"
        noon_utc = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
        assert timezone.localtime(noon_utc).hour == 9
        request = RequestFactory().get("/", HTTP_COOKIE="tz=Not/AZone")
        request.user = AnonymousUser()
        middleware.process_request(request)
        assert timezone.get_current_timezone_name() == "UTC"  # an unknown zone is UTC
    finally:
        timezone.deactivate()


def test_numbers_are_grouped_as_each_language_writes_them(settings):
    """Points, counts and ratings people read: 1,234 in English, 1.234 in German (and
    Spanish, Italian, Brazilian Portuguese), 1 234 in French."""
    from leaderboards.periods import PeriodKind, period_containing
    from leaderboards.services import board_recompute
    from tests.factories import create_finished_match

    settings.LEADERBOARD_PAIR_LIMIT = 1000  # five matches against one partner count
    now = timezone.now()
    ann = create_user("ann", rating={"rating": 1620.4, "deviation": 80, "rated_matches": 12})
    bob = create_user("bob")
    for scores in [(300, 0)] * 4 + [(34, 0)]:
        create_finished_match((ann, bob), finished_at=now, scores=scores)
    board_recompute(period=period_containing(PeriodKind.WEEK, now), now=now)
    written = {"en": "1,234", "de": "1.234", "es": "1.234", "it": "1.234", "pt-br": "1.234",
               "fr": "1\xa0234"}
    for language, number in written.items():
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(ann)
        board = client.get("/leaderboards/week/").content.decode()
        assert f'<td class="num">{number}</td>' in board, language
        assert f"{number} " in board.split('id="your-standing"', 1)[1], language
        rating = client.get("/leaderboards/rating/").content.decode()
        assert f'<td class="num">{number[0]}{number[1]}620</td>' in rating, language
    # German shows 1.234 where English shows 1,234, and nothing else changes.
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/leaderboards/week/").content.decode()
    german = Client(HTTP_ACCEPT_LANGUAGE="de").get("/leaderboards/week/").content.decode()
    assert "1,234" in english and "1.234" not in english
    assert "1.234" in german and "1,234" not in german


def test_a_page_read_in_german_by_one_test():
    """With the next test: a page's language stays with its request, not the thread."""
    german = create_user("leni", "pw-leni-123")
    User.objects.filter(pk=german.pk).update(language="de")
    client = Client()
    client.force_login(User.objects.get(pk=german.pk))
    assert lang_of(client.get("/")) == "de"


def test_leaves_the_next_test_in_english():
    from django.utils.translation import get_language, gettext

    assert get_language() == "en"
    assert gettext("Play") == "Play"
    assert timezone.get_current_timezone_name() == "UTC"
