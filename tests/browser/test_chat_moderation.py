"""Chat and moderation in real Chromium against a real daphne server: two players chat
at a table (quick phrase and typed text, XSS payloads shown as text and never run),
one reports a message, a moderator mutes the sender from the admin's report queue,
and the sender's next message is refused with the reason shown; then the lobby chat."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import Group

from accounts.services import MODERATORS_GROUP, moderators_group_ensure
from games.chat.models import ChatMessage, ChatReport
from tests.browser.conftest import (
    PASSWORD,
    PHONE,
    SCREENSHOTS,
    friend_match,
    sign_in,
    start_from_lobby,
    wait_until,
)
from tests.factories import create_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

XSS_PAYLOADS = [
    '<img src=x onerror="window.__xss=1">',
    "<script>window.__xss=2</script>",
    '<svg onload="window.__xss=3"></svg>',
    '"><b>bold</b> &amp; <a href="javascript:window.__xss=4">x</a>',
]
LOG = "[data-chat-log]"


def chat_texts(page: Any) -> list[str]:
    return page.locator(f"{LOG} .chat-msg__text").all_text_contents()


def wait_for_text(page: Any, text: str) -> None:
    wait_until(
        page,
        "([sel, text]) => [...document.querySelectorAll(sel + ' .chat-msg__text')]"
        ".some((el) => el.textContent === text)",
        arg=[LOG, text],
    )


def test_chat_report_mute_in_the_admin_and_refusal(live_asgi_server: Any, new_page: Any) -> None:
    base = live_asgi_server.url
    ann, bob = create_user("ann", PASSWORD), create_user("bob", PASSWORD)
    moderators_group_ensure()
    create_user("mod", PASSWORD, staff=True).groups.add(Group.objects.get(name=MODERATORS_GROUP))
    pages = {}
    for name in ("ann", "bob"):
        page = new_page()
        dialogs: list[str] = []
        page.on(
            "dialog", lambda dialog, seen=dialogs: (seen.append(dialog.message), dialog.dismiss())
        )
        page.dialogs = dialogs  # type: ignore[attr-defined]
        sign_in(page, base, name)
        pages[name] = page
    ann_page, bob_page = pages["ann"], pages["bob"]
    # ann invites bob to a table (Time Freedom: no clock to hurry anyone).
    friend_match(ann_page, bob_page, variant="time_freedom")
    for page in (ann_page, bob_page):
        page.locator("[data-my-hand] .card").first.wait_for()
        page.locator("[data-chat][data-state=live]").wait_for()

    # A quick phrase is one click away, and reaches both players.
    ann_page.click("[data-chat-quick='Good game']")
    for page in (ann_page, bob_page):
        wait_for_text(page, "Good game")

    # Typed messages that look like HTML are shown as text and never run.
    for payload in XSS_PAYLOADS:
        bob_page.fill("[data-chat-input]", payload)
        bob_page.press("[data-chat-input]", "Enter")
        for page in (ann_page, bob_page):
            wait_for_text(page, payload)
    for page in (ann_page, bob_page):
        assert chat_texts(page)[-len(XSS_PAYLOADS) :] == XSS_PAYLOADS
        assert page.evaluate("window.__xss") is None
        assert page.locator(f"{LOG} img, {LOG} script, {LOG} svg, {LOG} b, {LOG} a").count() == 0
        assert page.dialogs == []
    assert ChatMessage.objects.filter(author=bob).count() == len(XSS_PAYLOADS)

    # ann reports bob's first message.
    reported = ann_page.locator(f"{LOG} .chat-msg[data-author=bob]").first
    reported.locator("[data-chat-tool=report]").click()
    ann_page.select_option("#chat-report-reason", "abuse")
    ann_page.fill("#chat-report-comment", "trying to inject code")
    ann_page.click("[data-chat-report] button[value=report]")
    ann_page.locator("[data-chat-notice]", has_text="a moderator will look at it").wait_for()
    report = ChatReport.objects.get()
    assert (report.reporter, report.message.author, report.reason) == (ann, bob, "abuse")

    # A moderator mutes the sender from the report queue in the admin.
    mod_page = new_page()
    sign_in(mod_page, base, "mod")
    mod_page.goto(f"{base}/admin/chat/chatreport/")
    mod_page.click(f"a[href$='/admin/chat/chatreport/{report.pk}/change/']")
    assert mod_page.locator("#reported-message").inner_text().find(XSS_PAYLOADS[0]) >= 0
    mod_page.check("input[name=action][value=mute]")
    mod_page.select_option("select[name=duration]", "1h")
    mod_page.fill("input[name=reason]", "Posting code in the chat")
    mod_page.click("input[name=resolve]")
    mod_page.wait_for_url(f"{base}/admin/chat/chatreport/")
    assert "bob muted until" in mod_page.locator(".messagelist").inner_text().lower()

    # The hidden message disappears from both tables; bob is told at once.
    for page in (ann_page, bob_page):
        wait_until(
            page,
            "([sel, text]) => ![...document.querySelectorAll(sel + ' .chat-msg__text')]"
            ".some((el) => el.textContent === text)",
            arg=[LOG, XSS_PAYLOADS[0]],
        )
    notice = bob_page.locator("[data-chat-notice]")
    notice.filter(has_text="Posting code in the chat").wait_for()

    # bob's next message is refused, with the reason and the end of the mute shown
    # (the notice is cleared first so that what appears is the answer to this message).
    bob_page.evaluate(
        "() => { const n = document.querySelector('[data-chat-notice]');"
        " n.textContent = ''; n.hidden = true; }"
    )
    bob_page.fill("[data-chat-input]", "sorry!")
    bob_page.press("[data-chat-input]", "Enter")
    notice.filter(has_text="muted until").wait_for()
    refusal = notice.inner_text()
    assert "Posting code in the chat" in refusal and "UTC" in refusal
    assert "sorry!" not in chat_texts(ann_page)
    assert not ChatMessage.objects.filter(text="sorry!").exists()
    # The lobby chat on the home page works the same way, over its own socket.
    ann_page.goto(f"{base}/")
    ann_page.locator("[data-chat][data-state=live]").wait_for()
    ann_page.click("[data-chat-quick='Hi!']")
    wait_for_text(ann_page, "Hi!")
    mod_page.goto(f"{base}/")
    wait_for_text(mod_page, "Hi!")
    assert "Good game" not in chat_texts(mod_page), "table chat stays at its table"

    SCREENSHOTS.mkdir(exist_ok=True)
    bob_page.screenshot(path=str(SCREENSHOTS / "chat-muted-desktop.png"), full_page=True)
    for page in (ann_page, bob_page, mod_page):
        assert page.js_errors == []




def test_a_chat_line_too_long_says_why_and_keeps_the_text(site: Any, new_page: Any) -> None:
    """The chat box shows its limit as a line nears it, refuses a longer line without
    losing it, and shows the server's refusals (over the characters allowed, over the
    socket's frame limit) with the text kept in the box to shorten."""
    create_user("ann", PASSWORD)
    page = new_page()
    sign_in(page, site.url, "ann")
    start_from_lobby(page, "computer", variant="time_freedom", level="easy")
    page.locator("[data-chat][data-state=live]").wait_for()
    box = page.locator("[data-chat-input]")
    notice = page.locator("[data-chat-notice]")
    limit = settings.CHAT_MAX_LENGTH
    assert box.get_attribute("maxlength") == str(limit)

    # The limit is in sight as the text nears it.
    count = page.locator("[data-chat-count]")
    box.fill("x" * 20)
    assert count.is_hidden()
    box.fill("x" * (limit - 10))
    count.wait_for()
    assert count.inner_text() == f"10 of {limit} characters left"

    def enter(text: str) -> None:
        page.evaluate(
            """(text) => {
                document.querySelector("[data-chat-notice]").hidden = true;
                document.querySelector("[data-chat-input]").value = text;
            }""",
            text,
        )
        box.press("Enter")
        notice.wait_for()

    # A longer line (pasted by a script, say) is not sent, and stays in the box.
    long = "€" * 2000  # 6,000 bytes: over the socket's frame limit too
    enter(long)
    assert notice.inner_text() == (
        f"Messages are limited to {limit} characters (yours has 2000). "
        "Shorten it, then send it again."
    )
    assert box.input_value() == long

    # The server's refusals show too, the text kept: with the box's own limit gone
    # (an old page, a script), over the socket's frame limit ...
    page.evaluate("document.querySelector('[data-chat-input]').removeAttribute('maxlength')")
    enter(long)
    assert notice.inner_text() == (
        f"Your message is too long to send: messages are limited to {limit} characters. "
        "Shorten it, then send it again."
    )
    assert box.input_value() == long
    # ... and under it but over the characters allowed.
    over = "y" * (limit + 5)
    enter(over)
    assert notice.inner_text() == (
        f"Messages are limited to {limit} characters (yours has {limit + 5})."
    )
    assert box.input_value() == over
    page.screenshot(path=SCREENSHOTS / "chat-too-long-desktop.png")
    page.set_viewport_size(PHONE)
    page.locator("[data-chat-form]").scroll_into_view_if_needed()
    page.screenshot(path=SCREENSHOTS / "chat-too-long-phone.png")
    assert ChatMessage.objects.count() == 0

    # A line within the limit goes; the notice and the text go with it.
    box.fill("good game")
    box.press("Enter")
    wait_for_text(page, "good game")
    notice.wait_for(state="hidden")
    assert box.input_value() == ""
    assert ChatMessage.objects.count() == 1
    assert page.js_errors == []
