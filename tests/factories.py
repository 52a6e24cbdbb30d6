"""The test suite's one set of factories: what a test needs, built in one line.

Players (``create_user``, ``create_users``, ``create_moderator``), matches (``create_match``
started through the services, moved on by ``play_to_turn_of``, its players by seat from
``seated``; ``create_match_at`` a chosen position; ``create_finished_match`` written straight
to the tables; ``create_table`` a bare table), tournaments (``create_tournament``),
challenges (``create_challenge``) and API tokens (``create_api_token``). Every test makes
its users here (a browser test passes its sign-in password); the ``make_user`` and
``moderator`` fixtures of tests/conftest.py hand these out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import Group
from django.utils import timezone

from accounts.models import User
from accounts.services import MODERATORS_GROUP, moderators_group_ensure
from games import services
from games.api import services as api_services
from games.api.models import ApiToken, Challenge
from games.api.tokens import api_token_create
from games.engine import HandState, RuleSet, timeout_action
from games.models import Hand, Match, Seat
from games.tournaments import services as tournament_services
from games.tournaments.models import Tournament
from leaderboards.models import Rating


def create_user(
    username: str,
    password: str | None = None,
    *,
    guest: bool = False,
    bot: bool = False,
    staff: bool = False,
    rating: float | Mapping[str, Any] | None = None,
    **fields: Any,
) -> User:
    """A registered player (no password unless given: hashing one costs ~0.3 s here): a
    guest, a BOT account or a staff member if asked; ``rating``, a current rating after
    one rated match, or the fields of its ``Rating`` row (``rating``, ``deviation``,
    ``rated_matches``...). ``fields``: any other of the user's (``is_active=False``...)."""
    flags = {"is_guest": guest, "is_bot": bot, "is_staff": staff}
    user = User.objects.create_user(
        username=username, email=f"{username}@example.com", password=password,
        **(flags | fields),
    )
    if rating is not None:
        row = {"rating": rating, "rated_matches": 1} if not isinstance(rating, Mapping) else rating
        Rating.objects.create(user=user, **row)
    return user


def create_users(count: int, prefix: str = "p", **options: Any) -> list[User]:
    """``count`` players named ``<prefix>0``, ``<prefix>1``... (``options``: create_user's)."""
    return [create_user(f"{prefix}{index}", **options) for index in range(count)]


def create_moderator(username: str = "mod", password: str | None = None) -> User:
    """A staff member in the Moderators group."""
    moderators_group_ensure()
    user = create_user(username, password, staff=True)
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    return user


def create_api_token(user: User, name: str = "") -> tuple[str, ApiToken]:
    """A new API token of ``user``: the token to send (shown once) and its row."""
    row, token = api_token_create(user=user, name=name)
    return token, row


def create_challenge(challenger: User, dest: User, **body: Any) -> Challenge:
    """``challenger``'s open challenge to ``dest`` (``body``: the API's ``variant``,
    ``target``, ``rated``)."""
    return api_services.challenge_create(user=challenger, dest=dest, body=body)


# --- matches --------------------------------------------------------------------------


def create_table(*players: User, status: str = Match.Status.ACTIVE) -> Match:
    """A friends' match between ``players`` at version 3, without a hand."""
    match = Match.objects.create(kind=Match.Kind.FRIEND, rules={}, status=status, version=3)
    for index, player in enumerate(players):
        Seat.objects.create(match=match, index=index, user=player)
    return match


def create_match(
    host: User, opponent: User | str, *, rules: RuleSet | None = None, variant: str = "default"
) -> Match:
    """A match started through the services: ``host`` invites the person ``opponent``,
    who joins (a rated friend match, ``host`` in seat 0), or ``host`` plays the computer
    at level ``opponent`` ("easy"... "expert"; the person's seat drawn at random)."""
    if isinstance(opponent, str):
        match = services.match_create_computer(
            user=host, level=opponent, rules=rules, variant=variant
        )
    else:
        invite = services.match_create_invite(user=host, rules=rules, variant=variant)
        match = services.match_join_invite(user=opponent, token=invite.invite_token)
    match.refresh_from_db()
    return match


def seated(match: Match) -> dict[int, User | None]:
    """The user in each seat of ``match`` (None: the computer's)."""
    return {s.index: s.user for s in Seat.objects.filter(match=match).select_related("user")}


def play_to_turn_of(match: Match, user: User) -> Match:
    """Move ``match`` on until ``user`` is to move (or it ends): the computer plays its
    turns, another person the clock's choice. Returns it refreshed."""
    seat = Seat.objects.get(match=match, user=user).index
    while True:
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE or match.current_seat == seat:
            return match
        mover = Seat.objects.get(match=match, index=match.current_seat)
        if mover.bot_level:
            assert services.bot_turn_play(match_id=match.pk, expected_version=match.version)
            continue
        hand = Hand.objects.filter(match=match).order_by("-number").first()
        assert hand is not None
        action = timeout_action(HandState.from_dict(hand.state))
        services.move_submit(
            match=match, user=mover.user, action=action, expected_version=match.version
        )


