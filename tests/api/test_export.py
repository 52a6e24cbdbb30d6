"""The open export (docs/export.md): exports of many complete matches, played through
the services by people and the computer (knocks without a card, timeouts,
resignations, abandonments, every variant), validate against the JSON Schema and
pass ``python -m games.engine.verify``; any change to a card, an action, a result or
a score is refused; a match in play exports only its finished hands."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from django.test import Client

from games.engine.verify import VerificationError, verify_export
from games.models import Hand, Match, Move
from tests.api.drivers import Script, computer_match, people_match, play_match

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "export.schema.json").read_text())

pytestmark = pytest.mark.django_db

# (kind, variant, script): 15 matches with every way a match can go (people playing
# Straight Gin to the end take minutes: theirs is resigned after 60 moves).
PLAYS = [
    ("people", "default", Script()),
    ("people", "oklahoma", Script()),
    ("people", "straight", Script(resign_after=60)),
    *[("computer", v, Script()) for v in ("default", "straight", "oklahoma", "time_freedom")],
    ("computer", "default", Script(bare_knocks=1.0)),
    ("computer", "oklahoma", Script(bare_knocks=1.0)),
    ("people", "default", Script(timeout_every=6)),
    ("computer", "default", Script(timeout_every=5)),
    ("people", "default", Script(timeout_every=1)),  # three in a row: abandonment
    ("people", "time_freedom", Script(resign_after=30)),
    ("computer", "straight", Script(resign_after=45)),
    ("people", "oklahoma", Script(resign_after=3)),
]


def export_of(match: Match) -> dict:
    response = Client().get(f"/match/{match.pk}/export.json")
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    return response.json()


@pytest.fixture(scope="module")
def exports(django_db_setup, django_db_blocker) -> list[dict]:
    """The exports of the PLAYS, played once for the module (then deleted)."""
    with django_db_blocker.unblock():
        rng = random.Random(13)
        documents = []
        try:
            for number, (kind, variant, script) in enumerate(PLAYS):
                make = people_match if kind == "people" else computer_match
                match = play_match(make(f"x{number}", variant=variant), rng, script)
                documents.append(export_of(match))
        finally:
            from accounts.models import User

            Match.objects.all().delete()
            User.objects.all().delete()
        return documents


def test_exports_of_complete_matches_are_valid_and_verify(exports):
    reasons = set()
    for (_kind, _variant, script), document in zip(PLAYS, exports, strict=True):
        timeouts = 0
        jsonschema.validate(document, SCHEMA)
        lines: list[str] = []
        final = verify_export(document, report=lines.append)
        assert final == document["final"] and final["over"]
        assert len(lines) == len(document["hands"]) + 1
        assert all(line.startswith(f"hand {n}: ok") for n, line in enumerate(lines[:-1], 1))
        reasons.add(document["end_reason"])
        for hand in document["hands"]:
            for item in hand["actions"]:
                timeouts += item["timeout"]
                if item["action"]["type"] == "knock":
                    assert item["action"]["card"] == hand["result"]["knock_card"]
        if script.timeout_every > 1:  # the clock's moves are in the record, marked
            assert timeouts > 0, document["id"]
        elif script.timeout_every == 1:  # three turns in a row to the clock
            assert document["end_reason"] == "abandon"
        else:
            assert timeouts == 0, document["id"]
    assert reasons == {"target", "resign", "abandon"}


def test_a_knock_sent_without_a_card_is_exported_with_the_servers_card():
    rng = random.Random(5)
    # Both people knock without a card: a match to 50 needs a won hand, so a knock.
    match = play_match(people_match("bare"), rng, Script(bare_knocks=1.0))
    knocks = Move.objects.filter(match=match, action__type="knock")
    assert knocks.exists()
    document = export_of(match)
    for move in knocks:
        # The Move log itself records the card the server chose.
        assert move.action == {"type": "knock", "card": move.hand.result["knock_card"]}
        hand = next(h for h in document["hands"] if h["number"] == move.hand.number)
        exported = [a["action"] for a in hand["actions"] if a["action"]["type"] == "knock"]
        assert exported == [{"type": "knock", "card": move.hand.result["knock_card"]}]
    verify_export(document)


def test_a_match_in_play_exports_only_its_finished_hands():
    rng = random.Random(8)
    match = people_match("live")
    while match.hands.count() < 2:
        play_match_moves(match, rng, 1)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    document = export_of(match)
    on_table = Hand.objects.filter(match=match).order_by("-number").first()
    assert [h["number"] for h in document["hands"]] == list(range(1, on_table.number))
    text = json.dumps(document)
    assert bytes(on_table.seed).hex() not in text
    assert document["end_reason"] is None and document["winner"] is None
    assert document["final"]["over"] is False
    jsonschema.validate(document, SCHEMA)
    lines: list[str] = []
    verify_export(document, report=lines.append)
    assert lines[-1].endswith("in play)")


def play_match_moves(match: Match, rng: random.Random, count: int) -> None:
    from games import services
    from games.models import Seat
    from tests.api.drivers import current_state, scripted_action

    for _ in range(count):
        match.refresh_from_db()
        seat = Seat.objects.get(match=match, index=match.current_seat)
        services.move_submit(
            match=match, user=seat.user,
            action=scripted_action(current_state(match), rng, Script()),
            expected_version=match.version,
        )


def test_the_score_sheet_and_the_profile_link_to_the_exports():
    from games import services

    match = computer_match("linked")
    user = match.seats.exclude(user=None).get().user
    services.match_resign(match=match, user=user)
    client = Client()
    client.force_login(user)
    sheet = client.get(f"/match/{match.pk}/sheet/").text
    assert f'href="/match/{match.pk}/export.json"' in sheet
    assert f'href="/api/user/{user.username}/matches"' in client.get(
        f"/players/{user.username}/").text


def test_a_match_waiting_for_its_second_player_has_nothing_to_export():
    from games import services
    from tests.factories import create_user

    match = services.match_create_invite(user=create_user("host"))
    response = Client().get(f"/match/{match.pk}/export.json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "match_not_started"
    assert Client().get("/match/999999/export.json").status_code == 404


# --- tampering ------------------------------------------------------------------------


def _first_hand_with(document: dict, kind: str) -> dict:
    return next(h for h in document["hands"]
                if any(a["action"]["type"] == kind for a in h["actions"]))


def tamper_deal_card(d: dict) -> None:
    deal = d["hands"][0]["deal"]
    deal["stock"][0], deal["hands"][0][0] = deal["hands"][0][0], deal["stock"][0]


def tamper_upcard(d: dict) -> None:
    deal = d["hands"][0]["deal"]
    deal["upcard"], deal["stock"][-1] = deal["stock"][-1], deal["upcard"]


def tamper_discard(d: dict) -> None:
    hand = _first_hand_with(d, "discard")
    item = next(a for a in hand["actions"] if a["action"]["type"] == "discard")
    held = item["action"]["card"]
    item["action"]["card"] = next(c for c in ("AS", "2S", "3S") if c != held)


def tamper_draw_source(d: dict) -> None:
    hand = _first_hand_with(d, "draw")
    item = next(a for a in hand["actions"][2:] if a["action"]["type"] == "draw")
    source = item["action"]["source"]
    item["action"]["source"] = "discard" if source == "stock" else "stock"


def tamper_drop_action(d: dict) -> None:
    d["hands"][0]["actions"].pop(3)


def tamper_action_seat(d: dict) -> None:
    item = d["hands"][0]["actions"][0]
    item["seat"] = 1 - item["seat"]


def tamper_timeout_flag(d: dict) -> None:
    item = next(a for h in d["hands"] for a in h["actions"]
                if a["action"]["type"] == "discard" and not a["timeout"]
                and a["action"] != {"type": "discard", "card": "KS"})
    item["timeout"] = True
    item["action"]["card"] = "KS" if item["action"]["card"] != "KS" else "QS"


def tamper_result_points(d: dict) -> None:
    hand = next(h for h in d["hands"] if h["result"] and h["result"]["winner"] is not None)
    hand["result"]["points"] += 1


def tamper_result_winner(d: dict) -> None:
    hand = next(h for h in d["hands"] if h["result"] and h["result"]["winner"] is not None)
    hand["result"]["winner"] = 1 - hand["result"]["winner"]


def tamper_final_total(d: dict) -> None:
    d["final"]["totals"][0] += 10


def tamper_winner(d: dict) -> None:
    d["winner"] = 1 - d["winner"]


def tamper_seed(d: dict) -> None:
    seed = d["hands"][0]["seed"]
    d["hands"][0]["seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]


def tamper_commitment(d: dict) -> None:
    d["hands"][0]["commitment"] = "0" * 64


def tamper_dealer(d: dict) -> None:
    d["hands"][0]["dealer"] = 1 - d["hands"][0]["dealer"]


def tamper_drop_hand(d: dict) -> None:
    d["hands"].pop(0)


def tamper_rules(d: dict) -> None:
    d["rules"]["game_bonus"] += 5


TAMPERS = [tamper_deal_card, tamper_upcard, tamper_discard, tamper_draw_source,
           tamper_drop_action, tamper_action_seat, tamper_timeout_flag, tamper_result_points,
           tamper_result_winner, tamper_final_total, tamper_winner, tamper_seed,
           tamper_commitment, tamper_dealer, tamper_drop_hand, tamper_rules]


@pytest.mark.parametrize("tamper", TAMPERS, ids=lambda t: t.__name__)
def test_the_verifier_refuses_a_tampered_export(exports, tamper):
    refused = 0
    for document in exports:
        if len(document["hands"]) < 2:
            continue
        changed = copy.deepcopy(document)
        try:
            tamper(changed)
        except (StopIteration, IndexError):
            continue  # nothing of that kind in this match
        with pytest.raises(VerificationError):
            verify_export(changed)
        refused += 1
    assert refused >= 4


def test_the_command_line_verifier_prints_a_line_per_hand_and_fails_on_tampering(
    exports, tmp_path
):
    document = max(exports, key=lambda d: len(d["hands"]))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(document))
    run = subprocess.run([sys.executable, "-m", "games.engine.verify", str(good)],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == len(document["hands"]) + 1
    assert lines[0].startswith("hand 1: ok") and "ok" in lines[-1]

    changed = copy.deepcopy(document)
    tamper_result_points(changed)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(changed))
    run = subprocess.run([sys.executable, "-m", "games.engine.verify", str(bad)],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert run.stdout.splitlines()[-1].startswith("FAILED hand")

    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    run = subprocess.run([sys.executable, "-m", "games.engine.verify", str(garbage)],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
