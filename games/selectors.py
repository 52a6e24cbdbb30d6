"""Reads of matches for pages, consumers and broadcasts.

The ``state`` message of docs/protocol.md (built by games/messages.py, as the
writers build theirs) is read here for connect and ``sync``: a seated player gets
their seat's player view, anyone else the spectator view. Seeds appear only for
finished hands (or once the match is over).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from games import messages
from games.engine import HandState, MatchState, RuleSet
from games.engine.correspondence import VACATION_DAYS_A_YEAR, vacation_days_used
from games.errors import HandNotOverError
from games.models import Hand, Match, Move, QuickMatchEntry, Seat, Vacation

Audience = int | None  # a seat index, or None for spectators


def vacations(*, user_id: int | None, since: datetime) -> list[tuple[datetime, datetime]]:
    """The player's vacations (``(start, end)``) that end after ``since``."""
    if user_id is None:
        return []
    return list(
        Vacation.objects.filter(user_id=user_id, ends_at__gt=since).values_list(
            "starts_at", "ends_at"
        )
    )


def match_get(*, match_id: int) -> Match | None:
    """The match of that id, or None."""
    return Match.objects.filter(pk=match_id).first()


def match_by_invite(*, token: str) -> Match | None:
    """The match an invitation link names, or None."""
    return Match.objects.filter(invite_token=token).first()


def match_version(*, match_id: int) -> tuple[int, str]:
    """The match's ``(version, status)`` now (``(0, "")`` if it is gone)."""
    return Match.objects.filter(pk=match_id).values_list("version", "status").first() or (0, "")


def match_versions(*, match_ids: list[int]) -> dict[int, int]:
    """The version now of each match of ``match_ids`` that still exists."""
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))


def invite_host(*, match: Match) -> Seat | None:
    """The seat of whoever sent the invitation to ``match`` (the first one taken)."""
    return match.seats.select_related("user").first()


def hand_get(*, match: Match, number: int, finished: bool = False) -> Hand | None:
    """Hand ``number`` of ``match`` (with ``finished``, only once it has a result)."""
    hands = Hand.objects.filter(match=match, number=number)
    return (hands.filter(result__isnull=False) if finished else hands).first()


def active_match_ids(*, user: Any) -> list[int]:
    """The matches ``user`` plays now, oldest start first."""
    return list(
        Match.objects.filter(seats__user=user, status=Match.Status.ACTIVE)
        .order_by("started_at").values_list("pk", flat=True).distinct()
    )


def finished_match_ids(*, user: Any, since: Any = None, most: int) -> list[int]:
    """The newest ``most`` finished matches of ``user`` (created at or after ``since``)."""
    matches = Match.objects.filter(seats__user=user, status=Match.Status.FINISHED).distinct()
    if since is not None:
        matches = matches.filter(created_at__gte=since)
    return list(matches.order_by("-created_at", "-pk").values_list("pk", flat=True)[:most])


def seat_for_user(*, match: Match, user: Any) -> int | None:
    """The seat index ``user`` holds in ``match``, or None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Seat.objects.filter(match=match, user_id=user.pk).values_list("index", flat=True).first()


def engine_state(match: Match, hand: Hand | None) -> MatchState:
    """The engine's state of ``match`` whose last hand dealt is ``hand`` (None before
    the first deal): its rules, dealer, finished results and that hand."""
    return MatchState.from_parts(
        RuleSet.from_dict(match.rules),
        match.first_dealer,
        [summary["result"] for summary in match.finished_hands],
        None if hand is None else HandState.from_dict(hand.state),
        0 if hand is None else hand.number,
    )


def match_state_message(*, match: Match, user: Any) -> dict[str, Any]:
    """The ``state`` message for ``user``: their seat's view, or the spectator view
    (of the match as it is now: ``match`` may be an old row, or only a pk).
    Raises ``Match.DoesNotExist`` if the match is gone."""
    row, seats, hand = _load(match)
    you = next((s.index for s in seats if _is_user(s, user)), None)
    state = engine_state(row, hand) if hand is not None else None
    now = timezone.now()
    table = messages.table(
        match=row, seats=seats, hands=row.finished_hands, current=hand,
        clock=messages.clock_dict(row.rules, row.turn_deadline, now)
        if row.status == Match.Status.ACTIVE else None,
        rematch_id=_rematch_id(row) if row.status == Match.Status.FINISHED else None,
    )
    return messages.state(version=row.version, audience=you, table=table, match=state)


def presence_message(*, match_id: int) -> dict[str, Any] | None:
    """The ``presence`` message: who is connected to the match now."""
    version = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
    if version is None:
        return None
    seats = Seat.objects.filter(match_id=match_id).order_by("index")
    return {
        "type": "presence",
        "version": version,
        "seats": [{"seat": s.index, "connected": _connected(s)} for s in seats],
    }


def matches_for_user(*, user: Any) -> QuerySet[Match]:
    """The user's matches, newest first, with seats and their users loaded."""
    return (
        Match.objects.filter(seats__user=user)
        .prefetch_related("seats__user")
        .order_by("-created_at")
        .distinct()
    )


