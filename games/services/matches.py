"""Creating, joining, resigning and rematching matches; closing friend invitations.

Computer matches start at once (guests allowed, never rated); a friend match waits
for the invited player until its host cancels it or it expires (``INVITE_TTL``,
closed by the periodic ``invites_expire``); human-vs-human matches between
registered players are rated.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import events
from games.chat.selectors import blocked_between
from games.engine import RuleSet
from games.errors import (
    BotNotAllowedError,
    GuestNotAllowedError,
    InvalidSettingsError,
    InviteClosedError,
    InviteNotFoundError,
    MatchNotOverError,
    MatchNotStartedError,
    MatchOverError,
    NotAPlayerError,
)
from games.models import Hand, Match, Seat

from . import fairplay, play

if TYPE_CHECKING:
    from accounts.models import User

BOT_LEVELS = ("easy", "medium", "hard", "expert")
#: An invitation nobody accepted closes this long after it was created.
INVITE_TTL = timedelta(hours=24)
INVITE_EXPIRED_SENTENCE = gettext_lazy(
    "This invitation has expired: ask your friend for a new link."
)


def rules_for(*, variant: str, rules: RuleSet | Mapping[str, Any] | None) -> RuleSet:
    """Validated rules: the variant's preset, or the given (tweaked) rules."""
    if not isinstance(variant, str) or variant not in RuleSet.PRESETS:
        raise InvalidSettingsError(
            f"Unknown variant {variant!r}; choose one of {', '.join(RuleSet.PRESETS)}."
        )
    if rules is None:
        return RuleSet.preset(variant)
    if isinstance(rules, RuleSet):
        ruleset = rules
    else:
        try:
            ruleset = RuleSet.from_dict(rules)
        except (TypeError, ValueError) as error:
            raise InvalidSettingsError(f"Invalid rules: {error}.") from error
    # The export's verifier checks the same (Time Freedom's missing clock is the
    # caller's: the offline upload, whose old records say time_freedom, drops any clock).
    problem = ruleset.variant_problem(variant, clock=False)
    if problem:
        raise InvalidSettingsError(f"Invalid rules: {problem}.")
    return ruleset


def require_registered(user: User) -> None:
    if not getattr(user, "is_authenticated", False):
        raise NotAPlayerError(_("Sign in to play."))
    if user.is_guest:
        raise GuestNotAllowedError()
    if getattr(user, "is_bot", False):
        raise BotNotAllowedError()


def match_create_computer(
    *,
    user: User,
    level: str,
    rules: RuleSet | Mapping[str, Any] | None = None,
    variant: str = "default",
) -> Match:
    """A match against the computer at ``level``, started at once; never rated.

    The human's seat is drawn at random, as is the first dealer.
    """
    if not getattr(user, "is_authenticated", False):
        raise NotAPlayerError(_("Sign in or play as a guest first."))
    if level not in BOT_LEVELS:
        raise InvalidSettingsError(
            f"Unknown computer level {level!r}; choose one of {', '.join(BOT_LEVELS)}."
        )
    ruleset = rules_for(variant=variant, rules=rules)
    with transaction.atomic():
        return create_started_match(
            kind=Match.Kind.COMPUTER, variant=variant, rules=ruleset, rated=False,
            players=[user, None], bot_level=level,
        )


def match_create_invite(
    *, user: User, rules: RuleSet | Mapping[str, Any] | None = None, variant: str = "default"
) -> Match:
    """A friend match waiting for whoever opens its invite link (``invite_token``)."""
    require_registered(user)
    fairplay.require_rated_play_allowed(user)
    ruleset = rules_for(variant=variant, rules=rules)
    with transaction.atomic():
        match = Match.objects.create(
            kind=Match.Kind.FRIEND, variant=variant, rules=ruleset.to_dict(), rated=True,
            invite_token=secrets.token_urlsafe(16),
        )
        Seat.objects.create(match=match, index=0, user=user)
    return match


