"""Fair play (games/services/fairplay.py): leaving rated matches has a price.

The third rated match abandoned within 24 hours bans the player from rated play for
15 minutes; each further one doubles it; old abandonments and old bans are
forgiven. A disconnection the player comes back from within the grace never
counts. Banned players are told the time left wherever rated play is refused, and
staff see (and may lift) the bans in the admin. Every step is driven by ``now``.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine import DISCONNECT_SECONDS
from games.errors import RatedPlayBannedError
from games.models import Match, RatedPlayBan, Seat
from games.services import fairplay
from tests.factories import create_match, play_to_turn_of

pytestmark = pytest.mark.django_db

MINUTE = timedelta(minutes=1)
GRACE = timedelta(seconds=DISCONNECT_SECONDS)


def rated_match_to_the_turn_of(loser: Any, winner: Any) -> tuple[Match, int]:
    """A rated friend match between the two, on ``loser``'s turn; the winner is at
    the table, the loser never came."""
    match = create_match(winner, loser)
    services.seat_connect(match=match, user=winner, channel_name=f"winner-{match.pk}")
    match = play_to_turn_of(match, loser)
    return match, Seat.objects.get(match=match, user=loser).index


def abandon(loser: Any, winner: Any, *, at: Any) -> Match:
    """``loser`` leaves a rated match: still away ``DISCONNECT_SECONDS`` after it began,
    on their turn, they lose it by abandonment at ``at``."""
    match, _seat = rated_match_to_the_turn_of(loser, winner)
    Match.objects.filter(pk=match.pk).update(started_at=at - GRACE)
    assert services.clock_expire(match_id=match.pk, expected_version=match.version, now=at)
    match.refresh_from_db()
    assert (match.status, match.end_reason) == ("finished", "abandon")
    return match


def refusal(user: Any, now: Any) -> str:
    with pytest.raises(RatedPlayBannedError) as error:
        fairplay.require_rated_play_allowed(user, now)
    return error.value.message


def test_ban_lengths_start_at_15_minutes_and_double_up_to_a_day():
    assert [fairplay.ban_length(n) for n in range(4)] == [
        15 * MINUTE, 30 * MINUTE, 60 * MINUTE, 120 * MINUTE]
    assert fairplay.ban_length(10) == fairplay.ban_length(50) == timedelta(hours=24)


def test_the_third_abandonment_within_a_day_bans_for_15_minutes(ann, bob):
    now = timezone.now()
    abandon(ann, bob, at=now - 20 * MINUTE)
    abandon(ann, bob, at=now - 10 * MINUTE)
    assert not RatedPlayBan.objects.exists()
    fairplay.require_rated_play_allowed(ann, now)  # two: still allowed

    abandon(ann, bob, at=now)
    ban = RatedPlayBan.objects.get(user=ann)
    assert (ban.offence, ban.abandonments, ban.until - ban.starts_at) == (1, 3, 15 * MINUTE)
    message = refusal(ann, now)
    assert "You left 3 rated matches within 24 hours" in message
    assert "for 15 minutes more" in message and "You can still play the computer." in message
    assert "for 5 minutes more" in refusal(ann, now + 10 * MINUTE)
    fairplay.require_rated_play_allowed(ann, now + 15 * MINUTE)  # served
    fairplay.require_rated_play_allowed(bob, now)  # the one who stayed is not touched


def test_each_repeat_doubles_the_ban(ann, bob):
    now = timezone.now() - timedelta(hours=5)
    for minutes in range(3):
        abandon(ann, bob, at=now + minutes * MINUTE)
    abandon(ann, bob, at=now + 60 * MINUTE)  # the first ban is served: a second, doubled
    abandon(ann, bob, at=now + 200 * MINUTE)
    bans = list(RatedPlayBan.objects.filter(user=ann).order_by("starts_at"))
    assert [(b.offence, b.abandonments, b.until - b.starts_at) for b in bans] == [
        (1, 3, 15 * MINUTE), (2, 4, 30 * MINUTE), (3, 5, 60 * MINUTE)]
    # Leaving again while banned: the next ban comes after the running one.
    abandon(ann, bob, at=now + 210 * MINUTE)
    last = RatedPlayBan.objects.filter(user=ann).latest("starts_at")
    assert last.until == bans[-1].until + 120 * MINUTE
    assert "for 2 hours 50 minutes more" in refusal(ann, now + 210 * MINUTE)


def test_abandonments_and_bans_are_forgiven_over_time(ann, bob):
    start = timezone.now() - timedelta(days=20)
    abandon(ann, bob, at=start)
    abandon(ann, bob, at=start + MINUTE)
    abandon(ann, bob, at=start + timedelta(hours=25))  # the first two left the 24 hours
    assert not RatedPlayBan.objects.exists()

    abandon(ann, bob, at=start + timedelta(hours=26))
    assert not RatedPlayBan.objects.exists()
    abandon(ann, bob, at=start + timedelta(hours=27))  # three within 24 hours: banned
    assert RatedPlayBan.objects.get(user=ann).offence == 1
    later = start + timedelta(days=8, hours=27)  # that ban is forgotten after a week
    for minutes in range(3):
        abandon(ann, bob, at=later + minutes * MINUTE)
    ban = RatedPlayBan.objects.filter(user=ann).latest("starts_at")
    assert (ban.offence, ban.until - ban.starts_at) == (1, 15 * MINUTE)


def test_a_disconnection_the_player_comes_back_from_never_counts(ann, bob):
    now = timezone.now() - timedelta(hours=1)
    abandon(ann, bob, at=now)
    abandon(ann, bob, at=now + MINUTE)
    match, _seat = rated_match_to_the_turn_of(ann, bob)
    gone = now + 10 * MINUTE
    services.seat_connect(match=match, user=ann, channel_name="ann-tab", now=gone - MINUTE)
    services.seat_disconnect(match=match, user=ann, channel_name="ann-tab", now=gone)
    back = gone + GRACE - timedelta(seconds=5)
    services.seat_connect(match=match, user=ann, channel_name="ann-tab-2", now=back)
    match.refresh_from_db()
    services.clock_expire(match_id=match.pk, expected_version=match.version, now=gone + GRACE)
    match.refresh_from_db()
    assert match.status == "active"
    assert not RatedPlayBan.objects.exists()
    fairplay.require_rated_play_allowed(ann, gone + GRACE)


def test_unrated_matches_left_never_count(ann):
    now = timezone.now()
    for minutes in range(4):
        match = create_match(ann, "easy")
        Match.objects.filter(pk=match.pk).update(started_at=now - GRACE)
        match = play_to_turn_of(match, ann)
        services.clock_expire(match_id=match.pk, expected_version=match.version,
                              now=now + minutes * MINUTE)
    assert Match.objects.filter(end_reason="abandon").count() == 4
    assert not RatedPlayBan.objects.exists()


def test_rated_play_is_refused_with_the_time_left_and_the_computer_stays_open(ann, bob):
    now = timezone.now()
    for minutes in (2, 1, 0):
        abandon(ann, bob, at=now - minutes * MINUTE)
    browser = Client()
    browser.force_login(ann)
    lobby = browser.get(reverse("games:home")).content.decode()
    told = re.findall(r"rated play is closed to you for (\d+) minutes more \(until", lobby)
    assert told and all(13 <= int(m) <= 15 for m in told)  # on the friend and quick cards
    for name, prefix in (("games:play_friend", "friend"), ("games:play_quick", "quick")):
        response = browser.post(reverse(name), {
            f"{prefix}-variant": "default", f"{prefix}-target_score": "100",
            f"{prefix}-knock_limit": "10", f"{prefix}-turn_seconds": "30",
            f"{prefix}-gin_bonus": "25", f"{prefix}-undercut_bonus": "25",
            f"{prefix}-big_gin_bonus": "31", f"{prefix}-game_bonus": "100",
            f"{prefix}-line_bonus": "25", f"{prefix}-big_gin_allowed": "on",
            f"{prefix}-shutout": "on",
        }, follow=True)
        assert "You left 3 rated matches within 24 hours" in response.content.decode(), name
    invite = services.match_create_invite(user=bob)
    join = browser.get(reverse("games:join", kwargs={"token": invite.invite_token}))
    assert "rated play is closed to you for" in join.content.decode()
    assert "Join the match" not in join.content.decode()
    with pytest.raises(RatedPlayBannedError, match="minutes more"):
        services.match_join_invite(user=ann, token=invite.invite_token)
    with pytest.raises(RatedPlayBannedError):
        services.quickmatch_enqueue(user=ann)
    finished = Match.objects.filter(seats__user=ann, status="finished").first()
    with pytest.raises(RatedPlayBannedError):
        services.match_rematch(match=finished, user=ann)
    assert services.match_create_computer(user=ann, level="easy").status == "active"


def test_staff_see_the_bans_with_the_time_left_and_may_lift_one(ann, bob, django_user_model):
    now = timezone.now()
    for minutes in (2, 1, 0):
        abandon(ann, bob, at=now - minutes * MINUTE)
    staff = django_user_model.objects.create_superuser("root", "root@example.com", "pw-Root-9")
    admin = Client()
    admin.force_login(staff)
    listing = admin.get("/admin/games/ratedplayban/").content.decode()
    assert "ann" in listing and re.search(r"1[345] minutes", listing)
    ban = RatedPlayBan.objects.get(user=ann)
    admin.post("/admin/games/ratedplayban/", {
        "action": "lift", "_selected_action": [ban.pk]})
    ban.refresh_from_db()
    assert ban.lifted_by == staff
    fairplay.require_rated_play_allowed(ann)
