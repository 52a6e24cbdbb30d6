"""The authorisation matrix: every route of the site and every message of the match
socket, for each role (tests/security/world.py): anonymous, guest, player of the
match, muted player (the opponent), other player, spectator, banned, staff.

Each cell is what that person gets; a route added without a row here fails
``test_every_route_is_in_the_matrix``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async

from games import services
from games.models import Match, QuickMatchEntry, Seat
from tests.games.sockets import Socket
from tests.security.urls import route_names, sample_paths
from tests.security.world import ROLES, World, build_world

RULES_FORM = {
    "variant": "time_freedom", "target_score": "100", "knock_limit": "10", "turn_seconds": "30",
    "gin_bonus": "25", "undercut_bonus": "25", "big_gin_bonus": "31", "game_bonus": "100",
    "line_bonus": "25", "big_gin_allowed": "on", "shutout": "on",
}
TABLE_SETTINGS = {
    "card_size": "huge", "card_style": "classic", "card_back": "red", "theme": "contrast",
    "motion": "auto", "sound_on": "on", "volume": "70", "hand_sort": "melds",
}
SIGNED_OUT = ("anonymous", "banned")  # a banned player's session no longer signs in


def expect(default: str, **cells: str) -> dict[str, str]:
    """Expected outcome per role: a status code, or where a redirect goes."""
    return {role: cells.get(role, default) for role in ROLES}


def signed_in(default: str, **cells: str) -> dict[str, str]:
    """Signed-in only: the signed-out are sent to the login page."""
    return expect(default, anonymous="login", banned="login", **cells)


def signed_in_json(default: str, **cells: str) -> dict[str, str]:
    """Signed-in only, on a route that answers JSON: the signed-out are refused 401
    (``not_signed_in``), not sent to a page."""
    return expect(default, anonymous="401", banned="401", **cells)


def form(prefix: str, **extra: str) -> dict[str, str]:
    return {f"{prefix}-{k}": v for k, v in {**RULES_FORM, **extra}.items()}


REDIRECTS = {
    "login": "/accounts/login/", "home": "/", "table": "/match/", "admin-login": "/admin/login/",
    "reauth": "/accounts/reauthenticate/", "set-password": "/accounts/password/set/",
    "my-matches": "/matches/",
}

# (route name, label, method, payload, expected); a payload of JSON goes as JSON.
GET_MATRIX: list[tuple[str, str, dict[str, str]]] = [
    ("health", "", expect("200")),
    ("games:home", "", expect("200")),
    ("games:fairness", "", expect("200")),
    ("privacy", "", expect("200")),
    ("javascript_catalog", "public: the browser code's words in Spanish", expect("200")),
    ("language", "GET is not allowed", expect("405")),
    ("games:offline", "the offline table: the same page for everyone", expect("200")),
    ("games:offline_account", "who is signed in (for the offline page)", expect("200")),
    ("games:service_worker", "", expect("200")),
    ("games:manifest", "", expect("200")),
    ("learn:lessons", "the lessons: the same page for everyone", expect("200")),
    ("learn:progress", "who is signed in, and the lessons they finished", expect("200")),
    ("learn:puzzles", "the puzzle page: anyone", expect("200")),
    ("learn:puzzle_next", "anyone; no puzzle in this world yet", expect("404")),
    ("learn:api_puzzle_next", "an API token's account only", expect("401")),
    ("learn:api_puzzle_daily", "anyone, no token; no puzzle in this world yet", expect("404")),
    ("games:table", "a match in play: anyone may watch", expect("200")),
    ("games:sheet", "a match in play: anyone may read its finished hands, as anyone may watch",
     expect("200")),
    ("games:replay", "a finished match: anyone", expect("200")),
    ("games:deal", "a finished match: anyone", expect("200")),
    ("analysis:api_match", "a match in play: its players only",
     expect("403", player="200", muted="200")),
    ("analysis:hand_review", "a hand cut short by a resignation: never analysed", expect("404")),
    ("games:my_matches", "", signed_in("200")),
    ("games:quick_status", "", signed_in_json("200")),
    ("games:join", "an invitation: its host goes to the table", signed_in("200", player="table")),
    ("accounts:settings", "", signed_in("200")),
    ("accounts:table_settings", "everyone: a visitor's and a guest's are kept by their browser",
     expect("200")),
    ("accounts:delete", "GET is not allowed", signed_in("405")),
    ("accounts:etiquette", "", expect("200")),
    ("accounts:profile", "", expect("200")),
    ("tournaments:list", "", expect("200")),
    ("tournaments:detail", "an unknown tournament", expect("404")),
    ("tournaments:round", "a round of an unknown tournament", expect("404")),
    ("tournaments:watch", "", expect("200")),
    ("leaderboards:index", "", expect("200")),
    ("leaderboards:current_week", "", expect("200")),
    ("leaderboards:week", "", expect("200")),
    ("leaderboards:current_month", "", expect("200")),
    ("leaderboards:month", "", expect("200")),
    ("leaderboards:rating", "", expect("200")),
    ("leaderboards:bot_rating", "", expect("200")),
    ("leaderboards:correspondence", "", expect("200")),
    ("leaderboards:computer", "", expect("200")),
    ("leaderboards:computer_level", "", expect("200")),
    ("api:match_export", "a finished match: anyone", expect("200")),
    ("api:user_matches", "public, a token optional", expect("200")),
    ("api:api_match_export", "a token only: a session is not enough", expect("401")),
    ("api:export_key", "public: the key that signs exports", expect("200")),
    ("api:openapi_document", "public: the API's OpenAPI document", expect("200")),
    ("api:reference", "public: the API's reference page", expect("200")),
    ("api:export_verifier", "public: the single-file verifier", expect("200")),
    ("api:account", "a token only", expect("401")),
    ("api:event_stream", "a token only", expect("401")),
    ("api:match_stream", "a token only", expect("401")),
    ("api:match_state", "a token only", expect("401")),
    ("api:tokens", "", signed_in("200")),
    ("api:token_revoke", "GET is not allowed", signed_in("405")),
    ("api:challenge_page", "an unknown challenge", signed_in("404")),
    ("api:challenge_status", "an unknown challenge", signed_in_json("404")),
    ("social:friends", "", signed_in("200")),
    ("social:notifications", "", signed_in("200")),
    ("social:notification_open", "bob's notification: his alone (read, then on to it)",
     signed_in("404", muted="302")),
    ("social:unsubscribe", "a forged link: refused to everyone", expect("404")),
    *[(name, "GET is not allowed", signed_in("405"))
      for name in ("social:follow", "social:unfollow", "social:read_all", "social:settings",
                   "games:vacation")],
    ("account_login", "", expect("home", anonymous="200", banned="200")),
    ("account_signup", "guests may sign up",
     expect("home", anonymous="200", banned="200", guest="200")),
    ("account_inactive", "", expect("200")),
    ("account_reauthenticate", "", signed_in("403")),
    ("account_request_reauthentication_code", "", signed_in("403")),
    ("account_confirm_reauthentication_code", "", signed_in("reauth")),
    ("account_email", "", signed_in("200")),
    ("account_email_verification_sent", "", expect("200")),
    ("account_change_password", "no usable password yet", signed_in("set-password")),
    ("account_set_password", "", signed_in("200")),
    ("account_reset_password", "", expect("200")),
    ("account_confirm_login_code", "", expect("home", anonymous="login", banned="login")),
    ("account_confirm_email", "an unknown key", expect("200")),
    ("account_reset_password_from_key_done", "", expect("200")),
    ("account_reset_password_from_key", "an unknown key", expect("200")),
    ("account_reset_password_done", "", expect("200")),
]
POST_MATRIX: list[tuple[str, str, Any, dict[str, str]]] = [
    ("language", "anyone chooses the site's language: back to the page it was chosen on",
     {"language": "en", "next": "/"}, expect("home")),
    ("games:play_guest", "a visitor becomes a guest", {}, expect("home")),
    ("games:play_computer", "anyone plays the computer (a visitor as a new guest)",
     {**form("computer", level="easy")}, expect("table")),
    ("games:play_friend", "registered players only", form("friend"),
     signed_in("table", guest="home")),
    ("games:play_quick", "registered players only", form("quick"),
     signed_in("302", guest="home")),
    ("games:quick_cancel", "", {}, signed_in("home")),
    ("games:cancel_invite", "a waiting invitation: its host alone cancels it", {},
     signed_in("table", player="my-matches")),
    ("learn:progress", "signed-in only: lessons of the course join the account",
     {"json": {"lessons": ["melds"]}}, signed_in_json("200")),
    ("learn:puzzle_answer", "anyone (a visitor becomes a guest): an unknown puzzle",
     {"json": {"action": {"type": "pass"}}}, expect("404")),
    ("learn:api_puzzle_answer", "an API token's account only",
     {"json": {"action": {"type": "pass"}}}, expect("401")),
    ("games:offline_upload", "signed-in only; a record that does not replay is refused",
     {"json": {"id": "not-a-match"}}, expect("400", anonymous="401", banned="401")),
    ("games:join", "a fresh invitation: guests may not take the seat", {},
     signed_in("table", guest="home")),
    ("chat:report", "a table message: not one's own; spectators read the table chat",
     {"json": {"reason": "spam"}}, signed_in_json("200", guest="403", player="400")),
    ("chat:block", "carol: not oneself, not as a guest", {"json": {"username": "carol"}},
     signed_in_json("200", guest="403", other="400")),
    ("chat:unblock", "", {"json": {"username": "carol"}}, signed_in_json("200")),
    ("fairplay:notice_read", "an unknown notice: nothing is marked read", {},
     signed_in("home")),
    ("analysis:hint", "a friend match: no hints for anyone", {"json": {}}, expect("403")),
    ("tournaments:new", "an empty form creates nothing", {}, signed_in("400")),
    *[(name, "an unknown tournament", {}, signed_in("404"))
      for name in ("tournaments:join", "tournaments:withdraw", "tournaments:pause")],
    ("accounts:delete", "a wrong confirmation deletes nothing", {"confirm": "no"},
     signed_in("400")),
    ("accounts:table_settings", "saved on the signed-in player's row (a guest's too); a "
     "visitor's are kept by the browser, never sent", TABLE_SETTINGS, signed_in("302")),
    ("social:follow", "carol: refused (a message) to guests, to herself and to the "
     "blocked; back to the friends list", {}, signed_in("302")),
    ("social:unfollow", "", {}, signed_in("302")),
    ("social:read_all", "", {}, signed_in("302")),
    ("social:settings", "guests: refused with a message", {}, signed_in("302")),
    ("social:unsubscribe", "a forged link: refused to everyone", {}, expect("404")),
    ("games:vacation", "no days given: refused with a message, back to the settings", {},
     signed_in("302")),
    ("account_logout", "", {}, expect("home")),
    ("api:tokens", "registered players only", {"name": "x"}, signed_in("200", guest="400")),
    ("api:profile_challenge", "alice: back to her profile when refused", {"target": "50"},
     signed_in("302")),
    ("api:challenge_page_cancel", "an unknown challenge", {}, signed_in("404")),
    ("api:challenge_page_accept", "an unknown challenge", {}, signed_in("404")),
    ("api:challenge_page_decline", "an unknown challenge", {}, signed_in("404")),
    *[(name, "a token only: a session is not enough", {"json": {}}, expect("401"))
      for name in ("api:bot_upgrade", "api:challenge_computer", "api:challenge_create",
                   "api:challenge_accept", "api:challenge_decline", "api:challenge_cancel",
                   "api:match_action", "api:match_resign", "api:match_chat")],
]
ADMIN_MATRIX = [
    ("/admin/", expect("admin-login", staff="200")),
    ("/admin/accounts/user/", expect("admin-login", staff="200")),
    ("/admin/chat/chatreport/", expect("admin-login", staff="200")),
]


def outcome(response: Any, expected: str) -> str:
    """The response in the matrix's terms (a redirect named as expected if it goes there)."""
    if response.status_code != 302:
        return str(response.status_code)
    location = response["Location"]
    if expected == "302":
        return "302"
    target = REDIRECTS.get(expected, "")
    if expected == "home":
        return "home" if location == "/" or location.startswith("/?") else location
    return expected if target and location.startswith(target) else location


