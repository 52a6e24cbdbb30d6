"""Reads of the tournaments app: lists, standings, pairings, the player's own match,
the Watch page's live matches and a profile's results. Nothing here shows a card:
matches are listed by id, players and scores only.

The standings message (ranks, points, streaks, live matches) is computed once per
``standings_version`` of a tournament (every write that changes it bumps the version,
games/tournaments/services.py): its JSON text is kept in the shared cache under the
tournament's id, creation time and version, and in a small memo of this process, so
the page, every socket's opening message and the broadcast read the same text
instead of ranking the entrants again for each request and socket. A version is
read before the rows it describes, so a cached text is never older than its version.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.db.models import Count, F, Max, Q, Value
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone

from games.models import Match, Seat

from .core import scoring
from .models import Entrant, Format, Pairing, Round, Tournament, TournamentEvent

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

#: Rows of the standings sent over the socket and shown on the page.
STANDINGS_ROWS = 100


def tournament_lists(
    *, user: User | AnonymousUser, now: datetime | None = None
) -> dict[str, list[Tournament]]:
    """Upcoming, live and recently finished public tournaments (and the viewer's own
    private ones), with their entrant counts."""
    now = now or timezone.now()
    visible = Q(public=True)
    if user.is_authenticated:
        visible |= Q(created_by=user) | Q(entrants__user=user)
    base = (Tournament.objects.filter(visible).distinct()
            .annotate(players=Count("entrants", distinct=True)))
    return {
        "live": list(base.filter(status=Tournament.Status.LIVE).order_by("starts_at")[:50]),
        "upcoming": list(base.filter(status=Tournament.Status.SCHEDULED)
                         .order_by("starts_at")[:50]),
        "finished": list(base.filter(status=Tournament.Status.FINISHED)
                         .order_by("-finished_at")[:20]),
    }


def can_view(*, tournament: Tournament, user: User | AnonymousUser, token: str | None) -> bool:
    if tournament.public or token == tournament.invite_token:
        return True
    if not user.is_authenticated:
        return False
    return (tournament.created_by_id == user.pk or user.is_staff
            or Entrant.objects.filter(tournament=tournament, user=user).exists())


def chat_may_read(*, user: User, tournament_id: int) -> bool:
    """The tournament's chat room: signed-in users who may see the tournament."""
    if not user.is_authenticated:
        return False
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return tournament is not None and can_view(tournament=tournament, user=user, token=None)


def chat_may_write(*, user: User, tournament_id: int) -> bool:
    """Writing there: its players (not removed by staff), its creator and staff."""
    if not user.is_authenticated:
        return False
    if user.is_staff or Tournament.objects.filter(pk=tournament_id, created_by=user).exists():
        return True
    return (Entrant.objects.filter(tournament_id=tournament_id, user=user)
            .exclude(status=Entrant.Status.REMOVED).exists())



def tournament_get(*, tournament_id: int) -> Tournament | None:
    """The tournament of that id, or None."""
    return Tournament.objects.filter(pk=tournament_id).first()


@dataclass
class Standing:
    row: scoring.Row
    name: str
    status: str
    streak: int
    on_fire: bool
    user_id: int


def standings_rows(tournament: Tournament) -> list[scoring.Row]:
    """Ranked rows (``player`` = entrant id). Arena: points, then fewer losses, then
    rating (``tiebreaks`` = [losses]); Swiss: points, Buchholz, Sonneborn-Berger."""
    entrants = list(Entrant.objects.filter(tournament=tournament)
                    .values("pk", "points", "wins", "losses", "byes", "rating"))
    if tournament.format == Format.SWISS:
        games = [
            scoring.Game(s0, s1, w if (finished or s1 is None) else None)
            for s0, s1, w, finished in Pairing.objects.filter(tournament=tournament)
            .order_by("pk").values_list("seat0_id", "seat1_id", "winner_id", "finished")
        ]
        return scoring.swiss_standings([e["pk"] for e in entrants], games,
                                       {e["pk"]: e["rating"] for e in entrants})
    return scoring.arena_standings([
        scoring.Row(player=e["pk"], points=e["points"], wins=e["wins"], losses=e["losses"],
                    byes=e["byes"], rating=e["rating"])
        for e in entrants
    ])


def standings(tournament: Tournament, *, limit: int | None = STANDINGS_ROWS) -> list[Standing]:
    rows = standings_rows(tournament)
    if limit is not None:
        rows = rows[:limit]
    info = {e["pk"]: e for e in Entrant.objects.filter(pk__in=[r.player for r in rows])
            .values("pk", "status", "streak", "user_id", "user__username", "user__is_bot")}
    result = []
    for row in rows:
        e = info[row.player]
        name = f"BOT {e['user__username']}" if e["user__is_bot"] else e["user__username"]
        result.append(Standing(row=row, name=name, status=e["status"], streak=e["streak"],
                               on_fire=tournament.format == Format.ARENA
                               and e["streak"] >= scoring.ARENA_STREAK_FROM,
                               user_id=e["user_id"]))
    return result


