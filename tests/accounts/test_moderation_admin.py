"""The moderation admin walked with a real client: players are turned away, staff
without the moderator role are denied, moderators see the report queue with context,
act (dismiss / hide / warn / mute for a chosen time / ban), edit the word filter,
search users and see their record, use bulk actions; the audit log is read-only."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from accounts.models import Ban, ModerationAction, Mute, Warning
from accounts.services import MODERATORS_GROUP
from games.chat.models import ChatMessage, ChatReport, WordFilter
from games.chat.services import chat_post, chat_report

pytestmark = pytest.mark.django_db

CONTEXT = ["one", "two", "three", "four", "five", "six"]


@pytest.fixture
def reported(make_user, settings) -> ChatReport:
    """bob's message in the middle of a lobby conversation, reported by ann."""
    settings.CHAT_RATE_COUNT = 100
    ann, bob = make_user("ann"), make_user("bob")
    for text in CONTEXT[:3]:
        chat_post(user=ann, text=text)
    message = chat_post(user=bob, text="<b>you all stink</b>")
    for text in CONTEXT[3:]:
        chat_post(user=ann, text=text)
    return chat_report(reporter=ann, message_id=message.pk, reason="abuse", comment="rude")


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def admin_urls(report: ChatReport) -> list[str]:
    bob = report.message.author
    return [
        reverse("admin:index"),
        reverse("admin:chat_chatreport_changelist"),
        reverse("admin:chat_chatreport_change", args=[report.pk]),
        reverse("admin:chat_chatmessage_changelist"),
        reverse("admin:chat_wordfilter_add"),
        reverse("admin:accounts_user_changelist"),
        reverse("admin:accounts_user_change", args=[bob.pk]),
        reverse("admin:accounts_moderationaction_changelist"),
        reverse("admin:accounts_mute_changelist"),
        reverse("admin:accounts_ban_changelist"),
        reverse("admin:accounts_warning_changelist"),
    ]


def resolve(client: Client, report: ChatReport, **form: str):
    url = reverse("admin:chat_chatreport_change", args=[report.pk])
    return client.post(url, {"reason": "", "duration": "24h", **form})


def test_players_are_sent_to_the_admin_login_and_change_nothing(make_user, reported) -> None:
    player = client_for(make_user("player"))
    for url in admin_urls(reported):
        response = player.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], url
    response = resolve(player, reported, action="ban", reason="x")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    response = player.post(
        reverse("admin:accounts_user_changelist"),
        {
            "action": "ban_users",
            "_selected_action": [reported.message.author_id],
            "apply": "1",
            "reason": "x",
        },
    )
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert reported.message.author.is_active
    assert ChatReport.objects.get().status == "open"
    assert not ModerationAction.objects.exists() and not Ban.objects.exists()


def test_staff_without_the_moderator_role_are_denied(make_user, reported) -> None:
    clerk = client_for(make_user("clerk", is_staff=True))
    assert clerk.get(reverse("admin:index")).status_code == 200
    for url in admin_urls(reported)[1:]:
        assert clerk.get(url).status_code == 403, url
    assert resolve(clerk, reported, action="dismiss").status_code == 403
    assert ChatReport.objects.get().status == "open"


def test_moderators_see_every_page(moderator, reported) -> None:
    client = client_for(moderator)
    for url in admin_urls(reported):
        assert client.get(url).status_code == 200, url


def test_report_page_shows_the_message_in_its_context(moderator, reported) -> None:
    page = client_for(moderator).get(reverse("admin:chat_chatreport_change", args=[reported.pk]))
    html = page.content.decode()
    positions = [html.index(f">{text}<") for text in CONTEXT[:3]]
    reported_at = html.index("&lt;b&gt;you all stink&lt;/b&gt;")
    positions += [html.index(f">{text}<") for text in CONTEXT[3:]]
    assert positions[:3] == sorted(positions[:3]) and positions[2] < reported_at < positions[3]
    assert "<b>you all stink</b>" not in html, "message text is escaped in the admin"
    assert 'id="reported-message"' in html
    assert "ann" in html and "Abuse or harassment" in html and "rude" in html
    for action in ("dismiss", "hide", "warn", "mute", "ban"):
        assert f'value="{action}"' in html


def test_a_german_moderator_reads_the_queue_and_its_actions_in_german(moderator, reported) -> None:
    """The admin's chrome is Django's; the site's own labels follow the staff member's
    language too (here the account's)."""
    moderator.language = "de"
    moderator.save(update_fields=["language"])
    client = client_for(moderator)
    page = client.get(reverse("admin:chat_chatreport_change", args=[reported.pk])).content.decode()
    assert "Nachricht ausblenden" in page and "Verfasser stummschalten" in page
    assert "Die Nachricht im Zusammenhang (" in page and 'value="Anwenden"' in page
    queue = client.get(reverse("admin:chat_chatreport_changelist")).content.decode()
    assert "Ausgewählte Meldungen verwerfen" in queue
    users = client.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert "Ausgewählte Benutzer stummschalten" in users


