"""Writes of learning: recording finished lessons (an account's own, and those a
browser kept for a visitor who then signed up or in); keeping the puzzles the core
finds (``puzzles_generate``: the command, the periodic job) and answering them, which
moves the player's and the puzzle's Glicko-2 ratings (leaderboards/glicko2.py);
retiring a puzzle whose answer is doubtful (staff in the admin, or
``puzzles_rejudge``, which asks the knock puzzles again) and restoring it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.errors import MalformedAction
from games.engine.state import parse_action
from games.errors import IllegalActionError, MalformedActionError
from games.refusals import action_refused
from leaderboards.glicko2 import GameResult, Glicko2Rating, rate

from . import selectors
from .core import puzzles as core
from .core.lessons import lesson_slugs
from .core.puzzles import Puzzle as CorePuzzle
from .errors import LearnError, NoSuchPuzzleError
from .models import LessonDone, MinedHand, Puzzle, PuzzleAttempt, PuzzlePlayer
from .selectors import lessons_done

#: A new puzzle's rating deviation: its starting rating is a guess (core.initial_rating).
PUZZLE_DEVIATION = 250.0

MAX_LESSONS = 50


def lessons_record(*, user: Any, lessons: Iterable[object]) -> list[str]:
    """Mark ``lessons`` (slugs) finished for ``user`` (already finished ones stay as
    they were) and return every lesson the account has finished. Refuses
    (``unknown_lesson``, nothing written) a slug that is not a lesson of the course."""
    wanted = list(lessons)[:MAX_LESSONS + 1]
    known = set(lesson_slugs())
    if len(wanted) > MAX_LESSONS or any(not isinstance(s, str) or s not in known for s in wanted):
        raise LearnError("That is not a lesson of the course.")
    slugs = [str(slug) for slug in dict.fromkeys(wanted)]
    with transaction.atomic():
        LessonDone.objects.bulk_create(
            [LessonDone(user=user, lesson=slug) for slug in slugs],
            ignore_conflicts=True,
        )
    return lessons_done(user=user)


# --- puzzles -----------------------------------------------------------------------------


def puzzles_store(
    *, puzzles: Iterable[CorePuzzle], source: str, hand_id: int | None = None
) -> int:
    """Keep ``puzzles`` (found by games/learn/core/puzzles.py) from ``source``; for a
    hand of a rated match, mark it looked through. Returns how many were stored."""
    rows = [
        Puzzle(
            source=source, hand_id=hand_id, ply=p.source_ply, view=p.view,
            legal_actions=p.legal_actions, best=p.best, values=p.values_json(),
            themes=p.themes, key=list(p.key), worlds=p.worlds, rating=p.rating,
            deviation=PUZZLE_DEVIATION,
        )
        for p in puzzles
    ]
    with transaction.atomic():
        created = Puzzle.objects.bulk_create(rows, ignore_conflicts=hand_id is not None)
        if hand_id is not None:
            MinedHand.objects.get_or_create(hand_id=hand_id, defaults={"kept": len(rows)})
    return len(created)


def _collection() -> core.Collection:
    collection = core.Collection()
    for key in selectors.puzzle_keys():
        collection.add((key[0], key[1], tuple(key[2]), tuple(key[3])))
    return collection


def puzzles_generate(
    *, self_play: int = 0, from_matches: int = 0, seed: int = 0,
    judge: Mapping[str, Any] | None = None, every: int = 1,
    judge_with: Callable[..., core.Verdict | None] | None = None,
) -> dict[str, Any]:
    """Look for new puzzles in ``from_matches`` finished hands of rated matches and in
    ``self_play`` hands of the computer against itself (medium against medium, dealt
    from ``seed`` on); keep those the core judges clear and new. Returns the tally."""
    collection = _collection()
    tally = core.Tally()
    stored = {"match": 0, "self_play": 0}
    for hand_id, state, actions in selectors.hands_to_mine(limit=from_matches):
        found = core.find_puzzles(state, actions, seed=f"hand:{hand_id}", collection=collection,
                                  tally=tally, judge_kwargs=judge, every=every,
                                  judge_with=judge_with)
        stored["match"] += puzzles_store(puzzles=found, source=Puzzle.Source.MATCH, hand_id=hand_id)
    for n in range(self_play):
        state, actions = core.self_play_hand(seed + n)
        found = core.find_puzzles(state, actions, seed=f"self:{seed + n}", collection=collection,
                                  tally=tally, judge_kwargs=judge, every=every,
                                  judge_with=judge_with)
        stored["self_play"] += puzzles_store(puzzles=found, source=Puzzle.Source.SELF_PLAY)
    return {"decisions": tally.decisions, "screened_out": tally.screened_out,
            "near_copies": tally.near_copies, "kept": tally.kept, "stored": stored}


#: Why ``puzzles_rejudge`` retires a puzzle (shown in the admin).
HARD_WAITS = "hard waits here: the knock is no clear answer"


def puzzles_retire(*, puzzles: QuerySet[Puzzle], because: str) -> int:
    """Retire ``puzzles`` (those in play among them): nobody is given them any more
    and answers to them count for nothing; their attempts stay. Returns how many."""
    return puzzles.filter(retired_at__isnull=True).update(
        retired_at=timezone.now(), retired_because=because[:200]
    )


def puzzles_restore(*, puzzles: QuerySet[Puzzle]) -> int:
    """Put retired ``puzzles`` back in play. Returns how many."""
    return puzzles.filter(retired_at__isnull=False).update(retired_at=None, retired_because="")


def puzzles_rejudge(*, limit: int | None = None, dry_run: bool = False) -> dict[str, int]:
    """Ask the knock puzzles in play again whether the hard computer knocks there too
    (the generator's check 4, which puzzles kept before it never passed) and retire
    those where it waits, unless ``dry_run``; at most ``limit`` puzzles, oldest first.
    Returns the tally."""
    asked = selectors.knock_puzzles_in_play()
    if limit is not None:
        asked = asked[:limit]
    waits = [p.pk for p in asked if not core.hard_knocks_too(p.view, seed=f"puzzle:{p.pk}")]
    retired = 0
    if not dry_run:
        retired = puzzles_retire(puzzles=Puzzle.objects.filter(pk__in=waits), because=HARD_WAITS)
    return {"asked": len(asked), "hard_waits": len(waits), "retired": retired}


def _rating(row: Any) -> Glicko2Rating:
    return Glicko2Rating(row.rating, row.deviation, row.volatility)


def puzzle_answer(*, user: Any, puzzle_id: int, action: object) -> dict[str, Any]:
    """``user`` answers puzzle ``puzzle_id`` with ``action`` (one of its legal actions):
    the verdict, the best action, every legal action's expected points, and the
    player's rating before and after. The first answer counts (an attempt updates
    the Glicko-2 ratings of the player and of the puzzle, and the streak); answering
    again returns the first verdict and changes nothing; so does an answer to a retired
    puzzle (its rating before and after the same). Refused, with nothing changed:
    ``no_such_puzzle``, ``malformed_action``, ``illegal_action``."""
    puzzle = selectors.puzzle_get(puzzle_id=puzzle_id)
    if puzzle is None:
        raise NoSuchPuzzleError()
    try:
        parsed = parse_action(action)
    except MalformedAction as error:
        raise action_refused(error) from None
    if parsed.get("type") == "knock" and "card" not in parsed:
        raise MalformedActionError(
            _('Name the card to knock with: {"type": "knock", "card": "TD"}.')
        )
    given = {k: str(v) if k == "card" else v for k, v in parsed.items()}
    if not any(core.same_action(given, legal) for legal in puzzle.legal_actions):
        raise IllegalActionError(_("That action is not one of this puzzle's legal actions."))
    correct = core.same_action(given, puzzle.best)
    if puzzle.retired_at is not None and not selectors.puzzle_attempt(user=user, puzzle=puzzle):
        standing = selectors.puzzle_player(user=user)
        return _verdict(puzzle, correct=correct, before=standing["rating"],
                        after=standing["rating"], streak=standing["streak"])
    with transaction.atomic():
        player, _created = PuzzlePlayer.objects.select_for_update().get_or_create(user=user)
        player = PuzzlePlayer.objects.select_for_update().get(pk=player.pk)
        earlier = selectors.puzzle_attempt(user=user, puzzle=puzzle)
        if earlier is None:
            locked = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
            before_player, before_puzzle = _rating(player), _rating(locked)
            after_player = rate(before_player, [GameResult(before_puzzle, 1.0 if correct else 0.0)])
            after_puzzle = rate(before_puzzle, [GameResult(before_player, 0.0 if correct else 1.0)])
            earlier = PuzzleAttempt.objects.create(
                user=user, puzzle=locked, action=given, correct=correct,
                rating_before=player.rating, rating_after=after_player.rating,
            )
            player.rating, player.deviation, player.volatility = (
                after_player.rating, after_player.deviation, after_player.volatility)
            player.attempts += 1
            player.solved += int(correct)
            player.streak = player.streak + 1 if correct else 0
            player.best_streak = max(player.best_streak, player.streak)
            player.save()
            locked.rating, locked.deviation, locked.volatility = (
                after_puzzle.rating, after_puzzle.deviation, after_puzzle.volatility)
            locked.attempts += 1
            locked.solved += int(correct)
            locked.save(update_fields=["rating", "deviation", "volatility", "attempts", "solved"])
    return _verdict(puzzle, correct=earlier.correct, before=earlier.rating_before,
                    after=earlier.rating_after, streak=player.streak)


def _verdict(
    puzzle: Puzzle, *, correct: bool, before: float, after: float, streak: int
) -> dict[str, Any]:
    """The answer's shape (docs/bot-api.md, "Puzzles"; schemas.PuzzleVerdict)."""
    return {
        "correct": correct,
        "best": puzzle.best,
        "values": puzzle.values,
        "rating": {"before": round(before), "after": round(after)},
        "streak": streak,
        "retired": puzzle.retired_at is not None,
    }
