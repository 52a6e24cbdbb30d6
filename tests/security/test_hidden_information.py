"""Hidden information: every frame (full states and event frames) sent to each
seat and to spectators is checked against the true deal. No frame may hold a card
of the other seat's
concealed hand, a stock card, or the seed of a hand still in play; each player's
frame shows exactly their own hand.

Three layers, from many matches to real sockets:

1. Hundreds of complete matches (to the target score, or resigned) played in
   memory (each seat knocks as soon as it may, else draws and discards its
   highest loose card, from its own view) by the services' own core
   (``play.Change``) on unsaved Match/Seat/Hand objects, its writes left out (the
   database round trips of a move would make this minutes long): every full state
   and every event frame it would send is checked.
2. Complete matches through the services (``move_submit``, ``bot_turn_play``,
   ``match_resign``), every message ``games.broadcast`` hands to the channel layer
   captured instead of sent (exactly what that group's sockets receive; a
   player's own answer reuses it).
3. Over real sockets on two live ASGI processes: every frame the players of the
   fault tests received (tests/reliability), and tests/games/test_consumer.py.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest
from django.utils import timezone

from games import broadcast, selectors, services
from games.api.events import events_group
from games.bots import choose_action
from games.engine import HandState, MatchState, RuleSet
from games.models import Hand, Match, Move, Seat
from games.services import play, scheduling, store
from tests.factories import create_match, create_user, seated
from tests.games.helpers import current_state
from tests.games.sockets import choose_from_view
from tests.security.secrets import (
    assert_event_hides_secrets,
    assert_hides_secrets,
    visible_cards,
)

IN_MEMORY_MATCHES = 200
SERVICE_MATCHES = 3
VARIANTS = {
    "default": RuleSet.default(),
    "straight": RuleSet.straight_gin(),
    "oklahoma": RuleSet.oklahoma_gin(),
    "time_freedom": RuleSet.time_freedom(),
}


def check_messages(messages: dict[Any, dict], state: HandState, seeds: dict[int, str]) -> int:
    for audience, message in messages.items():
        if message["type"] == "event":
            assert_event_hides_secrets(message, audience, state, seeds)
            continue
        assert message["you"] == audience
        assert_hides_secrets(message, audience, state, seeds)
    return len(messages)


# --- 1. hundreds of complete matches, in memory ----------------------------------------


class MemoryMatch:
    """A match kept in unsaved model objects, moved on by the services' own core
    (games/services/play.py ``Change``) with its writes and sends left out: the
    messages are the ones the services would send."""

    def __init__(
        self, pk: int, variant: str, rules: RuleSet, players: list[Any], rng: random.Random
    ) -> None:
        now = timezone.now()
        match = Match(
            pk=pk, kind=Match.Kind.FRIEND, variant=variant, rules=rules.to_dict(),
            status=Match.Status.ACTIVE, version=1, rated=False, started_at=now,
            first_dealer=rng.randrange(2), finished_hands=[],
        )
        seed = rng.randbytes(32)
        state = MatchState.start(rules, match.first_dealer, seed)
        hand = Hand(
            pk=1, number=1, dealer=match.first_dealer, seed=seed,
            seed_hash=hashlib.sha256(seed).hexdigest(), state=state.hand.to_dict(),
        )
        seats = [Seat(index=i, user=players[i], connected=True) for i in (0, 1)]
        self.locked = play.Locked(match=match, seats=seats, hand=hand)
        self.hands = [hand]
        play._start_turn(match, seats, state, now, after_showdown=False)
        self.first = play._states(self.locked, state, now, [0, 1])
        self.engine_state = state

    @property
    def match(self) -> Match:
        return self.locked.match

    @property
    def state(self) -> HandState:
        return self.engine_state.hand

    def seeds(self) -> dict[int, str]:
        return {h.number: bytes(h.seed).hex() for h in self.hands}

    def play(self, action: dict) -> dict[Any, dict]:
        change = play.Change(self.locked, timezone.now())
        change.act(self.match.current_seat, action)
        return self._commit(change)

    def resign(self, loser: int) -> dict[Any, dict]:
        change = play.Change(self.locked, timezone.now())
        change.forfeit(loser, Match.EndReason.RESIGN)
        return self._commit(change)

    def _commit(self, change: play.Change) -> dict[Any, dict]:
        sent = change.commit()
        self.engine_state = change.state
        if self.locked.hand is not self.hands[-1]:
            self.locked.hand.pk = len(self.hands) + 1
            self.hands.append(self.locked.hand)
        return sent


@pytest.mark.django_db
def test_no_frame_of_hundreds_of_matches_shows_a_hidden_card(monkeypatch):
    rng = random.Random(20261129)
    players = [create_user("alice"), create_user("bob")]
    monkeypatch.setattr(store.Writes, "run", lambda self, commit=False: self.statements.clear())
    monkeypatch.setattr(broadcast, "publish_on_commit", lambda match_id, messages: None)
    frames = hands = resigned = events = 0
    for number in range(IN_MEMORY_MATCHES):
        # Straight Gin hands often end in a draw: its matches are long, so fewer.
        variant = rng.choices(list(VARIANTS), weights=[4, 1, 2, 2])[0]
        rules = VARIANTS[variant].replace(target_score=50)
        game = MemoryMatch(10**9 + number, variant, rules, players, rng)
        frames += check_messages(game.first, game.state, game.seeds())
        resign_at = rng.randrange(20, 150) if rng.random() < 0.25 else None
        moves = 0
        while game.match.status == Match.Status.ACTIVE:
            if moves == resign_at:
                final = game.resign(rng.randrange(2))
                resigned += 1
                break
            sent = game.play(choose_from_view(game.state.player_view(game.match.current_seat)))
            frames += check_messages(sent, game.state, game.seeds())
            events += sum(m["type"] == "event" for m in sent.values())
            final = sent
            moves += 1
        frames += check_messages(final, game.state, game.seeds())
        assert all(m["match"]["status"] == "finished" for m in final.values())
        assert [h["seed"] for h in final[None]["match"]["hands"]] == list(game.seeds().values())
        hands += len(game.hands)
    assert resigned > 0 and hands > 3 * IN_MEMORY_MATCHES
    assert frames > 100 * IN_MEMORY_MATCHES and events > 0.8 * frames


# --- 2. complete matches through the services ------------------------------------------


class Capture:
    """What ``games.broadcast`` would have sent, by group."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def group_send(self, sends: list[tuple[str, dict[str, Any]]]) -> None:
        self.sent.extend(sends)

    def take(self) -> list[tuple[str, dict[str, Any]]]:
        sent, self.sent = self.sent, []
        return sent


