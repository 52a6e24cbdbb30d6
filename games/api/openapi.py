"""The bot API's OpenAPI 3.1 document, generated from the code: served at
``GET /api/openapi.json`` and read by people at ``/api/docs/``.

Each view of the API says what it is with ``documented`` (its summary, body, answer or
stream lines, and the refusals of its own); the rest comes from where it already is:
its route and path parameters from the URL configuration, its methods and token from
``api_endpoint`` (games/api/auth.py), every schema from the models of
games/api/schemas.py and games/wire.py, each refusal's status from the error class
that declares its code (ginsite/errors.py ``status_of``), and the export document's
schema from docs/export.schema.json. Refusals every API route may answer are added
here: a token's (401), the method (405), the rate limit (429), a busy database (503),
and a body's (400, 413, 415).
tests/api/test_openapi.py runs schemathesis against the live server with this document.

Why pydantic and this module rather than django-ninja: ninja would own the routing,
the method check, authentication and the parsing of bodies, each with its own order
and its own refusals (422 validation bodies, a plain 405, its parse error), while the
API's contract fixes all of them: the token check before the rate limit before the
method, ``bad_message`` or ``invalid_settings`` by route, a service's checks before a
body's (an action's stale version before its form), NDJSON streams from async
iterators. Keeping the views and ``api_endpoint`` and describing them costs one small
module; the models (pydantic, as games/wire.py's) are the same either way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal, TypeVar

from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver
from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from ginsite.errors import status_of

from . import schemas

TITLE = "Gin Rummy bot API"
VERSION = "1"
NDJSON = "application/x-ndjson"
JSON = "application/json"
REF = "#/components/schemas/"

Token = Literal["required", "optional", "none"]


@dataclass(frozen=True)
class Operation:
    """What a view of the API answers (``documented``)."""

    summary: str
    tag: str
    description: str = ""
    #: the 200 answer (JSON, or ``answer_type``), or each line of an NDJSON stream: a
    #: model, or a JSON Schema
    answer: type[BaseModel] | dict[str, Any] | None = None
    lines: type[BaseModel] | dict[str, Any] | None = None
    answer_type: str = JSON
    body: type[schemas.Body] | None = None
    body_required: bool = False
    query: type[BaseModel] | None = None
    #: path parameters whose schema is narrower than their route's converter
    path: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: codes of the view's own refusals (the common ones are added)
    refusals: tuple[str, ...] = ()
    #: methods and token of a view without ``api_endpoint`` (a public page)
    methods: tuple[str, ...] = ("GET",)
    token: Token = "none"


V = TypeVar("V", bound=Callable[..., Any])


def documented(summary: str, tag: str, **details: Any) -> Callable[[V], V]:
    """Put the view in the document; its docstring is the operation's description."""

    def mark(view: V) -> V:
        description = " ".join((view.__doc__ or "").split())
        view.api_operation = Operation(  # type: ignore[attr-defined]
            summary=summary, tag=tag, description=description, **details
        )
        return view

    return mark


# --- the routes ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    path: str  # OpenAPI form: /api/match/{match_id}/export
    converters: dict[str, str]  # parameter -> "int" | "str"
    view: Any
    operation: Operation
    methods: tuple[str, ...]
    token: Token


_PARAMETER = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")


def routes() -> list[Route]:
    """Every documented view of the URL configuration, in its order."""
    return list(_walk(get_resolver().url_patterns, ""))


def _walk(patterns: list[Any], prefix: str) -> Iterator[Route]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern))
            continue
        if not isinstance(pattern, URLPattern):
            continue
        operation = getattr(pattern.callback, "api_operation", None)
        if operation is None:
            continue
        route = prefix + str(pattern.pattern)
        converters = {m["name"]: m["converter"] or "str" for m in _PARAMETER.finditer(route)}
        yield Route(
            path="/" + _PARAMETER.sub(r"{\g<name>}", route),
            converters=converters,
            view=pattern.callback,
            operation=operation,
            methods=getattr(pattern.callback, "api_methods", operation.methods),
            token=getattr(pattern.callback, "api_token", operation.token),
        )


# --- refusals ------------------------------------------------------------------------------

TOKEN_REFUSALS: dict[str, tuple[str, ...]] = {
    "required": ("unauthorized", "invalid_token"),
    "optional": ("invalid_token",),
    "none": (),
}
API_REFUSALS = ("method_not_allowed", "rate_limited")  # every route of api_endpoint
BODY_REFUSALS = ("unsupported_media_type", "body_too_large", "bad_json", "bad_message")
EVERYWHERE = ("overloaded",)  # ginsite/overload.py: the database is out of connections
WITH_RETRY_AFTER = {"rate_limited", "overloaded"}


def refusals(route: Route) -> dict[int, list[str]]:
    """The codes a route may refuse with, by status."""
    codes = [*TOKEN_REFUSALS[route.token], *route.operation.refusals, *EVERYWHERE]
    if hasattr(route.view, "api_methods"):
        codes += API_REFUSALS
    if route.operation.body is not None:
        codes += BODY_REFUSALS
    by_status: dict[int, list[str]] = {}
    for code in dict.fromkeys(codes):
        by_status.setdefault(status_of(code), []).append(code)
    return dict(sorted(by_status.items()))


# --- the document --------------------------------------------------------------------------


def _models(all_routes: list[Route]) -> list[tuple[type[BaseModel], JsonSchemaMode]]:
    found: dict[tuple[type[BaseModel], JsonSchemaMode], None] = {
        (schemas.ErrorBody, "serialization"): None
    }
    for route in all_routes:
        op = route.operation
        sources: tuple[tuple[Any, JsonSchemaMode], ...] = (
            (op.body, "validation"),
            (op.answer, "serialization"),
            (op.lines, "serialization"),
        )
        for model, mode in sources:
            if isinstance(model, type):
                found[(model, mode)] = None
    return list(found)