def test_every_route_is_in_the_matrix(db):
    listed = {name for name, *_ in GET_MATRIX} | {name for name, *_ in POST_MATRIX}
    names = route_names()
    for path_only in ("games:play_guest", "games:play_computer", "games:play_friend",
                      "games:play_quick", "games:quick_cancel", "games:cancel_invite",
                      "chat:report", "chat:block",
                      "chat:unblock", "account_logout"):
        assert path_only in names
    assert names - listed == set(), "routes without a row in the authorisation matrix"
    assert listed - names == set()


@pytest.mark.django_db
def test_http_authorisation_matrix():
    world = build_world()
    paths = sample_paths(world)
    failures = []
    readers = {role: world.client(role) for role in ROLES}  # GETs change no one's session
    for name, label, expected in GET_MATRIX:
        for role in ROLES:
            got = outcome(readers[role].get(paths[name]), expected[role])
            if got != expected[role]:
                failures.append(
                    f"GET {name} ({label}) as {role}: {got}, expected {expected[role]}"
                )
    for name, label, payload, expected in POST_MATRIX:
        for role in ROLES:
            path = paths[name]
            if name == "games:join":
                path = f"/join/{fresh_invitation(world).invite_token}/"
            if name == "games:cancel_invite":
                path = f"/match/{fresh_invitation(world).pk}/cancel/"
            client = world.client(role)
            if "json" in payload:
                response = client.post(path, json.dumps(payload["json"]),
                                       content_type="application/json")
            else:
                response = client.post(path, payload)
            got = outcome(response, expected[role])
            if got != expected[role]:
                failures.append(
                    f"POST {name} ({label}) as {role}: {got}, expected {expected[role]}"
                )
    for path, expected in ADMIN_MATRIX:
        for role in ROLES:
            got = outcome(readers[role].get(path), expected[role])
            if got != expected[role]:
                failures.append(f"GET {path} as {role}: {got}, expected {expected[role]}")
    assert not failures, "\n".join(failures)