def check_sent(match: Match, sent: list[tuple[str, dict[str, Any]]]) -> int:
    """Check every captured frame against the match as it now is; returns how many."""
    state = current_state(match)
    seeds = {h.number: bytes(h.seed).hex() for h in Hand.objects.filter(match=match)}
    audiences = {
        broadcast.spectator_group(match.pk): None,
        broadcast.seat_group(match.pk, 0): 0,
        broadcast.seat_group(match.pk, 1): 1,
    }
    user_ids = Seat.objects.filter(match=match).exclude(user=None).values_list("user_id", flat=True)
    players = {events_group(user_id) for user_id in user_ids}
    for group, event in sent:
        if event["type"] == "api.event":  # a player's bot-API account events: never a card
            assert group in players and not visible_cards(event["event"])
            continue
        message = event["message"]
        assert message["version"] == match.version
        if group == broadcast.public_group(match.pk):
            assert message["type"] in ("presence", "deadline") and not visible_cards(message)
            if message["type"] == "deadline":  # a correspondence turn's deadline alone
                assert set(message) == {"type", "version", "correspondence"}
                assert set(message["correspondence"]) == {"days_per_move", "deadline"}
            continue
        if message["type"] == "event":
            assert_event_hides_secrets(message, audiences[group], state, seeds)
            continue
        assert message["you"] == audiences[group]
        assert_hides_secrets(message, audiences[group], state, seeds)
    return len(sent)


