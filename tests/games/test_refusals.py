"""An illegal move is refused in the player's language (games/refusals.py): the engine
names each refusal's reason, the site says it in the words of the player's catalog on
the live table's socket, the offline upload and the puzzles, while the bot API keeps
the engine's English message, the same for every client; the browser's engine names
the same reasons, and both sides have a sentence for each."""

from __future__ import annotations

import copy
import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.test import Client
from django.utils import translation

from games.engine import ActionError, HandState, MatchState, RuleSet
from games.engine.errors import REASONS
from games.models import Hand
from games.refusals import SENTENCES, refusal_sentence
from tests.factories import create_api_token, create_match, create_user, play_to_turn_of
from tests.games.sockets import Socket
from tests.offline.helpers import offline_record

ROOT = Path(__file__).resolve().parents[2]
GAP = re.compile(r"%\((\w+)\)s")
RULE_SETS = [RuleSet.default(), RuleSet.default().replace(big_gin_allowed=False),
             RuleSet.straight_gin(), RuleSet.default().replace(knock_limit=0)]
MALFORMED = {"not_an_object", "unknown_type", "unexpected_fields", "missing_fields",
             "bad_source", "card_not_text", "bad_card"}
# The discard pile is never empty when one may draw (the upcard, then a discard, lies
# on it): the engine's check is a guard that play never reaches.
NOT_IN_PLAY = {"discard_pile_empty"}
Case = tuple[HandState, Any, int, ActionError]


def candidate_actions(state: HandState, seat: int) -> list[Any]:
    """Every kind of action for ``seat``, right or wrong: each card of its hand and one it
    does not hold, and the malformed ones."""
    held = [str(c) for c in state.hands[seat]]
    other = str(state.hands[1 - seat][0])
    return [
        {"type": "pass"}, {"type": "draw", "source": "stock"},
        {"type": "draw", "source": "discard"}, {"type": "big_gin"}, {"type": "knock"},
        *({"type": kind, "card": card} for card in [*held, other] for kind in ("discard", "knock")),
        "pass", {"type": "fly"}, {"type": "pass", "card": "AS"}, {"type": "discard"},
        {"type": "draw", "source": "sky"}, {"type": "discard", "card": 5},
        {"type": "discard", "card": "ZZ"},
    ]


def engine_refusals() -> list[Case]:
    """The engine's refusals met while playing hands of several rule sets, trying every
    candidate action for both seats at every step: (state, action, seat, refusal)."""
    found: list[Case] = []
    rng = random.Random(7)
    for number in range(8):
        state = HandState.deal(RULE_SETS[number % 4], number % 2, bytes([number]) * 32)
        while True:
            for seat in (0, 1):
                for action in candidate_actions(state, seat):
                    try:
                        state.apply(action, seat)
                    except ActionError as error:
                        found.append((state, action, seat, error))
            if state.is_over:
                break
            legal = state.legal_actions()
            enders = [a for a in legal if a["type"] in ("knock", "big_gin")]
            action = enders[0] if enders and rng.random() < 0.5 else rng.choice(legal)
            state, _ = state.apply(action)
    return found


def match_refusals() -> list[ActionError]:
    over, _ = MatchState.start(RuleSet.default(), 0, bytes(32)).resign(0)
    found = []
    for attempt in (lambda: over.apply(0, {"type": "pass"}), lambda: over.resign(1)):
        with pytest.raises(ActionError) as refused:
            attempt()
        found.append(refused.value)
    return found


def test_every_reason_has_its_sentence_with_the_engines_gaps() -> None:
    assert set(SENTENCES) == set(REASONS)
    for reason, details in REASONS.items():
        assert set(GAP.findall(str(SENTENCES[reason]))) == set(details), reason
    # The browser's table has a sentence for every illegal move's reason.
    words = (ROOT / "games/static/games/words.js").read_text()
    table = words.split("const ruleSentences = () => ({", 1)[1].split("});", 1)[0]
    assert set(re.findall(r"^\s+(\w+): gettext\(", table, re.M)) == set(REASONS) - MALFORMED


def test_in_english_the_sentence_is_the_engines_own_message() -> None:
    """So the bot API, which answers in English, says what the engine says; and every
    reason occurs in play."""
    refusals = [case[3] for case in engine_refusals()] + match_refusals()
    assert {error.reason for error in refusals} == set(REASONS) - NOT_IN_PLAY
    with translation.override("en"):
        for error in refusals:
            assert refusal_sentence(error) == str(error)
    with translation.override("es"):
        held = next(e for e in refusals if e.reason == "not_held")
        assert refusal_sentence(held) == f"no tienes {held.details['card']}"
        knock = next(e for e in refusals if e.reason == "knock_limit")
        assert refusal_sentence(knock) == (
            f"solo puedes cerrar con {knock.details['limit']} puntos muertos o menos "
            f"y tendrías {knock.details['points']}"
        )