def create_match_at(
    state: HandState,
    players: Sequence[User | str],
    *,
    before: Sequence[Mapping[str, Any]] = (),
    version: int | None = None,
    seed: bytes | None = None,
) -> Match:
    """A started match whose current hand is ``state`` (to be played on from there),
    ``players[i]`` in seat i (a level name: the computer at that level), after the
    finished hands whose results are ``before`` (none: ``state``'s dealer deals first);
    at ``version`` if given. The hand keeps the seed it was dealt from unless ``seed``
    (the one that deals ``state``) is given."""
    people = [p for p in players if not isinstance(p, str)]
    levels = [p for p in players if isinstance(p, str)]
    match = create_match(people[0], people[1] if len(people) > 1 else levels[0],
                         rules=state.rules)
    seats = list(Seat.objects.filter(match=match).order_by("index"))
    wanted = players[0] if isinstance(players[0], str) else players[0].pk
    if (seats[0].bot_level or seats[0].user_id) != wanted:  # exchange the two seats
        Seat.objects.filter(pk=seats[0].pk).update(index=2)
        Seat.objects.filter(pk=seats[1].pk).update(index=0)
        Seat.objects.filter(pk=seats[0].pk).update(index=1)
    hand = match.hands.get()
    hand.state, hand.dealer, hand.number = state.to_dict(), state.dealer, len(before) + 1
    if seed is not None:
        hand.seed, hand.seed_hash = seed, hashlib.sha256(seed).hexdigest()
    hand.save()
    Match.objects.filter(pk=match.pk).update(
        rules=state.rules.to_dict(),
        first_dealer=state.dealer if not before else match.first_dealer,
        current_seat=state.current_player,
        version=match.version if version is None else version,
        finished_hands=[
            {"number": n, "dealer": 0, "commitment": "", "seed": "", "result": result}
            for n, result in enumerate(before, start=1)
        ],
    )
    match.refresh_from_db()
    return match


def create_finished_match(
    players: Sequence[User | None],
    *,
    finished_at: datetime | None = None,
    winner: int | None = 0,
    scores: tuple[int, int] = (150, 40),
    hands_won: tuple[int, int] = (3, 1),
    gins: tuple[int, int] = (1, 0),
    big_gins: tuple[int, int] = (0, 0),
    undercuts: tuple[int, int] = (0, 0),
    rated: bool = True,
    bot_level: str = "",
    kind: str | None = None,
    variant: str = "default",
    rules: Mapping[str, Any] | None = None,
    hands: Sequence[tuple[int | None, int, str]] = (),
) -> Match:
    """A match finished (on the target) at ``finished_at`` (now), written straight to the
    tables in the shape the games services leave behind: ``players[i]`` in seat i (None:
    the computer at ``bot_level``) with these totals, and one ``Hand`` row a (winner seat,
    points, result kind) of ``hands``. A quick match, or a computer one with a
    ``bot_level``, unless ``kind``."""
    at = finished_at or timezone.now()
    match = Match.objects.create(
        kind=kind or (Match.Kind.COMPUTER if bot_level else Match.Kind.QUICK),
        variant=variant,
        rules=dict(rules or {}),
        status=Match.Status.FINISHED,
        rated=rated,
        winner_seat=winner,
        end_reason=Match.EndReason.TARGET,
        started_at=at,
        finished_at=at,
    )
    for index, user in enumerate(players):
        Seat.objects.create(
            match=match, index=index, user=user, bot_level="" if user is not None else bot_level,
            score=scores[index], hands_won=hands_won[index], gins=gins[index],
            big_gins=big_gins[index], undercuts=undercuts[index],
        )
    for number, (hand_winner, points, result_kind) in enumerate(hands, start=1):
        Hand.objects.create(
            match=match, number=number, dealer=0, seed=b"x", seed_hash="0" * 64, state={},
            result_kind=result_kind, winner_seat=hand_winner, points=points, finished_at=at,
        )
    return match


# --- tournaments ----------------------------------------------------------------------


def create_tournament(
    format: str = "arena",
    players: Sequence[User] = (),
    *,
    name: str = "Test",
    start: bool = False,
    now: datetime | None = None,
    **fields: Any,
) -> Tournament:
    """A staff tournament of ``format`` ("arena" or "swiss") starting ``now`` unless
    ``starts_at`` says otherwise, with ``players`` entered (by its invite if private);
    ``start``: started (paired) at once. ``fields``: tournament_create's."""
    now = now or timezone.now()
    fields.setdefault("starts_at", now)
    t = tournament_services.tournament_create(
        user=None, staff=True, name=name, format=format, now=now, **fields
    )
    for user in players:
        tournament_services.tournament_join(
            tournament=t, user=user, token=t.invite_token, now=now
        )
    if start:
        assert tournament_services.tournament_progress(tournament_id=t.pk, now=now) == "started"
        t.refresh_from_db()
    return t