def match_join_invite(*, user: User, token: str) -> Match:
    """Take the second seat of the invited match and start it (the first dealer is
    drawn at random). Opening one's own invite (or a match one already plays in)
    returns it unchanged."""
    require_registered(user)
    if not isinstance(token, str) or not token:
        raise InviteNotFoundError()
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(invite_token=token).first()
        if match is None:
            raise InviteNotFoundError()
        seats = list(Seat.objects.filter(match=match).order_by("index"))
        if any(s.user_id == user.pk for s in seats):
            return match
        fairplay.require_rated_play_allowed(user)
        if match.status == Match.Status.CANCELLED:
            raise InviteNotFoundError(invite_closed_sentence(match))
        if match.status != Match.Status.WAITING:
            raise InviteNotFoundError(
                _("This invitation has already been accepted by someone else.")
            )
        if match.created_at <= timezone.now() - INVITE_TTL:
            raise InviteNotFoundError(str(INVITE_EXPIRED_SENTENCE))
        host = seats[0].user
        if host is None or not host.is_active:
            raise InviteNotFoundError(_("This invitation is no longer valid."))
        if blocked_between(host, user):
            raise InviteNotFoundError(_("You cannot join this player's match."))
        # The host keeps seat 0: its open table socket is bound to that seat's private
        # view. Fairness comes from the first dealer, drawn at random when play starts.
        Seat.objects.create(match=match, index=1, user=user)
        play.start_match(match, timezone.now())
    return match


def invite_closed_sentence(match: Match) -> str:
    """Why an invitation is closed, for the person who opens its link."""
    if match.end_reason == Match.EndReason.INVITE_EXPIRED:
        return str(INVITE_EXPIRED_SENTENCE)
    return _("This invitation was cancelled by the player who sent it.")


def _close_invite(match: Match, reason: str, now: datetime) -> None:
    match.status = Match.Status.CANCELLED
    match.end_reason = reason
    match.finished_at = now
    match.version += 1
    match.save(update_fields=["status", "end_reason", "finished_at", "version"])
    # Open waiting pages (the host's other tabs) learn that it closed.
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    play.publish_table(play.Locked(match=match, seats=seats, hand=None), now)


def match_cancel_invite(*, match: Match, user: User, now: datetime | None = None) -> Match:
    """The host withdraws a friend invitation nobody has accepted yet: its link stops
    working and it leaves the host's matches in progress."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().filter(pk=match.pk).first()
        if locked is None:
            raise InviteNotFoundError()
        host = Seat.objects.filter(match=locked, index=0).values_list("user_id", flat=True).first()
        if locked.kind != Match.Kind.FRIEND or host is None or host != getattr(user, "pk", None):
            raise NotAPlayerError(_("Only the player who sent this invitation can cancel it."))
        if locked.status == Match.Status.CANCELLED:
            return locked
        if locked.status != Match.Status.WAITING:
            raise InviteClosedError(
                _("Your friend has already joined: the match is on (you may resign it).")
            )
        _close_invite(locked, Match.EndReason.INVITE_CANCELLED, now or timezone.now())
    return locked


def invites_expire(*, now: datetime | None = None, batch: int = 500) -> int:
    """Close the invitations nobody accepted within ``INVITE_TTL`` (a periodic job);
    returns how many closed. Idempotent: a closed or joined invitation is left alone."""
    now = now or timezone.now()
    expired = 0
    stale = Match.objects.filter(
        status=Match.Status.WAITING, kind=Match.Kind.FRIEND, created_at__lte=now - INVITE_TTL
    ).values_list("pk", flat=True)[:batch]
    for match_id in list(stale):
        with transaction.atomic():
            match = (
                Match.objects.select_for_update()
                .filter(pk=match_id, status=Match.Status.WAITING)
                .first()
            )
            if match is None:
                continue  # joined or cancelled meanwhile
            _close_invite(match, Match.EndReason.INVITE_EXPIRED, now)
            expired += 1
    return expired


def match_resign(*, match: Match, user: User) -> Match:
    """The caller gives up: the opponent wins with the game bonus; scores stand."""
    with transaction.atomic(durable=True):
        return match_forfeit(match=match, user=user, reason=Match.EndReason.RESIGN)


def match_forfeit(*, match: Match, user: User, reason: str) -> Match:
    """End ``user``'s match in play as lost by them for ``reason`` (resigned, or taken
    out of play by moderation); inside the caller's transaction."""
    locked = play.lock_match(match.pk)
    if locked is None:
        raise MatchOverError(_("This match no longer exists."))
    seat = play.require_player_in_play(locked, user)
    change = play.Change(locked, timezone.now())
    change.forfeit(seat.index, reason)
    change.commit()
    return locked.match