@pytest.mark.django_db
def test_refusals_change_nothing_and_a_live_hand_stays_secret():
    world = build_world()
    guest = world.users["guest"]
    client = world.client("guest")
    client.post("/play/friend/", form("friend"))
    client.post("/play/quick/", form("quick"))
    client.post(f"/join/{world.waiting.invite_token}/")
    assert not Seat.objects.filter(user=guest).exists()
    assert not QuickMatchEntry.objects.filter(user=guest).exists()
    world.waiting.refresh_from_db()
    assert world.waiting.status == Match.Status.WAITING
    # Nobody, not even its players, replays or re-deals a hand still in play.
    for role in ROLES:
        for path in (f"/match/{world.match.pk}/hand/1/replay/",
                     f"/match/{world.match.pk}/hand/1/deal.json"):
            assert world.client(role).get(path).status_code == 404
    # The banned player's old session is dead; a visitor's play_guest makes a guest.
    banned = world.client("banned")
    assert banned.get("/matches/").status_code == 302
    banned.post("/play/guest/")
    assert banned.get("/matches/").status_code == 200


def fresh_invitation(world: World) -> Match:
    return services.match_create_invite(user=world.users["player"], rules=None,
                                        variant="time_freedom")


# --- the match socket --------------------------------------------------------------------

