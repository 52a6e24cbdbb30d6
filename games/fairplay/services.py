"""Writes of fair play: recording the hashed sign-up and session signals, the
detection (each account's judged decisions per rated match, the assistance and
farming checks, the cases they open), the moderators' decisions on a case, and the
notices that tell players what was decided.

The detection runs off the request path: ``detection_run`` is the periodic job
(``fairplay.detect`` in the beat schedule; the embedded scheduler runs it in the
README's run mode) and ``pair_check`` runs after each rated match (games/fairplay/hooks.py,
on the worker or the embedded background thread). Neither acts on a player: a flag
opens a case (or strengthens the open one), and only a moderator's decision changes
anything, through accounts.services (warnings, bans: audited there) and
leaderboards.services (boards, ratings), each decision written to the moderation log
with the moderator and the reason.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, F, FloatField, OuterRef, Q, Sum
from django.db.models.functions import Cast
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts import services as moderation
from accounts.models import ModerationAction, User
from games import events
from games.analysis.models import HandAnalysis
from games.models import Hand, Match, Seat
from ginsite import runtime
from ginsite.errors import AppError
from leaderboards import services as boards
from leaderboards.models import CorrespondenceRatingChange, Rating, RatingChange, VoidedMatch

from . import signals
from .models import AccountSignal, Case, DetectionRun, MatchAccuracy, Notice

if TYPE_CHECKING:
    from games.events import MatchFinished

logger = logging.getLogger(__name__)

#: Matches summarised at most per run (the rest wait for the next one).
ACCURACY_BATCH = 2000
#: How far back, in days, the checks look.
WINDOW_DAYS = 30
#: Pair checks re-run over matches finished this long before the previous run began.
OVERLAP = timedelta(minutes=5)


class FairPlayError(AppError):
    """A decision on a case that cannot be made as asked; nothing changed."""

    status = 400
    code = "fairplay_refused"


# --- signals ----------------------------------------------------------------------------


def _keyed_hash(value: str) -> str:
    return hmac.new(settings.SECRET_KEY.encode(), value.encode(), hashlib.sha256).hexdigest()


def network_of(address: str) -> str:
    """The network an address belongs to, as kept before hashing: an IPv4 /24 or an
    IPv6 /48 (households and offices share one), or the text itself if it is none."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    prefix = 24 if ip.version == 4 else 48
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def signal_record(
    *, user: User, kind: str, address: str, agent: str, now: datetime | None = None
) -> AccountSignal | None:
    """Keep where a registered player signed up or signed in from, hashed (models.py
    ``AccountSignal``); guests and BOT accounts are not recorded."""
    if kind not in AccountSignal.Kind.values:
        raise ValueError(f"unknown signal kind {kind!r}")
    if not getattr(user, "pk", None) or user.is_guest or user.is_bot:
        return None
    return AccountSignal.objects.create(
        user=user, kind=kind, network=_keyed_hash("net:" + network_of(address)),
        device=_keyed_hash("ua:" + (agent or "")[:400]), at=now or timezone.now(),
    )


def signals_purge(*, now: datetime) -> int:
    """Delete the signals older than ``FAIRPLAY_SIGNAL_DAYS``; returns how many."""
    cutoff = now - timedelta(days=settings.FAIRPLAY_SIGNAL_DAYS)
    deleted, _ = AccountSignal.objects.filter(at__lt=cutoff).delete()
    return deleted


# --- each account's judged decisions per rated match -------------------------------------


def _summarisable(since: datetime) -> Any:
    """Rated matches finished since ``since``, rated (a rating change exists: never a
    voided or aborted one), not yet summarised, whose finished hands are all analysed."""
    unanalysed = Hand.objects.filter(match=OuterRef("pk"), result__isnull=False).exclude(
        Exists(HandAnalysis.objects.filter(hand=OuterRef("pk"), done=True))
    )
    return (
        Match.objects.filter(status=Match.Status.FINISHED, rated=True, aborted=False,
                             finished_at__gte=since)
        .filter(Exists(RatingChange.objects.filter(match=OuterRef("pk"))))
        .exclude(Exists(MatchAccuracy.objects.filter(match=OuterRef("pk"))))
        .exclude(Exists(unanalysed))
    )