@pytest.mark.django_db
def test_no_frame_broadcast_by_the_services_shows_a_hidden_card(
    monkeypatch, django_capture_on_commit_callbacks
):
    capture = Capture()
    monkeypatch.setattr(broadcast, "group_send", capture.group_send)
    # The test plays the computer's turns itself; clock checks never come due.
    monkeypatch.setattr(scheduling, "bot_turn", lambda **kwargs: None)
    rng = random.Random(7)
    alice, bob = create_user("alice"), create_user("bob")
    frames = moves = 0
    for number in range(SERVICE_MATCHES):
        rules = RuleSet.default().replace(target_score=50)
        with django_capture_on_commit_callbacks(execute=True):
            match = create_match(alice, "easy" if number % 2 else bob, rules=rules)
        match.refresh_from_db()
        frames += check_sent(match, capture.take())
        users = seated(match)
        # The first plays to the target; the others are resigned once a hand is over.
        resign_in_hand = None if number == 0 else 2
        while match.status == Match.Status.ACTIVE:
            seat = match.current_seat
            with django_capture_on_commit_callbacks(execute=True):
                hand_number = Hand.objects.filter(match=match).count()
                if hand_number == resign_in_hand and rng.random() < 0.2:
                    services.match_resign(match=match, user=users[seat] or users[1 - seat])
                elif users[seat] is None:
                    assert services.bot_turn_play(match_id=match.pk, expected_version=match.version)
                else:
                    view = current_state(match).player_view(seat)
                    action = choose_action("easy", view, view["legal_actions"], rng)
                    services.move_submit(
                        match=match, user=users[seat], action=action, expected_version=match.version
                    )
            match.refresh_from_db()
            frames += check_sent(match, capture.take())
        assert match.status == Match.Status.FINISHED
        moves += Move.objects.filter(match=match).count()
    # Every accepted move reached both seats at least (the deals are random, so the
    # number of moves is not fixed: it is counted, not guessed).
    assert moves > 0 and frames >= 2 * moves


