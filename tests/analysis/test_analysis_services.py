"""The analysis of finished hands in the site: stored once per hand, idempotent
under redelivery, swept up when lost, readable through the API by the right
people; and hints, given only in unrated matches against the computer."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.analysis import services as analysis
from games.analysis.models import HandAnalysis, Hint
from games.engine import RuleSet
from games.models import Hand, Match, Move, Seat
from games.services.matches import create_started_match
from tests.factories import create_match, create_user, play_to_turn_of
from tests.games.helpers import current_state, play_one, play_out, play_until_hand

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick_analysis(settings):
    """Few worlds per decision: these tests check storage and access, not precision."""
    settings.ANALYSIS_MAX_WORLDS = 16

SHORT = RuleSet.default().replace(target_score=50)
LONG = RuleSet.default().replace(target_score=250)


def finished_hands(match: Match) -> list[Hand]:
    return list(Hand.objects.filter(match=match, result__isnull=False).order_by("number"))


def test_every_finished_hand_is_sent_for_analysis_once_it_commits(
    django_capture_on_commit_callbacks, monkeypatch
):
    sent: list[int] = []
    monkeypatch.setattr(analysis, "hand_finished", sent.append)
    alice = create_user("alice")
    match = create_match(alice, "easy", rules=SHORT)
    rng = random.Random(1)
    with django_capture_on_commit_callbacks(execute=True):
        play_out(match, rng)
    assert sent == [h.pk for h in finished_hands(match)]
    assert sent


def test_a_hand_ends_for_the_players_even_when_the_analysis_queue_is_down(
    django_capture_on_commit_callbacks, monkeypatch
):
    """The broker unreachable as the hand ends: the move still answers and the game
    goes on (the periodic sweep sends the hand later)."""
    from kombu.exceptions import OperationalError

    from games.analysis import tasks

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(tasks.hand_analyse, "delay", broker_down)
    alice = create_user("alice")
    match = create_match(alice, "easy", rules=SHORT)
    with django_capture_on_commit_callbacks(execute=True):
        play_until_hand(match, 2, random.Random(3))
    assert finished_hands(match)
    assert not HandAnalysis.objects.filter(match=match).exists()


def test_a_hand_is_analysed_once_and_a_redelivered_task_changes_nothing():
    alice = create_user("alice")
    match = create_match(alice, "easy", rules=SHORT)
    play_until_hand(match, 2, random.Random(2))
    hand = finished_hands(match)[0]
    assert analysis.hand_analyse(hand_id=hand.pk) is True
    row = HandAnalysis.objects.get(hand=hand)
    moves = list(Move.objects.filter(hand=hand).order_by("seq"))
    assert row.done
    assert [d["ply"] for d in row.decisions] == list(range(len(moves)))
    assert [d["seat"] for d in row.decisions] == [m.seat for m in moves]
    assert all(0 <= a <= 100 for a in row.accuracy if a is not None)
    before = (row.decisions, row.completed_at)
    assert analysis.hand_analyse(hand_id=hand.pk) is False
    row.refresh_from_db()
    assert (row.decisions, row.completed_at) == before
    assert HandAnalysis.objects.filter(hand=hand).count() == 1


def test_a_hand_still_in_play_is_not_analysed():
    alice = create_user("alice")
    match = create_match(alice, "easy", rules=SHORT)
    hand = Hand.objects.get(match=match)
    assert analysis.hand_analyse(hand_id=hand.pk) is False
    assert not HandAnalysis.objects.exists()


def test_a_claimed_hand_is_left_to_its_worker_until_the_claim_is_stale():
    alice = create_user("alice")
    match = create_match(alice, "easy", rules=SHORT)
    play_until_hand(match, 2, random.Random(3))
    hand = finished_hands(match)[0]
    now = timezone.now()
    HandAnalysis.objects.create(hand=hand, match=match, claimed_at=now)
    assert analysis.hand_analyse(hand_id=hand.pk, now=now + timedelta(seconds=5)) is False
    assert not HandAnalysis.objects.get(hand=hand).done
    later = now + timedelta(seconds=analysis.CLAIM_SECONDS + 1)
    assert analysis.hand_analyse(hand_id=hand.pk, now=later) is True
    assert HandAnalysis.objects.get(hand=hand).done


def test_the_sweep_enqueues_finished_hands_left_without_analysis(monkeypatch):
    sent: list[int] = []
    monkeypatch.setattr(analysis, "hand_finished", sent.append)
    alice = create_user("alice")
    match = create_match(alice, "easy", rules=LONG)
    play_until_hand(match, 4, random.Random(4))
    hands = finished_hands(match)
    assert len(hands) >= 3
    now = timezone.now()
    assert analysis.analysis_sweep(now=now) == 0  # just finished: their own tasks run
    later = now + timedelta(seconds=analysis.CLAIM_SECONDS + 1)
    analysis.hand_analyse(hand_id=hands[0].pk)
    HandAnalysis.objects.create(hand=hands[1], match=match, claimed_at=later)
    assert analysis.analysis_sweep(now=later) == len(hands) - 2
    assert sent == [h.pk for h in hands[2:]]


def test_the_api_lists_finished_analysed_hands_in_the_documented_shape(
    client
):
    alice = create_user("alice")
    match = create_match(alice, "easy", rules=LONG)
    play_until_hand(match, 3, random.Random(5))
    for hand in finished_hands(match):
        analysis.hand_analyse(hand_id=hand.pk)
    play_one(match, random.Random(6))  # the hand in play has moves, no analysis
    client.force_login(alice)
    reply = client.get(f"/api/match/{match.pk}/analysis")
    assert reply.status_code == 200
    body = reply.json()
    assert set(body) == {"match", "hands"} and body["match"] == match.pk
    assert [h["number"] for h in body["hands"]] == [h.number for h in finished_hands(match)]
    for entry in body["hands"]:
        assert set(entry) == {"number", "decisions", "accuracy"}
        assert len(entry["accuracy"]) == 2
        for ply, decision in enumerate(entry["decisions"]):
            assert set(decision) == {"ply", "seat", "played", "best", "loss", "label"}
            assert decision["ply"] == ply
            assert decision["label"] in (None, "inaccuracy", "mistake", "blunder")
            assert decision["loss"] >= 0
            if decision["played"] == {"type": "draw", "source": "discard"}:
                raise AssertionError("a draw from the discard pile must name its card")
            if decision["played"]["type"] == "draw" and decision["played"]["source"] == "discard":
                assert len(decision["played"]["card"]) == 2


def test_the_api_is_for_the_players_while_the_match_runs_and_for_anyone_after(
    client
):
    alice = create_user("alice")
    bob = create_user("bob")
    match = create_match(alice, "easy", rules=SHORT)
    url = f"/api/match/{match.pk}/analysis"
    assert client.get(url).status_code == 403
    client.force_login(bob)
    assert client.get(url).json()["error"]["code"] == "not_a_player"
    services.match_resign(match=match, user=alice)
    assert client.get(url).status_code == 200
    client.logout()
    reply = client.get(url)
    assert reply.status_code == 200
    assert reply.json() == {"match": match.pk, "hands": []}  # the resigned hand is not listed
    assert client.get("/api/match/999999/analysis").status_code == 404


# --- hints ---------------------------------------------------------------------------


def ask(client, match: Match, body: dict | None = None):
    return client.post(
        f"/match/{match.pk}/hint",
        data=json.dumps(body) if body is not None else "",
        content_type="application/json",
    )


@pytest.mark.django_db(transaction=True)
def test_a_hint_suggests_a_legal_action_and_counts_once_per_position(client):
    alice = create_user("alice")
    match = play_to_turn_of(create_match(alice, "easy", rules=SHORT), alice)
    client.force_login(alice)
    reply = ask(client, match, {"version": match.version})
    assert reply.status_code == 200, reply.content
    body = reply.json()
    state = current_state(match)
    legal = state.legal_actions()
    action = {k: v for k, v in body["action"].items() if not (k == "card" and v and
              body["action"].get("type") == "draw")}
    assert action in legal
    assert body["hints_used"] == 1 and body["version"] == match.version
    again = ask(client, match).json()
    assert again == body
    assert Hint.objects.filter(match=match).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_hint_is_refused_when_it_is_not_your_turn_or_the_position_moved(
    client
):
    alice = create_user("alice")
    match = play_to_turn_of(create_match(alice, "easy", rules=SHORT), alice)
    client.force_login(alice)
    stale = ask(client, match, {"version": match.version - 1})
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_version"
    for _ in range(3):  # play on until the computer is to move
        match.refresh_from_db()
        if Seat.objects.get(match=match, index=match.current_seat).bot_level:
            break
        action = next(a for a in current_state(match).legal_actions() if a["type"] != "knock")
        services.move_submit(
            match=match, user=alice, action=action, expected_version=match.version
        )
    refused = ask(client, match)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_your_turn"
    assert ask(client, match, {"version": "x"}).status_code == 400
    assert not Hint.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("kind", "rated"),
    [
        (Match.Kind.COMPUTER, True),
        (Match.Kind.QUICK, True),
        (Match.Kind.FRIEND, True),
        (Match.Kind.FRIEND, False),
        ("tournament", False),
    ],
)
def test_the_server_refuses_hints_outside_unrated_matches_against_the_computer(
    client, kind, rated
):
    alice = create_user("alice")
    bob = create_user("bob")
    if kind == Match.Kind.COMPUTER:
        match = create_started_match(
            kind=kind, variant="default", rules=SHORT, rated=rated, players=[alice, None],
            bot_level="easy",
        )
    else:
        match = create_started_match(
            kind=kind, variant="default", rules=SHORT, rated=rated, players=[alice, bob]
        )
    match.refresh_from_db()
    seat = Seat.objects.get(match=match, index=match.current_seat)
    asker = seat.user or alice
    client.force_login(asker)
    reply = ask(client, match)
    assert reply.status_code == 403
    assert reply.json()["error"]["code"] == "hint_not_allowed"
    assert not Hint.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_only_the_player_gets_a_hint(client):
    alice = create_user("alice")
    bob = create_user("bob")
    match = play_to_turn_of(create_match(alice, "easy", rules=SHORT), alice)
    assert ask(client, match).status_code == 403  # anonymous
    client.force_login(bob)
    assert ask(client, match).json()["error"]["code"] == "not_a_player"
    assert client.get(f"/match/{match.pk}/hint").status_code == 405
    assert not Hint.objects.exists()


def test_the_hint_button_is_on_the_table_only_where_hints_are_allowed(client):
    alice = create_user("alice")
    bob = create_user("bob")
    computer = create_match(alice, "easy", rules=SHORT)
    friend = create_started_match(
        kind=Match.Kind.FRIEND, variant="default", rules=SHORT, rated=True, players=[alice, bob]
    )
    client.force_login(alice)
    assert b"data-hint-bar" in client.get(f"/match/{computer.pk}/").content
    assert b"data-hint-bar" not in client.get(f"/match/{friend.pk}/").content
    client.force_login(bob)
    assert b"data-hint-bar" not in client.get(f"/match/{computer.pk}/").content  # not his