def accuracies_update(*, now: datetime, limit: int = ACCURACY_BATCH) -> int:
    """Write each account's ``MatchAccuracy`` for the rated matches of the window whose
    hands are all analysed (oldest first, at most ``limit``); returns how many matches."""
    since = now - timedelta(days=WINDOW_DAYS)
    ids = list(_summarisable(since).order_by("finished_at").values_list("pk", flat=True)[:limit])
    if not ids:
        return 0
    finished = {
        pk: at for pk, at in Match.objects.filter(pk__in=ids).values_list("pk", "finished_at")
        if at is not None
    }
    seats = list(Seat.objects.filter(match_id__in=ids, user__isnull=False)
                 .values_list("match_id", "index", "user_id"))
    before = {
        (match_id, user_id): rating
        for match_id, user_id, rating in RatingChange.objects.filter(match_id__in=ids)
        .values_list("match_id", "user_id", "rating_before")
    }
    hands: dict[tuple[int, int], list[signals.HandDecisions]] = {}
    for match_id, decisions in HandAnalysis.objects.filter(match_id__in=ids, done=True)\
            .values_list("match_id", "decisions"):
        per_seat: dict[int, list[float]] = {0: [], 1: []}
        for decision in decisions:
            per_seat[decision["seat"]].append(float(decision["loss"]))
        for index, losses in per_seat.items():
            hands.setdefault((match_id, index), []).append(signals.HandDecisions(tuple(losses)))
    rows = []
    for match_id, index, user_id in seats:
        figures = signals.match_accuracy(
            match_id, before.get((match_id, user_id), Rating().rating),
            hands.get((match_id, index), []),
        )
        rows.append(MatchAccuracy(
            user_id=user_id, match_id=match_id, rating=figures.rating,
            decisions=figures.decisions, loss_sum=figures.loss_sum,
            loss_squares=figures.loss_squares, agreements=figures.agreements,
            finished_at=finished[match_id],
        ))
    MatchAccuracy.objects.bulk_create(rows, ignore_conflicts=True)
    return len(ids)


def population(*, now: datetime) -> list[signals.AccountAccuracy]:
    """Every account's figures over the window (one aggregate query)."""
    since = now - timedelta(days=WINDOW_DAYS)
    totals = (
        MatchAccuracy.objects.filter(finished_at__gte=since, decisions__gt=0)
        .values("user_id")
        .annotate(
            n=Sum("decisions"), loss=Sum("loss_sum"), squares=Sum("loss_squares"),
            agree=Sum("agreements"), matches=Count("pk"),
            rated=Sum(F("rating") * Cast("decisions", FloatField())),
        )
    )
    result = []
    for row in totals:
        n = int(row["n"])
        mean = row["loss"] / n
        variance = max(0.0, row["squares"] / n - mean * mean) * n / max(1, n - 1)
        result.append(signals.AccountAccuracy(
            user_id=row["user_id"], rating=round(row["rated"] / n, 1), decisions=n,
            mean_loss=mean, loss_sd=variance**0.5, agreement=row["agree"] / n,
            matches=row["matches"],
        ))
    return result


def assistance_check(
    *, user_ids: Iterable[int], now: datetime, people: list[signals.AccountAccuracy] | None = None
) -> list[Case]:
    """Check each account of ``user_ids`` against its rating band; returns the cases
    opened or strengthened."""
    people = population(now=now) if people is None else people
    by_user = {a.user_id: a for a in people}
    bands = signals.Bands(people)
    cases = []
    for user_id in sorted(set(user_ids)):
        account = by_user.get(user_id)
        if account is None:
            continue
        band = bands.for_rating(account.rating, exclude=user_id)
        verdict = signals.assistance_verdict(
            account, band, alpha=settings.FAIRPLAY_ASSISTANCE_ALPHA
        )
        if not verdict.flagged or band is None:
            continue
        case = _flag_assistance(account, band, verdict, now)
        if case is not None:
            cases.append(case)
    return cases