SOCKET_ROLES = ("anonymous", "guest", "player", "muted", "other", "spectator", "banned", "staff")


@pytest.mark.django_db(transaction=True)
async def test_socket_authorisation_matrix():
    world = await sync_to_async(build_world)()
    match = world.match
    mover_role = "player" if match.current_seat == 0 else "muted"
    sockets: dict[str, Socket] = {}
    for role in SOCKET_ROLES:
        user = world.users[role]  # the banned one: a session of a deactivated account
        sockets[role] = await Socket.open(match.pk, user)
        first = await sockets[role].receive_type("state")
        expected_seat = {"player": 0, "muted": 1}.get(role)
        assert first["you"] == expected_seat, role
        # Only a seat's own socket ever sees a hand.
        assert (first["view"]["hand"] != []) == (expected_seat is not None), role
    version = match.version
    legal = await first_legal(world)
    for role, socket in sockets.items():
        seated = role in ("player", "muted")
        expected_action = (
            "not_a_player" if not seated
            else "accepted" if role == mover_role else "not_your_turn"
        )
        if expected_action == "accepted":
            continue  # played last, once every refusal was seen
        await socket.send({"type": "action", "version": version, "action": legal})
        assert (await socket.receive_type("error"))["code"] == expected_action, role
        await socket.send({"type": "rematch"})
        assert (await socket.receive_type("error"))["code"] == (
            "match_not_over" if seated else "not_a_player"
        ), role
        if not seated:
            await socket.send({"type": "resign", "version": version})
            assert (await socket.receive_type("error"))["code"] == "not_a_player", role
        await socket.send({"type": "chat", "text": "hello"})
        chat = await next_chat_answer(socket)
        expected_chat = {
            "anonymous": "chat_not_allowed", "banned": "chat_not_allowed",
            "guest": "chat_not_allowed", "muted": "muted",
        }.get(role, "chat" if seated else "not_a_player")
        assert chat.get("code", chat["type"]) == expected_chat, (role, chat)
        await socket.send({"type": "sync"})
        assert (await socket.receive_type("state"))["version"] == version
    mover = sockets[mover_role]
    await mover.send({"type": "chat", "text": "my turn"})
    assert (await next_chat_answer(mover))["type"] == "chat"
    await mover.send({"type": "action", "version": version, "action": legal})
    assert (await mover.state_at_least(version + 1))["version"] == version + 1
    # The bell (social/consumers.py MatchSocket): a seated player's own socket only, with
    # their own count (bob, muted, was told of his mute and of alice's follow).
    for role, socket in sockets.items():
        await socket.drain()
        counts = [f["unread"] for f in socket.bell if f["type"] == "unread"]
        assert counts == {"player": [0], "muted": [2]}.get(role, []), role
    for socket in sockets.values():
        await socket.close()


