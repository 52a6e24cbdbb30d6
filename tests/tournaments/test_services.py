"""Tournament services on PostgreSQL: joining, starting, pairing, results, Swiss rounds
and deadlines, arena pauses, schedules, and the idempotence of every step when the
same task runs several times at once (a redelivery racing the original)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.errors import RatedPlayBannedError
from games.models import Hand, Match, RatedPlayBan
from games.services import match_forfeit, match_resign, move_submit
from games.tournaments import services
from games.tournaments.errors import TournamentError
from games.tournaments.models import Entrant, Pairing, Round, Tournament, TournamentSchedule
from games.tournaments.simulate import check_summary, simulate
from tests.factories import create_tournament, create_user, create_users

pytestmark = pytest.mark.django_db


def _user_of(entrant_id):
    return Entrant.objects.select_related("user").get(pk=entrant_id).user


def _open(t):
    return list(Pairing.objects.filter(tournament=t, finished=False, match__isnull=False))


def _concurrently(fn, times=4):
    """Run ``fn`` from several threads at once (like redelivered tasks)."""
    errors = []
    barrier = threading.Barrier(times)

    def run():
        try:
            barrier.wait(5)
            fn()
        except Exception as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []


def test_swiss_rounds_bye_results_and_no_repeat():
    users = create_users(5)
    t = create_tournament("swiss", users, rounds=3)
    assert services.tournament_progress(tournament_id=t.pk) == "started"
    t.refresh_from_db()
    assert (t.status, t.current_round) == ("live", 1)
    round1 = list(Pairing.objects.filter(tournament=t, round=1))
    assert len(round1) == 3 and sum(p.seat1_id is None for p in round1) == 1
    for pairing in _open(t):
        match_resign(match=pairing.match, user=_user_of(pairing.seat1_id))
    winners = {p.seat0_id for p in round1}  # seat0 won (seat1 resigned); the bye too
    points = dict(Entrant.objects.filter(tournament=t).values_list("pk", "points"))
    assert {pk for pk, pts in points.items() if pts == 1} == winners
    assert services.tournament_progress(tournament_id=t.pk) == "round 2"
    round2 = Pairing.objects.filter(tournament=t, round=2)
    met1 = {frozenset((p.seat0_id, p.seat1_id)) for p in round1}
    assert not met1 & {frozenset((p.seat0_id, p.seat1_id)) for p in round2}
    bye1 = next(p.seat0_id for p in round1 if p.seat1_id is None)
    assert next(p.seat0_id for p in round2 if p.seat1_id is None) != bye1


@pytest.mark.django_db(transaction=True)
def test_redelivered_progress_never_starts_a_round_twice():
    users = create_users(6)
    t = create_tournament("swiss", users, rounds=3)
    services.tournament_progress(tournament_id=t.pk)
    for pairing in _open(t):
        match_resign(match=pairing.match, user=_user_of(pairing.seat0_id))
    # The round is over: four copies of the task run at once.
    _concurrently(lambda: services.tournament_progress(tournament_id=t.pk))
    assert list(Round.objects.filter(tournament=t).values_list("number", flat=True)) == [1, 2]
    assert Pairing.objects.filter(tournament=t, round=2).count() == 3
    assert Match.objects.filter(tournament_pairing__tournament=t).count() == 6


def _round_start_statements(players, prefix):
    t = create_tournament("swiss", create_users(players, prefix), rounds=3)
    with CaptureQueriesContext(connection) as queries:
        assert services.tournament_progress(tournament_id=t.pk) == "started"
    return t, len(queries)


def test_a_round_starts_all_its_matches_in_a_fixed_number_of_statements():
    _, few = _round_start_statements(4, "s")
    large, many = _round_start_statements(24, "l")
    assert few == many, "starting a round costs the same statements for 2 or 12 matches"
    pairings = list(Pairing.objects.filter(tournament=large).select_related(
        "match", "seat0__user", "seat1__user"))
    assert len(pairings) == 12
    for pairing in pairings:
        match = pairing.match
        seats = list(match.seats.order_by("index").values_list("user_id", flat=True))
        assert seats == [pairing.seat0.user_id, pairing.seat1.user_id]
        assert (match.status, match.rated, match.version) == ("active", True, 1)
        assert match.clock_due_at == match.turn_deadline is not None
        to_move = pairing.seat0.user if match.current_seat == 0 else pairing.seat1.user
        move_submit(match=match, user=to_move, action={"type": "pass"}, expected_version=1)
    hands = Hand.objects.filter(match__tournament_pairing__tournament=large)
    assert hands.count() == 12 and len({bytes(h.seed) for h in hands}) == 12


def test_a_result_is_recorded_once():
    users = create_users(2)
    t = create_tournament("arena", users, duration_minutes=30)
    services.tournament_progress(tournament_id=t.pk)
    (pairing,) = _open(t)
    match_resign(match=pairing.match, user=_user_of(pairing.seat1_id))
    match = Match.objects.get(pk=pairing.match_id)
    services.match_finished(match, list(match.seats.select_related("user")))  # again
    winner = Entrant.objects.get(pk=pairing.seat0_id)
    assert (winner.points, winner.wins, winner.streak) == (2, 1, 1)


def test_arena_players_go_back_to_the_pool_and_score_streaks():
    users = create_users(2)
    t = create_tournament("arena", users, duration_minutes=30)
    services.tournament_progress(tournament_id=t.pk)
    champion = users[0]
    for expected in (2, 4, 8):  # 2, then 2 more, then a doubled 4
        (pairing,) = _open(t)
        loser = pairing.seat0 if pairing.seat0.user_id != champion.pk else pairing.seat1
        match_resign(match=pairing.match, user=loser.user)
        # Alone in the pool together: paired again at once (nobody else waits).
        services.tournament_progress(tournament_id=t.pk)
        assert Entrant.objects.get(tournament=t, user=champion).points == expected
    entrant = Entrant.objects.get(tournament=t, user=champion)
    assert entrant.streak == 3 and entrant.on_fire


@pytest.mark.django_db(transaction=True)
def test_concurrent_arena_passes_pair_each_player_once():
    users = create_users(9)
    t = create_tournament("arena", users, duration_minutes=30)
    Tournament.objects.filter(pk=t.pk).update(status="live", started_at=timezone.now(),
                                              ends_at=timezone.now() + timedelta(minutes=30))
    Entrant.objects.filter(tournament=t).update(waiting_since=timezone.now())
    _concurrently(lambda: services.arena_pair(tournament_id=t.pk))
    seats = [s for p in _open(t) for s in (p.seat0_id, p.seat1_id)]
    assert len(seats) == 8 and len(set(seats)) == 8
    assert Entrant.objects.filter(tournament=t, waiting_since__isnull=False).count() == 1


def test_an_arena_player_who_misses_two_pairings_is_paused():
    users = create_users(2)
    t = create_tournament("arena", users, duration_minutes=30)
    services.tournament_progress(tournament_id=t.pk)
    absent = users[1]
    for _ in range(2):
        (pairing,) = _open(t)
        with transaction.atomic():
            match_forfeit(match=pairing.match, user=absent, reason=Match.EndReason.ABANDON)
        services.tournament_progress(tournament_id=t.pk)
    entrant = Entrant.objects.get(tournament=t, user=absent)
    assert entrant.status == "paused" and entrant.waiting_since is None
    assert _open(t) == []  # the other player waits alone


def test_the_arena_ends_and_its_last_matches_count():
    users = create_users(2)
    t = create_tournament("arena", users, duration_minutes=30)
    services.tournament_progress(tournament_id=t.pk)
    later = timezone.now() + timedelta(minutes=31)
    assert services.tournament_progress(tournament_id=t.pk, now=later) == "ending"
    (pairing,) = _open(t)
    match_resign(match=pairing.match, user=_user_of(pairing.seat1_id))
    assert services.tournament_progress(tournament_id=t.pk, now=later) == "finished"
    t.refresh_from_db()
    assert t.status == "finished"
    assert Entrant.objects.get(pk=pairing.seat0_id).rank == 1
    assert _open(t) == []


def test_swiss_round_deadline_decides_unfinished_matches():
    users = create_users(2)
    t = create_tournament("swiss", users, rounds=1, round_minutes=10)
    services.tournament_progress(tournament_id=t.pk)
    assert services.swiss_deadline(tournament_id=t.pk) == 0  # not yet
    later = timezone.now() + timedelta(minutes=11)
    assert services.swiss_deadline(tournament_id=t.pk, now=later) == 1
    assert services.tournament_progress(tournament_id=t.pk, now=later) == "finished"
    assert sorted(Entrant.objects.filter(tournament=t).values_list("points", flat=True)) == [0, 1]


def test_joining_refusals_change_nothing():
    owner, friend, stranger = create_users(3)
    start = timezone.now() + timedelta(hours=1)
    private = services.tournament_create(user=owner, name="Friends", format="arena",
                                         starts_at=start, public=False, max_players=2)
    with pytest.raises(TournamentError, match="private"):
        services.tournament_join(tournament=private, user=stranger)
    services.tournament_join(tournament=private, user=owner)
    services.tournament_join(tournament=private, user=friend, token=private.invite_token)
    third = create_user("third")
    with pytest.raises(TournamentError, match="full"):
        services.tournament_join(tournament=private, user=third, token=private.invite_token)
    assert Entrant.objects.filter(tournament=private).count() == 2
    with pytest.raises(TournamentError, match="players"):
        services.tournament_create(user=owner, name="Huge", format="arena", starts_at=start,
                                   max_players=5000)


def test_schedules_create_each_instance_once():
    schedule = TournamentSchedule.objects.create(
        name="Sunday Arena", format="arena", kind="weekly", weekday=6, hour=18,
        create_ahead_hours=24 * 15)
    now = datetime(2026, 3, 1, 19, tzinfo=UTC)  # a Sunday, after 18:00
    assert services.schedules_create_due(now=now) == 2
    assert services.schedules_create_due(now=now) == 0
    starts = sorted(Tournament.objects.filter(schedule=schedule)
                    .values_list("starts_at", flat=True))
    assert starts == [datetime(2026, 3, 8, 18, tzinfo=UTC), datetime(2026, 3, 15, 18, tzinfo=UTC)]


@pytest.mark.parametrize(("fmt", "seed", "size"), [("swiss", 1, 3), ("arena", 2, 3)])
def test_the_simulator_plays_a_whole_tournament_by_the_rules(fmt, seed, size):
    summary = simulate(format=fmt, players=size, rounds=2, minutes=3, seed=seed)
    assert check_summary(summary) == []
    assert len(summary["standings"]) == size
    assert all(p["match"] is not None for p in summary["pairings"] if p["seat1"])
    assert len([p for p in summary["pairings"] if p["seat1"]]) >= 1


def test_the_summary_check_catches_a_repeat_and_wrong_points():
    summary = {"format": "swiss", "players": ["a", "b"], "pairings": [
        {"round": 1, "seat0": "a", "seat1": "b", "match": 1, "winner": "a"},
        {"round": 2, "seat0": "a", "seat1": "b", "match": 2, "winner": "a"}],
        "standings": [{"rank": 1, "player": "a", "points": 3, "wins": 2, "losses": 0,
                       "byes": 0, "tiebreaks": []},
                      {"rank": 2, "player": "b", "points": 0, "wins": 0, "losses": 2,
                       "byes": 0, "tiebreaks": []}]}
    problems = check_summary(summary)
    assert any("paired twice" in p for p in problems)
    assert any(p.startswith("a: standings") for p in problems)


def test_a_banned_player_who_creates_a_tournament_is_refused_and_nothing_is_created():
    (banned,) = create_users(1)
    now = timezone.now()
    RatedPlayBan.objects.create(user=banned, offence=1, abandonments=3, starts_at=now,
                                until=now + timedelta(minutes=15))
    with pytest.raises(RatedPlayBannedError, match="rated play is closed to you") as refused:
        services.tournament_create_and_join(
            user=banned, name="Mine", format="arena", starts_at=now + timedelta(minutes=10))
    assert refused.value.status == 403
    assert not Tournament.objects.exists() and not Entrant.objects.exists()


def test_tournament_refusals_answer_with_their_own_http_status():
    owner, friend, third, removed = create_users(4)
    start = timezone.now() + timedelta(hours=1)
    private = services.tournament_create(user=owner, name="Friends", format="arena",
                                         starts_at=start, public=False, max_players=2)

    def status(call, **kwargs):
        with pytest.raises(TournamentError) as refused:
            call(**kwargs)
        return refused.value.code, refused.value.status

    assert status(services.tournament_join, tournament=private, user=third) == ("private", 403)
    services.tournament_join(tournament=private, user=owner)
    services.tournament_join(tournament=private, user=friend, token=private.invite_token)
    assert status(services.tournament_join, tournament=private, user=third,
                  token=private.invite_token) == ("full", 409)
    assert status(services.tournament_withdraw, tournament=private, user=third) == (
        "not_entered", 409)
    assert status(services.tournament_create, user=owner, name=" ", format="arena",
                  starts_at=start) == ("bad_name", 400)
    live = create_tournament("swiss", [owner, friend, removed])
    services.tournament_progress(tournament_id=live.pk)
    assert status(services.tournament_join, tournament=live, user=third) == ("too_late", 409)
    assert status(services.tournament_pause, tournament=live, user=owner) == ("not_arena", 409)
    services.entrant_remove(entrant=Entrant.objects.get(tournament=live, user=removed),
                            staff=owner)
    Tournament.objects.filter(pk=live.pk).update(status="scheduled")
    assert status(services.tournament_join, tournament=live, user=removed) == ("removed", 403)
    services.tournament_cancel(tournament=live, staff=owner)
    assert status(services.tournament_join, tournament=live, user=third) == (
        "tournament_over", 409)
    gone = Tournament(pk=live.pk + 1000)
    assert status(services.tournament_join, tournament=gone, user=third) == (
        "no_such_tournament", 404)