def _flag_assistance(
    account: signals.AccountAccuracy, band: signals.Band,
    verdict: signals.AssistanceVerdict, now: datetime,
) -> Case | None:
    since = now - timedelta(days=WINDOW_DAYS)
    series = list(
        MatchAccuracy.objects.filter(user_id=account.user_id, finished_at__gte=since,
                                     decisions__gt=0)
        .order_by("finished_at", "match_id")
        .values("match_id", "finished_at", "rating", "decisions", "loss_sum", "agreements")
    )
    username = User.objects.filter(pk=account.user_id).values_list("username", flat=True).first()
    evidence = {
        "account": {
            "decisions": account.decisions, "matches": account.matches,
            "mean_loss": round(account.mean_loss, 4), "agreement": round(account.agreement, 4),
            "rating": account.rating,
        },
        "band": {
            "low": band.low, "high": band.high, "accounts": band.accounts,
            "expected_loss": round(band.expected_loss, 4),
            "loss_spread": round(band.loss_spread, 4),
            "expected_agreement": round(band.expected_agreement, 4),
            "agreement_spread": round(band.agreement_spread, 4),
        },
        "z": verdict.z, "agreement_z": verdict.agreement_z, "chance": verdict.chance,
        "alpha": settings.FAIRPLAY_ASSISTANCE_ALPHA,
        "reasons": list(verdict.reasons),
        "series": [
            {"match": row["match_id"], "at": row["finished_at"].isoformat(),
             "rating": round(row["rating"]), "decisions": row["decisions"],
             "mean_loss": round(row["loss_sum"] / row["decisions"], 4),
             "agreement": round(row["agreements"] / row["decisions"], 4)}
            for row in series
        ],
    }
    summary = (f"{username}: mean loss {account.mean_loss:.3f} against {band.expected_loss:.3f} "
               f"in the band {band.low:.0f}-{band.high:.0f} ({verdict.z:.1f} SD, "
               f"{account.decisions} decisions)")
    latest = series[-1]["finished_at"] if series else now
    return _flag(
        kind=Case.Kind.ASSISTANCE, user_ids=[account.user_id],
        strength=signals.strength(verdict.chance), summary=summary, evidence=evidence,
        match_ids=[row["match_id"] for row in series], latest=latest, now=now,
    )


def counted(since: datetime, via: str = "") -> Q:
    """The finished matches since ``since`` whose result moves a rating: rated live play
    (the rating and the boards) and correspondence (its own rating and board), never an
    aborted one; ``via``: the lookup from the queried model to the match ("match__")."""
    return Q(**{f"{via}status": Match.Status.FINISHED, f"{via}aborted": False,
                f"{via}finished_at__gte": since}) & (
        Q(**{f"{via}rated": True}) | Q(**{f"{via}days_per_move__isnull": False}))


def _quick_endings(since: datetime) -> tuple[int, int]:
    """The site's matches of the window that count for a rating and ended quickly, and
    all of them."""
    matches = Match.objects.filter(counted(since))
    quick = (
        matches.filter(end_reason__in=signals.QUICK_REASONS)
        .annotate(made=Count("moves"))
        .filter(made__lte=signals.QUICK_MOVES)
        .count()
    )
    return quick, matches.count()


def _pair_matches(a: int, b: int, since: datetime) -> list[dict[str, Any]]:
    both = Seat.objects.filter(match=OuterRef("pk"), user_id=b)
    rows: list[dict[str, Any]] = [dict(row) for row in (
        Match.objects.filter(counted(since), seats__user_id=a)
        .filter(Exists(both))
        .exclude(Exists(VoidedMatch.objects.filter(match=OuterRef("pk"))))
        .annotate(made=Count("moves", distinct=True))
        .order_by("finished_at", "pk")
        .values("pk", "winner_seat", "end_reason", "made", "finished_at")
    )]
    return rows


