"""Reads of learning: an account's finished lessons, in the course's order; puzzles,
the next one for a player, the daily one (never a retired one), a player's puzzle
rating, the knock puzzles to ask again."""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, time
from typing import Any

from django.db.models import F, QuerySet
from django.db.models.functions import Abs

from games.engine.rules import RuleSet
from games.engine.state import HandState
from games.models import Hand, Move

from .core.lessons import lesson_slugs
from .models import LessonDone, MinedHand, Puzzle, PuzzleAttempt, PuzzlePlayer


def lessons_done(*, user: Any) -> list[str]:
    """The slugs of the lessons ``user`` has finished, in the course's order."""
    done = set(LessonDone.objects.filter(user=user).values_list("lesson", flat=True))
    return [slug for slug in lesson_slugs() if slug in done]


# --- puzzles -----------------------------------------------------------------------------

#: How many puzzles nearest the player's rating are looked through for a theme.
NEXT_WINDOW = 400


def puzzle_get(*, puzzle_id: int) -> Puzzle | None:
    return Puzzle.objects.filter(pk=puzzle_id).first()


def puzzles_in_play() -> QuerySet[Puzzle]:
    """The puzzles that are given out: all but the retired ones."""
    return Puzzle.objects.filter(retired_at__isnull=True)


def knock_puzzles_in_play() -> QuerySet[Puzzle]:
    """The puzzles in play whose answer is a knock, oldest first."""
    return puzzles_in_play().filter(best__type="knock").order_by("pk")


def puzzle_payload(puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle as a player gets it: ``{"id", "rating", "themes", "view",
    "legal_actions"}``, the view and actions as the bot API's match stream has them
    (the engine's player_view of the player to move, never another card)."""
    return {
        "id": puzzle.pk,
        "rating": round(puzzle.rating),
        "themes": list(puzzle.themes),
        "view": puzzle.view,
        "legal_actions": puzzle.legal_actions,
    }


def puzzle_player(*, user: Any) -> dict[str, Any]:
    """An account's puzzle rating and streak (a new player's: 1500, none)."""
    row = PuzzlePlayer.objects.filter(user=user).first() if user is not None else None
    if row is None:
        return {"rating": 1500, "deviation": 350, "streak": 0, "best_streak": 0,
                "attempts": 0, "solved": 0}
    return {"rating": round(row.rating), "deviation": round(row.deviation),
            "streak": row.streak, "best_streak": row.best_streak,
            "attempts": row.attempts, "solved": row.solved}


def puzzle_next(*, user: Any, theme: str | None = None) -> Puzzle | None:
    """The puzzle nearest the player's rating that they have not answered (of
    ``theme``, if given); for a visitor, nearest 1500."""
    rating = float(puzzle_player(user=user)["rating"])
    puzzles = puzzles_in_play()
    if user is not None:
        puzzles = puzzles.exclude(attempts_made__user=user)
    ordered = puzzles.annotate(distance=Abs(F("rating") - rating)).order_by("distance", "pk")
    if theme is None:
        return ordered.first()
    for puzzle in ordered[:NEXT_WINDOW]:
        if theme in puzzle.themes:
            return puzzle
    return None


def puzzle_daily(*, day: date) -> Puzzle | None:
    """The puzzle of ``day``: one of the puzzles in play made before that day, the same
    for everyone all day (unless staff retire it), chosen by a digest of the date."""
    start = datetime.combine(day, time.min, tzinfo=UTC)
    older = puzzles_in_play().filter(created_at__lt=start).order_by("pk")
    count = older.count()
    if not count:
        older = puzzles_in_play().order_by("pk")
        count = older.count()
        if not count:
            return None
    index = int(hashlib.sha256(day.isoformat().encode()).hexdigest(), 16) % count
    return older[index]


def puzzle_keys() -> list[list[Any]]:
    """The near-copy keys of every puzzle kept, retired ones too, so that a retired
    puzzle is not found again (games/learn/core/puzzles.py)."""
    return list(Puzzle.objects.values_list("key", flat=True))


def puzzle_attempt(*, user: Any, puzzle: Puzzle) -> PuzzleAttempt | None:
    return PuzzleAttempt.objects.filter(user=user, puzzle=puzzle).first()


def hands_to_mine(*, limit: int) -> list[tuple[int, HandState, list[dict[str, Any]]]]:
    """Up to ``limit`` finished hands of rated matches (played to a result, not cut
    short) not yet looked through for puzzles, newest first: (hand id, its deal, its
    actions in order)."""
    hands = (
        Hand.objects.filter(match__rated=True, result__isnull=False)
        .exclude(pk__in=MinedHand.objects.values("hand_id"))
        .select_related("match").order_by("-pk")[:limit]
    )
    found = []
    for hand in hands:
        state = HandState.deal(RuleSet.from_dict(hand.match.rules), hand.dealer, bytes(hand.seed))
        actions = [dict(m.action) for m in Move.objects.filter(hand=hand).order_by("seq")]
        found.append((hand.pk, state, actions))
    return found
