"""The event and match streams on a live daphne server (the Redis channel layer and a
real Celery worker): challenges between two BOT accounts, matchStart and matchFinish,
keep-alive lines, a ban ending a stream; a whole match of a BOT against a person
played through the API, where every stream line and every API answer shows the bot
exactly what a person in its seat sees, the stream is the bot's presence, and the
last line is the final state."""

from __future__ import annotations

import random
import time

import pytest

from accounts import services as accounts_services
from games import services
from games.chat.services import chat_post
from games.messages import apply_frame
from games.models import Hand, Match, Seat
from tests.api.drivers import Script, current_state, scripted_action
from tests.api.streams import ENDED, StreamReader, api
from tests.factories import create_api_token, create_challenge, create_moderator, create_user
from tests.games.helpers import assert_frame_hides_secrets, cards_in, states_by_version

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def bot(name: str) -> tuple:
    """A new BOT account and its API token."""
    user = create_user(name, bot=True)
    return user, create_api_token(user)[0]


def test_challenges_and_matches_on_the_event_streams(live_asgi_server, live_celery_worker):
    base = live_asgi_server.url
    robo, robo_token = bot("robo")
    _otto, otto_token = bot("otto")
    status, answer = api(base, robo_token, "POST", "/api/challenge/computer",
                         {"level": "easy", "variant": "time_freedom", "target": 50})
    assert status == 200
    running = answer["match"]["id"]
    robo_events = StreamReader(base, "/api/stream/event", robo_token)
    otto_events = StreamReader(base, "/api/stream/event", otto_token)
    try:
        assert robo_events.status == 200
        assert robo_events.response.getheader("Content-Type") == "application/x-ndjson"
        # A match already running is announced first.
        assert robo_events.next() == {"type": "matchStart", "match": {"id": running}}

        status, answer = api(base, robo_token, "POST", "/api/challenge/otto",
                             {"variant": "oklahoma", "target": 100, "rated": True})
        assert status == 200
        first = answer["challenge"]["id"]
        assert otto_events.next() == {"type": "challenge", "challenge": {
            "id": first, "from": "robo", "variant": "oklahoma", "target": 100, "rated": True,
            "days": None}}
        assert api(base, otto_token, "POST", f"/api/challenge/{first}/decline")[0] == 200
        assert robo_events.next() == {"type": "challengeDeclined", "challenge": {"id": first}}

        second = api(base, robo_token, "POST", "/api/challenge/otto", {})[1]["challenge"]["id"]
        assert otto_events.next()["challenge"]["id"] == second
        assert api(base, robo_token, "POST", f"/api/challenge/{second}/cancel")[0] == 200
        assert otto_events.next() == {"type": "challengeCanceled", "challenge": {"id": second}}

        third = api(base, robo_token, "POST", "/api/challenge/otto",
                    {"target": 50, "rated": True})[1]["challenge"]["id"]
        otto_events.next()
        status, answer = api(base, otto_token, "POST", f"/api/challenge/{third}/accept")
        assert status == 200
        started = answer["match"]["id"]
        assert Match.objects.get(pk=started).rated  # two BOT accounts
        assert robo_events.next() == {"type": "matchStart", "match": {"id": started}}
        assert otto_events.next() == {"type": "matchStart", "match": {"id": started}}
        assert api(base, otto_token, "POST", f"/api/challenge/{third}/accept")[0] == 409

        assert api(base, robo_token, "POST", f"/api/bot/match/{started}/resign")[0] == 200
        assert robo_events.next() == {"type": "matchFinish", "match": {"id": started}}
        assert otto_events.next() == {"type": "matchFinish", "match": {"id": started}}

        # Quiet streams get keep-alive lines.
        assert otto_events.next(timeout=30, keepalives=True) is None

        # A ban resigns the running match and ends the banned account's stream at once.
        accounts_services.user_ban(staff=create_moderator(), user=robo, reason="cheating")
        assert robo_events.wait_for(lambda e: e is not None) == {
            "type": "matchFinish", "match": {"id": running}}
        assert robo_events.next() is ENDED
        assert api(base, robo_token, "GET", "/api/account")[0] == 401
        # Events name matches and challenges, never a card.
        for line in robo_events.seen + otto_events.seen:
            assert line in (None, ENDED) or cards_in(line) == set(), line
    finally:
        robo_events.close()
        otto_events.close()


def bot_policy(view: dict) -> dict:
    legal = view["legal_actions"]
    for kind in ("big_gin", "knock", "pass"):
        found = [a for a in legal if a["type"] == kind]
        if found:
            return found[0]
    if {"type": "draw", "source": "stock"} in legal:
        return {"type": "draw", "source": "stock"}
    if legal[0]["type"] == "draw":
        return legal[0]
    return [a for a in legal if a["type"] == "discard"][-1]


def next_table(stream, held: dict, base: str, token: str, match_id: int) -> dict:
    """The table after the stream's next line for a newer version: a full state, or
    an event frame applied to the one held (games.messages.apply_frame); on a gap the
    full state is asked for, as a client does."""
    line = stream.wait_for(
        lambda line: line["type"] in ("state", "event") and line["version"] > held["version"]
    )
    if line["type"] == "state":
        return line
    applied = apply_frame(held, line)
    if applied is not None:
        return applied
    status, fresh = api(base, token, "GET", f"/api/bot/match/{match_id}/state")
    assert status == 200, fresh
    return fresh


