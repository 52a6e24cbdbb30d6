"""Offline matches handed to an account: re-played move by move, stored as unrated history.

The browser plays the computer with no network (games/static/games/offline) and keeps
each match as a record: its rules, the first dealer, and per hand the 32-byte seed and
every action in order. ``offline_match_import`` deals every hand again from its seed
(docs/dealing.md), applies every action with the engine, scores the match, and stores
it as a finished match of kind "offline" (never rated: no rating, no leaderboard), with
its hands and move log like any other match, so the score sheet and the replays work.
Anything that does not replay (an illegal action, a hand left unfinished, a match that
is not over, a score that differs from the claimed one) is refused and nothing is saved.
The computer's moves are checked for legality, not for being the computer's choice.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import messages
from games.engine import ActionError, MatchState
from games.errors import InvalidSettingsError, OfflineMatchRefusedError
from games.models import Hand, Match, Move, Seat
from games.refusals import refusal_sentence

from .matches import rules_for

if TYPE_CHECKING:
    from accounts.models import User

OFFLINE_LEVELS = ("easy", "medium")
MAX_HANDS = 200
MAX_ACTIONS_PER_HAND = 400
OFFLINE_ID = re.compile(r"^[A-Za-z0-9-]{8,64}$")


def _refuse(message: str) -> OfflineMatchRefusedError:
    """The refusal, in the uploader's language (the offline table shows it)."""
    return OfflineMatchRefusedError(
        gettext("This offline match was not saved: %(why)s") % {"why": message}
    )


