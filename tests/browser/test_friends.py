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
from tests.browser.conftest import PASSWORD, PHONE, SCREENSHOTS, sign_in, start_from_lobby
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
    sent_before = len(outbox())  # the test process's outbox holds earlier tests' mail too
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
    start_from_lobby(bea, "computer", variant="straight", level="easy", target="250")
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
        (m for m in outbox()[sent_before:]
         if "To: bob@example.com" in m and "alice challenges you" in m), None))
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


def test_the_lobby_bell_is_live_even_when_its_script_comes_after_the_socket_spoke(
    site: Any, new_page: Any
) -> None:
    """The bell on the lobby hears the lobby's socket whatever order the page's scripts
    arrive in: here the bell's script is held back, up to 5 s, while the lobby may
    open its socket and send the unread count (it did, once, under load: the count
    went by before the bell listened, and the bell stayed dead)."""
    create_user("alice", PASSWORD)
    page = new_page(service_workers="block")  # every script request reaches the route
    sign_in(page, site.url, "alice")
    live_bell(page)
    held: list[Any] = []
    heard: list[str] = []
    page.route("**/social/notifications.js", lambda route: held.append(route))
    page.on("websocket", lambda socket: socket.on("framereceived", lambda p: heard.append(str(p))))
    page.goto(f"{site.url}/", wait_until="commit")
    # Hold it until the lobby's socket has sent the unread count, or for 5 s (fixed, the
    # lobby waits for the bell's script before it opens its socket).
    deadline = time.monotonic() + 5
    while not held or (time.monotonic() < deadline and not any('"unread"' in f for f in heard)):
        assert time.monotonic() < deadline + 25, "the page never asked for the bell's script"
        page.wait_for_timeout(50)
    held[0].continue_()
    live_bell(page)
    page.locator("[data-chat][data-state=live]").wait_for()
    assert not page.js_errors


def alice_in_the_lobby(new_page: Any, site: Any, viewport: Any) -> tuple[Any, list[str]]:
    """alice signed in, her lobby's socket open; the addresses of the sockets her page
    opens from then on."""
    page = new_page(viewport)
    sign_in(page, site.url, "alice")
    page.locator("[data-chat][data-state=live]").wait_for()
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    return page, sockets


def socket_paths(urls: list[str]) -> list[str]:
    return [re.sub(r"^wss?://[^/]+", "", url) for url in urls]


def test_the_tournament_page_opens_one_socket_for_standings_chat_and_the_bell(
    site: Any, new_page: Any
) -> None:
    """The tournament page's one socket carries its standings, its chat and the bell: a
    challenge made meanwhile rings the bell live, a message written shows in the chat."""
    from tests.factories import create_tournament

    alice, bob = create_user("alice", PASSWORD), create_user("bob", PASSWORD)
    t = create_tournament("arena", [alice, bob], name="Friday Arena")
    for viewport, name in ((None, "desktop"), (PHONE, "phone")):
        page, sockets = alice_in_the_lobby(new_page, site, viewport)
        page.goto(f"{site.url}/tournaments/{t.pk}/")
        page.locator("[data-chat][data-state=live]").wait_for()
        live_bell(page)
        page.locator("#standings-body tr[data-player=bob]").wait_for()
        if name == "desktop":
            create_challenge(bob, alice, variant="default", target=100, rated=False)
            page.locator("[data-bell] [data-unread]:not([hidden])").wait_for()
            assert page.locator("[data-bell] [data-unread]").inner_text() == "1"
            toast = page.locator("[data-notify-toast] a")
            assert toast.inner_text() == "bob challenges you to a match."
            page.fill("[data-chat-input]", "good luck, bob")
            page.locator("[data-chat-form] button[type=submit]").click()
            page.locator("[data-chat-log] .chat-msg", has_text="good luck, bob").wait_for()
        assert socket_paths(sockets) == [f"/ws/tournament/{t.pk}/"], sockets
        page.screenshot(path=SCREENSHOTS / f"tournament-one-socket-{name}.png", full_page=True)
        assert not page.js_errors


def test_a_player_at_a_table_hears_a_challenge_on_the_bell_over_the_match_socket(
    site: Any, new_page: Any
) -> None:
    """At a live table the player's bell rings without a reload, over the table's own
    match socket (no second socket); a signed-in spectator of the same table hears
    nothing of it."""
    alice, bob = create_user("alice", PASSWORD), create_user("bob", PASSWORD)
    create_user("carol", PASSWORD)
    for viewport, name in ((None, "desktop"), (PHONE, "phone")):
        page, sockets = alice_in_the_lobby(new_page, site, viewport)
        start_from_lobby(page, "computer", variant="straight", level="easy", target="250")
        page.locator("#table-app[data-conn=online]").wait_for()
        live_bell(page)
        table_path = re.sub(r"^https?://[^/]+", "", page.url)
        assert socket_paths(sockets) == [f"/ws{table_path}"], sockets
        if name == "desktop":
            watcher = new_page()
            sign_in(watcher, site.url, "carol")
            watcher.goto(page.url)
            watcher.locator("#table-app[data-conn=online]").wait_for()
            live_bell(watcher)
        before = int(page.locator("[data-bell]").get_attribute("data-unread-count") or 0)
        create_challenge(bob, alice, variant="default", target=100, rated=False)
        page.locator(f"[data-bell][data-unread-count='{before + 1}']").wait_for()
        assert page.locator("[data-bell] [data-unread]").inner_text() == str(before + 1)
        toast = page.locator("[data-notify-toast] a")
        assert toast.inner_text() == "bob challenges you to a match."
        assert socket_paths(sockets) == [f"/ws{table_path}"], sockets
        page.screenshot(path=SCREENSHOTS / f"table-bell-{name}.png")
        if name == "desktop":
            assert watcher.locator("[data-bell] [data-unread]").is_hidden()
            assert watcher.locator("[data-notify-toast]").is_hidden()
        assert not page.js_errors