def live_pairings(tournament: Tournament) -> list[dict[str, Any]]:
    """The tournament's matches in play, for "watch"."""
    rows = (Pairing.objects.filter(tournament=tournament, finished=False, match__isnull=False)
            .values("match_id", "round", "seat0__user__username", "seat1__user__username")
            .order_by("pk"))
    return [{"match_id": r["match_id"], "round": r["round"],
             "players": [r["seat0__user__username"], r["seat1__user__username"]],
             "url": reverse("games:table", kwargs={"match_id": r["match_id"]})}
            for r in rows[:50]]


def _standings_message(tournament: Tournament) -> dict[str, Any]:
    return {
        "type": "standings",
        "version": tournament.standings_version,
        "status": tournament.status,
        "round": tournament.current_round,
        "ends_at": tournament.ends_at.isoformat() if tournament.ends_at else None,
        "players": Entrant.objects.filter(tournament=tournament).count(),
        "rows": [
            {"rank": s.row.rank, "player": s.name, "points": s.row.points, "wins": s.row.wins,
             "losses": s.row.losses, "byes": s.row.byes, "tiebreaks": s.row.tiebreaks,
             "streak": s.streak, "fire": s.on_fire, "status": s.status}
            for s in standings(tournament)
        ],
        "live": live_pairings(tournament),
        "pairings": [
            {"seat0": p.seat0, "seat1": p.seat1, "winner": p.winner, "finished": p.finished,
             "url": p.url}
            for p in round_pairings(tournament=tournament, number=tournament.current_round)
        ] if tournament.format == Format.SWISS and tournament.current_round else [],
    }


#: How long the shared cache keeps a version's text (a newer version replaces it
#: in use at once; this only bounds the memory of old ones).
STANDINGS_CACHE_SECONDS = 6 * 3600
#: Versions kept in this process's memo (a few live tournaments' current texts).
STANDINGS_MEMO_SIZE = 64
_memo: OrderedDict[str, tuple[str, dict[str, Any]]] = OrderedDict()
_memo_lock = threading.Lock()


def _standings_key(tournament: Tournament) -> str:
    # The creation time as well as the id: a fresh database (tests) reuses ids.
    return (f"tournament-standings:{tournament.pk}:{tournament.created_at.timestamp():.6f}"
            f":{tournament.standings_version}")


def _standings_cached(tournament: Tournament) -> tuple[str, dict[str, Any]]:
    key = _standings_key(tournament)
    with _memo_lock:
        found = _memo.get(key)
        if found is not None:
            _memo.move_to_end(key)
            return found
    text = cache.get(key)
    if isinstance(text, str):
        message = json.loads(text)
    else:
        message = _standings_message(tournament)
        text = json.dumps(message)
        cache.set(key, text, STANDINGS_CACHE_SECONDS)
    with _memo_lock:
        _memo[key] = (text, message)
        while len(_memo) > STANDINGS_MEMO_SIZE:
            _memo.popitem(last=False)
    return text, message


def standings_text(tournament: Tournament) -> str:
    """The socket's ``standings`` message of the tournament's current version as JSON
    text (docs/protocol.md, "Tournament socket"), computed once per version."""
    return _standings_cached(tournament)[0]


def standings_message(tournament: Tournament) -> dict[str, Any]:
    """The same message as a dict (shared: do not modify it)."""
    return _standings_cached(tournament)[1]


@dataclass(frozen=True)
class PairingRow:
    """One line of a Swiss round: the two names (``seat1`` None: a bye), the winning
    seat (0, 1 or None while in play) and the match to watch."""

    seat0: str
    seat1: str | None
    winner: int | None
    finished: bool
    match_id: int | None

    @property
    def url(self) -> str | None:
        """The match's table (to watch it), if the pairing has a match (a bye has none)."""
        return reverse("games:table", kwargs={"match_id": self.match_id}) if self.match_id else None


@dataclass(frozen=True)
class RoundInfo:
    number: int
    deadline: datetime
    finished: bool


def rounds(tournament: Tournament) -> list[RoundInfo]:
    """The Swiss rounds started so far, newest first (numbers and deadlines only: the
    page lists the pairings of the current round and fetches the others on demand)."""
    return [RoundInfo(number=n, deadline=deadline, finished=finished_at is not None)
            for n, deadline, finished_at in Round.objects.filter(tournament=tournament)
            .order_by("-number").values_list("number", "deadline", "finished_at")]