def match_rematch(*, match: Match, user: User) -> Match | None:
    """Ask for a rematch of a finished match.

    Against the computer the new match starts at once. Between people the first
    call offers (and returns None); the opponent's call creates it, and both are
    told through the old match's state (``rematch.match_id``). Once it exists,
    every call returns it.
    """
    with transaction.atomic(durable=True):
        locked = play.lock_match(match.pk)
        if locked is None:
            raise MatchOverError(_("This match no longer exists."))
        seat = locked.seat_of(user)
        if seat is None:
            raise NotAPlayerError()
        old = locked.match
        if old.status == Match.Status.WAITING:
            raise MatchNotStartedError()
        if old.status != Match.Status.FINISHED:
            raise MatchNotOverError()
        existing = Match.objects.filter(rematch_of=old).order_by("pk").first()
        if existing is not None:
            return existing
        if old.end_reason == Match.EndReason.SUSPENDED:
            raise MatchOverError(_("No rematch: a player of this match has been suspended."))
        bot = next((s for s in locked.seats if s.bot_level), None)
        if old.rated:
            fairplay.require_rated_play_allowed(user)
        if bot is None and old.rematch_offered_by in (None, seat.index):
            if old.rematch_offered_by is None:
                old.rematch_offered_by = seat.index
                old.version += 1
                old.save(update_fields=["rematch_offered_by", "version"])
                play.publish_table(locked, timezone.now())
            return None
        players = [s.user for s in locked.seats if not s.bot_level]
        if bot is None:
            # The seats swap so each player gets the other side of the table.
            players = [locked.seats[1].user, locked.seats[0].user]
        else:
            players = [players[0], None]
        new = create_started_match(
            kind=old.kind, variant=old.variant, rules=RuleSet.from_dict(old.rules),
            rated=old.rated, players=players, bot_level=bot.bot_level if bot else "",
            rematch_of=old,
        )
        old.rematch_offered_by = None
        old.version += 1
        old.save(update_fields=["rematch_offered_by", "version"])
        play.publish_table(locked, timezone.now(), rematch_id=new.pk)
    return new


def create_started_match(
    *,
    kind: str,
    variant: str,
    rules: RuleSet,
    rated: bool,
    players: list[Any],
    bot_level: str = "",
    rematch_of: Match | None = None,
    days_per_move: int | None = None,
) -> Match:
    """Create a match with two seats and deal its first hand (inside a transaction).

    ``players``: two users, or one user and None for the computer's seat; the
    computer's opponent gets a random seat. ``days_per_move``: a correspondence
    match's time control (games/services/correspondence.py), None for live play.
    """
    match = Match.objects.create(
        kind=kind, variant=variant, rules=rules.to_dict(), rated=rated, rematch_of=rematch_of,
        days_per_move=days_per_move,
    )
    if bot_level and secrets.randbelow(2):
        players = [players[1], players[0]]
    for index, player in enumerate(players):
        Seat.objects.create(
            match=match, index=index, user=player,
            bot_level="" if player is not None else bot_level,
        )
    play.start_match(match, timezone.now())
    return match


def create_started_matches(
    *,
    kind: str,
    variant: str,
    rules: RuleSet,
    rated: bool,
    pairs: list[tuple[Any, Any]],
    tournament_id: int | None = None,
    now: datetime | None = None,
) -> list[Match]:
    """Create and start one match per pair of people (a tournament's pairings), inside
    the caller's transaction, in three statements whatever their number: the matches,
    their seats and their first hands, each in one bulk insert (the deals are made in
    memory). ``pairs[i]`` are the users of seats 0 and 1 of the i-th match;
    ``tournament_id``: the tournament that pairs them (``Match.tournament_id``).

    No table is published: no socket can be on a match that did not exist before this
    transaction, so the players hear of it from the caller (the tournament's
    ``match_ready``) and load the table when they open it. One ``MatchesStarted``
    (games/events.py) tells the subscribers of every match at once (the bot-API event
    streams get every ``matchStart`` in one trip)."""
    now = now or timezone.now()
    matches = [
        Match(kind=kind, variant=variant, rules=rules.to_dict(), rated=rated,
              tournament_id=tournament_id)
        for _ in pairs
    ]
    seats = [
        [Seat(match=match, index=index, user=user) for index, user in enumerate(pair)]
        for match, pair in zip(matches, pairs, strict=True)
    ]
    hands = [
        play.begin_match(match, match_seats, now)[0]
        for match, match_seats in zip(matches, seats, strict=True)
    ]
    Match.objects.bulk_create(matches)
    Seat.objects.bulk_create([seat for match_seats in seats for seat in match_seats])
    Hand.objects.bulk_create(hands)
    events.publish(events.MatchesStarted(matches=tuple(
        play.started_event(match, match_seats)
        for match, match_seats in zip(matches, seats, strict=True)
    )))
    return matches