def test_the_browsers_engine_names_the_same_reasons_and_details() -> None:
    """The offline table's engine (offline/engine.js, run by Node.js as the cross-check
    does) refuses the same illegal moves with the same reason and details as
    games/engine."""
    assert shutil.which("node"), "Node.js is needed (apt-get install nodejs)"
    cases: dict[str, list[Case]] = {}
    for case in engine_refusals():
        if case[3].reason not in MALFORMED and len(cases.setdefault(case[3].reason, [])) < 3:
            cases[case[3].reason].append(case)
    chosen = [case for found in cases.values() for case in found]
    script = (
        "import { apply } from " + json.dumps(str(ROOT / "games/static/games/offline/engine.js"))
        + ";\nlet input = '';\nprocess.stdin.on('data', (d) => { input += d; });\n"
        "process.stdin.on('end', () => {\n"
        "  const out = JSON.parse(input).map(([state, action, seat]) => {\n"
        "    try { apply(state, action, seat); return null; }\n"
        "    catch (e) { return [e.kind, e.reason, e.details]; }\n"
        "  });\n  process.stdout.write(JSON.stringify(out));\n});\n"
    )
    sent = [[state.to_dict(), action, seat] for state, action, seat, _ in chosen]
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script], input=json.dumps(sent),
        capture_output=True, text=True, timeout=60, check=True,
    )
    for (_, action, _, error), theirs in zip(chosen, json.loads(done.stdout), strict=True):
        assert theirs == ["illegal", error.reason, error.details], (action, str(error))


# --- the places a person reads a refusal ----------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_spanish_players_illegal_move_is_refused_in_spanish() -> None:
    """The socket speaks the account's language: the rule an illegal move breaks, and
    the services' own refusals, are in Spanish."""
    lucia = await sync_to_async(create_user)("lucia", language="es")
    pablo = await sync_to_async(create_user)("pablo", language="es")
    match = await sync_to_async(create_match)(
        lucia, pablo, rules=RuleSet.time_freedom(), variant="time_freedom"
    )
    sockets = [await Socket.open(match.pk, lucia), await Socket.open(match.pk, pablo)]
    states = [await socket.receive_type("state") for socket in sockets]
    mover = next(i for i, s in enumerate(states) if s["view"]["current_player"] == s["you"])
    version = states[mover]["version"]
    # The first turn: the stock is closed.
    await sockets[mover].send({"type": "action", "version": version,
                               "action": {"type": "draw", "source": "stock"}})
    error = await sockets[mover].receive_type("error")
    assert error["code"] == "illegal_action"
    assert error["message"] == (
        "no puedes robar del mazo en el primer turno: toma la carta descubierta o pasa"
    )
    await sockets[1 - mover].send({"type": "action", "version": version,
                                   "action": {"type": "pass"}})
    error = await sockets[1 - mover].receive_type("error")
    assert (error["code"], error["message"]) == ("not_your_turn", "No es tu turno.")
    for socket in sockets:
        await socket.close()


@pytest.mark.django_db
def test_the_bot_api_answers_an_illegal_move_in_the_engines_english() -> None:
    robo = create_user("robo", bot=True, language="es")
    token, _ = create_api_token(robo)
    match = play_to_turn_of(create_match(robo, "easy"), robo)
    hand = Hand.objects.filter(match=match).order_by("-number").first()
    assert hand is not None
    state = HandState.from_dict(hand.state)
    action = {"type": "big_gin"}  # before drawing: never legal
    with pytest.raises(ActionError) as refused:
        state.apply(action)
    client = Client(HTTP_ACCEPT_LANGUAGE="es-ES,es", HTTP_AUTHORIZATION=f"Bearer {token}")
    response = client.post(
        f"/api/bot/match/{match.pk}/action",
        data=json.dumps({"version": match.version, "action": action}),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["error"] == {"code": "illegal_action", "message": str(refused.value)}
    # The API's own refusals too: English whatever the client's language.
    response = client.post(f"/api/bot/match/{match.pk}/action", data="{",
                           content_type="application/json")
    assert response.json()["error"]["code"] == "bad_json"
    assert response.json()["error"]["message"] == "The body is not valid JSON."


@pytest.mark.django_db
def test_an_offline_upload_is_refused_in_the_uploaders_language() -> None:
    record = offline_record(target=50, seed=3)
    bad = copy.deepcopy(record)
    bad["hands"][0]["actions"][0]["seat"] = 1 - bad["hands"][0]["actions"][0]["seat"]
    client = Client()
    client.force_login(create_user("viajera", language="es"))
    response = client.post("/play/offline/upload/", data=json.dumps(bad),
                           content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "offline_match_refused",
        "message": "Esta partida sin conexión no se guardó: en la mano 1, la jugada 1 no es "
                   "válida: no es tu turno.",
    }
