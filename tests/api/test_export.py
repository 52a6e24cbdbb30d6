"""The open export (docs/export.md): exports of many complete matches, played through
the services by people and the computer (knocks without a card, timeouts,
resignations, abandonments, every variant), validate against the JSON Schema and
pass ``python -m games.engine.verify``; any change to a card, an action, a result or
a score is refused, and so is a change to any field the replay cannot check (the
id, a bot flag, a timeout flag, the clock, an unused bonus), by the site's signature;
the single-file verifier the site serves gives the same verdicts in an interpreter
with nothing but the standard library; a match in play exports only its finished
hands."""

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
        timeouts = person_actions = 0
        people = {p["seat"] for p in document["players"] if p["bot_level"] is None}
        jsonschema.validate(document, SCHEMA)
        lines: list[str] = []
        final = verify_export(document, report=lines.append)
        assert final == document["final"] and final["over"]
        assert len(lines) == len(document["hands"]) + 2
        assert all(line.startswith(f"hand {n}: ok") for n, line in enumerate(lines[:-2], 1))
        assert lines[-2].startswith("signature: ok")
        reasons.add(document["end_reason"])
        for hand in document["hands"]:
            for item in hand["actions"]:
                timeouts += item["timeout"]
                person_actions += item["seat"] in people
                if item["action"]["type"] == "knock":
                    assert item["action"]["card"] == hand["result"]["knock_card"]
        # The clock's moves are in the record, marked, once the match lasted as many of
        # the people's actions as the script (tests/api/drivers.py) plays before leaving
        # one to the clock: the deals are random, and a match can end before that.
        if script.timeout_every > 1 and person_actions >= script.timeout_every:
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
    # To 250: no hand scores that much, so the match is still on when its second hand is
    # dealt (to 50, a first hand may end it: the deals are random).
    match = people_match("live", target=250)
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
    assert len(lines) == len(document["hands"]) + 2
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


# --- what the replay cannot check: the signature, and the single-file verifier --------


def _replay_discards(document: dict):
    """(hand, item, clock's action) for every discard, replayed through the engine."""
    from games.engine import HandState, RuleSet, timeout_action

    rules = RuleSet.from_dict(document["rules"])
    for hand in document["hands"]:
        state = HandState.deal(rules, hand["dealer"], bytes.fromhex(hand["seed"]))
        for item in hand["actions"]:
            if item["action"]["type"] == "discard":
                yield hand, item, timeout_action(state)
            state, _ = state.apply(item["action"])


def alter_variant(d: dict) -> None:
    if d["variant"] == "oklahoma":
        raise StopIteration
    d["variant"] = "oklahoma"  # with rules.oklahoma still false


def alter_turn_seconds(d: dict) -> None:
    d["rules"]["turn_seconds"] = 120 if d["rules"]["turn_seconds"] != 120 else 60


def alter_gin_bonus_without_gin(d: dict) -> None:
    if any(h["result"] and h["result"]["kind"] in ("gin", "big_gin") for h in d["hands"]):
        raise StopIteration  # the replay checks a bonus a hand used
    d["rules"]["gin_bonus"] += 10


def alter_id(d: dict) -> None:
    d["id"] += 1


def alter_bot_flag(d: dict) -> None:
    person = next(p for p in d["players"] if p["bot_level"] is None)
    person["bot"] = not person["bot"]


def alter_timeout_flags(d: dict) -> None:
    """Mark as the clock's every discard the clock would have made (each replays
    exactly as before: only the flag says who chose it)."""
    people = {p["seat"] for p in d["players"] if p["bot_level"] is None}
    marked = 0
    for _hand, item, clock in _replay_discards(d):
        if not item["timeout"] and item["seat"] in people and item["action"] == clock:
            item["timeout"] = True
            marked += 1
    if not marked:
        raise StopIteration


ALTERATIONS = [alter_variant, alter_turn_seconds, alter_gin_bonus_without_gin, alter_id,
               alter_bot_flag, alter_timeout_flags]


def altered_copies(exports: list[dict], alter) -> list[dict]:
    copies = []
    for document in exports:
        changed = copy.deepcopy(document)
        try:
            alter(changed)
        except (StopIteration, IndexError):
            continue
        copies.append(changed)
    return copies


def site_key() -> str:
    response = Client().get("/export/key.json")
    assert response.status_code == 200
    body = response.json()
    assert body["algorithm"] == "Ed25519" and body["verifier"].endswith("/export/verify_gin.py")
    return body["key"]


@pytest.fixture(scope="module")
def single_file(tmp_path_factory) -> Path:
    """``verify_gin.py`` as the site serves it, alone in an empty directory."""
    response = Client().get("/export/verify_gin.py")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/x-python")
    assert 'filename="verify_gin.py"' in response["Content-Disposition"]
    path = tmp_path_factory.mktemp("downloads") / "verify_gin.py"
    path.write_bytes(response.content)
    return path


