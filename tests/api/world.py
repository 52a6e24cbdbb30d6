"""The accounts, match and challenge of the bot API's authorisation and fuzz tests.

Roles (each with its own token, sent as ``Authorization: Bearer``): ``anonymous`` (no
token); ``player`` (robo, a BOT account seated in ``match`` against the computer, to
move, and challenged by carol); ``other`` (otto, another BOT account, not seated);
``person`` (dave, a person's account, not a BOT); ``banned`` (eve's BOT token, her
account banned after the token was made); ``revoked`` (a second token of robo's,
revoked).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.test import Client

from accounts import services as accounts_services
from accounts.models import User
from games.api.models import Challenge
from games.api.tokens import api_token_revoke
from games.models import Match
from tests.factories import (
    create_api_token,
    create_challenge,
    create_match,
    create_moderator,
    create_user,
    play_to_turn_of,
)

ROLES = ("anonymous", "player", "other", "person", "banned", "revoked")


def make_token(username: str) -> str:
    """A new API token of the account ``username`` (tests/factories.py's create_api_token)."""
    return create_api_token(User.objects.get(username=username))[0]


@dataclass
class ApiWorld:
    tokens: dict[str, str | None]
    users: dict[str, Any]
    match: Match
    challenge: Challenge

    def call(self, role: str, method: str, path: str, body: Any = None,
             raw: bytes | None = None) -> Any:
        headers = {}
        if self.tokens[role]:
            headers["HTTP_AUTHORIZATION"] = f"Bearer {self.tokens[role]}"
        client = Client()
        if method == "GET":
            return client.get(path, **headers)
        data = raw if raw is not None else (b"" if body is None else json.dumps(body))
        return client.post(path, data, content_type="application/json", **headers)


def build_api_world() -> ApiWorld:
    robo, otto = create_user("robo", bot=True), create_user("otto", bot=True)
    dave, eve, carol = create_user("dave"), create_user("eve", bot=True), create_user("carol")
    tokens: dict[str, str | None] = {"anonymous": None}
    for role, user in (("player", robo), ("other", otto), ("person", dave), ("banned", eve)):
        tokens[role] = create_api_token(user)[0]
    tokens["revoked"], revoked = create_api_token(robo)
    api_token_revoke(user=robo, token_id=revoked.pk)
    accounts_services.user_ban(staff=create_moderator(), user=eve, reason="cheating")
    match = play_to_turn_of(create_match(robo, "easy", variant="time_freedom"), robo)
    challenge = create_challenge(carol, robo, target=50)
    return ApiWorld(
        tokens=tokens,
        users={"player": robo, "other": otto, "person": dave, "banned": eve, "carol": carol},
        match=match, challenge=challenge,
    )
