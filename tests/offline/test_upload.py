"""Uploading offline matches: the server re-plays them, keeps them as unrated history
marked "offline", and refuses anything that does not replay."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Hand, Match, Move, Seat
from games.selectors import hand_replay
from leaderboards.models import ComputerBoardEntry, Rating
from leaderboards.services import computer_boards_recompute
from tests.factories import create_finished_match, create_user, create_users
from tests.offline.helpers import offline_record

pytestmark = pytest.mark.django_db

UPLOAD = "/play/offline/upload/"


def upload(client: Client, record: Any) -> Any:
    return client.post(UPLOAD, data=json.dumps(record), content_type="application/json")


@pytest.fixture
def player(client: Client) -> Any:
    user = create_user("traveller")
    client.force_login(user)
    return user


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return offline_record(target=50, seed=3)


def test_a_finished_match_is_stored_as_unrated_offline_history(
    client: Client, player: Any, record: dict[str, Any]
) -> None:
    response = upload(client, record)
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["match_id"])
    assert (match.kind, match.rated, match.status, match.offline_id) == (
        "offline", False, "finished", record["id"]
    )
    seats = list(Seat.objects.filter(match=match).order_by("index"))
    assert seats[0].user == player and seats[1].bot_level == "easy"
    assert [s.score for s in seats] == record["totals"]
    assert match.final_score["totals"] == record["totals"]
    assert Hand.objects.filter(match=match).count() == len(record["hands"])
    moves = sum(len(h["actions"]) for h in record["hands"])
    assert Move.objects.filter(match=match).count() == moves
    last = Hand.objects.filter(match=match).order_by("-number").first()
    steps = hand_replay(hand=last)
    assert len(steps) == len(record["hands"][-1]["actions"]) + 1
    assert steps[-1]["views"][0]["result"] == last.result
    # The player sees it among their finished matches, marked offline, with its sheet.
    page = client.get(reverse("games:my_matches")).content.decode()
    assert "Computer (easy)" in page and ">offline<" in page
    assert client.get(response.json()["sheet_url"]).status_code == 200
    assert not Rating.objects.filter(user=player).exists()


def test_the_offline_default_variant_is_listed_as_default_with_no_clock(
    client: Client, player: Any, record: dict[str, Any]
) -> None:
    """The offline table plays the default rules with no clock; records of its default
    variant once said "time_freedom" (as the helper's still do): the player chose the
    default rules, not the Time Freedom of the lobby, and that is what the list shows.
    A clock in the uploaded rules is dropped: nothing timed an offline match."""
    timed = copy.deepcopy(record)
    timed["id"] = "timed-" + record["id"]
    timed["variant"] = "default"
    timed["rules"] = {**record["rules"], "turn_seconds": 30}
    for sent in (record, timed):
        response = upload(client, sent)
        assert response.status_code == 201, response.content
        match = Match.objects.get(pk=response.json()["match_id"])
        assert match.variant == "default" and match.rules["turn_seconds"] is None
    page = client.get(reverse("games:my_matches")).content.decode()
    assert page.count("Default · to 50 · no clock") == 2
    assert "Time Freedom" not in page


def test_uploading_again_returns_the_same_match(
    client: Client, player: Any, record: dict[str, Any]
) -> None:
    first = upload(client, record)
    again = upload(client, record)
    assert again.status_code == 200
    assert again.json()["match_id"] == first.json()["match_id"]
    assert Match.objects.filter(offline_id=record["id"]).count() == 1


def _refused(client: Client, record: Any, words: str) -> None:
    response = upload(client, record)
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "offline_match_refused"
    assert words in response.json()["error"]["message"]
    assert not Match.objects.exists() and not Move.objects.exists()


def test_an_illegal_action_is_refused_and_nothing_is_saved(
    client: Client, player: Any, record: dict[str, Any]
) -> None:
    bad = copy.deepcopy(record)
    moves = bad["hands"][0]["actions"]
    discard = next(i for i, m in enumerate(moves) if m["action"]["type"] == "discard")
    moves[discard]["action"] = {"type": "discard", "card": "XX"}
    _refused(client, bad, f"hand 1, move {discard + 1} is not legal")
    bad = copy.deepcopy(record)
    bad["hands"][0]["actions"][0]["seat"] = 1 - bad["hands"][0]["actions"][0]["seat"]
    _refused(client, bad, "it is not your turn")


def test_a_changed_deal_or_score_does_not_replay(
    client: Client, player: Any, record: dict[str, Any]
) -> None:
    bad = copy.deepcopy(record)
    bad["hands"][0]["seed"] = "00" * 32
    _refused(client, bad, "not legal")
    bad = copy.deepcopy(record)
    bad["totals"] = [record["totals"][0] + 1, record["totals"][1]]
    _refused(client, bad, "differ from the replayed")


def test_an_unfinished_match_is_refused(
    client: Client, player: Any, record: dict[str, Any]
) -> None:
    bad = copy.deepcopy(record)
    bad["hands"][-1]["actions"] = bad["hands"][-1]["actions"][:-1]
    _refused(client, bad, "is not finished")
    assert len(record["hands"]) >= 2
    bad = copy.deepcopy(record)
    bad["hands"] = bad["hands"][:-1]
    bad.pop("totals")
    _refused(client, bad, "the match is not over")


def test_a_resigned_match_stands_as_a_loss(
    client: Client, player: Any, record: dict[str, Any]
) -> None:
    resigned = copy.deepcopy(record)
    resigned["id"] = "resigned-" + record["id"]
    resigned["hands"][-1]["actions"] = resigned["hands"][-1]["actions"][:3]
    resigned["resigned"] = True
    resigned.pop("totals")
    response = upload(client, resigned)
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["match_id"])
    assert (match.winner_seat, match.end_reason) == (1, "resign")


def test_signed_out_uploads_get_401_and_another_account_cannot_take_a_match(
    client: Client, player: Any, record: dict[str, Any]
) -> None:
    assert upload(Client(), record).status_code == 401
    assert upload(client, record).status_code == 201
    other = Client()
    other.force_login(create_user("someone"))
    response = upload(other, record)
    assert response.status_code == 400
    assert "another account" in response.json()["error"]["message"]
    assert upload(client, "not a record").status_code == 400
    assert client.post(UPLOAD, data=b"{", content_type="application/json").status_code == 400


def test_offline_matches_never_count_on_the_computer_boards() -> None:
    for user in create_users(12):
        create_finished_match(
            (user, None), kind=Match.Kind.OFFLINE, bot_level="hard", rated=False,
            finished_at=datetime(2026, 11, 30, 10, tzinfo=UTC),
        )
    computer_boards_recompute()
    assert not ComputerBoardEntry.objects.exists()


def test_the_offline_page_and_the_worker_hold_no_account_data(
    client: Client, player: Any
) -> None:
    page = client.get(reverse("games:offline"))
    assert page.status_code == 200
    assert "traveller" not in page.content.decode()
    account = client.get(reverse("games:offline_account"))
    assert account.json() == {
        "signed_in": True, "name": player.display_name, "username": "traveller",
        "language": "en",
    }
    assert "no-cache" in account["Cache-Control"] or "max-age=0" in account["Cache-Control"]
    assert "csrftoken" in account.cookies
    worker = client.get("/sw.js")
    body = worker.content.decode()
    assert worker["Content-Type"].startswith("text/javascript")
    assert '"/play/offline/"' in body and "/static/games/offline/engine.js" in body
    assert "/play/offline/account/" in body  # listed as never cached
    assert "/matches/" not in body  # pages with account data are never precached
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["start_url"] == "/play/offline/"
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