def pair_check(
    *, user_ids: tuple[int, int] | list[int], now: datetime | None = None,
    endings: tuple[int, int] | None = None,
) -> Case | None:
    """Check the matches of the window between two accounts that moved a rating (rated
    live play and correspondence: ``counted``); returns the case it opened or
    strengthened, if any. ``endings``: the site's quick endings and counted matches of
    the window (``_quick_endings``), when the caller has them already; the base rate of
    quick endings leaves the pair's own matches out."""
    now = now or timezone.now()
    a, b = sorted(set(user_ids))
    since = now - timedelta(days=WINDOW_DAYS)
    rows = _pair_matches(a, b, since)
    if len(rows) < signals.MIN_PAIR_MATCHES:
        return None
    ids = [row["pk"] for row in rows]
    seat_of = {
        (match_id, user_id): (index, score)
        for match_id, user_id, index, score in Seat.objects.filter(match_id__in=ids)
        .values_list("match_id", "user_id", "index", "score")
    }
    changes = {  # live play's rating, or the correspondence rating
        (match_id, user_id): (rating - before, before)
        for model in (RatingChange, CorrespondenceRatingChange)
        for match_id, user_id, rating, before in model.objects.filter(match_id__in=ids)
        .values_list("match_id", "user_id", "rating", "rating_before")
    }
    matches = []
    for row in rows:
        pk = row["pk"]
        index_a, points_a = seat_of[(pk, a)]
        _, points_b = seat_of[(pk, b)]
        winner = "" if row["winner_seat"] is None else "a" if row["winner_seat"] == index_a else "b"
        matches.append(signals.PairMatch(
            match_id=pk, winner=winner, reason=row["end_reason"], moves=row["made"],
            rating_a=changes.get((pk, a), (0.0, 0.0))[0],
            rating_b=changes.get((pk, b), (0.0, 0.0))[0],
            points_a=points_a, points_b=points_b,
        ))
    first = rows[0]
    rating_a = changes.get((first["pk"], a), (0.0, Rating().rating))[1]
    rating_b = changes.get((first["pk"], b), (0.0, Rating().rating))[1]
    joined = dict(User.objects.filter(pk__in=[a, b]).values_list("pk", "date_joined"))
    totals = dict(
        Seat.objects.filter(counted(since, "match__"), user_id__in=[a, b])
        .values("user_id").annotate(n=Count("pk")).values_list("user_id", "n")
    )
    names = dict(User.objects.filter(pk__in=[a, b]).values_list("pk", "username"))
    facts = signals.PairFacts(
        expected_a=1.0 / (1.0 + 10 ** ((rating_b - rating_a) / 400.0)),
        age_days_a=(first["finished_at"] - joined[a]).total_seconds() / 86400,
        age_days_b=(first["finished_at"] - joined[b]).total_seconds() / 86400,
        share_a=len(rows) / max(1, totals.get(a, 0)),
        share_b=len(rows) / max(1, totals.get(b, 0)),
        shared_signals=shared_signals(a, b),
        quick_base_rate=_base_rate(endings or _quick_endings(since), matches),
        names=(names[a], names[b]),
    )
    verdict = signals.farming_verdict(matches, facts)
    if not verdict.flagged:
        return None
    evidence = {
        "accounts": {"a": names[a], "b": names[b]},
        "matches": [
            {"match": m.match_id, "at": row["finished_at"].isoformat(), "winner": m.winner,
             "reason": m.reason, "moves": m.moves, "quick": m.quick,
             "rating_a": round(m.rating_a, 1), "rating_b": round(m.rating_b, 1),
             "points_a": m.points_a, "points_b": m.points_b}
            for m, row in zip(matches, rows, strict=True)
        ],
        "wins": {"a": verdict.wins_a, "b": verdict.wins_b}, "quick": verdict.quick,
        "expected_a": round(facts.expected_a, 3), "quick_base_rate": round(
            max(signals.QUICK_BASE_RATE, facts.quick_base_rate), 4),
        "ages_days": {"a": round(facts.age_days_a, 1), "b": round(facts.age_days_b, 1)},
        "shares": {"a": round(facts.share_a, 3), "b": round(facts.share_b, 3)},
        "shared_signals": facts.shared_signals,
        "chance": verdict.chance, "reasons": list(verdict.reasons),
    }
    summary = (f"{names[a]} and {names[b]}: {verdict.matches} matches, "
               f"{verdict.wins_a}-{verdict.wins_b}, {verdict.quick} quick")
    return _flag(
        kind=Case.Kind.FARMING, user_ids=[a, b], strength=verdict.strength, summary=summary,
        evidence=evidence, match_ids=ids, latest=rows[-1]["finished_at"], now=now,
    )


