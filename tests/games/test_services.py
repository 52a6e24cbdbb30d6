"""Services of live play on PostgreSQL: creating, moving, versions, turns, the end
of hands and matches, resign, rematch, guests, invites and the quick-match queue."""

from __future__ import annotations

import hashlib
import random
import re
import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.models import F

from games import errors, selectors, services
from games.engine import RuleSet
from games.models import Hand, Match, Move, QuickMatchEntry, Seat
from games.services import play
from tests.factories import create_match, create_user, play_to_turn_of
from tests.games.helpers import current_state, play_one, play_until_hand

pytestmark = pytest.mark.django_db

FAST = RuleSet.default().replace(target_score=50)


def human_seat(match: Match, user) -> Seat:
    return Seat.objects.get(match=match, user=user)


def snapshot(match: Match) -> tuple:
    match.refresh_from_db()
    hand = Hand.objects.filter(match=match).order_by("-number").first()
    return match.version, match.status, Move.objects.filter(match=match).count(), hand.state


def test_computer_match_starts_at_once_with_a_committed_deal(alice):
    match = services.match_create_computer(user=alice, level="medium", variant="oklahoma")
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.version == 1
    assert match.kind == Match.Kind.COMPUTER and not match.rated
    seats = list(match.seats.order_by("index"))
    assert sorted(bool(s.bot_level) for s in seats) == [False, True]
    assert {s.bot_level for s in seats} == {"", "medium"}
    hand = match.hands.get()
    assert hand.number == 1 and hand.dealer == match.first_dealer
    assert hand.seed_hash == hashlib.sha256(bytes(hand.seed)).hexdigest()
    assert len(bytes(hand.seed)) == 32
    state = current_state(match)
    assert state.rules == RuleSet.oklahoma_gin()
    assert match.current_seat == state.current_player == 1 - hand.dealer
    assert match.turn_deadline - match.turn_started_at == timedelta(seconds=30)


def test_two_deals_never_share_a_seed(alice):
    seeds = {
        bytes(services.match_create_computer(user=alice, level="easy").hands.get().seed)
        for _ in range(5)
    }
    assert len(seeds) == 5


def test_bad_settings_are_refused(alice):
    with pytest.raises(errors.InvalidSettingsError, match="variant"):
        services.match_create_computer(user=alice, level="easy", variant="poker")
    with pytest.raises(errors.InvalidSettingsError, match="level"):
        services.match_create_computer(user=alice, level="godlike")
    with pytest.raises(errors.InvalidSettingsError, match="target_score"):
        services.match_create_computer(user=alice, level="easy", rules={"target_score": 7})
    assert Match.objects.count() == 0


def test_move_submit_applies_logs_and_bumps_the_version(alice):
    match = play_to_turn_of(create_match(alice, "easy"), alice)
    before = match.version
    action = current_state(match).legal_actions()[0]
    services.move_submit(match=match, user=alice, action=action, expected_version=before)
    match.refresh_from_db()
    assert match.version == before + 1
    move = Move.objects.get(match=match, seq=match.version)
    assert move.action == action and move.seat == human_seat(match, alice).index
    assert not move.auto


def test_refusals_change_nothing(alice, bob):
    match = play_to_turn_of(create_match(alice, "easy"), alice)
    version = match.version
    before = snapshot(match)
    legal = current_state(match).legal_actions()[0]
    cases = [
        (bob, legal, version, errors.NotAPlayerError),
        (alice, legal, version - 1, errors.StaleVersionError),
        (alice, legal, version + 1, errors.StaleVersionError),
        (alice, {"type": "teleport"}, version, errors.MalformedActionError),
        (alice, {"type": "discard"}, version, errors.MalformedActionError),
        (alice, "pass", version, errors.MalformedActionError),
        (alice, {"type": "discard", "card": "ZZ"}, version, errors.MalformedActionError),
        (alice, {"type": "big_gin"}, version, errors.IllegalActionError),
    ]
    for user, action, expected, error in cases:
        with pytest.raises(error) as caught:
            services.move_submit(match=match, user=user, action=action, expected_version=expected)
        assert caught.value.code == error.code
        assert snapshot(match) == before