def run_module_verifier(path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "games.engine.verify", str(path), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def run_single_file(verifier: Path, path: Path, *args: str) -> subprocess.CompletedProcess:
    """The downloaded file in a clean interpreter: isolated (-I), without site-packages
    (-S), from a directory holding nothing else: only the standard library."""
    return subprocess.run([sys.executable, "-I", "-S", str(verifier), str(path), *args],
                          cwd=verifier.parent, capture_output=True, text=True, timeout=120)


def test_every_export_is_signed_with_the_sites_published_key(exports):
    key = site_key()
    for document in exports:
        assert document["format"] == "gin-match/2"
        assert document["signature"]["algorithm"] == "Ed25519"
        assert document["signature"]["key"] == key
        verify_export(document, key=key)


@pytest.mark.parametrize("alter", ALTERATIONS, ids=lambda a: a.__name__)
def test_a_field_the_replay_cannot_check_is_covered_by_the_signature(exports, alter):
    copies = altered_copies(exports, alter)
    assert copies, "no export to alter"
    for changed in copies:
        with pytest.raises(VerificationError, match=r"^(variant|signature|hand \d+, action \d+): "):
            verify_export(changed)


@pytest.mark.parametrize("alter", ALTERATIONS, ids=lambda a: a.__name__)
def test_both_verifiers_refuse_each_alteration_and_say_why(exports, single_file, tmp_path,
                                                          alter):
    changed = altered_copies(exports, alter)[0]
    path = tmp_path / "altered.json"
    path.write_text(json.dumps(changed))
    module = run_module_verifier(path)
    downloaded = run_single_file(single_file, path)
    for run in (module, downloaded):
        assert run.returncode == 1, run.stdout + run.stderr
        last = run.stdout.splitlines()[-1]
        assert last.startswith("FAILED "), last
        assert last.startswith(("FAILED variant: the oklahoma variant is played with "
                                "rules.oklahoma true", "FAILED signature: does not match the "
                                "document: a field was changed after the site signed it")), last
    assert module.stdout == downloaded.stdout


def test_the_downloaded_verifier_says_ok_to_untouched_exports_as_the_module_does(
    exports, single_file, tmp_path
):
    key = site_key()
    for document in exports:
        path = tmp_path / f"match-{document['id']}.json"
        path.write_text(json.dumps(document))
        module = run_module_verifier(path, "--key", key)
        downloaded = run_single_file(single_file, path)  # the site's key is written in
        assert module.returncode == 0 and downloaded.returncode == 0, downloaded.stdout
        assert downloaded.stdout == module.stdout
        assert downloaded.stdout.splitlines()[-2] == (
            f"signature: ok (Ed25519, the site's key {key})")
    # Without a key, the module's verifier says which key it trusted, and where to compare.
    unkeyed = run_module_verifier(path)
    assert unkeyed.returncode == 0
    assert f"key {key} as the document says" in unkeyed.stdout


def test_an_export_signed_again_with_another_key_fails_against_the_sites_key(
    exports, single_file, tmp_path
):
    from games.engine.verify import sign_export

    document = copy.deepcopy(exports[0])
    alter_id(document)
    forged = sign_export(document, bytes(range(32)))
    verify_export(forged)  # consistent with the key it names...
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    for run in (run_single_file(single_file, path), run_module_verifier(path, "--key", site_key())):
        assert run.returncode == 1
        assert run.stdout.splitlines()[-1].startswith(
            f"FAILED signature: signed with key {forged['signature']['key']}, not with the "
            "site's key"), run.stdout
    unsigned = copy.deepcopy(exports[0])
    del unsigned["signature"]
    path.write_text(json.dumps(unsigned))
    run = run_single_file(single_file, path)
    assert run.returncode == 1
    assert run.stdout.splitlines()[-1] == "FAILED document: missing field(s) signature"


def test_the_downloaded_verifier_needs_only_the_standard_library(single_file, tmp_path):
    probe = subprocess.run([sys.executable, "-I", "-S", "-c", "import games"],
                           cwd=single_file.parent, capture_output=True, text=True, timeout=60)
    assert probe.returncode == 1 and "No module named 'games'" in probe.stderr
    usage = subprocess.run([sys.executable, "-I", "-S", str(single_file)],
                           cwd=single_file.parent, capture_output=True, text=True, timeout=60)
    assert usage.returncode == 2
    assert "usage: python3 verify_gin.py FILE" in usage.stderr


def test_the_signing_key_comes_from_the_settings(settings):
    from games.engine import ed25519

    settings.EXPORT_SIGNING_KEY = "11" * 32
    key = ed25519.public_key(bytes.fromhex("11" * 32)).hex()
    assert site_key() == key
    assert f"SITE_KEY = '{key}'" in Client().get("/export/verify_gin.py").text


def test_a_match_whose_rules_contradict_its_variant_is_not_created():
    from games import services
    from games.engine import RuleSet
    from games.errors import InvalidSettingsError
    from tests.factories import create_user

    user = create_user("contrary")
    with pytest.raises(InvalidSettingsError, match=r"rules\.oklahoma true, not false"):
        services.match_create_computer(user=user, level="easy", variant="oklahoma",
                                       rules=RuleSet.default())
    assert not Match.objects.exists()
