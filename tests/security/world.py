"""The people and matches of the authorisation tests.

Roles: ``anonymous``; ``guest`` (a guest account, not seated); ``player`` (alice,
seat of the match, to move or not); ``opponent`` (bob, the other seat, muted by a
moderator: the ``muted`` role); ``other`` (carol, a registered player with her own
match, not seated here); ``spectator`` (dave, signed in, watching); ``banned``
(eve, banned by a moderator after she signed in: her old session is dead); ``staff``
(a moderator).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.test import Client

from accounts import services as accounts_services
from games import services
from games.chat.models import ChatMessage
from games.chat.services import chat_post
from games.engine import RuleSet
from games.models import Match
from social.models import Notification
from social.services import follow_create
from tests.factories import create_match, create_moderator, create_user

ROLES = ("anonymous", "guest", "player", "muted", "other", "spectator", "banned", "staff")


@dataclass
class World:
    users: dict[str, Any]  # role -> user (None for anonymous)
    match: Match  # active: alice (player) vs bob (muted)
    finished: Match  # alice vs bob, resigned
    waiting: Match  # alice's invitation
    message: ChatMessage  # alice's table chat message in ``match``
    others_message: ChatMessage  # a message at carol's table
    notification: Notification  # bob's (the muted role): alice follows him
    banned_cookies: Any = None  # eve's session from before her ban

    def client(self, role: str, *, csrf: bool = False) -> Client:
        client = Client(enforce_csrf_checks=csrf)
        user = self.users[role]
        if role == "banned":
            client.cookies = copy.deepcopy(self.banned_cookies)
        elif user is not None:
            client.force_login(user)
        return client

    def socket_headers(self, role: str) -> list[tuple[bytes, bytes]]:
        """A WebSocket handshake's headers as ``role``'s browser sends them: the site's
        origin and, but for the anonymous, the session cookie (the banned one's dead
        session). Sync code: call it through ``sync_to_async``."""
        from tests.games.sockets import ORIGIN, session_cookie

        user = self.users[role]
        if role == "banned":
            cookie = self.banned_cookies["sessionid"].value
            return [ORIGIN, (b"cookie", f"sessionid={cookie}".encode())]
        if user is not None:
            return [ORIGIN, (b"cookie", session_cookie(user))]
        return [ORIGIN]


def build_world() -> World:
    rules = RuleSet.time_freedom()
    alice, bob = create_user("alice"), create_user("bob")
    carol, dave, eve = create_user("carol"), create_user("dave"), create_user("eve")
    staff = create_moderator("mod")
    guest = services.guest_user_create()
    match = create_match(alice, bob, rules=rules, variant="time_freedom")
    finished = create_match(alice, bob, rules=rules, variant="time_freedom")
    services.match_resign(match=finished, user=bob)
    waiting = services.match_create_invite(user=alice, rules=rules, variant="time_freedom")
    carols = services.match_create_invite(user=carol, rules=rules, variant="time_freedom")
    carols = services.match_join_invite(user=eve, token=carols.invite_token)
    message = chat_post(user=alice, text="good luck", match_id=match.pk)
    others_message = chat_post(user=carol, text="hello eve", match_id=carols.pk)
    accounts_services.user_mute(staff=staff, user=bob, duration=timedelta(days=1),
                                reason="spam")
    follow_create(user=alice, followee=bob)
    notification = Notification.objects.filter(user=bob).latest("pk")
    banned_client = Client()
    banned_client.force_login(eve)
    accounts_services.user_ban(staff=staff, user=eve, reason="cheating")
    world = World(
        users={"anonymous": None, "guest": guest, "player": alice, "muted": bob,
               "other": carol, "spectator": dave, "banned": eve, "staff": staff},
        match=match, finished=finished, waiting=waiting, message=message,
        others_message=others_message, notification=notification,
    )
    world.banned_cookies = banned_client.cookies
    for item in (match, finished, waiting):
        item.refresh_from_db()
    return world