async def next_chat_answer(socket: Socket) -> dict:
    """The next chat frame or error of this socket (chat frames are not in .receive)."""
    while True:
        frame = await socket.communicator.receive_json_from(timeout=10)
        if frame["type"] in ("chat", "error"):
            return frame
        if frame["type"] in ("unread", "notification"):
            socket.bell.append(frame)  # the bell's, checked at the end


@sync_to_async
def first_legal(world: World) -> dict:
    from tests.games.helpers import current_state

    return current_state(world.match).legal_actions()[0]


# --- the notification socket (social/consumers.py) ----------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_notification_socket_authorisation():
    """Registered players open it and hear their own unread count; the signed out, the
    banned and guests are closed (4001) before a frame; a frame of another type is
    refused and the socket stays open."""
    from channels.testing import WebsocketCommunicator

    from ginsite.asgi import application

    world = await sync_to_async(build_world)()
    for role in ROLES:
        headers = await sync_to_async(world.socket_headers)(role)
        socket = WebsocketCommunicator(application, "/ws/notifications/", headers=headers)
        connected, code = await socket.connect(timeout=10)
        if role in ("anonymous", "banned", "guest"):
            assert (connected, code) == (False, 4001) or (
                connected and (await socket.receive_output(timeout=10))["code"] == 4001
            ), role
            continue
        assert connected, role
        first = await socket.receive_json_from(timeout=10)
        # Bob (muted) was told of his mute and of alice's follow; the others of nothing.
        assert first == {"type": "unread", "unread": 2 if role == "muted" else 0}, role
        await socket.send_json_to({"type": "action"})
        assert (await socket.receive_json_from(timeout=10))["code"] == "unknown_type", role
        await socket.send_json_to({"type": "ping"})
        assert await socket.receive_nothing(timeout=0.2), role
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_carries_the_bell_to_registered_players_only():
    """The lobby's socket (social/consumers.py LobbySocket) is the lobby chat's with the
    bell: a registered player hears their own unread count after the chat's history; a
    guest reads the chat but hears no bell; the signed out and the banned are closed
    (4001); a ping is answered with nothing, another type is refused."""
    from channels.testing import WebsocketCommunicator

    from ginsite.asgi import application

    world = await sync_to_async(build_world)()
    for role in ROLES:
        headers = await sync_to_async(world.socket_headers)(role)
        socket = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
        connected, code = await socket.connect(timeout=10)
        if role in ("anonymous", "banned"):
            assert (connected, code) == (False, 4001) or (
                connected and (await socket.receive_output(timeout=10))["code"] == 4001
            ), role
            continue
        assert connected, role
        assert (await socket.receive_json_from(timeout=10))["type"] == "chat_history", role
        if role == "guest":
            assert await socket.receive_nothing(timeout=0.3), role
        else:
            first = await socket.receive_json_from(timeout=10)
            assert first == {"type": "unread", "unread": 2 if role == "muted" else 0}, role
        await socket.send_json_to({"type": "ping"})
        assert await socket.receive_nothing(timeout=0.2), role
        await socket.send_json_to({"type": "action"})
        assert (await socket.receive_json_from(timeout=10))["code"] == "unknown_type", role
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_tournament_socket_by_role():
    """The tournament page's one socket (social/consumers.py TournamentSocket): whoever may
    see the tournament gets its standings; a signed-in viewer (a guest too) reads its chat,
    a registered player hears their bell as well; the signed out and the banned get the
    standings alone and may not chat; a private tournament is closed (4404) to those
    who may not see it; ``?only=standings`` (a finished table's) carries neither chat
    nor bell."""
    from channels.testing import WebsocketCommunicator

    from ginsite.asgi import application
    from tests.factories import create_tournament

    world = await sync_to_async(build_world)()
    players = [world.users["player"], world.users["muted"]]
    public = await sync_to_async(create_tournament)("arena", players, name="Open")
    private = await sync_to_async(create_tournament)("arena", players, name="Closed",
                                                     public=False)
    for role in ROLES:
        headers = await sync_to_async(world.socket_headers)(role)
        for path in (f"/ws/tournament/{public.pk}/", f"/ws/tournament/{public.pk}/?only=standings"):
            socket = WebsocketCommunicator(application, path, headers=headers)
            assert (await socket.connect(timeout=10))[0], role
            signed_in = role not in ("anonymous", "banned") and "only=" not in path
            expected = ["standings"] + (["chat_history"] if signed_in else []) + (
                ["unread"] if signed_in and role != "guest" else [])
            # Each expected frame is waited for (a loaded machine may take longer than
            # any quiet spell to send the first), then a quiet spell shows nothing more.
            types = [(await socket.receive_json_from(timeout=10))["type"] for _ in expected]
            assert types == expected, (role, path)
            assert await socket.receive_nothing(timeout=0.3), (role, path)
            await socket.send_json_to({"type": "chat", "text": "hello"})
            answer = await socket.receive_json_from(timeout=10)
            expected_chat = ("chat" if role in ("player", "staff") and signed_in else
                             "muted" if role == "muted" and signed_in else
                             "not_a_player" if role in ("other", "spectator") and signed_in
                             else "chat_not_allowed")
            assert answer.get("code", answer["type"]) == expected_chat, (role, path, answer)
            await socket.disconnect()
        socket = WebsocketCommunicator(application, f"/ws/tournament/{private.pk}/",
                                       headers=headers)
        assert (await socket.connect(timeout=10))[0], role  # accepted, then told
        if role in ("player", "muted", "staff"):
            assert (await socket.receive_json_from(timeout=10))["type"] == "standings", role
        else:
            assert (await socket.receive_output(timeout=10))["code"] == 4404, role
        await socket.disconnect()
