"""Reads about players: moderation state (mutes, bans), display preferences, and the
statistics and recent matches shown on a profile page."""

from dataclasses import dataclass

from django.db.models import Count, F, Q, QuerySet, Sum
from django.utils import timezone

from games.forms import variant_label
from games.messages import seat_name
from games.models import Hand, Match, Seat

from .models import Ban, Mute, Profile, User, Warning


def active_mute(*, user: User) -> Mute | None:
    """The mute in force for ``user`` that ends last, or None."""
    return (
        Mute.objects.filter(user=user, lifted_at__isnull=True, until__gt=timezone.now())
        .order_by("-until")
        .first()
    )


def active_ban(*, user: User) -> Ban | None:
    return Ban.objects.filter(user=user, lifted_at__isnull=True).first()


def matches_in_play(*, user: User) -> list[int]:
    """Ids of the matches ``user`` has in play."""
    return list(
        Match.objects.filter(seats__user=user, status=Match.Status.ACTIVE)
        .values_list("pk", flat=True).distinct()
    )


def matches_lost_for(*, user: User, among: list[int], reason: str) -> list[int]:
    """Those of the matches ``among`` that ``user`` has lost for ``reason``
    (``Match.EndReason``), in id order."""
    return list(
        Seat.objects.filter(
            user=user, match_id__in=among, match__status=Match.Status.FINISHED,
            match__end_reason=reason,
        )
        .exclude(match__winner_seat=F("index"))
        .order_by("match_id").values_list("match_id", flat=True)
    )


def recent_warnings(*, user: User, limit: int = 10) -> list[Warning]:
    return list(Warning.objects.filter(user=user)[:limit])


def profile_get(*, user: User) -> Profile:
    """The user's preferences; an unsaved default Profile if they never changed any."""
    try:
        return Profile.objects.get(user=user)
    except Profile.DoesNotExist:
        return Profile(user=user)


def user_by_username(*, username: str) -> User | None:
    """A visible player (active, registered) by username, or None."""
    return User.objects.filter(username=username, is_active=True, is_guest=False).first()


@dataclass(frozen=True)
class PlayerStats:
    matches_played: int
    matches_won: int
    hands_played: int
    hands_won: int
    gins: int
    big_gins: int
    undercuts: int
    points_won: int
    favourite_variant: str | None

    @property
    def average_points_per_hand(self) -> float:
        """Points the player scored per hand played (0 before any hand)."""
        return round(self.points_won / self.hands_played, 1) if self.hands_played else 0.0

    @property
    def win_rate(self) -> int:
        return round(100 * self.matches_won / self.matches_played) if self.matches_played else 0


def player_stats(*, user: User) -> PlayerStats:
    """Totals over the user's finished matches (four queries)."""
    seats = Seat.objects.filter(user=user, match__status=Match.Status.FINISHED)
    totals = seats.aggregate(
        played=Count("id"),
        won=Count("id", filter=Q(match__winner_seat=F("index"))),
        hands_won=Sum("hands_won", default=0),
        gins=Sum("gins", default=0),
        big_gins=Sum("big_gins", default=0),
        undercuts=Sum("undercuts", default=0),
    )
    hands = Hand.objects.filter(
        match__seats__user=user,
        match__status=Match.Status.FINISHED,
        finished_at__isnull=False,
    ).aggregate(
        played=Count("id", distinct=True),
        points=Sum("points", filter=Q(winner_seat=F("match__seats__index")), default=0),
    )
    favourite = (
        seats.values("match__variant")
        .annotate(n=Count("id"))
        .order_by("-n", "match__variant")
        .first()
    )
    return PlayerStats(
        matches_played=totals["played"],
        matches_won=totals["won"],
        hands_played=hands["played"],
        hands_won=totals["hands_won"],
        gins=totals["gins"],
        big_gins=totals["big_gins"],
        undercuts=totals["undercuts"],
        points_won=hands["points"],
        favourite_variant=variant_label(favourite["match__variant"]) if favourite else None,
    )


@dataclass(frozen=True)
class RecentMatch:
    match_id: int
    finished_at: object
    variant: str
    opponent: str
    my_score: int
    opponent_score: int
    won: bool
    end_reason: str
    #: Ended before each player made two moves: shown as "Aborted" (not rated, no board).
    aborted: bool = False


def recent_matches(*, user: User, limit: int = 10) -> list[RecentMatch]:
    """The user's last finished matches, newest first, with the opponent and the score."""
    matches: QuerySet[Match] = (
        Match.objects.filter(seats__user=user, status=Match.Status.FINISHED)
        .order_by("-finished_at", "-id")
        .prefetch_related("seats__user")[:limit]
    )
    rows = []
    for match in matches:
        seats = list(match.seats.all())
        mine = next(s for s in seats if s.user_id == user.pk)
        other = next((s for s in seats if s.index != mine.index), None)
        if other is None:
            opponent = "nobody"
        else:
            opponent = seat_name(other)
        rows.append(
            RecentMatch(
                match_id=match.pk,
                finished_at=match.finished_at,
                variant=variant_label(match.variant),
                opponent=opponent,
                my_score=mine.score,
                opponent_score=other.score if other else 0,
                won=match.winner_seat == mine.index,
                end_reason=match.get_end_reason_display(),
                aborted=match.aborted,
            )
        )
    return rows
