"""Writes of the tournaments app: creating, joining, leaving, starting, pairing,
recording results, finishing, cancelling; the admin's moderation; the schedules.

Locks and idempotence. Every write that pairs or changes the course of a tournament
locks its row first (``_lock``): two workers running the same task (a redelivery, a
beat tick racing a match-finish task) run one after the other, and the second finds
nothing left to do (waiting players are no longer waiting, the round is no longer
finished). The unique constraints of ``games.tournaments.models`` back this up. A match's
result is recorded by ``match_finished`` inside the transaction that finishes the
match (under its lock), once: the pairing's ``finished`` flag is checked and set
there. Lock order is always: match, then tournament, then entrants; the tasks that
end matches (the Swiss round deadline) take no tournament lock while doing so.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Field, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import RuleSet
from games.errors import NotAPlayerError, ServiceError
from games.models import Match, Seat
from games.services import fairplay
from games.services.matches import create_started_matches, match_forfeit, require_registered
from leaderboards.models import Rating

from . import broadcast, selectors
from .core import pairing as core_pairing
from .core import recurrence, scoring
from .errors import TournamentError
from .models import (
    Entrant,
    Format,
    Pairing,
    Round,
    Tournament,
    TournamentEvent,
    TournamentSchedule,
)

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

#: Limits on tournaments created by players (staff schedules are not limited).
PLAYER_MAX_PLAYERS = 100
PLAYER_MAX_MINUTES = 120
PLAYER_MAX_ROUNDS = 9
PLAYER_MAX_AHEAD = timedelta(days=14)
ARENA_MINUTES = (15, 30, 45, 60, 90, 120)
#: An arena player paired this many times in a row without showing up is paused.
ARENA_MISSES_BEFORE_PAUSE = 2


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _event(tournament: Tournament, kind: str, detail: str = "", *, actor: User | None = None,
           now: datetime | None = None) -> None:
    TournamentEvent.objects.create(
        tournament=tournament, kind=kind, detail=detail[:300], at=_now(now), actor=actor,
    )


def audit(tournament: Tournament, kind: str, detail: str = "", *,
          actor: User | None = None) -> None:
    """Add a line to the tournament's audit trail (the admin's own edits)."""
    _event(tournament, kind, detail, actor=actor)


def _lock(tournament_id: int) -> Tournament:
    found = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if found is None:
        raise TournamentError(_("This tournament does not exist."), "no_such_tournament")
    return found


def tournament_rules(tournament: Tournament) -> RuleSet:
    """The tournament format's rules: the variant's preset with its target and clock."""
    return replace(RuleSet.preset(tournament.variant), target_score=tournament.target_score,
                   turn_seconds=tournament.turn_seconds)


# --- creating ---------------------------------------------------------------------------

def tournament_create(
    *, user: User | None, name: str, format: str, starts_at: datetime, variant: str = "default",
    target_score: int = 50, turn_seconds: int | None = 30, duration_minutes: int = 60,
    rounds: int = 5, round_minutes: int = 30, max_players: int = 50, public: bool = True,
    staff: bool = False, schedule: TournamentSchedule | None = None,
    now: datetime | None = None,
) -> Tournament:
    """A new tournament, public or private (``invite_token``), created by ``user`` (None:
    a staff schedule's); players' tournaments are limited in size, length and how far
    ahead they start."""
    now = _now(now)
    if not staff:
        if user is None:
            raise NotAPlayerError(_("Sign in to play."))  # as require_registered says it
        require_registered(user)
    name = " ".join(str(name or "").split())
    if not name or len(name) > 80:
        raise TournamentError(_("Give the tournament a name of 1 to 80 characters."), "bad_name")
    if format not in Format.values:
        raise TournamentError(_("Choose arena or Swiss."), "bad_format")
    try:
        rules = replace(RuleSet.preset(variant), target_score=target_score,
                        turn_seconds=turn_seconds)
    except (ValueError, TypeError) as error:
        raise TournamentError(f"Invalid match format: {error}.", "bad_rules") from error
    if starts_at < now - timedelta(minutes=1):
        raise TournamentError(_("The start must not be in the past."), "bad_start")
    if not 2 <= max_players <= (100_000 if staff else PLAYER_MAX_PLAYERS):
        raise TournamentError(
            _("Allow 2 to %(most)s players.") % {"most": PLAYER_MAX_PLAYERS}, "bad_size"
        )
    if format == Format.ARENA and not 1 <= duration_minutes <= (
            10_000 if staff else PLAYER_MAX_MINUTES):
        raise TournamentError(
            _("An arena lasts 1 to %(most)s minutes.") % {"most": PLAYER_MAX_MINUTES},
            "bad_duration",
        )
    if format == Format.SWISS and not 1 <= rounds <= (50 if staff else PLAYER_MAX_ROUNDS):
        raise TournamentError(
            _("A Swiss has 1 to %(most)s rounds.") % {"most": PLAYER_MAX_ROUNDS}, "bad_rounds"
        )
    if not 1 <= round_minutes <= 240:
        raise TournamentError(_("A Swiss round lasts 1 to 240 minutes."), "bad_round_minutes")
    if not staff and starts_at > now + PLAYER_MAX_AHEAD:
        raise TournamentError(_("Start it within two weeks."), "bad_start")
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name, format=format, variant=variant, target_score=rules.target_score,
            turn_seconds=rules.turn_seconds, starts_at=starts_at,
            duration_minutes=duration_minutes, rounds=rounds, round_minutes=round_minutes,
            max_players=max_players, public=public,
            invite_token=None if public else secrets.token_urlsafe(16),
            created_by=user,
            schedule=schedule,
        )
        _event(tournament, "created", f"{format}, starts {starts_at:%Y-%m-%d %H:%M} UTC",
               actor=user, now=now)
    return tournament


def tournament_create_and_join(*, user: User, now: datetime | None = None,
                               **fields: Any) -> Tournament:
    """A player's new tournament with its creator in it, in one transaction: a creator
    who may not enter it (banned from rated play, say) is refused before anything is
    written, and a refused entry leaves no tournament behind. ``fields``: those of
    ``tournament_create``."""
    now = _now(now)
    require_registered(user)
    fairplay.require_rated_play_allowed(user, now)
    with transaction.atomic():
        tournament = tournament_create(user=user, now=now, **fields)
        tournament_join(tournament=tournament, user=user, token=tournament.invite_token,
                        now=now)
    return tournament


def schedules_create_due(*, now: datetime | None = None) -> int:
    """Create the instances of every active schedule that start within its
    ``create_ahead_hours`` (beat runs this); returns how many were created. Running it
    again creates nothing more (one instance per schedule and start time)."""
    now = _now(now)
    created = 0
    for schedule in TournamentSchedule.objects.filter(active=True):
        rule = recurrence.Recurrence(schedule.kind, schedule.hour, schedule.minute,
                                     schedule.weekday, schedule.nth)
        horizon = now + timedelta(hours=schedule.create_ahead_hours)
        for starts_at in recurrence.occurrences(rule, now, horizon):
            if Tournament.objects.filter(schedule=schedule, starts_at=starts_at).exists():
                continue
            try:
                with transaction.atomic():
                    tournament_create(
                        user=None, staff=True, schedule=schedule, name=schedule.name,
                        format=schedule.format, starts_at=starts_at, variant=schedule.variant,
                        target_score=schedule.target_score, turn_seconds=schedule.turn_seconds,
                        duration_minutes=schedule.duration_minutes, rounds=schedule.rounds,
                        round_minutes=schedule.round_minutes, max_players=schedule.max_players,
                        now=now,
                    )
                created += 1
            except IntegrityError:
                continue  # another worker created it meanwhile
    return created


# --- entering and leaving -----------------------------------------------------------------

def _rating_of(user: User) -> float:
    value = Rating.objects.filter(user=user).values_list("rating", flat=True).first()
    return float(value) if value is not None else 1500.0


def tournament_join(*, tournament: Tournament, user: User, token: str | None = None,
                    now: datetime | None = None) -> Entrant:
    """Enter (or come back to) a tournament. Arena: until its end; Swiss: before it
    starts. A private tournament needs its invite token."""
    now = _now(now)
    require_registered(user)
    fairplay.require_rated_play_allowed(user, now)
    with transaction.atomic():
        t = _lock(tournament.pk)
        if not t.public and token != t.invite_token and t.created_by_id != user.pk:
            raise TournamentError(_("This tournament is private: open its invite link."),
                                  "private")
        if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentError(_("This tournament is over."), "tournament_over")
        if t.status == Tournament.Status.LIVE and (
                t.format == Format.SWISS or (t.ends_at and now >= t.ends_at)):
            raise TournamentError(_("It is too late to join this tournament."), "too_late")
        entrant = Entrant.objects.filter(tournament=t, user=user).first()
        if entrant is not None:
            if entrant.status == Entrant.Status.REMOVED:
                raise TournamentError(_("You were removed from this tournament."), "removed")
            if entrant.status != Entrant.Status.ACTIVE:
                entrant.status = Entrant.Status.ACTIVE
                entrant.missed = 0
                if t.status == Tournament.Status.LIVE and not _playing(entrant):
                    entrant.waiting_since = now
                entrant.save(update_fields=["status", "missed", "waiting_since"])
                _event(t, "rejoined", user.username, actor=user, now=now)
                _changed(t)
                if t.status == Tournament.Status.LIVE:
                    _after_commit_pair(t.pk)
            return entrant
        if Entrant.objects.filter(tournament=t).count() >= t.max_players:
            raise TournamentError(_("This tournament is full."), "full")
        entrant = Entrant.objects.create(
            tournament=t, user=user, rating=_rating_of(user),
            waiting_since=now if t.status == Tournament.Status.LIVE else None,
        )
        _event(t, "joined", user.username, actor=user, now=now)
        _changed(t)
    if t.status == Tournament.Status.LIVE:
        _after_commit_pair(t.pk)
    return entrant


def _playing(entrant: Entrant) -> bool:
    return Pairing.objects.filter(
        Q(seat0=entrant) | Q(seat1=entrant), finished=False, tournament_id=entrant.tournament_id
    ).exists()


def _entrant_of(t: Tournament, user: User) -> Entrant:
    entrant = Entrant.objects.filter(tournament=t, user=user).first()
    if entrant is None:
        raise TournamentError(_("You are not in this tournament."), "not_entered")
    return entrant


def tournament_withdraw(*, tournament: Tournament, user: User,
                        now: datetime | None = None) -> Entrant:
    """Leave: no more pairings (a match in play goes on and counts). Before the start,
    the entry is simply removed."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament.pk)
        entrant = _entrant_of(t, user)
        if t.status == Tournament.Status.SCHEDULED:
            entrant.delete()
            _event(t, "left", user.username, actor=user, now=now)
            _changed(t)
            return entrant
        if entrant.status == Entrant.Status.ACTIVE or entrant.status == Entrant.Status.PAUSED:
            entrant.status = Entrant.Status.WITHDRAWN
            entrant.waiting_since = None
            entrant.save(update_fields=["status", "waiting_since"])
            _event(t, "withdrew", user.username, actor=user, now=now)
            _changed(t)
    return entrant


def tournament_pause(*, tournament: Tournament, user: User, now: datetime | None = None) -> Entrant:
    """Arena: stop being paired for a while (come back with ``tournament_join``)."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament.pk)
        if t.format != Format.ARENA:
            raise TournamentError(_("Only an arena can be paused; withdraw instead."), "not_arena")
        entrant = _entrant_of(t, user)
        if entrant.status == Entrant.Status.ACTIVE:
            entrant.status = Entrant.Status.PAUSED
            entrant.waiting_since = None
            entrant.save(update_fields=["status", "waiting_since"])
            _event(t, "paused", user.username, actor=user, now=now)
            _changed(t)
    return entrant


# --- staff moderation ----------------------------------------------------------------------

def tournament_cancel(*, tournament: Tournament, staff: User, reason: str = "",
                      now: datetime | None = None) -> Tournament:
    """Staff cancel a tournament: no more pairings; matches in play are still played
    but count for nothing here."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament.pk)
        if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            return t
        t.status = Tournament.Status.CANCELLED
        t.finished_at = now
        t.standings_version += 1
        t.save(update_fields=["status", "finished_at", "standings_version"])
        Entrant.objects.filter(tournament=t).update(waiting_since=None)
        _event(t, "cancelled", reason, actor=staff, now=now)
    broadcast.standings_on_commit(t.pk)
    return t


def entrant_remove(*, entrant: Entrant, staff: User, reason: str = "",
                   now: datetime | None = None) -> Entrant:
    """Staff remove a player: never paired again here, and cannot rejoin."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(entrant.tournament_id)
        entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
        entrant.status = Entrant.Status.REMOVED
        entrant.waiting_since = None
        entrant.save(update_fields=["status", "waiting_since"])
        _event(t, "removed", f"{entrant.user.username}: {reason}", actor=staff, now=now)
        _changed(t)
    return entrant


# --- the course of a tournament ------------------------------------------------------------

def _changed(t: Tournament) -> None:
    """The standings changed (the tournament row is locked): publish after commit."""
    Tournament.objects.filter(pk=t.pk).update(standings_version=t.standings_version + 1)
    t.standings_version += 1
    broadcast.standings_on_commit(t.pk)


def _after_commit_pair(tournament_id: int) -> None:
    from . import tasks

    transaction.on_commit(lambda: tasks.enqueue_progress(tournament_id), robust=True)


def tournament_start(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Start a due tournament (idempotent: False if it is not due or already started)."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status != Tournament.Status.SCHEDULED or t.starts_at > now:
            return False
        active = Entrant.objects.filter(tournament=t, status=Entrant.Status.ACTIVE)
        if active.count() < 2:
            t.status = Tournament.Status.CANCELLED
            t.finished_at = now
            t.save(update_fields=["status", "finished_at"])
            _event(t, "cancelled", "fewer than two players at the start", now=now)
            _changed(t)
            return True
        t.status = Tournament.Status.LIVE
        t.started_at = now
        if t.format == Format.ARENA:
            t.ends_at = now + timedelta(minutes=t.duration_minutes)
            active.update(waiting_since=now)
        t.save(update_fields=["status", "started_at", "ends_at"])
        _event(t, "started", f"{active.count()} players", now=now)
        _changed(t)
        if t.format == Format.SWISS:
            _swiss_next_round(t, now)
        else:
            _arena_pass(t, now)
    return True


def arena_pair(*, tournament_id: int, now: datetime | None = None) -> list[Pairing]:
    """One pairing pass of a live arena: the players waiting in the pool are paired
    (``core.pairing.arena_pairs``) and their matches started. Returns the new pairings
    (none if the arena is not live, has ended, or fewer than two wait)."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament_id)
        return _arena_pass(t, now)


#: The most matches one arena pass starts. The start of a big arena (500 waiting: 250
#: matches) goes in slices, each its own short transaction followed by the next pass
#: (the ``progress`` task): the first players are told in a fraction of a second, and
#: the tournament's row (which every result and join locks) is never held for long.
ARENA_PASS_PAIRS = 25


def _arena_pass(t: Tournament, now: datetime) -> list[Pairing]:
    if t.format != Format.ARENA or t.status != Tournament.Status.LIVE:
        return []
    if t.ends_at is not None and now >= t.ends_at:
        return []
    waiting = list(
        Entrant.objects.filter(tournament=t, status=Entrant.Status.ACTIVE,
                               waiting_since__isnull=False)
        .select_related("user").order_by("waiting_since", "pk")
    )
    if len(waiting) < 2:
        return []
    by_id = {e.pk: e for e in waiting}
    pairs = core_pairing.arena_pairs([
        core_pairing.Waiting(e.pk, e.points, e.rating, e.last_opponent_id, since.timestamp())
        for e in waiting
        if (since := e.waiting_since) is not None  # always, by the query
    ])
    if len(pairs) > ARENA_PASS_PAIRS:
        pairs = pairs[:ARENA_PASS_PAIRS]  # the top of the pool now, the rest right after
        _after_commit_pair(t.pk)
    started = _start_pairings(t, [(by_id[a], by_id[b]) for a, b in pairs], None, now)
    if started:
        _changed(t)  # the live matches of the standings message
    return started


def _start_pairings(t: Tournament, pairs: list[tuple[Entrant, Entrant]],
                    round_number: int | None, now: datetime) -> list[Pairing]:
    """Start a match for each pair (seats drawn at random) and record the pairings, in a
    fixed handful of statements whatever the number of pairs; both players of each are
    told after commit (``match_ready``)."""
    if not pairs:
        return []
    seated = [(a, b) if secrets.randbelow(2) else (b, a) for a, b in pairs]
    matches = create_started_matches(
        kind=Match.Kind.QUICK, variant=t.variant, rules=tournament_rules(t), rated=True,
        pairs=[(a.user, b.user) for a, b in seated], tournament_id=t.pk, now=now)
    pairings = Pairing.objects.bulk_create([
        Pairing(tournament=t, round=round_number, seat0=a, seat1=b, match=match,
                created_at=now)
        for (a, b), match in zip(seated, matches, strict=True)
    ])
    for a, b in seated:
        for me, other in ((a, b), (b, a)):
            me.waiting_since = None
            me.last_opponent = other
    _mark_paired({me.pk: other.pk for a, b in seated for me, other in ((a, b), (b, a))})
    broadcast.matches_ready_on_commit(t.pk, [
        ([a.user_id, b.user_id], match.pk) for (a, b), match in zip(seated, matches, strict=True)
    ])
    return pairings


def _mark_paired(opponents: dict[int, int]) -> None:
    """Each paired entrant (id -> its opponent's id) stops waiting and remembers its
    opponent, in one UPDATE with a plain SQL ``CASE`` (PostgreSQL and SQLite alike):
    ``bulk_update`` builds a Django expression per row, costly for the hundreds of
    entrants of an arena's start (measured: docs/benchmarks-log.md, last section)."""
    if not opponents:
        return
    table = connection.ops.quote_name(Entrant._meta.db_table)
    pk, waiting, last = (_column(name) for name in ("id", "waiting_since", "last_opponent"))
    cases = " ".join(["WHEN %s THEN %s"] * len(opponents))
    ids = ", ".join(["%s"] * len(opponents))
    params: list[int] = [value for pair in opponents.items() for value in pair]
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET {waiting} = NULL, {last} = CASE {pk} {cases} END "
                       f"WHERE {pk} IN ({ids})", [*params, *opponents])