def _base_rate(endings: tuple[int, int], own: list[signals.PairMatch]) -> float:
    """The share of quick endings among the site's other rated matches of the window,
    counted as if ``signals.BASE_RATE_PRIOR`` more matches had ended quickly at
    ``signals.QUICK_BASE_RATE`` (a few matches say little about the rate)."""
    quick, total = endings
    others = max(0, total - len(own))
    theirs = max(0, quick - sum(1 for m in own if m.quick))
    prior = signals.BASE_RATE_PRIOR
    return (theirs + prior * signals.QUICK_BASE_RATE) / (others + prior)


def shared_signals(a: int, b: int) -> int:
    """How many distinct network or browser hashes the two accounts' signals share."""
    def hashes(user_id: int, field: str) -> set[str]:
        return set(AccountSignal.objects.filter(user_id=user_id).values_list(field, flat=True))

    return sum(len(hashes(a, field) & hashes(b, field)) for field in ("network", "device"))


def _flag(
    *, kind: str, user_ids: list[int], strength: float, summary: str,
    evidence: dict[str, Any], match_ids: list[int], latest: datetime, now: datetime,
) -> Case | None:
    """Open a case, or strengthen the open one of the same kind and accounts. A case
    decided after the latest match named is not reopened: nothing new was played."""
    key = f"{kind}:{'-'.join(str(pk) for pk in sorted(user_ids))}"
    fields = {"strength": strength, "summary": summary[:300], "evidence": evidence,
              "match_ids": match_ids, "updated_at": now}
    if Case.objects.filter(key=key, status=Case.Status.OPEN).update(**fields):
        return Case.objects.get(key=key, status=Case.Status.OPEN)
    if Case.objects.filter(key=key, status=Case.Status.DECIDED, decided_at__gte=latest).exists():
        return None
    try:
        with transaction.atomic():
            case = Case.objects.create(kind=kind, key=key, opened_at=now, **fields)
            case.users.set(user_ids)
    except IntegrityError:  # opened meanwhile by a concurrent check
        Case.objects.filter(key=key, status=Case.Status.OPEN).update(**fields)
        return Case.objects.filter(key=key, status=Case.Status.OPEN).first()
    logger.info("fair play: %s case %s opened (strength %.1f)", kind, case.pk, strength)
    return case


# --- the job ----------------------------------------------------------------------------


def detection_run(*, now: datetime | None = None) -> DetectionRun:
    """The periodic job: summarise the newly analysed rated matches, check the accounts
    that played them against their rating bands, check every pair that played a rated
    match since the previous run, and delete the expired signals."""
    now = now or timezone.now()
    started = time.process_time()
    previous = DetectionRun.objects.order_by("-started_at").first()
    run = DetectionRun.objects.create(started_at=now)
    newest = MatchAccuracy.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    run.matches_summarised = accuracies_update(now=now)
    fresh = set(MatchAccuracy.objects.filter(pk__gt=newest).values_list("user_id", flat=True))
    assisted = assistance_check(user_ids=fresh, now=now)
    since = previous.started_at - OVERLAP if previous else now - timedelta(days=WINDOW_DAYS)
    pairs = recent_pairs(since=since)
    endings = _quick_endings(now - timedelta(days=WINDOW_DAYS))
    farmed = [case for pair in pairs
              if (case := pair_check(user_ids=pair, now=now, endings=endings)) is not None]
    touched = {case.pk for case in [*assisted, *farmed]}
    opened = Case.objects.filter(opened_at__gte=now, pk__in=touched).count()
    run.accounts_checked = len(fresh)
    run.pairs_checked = len(pairs)
    run.cases_opened = opened
    run.cases_updated = len(touched) - opened
    run.signals_deleted = signals_purge(now=now)
    run.finished_at = timezone.now()
    run.cpu_seconds = round(time.process_time() - started, 3)
    run.save()
    return run


def recent_pairs(*, since: datetime) -> list[tuple[int, int]]:
    """The pairs of accounts that finished a match together since ``since`` that moved a
    rating (``counted``)."""
    seats = (
        Seat.objects.filter(counted(since, "match__"), user__isnull=False)
        .values_list("match_id", "user_id")
    )
    by_match: dict[int, list[int]] = {}
    for match_id, user_id in seats:
        by_match.setdefault(match_id, []).append(user_id)
    return sorted({(min(u), max(u)) for u in by_match.values() if len(u) == 2 and u[0] != u[1]})