@pytest.mark.django_db
def test_no_frame_of_a_correspondence_match_over_days_shows_a_hidden_card(
    monkeypatch, django_capture_on_commit_callbacks
):
    """A correspondence match through the services, over simulated days: each turn's
    frames, the deadline frames of vacations taken and ended by the player to move and
    of beat's job, and the bell's "your turn" (to that player's own group alone) show
    nothing of a concealed card."""
    from datetime import timedelta

    from games.api import services as api_services
    from games.services import correspondence
    from social.services import notify_group
    from tests.factories import create_challenge

    capture = Capture()
    monkeypatch.setattr(broadcast, "group_send", capture.group_send)
    bells: list[tuple[str, dict[str, Any]]] = []

    class Publisher:
        def send(self, sends: list[tuple[str, dict[str, Any]]]) -> None:
            bells.extend(sends)

    class Quiet:  # no e-mail, no rating task: not this test's business
        def __getattr__(self, name: str) -> Any:
            return lambda *args, **kwargs: None

    monkeypatch.setattr("ginsite.runtime.publisher", lambda: Publisher())
    monkeypatch.setattr("ginsite.runtime.scheduler", lambda: Quiet())
    rng = random.Random(11)
    alice, bob = create_user("alice"), create_user("bob")
    with django_capture_on_commit_callbacks(execute=True):
        challenge = create_challenge(alice, bob, variant="default", target=50, days=1)
        match = api_services.challenge_accept(user=bob, challenge_id=challenge.pk)
    match.refresh_from_db()
    frames = check_sent(match, capture.take())
    users = seated(match)
    deadlines = turn = 0
    while match.status == Match.Status.ACTIVE and turn < 400:
        turn += 1
        seat = match.current_seat
        # The player to move goes away for a day, then comes back, while the year's
        # allowance lasts (a long match would use it up: 14 days a calendar year).
        if turn % 7 == 0 and selectors.vacation_days_left(user=users[seat]) >= 1:
            for step in (correspondence.vacation_take, correspondence.vacation_end):
                with django_capture_on_commit_callbacks(execute=True):
                    step(user=users[seat], **({"days": 1} if step is
                                              correspondence.vacation_take else {}))
                match.refresh_from_db()
                sent = capture.take()
                deadlines += sum(event["message"]["type"] == "deadline" for _, event in sent)
                frames += check_sent(match, sent)
        with django_capture_on_commit_callbacks(execute=True):
            view = current_state(match).player_view(seat)
            action = choose_action("easy", view, view["legal_actions"], rng)
            services.move_submit(match=match, user=users[seat], action=action,
                                 expected_version=match.version)
        match.refresh_from_db()
        frames += check_sent(match, capture.take())
    # Beat's job ends it: the player to move ran out of days.
    with django_capture_on_commit_callbacks(execute=True):
        if match.status == Match.Status.ACTIVE:
            correspondence.correspondence_clock_run(now=timezone.now() + timedelta(days=999))
    match.refresh_from_db()
    frames += check_sent(match, capture.take())
    assert match.status == Match.Status.FINISHED and frames > 0 and deadlines > 0
    # The bell: "your turn" to the player to move's own group, naming no card.
    groups = {notify_group(alice.pk), notify_group(bob.pk)}
    told = [group for group, _ in bells if group.startswith("notify.")]
    assert told and set(told) <= groups
    for _group, event in bells:
        assert not visible_cards(event), event


# --- notifications: each player hears their own, and a private one is never online ---


