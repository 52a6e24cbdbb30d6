"""Hidden information: every state frame sent to each seat and to spectators is
checked against the true deal. No frame may hold a card of the other seat's
concealed hand, a stock card, or the seed of a hand still in play; each player's
frame shows exactly their own hand.

Three layers, from many matches to real sockets:

1. Hundreds of complete matches (to the target score, or resigned) played in
   memory (each seat knocks as soon as it may, else draws and discards its
   highest loose card, from its own view): the frames are built by the
   real builder, ``selectors.match_state_messages``, from Match/Seat/Hand objects
   that follow the services' rules (deal, next dealer, scoring) without the
   database round trips of a move (which would make this minutes long).
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
from games.bots import choose_action
from games.engine import HandState, RuleSet, next_dealer, score_match
from games.models import Hand, Match, Seat
from games.services import scheduling
from tests.games.helpers import current_state, make_user
from tests.games.sockets import choose_from_view
from tests.security.secrets import assert_hides_secrets, visible_cards

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
        assert message["you"] == audience
        assert_hides_secrets(message, audience, state, seeds)
    return len(messages)


# --- 1. hundreds of complete matches, in memory ----------------------------------------


class MemoryMatch:
    """A match kept in unsaved model objects, moved on as games/services/play.py does."""

    def __init__(
        self, pk: int, variant: str, rules: RuleSet, players: list[Any], rng: random.Random
    ) -> None:
        self.rng = rng
        self.rules = rules
        self.match = Match(
            pk=pk,
            kind=Match.Kind.FRIEND,
            variant=variant,
            rules=rules.to_dict(),
            status=Match.Status.ACTIVE,
            version=1,
            rated=True,
            started_at=timezone.now(),
        )
        self.seats = [Seat(index=i, user=players[i]) for i in (0, 1)]
        self.hands: list[Hand] = []
        self.results: list[dict] = []
        self.deal(1, rng.randrange(2))

    def deal(self, number: int, dealer: int) -> None:
        seed = self.rng.randbytes(32)
        state = self._state = HandState.deal(self.rules, dealer, seed)
        self.hands.append(
            Hand(
                number=number,
                dealer=dealer,
                seed=seed,
                seed_hash=hashlib.sha256(seed).hexdigest(),
                state=state.to_dict(),
            )
        )
        self.start_turn(state)

    def start_turn(self, state: HandState) -> None:
        self.match.current_seat = state.current_player
        seconds = self.rules.turn_seconds
        self.match.turn_deadline = (
            None if seconds is None else timezone.now() + timezone.timedelta(seconds=seconds)
        )

    @property
    def state(self) -> HandState:
        return self._state

    def seeds(self) -> dict[int, str]:
        return {h.number: bytes(h.seed).hex() for h in self.hands}

    def play(self, action: dict) -> None:
        hand = self.hands[-1]
        state, _events = self.state.apply(action)
        self._state = state
        self.match.version += 1
        hand.state = state.to_dict()
        if not state.is_over:
            self.start_turn(state)
            return
        hand.result = state.result.to_dict()
        self.results.append(hand.result)
        score = score_match(self.rules, self.results)
        for seat in self.seats:
            seat.score = score.hand_points[seat.index]
        if score.over:
            self.finish(score.winner, Match.EndReason.TARGET, score.to_dict())
        else:
            self.deal(hand.number + 1, next_dealer(hand.dealer, state.result))

    def resign(self, loser: int) -> None:
        score = score_match(self.rules, self.results, forfeit=loser)
        self.match.version += 1
        self.finish(1 - loser, Match.EndReason.RESIGN, score.to_dict())

    def finish(self, winner: int | None, reason: str, final: dict) -> None:
        self.match.status = Match.Status.FINISHED
        self.match.winner_seat = winner
        self.match.end_reason = reason
        self.match.final_score = final
        self.match.current_seat = None
        self.match.turn_deadline = None
        for seat in self.seats:
            seat.score = final["totals"][seat.index]


@pytest.mark.django_db
def test_no_frame_of_hundreds_of_matches_shows_a_hidden_card(django_user_model, monkeypatch):
    rng = random.Random(20261129)
    players = [make_user(django_user_model, "alice"), make_user(django_user_model, "bob")]
    current: dict[str, MemoryMatch] = {}
    # The real frame builder, fed from memory instead of two queries.
    monkeypatch.setattr(
        selectors, "_load", lambda match: (match, current["m"].seats, current["m"].hands)
    )
    frames = hands = resigned = 0
    for number in range(IN_MEMORY_MATCHES):
        # Straight Gin hands often end in a draw: its matches are long, so fewer.
        variant = rng.choices(list(VARIANTS), weights=[4, 1, 2, 2])[0]
        rules = VARIANTS[variant].replace(target_score=50)
        game = current["m"] = MemoryMatch(10**9 + number, variant, rules, players, rng)
        resign_at = rng.randrange(20, 150) if rng.random() < 0.25 else None
        moves = 0
        while game.match.status == Match.Status.ACTIVE:
            frames += check_messages(
                selectors.match_state_messages(match=game.match), game.state, game.seeds()
            )
            if moves == resign_at:
                game.resign(rng.randrange(2))
                resigned += 1
                break
            game.play(choose_from_view(game.state.player_view(game.match.current_seat)))
            moves += 1
        final = selectors.match_state_messages(match=game.match)
        frames += check_messages(final, game.state, game.seeds())
        assert all(m["match"]["status"] == "finished" for m in final.values())
        assert [h["seed"] for h in final[None]["match"]["hands"]] == list(game.seeds().values())
        hands += len(game.hands)
    assert resigned > 0 and hands > 3 * IN_MEMORY_MATCHES
    assert frames > 100 * IN_MEMORY_MATCHES


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
    for group, event in sent:
        message = event["message"]
        assert message["version"] == match.version
        if group == broadcast.public_group(match.pk):
            assert message["type"] == "presence" and not visible_cards(message)
            continue
        assert message["you"] == audiences[group]
        assert_hides_secrets(message, audiences[group], state, seeds)
    return len(sent)


@pytest.mark.django_db
def test_no_frame_broadcast_by_the_services_shows_a_hidden_card(
    django_user_model, monkeypatch, django_capture_on_commit_callbacks
):
    capture = Capture()
    monkeypatch.setattr(broadcast, "_group_send", capture.group_send)
    # The test plays the computer's turns itself; clock checks never come due.
    monkeypatch.setattr(scheduling, "bot_turn", lambda **kwargs: None)
    monkeypatch.setattr(scheduling, "clock_check", lambda **kwargs: None)
    rng = random.Random(7)
    alice, bob = make_user(django_user_model, "alice"), make_user(django_user_model, "bob")
    frames = 0
    for number in range(SERVICE_MATCHES):
        rules = RuleSet.default().replace(target_score=50)
        with django_capture_on_commit_callbacks(execute=True):
            if number % 2:
                match = services.match_create_computer(
                    user=alice, level="easy", rules=rules, variant="default"
                )
            else:
                match = services.match_create_invite(user=alice, rules=rules, variant="default")
                match = services.match_join_invite(user=bob, token=match.invite_token)
        match.refresh_from_db()
        frames += check_sent(match, capture.take())
        users = {s.index: s.user for s in Seat.objects.filter(match=match).select_related("user")}
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
    assert frames > 50 * SERVICE_MATCHES
