"""The domain events of play and of accounts, and the bus that carries them from the app
that publishes them to the apps that subscribe (as lichess's game module publishes
``FinishGame``): the publisher imports no subscriber, each subscriber registers its
handlers here from its own ``AppConfig.ready()`` (pyproject.toml's import-linter
contracts hold the direction; tests/test_architecture.py breaks them on purpose).

A handler runs in one of two phases, named at ``subscribe``:

- ``"in_transaction"``: inside the publisher's transaction, as ``publish`` is called,
  under the publisher's locks. What it writes commits with the change, or not at all:
  an exception in it propagates out of ``publish`` and rolls the change back. For
  what must happen exactly once with the change (a tournament's result).
- ``"after_commit"``: once the publisher's transaction commits (Django's
  ``transaction.on_commit``), never if it rolls back. An exception in it is logged
  (logger ``games.events``, with the event and the handler) and the other handlers
  still run: the change stands. For telling others (sockets, streams, queues).

Order, for each event: the ``in_transaction`` handlers in the order they subscribed,
then the ``after_commit`` ones in the order they subscribed, after the commit callbacks
registered before ``publish`` and before those registered after it. Apps subscribe in
their ``ready()``, which Django runs in the order of ``INSTALLED_APPS``
(ginsite/settings.py), so the order is the same in every process.
``subscribers(event type)`` lists them; tests/games/test_events.py checks the table.

Events (frozen dataclasses of values; ``MatchFinished`` also lends the rows the
finishing transaction holds locked to the handlers that run inside it), each with its
publisher and its subscribers in the order they run, with their phase and why:

``MatchStarted``: a match was dealt its first hand (computer, friend, quick, rematch,
bot-API challenge). Published by games/services/play.py ``start_match``.
  - games/api/events.py ``on_match_started``, after_commit: ``matchStart`` on the players'
    event streams (telling; nothing to undo).
  - social/hooks.py ``on_match_started``, after_commit: a correspondence match's first
    player told it is their turn (a notification, e-mailed if they are away).

``MatchesStarted``: many matches started at once (a tournament's round). Published by
games/services/matches.py ``create_started_matches``.
  - games/api/events.py ``on_matches_started``, after_commit: every ``matchStart`` in one
    trip to the channel layer.

``MovePlayed``: a change of moves applied to a match that goes on, and whose turn it is
now. Published by games/services/play.py ``Change.commit``.
  - social/hooks.py ``on_move_played``, after_commit: in a correspondence match whose
    turn passed to a person, a "your turn" notification (e-mailed if they are away).

``HandFinished``: a hand ended. Published by games/services/play.py
``Change._hand_finished``.
  - games/analysis/hooks.py ``on_hand_finished``, after_commit: the hand queued for
    analysis (with the queue down the hand still ends: the failure is logged and the
    analysis sweep sends the hand later).

``MatchFinished``: a match ended. Published by games/services/play.py ``Change.commit``
in the transaction that finishes it, under its lock, once its rows are written and the
fair-play rule applied.
  - leaderboards/hooks.py ``on_match_finished``, in_transaction: a rated match that was
    not aborted gets its rating task registered for the commit, so a finish that rolls
    back is never rated (the task itself runs after commit, on the worker); a
    correspondence match not aborted, its correspondence rating task the same way.
  - games/tournaments/hooks.py ``on_match_finished``, in_transaction: a tournament
    match's result is recorded exactly once (the pairing locked, its ``finished`` flag
    checked), committed with the finish or not at all; the next pairing is enqueued
    after commit.
  - games/api/events.py ``on_match_finished``, after_commit: ``matchFinish`` on the
    players' event streams.
  - games/fairplay/hooks.py ``on_match_finished``, after_commit: a rated match's pair
    checked for farming on the worker, off the request path (a check that fails is
    logged; the periodic detection reads the pair again).

``PlayerRestricted``: fair play closed rated play to a player who left too many rated
matches (games/services/fairplay.py). Published by games/services/play.py
``Change.commit``, with the ``MatchFinished`` of the match that did it.
  - none yet (a notice to the player will subscribe after commit).

``PlayerBanned``: a moderator banned a player. Published by accounts/services.py
``user_ban``, in its transaction.
  - games/hooks.py ``on_player_banned``, in_transaction: out of the quick-match queue,
    every match in play forfeited (the opponent wins), with the ban or not at all.

``AccountClosed``: a player deleted their account. Published by accounts/services.py
``account_delete``, in its transaction.
  - games/hooks.py ``on_account_closed``, in_transaction: out of the queue, every match
    in play resigned, with the deletion or not at all.

``ChallengeOffered``: a player challenged another. Published by games/api/services.py
``challenge_create``, in its transaction.
  - social/hooks.py ``on_challenge_offered``, after_commit: a notification to the
    challenged player (live on their open pages; an e-mail if they are away).

``PlayerModerated``: a moderator warned or muted a player. Published by
accounts/services.py ``user_warn`` and ``user_mute``, in their transaction (a fair-play
case's ``warn`` decision is a ``user_warn``).
  - social/hooks.py ``on_player_moderated``, after_commit: a notification to the player.

``FairPlayDecided``: a fair-play case removed a player from the leaderboards (the
decision ``remove``; ``warn`` is a ``PlayerModerated``, ``close`` a ban, which the player
reads at sign-in). Published by games/fairplay/services.py ``case_decide``, in its
transaction.
  - social/hooks.py ``on_fair_play_decided``, after_commit: a notification to the player.

Not events: a bot-API challenge is streamed and answered by games/api alone (one
app both publishes and listens: games/api/events.py is called directly; it publishes
``ChallengeOffered`` for the apps that listen); the fair-play
rule (games/services/fairplay.py) is the core's own and runs before ``MatchFinished``.
What the core's pages show from other apps is asked, not told (games/pages.py), as is
who reads and writes a tournament's chat room (games/chat/rooms.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal, TypeVar

from django.db import transaction

if TYPE_CHECKING:
    from games.models import Match, Seat

logger = logging.getLogger("games.events")

Phase = Literal["in_transaction", "after_commit"]
IN_TRANSACTION: Final = "in_transaction"
AFTER_COMMIT: Final = "after_commit"
PHASES: Final = (IN_TRANSACTION, AFTER_COMMIT)


@dataclass(frozen=True, kw_only=True)
class Event:
    """What every event is: a fact, published once, in the transaction that made it.
    ``publisher``: the app that publishes it (pyproject.toml's ``publisher`` contracts
    keep it from importing the app of any of its subscribers)."""

    publisher: ClassVar[str] = "games"


# --- play -----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class MatchStarted(Event):
    """A match was dealt its first hand; ``to_move`` plays first."""

    match_id: int
    kind: str
    variant: str
    rated: bool
    #: By seat index; None for the computer's seat.
    user_ids: tuple[int | None, ...]
    to_move: int | None
    started_at: datetime
    #: The tournament that paired it, if any (``Match.tournament_id``).
    tournament_id: int | None = None


@dataclass(frozen=True, kw_only=True)
class MatchesStarted(Event):
    """Many matches started in one transaction (a tournament's round): one event, so
    that a subscriber tells every player in one trip."""

    matches: tuple[MatchStarted, ...]


@dataclass(frozen=True, kw_only=True)
class MovePlayed(Event):
    """A change of moves was applied to a match that goes on (one or more actions:
    the player's, the computer's or those the clock played); whose turn it is now.
    Published before the change's rows are written (a match that goes on writes them
    last, with its commit): a handler inside the transaction has these values, not yet
    the rows."""

    match_id: int
    #: The match's version after the change (the last move's ``seq``).
    version: int
    #: The seat that acted last, and whether the clock acted for it.
    by_seat: int
    auto: bool
    #: The seat to move now, and its user (None: the computer's seat).
    to_move: int | None
    to_move_user_id: int | None
    turn_deadline: datetime | None
    #: Whether the change ended a hand (and the next one was dealt).
    hand_finished: bool
    #: A correspondence match's days per move (None: live play) and the deadline of
    #: the turn of ``to_move``.
    days_per_move: int | None = None
    move_deadline: datetime | None = None


@dataclass(frozen=True, kw_only=True)
class HandFinished(Event):
    """A hand of a match ended (``kind`` as ``Hand.result_kind``: gin, knock, ...).
    Published as the move that ends it is applied, before the change's rows are written
    (as ``MovePlayed``)."""

    match_id: int
    hand_id: int
    number: int
    kind: str
    #: The seat that won the hand (None: no winner) and the points it scored.
    winner_seat: int | None
    points: int
    #: Whether this hand ended the match (``MatchFinished`` follows in the same change).
    match_over: bool


@dataclass(frozen=True, kw_only=True)
class MatchFinished(Event):
    """A match ended: at its target, or resigned, abandoned or forfeited (``reason``,
    ``Match.EndReason``). An aborted match (left before each player made two moves)
    is never rated; its winner stays recorded."""

    match_id: int
    kind: str
    rated: bool
    aborted: bool
    reason: str
    winner_seat: int | None
    #: By seat index; None for the computer's seat.
    user_ids: tuple[int | None, ...]
    #: The final totals, by seat index.
    scores: tuple[int, ...]
    finished_at: datetime
    #: The tournament that paired it, if any (``Match.tournament_id``).
    tournament_id: int | None = None
    #: A correspondence match's days per move (None: live play).
    days_per_move: int | None = None
    #: The rows as the finishing transaction holds them, locked and written: for the
    #: ``in_transaction`` handlers only, to read (after commit, read the values above).
    match: Match = field(compare=False, repr=False)
    seats: tuple[Seat, ...] = field(compare=False, repr=False)


@dataclass(frozen=True, kw_only=True)
class PlayerRestricted(Event):
    """Fair play closed rated play to a player who left too many rated matches, until
    ``until`` (games/services/fairplay.py); ``match_id``: the abandonment that did it."""

    user_id: int
    until: datetime
    match_id: int
    offence: int


@dataclass(frozen=True, kw_only=True)
class ChallengeOffered(Event):
    """A player challenged another to a match (games/api ``challenge_create``: from a
    profile, the friends list or the bot API)."""

    publisher: ClassVar[str] = "games.api"

    challenge_id: int
    challenger_id: int
    dest_id: int
    variant: str
    rated: bool


# --- accounts -------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class PlayerModerated(Event):
    """A moderator decided about a player who keeps playing: a warning or a mute
    (``action``: ``warn``, ``mute``; ``until``: the end of a mute)."""

    publisher: ClassVar[str] = "accounts"

    user_id: int
    action: str
    reason: str
    until: datetime | None = None


@dataclass(frozen=True, kw_only=True)
class FairPlayDecided(Event):
    """A fair-play case decided against a player who keeps their account (``decision``:
    ``remove``, from the leaderboards), with the moderator's reason."""

    publisher: ClassVar[str] = "games.fairplay"

    user_id: int
    decision: str
    reason: str



