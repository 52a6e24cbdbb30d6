"""Friends and notifications in the browser: two players follow each other (the follow
reaches the other's open page live, on the header's bell), see each other online and
then playing, and one challenges the other from the friends list; the challenged
player, away, gets the e-mail, whose one-click link unsubscribes without signing in,
and opening the challenge's notification leads to the challenge."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from games.models import Seat
from social import selectors
from social.models import SocialSettings
from tests.browser.conftest import PASSWORD, SCREENSHOTS, sign_in, start_from_lobby
from tests.factories import create_challenge, create_user
from tests.workers import outbox

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def wait_for(condition: Any, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            assert value, "still false after the wait"
            return value
        time.sleep(0.2)


def live_bell(page: Any) -> None:
    page.locator("[data-bell][data-live=on]").wait_for()


def test_friends_see_each_other_and_a_challenge_reaches_the_one_away_by_email(
    site: Any, new_page: Any
) -> None:
    alice, bob = create_user("alice", PASSWORD), create_user("bob", PASSWORD)
    ann, bea = new_page(), new_page()
    sign_in(ann, site.url, "alice")
    sign_in(bea, site.url, "bob")
    live_bell(bea)

    # Alice follows Bob from his profile: his open page hears it at once.
    ann.goto(f"{site.url}/players/bob/")
    ann.click("[data-follow]")
    assert "Unfollow bob" in ann.locator("[data-follow]").inner_text()
    bea.locator("[data-bell] [data-unread]:not([hidden])").wait_for()
    assert bea.locator("[data-bell] [data-unread]").inner_text() == "1"
    toast = bea.locator("[data-notify-toast] a")
    assert toast.inner_text() == "alice follows you."
    bea.screenshot(path=SCREENSHOTS / "friends-live-notification.png")

    # Opening it leads to Alice's profile, read; Bob follows back: friends.
    toast.click()
    bea.wait_for_url(f"{site.url}/players/alice/")
    assert bea.locator("[data-bell] [data-unread]").is_hidden()
    bea.click("[data-follow]")
    bea.locator("[data-follow-form] .badge", has_text="friends").wait_for()
    live_bell(bea)

    # Alice's friends list: Bob online, then playing (with a link to watch).
    ann.goto(f"{site.url}/friends/")
    assert ann.locator("[data-friend=bob] [data-status]").text_content().strip() == "online"
    bea.goto(site.url + "/")
    start_from_lobby(bea, "computer", variant="straight", level="easy")
    ann.reload()
    watch = ann.locator("[data-friend=bob] [data-watch]")
    assert re.fullmatch(r"/match/\d+/", watch.get_attribute("href") or "")
    assert "playing" in ann.locator("[data-friend=bob] [data-status]").text_content()
    ann.screenshot(path=SCREENSHOTS / "friends-list.png")

    # Bob goes away; Alice challenges him from the list: the e-mail comes.
    bea.close()
    wait_for(lambda: not Seat.objects.filter(user=bob, connected=True).exists()
             and not selectors.is_online(user_id=bob.pk))
    ann.locator("[data-friend=bob] [data-challenge-friend] button").click()
    ann.wait_for_url(re.compile(r".*/challenge/\d+/$"))
    email = wait_for(lambda: next(
        (m for m in outbox() if "To: bob@example.com" in m and "alice challenges you" in m), None))
    link = re.search(r"https?://\S+(/notifications/unsubscribe/\S+/)", email)
    assert link, email

    # The link works with one click, signed out.
    stranger = new_page()
    stranger.goto(site.url + link.group(1))
    said = stranger.locator("[data-unsubscribed]").inner_text()
    assert "no more e-mails about challenges" in said
    assert SocialSettings.objects.get(user=bob).email_challenge is False

    # Back, Bob opens the challenge's notification: the challenge, to accept.
    back = new_page()
    sign_in(back, site.url, "bob")
    back.goto(f"{site.url}/notifications/")
    back.locator("[data-notifications] a", has_text="alice challenges you").click()
    back.wait_for_url(re.compile(r".*/challenge/\d+/$"))
    assert alice.pk != bob.pk


def test_the_lobby_opens_one_socket_and_its_bell_hears_a_challenge_live(
    site: Any, new_page: Any
) -> None:
    """The lobby's one socket carries its chat, its challenges and the bell: no
    notification socket of its own, and a challenge made meanwhile shows on the bell."""
    alice, bob = create_user("alice", PASSWORD), create_user("bob", PASSWORD)
    page = new_page()
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    # Signing in lands on the lobby (the sign-in page has no socket).
    sign_in(page, site.url, "alice")
    page.locator("[data-chat][data-state=live]").wait_for()
    live_bell(page)
    assert [re.sub(r"^wss?://[^/]+", "", url) for url in sockets] == ["/ws/lobby/"]

    create_challenge(bob, alice, variant="default", target=100, rated=False)
    page.locator("[data-bell] [data-unread]:not([hidden])").wait_for()
    assert page.locator("[data-bell] [data-unread]").inner_text() == "1"
    assert page.locator("[data-notify-toast] a").inner_text() == "bob challenges you to a match."
    # The lobby's own list of challenges hears it over the same socket.
    page.locator("[data-incoming-challenges] li", has_text="bob").first.wait_for()
    page.screenshot(path=SCREENSHOTS / "lobby-one-socket-bell.png")
    assert len(sockets) == 1 and alice.pk != bob.pk
