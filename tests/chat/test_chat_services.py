"""Chat services and selectors on PostgreSQL: posting rules (length, rate limit, mute,
who may write where), the word filter, history with blocks and hidden messages, reports."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Mute
from games.chat.models import ChatMessage, ChatReport, WordFilter
from games.chat.selectors import blocked_between, chat_history
from games.chat.services import ChatError, chat_post, chat_report, user_block, user_unblock
from tests.factories import create_table

pytestmark = pytest.mark.django_db


def refused(code: str, **kwargs: object) -> ChatError:
    before = ChatMessage.objects.count()
    with pytest.raises(ChatError) as caught:
        chat_post(**kwargs)
    assert caught.value.code == code, caught.value.message
    assert ChatMessage.objects.count() == before, "a refused message must change nothing"
    return caught.value


def test_lobby_message_is_stored_as_plain_text_and_shown_in_history(make_user) -> None:
    ann = make_user("ann")
    payload = '<img src=x onerror="alert(1)"> &amp; <script>alert(2)</script>'
    chat_post(user=ann, text=payload)
    [shown] = chat_history(user=make_user("bob"), match_id=None)
    assert shown["author"] == "ann"
    assert shown["text"] == payload  # unchanged text; clients render it as text
    assert shown["seat"] is None


def test_whitespace_and_control_characters_are_flattened(make_user) -> None:
    message = chat_post(user=make_user("ann"), text="  Good\n\ngame\x1b[31m  ")
    assert message.text == "Good game [31m"


def test_too_long_empty_and_non_text_messages_are_refused(make_user, settings) -> None:
    settings.CHAT_MAX_LENGTH = 20
    ann = make_user("ann")
    error = refused("chat_too_long", user=ann, text="x" * 21)
    assert "20 characters" in error.message and "21" in error.message
    chat_post(user=ann, text="x" * 20)
    refused("chat_empty", user=ann, text=" \n ")
    refused("bad_message", user=ann, text=["not", "text"])


def test_rate_limit_refuses_with_a_clear_wait_then_allows_again(make_user, settings) -> None:
    settings.CHAT_RATE_COUNT = 3
    settings.CHAT_RATE_SECONDS = 10
    ann = make_user("ann")
    for n in range(3):
        chat_post(user=ann, text=f"message {n}")
    error = refused("rate_limited", user=ann, text="one too many")
    assert "at most 3 messages every 10 seconds" in error.message and "Wait" in error.message
    # Another player is not affected by ann's rate.
    chat_post(user=make_user("bob"), text="hello")
    # Once the oldest message leaves the window, ann may post again.
    ChatMessage.objects.filter(author=ann).update(created_at=timezone.now() - timedelta(seconds=11))
    chat_post(user=ann, text="back again")


def test_muted_player_is_told_why_and_until_when(make_user, moderator) -> None:
    ann = make_user("ann")
    until = timezone.now() + timedelta(hours=2)
    Mute.objects.create(user=ann, until=until, reason="insults", created_by=moderator)
    error = refused("muted", user=ann, text="hi")
    assert "insults" in error.message
    assert f"{until:%Y-%m-%d %H:%M} UTC" in error.message
    # An expired or lifted mute no longer applies.
    Mute.objects.filter(user=ann).update(until=timezone.now() - timedelta(seconds=1))
    chat_post(user=ann, text="hi again")


def test_guests_and_signed_out_visitors_cannot_chat(make_user) -> None:
    from django.contrib.auth.models import AnonymousUser

    refused("chat_not_allowed", user=make_user("guest-1a2b3c", is_guest=True), text="hi")
    refused("chat_not_allowed", user=AnonymousUser(), text="hi")


def test_table_chat_is_for_the_two_players(make_user) -> None:
    ann, bob, eve = make_user("ann"), make_user("bob"), make_user("eve")
    match = create_table(ann, bob)
    assert chat_post(user=bob, text="Good luck", match_id=match.pk).seat == 1
    refused("not_a_player", user=eve, text="hello", match_id=match.pk)
    [shown] = chat_history(user=ann, match_id=match.pk)
    assert (shown["author"], shown["seat"], shown["text"]) == ("bob", 1, "Good luck")
    assert chat_history(user=ann, match_id=None) == [], "table chat stays at its table"


def test_word_filter_masks_whole_words_in_any_case(make_user) -> None:
    WordFilter.objects.create(word="darn")
    WordFilter.objects.create(word="silly goose")
    message = chat_post(user=make_user("ann"), text="DARN it, you Silly Goose! darning is fine")
    assert message.text == "**** it, you ***********! darning is fine"
    assert message.original_text == "DARN it, you Silly Goose! darning is fine"


def test_history_hides_blocked_authors_and_hidden_messages(make_user, settings) -> None:
    settings.CHAT_RATE_COUNT = 100
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    chat_post(user=ann, text="from ann")
    chat_post(user=bob, text="from bob")
    hidden = chat_post(user=cat, text="rude")
    ChatMessage.objects.filter(pk=hidden.pk).update(hidden=True)
    user_block(blocker=ann, blocked=bob)
    assert [m["text"] for m in chat_history(user=ann, match_id=None)] == ["from ann"]
    assert [m["text"] for m in chat_history(user=bob, match_id=None)] == ["from ann", "from bob"]
    user_unblock(blocker=ann, blocked=bob)
    assert [m["text"] for m in chat_history(user=ann, match_id=None)] == ["from ann", "from bob"]


def test_history_returns_the_most_recent_messages_oldest_first(make_user, settings) -> None:
    settings.CHAT_RATE_COUNT = 100
    ann = make_user("ann")
    for n in range(8):
        chat_post(user=ann, text=f"m{n}")
    assert [m["text"] for m in chat_history(user=ann, match_id=None, limit=3)] == [
        "m5",
        "m6",
        "m7",
    ]


def test_blocked_between_works_both_ways_and_blocks_are_idempotent(make_user) -> None:
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    assert not blocked_between(ann, bob)
    user_block(blocker=ann, blocked=bob)
    user_block(blocker=ann, blocked=bob)
    assert blocked_between(ann, bob) and blocked_between(bob, ann)
    assert not blocked_between(ann, cat)
    with pytest.raises(ChatError) as caught:
        user_block(blocker=ann, blocked=ann)
    assert caught.value.code == "block_self"


def test_report_once_per_message_with_a_valid_reason(make_user) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    message = chat_post(user=bob, text="you are terrible")
    report = chat_report(reporter=ann, message_id=message.pk, reason="abuse", comment="rude")
    assert (report.status, report.message_id, report.reporter) == ("open", message.pk, ann)
    for kwargs, code in [
        ({"reporter": ann, "message_id": message.pk, "reason": "abuse"}, "already_reported"),
        ({"reporter": bob, "message_id": message.pk, "reason": "abuse"}, "own_message"),
        ({"reporter": ann, "message_id": message.pk, "reason": "boredom"}, "bad_reason"),
        ({"reporter": ann, "message_id": 10**9, "reason": "spam"}, "no_such_message"),
    ]:
        with pytest.raises(ChatError) as caught:
            chat_report(**kwargs)
        assert caught.value.code == code
    assert ChatReport.objects.count() == 1


def test_spectators_cannot_report_table_chat_they_cannot_read(make_user, settings) -> None:
    ann, bob, eve = make_user("ann"), make_user("bob"), make_user("eve")
    match = create_table(ann, bob)
    message = chat_post(user=bob, text="hi", match_id=match.pk)
    settings.CHAT_SPECTATORS_CAN_READ = False
    with pytest.raises(ChatError) as caught:
        chat_report(reporter=eve, message_id=message.pk, reason="spam")
    assert caught.value.code == "no_such_message"
    settings.CHAT_SPECTATORS_CAN_READ = True
    assert chat_report(reporter=eve, message_id=message.pk, reason="spam").pk


def test_the_rate_limit_counts_one_message_and_one_second_in_the_singular(
    make_user, settings
) -> None:
    settings.CHAT_RATE_COUNT = 1
    settings.CHAT_RATE_SECONDS = 1
    ann = make_user("ann")
    chat_post(user=ann, text="hello")
    error = refused("rate_limited", user=ann, text="again")
    assert "at most 1 message every 1 second. Wait 1 s" in error.message