def _column(name: str) -> str:
    """The quoted column of one of Entrant's concrete fields."""
    field = Entrant._meta.get_field(name)
    assert isinstance(field, Field) and field.column  # concrete, by the names above
    return connection.ops.quote_name(field.column)


def _swiss_next_round(t: Tournament, now: datetime) -> Round | None:
    """Pair the next Swiss round (the tournament row is locked and the current round is
    over), or finish the tournament after its last round."""
    if t.current_round >= t.rounds:
        _finish(t, now)
        return None
    entrants = list(Entrant.objects.filter(tournament=t, status=Entrant.Status.ACTIVE)
                    .select_related("user"))
    opponents: dict[int, set[int]] = {e.pk: set() for e in entrants}
    had_bye: set[int] = set()
    for s0, s1 in Pairing.objects.filter(tournament=t).values_list("seat0_id", "seat1_id"):
        if s1 is None:
            had_bye.add(s0)
            continue
        opponents.setdefault(s0, set()).add(s1)
        opponents.setdefault(s1, set()).add(s0)
    if len(entrants) < 2:
        _finish(t, now)
        return None
    try:
        pairs, bye = core_pairing.swiss_pairs([
            core_pairing.SwissPlayer(e.pk, e.points, e.rating, frozenset(opponents[e.pk]),
                                     e.pk in had_bye)
            for e in entrants
        ])
    except core_pairing.NoPairing as error:
        _event(t, "no_pairing", f"round {t.current_round + 1}: {error}", now=now)
        _finish(t, now)
        return None
    number = t.current_round + 1
    rnd = Round.objects.create(tournament=t, number=number, started_at=now,
                               deadline=now + timedelta(minutes=t.round_minutes))
    t.current_round = number
    t.save(update_fields=["current_round"])
    by_id = {e.pk: e for e in entrants}
    _start_pairings(t, [(by_id[a], by_id[b]) for a, b in pairs], number, now)
    if bye is not None:
        entrant = by_id[bye]
        Pairing.objects.create(tournament=t, round=number, seat0=entrant, seat1=None,
                               winner=entrant, points0=scoring.SWISS_BYE, finished=True,
                               created_at=now, finished_at=now)
        entrant.points += scoring.SWISS_BYE
        entrant.byes += 1
        entrant.save(update_fields=["points", "byes"])
    _event(t, "round_started", f"round {number}: {len(pairs)} matches"
           + (f", bye {by_id[bye].user.username}" if bye is not None else ""), now=now)
    _changed(t)
    return rnd


