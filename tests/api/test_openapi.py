"""The bot API's OpenAPI document (games/api/openapi.py): served at /api/openapi.json
and, readable, at /api/docs/; every route of the API is in it; and the API does what
it says. Schemathesis generates requests for every operation of the served document
(with a valid token; with generated ids and names, and with those of a real match,
challenge and player) against a live daphne server on the real PostgreSQL and Redis,
and checks each answer: no server error, a documented status, the documented content
type and headers, and a body that fits the documented schema. The NDJSON streams,
which schemathesis cannot read (they do not end), are read here line by line: each
line must fit the document's line schema."""

from __future__ import annotations

import json
import time
from typing import Any

import jsonschema
import pytest
import requests
import schemathesis
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi import definitions
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from games import services
from games.api import openapi, schemas
from games.engine import TARGET_SCORES, RuleSet
from games.services.matches import BOT_LEVELS
from tests.api.test_api_authorisation import legal_action
from tests.api.world import build_api_world, make_token

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
STREAM_CHECKS = CHECKS[:-1]  # a stream's lines are checked below, one by one
EXAMPLES = 8  # per operation, with generated ids, and again with the world's
STREAM_EXAMPLES = 3  # a stream is read for up to a second of silence
NOT_IN_THE_DOCUMENT = {"/api/openapi.json", "/api/docs/"}


def served_document(client: Client) -> dict[str, Any]:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    return response.json()


@pytest.mark.django_db
def test_the_document_is_served_and_is_the_codes(client: Client) -> None:
    document = served_document(client)
    assert document == json.loads(json.dumps(openapi.document()))
    assert document["openapi"] == "3.1.0"
    errors = [e.message for e in definitions.OPENAPI_31_VALIDATOR.iter_errors(document)]
    assert not errors, errors[:3]  # the OpenAPI 3.1 specification's own schema
    for schema in document["components"]["schemas"].values():
        jsonschema.Draft202012Validator.check_schema(schema)
    loaded = schemathesis.openapi.from_dict(document)
    assert len(list(loaded.get_all_operations())) == sum(
        len(item) for item in document["paths"].values()
    )


def api_routes() -> set[str]:
    """Every route of the URL configuration under /api/, as the document writes it."""
    found: set[str] = set()

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                route = "/" + prefix + str(pattern.pattern)
                if route.startswith("/api/"):
                    found.add(openapi._PARAMETER.sub(r"{\g<name>}", route))

    walk(get_resolver().url_patterns, "")
    return found


def test_every_route_of_the_api_is_in_the_document() -> None:
    documented = set(openapi.document()["paths"])
    assert api_routes() - NOT_IN_THE_DOCUMENT <= documented
    assert {"/match/{match_id}/export.json", "/export/key.json"} <= documented


def test_every_refusal_of_an_operation_has_its_codes_status() -> None:
    document = openapi.document()
    action = document["paths"]["/api/bot/match/{match_id}/action"]["post"]["responses"]
    codes = {
        status: answer["content"]["application/json"]["schema"]["allOf"][1]["properties"][
            "error"]["properties"]["code"]["enum"]
        for status, answer in action.items()
        if status != "200"
    }
    assert codes["401"] == ["unauthorized", "invalid_token"]
    assert set(codes["409"]) == {"match_over", "match_not_started", "stale_version",
                                 "not_your_turn"}
    assert set(codes["400"]) == {"malformed_action", "illegal_action", "bad_json",
                                 "bad_message"}
    assert codes["429"] == ["rate_limited"]


def test_the_models_offer_the_engines_settings() -> None:
    assert schemas.VARIANTS == tuple(RuleSet.PRESETS)
    assert schemas.TARGETS == TARGET_SCORES
    assert schemas.LEVELS == BOT_LEVELS


@pytest.mark.django_db
def test_the_reference_page_shows_every_operation(client: Client) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    document = served_document(client)
    for path, item in document["paths"].items():
        for method, operation in item.items():
            assert f'id="{operation["operationId"]}"' in page, (method, path)
            assert f"<code>{path}</code>" in page
    for name in document["components"]["schemas"]:
        assert f'id="schema-{name}"' in page
    assert 'href="/api/openapi.json"' in page
    assert " style=" not in page  # nothing the Content Security Policy would refuse
    tokens_page = Client()
    from tests.factories import create_user

    tokens_page.force_login(create_user("ann"))
    assert 'href="/api/docs/"' in tokens_page.get("/players/settings/tokens/").content.decode()


@pytest.mark.django_db
def test_the_reference_page_speaks_the_readers_language_around_the_apis_english() -> None:
    """The page's own words are translated; the document's (routes, summaries, fields,
    codes) stay as the API speaks them, in English, marked so."""
    page = Client(HTTP_ACCEPT_LANGUAGE="de").get("/api/docs/").content.decode()
    assert '<html lang="de"' in page
    assert "<h1>Referenz der Bot-API</h1>" in page and ">Antworten</h4>" in page
    assert "Token erforderlich" in page and "Die API spricht Englisch" in page
    assert "<code>/api/bot/match/{match_id}/action</code>" in page
    assert '<p lang="en"><strong>Play a move.</strong>' in page