@pytest.mark.django_db(transaction=True)
async def test_a_notification_socket_hears_only_its_own_players_notifications():
    from channels.db import database_sync_to_async as sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.db import connections

    from ginsite.asgi import application
    from social import selectors as social_selectors
    from social import services as social
    from tests.games.sockets import ORIGIN, session_cookie

    alice, bob, carol = [await sync_to_async(create_user)(name) for name in ("al", "bo", "ca")]
    sockets = {}
    for user in (alice, bob):
        cookie = await sync_to_async(session_cookie)(user)
        socket = WebsocketCommunicator(
            application, "/ws/notifications/", headers=[ORIGIN, (b"cookie", cookie)]
        )
        assert (await socket.connect(timeout=10))[0]
        assert (await socket.receive_json_from(timeout=10))["type"] == "unread"
        sockets[user.username] = socket
    await sync_to_async(social.follow_create)(user=carol, followee=bob)
    frame = await sockets["bo"].receive_json_from(timeout=10)
    assert frame["type"] == "notification" and frame["unread"] == 1
    assert frame["notification"]["text"] == "ca follows you."
    assert await sockets["al"].receive_nothing(timeout=0.5)
    # Bob hides his status: his open page no longer shows him online to his friends.
    await sync_to_async(social.follow_create)(user=bob, followee=carol)
    await sync_to_async(social.settings_update)(user=bob, online_private=True)
    rows = await sync_to_async(social_selectors.friends_list)(user=carol)
    assert [(row.username, row.online, row.playing_match_id) for row in rows] == [
        ("bo", None, None)]
    # Alice follows Bob without his following back: she sees nothing of where he is,
    # even with his status public and his page open.
    await sync_to_async(social.settings_update)(user=bob, online_private=False)
    await sync_to_async(social.follow_create)(user=alice, followee=bob)
    rows = await sync_to_async(social_selectors.friends_list)(user=alice)
    assert [(row.username, row.online, row.mutual) for row in rows] == [("bo", None, False)]
    rows = await sync_to_async(social_selectors.friends_list)(user=carol)
    assert [(row.username, row.online) for row in rows] == [("bo", True)]
    for socket in sockets.values():
        await socket.disconnect()
    await sync_to_async(connections.close_all)()


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_and_tournament_sockets_carry_only_their_players_bell():
    """The bell over the lobby's and a tournament's sockets: each socket hears its own
    player's notifications, no one else's (another player's, a guest's)."""
    from channels.db import database_sync_to_async as sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.db import connections

    from ginsite.asgi import application
    from social import services as social
    from tests.factories import create_tournament
    from tests.games.sockets import ORIGIN, session_cookie

    alice, bob, carol = [await sync_to_async(create_user)(name) for name in ("al", "bo", "ca")]
    tournament = await sync_to_async(create_tournament)("arena", [bob])
    sockets = {}
    for user in (alice, bob):
        cookie = await sync_to_async(session_cookie)(user)
        socket = WebsocketCommunicator(
            application, "/ws/lobby/", headers=[ORIGIN, (b"cookie", cookie)]
        )
        assert (await socket.connect(timeout=10))[0]
        assert (await socket.receive_json_from(timeout=10))["type"] == "chat_history"
        assert (await socket.receive_json_from(timeout=10)) == {"type": "unread", "unread": 0}
        sockets[user.username] = socket
    cookie = await sync_to_async(session_cookie)(bob)
    bob_tournament = WebsocketCommunicator(
        application, f"/ws/tournament/{tournament.pk}/", headers=[ORIGIN, (b"cookie", cookie)]
    )
    assert (await bob_tournament.connect(timeout=10))[0]
    frames = [await bob_tournament.receive_json_from(timeout=10) for _ in range(3)]
    assert [f["type"] for f in frames] == ["standings", "chat_history", "unread"]
    # Alice watches the same tournament: its socket carries her bell, never Bob's.
    cookie = await sync_to_async(session_cookie)(alice)
    alice_tournament = WebsocketCommunicator(
        application, f"/ws/tournament/{tournament.pk}/", headers=[ORIGIN, (b"cookie", cookie)]
    )
    assert (await alice_tournament.connect(timeout=10))[0]
    frames = [await alice_tournament.receive_json_from(timeout=10) for _ in range(3)]
    assert [f["type"] for f in frames] == ["standings", "chat_history", "unread"]
    await sync_to_async(social.follow_create)(user=carol, followee=bob)
    for socket in (sockets["bo"], bob_tournament):
        frame = await socket.receive_json_from(timeout=10)
        assert frame["type"] == "notification" and frame["unread"] == 1
        assert frame["notification"]["text"] == "ca follows you."
    assert await sockets["al"].receive_nothing(timeout=0.5)
    assert await alice_tournament.receive_nothing(timeout=0.2)
    for socket in (*sockets.values(), bob_tournament, alice_tournament):
        await socket.disconnect()
    await sync_to_async(connections.close_all)()