def test_not_your_turn(alice):
    match = play_to_turn_of(create_match(alice, "easy"), alice)
    services.move_submit(
        match=match,
        user=alice,
        action=current_state(match).legal_actions()[0],
        expected_version=match.version,
    )
    match.refresh_from_db()
    while match.current_seat == human_seat(match, alice).index:
        play_one(match, random.Random(1))
        match.refresh_from_db()
    before = snapshot(match)
    with pytest.raises(errors.NotYourTurnError):
        services.move_submit(
            match=match,
            user=alice,
            action={"type": "draw", "source": "stock"},
            expected_version=match.version,
        )
    assert snapshot(match) == before


def test_bot_turn_is_idempotent(alice):
    match = services.match_create_computer(user=alice, level="easy")
    match.refresh_from_db()
    bot = match.seats.exclude(bot_level="").get()
    if match.current_seat != bot.index:
        services.move_submit(
            match=match, user=alice, action={"type": "pass"}, expected_version=match.version
        )
        match.refresh_from_db()
    version = match.version
    assert services.bot_turn_play(match_id=match.pk, expected_version=version)
    assert not services.bot_turn_play(match_id=match.pk, expected_version=version)
    assert Move.objects.filter(match=match, seat=bot.index).count() == 1
    assert not services.bot_turn_play(match_id=10**9, expected_version=1)


def test_move_submit_query_count_is_small_and_fixed(alice, django_assert_max_num_queries):
    match = play_to_turn_of(create_match(alice, "easy"), alice)
    action = current_state(match).legal_actions()[0]
    with django_assert_max_num_queries(12):
        services.move_submit(match=match, user=alice, action=action, expected_version=match.version)


@pytest.mark.django_db(transaction=True)
def test_the_same_move_submitted_twice_at_once_is_applied_once(alice):
    match = play_to_turn_of(create_match(alice, "easy"), alice)
    version = match.version
    action = current_state(match).legal_actions()[0]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def submit() -> None:
        try:
            barrier.wait()
            services.move_submit(match=match, user=alice, action=action, expected_version=version)
            outcomes.append("applied")
        except errors.ServiceError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["applied", "stale_version"]
    seat = human_seat(match, alice).index
    assert Move.objects.filter(match=match, seq__gt=version, seat=seat).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_resignation_that_waited_for_the_lock_keeps_what_the_move_before_it_wrote(alice):
    # The move before (here: one that ends a hand) changes the seats' statistics while
    # holding the match; the resignation, waiting for the lock, must then read the
    # seats as that move left them, or it writes the old statistics back.
    match = play_to_turn_of(create_match(alice, "easy"), alice)
    seat = human_seat(match, alice)
    locked, release = threading.Event(), threading.Event()
    outcomes: list[str] = []

    def hand_ends() -> None:
        try:
            with transaction.atomic():
                play.lock_match(match.pk)
                Seat.objects.filter(pk=seat.pk).update(hands_won=F("hands_won") + 1)
                locked.set()
                assert release.wait(timeout=30)
        finally:
            connection.close()

    def resign() -> None:
        try:
            services.match_resign(match=match, user=alice)
            outcomes.append("resigned")
        finally:
            connection.close()

    first = threading.Thread(target=hand_ends)
    first.start()
    assert locked.wait(timeout=30)
    second = threading.Thread(target=resign)
    second.start()
    wait_until_a_query_waits_for_a_lock()
    release.set()
    first.join()
    second.join()
    assert outcomes == ["resigned"]
    seat.refresh_from_db()
    assert seat.hands_won == 1
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


def wait_until_a_query_waits_for_a_lock() -> None:
    for _ in range(3000):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
        threading.Event().wait(0.01)
    raise AssertionError("no query waited for the lock")


