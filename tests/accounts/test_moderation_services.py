"""Moderation services on PostgreSQL: each action's effect, its audit row, the report
it resolves, and refusal (nothing changed) for anyone who is not a moderator."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.utils import timezone

from accounts.models import Ban, ModerationAction, Mute, Warning
from accounts.selectors import active_mute
from accounts.services import (
    AccountError,
    message_hide,
    report_dismiss,
    report_resolve,
    user_ban,
    user_mute,
    user_unban,
    user_unmute,
    user_warn,
)
from games import services as games_services
from games.chat.models import ChatMessage, ChatReport
from games.chat.services import chat_post, chat_report
from games.models import Match, QuickMatchEntry
from tests.factories import create_match, create_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def reported(make_user) -> ChatReport:
    """bob's rude message in the lobby, between two others, reported by ann."""
    ann, bob = make_user("ann"), make_user("bob")
    chat_post(user=ann, text="hello all")
    message = chat_post(user=bob, text="you are all idiots")
    chat_post(user=ann, text="that was rude")
    return chat_report(reporter=ann, message_id=message.pk, reason="abuse")


def last_action() -> ModerationAction:
    return ModerationAction.objects.order_by("-id").first()


def test_dismiss_closes_the_report_and_is_logged(moderator, reported) -> None:
    report_dismiss(staff=moderator, report=reported, reason="banter")
    reported.refresh_from_db()
    assert (reported.status, reported.resolved_by, reported.resolution) == (
        "dismissed",
        moderator,
        "banter",
    )
    log = last_action()
    assert (log.actor, log.kind, log.target_user.username, log.reason) == (
        moderator,
        "dismiss_report",
        "bob",
        "banter",
    )
    assert log.details["report"] == reported.pk


def test_hide_removes_the_message_from_everyone_and_resolves_all_its_reports(
    moderator, reported
) -> None:
    second = chat_report(reporter=create_user("cat"), message_id=reported.message_id, reason="spam")
    message_hide(staff=moderator, message=reported.message, reason="insult", report=reported)
    assert ChatMessage.objects.get(pk=reported.message_id).hidden
    assert set(ChatReport.objects.values_list("status", flat=True)) == {"actioned"}
    assert second.pk in ChatReport.objects.filter(resolved_by=moderator).values_list(
        "pk", flat=True
    )
    log = last_action()
    assert (log.kind, log.details["text"]) == ("hide_message", "you are all idiots")


def test_warn_records_a_warning_for_the_player(moderator, make_user) -> None:
    bob = make_user("bob")
    user_warn(staff=moderator, user=bob, reason="mind your language")
    assert Warning.objects.get(user=bob).reason == "mind your language"
    assert (last_action().kind, last_action().target_user) == ("warn", bob)


def test_mute_for_a_chosen_time_then_unmute(moderator, make_user) -> None:
    bob = make_user("bob")
    before = timezone.now()
    mute = user_mute(staff=moderator, user=bob, duration=timedelta(hours=24), reason="spam")
    assert timedelta(hours=23, minutes=59) < mute.until - before <= timedelta(hours=24, seconds=5)
    assert active_mute(user=bob) == mute
    assert last_action().details["minutes"] == 24 * 60
    user_unmute(staff=moderator, user=bob, reason="appealed")
    assert active_mute(user=bob) is None
    assert last_action().kind == "unmute"
    with pytest.raises(AccountError, match="not muted"):
        user_unmute(staff=moderator, user=bob, reason="again")
    with pytest.raises(AccountError, match="a minute up to a year"):
        user_mute(staff=moderator, user=bob, duration=timedelta(days=400), reason="long")


def test_every_action_needs_a_reason(moderator, make_user) -> None:
    bob = make_user("bob")
    for action in (user_warn, user_ban):
        with pytest.raises(AccountError, match="reason"):
            action(staff=moderator, user=bob, reason="   ")
    assert not ModerationAction.objects.exists()


def test_non_moderators_are_refused_and_nothing_changes(make_user, reported) -> None:
    plain = make_user("plain")
    staff_without_role = make_user("clerk", is_staff=True)
    bob = reported.message.author
    for actor in (plain, staff_without_role, bob):
        with pytest.raises(PermissionDenied):
            user_ban(staff=actor, user=bob, reason="x")
        with pytest.raises(PermissionDenied):
            user_mute(staff=actor, user=bob, duration=timedelta(hours=1), reason="x")
        with pytest.raises(PermissionDenied):
            report_dismiss(staff=actor, report=reported)
        with pytest.raises(PermissionDenied):
            message_hide(staff=actor, message=reported.message, reason="x")
        with pytest.raises(PermissionDenied):
            user_warn(staff=actor, user=bob, reason="x")
        with pytest.raises(PermissionDenied):
            user_unmute(staff=actor, user=bob, reason="x")
        with pytest.raises(PermissionDenied):
            user_unban(staff=actor, user=bob, reason="x")
        with pytest.raises(PermissionDenied):
            report_resolve(staff=actor, report=reported, action="ban", reason="x")
    bob.refresh_from_db()
    assert bob.is_active and not Mute.objects.exists() and not Ban.objects.exists()
    assert not Warning.objects.exists()
    assert not ModerationAction.objects.exists()
    assert ChatReport.objects.get().status == "open"