def test_a_bot_plays_a_person_and_sees_only_its_own_seat(live_asgi_server, live_celery_worker):
    base = live_asgi_server.url
    robo, token = bot("robo")
    ann = create_user("ann")
    challenge = create_challenge(ann, robo, variant="time_freedom", target=50)
    status, answer = api(base, token, "POST", f"/api/challenge/{challenge.pk}/accept")
    assert status == 200
    match = Match.objects.get(pk=answer["match"]["id"])
    assert not match.rated  # a BOT against a person is never rated
    seat = Seat.objects.get(match=match, user=robo).index
    stream = StreamReader(base, f"/api/bot/match/{match.pk}/stream", token)
    answers: list[dict] = []
    rng = random.Random(3)
    chatted = False
    try:
        first = stream.next()
        assert first["type"] == "state" and first["you"] == seat
        assert Seat.objects.get(match=match, user=robo).connected  # the stream is presence
        state = first
        while state["match"]["status"] != "finished":
            if not chatted:
                chat_post(user=ann, text="hello robot AS KD", match_id=match.pk)
                chatted = True
            if state["match"]["current_seat"] == seat:
                status, answer = api(base, token, "POST", f"/api/bot/match/{match.pk}/action",
                                     {"version": state["version"],
                                      "action": bot_policy(state["view"])})
                assert status == 200, answer
                answers.append(answer)
                assert answer == {"version": state["version"] + 1}
            else:
                match.refresh_from_db()
                if match.version == state["version"]:
                    services.move_submit(
                        match=match, user=ann,
                        action=scripted_action(current_state(match), rng, Script()),
                        expected_version=match.version,
                    )
            state = next_table(stream, state, base, token, match.pk)
            if state["version"] % 8 == 0:  # within the token's rate limit
                status, fresh = api(base, token, "GET", f"/api/bot/match/{match.pk}/state")
                assert status == 200, fresh
                answers.append(fresh)
        assert stream.next() is ENDED  # the final state is the last line
    finally:
        stream.close()
    lines = [line for line in stream.seen if line is not None and line is not ENDED]
    assert lines[-1]["type"] == "state" and lines[-1]["match"]["status"] == "finished"
    assert any(line["type"] == "chat" and line["message"]["author"] == "ann" for line in lines)
    match.refresh_from_db()
    truth = states_by_version(match)
    seeds = {h.number: bytes(h.seed).hex() for h in Hand.objects.filter(match=match)}
    versions = [line["version"] for line in lines if line["type"] == "state"]
    assert versions == sorted(versions) and versions[-1] == match.version
    checked = 0
    for line in lines + [a for a in answers if a.get("type") == "state"]:
        if line["type"] == "chat":
            continue  # a person's text (ann wrote card names on purpose)
        if line["type"] == "state" and line["match"]["status"] != "finished":
            assert line["you"] == seat
            assert_frame_hides_secrets(line, seat, truth, seeds)
            checked += 1
        elif line["type"] == "event":  # the bot's own drawn card only, nothing concealed
            assert_frame_hides_secrets(line, seat, truth, seeds)
            checked += 1
        elif line["type"] != "state":
            assert cards_in(line) == set(), line
    # Nothing was skipped: every version of the match reached the bot, by its stream or
    # (after a gap) the state it asked for, and each such frame was checked above. A
    # match to 50 can end within its first hand (a knock against 60 points of deadwood).
    seen = {line["version"] for line in lines + answers if line.get("type") in ("state", "event")}
    assert seen >= set(range(first["version"], match.version + 1)), sorted(seen)
    assert checked >= len(seen) - 1  # all but the final state, which shows every card
    for answer in answers:
        if "type" not in answer:
            assert set(answer) == {"version"}
    deadline = time.monotonic() + 20
    while Seat.objects.get(match=match, user=robo).connected:
        assert time.monotonic() < deadline, "the closed stream still counts as presence"
        time.sleep(0.1)


def test_a_bot_that_drops_its_stream_is_away_like_a_person_who_closed_the_table(
    live_asgi_server, live_celery_worker
):
    base = live_asgi_server.url
    robo, token = bot("robo")
    status, answer = api(base, token, "POST", "/api/challenge/computer",
                         {"level": "easy", "variant": "time_freedom", "target": 50})
    assert status == 200
    seat = Seat.objects.get(match_id=answer["match"]["id"], user=robo)
    assert not seat.connected  # no stream yet: away, as a person without the table open
    stream = StreamReader(base, f"/api/bot/match/{seat.match_id}/stream", token)
    assert stream.next()["type"] == "state"
    seat.refresh_from_db()
    assert seat.connected
    stream.close()  # the bot's connection drops
    deadline = time.monotonic() + 20
    while True:
        seat.refresh_from_db()
        if not seat.connected:
            break
        assert time.monotonic() < deadline, "a dropped stream still counts as presence"
        time.sleep(0.1)
    assert seat.disconnected_at is not None  # the disconnection clock runs from here