# --- schemathesis against the live server ---------------------------------------------------


def line_validator(document: dict[str, Any], operation: Any) -> jsonschema.Validator:
    content = operation.definition.raw["responses"]["200"]["content"]
    line = content[openapi.NDJSON]["schema"]
    return jsonschema.Draft202012Validator({**line, "components": document["components"]})


def read_lines(response: requests.Response, most: int = 4) -> list[bytes]:
    """The stream's first lines: until ``most`` JSON lines, its end, or a second without
    a line."""
    lines: list[bytes] = []
    try:
        for line in response.iter_lines(chunk_size=1):
            lines.append(line)
            if sum(1 for x in lines if x.strip()) >= most:
                break
    except requests.exceptions.ConnectionError:  # the read timed out: silence
        pass
    return lines


def call_and_check(case: Any, base: str, token: str, document: dict[str, Any]) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    content = case.operation.definition.raw["responses"]["200"]["content"]
    if openapi.NDJSON not in content:
        case.call_and_validate(base_url=base, headers=headers, checks=CHECKS, timeout=60)
        return
    sent = case.as_transport_kwargs(base_url=base, headers=headers)
    response = requests.request(**sent, stream=True, timeout=(10, 1))
    try:
        if response.status_code != 200:
            _ = response.content
            case.validate_response(response, checks=CHECKS)
            return
        lines = read_lines(response)
    finally:
        response.close()
    response._content = b"\n".join(lines)
    case.validate_response(response, checks=STREAM_CHECKS)
    validator = line_validator(document, case.operation)
    for line in lines:
        if line.strip():
            validator.validate(json.loads(line))


def run(strategy: Any, examples: int, base: str, token: str, document: dict[str, Any]) -> None:
    """``examples`` cases of ``strategy``, each sent and checked."""

    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def check(case: Any) -> None:
        call_and_check(case, base, token, document)

    check()


def token_owner(path: str) -> str:
    """robo, the player of the world's match; for the puzzles, which any account may
    answer, robo2 (an account has at most MAX_TOKENS tokens)."""
    if not path.startswith("/api/puzzle"):
        return "robo"
    from accounts.models import User
    from tests.factories import create_user

    if not User.objects.filter(username="robo2").exists():
        create_user("robo2", bot=True)
    return "robo2"


def a_puzzle() -> int:
    """A stored puzzle (games/learn) of one self-play hand, kept with few worlds."""
    from games.learn import services as learn
    from games.learn.models import Puzzle

    learn.puzzles_generate(self_play=1, seed=3, judge={"screen_worlds": 8, "strong_worlds": 16})
    puzzle = Puzzle.objects.order_by("pk").first()
    assert puzzle is not None
    return puzzle.pk


@pytest.mark.django_db(transaction=True)
def test_the_api_does_what_its_document_says(live_asgi_server: Any) -> None:
    base = live_asgi_server.url
    world = build_api_world()
    carol = world.users["carol"]  # with a finished match, for her list of matches
    services.match_resign(
        match=services.match_create_computer(user=carol, level="easy", rules=RuleSet.default()),
        user=carol,
    )
    document = requests.get(base + "/api/openapi.json", timeout=30).json()
    schema = schemathesis.openapi.from_dict(document)
    real = {
        "match_id": world.match.pk,
        "challenge_id": world.challenge.pk,
        "username": "carol",
        "puzzle_id": a_puzzle(),
    }
    started = time.monotonic()
    seen: set[str] = set()
    for result in schema.get_all_operations():
        operation = result.ok()
        # A token of its own per operation: each has the whole rate limit to itself.
        token = make_token(token_owner(operation.path))
        stream = openapi.NDJSON in operation.definition.raw["responses"]["200"]["content"]
        examples = STREAM_EXAMPLES if stream else EXAMPLES
        names = [p["name"] for p in operation.definition.raw.get("parameters", [])
                 if p["in"] == "path"]
        strategies = [operation.as_strategy()]
        if names:
            strategies.append(
                operation.as_strategy(path_parameters={n: real[n] for n in names})
            )
        if operation.definition.raw["operationId"] == "match_action":
            # and one move the bot may play: a real 200
            world.match.refresh_from_db()
            move = {"version": world.match.version, "action": legal_action(world)}
            run(operation.as_strategy(path_parameters={"match_id": world.match.pk}, body=move),
                1, base, token, document)
            world.match.refresh_from_db()
            assert world.match.version == move["version"] + 1
        for strategy in strategies:
            run(strategy, examples, base, token, document)
        seen.add(f"{operation.method.upper()} {operation.path}")
    assert len(seen) == sum(len(item) for item in document["paths"].values())
    print(f"schemathesis: {len(seen)} operations in {time.monotonic() - started:.1f} s")