def match_finished(event: MatchFinished) -> None:
    """After a rated match or a correspondence match between two accounts commits: check
    the pair, off the request path (the worker, or the embedded mode's background
    thread)."""
    users = [pk for pk in event.user_ids if pk is not None]
    counts = event.rated or event.days_per_move is not None  # (``counted``)
    if not counts or event.aborted or len(users) != 2 or users[0] == users[1]:
        return
    runtime.scheduler().run_in_background("fairplay.pair_check", {"user_ids": users})


# --- decisions ------------------------------------------------------------------------------

DECISIONS = tuple(Case.Decision.values)


class _CaseStep(moderation.ModerationStep[None]):
    """One audited fair-play decision on one account (accounts.services' shape: the
    moderator checked, one ModerationAction row with the moderator and the reason).
    ``apply`` makes the change and returns what the log row adds to the case's id."""

    def __init__(self, *, staff: User, target: User, reason: str, case: Case, kind: str,
                 apply: Callable[[], dict[str, Any]] | None = None) -> None:
        super().__init__(staff=staff, target=target, reason=reason)
        self.kind = kind
        self.case, self.apply = case, apply

    def do(self) -> tuple[None, dict[str, Any]]:
        details = self.apply() if self.apply is not None else {}
        return None, {"case": self.case.pk, **details}


@dataclass(frozen=True)
class Decided:
    """What a decision did, in a sentence, and who was told."""

    sentence: str
    told: tuple[int, ...]


def case_decide(
    *, staff: User, case: Case, decision: str, reason: str, revert: bool = True,
    now: datetime | None = None,
) -> Decided:
    """Decide an open case: ``dismiss``, ``warn``, ``remove`` (from the boards) or
    ``close`` (the accounts: a ban). For a farming case any decision but dismiss also
    voids the pair's named matches unless ``revert`` is off: their board points and
    rating changes are taken back for everyone affected (leaderboards.services
    ``matches_void``). Every account's decision is one row of the moderation log; the
    players are told by a notice on their next page (a closed account reads why at
    sign-in). Refuses, changing nothing, an unknown decision, a missing reason, a
    decided case or anyone but a moderator."""
    now = now or timezone.now()
    if decision not in DECISIONS:
        raise FairPlayError(f"Unknown decision {decision!r}; choose one of "
                            f"{', '.join(DECISIONS)}.")
    with transaction.atomic():
        locked = Case.objects.select_for_update().filter(pk=case.pk).first()
        if locked is None or locked.status != Case.Status.OPEN:
            raise FairPlayError(f"Case {case.pk} is already decided.")
        users = list(locked.users.order_by("pk"))
        told: list[int] = []
        done = _apply_decision(staff, locked, users, decision, reason, now, told)
        if locked.kind == Case.Kind.FARMING and decision != Case.Decision.DISMISS and revert:
            done += "; " + _void_pair(staff, locked, users, reason, now, told)
            locked.reverted = True
        locked.status = Case.Status.DECIDED
        locked.decision = decision
        locked.reason = " ".join(reason.split())[:300]
        locked.decided_by = staff
        locked.decided_at = now
        locked.save(update_fields=["status", "decision", "reason", "decided_by", "decided_at",
                                   "reverted"])
    case.refresh_from_db()
    return Decided(sentence=f"Case {case.pk}: {done}.", told=tuple(sorted(set(told))))


def _notify(user_ids: Iterable[int], text: str, case: Case, now: datetime,
            told: list[int]) -> None:
    ids = sorted(set(user_ids))
    Notice.objects.bulk_create(
        [Notice(user_id=pk, text=text[:500], case=case, created_at=now) for pk in ids]
    )
    told.extend(ids)