def test_resign_ends_the_match_with_the_game_bonus_to_the_opponent(alice, monkeypatch):
    finished = []
    monkeypatch.setattr("leaderboards.hooks.match_finished", finished.append)
    match = play_to_turn_of(create_match(alice, "easy"), alice)
    version = match.version
    services.match_resign(match=match, user=alice)
    match.refresh_from_db()
    loser = human_seat(match, alice).index
    assert match.status == Match.Status.FINISHED
    assert match.end_reason == Match.EndReason.RESIGN
    assert match.winner_seat == 1 - loser
    assert match.version == version + 1
    assert match.final_score["bonuses"][1 - loser]["game"] == 100
    assert match.final_score["forfeit"] == loser
    assert [m.pk for m in finished] == [match.pk]
    with pytest.raises(errors.MatchOverError):
        services.match_resign(match=match, user=alice)


def test_a_finished_match_is_immutable(alice):
    match = services.match_create_computer(user=alice, level="easy", rules=FAST)
    play_until_hand(match, 2, random.Random(5))
    match.refresh_from_db()
    if match.status == Match.Status.ACTIVE:  # the first hand may already have ended it
        services.match_resign(match=match, user=alice)
    before = snapshot(match)
    seat = human_seat(match, alice)
    with pytest.raises(errors.MatchOverError):
        services.move_submit(
            match=match, user=alice, action={"type": "pass"}, expected_version=match.version
        )
    with pytest.raises(errors.MatchOverError):
        services.match_resign(match=match, user=alice)
    assert not services.bot_turn_play(match_id=match.pk, expected_version=match.version)
    assert not services.clock_expire(match_id=match.pk, expected_version=match.version)
    assert snapshot(match) == before
    assert Seat.objects.get(pk=seat.pk).score == seat.score


def test_rematch_against_the_computer_starts_at_once(alice):
    match = services.match_create_computer(user=alice, level="hard", variant="straight")
    with pytest.raises(errors.MatchNotOverError):
        services.match_rematch(match=match, user=alice)
    services.match_resign(match=match, user=alice)
    new = services.match_rematch(match=match, user=alice)
    assert new.status == Match.Status.ACTIVE and new.rematch_of_id == match.pk
    assert new.variant == "straight" and new.rules == match.rules
    assert new.seats.get(user=None).bot_level == "hard"
    assert services.match_rematch(match=match, user=alice) == new
    match.refresh_from_db()
    message = selectors.match_state_message(match=match, user=alice)
    assert message["match"]["rematch"]["match_id"] == new.pk


def test_rematch_between_people_needs_both(alice, bob, carol):
    match = create_match(alice, bob)
    services.match_resign(match=match, user=bob)
    match.refresh_from_db()
    with pytest.raises(errors.NotAPlayerError):
        services.match_rematch(match=match, user=carol)
    assert services.match_rematch(match=match, user=alice) is None
    assert services.match_rematch(match=match, user=alice) is None
    match.refresh_from_db()
    offered_by = human_seat(match, alice).index
    assert match.rematch_offered_by == offered_by
    new = services.match_rematch(match=match, user=bob)
    assert new.status == Match.Status.ACTIVE and new.rated
    assert human_seat(new, alice).index == 1 - offered_by  # the players change sides
    match.refresh_from_db()
    assert match.rematch_offered_by is None
    assert selectors.match_state_message(match=match, user=bob)["match"]["rematch"] == {
        "offered_by": None,
        "match_id": new.pk,
    }


def test_invite_join(alice, bob, carol):
    match = services.match_create_invite(user=alice, variant="time_freedom")
    assert match.status == Match.Status.WAITING and match.invite_token
    with pytest.raises(errors.MatchNotStartedError):
        services.move_submit(match=match, user=alice, action={"type": "pass"}, expected_version=0)
    assert services.match_join_invite(user=alice, token=match.invite_token) == match
    assert Match.objects.get(pk=match.pk).status == Match.Status.WAITING
    joined = services.match_join_invite(user=bob, token=match.invite_token)
    joined.refresh_from_db()
    assert joined.status == Match.Status.ACTIVE and joined.rated and joined.version == 1
    assert sorted(s.user.username for s in joined.seats.all()) == ["alice", "bob"]
    assert joined.turn_deadline is None  # Time Freedom: no clock
    assert services.match_join_invite(user=bob, token=match.invite_token) == joined
    with pytest.raises(errors.InviteNotFoundError):
        services.match_join_invite(user=carol, token=match.invite_token)
    with pytest.raises(errors.InviteNotFoundError):
        services.match_join_invite(user=carol, token="nope")