def tournament_progress(*, tournament_id: int, now: datetime | None = None) -> str:
    """Move a tournament on as far as it can go now (the one task behind beat's tick
    and every finished match): start it when due; arena: pair the pool, stop pairing
    at the end and finish once the last match ended; Swiss: start the next round once
    the current one is over (or finish). Idempotent. Returns what it did."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status == Tournament.Status.SCHEDULED:
            pass
        elif t.status != Tournament.Status.LIVE:
            return "idle"
        elif t.format == Format.ARENA:
            if t.ends_at is not None and now >= t.ends_at:
                Entrant.objects.filter(tournament=t, waiting_since__isnull=False).update(
                    waiting_since=None)
                if not Pairing.objects.filter(tournament=t, finished=False).exists():
                    _finish(t, now)
                    return "finished"
                return "ending"
            return f"paired {len(_arena_pass(t, now))}"
        else:
            if Pairing.objects.filter(tournament=t, finished=False).exists():
                return "round in play"
            Round.objects.filter(tournament=t, number=t.current_round,
                                 finished_at__isnull=True).update(finished_at=now)
            rnd = _swiss_next_round(t, now)
            return f"round {rnd.number}" if rnd else "finished"
    if tournament_start(tournament_id=tournament_id, now=now):
        return "started"
    return "idle"


def swiss_deadline(*, tournament_id: int, now: datetime | None = None) -> int:
    """At a Swiss round's deadline, decide each unfinished match by the clock rules:
    the player behind on points loses; level, the player whose turn it is loses (their
    time ran out). Returns how many were decided. Takes no tournament lock while ending
    matches (lock order: match first)."""
    now = _now(now)
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None or t.format != Format.SWISS or t.status != Tournament.Status.LIVE:
        return 0
    rnd = Round.objects.filter(tournament=t, number=t.current_round).first()
    if rnd is None or rnd.deadline > now:
        return 0
    decided = 0
    match_ids = Pairing.objects.filter(tournament=t, round=rnd.number, finished=False,
                                       match__isnull=False).values_list("match_id", flat=True)
    for match_id in list(match_ids):
        with transaction.atomic():
            match = Match.objects.select_for_update().filter(
                pk=match_id, status=Match.Status.ACTIVE).first()
            if match is None:
                continue
            seats = list(Seat.objects.filter(match=match).select_related("user"))
            scores = [s.score for s in seats]
            if scores[0] != scores[1]:
                loser = seats[0] if scores[0] < scores[1] else seats[1]
            else:
                loser = seats[match.current_seat if match.current_seat is not None else 0]
            assert loser.user is not None  # a tournament seats only people
            try:
                match_forfeit(match=match, user=loser.user, reason=Match.EndReason.RESIGN)
            except ServiceError:
                continue
            _event(t, "deadline", f"match {match_id} decided at the round deadline: "
                   f"{loser.user.username} loses", now=now)
            decided += 1
    return decided


# --- results --------------------------------------------------------------------------------

def match_finished(match: Match, seats: list[Seat]) -> None:
    """Record the result of a tournament match, inside the transaction that finished it
    (called by the games app for every finished match; one indexed read for the others).
    Exactly once: the pairing is locked and its ``finished`` flag checked."""
    pairing = (Pairing.objects.select_for_update().filter(match_id=match.pk, finished=False)
               .first())
    if pairing is None:
        return
    t = _lock(pairing.tournament_id)
    now = match.finished_at or timezone.now()
    if t.status not in (Tournament.Status.LIVE,):
        pairing.finished = True
        pairing.finished_at = now
        pairing.save(update_fields=["finished", "finished_at"])
        return
    entrants = {e.pk: e for e in Entrant.objects.select_for_update(of=("self",))
                .select_related("user").filter(
        pk__in=[pairing.seat0_id, pairing.seat1_id])}
    assert pairing.seat1_id is not None  # a bye has no match: it is finished when made
    winner_user = seats[match.winner_seat].user_id if match.winner_seat is not None else None
    seat0, seat1 = entrants[pairing.seat0_id], entrants[pairing.seat1_id]
    winner, loser = (seat0, seat1) if seat0.user_id == winner_user else (seat1, seat0)
    no_show = match.end_reason == Match.EndReason.ABANDON
    if t.format == Format.ARENA:
        win_points = scoring.arena_win_points(winner.streak)
        winner.streak += 1
        loser.streak = 0
        lose_points = scoring.ARENA_LOSS
    else:
        win_points, lose_points = scoring.SWISS_WIN, 0
    winner.points += win_points
    winner.wins += 1
    loser.points += lose_points
    loser.losses += 1
    pairing.winner = winner
    pairing.points0, pairing.points1 = ((win_points, lose_points) if winner is seat0
                                        else (lose_points, win_points))
    pairing.finished = True
    pairing.finished_at = now
    pairing.save(update_fields=["winner", "points0", "points1", "finished", "finished_at"])
    winner.missed = 0
    loser.missed = loser.missed + 1 if no_show else 0
    arena_open = t.format == Format.ARENA and (t.ends_at is None or now < t.ends_at)
    for entrant in (winner, loser):
        if t.format == Format.ARENA and entrant.missed >= ARENA_MISSES_BEFORE_PAUSE \
                and entrant.status == Entrant.Status.ACTIVE:
            entrant.status = Entrant.Status.PAUSED
            _event(t, "paused", f"{entrant.user.username}: missed two pairings in a row",
                   now=now)
        if t.format == Format.SWISS and entrant is loser and no_show \
                and entrant.status == Entrant.Status.ACTIVE:
            entrant.status = Entrant.Status.WITHDRAWN
            _event(t, "withdrawn", f"{entrant.user.username}: did not turn up", now=now)
        entrant.waiting_since = now if arena_open and entrant.status == Entrant.Status.ACTIVE \
            else None
    Entrant.objects.bulk_update([winner, loser], ["points", "wins", "losses", "streak",
                                                  "missed", "status", "waiting_since"])
    _changed(t)
    _after_commit_pair(t.pk)


def _finish(t: Tournament, now: datetime) -> None:
    """Final ranks and the podium (the tournament row is locked)."""
    rows = selectors.standings_rows(t)
    ranks = {row.player: row.rank for row in rows}
    entrants = list(Entrant.objects.filter(tournament=t))
    tiebreaks = {row.player: row.tiebreaks for row in rows}
    for entrant in entrants:
        entrant.rank = ranks.get(entrant.pk)
        tb = tiebreaks.get(entrant.pk, [])
        entrant.tiebreak1 = tb[0] if len(tb) > 0 else 0
        entrant.tiebreak2 = tb[1] if len(tb) > 1 else 0
        entrant.waiting_since = None
    Entrant.objects.bulk_update(entrants, ["rank", "tiebreak1", "tiebreak2", "waiting_since"])
    t.status = Tournament.Status.FINISHED
    t.finished_at = now
    t.save(update_fields=["status", "finished_at"])
    Round.objects.filter(tournament=t, finished_at__isnull=True).update(finished_at=now)
    _event(t, "finished", f"{len(entrants)} players", now=now)
    _changed(t)


def tournaments_tick(*, now: datetime | None = None) -> dict[str, int]:
    """Beat's tick (every second): start the tournaments that are due, run a pairing
    pass of each live arena, end arenas at their time, decide Swiss matches past their
    round deadline and start the rounds that are over; publish standings not yet sent.
    Each tournament is handled on its own: one failing is logged, the others go on."""
    now = _now(now)
    counts = {"checked": 0, "decided": 0}
    due = Tournament.objects.filter(
        Q(status=Tournament.Status.LIVE)
        | Q(status=Tournament.Status.SCHEDULED, starts_at__lte=now)
    ).values_list("pk", "format")
    for tournament_id, fmt in list(due):
        counts["checked"] += 1
        try:
            if fmt == Format.SWISS:
                counts["decided"] += swiss_deadline(tournament_id=tournament_id, now=now)
            tournament_progress(tournament_id=tournament_id, now=now)
        except Exception:
            logger.exception("tournament %s: tick failed", tournament_id)
    broadcast.publish_pending(now=now)
    return counts