def _parse_time(value: Any, now: datetime) -> datetime | None:
    """A client timestamp (ISO 8601), kept only if it is plausible (past, within a year)."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if timezone.is_naive(moment) or not now - timedelta(days=366) <= moment <= now:
        return None
    return moment


def _seed(value: Any, number: int) -> bytes:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{64}", value):
        raise _refuse(gettext("hand %(number)s has no valid seed (64 hex digits).")
                      % {"number": number})
    return bytes.fromhex(value)


def _replay(
    rules: Any, first_dealer: int, hands: list[Any], resigned: bool
) -> tuple[Any, list[Any]]:
    """The match re-played by the engine's MatchState from the record's seeds and
    actions: (final match state, [(number, dealer, seed, final hand state, moves)])."""
    replayed: list[Any] = []
    match = None
    for number, hand in enumerate(hands, start=1):
        if not isinstance(hand, Mapping):
            raise _refuse(gettext("hand %(number)s is not an object.") % {"number": number})
        seed = _seed(hand.get("seed"), number)
        actions = hand.get("actions")
        if not isinstance(actions, list) or len(actions) > MAX_ACTIONS_PER_HAND:
            raise _refuse(
                gettext("hand %(number)s has no list of actions (at most %(most)s).")
                % {"number": number, "most": MAX_ACTIONS_PER_HAND}
            )
        if match is None:
            match = MatchState.start(rules, first_dealer, seed)
        elif match.needs_deal:
            match, _ = match.deal_next(seed)
        else:
            raise _refuse(gettext("the match was already over before hand %(number)s.")
                          % {"number": number})
        assert match.hand is not None  # just dealt
        dealer = match.hand.dealer
        moves = []
        for position, entry in enumerate(actions, start=1):
            if not isinstance(entry, Mapping) or entry.get("seat") not in (0, 1):
                raise _refuse(gettext("hand %(number)s, move %(move)s names no seat.")
                              % {"number": number, "move": position})
            seat = entry["seat"]
            try:
                match, _ = match.apply(seat, entry.get("action"))  # type: ignore[arg-type]
            except ActionError as error:
                raise _refuse(
                    gettext("hand %(number)s, move %(move)s is not legal: %(rule)s.")
                    % {"number": number, "move": position, "rule": refusal_sentence(error)}
                ) from error
            moves.append((seat, dict(entry["action"])))
        assert match.hand is not None
        if not match.hand.is_over and not (number == len(hands) and resigned):
            raise _refuse(gettext("hand %(number)s is not finished.") % {"number": number})
        replayed.append((number, dealer, seed, match.hand, moves))
    assert match is not None
    if resigned:
        try:
            match, _ = match.resign(0)
        except ActionError as error:
            raise _refuse(
                gettext("the match was already over: nobody can resign it.")
            ) from error
    if not match.over:
        raise _refuse(gettext("the match is not over."))
    return match, replayed


def offline_match_import(*, user: User, record: Any) -> tuple[Match, bool]:
    """Store an offline match of ``user`` after re-playing it; (match, created).

    Uploading the same record again returns the stored match (``created`` False).
    Raises OfflineMatchRefusedError, changing nothing, for anything that does not replay.
    """
    if not getattr(user, "is_authenticated", False):
        raise _refuse(gettext("sign in first."))
    if not isinstance(record, Mapping):
        raise _refuse(gettext("the upload is not a match record."))
    offline_id = record.get("id")
    if not isinstance(offline_id, str) or not OFFLINE_ID.match(offline_id):
        raise _refuse(gettext("it has no valid id."))
    existing = Match.objects.filter(offline_id=offline_id).first()
    if existing is not None:
        if existing.seats.filter(index=0, user=user).exists():
            return existing, False
        raise _refuse(gettext("another account already uploaded it."))
    level = record.get("level")
    if level not in OFFLINE_LEVELS:
        raise _refuse(gettext("unknown computer level %(level)s.") % {"level": repr(level)})
    variant = record.get("variant")  # rules_for refuses anything but a variant's name
    try:
        rules = rules_for(variant=variant, rules=record.get("rules"))  # type: ignore[arg-type]
    except InvalidSettingsError as error:
        raise _refuse(error.message) from error
    # The offline table has no clock in any variant, and records made before its
    # set-up said "Default" named the default rules "time_freedom" (the preset of the
    # default rules without a clock): stored as what the player chose, the default
    # rules, with no clock in the rules themselves.
    if variant == "time_freedom":
        variant = "default"
    rules = rules.replace(turn_seconds=None)
    dealer = record.get("first_dealer")
    if dealer not in (0, 1) or isinstance(dealer, bool):
        raise _refuse(gettext("the first dealer must be seat 0 or 1."))
    hands = record.get("hands")
    if not isinstance(hands, list) or not 1 <= len(hands) <= MAX_HANDS:
        raise _refuse(gettext("it must have between 1 and %(most)s hands.") % {"most": MAX_HANDS})
    resigned = record.get("resigned", False) is True

    first_dealer = dealer
    final, replayed = _replay(rules, first_dealer, hands, resigned)
    results = list(final.results)
    score = final.score
    claimed = record.get("totals")
    if claimed is not None and claimed != list(score.totals):
        raise _refuse(
            gettext("its totals %(claimed)s differ from the replayed %(replayed)s.")
            % {"claimed": claimed, "replayed": list(score.totals)}
        )

    now = timezone.now()
    started = _parse_time(record.get("started_at"), now) or now
    finished = _parse_time(record.get("finished_at"), now) or now
    try:
        with transaction.atomic():
            match = Match.objects.create(
                kind=Match.Kind.OFFLINE, variant=str(variant), rules=rules.to_dict(),
                status=Match.Status.FINISHED, rated=False, first_dealer=first_dealer,
                winner_seat=score.winner,
                end_reason=Match.EndReason.RESIGN if resigned else Match.EndReason.TARGET,
                final_score=score.to_dict(), offline_id=offline_id,
                started_at=min(started, finished), finished_at=finished,
                version=sum(len(moves) for *_, moves in replayed),
            )
            seats = [
                Seat(match=match, index=0, user=user, connected=False),
                Seat(match=match, index=1, bot_level=level, connected=False),
            ]
            for result in results:
                if result.winner is not None:
                    winner = seats[result.winner]
                    winner.hands_won += 1
                    winner.gins += result.kind == "gin"
                    winner.big_gins += result.kind == "big_gin"
                    winner.undercuts += result.kind == "undercut"
            for seat in seats:
                seat.score = score.totals[seat.index]
            Seat.objects.bulk_create(seats)
            seq = 0
            summaries = []
            for number, hand_dealer, seed, state, moves in replayed:
                result = state.result
                row = Hand.objects.create(
                    match=match, number=number, dealer=hand_dealer, seed=seed,
                    seed_hash=hashlib.sha256(seed).hexdigest(), state=state.to_dict(),
                    result=None if result is None else result.to_dict(),
                    result_kind="" if result is None else result.kind,
                    winner_seat=None if result is None else result.winner,
                    points=0 if result is None else result.points,
                    finished_at=None if result is None else finished,
                )
                if result is not None:
                    summaries.append(messages.hand_summary(row))
                rows = []
                for seat, action in moves:
                    seq += 1
                    rows.append(Move(match=match, hand=row, seq=seq, seat=seat, action=action))
                Move.objects.bulk_create(rows)
            # The table of a finished match lists its hands from the match row.
            Match.objects.filter(pk=match.pk).update(finished_hands=summaries)
            match.finished_hands = summaries
    except IntegrityError as error:  # the same record uploaded twice at once
        existing = Match.objects.filter(offline_id=offline_id, seats__user=user).first()
        if existing is None:
            raise _refuse(gettext("another account already uploaded it.")) from error
        return existing, False
    return match, True