def test_ban_blocks_login_ends_sessions_and_resigns_open_matches(moderator, make_user) -> None:
    bob = create_user("bob", password="Secret-pass-9")
    ann = make_user("ann")
    match = create_match(bob, ann)
    browser = Client()
    browser.force_login(bob)
    assert browser.get("/players/settings/").status_code == 200

    user_ban(staff=moderator, user=bob, reason="cheating")

    bob.refresh_from_db()
    assert not bob.is_active
    assert Ban.objects.get(user=bob).reason == "cheating"
    assert browser.get("/players/settings/").status_code == 302, "the session is cut"
    assert not Client().login(username="bob", password="Secret-pass-9")
    match.refresh_from_db()
    ann_seat = match.seats.get(user=ann).index
    # A forfeit with its own reason, not a resignation, on every record Ann reads.
    assert (match.status, match.end_reason, match.winner_seat) == (
        Match.Status.FINISHED,
        Match.EndReason.SUSPENDED,
        ann_seat,
    )
    ann_browser = Client()
    ann_browser.force_login(ann)
    for url, said in (
        ("/players/ann/", "Forfeit: account suspended"),
        ("/matches/", "forfeit: account suspended"),
        (f"/match/{match.pk}/sheet/", "(forfeit: bob's account was suspended)"),
    ):
        html = ann_browser.get(url).content.decode()
        assert said in html and "Resigned" not in html and "resignation" not in html, url
    with pytest.raises(games_services.ServiceError, match="No rematch"):
        games_services.match_rematch(match=match, user=ann)
    log = last_action()
    assert log.kind == "ban" and log.details["forfeited_matches"] == [match.pk]
    assert log.details["sessions_ended"] == 1
    with pytest.raises(AccountError, match="already banned"):
        user_ban(staff=moderator, user=bob, reason="again")

    user_unban(staff=moderator, user=bob, reason="served")
    assert Client().login(username="bob", password="Secret-pass-9")
    assert last_action().kind == "unban"


def test_staff_accounts_are_not_banned(moderator, make_user) -> None:
    with pytest.raises(AccountError, match="staff"):
        user_ban(staff=moderator, user=make_user("boss", is_staff=True), reason="x")
    with pytest.raises(AccountError, match="yourself"):
        user_ban(staff=moderator, user=moderator, reason="x")


@pytest.mark.parametrize("action", ["dismiss", "hide", "warn", "mute", "ban"])
def test_report_resolve_applies_each_action_once(moderator, reported, action) -> None:
    bob = reported.message.author
    done = report_resolve(
        staff=moderator,
        report=reported,
        action=action,
        reason="rude",
        duration="1h",
        also_hide=True,
    )
    reported.refresh_from_db()
    bob.refresh_from_db()
    hidden = ChatMessage.objects.get(pk=reported.message_id).hidden
    expected = {
        "dismiss": ("dismissed", False, ["dismiss_report"]),
        "hide": ("actioned", True, ["hide_message"]),
        "warn": ("actioned", True, ["warn", "hide_message"]),
        "mute": ("actioned", True, ["mute", "hide_message"]),
        "ban": ("actioned", True, ["ban", "hide_message"]),
    }[action]
    kinds = list(ModerationAction.objects.order_by("id").values_list("kind", flat=True))
    assert (reported.status, hidden, kinds) == expected
    assert bob.is_active == (action != "ban")
    assert (active_mute(user=bob) is not None) == (action == "mute")
    assert done.endswith(".")
    with pytest.raises(AccountError, match="already resolved"):
        report_resolve(staff=moderator, report=reported, action="dismiss", reason="")


def test_a_banned_player_leaves_the_quick_match_queue(moderator, make_user) -> None:
    cat = make_user("cat")
    assert games_services.quickmatch_enqueue(user=cat, rules=None, variant="default") is None
    assert QuickMatchEntry.objects.filter(user=cat).exists()
    user_ban(staff=moderator, user=cat, reason="spam")
    assert not QuickMatchEntry.objects.filter(user=cat).exists()