def test_invite_host_keeps_the_seat_an_open_table_is_connected_to(alice):
    # A host's table socket is bound to the seat it had while waiting (seat 0). If
    # joining renumbered the host, that socket would be sent the joiner's private hand.
    for n in range(16):
        match = services.match_create_invite(user=alice)
        friend = create_user(f"friend{n}")
        services.match_join_invite(user=friend, token=match.invite_token)
        seats = {s.index: s.user.username for s in Seat.objects.filter(match=match)}
        assert seats == {0: "alice", 1: f"friend{n}"}


def test_guests_play_the_computer_only_and_unrated(alice):
    guest = services.guest_user_create()
    assert guest.is_guest and not guest.has_usable_password()
    assert re.fullmatch(r"guest-[0-9a-f]{6}", guest.username)
    match = services.match_create_computer(user=guest, level="easy")
    assert not match.rated
    invite = services.match_create_invite(user=alice)
    with pytest.raises(errors.GuestNotAllowedError):
        services.match_create_invite(user=guest)
    with pytest.raises(errors.GuestNotAllowedError):
        services.match_join_invite(user=guest, token=invite.invite_token)
    with pytest.raises(errors.GuestNotAllowedError):
        services.quickmatch_enqueue(user=guest)
    assert Match.objects.get(pk=invite.pk).status == Match.Status.WAITING


def test_quick_match_pairs_compatible_players_at_once(alice, bob, carol):
    assert services.quickmatch_enqueue(user=alice, variant="default") is None
    assert selectors.quickmatch_status(user=alice) == {"state": "waiting", "match_id": None}
    assert services.quickmatch_enqueue(user=alice, variant="default") is None  # not self
    assert services.quickmatch_enqueue(user=bob, variant="oklahoma") is None
    match = services.quickmatch_enqueue(user=carol, variant="default")
    assert match is not None and match.kind == Match.Kind.QUICK and match.rated
    assert match.status == Match.Status.ACTIVE
    assert sorted(s.user.username for s in match.seats.all()) == ["alice", "carol"]
    assert selectors.quickmatch_status(user=alice) == {"state": "matched", "match_id": match.pk}
    assert selectors.quickmatch_status(user=bob)["state"] == "waiting"
    assert services.quickmatch_cancel(user=bob)
    assert selectors.quickmatch_status(user=bob)["state"] == "idle"
    assert not QuickMatchEntry.objects.filter(match__isnull=True).exists()


def test_quick_match_ignores_players_gone_for_long(alice, bob):
    services.quickmatch_enqueue(user=alice)
    QuickMatchEntry.objects.filter(user=alice).update(
        created_at=QuickMatchEntry.objects.get(user=alice).created_at - timedelta(hours=1)
    )
    assert services.quickmatch_enqueue(user=bob) is None
    assert not QuickMatchEntry.objects.filter(user=alice).exists()


def test_state_message_shows_only_what_the_recipient_may_see(alice, bob):
    match = play_to_turn_of(create_match(alice, "easy"), alice)
    seat = human_seat(match, alice).index
    state = current_state(match)
    mine = selectors.match_state_message(match=match, user=alice)
    assert mine["you"] == seat and mine["version"] == match.version
    assert mine["view"]["hand"] == [str(c) for c in state.hands[seat]]
    watcher = selectors.match_state_message(match=match, user=bob)
    assert watcher["you"] is None and watcher["view"]["hand"] == []
    for message in (mine, watcher):
        text = repr(message)
        assert bytes(match.hands.get().seed).hex() not in text
        assert message["match"]["hands"] == []
        assert message["match"]["commitment"] == match.hands.get().seed_hash
        assert message["match"]["clock"]["turn_seconds"] == 30
        for card in state.hands[1 - seat] + state.stock:
            assert str(card) not in mine["view"]["hand"]


def test_hand_replay_only_for_finished_hands(alice):
    match = services.match_create_computer(user=alice, level="easy", rules=FAST)
    with pytest.raises(errors.HandNotOverError):
        selectors.hand_replay(hand=match.hands.get())
    play_until_hand(match, 2, random.Random(3))
    hand = match.hands.get(number=1)
    steps = selectors.hand_replay(hand=hand)
    assert steps[0]["move"] is None
    assert len(steps) == 1 + hand.moves.count()
    assert steps[-1]["views"][0]["result"] == hand.result


