"""Writes of the bot API: upgrading to a BOT account, challenges (create, accept,
decline, cancel) and the computer challenge. Each raises ``ApiError`` (a code of
docs/bot-api.md and a sentence), ``BodyError`` for a body its model refuses
(games/api/schemas.py), or the games app's refusal of the match it would start, and
changes nothing when it refuses."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any, ClassVar

from django.db import transaction

from games import events as domain_events
from games.chat.selectors import blocked_between
from games.engine import RuleSet
from games.models import Match, Seat
from games.services import correspondence
from games.services.matches import create_started_match, match_create_computer
from ginsite.errors import AppError

from . import events, schemas
from .models import Challenge
from .selectors import challenge_status, open_challenges

if TYPE_CHECKING:
    from accounts.models import User

MAX_OPEN_CHALLENGES = 20  # waiting challenges one account may have sent


class ApiError(AppError):
    """A refused bot-API request: ``ApiError(code, message)``, an instance of the class
    of this family that declares ``code`` (ginsite/errors.py), with its status."""

    code_arg = 0
    status = 400
    codes: ClassVar[tuple[str, ...]] = ("challenge_self", "invalid_settings")
    default_message = "The bot API cannot do that."


class ApiForbidden(ApiError):
    status = 403
    codes = ("not_allowed", "guest_not_allowed", "blocked", "not_a_bot")


class ApiNotFound(ApiError):
    status = 404
    codes = ("not_found", "no_such_player")


class ApiConflict(ApiError):
    status = 409
    codes = ("challenge_closed", "already_bot", "has_rated_matches")


class ApiTooMany(ApiError):
    status = 429
    codes = ("too_many_challenges",)


def _require_player(user: User) -> None:
    if user.is_guest:
        raise ApiError("guest_not_allowed", "Guests cannot use the bot API: sign up.")


def bot_account_upgrade(*, user: User) -> User:
    """Turn ``user`` into a BOT account for good: only an account that has never
    played a rated match (and is not a guest) can."""
    _require_player(user)
    with transaction.atomic():
        from accounts.models import User

        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.is_bot:
            raise ApiError("already_bot", "This account is already a BOT account.")
        if Seat.objects.filter(user=locked, match__rated=True).exists():
            raise ApiError(
                "has_rated_matches",
                "This account has played rated matches: create a new account for the bot.",
            )
        locked.is_bot = True
        locked.save(update_fields=["is_bot"])
        from games.services.quickmatch import quickmatch_cancel

        quickmatch_cancel(user=locked)
    user.is_bot = True
    return user


def _rules(variant: str, target: int) -> RuleSet:
    return RuleSet.preset(variant).replace(target_score=target)


def challenge_create(*, user: User, dest: User | None, body: dict[str, Any]) -> Challenge:
    """``user`` challenges ``dest`` with ``{"variant", "target", "rated"}``
    (games/api/schemas.py ``ChallengeSettings``: 400 ``invalid_settings``).

    Rated matches are between two people or between two BOT accounts, never a BOT
    against a person."""
    _require_player(user)
    wanted = schemas.parse(schemas.ChallengeSettings, body)
    variant, rated, days = wanted.variant, wanted.rated, wanted.days
    rules = _rules(wanted.variant, wanted.target)
    if days is not None:
        # No turn clock: the days per move are the match's (games/services/correspondence.py).
        rules = rules.replace(turn_seconds=None)
    if dest is None or not dest.is_active or dest.is_guest:
        raise ApiError("no_such_player", "There is no such player.")
    if dest.pk == user.pk:
        raise ApiError("challenge_self", "You cannot challenge yourself.")
    if rated and user.is_bot != dest.is_bot:
        raise ApiError(
            "invalid_settings", "A BOT plays rated matches against other BOT accounts only."
        )
    if blocked_between(user, dest):
        raise ApiError("blocked", "You cannot challenge this player.")
    if days is not None:
        if rated or user.is_bot or dest.is_bot:
            raise ApiError(
                "invalid_settings",
                "A correspondence match is between two people and never rated.",
            )
        correspondence.require_room(user, dest)
    if open_challenges().filter(challenger=user).count() >= MAX_OPEN_CHALLENGES:
        raise ApiError("too_many_challenges", "Too many open challenges: cancel some first.")
    with transaction.atomic():
        challenge = Challenge.objects.create(
            challenger=user, dest=dest, variant=variant, rules=rules.to_dict(), rated=rated,
            days_per_move=days,
        )
        events.challenge_offered(challenge)
        domain_events.publish(domain_events.ChallengeOffered(
            challenge_id=challenge.pk, challenger_id=user.pk, dest_id=dest.pk,
            variant=variant, rated=rated,
        ))
    return challenge


def _open_challenge(challenge_id: Any, *, user: User, side: str) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update()
        .select_related("challenger", "dest")
        .filter(pk=challenge_id if isinstance(challenge_id, int) else -1)
        .first()
    )
    if challenge is None or user.pk not in (challenge.challenger_id, challenge.dest_id):
        raise ApiError("not_found", "There is no such challenge.")
    if getattr(challenge, f"{side}_id") != user.pk:
        raise ApiError("not_allowed", f"Only the {side} can do that.")
    if challenge.status != Challenge.Status.CREATED:
        raise ApiError("challenge_closed", f"This challenge is {challenge.status}.")
    if challenge_status(challenge=challenge) == "expired":
        raise ApiError("challenge_closed", "This challenge has expired.")
    return challenge


def challenge_accept(*, user: User, challenge_id: int) -> Match:
    """The challenged account accepts: the match starts (seats drawn at random)."""
    with transaction.atomic():
        challenge = _open_challenge(challenge_id, user=user, side="dest")
        challenger = challenge.challenger
        if not challenger.is_active:
            raise ApiError("challenge_closed", "The challenger's account is closed.")
        players = [challenger, challenge.dest]
        if challenge.days_per_move:
            correspondence.require_room(challenger, challenge.dest)
        if secrets.randbelow(2):
            players.reverse()
        match = create_started_match(
            kind=Match.Kind.FRIEND,
            variant=challenge.variant,
            rules=RuleSet.from_dict(challenge.rules),
            rated=challenge.rated,
            players=players,
            days_per_move=challenge.days_per_move,
        )
        challenge.status = Challenge.Status.ACCEPTED
        challenge.match = match
        challenge.save(update_fields=["status", "match"])
        events.challenge_closed(challenge)
    return match


def challenge_decline(*, user: User, challenge_id: int) -> Challenge:
    with transaction.atomic():
        challenge = _open_challenge(challenge_id, user=user, side="dest")
        challenge.status = Challenge.Status.DECLINED
        challenge.save(update_fields=["status"])
        events.challenge_closed(challenge)
        events.send_on_commit(
            [challenge.challenger_id],
            {"type": "challengeDeclined", "challenge": {"id": challenge.pk}},
        )
    return challenge


def challenge_cancel(*, user: User, challenge_id: int) -> Challenge:
    with transaction.atomic():
        challenge = _open_challenge(challenge_id, user=user, side="challenger")
        challenge.status = Challenge.Status.CANCELED
        challenge.save(update_fields=["status"])
        events.challenge_closed(challenge)
        events.send_on_commit(
            [challenge.dest_id], {"type": "challengeCanceled", "challenge": {"id": challenge.pk}}
        )
    return challenge


def computer_challenge(*, user: User, body: dict[str, Any]) -> Match:
    """A match against the site's computer at ``level``, started at once (games/api/
    schemas.py ``ComputerChallenge``: 400 ``invalid_settings``)."""
    wanted = schemas.parse(schemas.ComputerChallenge, body)
    rules = _rules(wanted.variant, wanted.target)
    # A refusal of the games app (games/errors.py) is answered as it is.
    return match_create_computer(user=user, level=wanted.level, variant=wanted.variant, rules=rules)
