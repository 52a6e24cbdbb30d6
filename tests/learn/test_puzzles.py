"""Puzzles (games/learn): what the generator keeps (a clear best confirmed by a
stronger re-evaluation, no near copies, themes), answers and their Glicko-2 ratings
(the first answer counts once; a refused answer changes nothing), and the API's
shapes (docs/bot-api.md, "Puzzles")."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client

from games.bots import choose_action
from games.learn import selectors, services
from games.learn.core import puzzles as core
from games.learn.models import Puzzle, PuzzleAttempt, PuzzlePlayer
from tests.factories import create_api_token, create_user

#: Fewer worlds than the site's, so that the tests stay quick.
QUICK = {"screen_worlds": 16, "strong_worlds": 48}


def test_a_kept_puzzle_has_a_clear_best_confirmed_by_the_stronger_evaluation() -> None:
    collection = core.Collection()
    tally = core.Tally()
    kept: list[core.Puzzle] = []
    for seed in range(3):
        state, actions = core.self_play_hand(seed)
        kept += core.find_puzzles(
            state, actions, seed=f"t{seed}", collection=collection, tally=tally, judge_kwargs=QUICK
        )
    assert kept and tally.kept == len(kept) and tally.screened_out > 0
    for puzzle in kept:
        legal = puzzle.view["legal_actions"]
        assert puzzle.legal_actions == legal and puzzle.best in legal
        values = [v.value for v in puzzle.values]
        assert values == sorted(values, reverse=True) and len(values) == len(legal)
        assert core.same_action(puzzle.values[0].action, puzzle.best)
        assert values[0] - values[1] >= core.MARGIN
        assert set(puzzle.themes) <= set(core.THEMES)
        if puzzle.view["phase"] != "discard":
            assert "take_upcard" in puzzle.themes
        # A near copy of a kept puzzle is refused.
        assert not collection.add(puzzle.key)


def test_near_copies_differ_by_at_most_one_card() -> None:
    hand = tuple(sorted("AC 2C 3C 5D 6D 7D 9H TH JS QS KS".split()))
    key = ("discard", "4H", ("discard", "", "KS"), hand)
    other = ("discard", "4H", ("discard", "", "KS"), tuple(sorted([*hand[:-1], "8H"])))
    far = ("discard", "4H", ("discard", "", "KS"), tuple(sorted([*hand[:-2], "8H", "9C"])))
    collection = core.Collection()
    assert collection.add(key) and not collection.add(other) and collection.add(far)
    assert collection.add(("draw", "4H", ("draw", "stock", ""), hand[:10]))


def test_the_stronger_evaluation_must_agree() -> None:
    # A position where nothing is clearly best is not kept: the first turn of a deal
    # where passing and taking are close, judged with an impossible margin.
    state, _actions = core.self_play_hand(5)
    view = state.player_view(state.current_player)
    assert core.judge(view, seed="x", margin=1000.0, **QUICK) is None


def view_at(seed: int, ply: int) -> dict[str, Any]:
    """The view of the player to move at ``ply`` of the self-play hand of ``seed``."""
    state, actions = core.self_play_hand(seed)
    for action in actions[:ply]:
        state, _events = state.apply(action)
    return state.player_view(state.current_player)


def test_a_knock_is_an_answer_only_where_hard_knocks_too() -> None:
    # The playouts play the rest of the hand simply, so they favour knocking: where hard
    # waits, the judge's "clear" knocks won nothing over waiting with hard playing on.
    waits = view_at(9600000, 39)
    hard = choose_action("hard", waits, waits["legal_actions"], random.Random(1))
    assert hard["type"] == "discard"
    assert core.judge(waits, seed="self:9600000:39") is None
    knocks = view_at(9600010, 9)
    verdict = core.judge(knocks, seed="self:9600010:9")
    assert verdict is not None and verdict[0]["type"] == "knock"


@pytest.fixture
def stored(db: Any) -> list[Puzzle]:
    tally = services.puzzles_generate(self_play=2, seed=11, judge=QUICK)
    assert tally["stored"]["self_play"] == tally["kept"] > 0
    return list(Puzzle.objects.order_by("pk"))


def post(client: Client, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, data=json.dumps(body), content_type="application/json")


def wrong_action(puzzle: Puzzle) -> dict[str, Any]:
    return next(a for a in puzzle.legal_actions if not core.same_action(a, puzzle.best))


@pytest.mark.django_db
def test_an_answer_moves_both_ratings_once(stored: list[Puzzle]) -> None:
    player = create_user("solver")
    puzzle = stored[0]
    before = puzzle.rating
    right = services.puzzle_answer(user=player, puzzle_id=puzzle.pk, action=puzzle.best)
    assert right["correct"] and right["streak"] == 1
    assert right["rating"]["after"] > right["rating"]["before"] == 1500
    assert right["values"][0]["action"] == puzzle.best
    puzzle.refresh_from_db()
    assert puzzle.rating < before and puzzle.attempts == 1 and puzzle.solved == 1
    # Answered again, even differently: the first verdict, nothing changes.
    again = services.puzzle_answer(user=player, puzzle_id=puzzle.pk, action=wrong_action(puzzle))
    assert again["correct"] and again["rating"] == right["rating"]
    assert PuzzleAttempt.objects.filter(user=player).count() == 1
    assert PuzzlePlayer.objects.get(user=player).attempts == 1
    # A wrong answer to another: the streak ends, the rating falls.
    other = stored[1]
    wrong = services.puzzle_answer(user=player, puzzle_id=other.pk, action=wrong_action(other))
    assert not wrong["correct"] and wrong["streak"] == 0
    assert wrong["rating"]["after"] < wrong["rating"]["before"]


@pytest.mark.django_db
def test_a_refused_answer_changes_no_rating(stored: list[Puzzle]) -> None:
    from games.errors import IllegalActionError, MalformedActionError

    player = create_user("careless")
    puzzle = stored[0]
    absent = next(c for c in ("AC", "AD", "AH", "AS", "2C") if c not in puzzle.view["hand"])
    illegal = {"type": "discard", "card": absent}
    if puzzle.view["phase"] != "discard":
        illegal = {"type": "big_gin"}
    with pytest.raises(IllegalActionError):
        services.puzzle_answer(user=player, puzzle_id=puzzle.pk, action=illegal)
    with pytest.raises(MalformedActionError):
        services.puzzle_answer(user=player, puzzle_id=puzzle.pk, action={"type": "fly"})
    assert not PuzzlePlayer.objects.filter(user=player).exists()
    assert not PuzzleAttempt.objects.exists()
    puzzle.refresh_from_db()
    assert puzzle.attempts == 0


@pytest.mark.django_db
def test_the_api_serves_and_rates_puzzles(stored: list[Puzzle]) -> None:
    bot = create_user("solverbot")
    token, _row = create_api_token(bot)
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert Client().get("/api/puzzle/next").status_code == 401
    puzzle = client.get("/api/puzzle/next").json()
    assert set(puzzle) == {"id", "rating", "themes", "view", "legal_actions"}
    assert puzzle["legal_actions"] == puzzle["view"]["legal_actions"]
    row = Puzzle.objects.get(pk=puzzle["id"])
    url = f"/api/puzzle/{row.pk}/answer"
    bad = post(client, url, {"action": {"type": "discard", "card": "ZZ"}})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "malformed_action"
    no_action = post(client, url, {})
    assert no_action.status_code == 400 and no_action.json()["error"]["code"] == "malformed_action"
    verdict = post(client, url, {"action": row.best}).json()
    assert set(verdict) == {"correct", "best", "values", "rating", "streak", "retired"}
    assert verdict["retired"] is False
    assert verdict["correct"] and set(verdict["rating"]) == {"before", "after"}
    assert all(set(v) == {"action", "value"} for v in verdict["values"])
    twice = post(client, url, {"action": row.best}).json()
    assert twice["rating"] == verdict["rating"]
    assert client.get("/api/puzzle/next").json()["id"] != row.pk
    unknown = post(client, "/api/puzzle/999999/answer", {"action": {"type": "pass"}})
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "no_such_puzzle"
    daily = Client().get("/api/puzzle/daily")
    assert daily.status_code == 200 and daily.json()["id"] in {p.pk for p in stored}


@pytest.mark.django_db
def test_the_daily_puzzle_is_the_same_all_day(stored: list[Puzzle]) -> None:
    from datetime import date

    day = date(2026, 12, 4)
    assert selectors.puzzle_daily(day=day) == selectors.puzzle_daily(day=day)
    assert selectors.puzzle_daily(day=day) is not None


@pytest.mark.django_db
def test_the_page_answers_a_visitor_as_a_new_guest(stored: list[Puzzle]) -> None:
    client = Client(enforce_csrf_checks=False)
    assert client.get("/learn/puzzles/").status_code == 200
    data = client.get("/learn/puzzles/next/").json()
    assert data["player"]["rating"] == 1500
    puzzle = Puzzle.objects.get(pk=data["puzzle"]["id"])
    verdict = post(client, f"/learn/puzzles/{puzzle.pk}/answer/", {"action": puzzle.best}).json()
    assert verdict["correct"]
    assert PuzzleAttempt.objects.get().user.is_guest


@pytest.mark.django_db
def test_finished_hands_of_rated_matches_are_mined_once() -> None:
    from games import services as game_services
    from games.engine import RuleSet
    from games.learn.models import MinedHand
    from games.models import Match
    from tests.games.helpers import play_until_hand

    player = create_user("miner")
    # To 200, no single hand can end the match: hands 1 and 2 are always finished when
    # hand 3 is dealt (the deal is the site's own, unseeded: to 50, a one-hand match
    # left the second run nothing to mine).
    rules = RuleSet.time_freedom().replace(target_score=200)
    match = game_services.match_create_computer(
        user=player, level="easy", rules=rules, variant="time_freedom"
    )
    play_until_hand(match, 3, random.Random(3))
    assert match.hands.filter(result__isnull=False).count() >= 2
    Match.objects.filter(pk=match.pk).update(rated=True)  # as a rated match's hands
    for _run in range(2):
        tally = services.puzzles_generate(from_matches=1, judge=QUICK, every=4)
        assert tally["decisions"] > 0
    mined = list(MinedHand.objects.values_list("hand_id", flat=True))
    assert len(mined) == len(set(mined)) == 2  # each run took a hand not looked through
    for puzzle in Puzzle.objects.filter(source="match"):
        assert puzzle.hand is not None and puzzle.hand.match_id == match.pk
        assert puzzle.hand_id in mined
