"""The accounts, match and challenge of the bot API's authorisation and fuzz tests.

Roles (each with its own token, sent as ``Authorization: Bearer``): ``anonymous`` (no
token); ``player`` (robo, a BOT account seated in ``match`` against the computer, to
move, and challenged by carol); ``other`` (otto, another BOT account, not seated);
``person`` (dave, a person's account, not a BOT); ``banned`` (eve's BOT token, her
account banned after the token was made); ``revoked`` (a second token of robo's,
revoked).
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import Any

from django.core.management import call_command
from django.test import Client

from accounts import services as accounts_services
from games import services
from games.api import services as api_services
from games.api.models import ApiToken, Challenge
from games.engine import RuleSet
from games.models import Match
from tests.factories import create_moderator, create_user

ROLES = ("anonymous", "player", "other", "person", "banned", "revoked")


def make_token(username: str) -> str:
    out = io.StringIO()
    call_command("api_token", username, stdout=out)
    return out.getvalue().strip()


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
    robo, otto, dave, eve, carol = (create_user(n) for n in ("robo", "otto", "dave", "eve",
                                                                "carol"))
    for bot in (robo, otto, eve):
        api_services.bot_account_upgrade(user=bot)
    tokens = {"anonymous": None, "player": make_token("robo"), "other": make_token("otto"),
              "person": make_token("dave"), "banned": make_token("eve"),
              "revoked": make_token("robo")}
    revoked = ApiToken.objects.filter(user=robo).order_by("-pk").first()
    from games.api.tokens import api_token_revoke

    api_token_revoke(user=robo, token_id=revoked.pk)
    accounts_services.user_ban(staff=create_moderator(), user=eve, reason="cheating")
    match = services.match_create_computer(
        user=robo, level="easy", variant="time_freedom", rules=RuleSet.time_freedom()
    )
    while True:  # the computer plays until it is robo's turn
        match.refresh_from_db()
        if match.seats.get(index=match.current_seat).user_id == robo.pk:
            break
        assert services.bot_turn_play(match_id=match.pk, expected_version=match.version)
    challenge = api_services.challenge_create(user=carol, dest=robo, body={"target": 50})
    return ApiWorld(
        tokens=tokens,
        users={"player": robo, "other": otto, "person": dave, "banned": eve, "carol": carol},
        match=match, challenge=challenge,
    )
