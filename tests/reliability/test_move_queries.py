"""Per move the server runs at most five SQL statements, BEGIN and COMMIT included:
the same in the first hand and in later ones, however long the match's history, and
the same for a move that ends a hand and deals the next.

Counted for a player's action through ``move_submit`` with everything that runs
after commit (the messages are built from the state in memory; the computer's next
move goes to the broker, not the database), and for the computer's action through
``bot_turn_play``.
"""

from __future__ import annotations

import random
import re
import tempfile

import pytest
import sqlparse
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games import broadcast, services
from games.engine import RuleSet
from games.models import Hand, Match, Move, Seat
from games.services import scheduling
from tests.factories import create_match, create_user, seated
from tests.games.helpers import current_state
from tests.games.sockets import choose_from_view

pytestmark = pytest.mark.django_db

# A move: BEGIN; lock the match row with its current hand; read the seats; write the
# move, the hand, the match row (and at a hand's end the seats and the next hand) in
# one statement; COMMIT (inside the test's transaction BEGIN and COMMIT are the
# savepoint's two statements).
MAX_QUERIES_PER_MOVE = 5


@pytest.fixture(autouse=True)
def _no_sending(monkeypatch):
    monkeypatch.setattr(broadcast, "group_send", lambda sends: None)
    monkeypatch.setattr(scheduling, "bot_turn", lambda **kwargs: None)


def queries_of_moves(
    match: Match, users: dict, count: int, capture_commit, ending: list[int] | None = None
) -> list[int]:
    """Play ``count`` mid-hand moves of whoever is to move; the queries of each (those
    of moves that end a hand go to ``ending``)."""
    rng = random.Random(1)
    counts: list[int] = []
    while len(counts) < count:
        match.refresh_from_db()
        seat = match.current_seat
        hand_before = Hand.objects.filter(match=match).count()
        action = None
        if users[seat] is not None:
            view = current_state(match).player_view(seat)
            action = choose_from_view(view) if rng.random() < 0.7 else rng.choice(
                [a for a in view["legal_actions"] if a["type"] != "knock"]
                or view["legal_actions"]
            )
        with CaptureQueriesContext(connection) as queries, capture_commit(execute=True):
            if action is None:
                services.bot_turn_play(match_id=match.pk, expected_version=match.version)
            else:
                services.move_submit(match=match, user=users[seat], action=action,
                                     expected_version=match.version)
        # One query may carry several statements (games/services/store.py): each counts.
        statements = sum(len(sqlparse.split(q["sql"])) for q in queries.captured_queries)
        if Hand.objects.filter(match=match).count() == hand_before:
            counts.append(statements)
        elif ending is not None:
            ending.append(statements)
    return counts


@pytest.mark.parametrize("opponent", ["person", "computer"])
def test_the_queries_of_a_move_are_few_and_do_not_grow(
    django_capture_on_commit_callbacks, opponent
):
    alice, bob = create_user("alice"), create_user("bob")
    rules = RuleSet.default().replace(target_score=250)
    with django_capture_on_commit_callbacks(execute=True):
        match = create_match(alice, bob if opponent == "person" else "easy", rules=rules)
    users = seated(match)
    ending: list[int] = []
    first_hand = queries_of_moves(match, users, 12, django_capture_on_commit_callbacks)
    while Hand.objects.filter(match=match).count() < 4:  # three hands of history
        queries_of_moves(match, users, 1, django_capture_on_commit_callbacks, ending)
    later = queries_of_moves(match, users, 12, django_capture_on_commit_callbacks)
    assert ending, "no move ended a hand"
    assert max(first_hand + later + ending) <= MAX_QUERIES_PER_MOVE, (first_hand, later, ending)
    assert len(set(first_hand + later + ending)) == 1, (first_hand, later, ending)


def _executions_of_prepared_statements() -> dict[str, int]:
    """This connection's prepared statements (their SQL, without ``PREPARE <name> AS``):
    how many times each was run."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements"
        )
        return {
            re.sub(r"^PREPARE \w+ AS ", "", statement): runs
            for statement, runs in cursor.fetchall()
        }


def _invite_match() -> tuple[Match, dict]:
    match = create_match(create_user("alice"), create_user("bob"))
    return match, seated(match)


def test_a_moves_statements_are_prepared_once_and_run_again(
    django_capture_on_commit_callbacks
):
    """PostgreSQL parses and plans the lock and the write of a move once per
    connection (games/services/store.py, ginsite/raw_sql.py), not once per move."""
    match, users = _invite_match()
    before = _executions_of_prepared_statements()
    version = Match.objects.get(pk=match.pk).version
    queries_of_moves(match, users, 8, django_capture_on_commit_callbacks)
    moves = Match.objects.get(pk=match.pk).version - version
    after = _executions_of_prepared_statements()
    runs = {
        statement: count - before.get(statement, 0) for statement, count in after.items()
    }
    lock = [n for s, n in runs.items() if s.startswith('SELECT h."id"')]
    seats = [n for s, n in runs.items() if s.startswith('SELECT s."id"')]
    writes = [n for s, n in runs.items() if s.startswith('WITH w0 AS (INSERT INTO "games_move"')]
    assert lock == [moves] and seats == [moves], runs
    assert sum(writes) == moves, runs


def test_with_preparing_turned_off_moves_are_played_and_nothing_is_prepared(
    django_capture_on_commit_callbacks, settings
):
    """``DATABASE_PREPARED_STATEMENTS=0`` (a pooler that cannot carry prepared
    statements, docs/operations.md): moves are played as usual, nothing prepared runs."""
    settings.DATABASE_PREPARED_STATEMENTS = False
    match, users = _invite_match()
    before = _executions_of_prepared_statements()
    version = Match.objects.get(pk=match.pk).version
    queries_of_moves(match, users, 8, django_capture_on_commit_callbacks)
    assert Match.objects.get(pk=match.pk).version >= version + 8
    assert _executions_of_prepared_statements() == before


def test_a_statement_refused_in_the_locks_round_trip_raises_djangos_error_and_changes_nothing():
    """The lock and the seats' read go to PostgreSQL together: a refusal of either comes
    back as Django's error, the transaction is rolled back and the connection goes on."""
    from django.db import ProgrammingError

    from games.services import store
    from ginsite import raw_sql

    match, _ = _invite_match()
    version = Match.objects.get(pk=match.pk).version
    with pytest.raises(ProgrammingError), transaction.atomic():
        Match.objects.filter(pk=match.pk).update(version=version + 100)
        raw_sql.fetch_together(("SELECT 1", []), ("SELECT * FROM no_such_table", []))
    assert Match.objects.get(pk=match.pk).version == version
    assert store.lock_match(match.pk).match.version == version


