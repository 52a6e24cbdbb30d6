"""Structured logs: one JSON line per accepted move (and none for a refused one),
as the production formatter writes it."""

from __future__ import annotations

import json
import logging

import pytest

from games import broadcast, services
from games.services import scheduling
from ginsite.logs import JsonFormatter
from tests.factories import create_match, create_user
from tests.games.helpers import current_state

pytestmark = pytest.mark.django_db


def test_each_accepted_move_is_one_json_line(
    django_capture_on_commit_callbacks, caplog, monkeypatch
):
    monkeypatch.setattr(broadcast, "group_send", lambda sends: None)
    monkeypatch.setattr(scheduling, "bot_turn", lambda **kwargs: None)
    alice = create_user("alice")
    match = create_match(alice, "easy")
    caplog.set_level(logging.INFO, logger="games.moves")
    with django_capture_on_commit_callbacks(execute=True):
        if match.seats.get(user=alice).index == match.current_seat:
            action = current_state(match).legal_actions()[0]
            services.move_submit(match=match, user=alice, action=action,
                                 expected_version=match.version)
            by = "player"
        else:
            action = None
            services.bot_turn_play(match_id=match.pk, expected_version=match.version)
            by = "computer"
    with pytest.raises(services.ServiceError), django_capture_on_commit_callbacks(execute=True):
        services.move_submit(match=match, user=alice, action={"type": "pass"},
                             expected_version=0)
    lines = [JsonFormatter().format(r) for r in caplog.records if r.name == "games.moves"]
    assert len(lines) == 1
    entry = json.loads(lines[0])
    assert entry["message"] == "move" and entry["level"] == "INFO"
    assert (entry["match_id"], entry["seq"], entry["hand"], entry["by"]) == (
        match.pk, match.version + 1, 1, by
    )
    assert entry["action"] == action or (action is None and entry["action"]["type"])
