"""Reads of fair play: the moderators' queue and what a case's page shows (the
accounts' ages, records and shared signals; accuracy against the rating band over
time; the pair's matches with results and lengths, as pictures), and the notices a
player has not read yet."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import ModerationAction, User
from games.models import Match, Seat
from leaderboards.models import BoardExclusion, Rating

from .models import AccountSignal, Case, Notice

CHART_WIDTH = 640
CHART_HEIGHT = 160
PAD = 10


def queue() -> QuerySet[Case]:
    """Open cases first, strongest evidence first; then the decided ones, latest first."""
    return Case.objects.order_by("-status", "-strength", "-updated_at").prefetch_related("users")


def unread_notices(*, user: Any) -> list[Notice]:
    """What moderators decided that the player has not dismissed yet (oldest first)."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(Notice.objects.filter(user_id=user.pk, seen_at__isnull=True).order_by("pk"))


@dataclass(frozen=True)
class AccountFacts:
    user: User
    age_days: int
    rating: int | None
    rated_matches: int
    off_boards: bool
    signals: int
    #: Other accounts that share a network or browser hash with this one.
    sharing: list[str]


def account_facts(*, user: User, now: datetime | None = None) -> AccountFacts:
    now = now or timezone.now()
    rating = Rating.objects.filter(user=user).first()
    mine = AccountSignal.objects.filter(user=user)
    networks = set(mine.values_list("network", flat=True))
    devices = set(mine.values_list("device", flat=True))
    sharing = sorted(set(
        AccountSignal.objects.exclude(user=user)
        .filter(network__in=networks).values_list("user__username", flat=True)
    ) | set(
        AccountSignal.objects.exclude(user=user)
        .filter(device__in=devices, network__in=networks).values_list("user__username", flat=True)
    ))
    return AccountFacts(
        user=user, age_days=(now - user.date_joined).days,
        rating=round(rating.rating) if rating else None,
        rated_matches=Seat.objects.filter(user=user, match__rated=True,
                                          match__status=Match.Status.FINISHED).count(),
        off_boards=BoardExclusion.objects.filter(user=user).exists(),
        signals=mine.count(), sharing=sharing[:20],
    )


@dataclass(frozen=True)
class Chart:
    """An SVG picture of ``width`` x ``height``: polylines and points, and labels."""

    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT
    lines: dict[str, str] = field(default_factory=dict)
    dots: list[dict[str, Any]] = field(default_factory=list)
    bars: list[dict[str, Any]] = field(default_factory=list)
    labels: dict[str, Any] = field(default_factory=dict)


def accuracy_chart(evidence: dict[str, Any]) -> Chart:
    """Points lost a decision in each rated match (dots), the account's running mean
    (line), and its band's expected figure (dashed): the lower, the more accurate."""
    series = evidence.get("series") or []
    band = evidence.get("band") or {}
    if not series:
        return Chart()
    expected = float(band.get("expected_loss", 0.0))
    values = [float(row["mean_loss"]) for row in series]
    running, total, count = [], 0.0, 0
    for row in series:
        total += float(row["mean_loss"]) * row["decisions"]
        count += row["decisions"]
        running.append(total / max(1, count))
    top = max([*values, expected, 0.05]) * 1.1
    step = (CHART_WIDTH - 2 * PAD) / max(1, len(values) - 1)

    def xy(i: int, v: float) -> tuple[float, float]:
        x = PAD + i * step if len(values) > 1 else CHART_WIDTH / 2
        return round(x, 1), round(PAD + v / top * (CHART_HEIGHT - 2 * PAD), 1)

    band_y = xy(0, expected)[1]
    return Chart(
        lines={
            "running": " ".join(f"{x},{y}" for x, y in (xy(i, v) for i, v in enumerate(running))),
            "band": f"{PAD},{band_y} {CHART_WIDTH - PAD},{band_y}",
        },
        dots=[{"x": xy(i, v)[0], "y": xy(i, v)[1], "match": row["match"],
               "value": round(v, 3)} for i, (v, row) in enumerate(zip(values, series,
                                                                       strict=True))],
        labels={"top": round(top, 2), "expected": round(expected, 3),
                "latest": round(running[-1], 3), "matches": len(values)},
    )


def pair_chart(evidence: dict[str, Any]) -> Chart:
    """Each match of the pair as a bar as long as its moves, coloured by its winner;
    quick endings are marked."""
    matches = evidence.get("matches") or []
    if not matches:
        return Chart()
    longest = max([m["moves"] for m in matches] + [1])
    width = (CHART_WIDTH - 2 * PAD) / len(matches)
    bars = []
    for i, m in enumerate(matches):
        height = max(2.0, m["moves"] / longest * (CHART_HEIGHT - 2 * PAD))
        bars.append({
            "x": round(PAD + i * width + 1, 1), "y": round(CHART_HEIGHT - PAD - height, 1),
            "width": round(max(1.0, width - 2), 1), "height": round(height, 1),
            "winner": m["winner"] or "none", "quick": m["quick"], "match": m["match"],
            "moves": m["moves"],
        })
    return Chart(bars=bars, labels={"longest": longest, "matches": len(matches)})


def case_page(*, case: Case) -> dict[str, Any]:
    """Everything the case's page shows besides the form."""
    users = list(case.users.order_by("pk"))
    log = (
        ModerationAction.objects.filter(details__case=case.pk)
        .select_related("actor", "target_user").order_by("created_at")
    )
    page: dict[str, Any] = {
        "case": case,
        "accounts": [account_facts(user=u) for u in users],
        "reasons": case.evidence.get("reasons", []),
        "log": list(log),
    }
    if case.kind == Case.Kind.ASSISTANCE:
        page["chart"] = accuracy_chart(case.evidence)
        page["series"] = case.evidence.get("series", [])
        page["band"] = case.evidence.get("band", {})
        page["figures"] = case.evidence.get("account", {})
    else:
        page["chart"] = pair_chart(case.evidence)
        page["matches"] = case.evidence.get("matches", [])
        page["names"] = case.evidence.get("accounts", {})
    return page