def round_pairings(*, tournament: Tournament, number: int) -> list[PairingRow]:
    """The pairings of one Swiss round, in the order they were made."""
    rows = (Pairing.objects.filter(tournament=tournament, round=number).order_by("pk")
            .values_list("seat0_id", "seat1_id", "winner_id", "finished", "match_id",
                         "seat0__user__username", "seat1__user__username"))
    return [
        PairingRow(seat0=name0, seat1=name1, finished=finished, match_id=match_id,
                   winner=None if winner is None else (0 if winner == s0 else 1))
        for s0, _s1, winner, finished, match_id, name0, name1 in rows
    ]


def my_entry(*, tournament: Tournament, user: User | AnonymousUser) -> dict[str, Any] | None:
    """The viewer's entry and their match in play, if any."""
    if not user.is_authenticated:
        return None
    entrant = Entrant.objects.filter(tournament=tournament, user=user).first()
    if entrant is None:
        return None
    current = (Pairing.objects.filter(Q(seat0=entrant) | Q(seat1=entrant),
                                      tournament=tournament, finished=False,
                                      match__isnull=False)
               .values_list("match_id", flat=True).first())
    return {"entrant": entrant, "match_id": current}


def match_in_play(*, tournament: Tournament, user: User | AnonymousUser) -> int | None:
    """The id of the viewer's match in play in this tournament, if any."""
    entry = my_entry(tournament=tournament, user=user)
    return entry["match_id"] if entry else None


def match_tournament(*, match_id: int, user: User | AnonymousUser) -> dict[str, Any] | None:
    """The tournament a match was paired in, for that match's table when the viewer is
    one of its players (the table follows the tournament once the match is over, to
    take the player to their next match): None for any other match or viewer."""
    if not user.is_authenticated:
        return None
    pairing = (Pairing.objects.filter(match_id=match_id)
               .filter(Q(seat0__user=user) | Q(seat1__user=user))
               .select_related("tournament").first())
    if pairing is None:
        return None
    t = pairing.tournament
    return {"id": t.pk, "name": t.name, "format": t.format, "status": t.status,
            "player": user.username,
            "url": reverse("tournaments:detail", args=[t.pk]),
            "wsPath": f"/ws/tournament/{t.pk}/?only=standings"}


def podium(tournament: Tournament) -> list[dict[str, Any]]:
    """The first three rows of a finished tournament's standings (the cached message's)."""
    if tournament.status != Tournament.Status.FINISHED:
        return []
    rows: list[dict[str, Any]] = standings_message(tournament)["rows"]
    return rows[:3]


def audit_trail(tournament: Tournament) -> list[TournamentEvent]:
    return list(TournamentEvent.objects.filter(tournament=tournament).select_related("actor"))


def watch_matches(*, limit: int = 60) -> list[dict[str, Any]]:
    """Live matches between people now: tournament matches first, then the highest
    rated (the higher of the two players' ratings), then the newest. Ids, names and
    scores only (each opens in the spectator view)."""
    found = (
        Match.objects.filter(status=Match.Status.ACTIVE)
        .exclude(kind__in=[Match.Kind.COMPUTER, Match.Kind.OFFLINE])
        .annotate(
            in_tournament=Coalesce(Max("tournament_pairing__tournament_id"), Value(0)),
            top_rating=Coalesce(Max("seats__user__rating__rating"), Value(0.0)),
        )
        .order_by(F("in_tournament").desc(), F("top_rating").desc(), "-started_at")
        .values("pk", "rated", "in_tournament", "top_rating", "started_at")[:limit]
    )
    matches = list(found)
    seats = Seat.objects.filter(match_id__in=[m["pk"] for m in matches]).values(
        "match_id", "index", "user__username", "score")
    by_match: dict[int, list] = {}
    for s in sorted(seats, key=lambda s: (s["match_id"], s["index"])):
        by_match.setdefault(s["match_id"], []).append(s)
    names = dict(Tournament.objects.filter(pk__in={m["in_tournament"] for m in matches})
                 .values_list("pk", "name"))
    return [
        {"match_id": m["pk"], "url": reverse("games:table", kwargs={"match_id": m["pk"]}),
         "players": [s["user__username"] for s in by_match.get(m["pk"], [])],
         "scores": [s["score"] for s in by_match.get(m["pk"], [])],
         "rating": round(m["top_rating"]) if m["top_rating"] else None,
         "tournament": names.get(m["in_tournament"]), "tournament_id": m["in_tournament"] or None}
        for m in matches
    ]


def player_results(*, user: User, limit: int = 20) -> list[Entrant]:
    """A profile's finished tournaments, newest first, with the player's rank."""
    return list(Entrant.objects.filter(user=user, tournament__status=Tournament.Status.FINISHED)
                .select_related("tournament").order_by("-tournament__finished_at")[:limit])