def _export_schema() -> dict[str, dict[str, Any]]:
    """docs/export.schema.json as components: the document ``GinMatch``, each of its
    definitions ``GinMatch_<name>``."""
    raw = json.loads((settings.BASE_DIR / "docs" / "export.schema.json").read_text())
    text = json.dumps(raw).replace('"#/$defs/', f'"{REF}GinMatch_')
    converted = json.loads(text)
    definitions = converted.pop("$defs", {})
    converted.pop("$schema", None)
    converted.pop("$id", None)
    return {"GinMatch": converted, **{f"GinMatch_{k}": v for k, v in definitions.items()}}


def _schema(
    given: type[BaseModel] | dict[str, Any] | None, refs: dict[Any, dict[str, Any]]
) -> dict[str, Any]:
    if isinstance(given, type):
        return refs[(given, "serialization")]
    return given or {}


def _describe(given: type[BaseModel] | dict[str, Any] | None) -> str:
    return " ".join((given.__doc__ or "").split()) if isinstance(given, type) else ""


def _error_schema(codes: list[str]) -> dict[str, Any]:
    return {
        "allOf": [
            {"$ref": REF + "ErrorBody"},
            {"properties": {"error": {"properties": {"code": {"enum": codes}}}}},
        ]
    }


def _parameters(route: Route, query: dict[str, Any] | None) -> list[dict[str, Any]]:
    parameters = []
    for name, converter in route.converters.items():
        schema = route.operation.path.get(name) or (
            {"type": "integer", "minimum": 0}
            if converter == "int"
            else {"type": "string", "pattern": "^[^/]+$"}
        )
        parameters.append({"name": name, "in": "path", "required": True, "schema": schema})
    for name, schema in ((query or {}).get("properties") or {}).items():
        described = dict(schema)
        description = described.pop("description", "")
        described.pop("title", None)
        parameters.append(
            {
                "name": name,
                "in": "query",
                "required": name in (query or {}).get("required", []),
                "description": description,
                "schema": described,
            }
        )
    return parameters


def _operation(route: Route, method: str, refs: dict[Any, dict[str, Any]]) -> dict[str, Any]:
    op = route.operation
    query = None
    if op.query is not None:
        query = op.query.model_json_schema(mode="validation")
    out: dict[str, Any] = {
        "operationId": route.view.__name__ if len(route.methods) == 1 else
        f"{route.view.__name__}_{method.lower()}",
        "summary": op.summary,
        "tags": [op.tag],
    }
    if op.description:
        out["description"] = op.description
    parameters = _parameters(route, query)
    if parameters:
        out["parameters"] = parameters
    out["security"] = {
        "required": [{"token": []}],
        "optional": [{}, {"token": []}],
        "none": [],
    }[route.token]
    if op.body is not None and method != "GET":
        out["requestBody"] = {
            "required": op.body_required,
            "description": (op.body.__doc__ or "").strip(),
            "content": {JSON: {"schema": refs[(op.body, "validation")]}},
        }
    if op.lines is not None:
        ok = {
            "description": "NDJSON: one JSON object of this schema per line; an empty "
            "line is a keep-alive.",
            "content": {NDJSON: {"schema": _schema(op.lines, refs)}},
        }
    else:
        ok = {
            "description": _describe(op.answer) or "The answer.",
            "content": {op.answer_type: {"schema": _schema(op.answer, refs)}},
        }
    responses: dict[str, Any] = {"200": ok}
    for status, codes in refusals(route).items():
        response: dict[str, Any] = {
            "description": "Refused: " + ", ".join(codes) + ". Nothing was done.",
            "content": {JSON: {"schema": _error_schema(codes)}},
        }
        if WITH_RETRY_AFTER & set(codes):
            response["headers"] = {
                "Retry-After": {
                    "description": "Seconds to wait (rate_limited, overloaded).",
                    "schema": {"type": "integer", "minimum": 0},
                }
            }
        if "method_not_allowed" in codes:
            response["headers"] = {
                "Allow": {"description": "The methods allowed.", "schema": {"type": "string"}}
            }
        responses[str(status)] = response
    out["responses"] = responses
    return out


@cache
def document() -> dict[str, Any]:
    """The OpenAPI 3.1 document of the bot API."""
    all_routes = routes()
    models = _models(all_routes)
    keys, definitions = models_json_schema(models, ref_template=REF + "{model}")
    refs: dict[Any, dict[str, Any]] = dict(keys)
    components = {**definitions.get("$defs", {}), **_export_schema()}
    paths: dict[str, dict[str, Any]] = {}
    for route in all_routes:
        item = paths.setdefault(route.path, {})
        for method in route.methods:
            item[method.lower()] = _operation(route, method, refs)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": TITLE,
            "version": VERSION,
            "description": "Play gin rummy as a BOT account over HTTP: JSON requests and "
            "answers, NDJSON streams. The guide, with the match stream's frames and "
            "how to apply them, is docs/bot-api.md; the readable form of this "
            "document is /api/docs/.",
        },
        "tags": [{"name": tag} for tag in dict.fromkeys(r.operation.tag for r in all_routes)],
        "paths": paths,
        "components": {
            "schemas": dict(sorted(components.items())),
            "securitySchemes": {
                "token": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A personal API token (/players/settings/tokens/): "
                    "Authorization: Bearer gin_...",
                }
            },
        },
    }