def quickmatch_status(*, user: Any) -> dict[str, Any]:
    """``{"state": "idle" | "waiting" | "matched", "match_id": id | None}``."""
    entry = QuickMatchEntry.objects.filter(user=user).select_related("match").first()
    if entry is None:
        return {"state": "idle", "match_id": None}
    if entry.match_id is None:
        return {"state": "waiting", "match_id": None}
    return {"state": "matched", "match_id": entry.match_id}


def match_score_sheet(*, match: Match) -> dict[str, Any]:
    """Hand by hand: dealer, outcome, points and running totals; then the final score."""
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    running = [0, 0]
    rows = []
    for hand in Hand.objects.filter(match=match, result__isnull=False).order_by("number"):
        if hand.winner_seat is not None:
            running[hand.winner_seat] += hand.points
        rows.append(
            {
                "number": hand.number,
                "dealer": hand.dealer,
                "kind": hand.result_kind,
                "winner": hand.winner_seat,
                "points": hand.points,
                "totals": list(running),
            }
        )
    return {
        "match_id": match.pk,
        "seats": [messages.seat_name(s) for s in seats],
        "hands": rows,
        "final": match.final_score,
        "winner": match.winner_seat,
        "end_reason": match.end_reason,
        "aborted": match.aborted,
    }


def hand_replay(*, hand: Hand) -> list[dict[str, Any]]:
    """A finished hand move by move, rebuilt from its seed and Move log.

    One step per position, starting with the deal: ``{"move": {seq, seat, action,
    auto} | None, "views": [player_view(0), player_view(1)]}`` (both hands shown:
    the hand is over). Raises HandNotOverError for a hand still in play.
    """
    match_over = Match.objects.filter(pk=hand.match_id, status=Match.Status.FINISHED).exists()
    if hand.result is None and not match_over:
        raise HandNotOverError()
    rules = RuleSet.from_dict(hand.match.rules)
    state = HandState.deal(rules, hand.dealer, bytes(hand.seed))
    steps: list[dict[str, Any]] = [
        {"move": None, "views": [state.player_view(0), state.player_view(1)]}
    ]
    for move in Move.objects.filter(hand=hand).order_by("seq"):
        state, _events = state.apply(move.action)
        steps.append(
            {
                "move": {
                    "seq": move.seq,
                    "seat": move.seat,
                    "action": move.action,
                    "auto": move.auto,
                },
                "views": [state.player_view(0), state.player_view(1)],
            }
        )
    return steps


# --- building the state message ------------------------------------------------------


def _load(match: Match) -> tuple[Match, list[Seat], Hand | None]:
    """The match row, its seats and its current hand; only ``match.pk`` is used. The
    row is read in the same statement as the hand, so the version sent always belongs
    to the position sent, even while another process commits a move."""
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    hand = Hand.objects.filter(match=match).select_related("match").order_by("-number").first()
    if hand is not None:
        return hand.match, seats, hand
    return Match.objects.get(pk=match.pk), seats, None  # no hand dealt yet


def _is_user(seat: Seat, user: Any) -> bool:
    return (
        seat.user_id is not None
        and getattr(user, "is_authenticated", False)
        and seat.user_id == user.pk
    )


def _connected(seat: Seat) -> bool:
    return bool(seat.bot_level) or seat.connected


def _rematch_id(match: Match) -> int | None:
    return (
        Match.objects.filter(rematch_of=match).order_by("pk").values_list("pk", flat=True).first()
    )


def correspondence_rows(*, user: Any) -> list[dict[str, Any]]:
    """The player's correspondence matches in play, those waiting for their move first
    (soonest deadline first), then those waiting for the opponent."""
    matches = (
        Match.objects.filter(
            status=Match.Status.ACTIVE, days_per_move__isnull=False, seats__user=user
        )
        .prefetch_related("seats__user")
    )
    rows = []
    for match in matches:
        seats = sorted(match.seats.all(), key=lambda s: s.index)
        mine = next(s for s in seats if s.user_id == user.pk)
        other = seats[1 - mine.index]
        rows.append({
            "match": match,
            "opponent": other.user.display_name if other.user else "",
            "my_move": match.current_seat == mine.index,
            "deadline": match.move_deadline,
            "days": match.days_per_move,
        })
    far = datetime.max.replace(tzinfo=UTC)
    rows.sort(key=lambda r: (not r["my_move"], r["deadline"] or far))
    return rows


def vacation_days_left(*, user: Any, now: datetime | None = None) -> int:
    """Days of vacation the player may still take this calendar year."""
    now = now or timezone.now()
    periods = Vacation.objects.filter(
        user=user, ends_at__gt=datetime(now.year, 1, 1, tzinfo=now.tzinfo)
    ).values_list("starts_at", "ends_at")
    return max(0, VACATION_DAYS_A_YEAR - vacation_days_used(list(periods), now.year))


def current_vacation(*, user: Any, now: datetime | None = None) -> Vacation | None:
    now = now or timezone.now()
    return Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).first()


def vacation_state(*, user: Any) -> dict[str, Any]:
    """The player's vacation now (or None) and the days left this year."""
    return {"vacation": current_vacation(user=user), "days_left": vacation_days_left(user=user)}
