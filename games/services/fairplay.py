"""Fair play: a price for leaving rated matches.

A rated match lost by abandonment (disconnected past the grace of docs/rules.md
section 9, or three turns in a row left to the clock) is an *abandonment*. A
disconnection the player comes back from within the grace never ends the match, so
it never counts. The ``ABANDONS_BEFORE_BAN``-th abandonment within
``ABANDON_WINDOW``, and each one after it while the window still holds that many,
bans the player from rated play (friend invitations, quick matches, rated rematches;
the computer stays open) for ``FIRST_BAN``, doubled for each ban they already had
within ``FORGIVE_AFTER`` (at most ``MAX_BAN``). Old abandonments and old bans are
forgiven as they leave their windows. Everything takes ``now`` from the caller.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db.models import F
from django.utils import timezone

from games.errors import RatedPlayBannedError
from games.models import Match, RatedPlayBan, Seat

if TYPE_CHECKING:
    from accounts.models import User

ABANDONS_BEFORE_BAN = 3
ABANDON_WINDOW = timedelta(hours=24)
FIRST_BAN = timedelta(minutes=15)
MAX_BAN = timedelta(hours=24)
FORGIVE_AFTER = timedelta(days=7)


def ban_length(previous_bans: int) -> timedelta:
    """15 minutes, doubled for each earlier ban still remembered; at most a day.

    >>> [str(ban_length(n)) for n in range(4)]
    ['0:15:00', '0:30:00', '1:00:00', '2:00:00']
    >>> str(ban_length(20))
    '1 day, 0:00:00'
    """
    return min(FIRST_BAN * (1 << min(previous_bans, 16)), MAX_BAN)


def abandonments(*, user: User, since: datetime, until: datetime) -> int:
    """Rated matches ``user`` lost by abandonment that ended in ``(since, until]``."""
    return Seat.objects.filter(
        user=user,
        match__rated=True,
        match__status=Match.Status.FINISHED,
        match__end_reason=Match.EndReason.ABANDON,
        match__finished_at__gt=since,
        match__finished_at__lte=until,
    ).exclude(match__winner_seat=F("index")).count()


def match_finished(match: Match, seats: list[Seat], now: datetime) -> RatedPlayBan | None:
    """Called in the transaction that finishes ``match`` (after it is saved): a rated
    match ended by abandonment may earn its loser a ban from rated play."""
    if not match.rated or match.end_reason != Match.EndReason.ABANDON:
        return None
    if match.winner_seat is None:
        return None
    loser = next((s for s in seats if s.index != match.winner_seat), None)
    if loser is None or loser.user_id is None:
        return None
    user = loser.user
    assert user is not None  # the seat has a user_id
    left = abandonments(user=user, since=now - ABANDON_WINDOW, until=now)
    if left < ABANDONS_BEFORE_BAN:
        return None
    remembered = RatedPlayBan.objects.filter(user=user, starts_at__gt=now - FORGIVE_AFTER)
    previous = remembered.count()
    running = active_ban(user=user, now=now)
    starts_at = now
    until = max(now, running.until if running else now) + ban_length(previous)
    return RatedPlayBan.objects.create(
        user=user, match=match, offence=previous + 1, abandonments=left,
        starts_at=starts_at, until=until,
    )


def active_ban(*, user: User, now: datetime | None = None) -> RatedPlayBan | None:
    """The ban from rated play in force for ``user`` at ``now`` (the one ending last)."""
    if not getattr(user, "is_authenticated", False):
        return None
    now = now or timezone.now()
    return (
        RatedPlayBan.objects.filter(user=user, lifted_at__isnull=True, until__gt=now)
        .order_by("-until")
        .first()
    )


def banned_user_ids(*, now: datetime) -> Any:
    """A subquery of the players banned from rated play at ``now``."""
    return RatedPlayBan.objects.filter(lifted_at__isnull=True, until__gt=now).values("user_id")


def time_left_words(left: timedelta) -> str:
    """``left`` as a person says it, rounded up to the minute: "14 minutes",
    "1 hour 5 minutes".

    >>> time_left_words(timedelta(minutes=14, seconds=1))
    '15 minutes'
    >>> time_left_words(timedelta(hours=1, minutes=5))
    '1 hour 5 minutes'
    >>> time_left_words(timedelta(seconds=20))
    '1 minute'
    """
    minutes = max(1, -(-int(left.total_seconds()) // 60))
    hours, minutes = divmod(minutes, 60)
    parts = []
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if minutes:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    return " ".join(parts)


def ban_sentence(ban: RatedPlayBan, now: datetime) -> str:
    """What the player reads: why, for how long still, and what stays open."""
    return (
        f"You left {ban.abandonments} rated matches within "
        f"{int(ABANDON_WINDOW.total_seconds() // 3600)} hours: rated play is closed to you "
        f"for {time_left_words(ban.until - now)} more (until {ban.until:%H:%M} UTC). "
        "You can still play the computer."
    )


def require_rated_play_allowed(user: User, now: datetime | None = None) -> None:
    """Refuse (RatedPlayBannedError, with the time left) while ``user`` is banned."""
    now = now or timezone.now()
    ban = active_ban(user=user, now=now)
    if ban is not None:
        raise RatedPlayBannedError(ban_sentence(ban, now))


def ban_lift(*, ban: RatedPlayBan, staff: User, now: datetime | None = None) -> bool:
    """Staff end a ban early (the admin's action); False if it was over already."""
    now = now or timezone.now()
    if ban.lifted_at is not None or ban.until <= now:
        return False
    ban.lifted_at, ban.lifted_by = now, staff
    ban.save(update_fields=["lifted_at", "lifted_by"])
    return True
