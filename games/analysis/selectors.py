"""Reads of the analysis for the API, the replay page, the result dialog, the score
sheet and the profile.

Who may read a match's analysis: its players while it runs, anyone once it is
finished (as the score sheet and the replays). Only finished hands are listed (a
hand cut short by a resignation has no result, so none).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, QuerySet

from games.bots.analysis import LABELS, accuracy
from games.models import Hand, Match, Seat

from .models import HandAnalysis, Hint

API_FIELDS = ("ply", "seat", "played", "best", "loss", "label")
CHART_MATCHES = 50


def hint_allowed(match: Match) -> bool:
    """Hints exist only in unrated matches against the computer (never in rated,
    quick, friend or tournament matches)."""
    return match.kind == Match.Kind.COMPUTER and not match.rated and not _in_tournament(match)


def _in_tournament(match: Match) -> bool:
    # Tournaments are a planned kind of match; a match that belongs to one (by a
    # field or a kind of that name) never gets hints.
    return match.kind == "tournament" or getattr(match, "tournament_id", None) is not None


def can_read(*, match: Match, user: Any) -> bool:
    """Whether ``user`` may read the analysis of ``match``."""
    if match.status == Match.Status.FINISHED:
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return Seat.objects.filter(match=match, user_id=user.pk).exists()


def _done(match: Match) -> QuerySet[HandAnalysis]:
    return (
        HandAnalysis.objects.filter(match=match, done=True, hand__result__isnull=False)
        .select_related("hand")
        .order_by("hand__number")
    )


def match_analysis(*, match: Match) -> dict[str, Any]:
    """``GET /api/match/{id}/analysis`` (docs/protocol.md): the analysed finished
    hands of the match, decision by decision."""
    return {
        "match": match.pk,
        "hands": [
            {
                "number": row.hand.number,
                "decisions": [{k: d[k] for k in API_FIELDS} for d in row.decisions],
                "accuracy": row.accuracy,
            }
            for row in _done(match)
        ],
    }


def match_accuracy(*, match: Match) -> list[float | None]:
    """Each seat's accuracy over every analysed decision of the match."""
    losses: list[list[float]] = [[], []]
    for decisions in HandAnalysis.objects.filter(match=match, done=True).values_list(
        "decisions", flat=True
    ):
        for d in decisions:
            losses[d["seat"]].append(d["loss"])
    return [accuracy(losses[0]), accuracy(losses[1])]


def hints_used(*, match: Match, hand: Hand | None = None) -> list[int]:
    """Hints given to each seat in the match (or in one hand of it)."""
    rows = Hint.objects.filter(match=match)
    if hand is not None:
        rows = rows.filter(hand=hand)
    counts = dict(rows.values_list("seat").annotate(n=Count("pk")))
    return [counts.get(0, 0), counts.get(1, 0)]


def hand_review(*, hand: Hand) -> dict[str, Any]:
    """What the replay page and the result dialog show of one hand's analysis:
    ``ready``, the decisions (with each played and best action's expected value
    for its player), accuracy and label counts per seat, hints used per seat in the
    hand and in the match, and the match accuracy."""
    row = HandAnalysis.objects.filter(hand=hand, done=True).first()
    match = hand.match
    hinted = list(Hint.objects.filter(hand=hand).values_list("seat", "version"))
    return {
        "number": hand.number,
        "ready": row is not None,
        "decisions": row.decisions if row else [],
        "accuracy": row.accuracy if row else [None, None],
        "counts": row.counts if row else [dict.fromkeys(LABELS, 0), dict.fromkeys(LABELS, 0)],
        "hints": hints_used(match=match, hand=hand),
        "hinted_versions": [{"seat": s, "version": v} for s, v in hinted],
        "match_hints": hints_used(match=match),
        "match_accuracy": match_accuracy(match=match),
        "hint_allowed": hint_allowed(match),
    }


def sheet_accuracy(*, match: Match) -> dict[str, Any]:
    """For the score sheet: accuracy per hand number, and the match's."""
    per_hand = {
        number: acc
        for number, acc in HandAnalysis.objects.filter(match=match, done=True).values_list(
            "hand__number", "accuracy"
        )
    }
    return {"hands": per_hand, "match": match_accuracy(match=match)}


@dataclass(frozen=True)
class AccuracyChart:
    """What ``analysis/_accuracy_chart.html`` draws: the player's accuracy in each of
    their last analysed matches, as an SVG polyline in ``width`` x ``height``."""

    width: int
    height: int
    points: str
    matches: int
    average: float | None
    latest: float | None
    first_at: datetime | None
    last_at: datetime | None
    #: Where the latest match's point is (marked, so that a single match shows).
    latest_x: float = 0.0
    latest_y: float = 0.0


def accuracy_chart(*, user: Any, width: int = 640, height: int = 120) -> AccuracyChart:
    """The player's accuracy over their last CHART_MATCHES finished matches that
    have analysed hands, oldest first (0 at the bottom, 100 at the top)."""
    seats = list(
        Seat.objects.filter(user=user, match__status=Match.Status.FINISHED)
        .order_by("-match__finished_at")
        .values_list("match_id", "index", "match__finished_at")[:CHART_MATCHES]
    )[::-1]
    losses: dict[int, list[float]] = {}
    seat_of = {match_id: index for match_id, index, _ in seats}
    for match_id, decisions in HandAnalysis.objects.filter(
        match_id__in=seat_of, done=True
    ).values_list("match_id", "decisions"):
        mine = losses.setdefault(match_id, [])
        mine.extend(d["loss"] for d in decisions if d["seat"] == seat_of[match_id])
    series = [
        (at, accuracy(losses[match_id]))
        for match_id, _, at in seats
        if losses.get(match_id)
    ]
    values = [v for _, v in series if v is not None]
    if not values:
        return AccuracyChart(width, height, "", 0, None, None, None, None)
    pad = 8  # room for the latest point's mark
    step = (width - 2 * pad) / max(1, len(values) - 1)
    # One match: its point in the middle (a line needs two).
    first_x = pad if len(values) > 1 else width / 2
    xy = [
        (first_x + i * step, pad + (100 - v) / 100 * (height - 2 * pad))
        for i, v in enumerate(values)
    ]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
    return AccuracyChart(
        width=width,
        height=height,
        points=points,
        matches=len(values),
        average=round(sum(values) / len(values), 1),
        latest=values[-1],
        first_at=series[0][0],
        last_at=series[-1][0],
        latest_x=round(xy[-1][0], 1),
        latest_y=round(xy[-1][1], 1),
    )