def _round_trips(call) -> int:
    """How many times ``call`` waited on PostgreSQL: each Sync or simple Query the
    client sends is answered by one ReadyForQuery (libpq's protocol trace)."""
    from psycopg import pq

    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    with tempfile.TemporaryFile(mode="w+") as trace:
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
        try:
            call()
        finally:
            pgconn.untrace()
        trace.seek(0)
        return sum("\tReadyForQuery\t" in line for line in trace)


def _next_action(match: Match, users: dict) -> tuple[dict, object]:
    match.refresh_from_db()
    view = current_state(match).player_view(match.current_seat)
    return choose_from_view(view), users[match.current_seat]


@pytest.mark.django_db(transaction=True)
def test_a_move_waits_on_postgresql_twice_and_is_committed():
    """Two round trips a move: BEGIN with the lock and the seats' read, then the write
    with COMMIT (games/services/store.py), and one more for each of its statements
    prepared there for the first time on the connection; what it wrote is there for
    everyone."""
    from ginsite import raw_sql

    match, users = _invite_match()
    newly_prepared = []
    for _ in range(8):
        action, user = _next_action(match, users)
        version = match.version
        prepared_before = set(raw_sql._prepared_on.get(connection.connection, ()))
        trips = _round_trips(lambda: services.move_submit(
            match=match, user=user, action=action, expected_version=version))  # noqa: B023
        newly_prepared.append(len(raw_sql._prepared_on[connection.connection] - prepared_before))
        assert trips == 2 + newly_prepared[-1]
        assert Match.objects.get(pk=match.pk).version == version + 1
        assert Move.objects.filter(match=match, seq=version + 1).exists()
    assert 0 in newly_prepared[1:], newly_prepared  # the statements run again as prepared
    # The connection is as Django left it: a transaction after the moves that fails
    # still changes nothing.
    played = Match.objects.get(pk=match.pk).version
    with pytest.raises(RuntimeError), transaction.atomic():
        Match.objects.filter(pk=match.pk).update(version=0)
        raise RuntimeError
    assert Match.objects.get(pk=match.pk).version == played


@pytest.mark.django_db(transaction=True)
def test_a_write_refused_with_its_commit_changes_nothing_and_the_next_move_goes_on():
    """The write and COMMIT go to PostgreSQL together: when the write is refused, the
    move raises Django's error, nothing of it is kept, and the connection goes on."""
    match, users = _invite_match()
    action, user = _next_action(match, users)
    hand = Hand.objects.filter(match=match).latest("number")
    # A row in the way of the move's own (one move per version).
    blocker = Move.objects.create(match=match, hand=hand, seq=match.version + 1, seat=0,
                                  action={"type": "blocker"})
    with pytest.raises(IntegrityError):
        services.move_submit(match=match, user=user, action=action,
                             expected_version=match.version)
    assert Match.objects.get(pk=match.pk).version == match.version
    assert Hand.objects.get(pk=hand.pk).state == hand.state
    blocker.delete()
    services.move_submit(match=match, user=user, action=action, expected_version=match.version)
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_the_rows_read_under_the_lock_are_the_models_the_orm_reads():
    """The lock builds its models from the rows itself (ginsite/raw_sql.py): each has
    every field the ORM gives it, and saves as one read by the ORM does."""
    from games.services import store

    match, _ = _invite_match()
    with transaction.atomic():
        locked = store.lock_match(match.pk)
    read = [
        (locked.match, Match.objects.get(pk=match.pk)),
        (locked.hand, Hand.objects.filter(match=match).latest("number")),
        *[(seat, Seat.objects.get(pk=seat.pk)) for seat in locked.seats],
        *[(seat.user, seat.user.__class__.objects.get(pk=seat.user_id)) for seat in locked.seats],
    ]
    for ours, orms in read:
        fields = [f.attname for f in type(orms)._meta.concrete_fields]
        assert {f: getattr(ours, f) for f in fields} == {f: getattr(orms, f) for f in fields}
        assert (ours._state.adding, ours._state.db) == (False, "default")
    locked.match.version += 1
    locked.match.save(update_fields=["version"])
    assert Match.objects.get(pk=match.pk).version == match.version + 1
