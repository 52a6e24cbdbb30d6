"""Writes of the analysis: analysing a finished hand once, the sweep that makes
sure every finished hand gets analysed, and hints.

``hand_finished`` is what live play calls (on commit) when a hand ends: the
analysis then runs on the "analysis" Celery queue, or in the embedded mode on the
background thread of ginsite/runtime.py's scheduler; never on the path of a move.
"""

from __future__ import annotations

import logging
import random
import time
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, connections, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.bots import choose_action
from games.bots.analysis import LABELS, Setting, analyse_hand
from games.engine import HandState, RuleSet
from games.errors import (
    MatchNotStartedError,
    MatchOverError,
    NotAPlayerError,
    NotYourTurnError,
    ServiceError,
    StaleVersionError,
)
from games.models import Hand, Match, Move, Seat
from games.selectors import engine_state
from ginsite import runtime

from .models import HandAnalysis, Hint
from .selectors import hint_allowed

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

CLAIM_SECONDS = 120
"""A claim on a hand older than this is taken over (its worker is presumed lost):
an analysis takes a few seconds."""
SWEEP_BATCH = 20
"""Hands the periodic sweep enqueues at most per run."""
HINT_LEVEL = "expert"


class HintNotAllowedError(ServiceError):
    status = 403
    code = "hint_not_allowed"
    default_message = gettext_lazy(
        "Hints are only available in unrated matches against the computer."
    )


def hand_finished(hand_id: int) -> None:
    """Have the finished hand analysed, off the request path (called on commit): the
    "analysis" queue's worker, or the embedded mode's background thread."""
    runtime.scheduler().run_in_background("analysis.hand_analyse", {"hand_id": hand_id})


def analysis_setting() -> Setting:
    """The setting of ``settings.ANALYSIS_MAX_WORLDS`` (docs/analysis.md)."""
    most = max(8, settings.ANALYSIS_MAX_WORLDS)
    return Setting(min_worlds=min(Setting.min_worlds, most), max_worlds=most)


def _claim(hand: Hand, now: datetime) -> bool:
    """Whether this worker may analyse ``hand`` now (nobody did, nobody is)."""
    try:
        row, created = HandAnalysis.objects.get_or_create(
            hand=hand, defaults={"match_id": hand.match_id, "claimed_at": now}
        )
    except IntegrityError:  # another worker created it between the get and the create
        return False
    if created:
        return True
    if row.done:
        return False
    stale = now - timedelta(seconds=CLAIM_SECONDS)
    return (
        HandAnalysis.objects.filter(pk=row.pk, done=False, claimed_at__lt=stale)
        .update(claimed_at=now)
        == 1
    )


def hand_analyse(*, hand_id: int, now: datetime | None = None) -> bool:
    """Analyse a finished hand and store it, once: returns True if this call did
    it, False if the hand is not finished, is analysed already or is being
    analysed by another worker."""
    now = now or timezone.now()
    hand = Hand.objects.select_related("match").filter(pk=hand_id).first()
    if hand is None or hand.result is None or not _claim(hand, now):
        return False
    actions = list(Move.objects.filter(hand=hand).order_by("seq").values_list("action", flat=True))
    state = HandState.deal(RuleSet.from_dict(hand.match.rules), hand.dealer, bytes(hand.seed))
    setting = analysis_setting()
    started = time.process_time()
    analysis = analyse_hand(state, actions, seed=hand.seed_hash, setting=setting)
    cpu = time.process_time() - started
    decisions = [d.to_dict() for d in analysis.decisions]
    counts = [
        {name: sum(1 for d in decisions if d["seat"] == seat and d["label"] == name)
         for name in LABELS}
        for seat in (0, 1)
    ]
    stored = HandAnalysis.objects.filter(hand=hand, done=False).update(
        done=True,
        decisions=decisions,
        accuracy=analysis.accuracy,
        counts=counts,
        setting=f"worlds {setting.min_worlds}-{setting.max_worlds}, "
        f"error {setting.target_error}",
        cpu_seconds=round(cpu, 3),
        completed_at=timezone.now(),
    )
    logger.info("analysed hand %s of match %s in %.2f s CPU", hand.number, hand.match_id, cpu)
    return stored == 1


def analysis_sweep(*, now: datetime | None = None) -> int:
    """Enqueue the analysis of finished hands that have none (or a stale claim),
    oldest first, at most SWEEP_BATCH; returns how many. Hands finished in the last
    CLAIM_SECONDS are left to the task their end enqueued."""
    now = now or timezone.now()
    stale = now - timedelta(seconds=CLAIM_SECONDS)
    ids = list(
        Hand.objects.filter(result__isnull=False, finished_at__lt=stale)
        .filter(Q(analysis__isnull=True) | Q(analysis__done=False, analysis__claimed_at__lt=stale))
        .order_by("finished_at")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    for hand_id in ids:
        hand_finished(hand_id)
    return len(ids)


def hint_request_on_thread(*, match_id: int, user: User, version: int | None) -> dict[str, Any]:
    """``hint_request`` on a thread of its own (the expert thinks for a fraction of a
    second): its database connection closes here, as no request cycle will close it."""
    try:
        return hint_request(match_id=match_id, user=user, version=version)
    finally:
        connections.close_all()


def hint_request(*, match_id: int, user: User, version: int | None = None) -> dict[str, Any]:
    """The expert's suggested action for the caller's position, counted once per
    position: ``{"action", "version", "hints_used"}``; like the live expert, it is
    given the match score and plays for the match. Refuses (changing nothing)
    outside unrated matches against the computer, for anyone but the player, when
    it is not their turn, or when ``version`` is not the position on the table."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise NotAPlayerError()
    seat = None
    if getattr(user, "is_authenticated", False):
        seat = Seat.objects.filter(match=match, user_id=user.pk).first()
    if seat is None:
        raise NotAPlayerError()
    if not hint_allowed(match):
        raise HintNotAllowedError()
    if match.status == Match.Status.FINISHED:
        raise MatchOverError()
    if match.status == Match.Status.WAITING:
        raise MatchNotStartedError()
    if version is not None and version != match.version:
        raise StaleVersionError()
    hand = Hand.objects.filter(match=match).order_by("-number").first()
    assert hand is not None
    state = HandState.from_dict(hand.state)
    if state.current_player != seat.index:
        raise NotYourTurnError(_("Hints are given on your turn."))
    existing = Hint.objects.filter(match=match, seat=seat.index, version=match.version).first()
    if existing is None:
        rng = random.Random(f"hint:{hand.seed_hash}:{match.version}")
        scores = engine_state(match, hand).score.hand_points
        action = choose_action(
            HINT_LEVEL, state.player_view(seat.index), state.legal_actions(), rng,
            scores=scores,
        )
        if action.get("source") == "discard":  # name the card, as the analysis does
            action = {**action, "card": str(state.discard_pile[-1])}
        with transaction.atomic():
            existing, _created = Hint.objects.get_or_create(
                match=match, seat=seat.index, version=match.version,
                defaults={"hand": hand, "action": action},
            )
    return {
        "action": existing.action,
        "version": match.version,
        "hints_used": Hint.objects.filter(match=match, seat=seat.index).count(),
    }