@pytest.mark.django_db(transaction=True)
async def test_a_match_socket_carries_its_own_seats_bell_alone():
    """The bell over the match socket (social/consumers.py MatchSocket): a notification
    of one player reaches that player's table socket alone: never the opponent's, never
    a spectator's (signed in, signed out, staff), nor the player's own socket at another
    table they only watch. A spectator's socket carries nobody's bell, its own either."""
    from channels.db import database_sync_to_async as sync_to_async
    from django.db import connections

    from social import services as social
    from tests.factories import create_moderator
    from tests.games.sockets import Socket

    names = ("al", "bo", "ca", "di", "ed")
    alice, bob, carol, dave, eve = [await sync_to_async(create_user)(n) for n in names]
    staff = await sync_to_async(create_moderator)("mo")
    match = await sync_to_async(create_match)(alice, bob)
    elsewhere = await sync_to_async(create_match)(carol, eve)
    watchers = {"opponent": bob, "spectator": dave, "staff": staff, "anonymous": None}
    at_table = {role: await Socket.open(match.pk, user) for role, user in watchers.items()}
    mine = await Socket.open(match.pk, alice)
    watching = await Socket.open(elsewhere.pk, alice)  # alice, a spectator there
    everyone = [mine, watching, *at_table.values()]
    for socket in everyone:
        await socket.receive_type("state")
    assert (await mine.receive_bell("unread"))["unread"] == 0
    # Notifications for alice (two), for bob (one), for the spectator (one).
    await sync_to_async(social.follow_create)(user=carol, followee=alice)
    await sync_to_async(social.follow_create)(user=dave, followee=alice)
    await sync_to_async(social.follow_create)(user=carol, followee=bob)
    await sync_to_async(social.follow_create)(user=alice, followee=dave)
    assert (await mine.receive_bell("notification"))["unread"] == 1
    assert (await mine.receive_bell("notification"))["unread"] == 2
    for socket in everyone:
        await socket.drain()
    texts = [f["notification"]["text"] for f in mine.bell if f["type"] == "notification"]
    assert texts == ["ca follows you.", "di follows you."]
    # The opponent heard their own notification, none of alice's.
    theirs = [f["notification"]["text"] for f in at_table["opponent"].bell
              if f["type"] == "notification"]
    assert theirs == ["ca follows you."]
    for socket in (watching, at_table["spectator"], at_table["staff"], at_table["anonymous"]):
        assert socket.bell == []
    for socket in everyone:
        await socket.close()
    await sync_to_async(connections.close_all)()


# --- puzzles (games/learn): a puzzle's view is what its player saw, never more -----------


def _any_best(view: dict[str, Any], *, seed: str) -> Any:
    """A judge that keeps every decision (its first legal action "best"): the test is
    about what the view shows, not about the evaluation."""
    from games.learn.core.puzzles import ActionValue

    legal = view["legal_actions"]
    return legal[0], [ActionValue(a, 0.0, 0.0) for a in legal], 0


@pytest.mark.django_db
def test_no_puzzle_payload_shows_a_card_its_player_could_not_see():
    """1,000 puzzles generated from self-play hands (the generator's own path: the view
    of the player to move at each decision, stored, then served by the page and the
    API) show no card of the opponent's concealed hand nor of the stock, and exactly
    the player's own hand; so do the values an answer reveals. (The page's JSON and the
    API answer ``puzzle_payload`` as it is checked here: tests/learn/test_puzzles.py.)"""
    from games.learn import selectors as learn_selectors
    from games.learn import services as learn_services
    from games.learn.core import puzzles as core
    from games.learn.models import Puzzle
    from tests.security.secrets import concealed_from
    collection = core.Collection()
    checked = 0
    seed = 0
    while checked < 1000:
        state, actions = core.self_play_hand(seed, levels=("easy", "medium"))
        found = core.find_puzzles(
            state, actions, seed=f"hidden:{seed}", collection=collection, judge_with=_any_best
        )
        last = Puzzle.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        learn_services.puzzles_store(puzzles=found, source=Puzzle.Source.SELF_PLAY)
        truth = {ply: before for ply, before, _action in core.decisions(state, actions)}
        for puzzle in Puzzle.objects.filter(pk__gt=last).order_by("pk"):
            before = truth[puzzle.ply]
            seat = before.current_player
            payload = learn_selectors.puzzle_payload(puzzle)
            # What the page and the API send (puzzle_payload), and what an answer adds.
            shown = visible_cards([payload, puzzle.values, puzzle.best])
            leaked = shown & concealed_from(before, seat)
            assert not leaked, f"puzzle {puzzle.pk} shows {sorted(leaked)}"
            assert payload["view"]["hand"] == [str(c) for c in before.hands[seat]]
            assert payload["view"]["seat"] == seat
            assert payload["legal_actions"] == before.legal_actions()
            checked += 1
        seed += 1
    assert checked >= 1000
