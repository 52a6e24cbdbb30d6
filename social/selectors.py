"""Reads of the social side: follows and friends (mutual follows with no block between
the two), the friends list with who is online, who is playing and their rating, each
player's social settings, and their notifications.

Online: a page of the site open with its notification socket (social/consumers.py
renews ``online_key`` while it lives) or a seat's match socket connected. A player
whose online status is private is never shown online or playing to anyone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q

from accounts.models import User
from games.chat.selectors import block_partner_ids, blocked_between
from games.models import Match, Seat
from leaderboards.models import Rating

from .models import Follow, Notification, SocialSettings

#: Most notifications the notifications page lists.
PAGE_SIZE = 50


def online_key(user_id: int) -> str:
    return f"social:online:{user_id}"


def settings_get(*, user: User) -> SocialSettings:
    """The player's settings (defaults, unsaved, if they never changed them)."""
    found = SocialSettings.objects.filter(user=user).first()
    return found or SocialSettings(user=user)


def is_following(*, follower: User, followee: User) -> bool:
    return Follow.objects.filter(follower=follower, followee=followee).exists()


def are_friends(user_a: User, user_b: User) -> bool:
    """Each follows the other, and neither blocked the other."""
    if user_a.pk == user_b.pk:
        return False
    follows = Follow.objects.filter(
        Q(follower=user_a, followee=user_b) | Q(follower=user_b, followee=user_a)
    ).count()
    return follows == 2 and not blocked_between(user_a, user_b)


def friend_ids(*, user: User) -> set[int]:
    """The ids of the player's friends (mutual follows, blocks left out)."""
    following = set(Follow.objects.filter(follower=user).values_list("followee_id", flat=True))
    followers = set(Follow.objects.filter(followee=user).values_list("follower_id", flat=True))
    return (following & followers) - block_partner_ids(user=user)


def follower_count(*, user: User) -> int:
    return Follow.objects.filter(followee=user).exclude(
        follower_id__in=block_partner_ids(user=user)
    ).count()


@dataclass(frozen=True)
class FriendRow:
    username: str
    display_name: str
    #: None: not shown (the friend hides it, or does not follow back).
    online: bool | None
    #: A match the friend is playing now (anyone may watch a match in play), or None.
    playing_match_id: int | None
    #: Their Glicko-2 rating, rounded; None before their first rated match.
    rating: int | None
    #: Whether they follow back (False: the viewer follows them, not yet friends).
    mutual: bool


def _online_ids(user_ids: set[int]) -> set[int]:
    if not user_ids:
        return set()
    found = cache.get_many([online_key(pk) for pk in user_ids])
    online = {pk for pk in user_ids if (found.get(online_key(pk)) or 0) > 0}
    online |= set(
        Seat.objects.filter(
            user_id__in=user_ids - online, connected=True, match__status=Match.Status.ACTIVE
        ).values_list("user_id", flat=True)
    )
    return online


def _playing(user_ids: set[int]) -> dict[int, int]:
    """A match in play of each player who has one (the most recent)."""
    playing: dict[int, int] = {}
    rows = (
        Seat.objects.filter(user_id__in=user_ids, match__status=Match.Status.ACTIVE)
        .order_by("match__started_at")
        .values_list("user_id", "match_id")
    )
    for user_id, match_id in rows:
        playing[user_id] = match_id
    return playing


def friends_list(*, user: User) -> list[FriendRow]:
    """The players ``user`` follows (friends first, then those not following back),
    each with what ``user`` may see: online, playing, rating."""
    blocked = block_partner_ids(user=user)
    following = list(
        User.objects.filter(follows_received__follower=user, is_active=True)
        .exclude(pk__in=blocked)
        .order_by("username")
    )
    ids = {friend.pk for friend in following}
    mutual = set(
        Follow.objects.filter(followee=user, follower_id__in=ids).values_list(
            "follower_id", flat=True
        )
    )
    private = set(
        SocialSettings.objects.filter(user_id__in=ids, online_private=True).values_list(
            "user_id", flat=True
        )
    )
    # Only friends (mutual follows) see each other online and playing: following
    # someone alone shows nothing of where they are.
    public = (ids & mutual) - private
    online = _online_ids(public)
    playing = _playing(public)
    ratings = dict(
        Rating.objects.filter(user_id__in=ids, rated_matches__gt=0).values_list(
            "user_id", "rating"
        )
    )
    rows = [
        FriendRow(
            username=friend.username,
            display_name=friend.display_name,
            online=friend.pk in online if friend.pk in public else None,
            playing_match_id=playing.get(friend.pk),
            rating=round(ratings[friend.pk]) if friend.pk in ratings else None,
            mutual=friend.pk in mutual,
        )
        for friend in following
    ]
    rows.sort(key=lambda row: (not row.mutual, not row.online, row.username))
    return rows


def followers_not_followed(*, user: User) -> list[User]:
    """Who follows ``user`` without being followed back (follow them back: friends)."""
    return list(
        User.objects.filter(follows_made__followee=user, is_active=True)
        .exclude(follows_received__follower=user)
        .exclude(pk__in=block_partner_ids(user=user))
        .order_by("username")
    )


def unread_count(*, user: User | None) -> int:
    if user is None or not user.is_authenticated:
        return 0
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def notifications_for(*, user: User) -> list[Notification]:
    return list(Notification.objects.filter(user=user)[:PAGE_SIZE])


def notification_get(*, user: User, notification_id: int) -> Notification | None:
    """The player's own notification, or None (another's is as unknown)."""
    return Notification.objects.filter(user=user, pk=notification_id).first()


def online_seconds() -> int:
    return int(settings.SOCIAL_ONLINE_SECONDS)


def is_online(*, user_id: int) -> bool:
    """Whether the player has a page of the site open (private or not: for the e-mails,
    never shown)."""
    return user_id in _online_ids({user_id})


def unread_count_of(*, user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def tournament_entrants_to_remind(
    *, now: datetime, within: timedelta
) -> list[tuple[int, str, User]]:
    """``(tournament id, name, user)`` of each active entrant of a tournament starting
    within ``within`` of ``now`` who was not told yet."""
    from games.tournaments.models import Entrant, Tournament

    entrants = (
        Entrant.objects.filter(
            tournament__status=Tournament.Status.SCHEDULED,
            tournament__starts_at__gt=now, tournament__starts_at__lte=now + within,
            status=Entrant.Status.ACTIVE,
        )
        .select_related("tournament", "user")
        .order_by("tournament_id", "user_id")
    )
    told = {
        (row["params__tournament_id"], row["user_id"])
        for row in Notification.objects.filter(
            kind="tournament", created_at__gt=now - within - within
        ).values("params__tournament_id", "user_id")
    }
    return [
        (e.tournament_id, e.tournament.name, e.user)
        for e in entrants
        if (e.tournament_id, e.user_id) not in told
    ]


def seats_of(*, match_id: int) -> list[Seat]:
    return list(Seat.objects.filter(match_id=match_id).select_related("user"))


def is_correspondence(*, match_id: int) -> bool:
    return Match.objects.filter(pk=match_id, days_per_move__isnull=False).exists()


def users_by_id(*, user_ids: list[int]) -> dict[int, User]:
    return {u.pk: u for u in User.objects.filter(pk__in=user_ids)}
