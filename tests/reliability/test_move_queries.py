"""Per move the server runs a small, fixed number of SQL queries: the same in the
first hand and in later ones, however long the match's history.

Counted for a player's action through ``move_submit`` with everything that runs
after commit (the broadcast's state messages; follow-up tasks go to the broker, not
the database), and for the computer's action through ``bot_turn_play``.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import broadcast, services
from games.engine import RuleSet
from games.models import Hand, Match, Seat
from games.services import scheduling
from tests.games.helpers import current_state, make_user
from tests.games.sockets import choose_from_view

pytestmark = pytest.mark.django_db

# A move: lock the match, its seats and hand; write the move, the hand and the match
# row; then the broadcast reads the seats, and the hands with the match row, once for
# all audiences (counted inside the test's transaction: two of them are the
# savepoint's).
MAX_QUERIES_PER_MOVE = 11


@pytest.fixture(autouse=True)
def _no_sending(monkeypatch):
    monkeypatch.setattr(broadcast, "_group_send", lambda sends: None)
    monkeypatch.setattr(scheduling, "bot_turn", lambda **kwargs: None)
    monkeypatch.setattr(scheduling, "clock_check", lambda **kwargs: None)


def queries_of_moves(match: Match, users: dict, count: int, capture_commit) -> list[int]:
    """Play ``count`` moves of whoever is to move; the queries of each (mid-hand moves
    only: a move that ends a hand also writes the result and deals the next one)."""
    rng = random.Random(1)
    counts = []
    while len(counts) < count:
        match.refresh_from_db()
        seat = match.current_seat
        hand_before = Hand.objects.filter(match=match).count()
        with CaptureQueriesContext(connection) as queries, capture_commit(execute=True):
            if users[seat] is None:
                services.bot_turn_play(match_id=match.pk, expected_version=match.version)
            else:
                view = current_state(match).player_view(seat)
                action = choose_from_view(view) if rng.random() < 0.7 else rng.choice(
                    [a for a in view["legal_actions"] if a["type"] != "knock"]
                    or view["legal_actions"]
                )
                services.move_submit(match=match, user=users[seat], action=action,
                                     expected_version=match.version)
        if Hand.objects.filter(match=match).count() == hand_before:
            counts.append(len(queries))
    return counts


@pytest.mark.parametrize("opponent", ["person", "computer"])
def test_the_queries_of_a_move_are_few_and_do_not_grow(
    django_user_model, django_capture_on_commit_callbacks, opponent
):
    alice, bob = make_user(django_user_model, "alice"), make_user(django_user_model, "bob")
    rules = RuleSet.default().replace(target_score=250)
    with django_capture_on_commit_callbacks(execute=True):
        if opponent == "computer":
            match = services.match_create_computer(user=alice, level="easy", rules=rules)
        else:
            match = services.match_create_invite(user=alice, rules=rules, variant="default")
            match = services.match_join_invite(user=bob, token=match.invite_token)
    users = {s.index: s.user for s in Seat.objects.filter(match=match).select_related("user")}
    first_hand = queries_of_moves(match, users, 12, django_capture_on_commit_callbacks)
    while Hand.objects.filter(match=match).count() < 4:  # three hands of history
        queries_of_moves(match, users, 1, django_capture_on_commit_callbacks)
    later = queries_of_moves(match, users, 12, django_capture_on_commit_callbacks)
    assert max(first_hand + later) <= MAX_QUERIES_PER_MOVE, (first_hand, later)
    assert len(set(first_hand + later)) == 1, (first_hand, later)  # fixed, whatever the move