def test_score_sheet_runs_hand_by_hand(alice):
    match = services.match_create_computer(
        user=alice, level="easy", rules=RuleSet.default().replace(target_score=250)
    )
    play_until_hand(match, 3, random.Random(11))
    services.match_resign(match=match, user=alice)
    match.refresh_from_db()
    sheet = selectors.match_score_sheet(match=match)
    hands = list(Hand.objects.filter(match=match, result__isnull=False).order_by("number"))
    assert [row["number"] for row in sheet["hands"]] == [h.number for h in hands] == [1, 2]
    assert [row["kind"] for row in sheet["hands"]] == [h.result_kind for h in hands]
    assert sheet["hands"][-1]["totals"] == sheet["final"]["hand_points"]
    assert sheet["winner"] == match.winner_seat == 1 - human_seat(match, alice).index
    assert sheet["end_reason"] == "resign"


def test_quick_match_never_pairs_players_who_blocked_each_other(alice, bob, carol):
    from games.chat.services import user_block

    user_block(blocker=bob, blocked=alice)
    assert services.quickmatch_enqueue(user=alice) is None
    assert services.quickmatch_enqueue(user=bob) is None  # alice waits, but bob blocked her
    match = services.quickmatch_enqueue(user=carol)
    assert match is not None
    assert sorted(s.user.username for s in match.seats.all()) == ["alice", "carol"]


def test_invite_is_refused_between_blocked_players_and_from_a_banned_host(alice, bob, carol):
    from games.chat.services import user_block

    match = services.match_create_invite(user=alice)
    user_block(blocker=alice, blocked=bob)
    with pytest.raises(errors.InviteNotFoundError):
        services.match_join_invite(user=bob, token=match.invite_token)
    alice.is_active = False  # a ban switches the account off
    alice.save(update_fields=["is_active"])
    with pytest.raises(errors.InviteNotFoundError):
        services.match_join_invite(user=carol, token=match.invite_token)
    assert Match.objects.get(pk=match.pk).status == Match.Status.WAITING
    assert Seat.objects.filter(match=match).count() == 1


def test_the_computer_decides_from_its_player_view_only(alice, monkeypatch):
    from games.services import moves

    seen = []

    def spy(level, view, legal, rng, *, scores):
        seen.append((level, view, legal, scores))
        return legal[0]

    monkeypatch.setattr(moves, "choose_action", spy)
    match = services.match_create_computer(user=alice, level="hard")
    match.refresh_from_db()
    bot = match.seats.exclude(bot_level="").get().index
    if match.current_seat != bot:
        services.move_submit(
            match=match, user=alice, action={"type": "pass"}, expected_version=match.version
        )
        match.refresh_from_db()
    state = current_state(match)
    assert services.bot_turn_play(match_id=match.pk, expected_version=match.version)
    [(level, view, legal, scores)] = seen
    assert level == "hard"
    assert view == state.player_view(bot) and legal == state.legal_actions()
    assert scores == (0, 0)  # besides the view, the match's public score
    hidden = {str(c) for c in state.hands[1 - bot]} | {str(c) for c in state.stock}
    shown = set(view["hand"]) | set(view["discard_pile"]) | {view["upcard"]}
    assert not hidden & shown


def test_a_state_built_from_an_old_match_row_carries_the_version_of_its_position(alice):
    """A resync holds a Match row read earlier; meanwhile another process
    commits a move. The state sent must pair the position with its own version (a
    client that sent a move from it at an older version would get stale_version)."""
    match = play_to_turn_of(create_match(alice, "easy"), alice)
    seen_earlier = Match.objects.get(pk=match.pk)
    play_one(match, random.Random(3))
    match.refresh_from_db()
    assert match.version > seen_earlier.version
    message = selectors.match_state_message(match=seen_earlier, user=alice)
    assert message["version"] == match.version
    assert message["view"] == current_state(match).player_view(message["you"])