@pytest.mark.parametrize(
    ("action", "check"),
    [
        ("dismiss", lambda bob, msg: not msg.hidden),
        ("hide", lambda bob, msg: msg.hidden),
        ("warn", lambda bob, msg: Warning.objects.filter(user=bob, reason="be nice").exists()),
        ("mute", lambda bob, msg: Mute.objects.filter(user=bob, reason="be nice").exists()),
        ("ban", lambda bob, msg: not bob.is_active and Ban.objects.filter(user=bob).exists()),
    ],
)
def test_each_report_action_from_the_admin_is_applied_and_logged(
    moderator, reported, action, check
) -> None:
    client = client_for(moderator)
    response = resolve(client, reported, action=action, reason="be nice")
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:chat_chatreport_changelist")
    bob = reported.message.author
    bob.refresh_from_db()
    message = ChatMessage.objects.get(pk=reported.message_id)
    assert check(bob, message)
    assert ChatReport.objects.get().status == ("dismissed" if action == "dismiss" else "actioned")
    log = ModerationAction.objects.order_by("id").first()
    assert (log.actor, log.target_user) == (moderator, bob)
    # The log lists it, and the queue page of a resolved report says so.
    listing = client.get(reverse("admin:accounts_moderationaction_changelist")).content.decode()
    assert log.get_kind_display() in listing
    page = client.get(reverse("admin:chat_chatreport_change", args=[reported.pk]))
    assert "Resolved by mod" in page.content.decode()


def test_mute_length_is_chosen_and_a_missing_reason_is_refused(moderator, reported) -> None:
    client = client_for(moderator)
    response = resolve(client, reported, action="mute", duration="7d", reason="")
    assert response.status_code == 200 and "Give a reason" in response.content.decode()
    assert not Mute.objects.exists() and ChatReport.objects.get().status == "open"
    resolve(client, reported, action="mute", duration="7d", reason="spam")
    mute = Mute.objects.get()
    assert abs((mute.until - mute.created_at) - timedelta(days=7)) < timedelta(seconds=5)


def test_the_audit_log_cannot_be_added_edited_or_deleted(moderator, reported, make_user) -> None:
    resolve(client_for(moderator), reported, action="warn", reason="careful")
    log = ModerationAction.objects.get()
    boss = make_user("boss", is_staff=True, is_superuser=True)
    for client in (client_for(moderator), client_for(boss)):
        change_url = reverse("admin:accounts_moderationaction_change", args=[log.pk])
        page = client.get(change_url).content.decode()
        assert 'name="_save"' not in page
        assert client.post(change_url, {"reason": "nothing happened"}).status_code == 403
        assert client.get(reverse("admin:accounts_moderationaction_add")).status_code == 403
        delete_url = reverse("admin:accounts_moderationaction_delete", args=[log.pk])
        assert client.post(delete_url, {"post": "yes"}).status_code == 403
    log.refresh_from_db()
    assert log.reason == "careful" and ModerationAction.objects.count() == 1


def test_user_search_and_record(moderator, reported) -> None:
    client = client_for(moderator)
    resolve(client, reported, action="mute", duration="1h", reason="shouting")
    listing = client.get(reverse("admin:accounts_user_changelist"), {"q": "bob"}).content.decode()
    assert ">bob<" in listing and ">ann<" not in listing
    page = client.get(
        reverse("admin:accounts_user_change", args=[reported.message.author_id])
    ).content.decode()
    assert "Reports on their messages" in page and "Abuse or harassment" in page
    assert "shouting" in page and "in force" in page
    assert "Recent chat" in page and "&lt;b&gt;you all stink&lt;/b&gt;" in page


def test_bulk_mute_asks_for_time_and_reason_then_mutes_each_user(moderator, make_user) -> None:
    cat, dan = make_user("cat"), make_user("dan")
    client = client_for(moderator)
    changelist = reverse("admin:accounts_user_changelist")
    selected = {"action": "mute_users", "_selected_action": [cat.pk, dan.pk]}
    form_page = client.post(changelist, selected)
    assert form_page.status_code == 200 and "Mute for" in form_page.content.decode()
    assert not Mute.objects.exists()
    done = client.post(changelist, {**selected, "apply": "1", "reason": "flood", "duration": "15m"})
    assert done.status_code == 302
    assert sorted(Mute.objects.values_list("user__username", flat=True)) == ["cat", "dan"]
    assert ModerationAction.objects.filter(kind="mute").count() == 2


def test_moderators_edit_the_word_filter(moderator, make_user) -> None:
    client = client_for(moderator)
    response = client.post(reverse("admin:chat_wordfilter_add"), {"word": "Rubbish"})
    assert response.status_code == 302
    assert WordFilter.objects.get().word == "Rubbish"
    assert chat_post(user=make_user("eve"), text="what rubbish").text == "what *******"


def test_moderators_group_has_the_moderation_permission(moderator) -> None:
    group = Group.objects.get(name=MODERATORS_GROUP)
    assert group.permissions.filter(codename="moderate").exists()
    assert not group.permissions.filter(codename="change_user").exists()


def test_superusers_still_get_the_user_add_and_change_forms(make_user, reported) -> None:
    boss = client_for(make_user("boss", is_staff=True, is_superuser=True))
    bob_id = reported.message.author_id
    page = boss.get(reverse("admin:accounts_user_change", args=[bob_id])).content.decode()
    assert 'name="_save"' in page and "Moderation record" in page
    assert boss.get(reverse("admin:accounts_user_add")).status_code == 200


def test_bulk_action_messages_count_in_the_singular_and_the_plural(
    moderator, reported, make_user
) -> None:
    """"1 report dismissed.", "done for 1 user.", never "1 report(s)"."""
    client = client_for(moderator)
    reports = reverse("admin:chat_chatreport_changelist")
    done = client.post(
        reports, {"action": "dismiss_reports", "_selected_action": [reported.pk]}, follow=True
    )
    assert [str(m) for m in done.context["messages"]] == ["1 report dismissed."]
    users = reverse("admin:accounts_user_changelist")
    for selected, count in (([make_user("cat").pk], "1 user"),
                            ([make_user("dan").pk, make_user("eve").pk], "2 users")):
        done = client.post(
            users,
            {"action": "mute_users", "_selected_action": selected, "apply": "1",
             "reason": "flood", "duration": "15m"},
            follow=True,
        )
        assert [str(m) for m in done.context["messages"]][-1].endswith(f"done for {count}.")