def _apply_decision(staff: User, case: Case, users: list[User], decision: str, reason: str,
                    now: datetime, told: list[int]) -> str:
    names = ", ".join(u.username for u in users)
    what = "your rated play" if case.kind == Case.Kind.ASSISTANCE else "your rated matches"
    if decision == Case.Decision.DISMISS:
        for user in users:
            _CaseStep(staff=staff, target=user, reason=reason or "No breach found.", case=case,
                      kind=ModerationAction.Kind.FAIRPLAY_DISMISS).execute()
        return f"dismissed ({names} not told: nothing was decided against them)"
    if decision == Case.Decision.WARN:
        for user in users:
            moderation.user_warn(staff=staff, user=user, reason=reason)
        _notify([u.pk for u in users], f"A moderator reviewed {what} and warned you. "
                f"Reason: {' '.join(reason.split())}", case, now, told)
        return f"{names} warned"
    if decision == Case.Decision.REMOVE:
        for user in users:
            _CaseStep(
                staff=staff, target=user, reason=reason, case=case,
                kind=ModerationAction.Kind.BOARD_REMOVE,
                apply=partial(_exclude, user.pk, reason, now),
            ).execute()
        _notify([u.pk for u in users], f"A moderator reviewed {what} and removed you from "
                f"the leaderboards. Reason: {' '.join(reason.split())}", case, now, told)
        for user in users:  # the bell's notification (social hears it)
            events.publish(events.FairPlayDecided(
                user_id=user.pk, decision="remove", reason=" ".join(reason.split()),
            ))
        return f"{names} removed from the boards"
    for user in users:
        moderation.user_ban(staff=staff, user=user, reason=reason)
    return f"{names} closed (banned: they read why at sign-in)"


def _exclude(user_id: int, reason: str, now: datetime) -> dict[str, Any]:
    return {"boards_recomputed": boards.board_exclude(user_ids=[user_id], reason=reason,
                                                      now=now)}


def _void_pair(staff: User, case: Case, users: list[User], reason: str, now: datetime,
               told: list[int]) -> str:
    match_ids = [int(pk) for pk in case.match_ids]
    pair = {u.pk for u in users}
    changed: dict[int, float] = {}
    by_mail: dict[int, float] = {}  # correspondence ratings

    def void() -> dict[str, Any]:
        replayed = boards.matches_void(match_ids=match_ids, reason=reason, now=now)
        changed.update(replayed.live)
        by_mail.update(replayed.correspondence)
        return {"matches": match_ids, "accounts": sorted(pair),
                "rating_changes": {str(k): round(v, 1) for k, v in sorted(changed.items())},
                "correspondence_rating_changes": {
                    str(k): round(v, 1) for k, v in sorted(by_mail.items())}}

    for user in users:  # one row per account of the pair, the first one voiding
        _CaseStep(
            staff=staff, target=user, reason=reason, case=case,
            kind=ModerationAction.Kind.MATCHES_VOID,
            apply=void if user is users[0] else
            (lambda: {"matches": match_ids, "accounts": sorted(pair)}),
        ).execute()
    names = " and ".join(u.username for u in users)
    _notify(pair, f"A moderator found that rated matches between {names} were farmed: "
            f"{len(match_ids)} of them were voided, and their board points and rating "
            "changes no longer count.", case, now, told)
    for user_id, delta in sorted(changed.items()):
        if user_id not in pair and abs(delta) >= 0.5:
            _notify([user_id], f"Your rating was corrected by {delta:+.0f}: rated matches "
                    "found to be farmed were voided, and the ratings they moved were "
                    "recomputed without them.", case, now, told)
    moved = {pk: d for pk, d in by_mail.items() if pk not in pair and abs(d) >= 0.5}
    for user in User.objects.filter(pk__in=moved).order_by("pk"):
        with translation.override(user.language or settings.LANGUAGE_CODE):
            text = gettext(
                "Your correspondence rating was corrected by %(delta)s: matches found to "
                "be farmed were voided, and the ratings they moved were recomputed "
                "without them.") % {"delta": f"{moved[user.pk]:+.0f}"}
        _notify([user.pk], text, case, now, told)
    others = len({pk for pk, d in [*changed.items(), *by_mail.items()]
                  if pk not in pair and abs(d) >= 0.5})
    return (f"{len(match_ids)} matches voided, boards recomputed, ratings replayed "
            f"({len(changed)} players' ratings changed, {others} besides the pair)")


def notice_dismiss(*, user: User, notice_id: int, now: datetime | None = None) -> bool:
    """The player has read a notice of theirs: it is no longer shown. False (nothing
    changed) if it is not theirs or already read."""
    return bool(Notice.objects.filter(pk=notice_id, user_id=user.pk, seen_at__isnull=True)
                .update(seen_at=now or timezone.now()))