@dataclass(frozen=True, kw_only=True)
class PlayerBanned(Event):
    """A moderator banned a player (their account can no longer log in or play)."""

    publisher: ClassVar[str] = "accounts"

    user_id: int
    reason: str
    banned_by_id: int


@dataclass(frozen=True, kw_only=True)
class AccountClosed(Event):
    """A player deleted their account (its matches and scores stay)."""

    publisher: ClassVar[str] = "accounts"

    user_id: int


# --- the bus ----------------------------------------------------------------------------

E = TypeVar("E", bound=Event)
Handler = Callable[[Any], object]


@dataclass(frozen=True)
class Subscription:
    event: type[Event]
    handler: Handler
    phase: Phase

    @property
    def name(self) -> str:
        """``module.function`` of the handler (how logs and tests name it)."""
        return f"{self.handler.__module__}.{getattr(self.handler, '__qualname__', '?')}"


_subscriptions: dict[type[Event], list[Subscription]] = {}


def subscribe(event_type: type[E], handler: Callable[[E], object], phase: Phase) -> None:
    """Run ``handler(event)`` for every ``event_type`` published, in ``phase``. Called
    from an ``AppConfig.ready()``; subscribing the same handler again changes nothing."""
    if not (isinstance(event_type, type) and issubclass(event_type, Event)):
        raise TypeError(f"{event_type!r} is not an event of games/events.py")
    if phase not in PHASES:
        raise ValueError(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")
    subscriptions = _subscriptions.setdefault(event_type, [])
    if any(s.handler == handler for s in subscriptions):
        return
    subscriptions.append(Subscription(event_type, handler, phase))


def unsubscribe(event_type: type[Event], handler: Handler) -> None:
    """Stop running ``handler`` for ``event_type`` (tests; nothing if it never ran)."""
    _subscriptions[event_type] = [
        s for s in _subscriptions.get(event_type, []) if s.handler != handler
    ]


def subscribers(event_type: type[Event]) -> list[Subscription]:
    """Who hears ``event_type``, in the order they run (per phase)."""
    return list(_subscriptions.get(event_type, []))


def publish(event: Event) -> None:
    """Tell the subscribers of ``type(event)``: the ``in_transaction`` ones now (an
    exception propagates and rolls the caller's transaction back), the
    ``after_commit`` ones once it commits. Called inside the transaction that made the
    change; outside one (autocommit: each statement committed on its own, nothing left
    to roll back) the ``after_commit`` ones run at once after the others, as Django
    runs ``on_commit`` there."""
    subscriptions = _subscriptions.get(type(event), [])
    for s in subscriptions:
        if s.phase == IN_TRANSACTION:
            s.handler(event)
    for s in subscriptions:
        if s.phase == AFTER_COMMIT:
            transaction.on_commit(partial(_after_commit, s, event))


def _after_commit(subscription: Subscription, event: Event) -> None:
    try:
        subscription.handler(event)
    except Exception:
        logger.exception(
            "after-commit subscriber %s failed on %r", subscription.name, event,
            extra={"fields": {"event": type(event).__name__, "subscriber": subscription.name}},
        )
