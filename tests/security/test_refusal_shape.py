"""One refusal shape on every route: the test walks the URL resolver (every route of
the site, the admin's too) and sends each what it refuses (no sign-in, a bad API token,
a POST without the page's CSRF token, a wrong method, a body that is not JSON, an
unknown id). Every refusal (a status of 400 or more) of a JSON route (``/api/``, a view
marked ``ginsite.errors.json_route``) or in JSON is exactly ``{"error": {"code",
"message"}}`` with the status of its code's class (``ginsite.errors.status_of``); a
JSON route never sends a script to the sign-in page; every other refusal is an HTML
page. A route that builds its own refusal body fails it (the rogue routes below)."""

from __future__ import annotations

import json
import re
import sys
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.test import Client, override_settings
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, path, resolve

from ginsite import urls as site_urls
from ginsite.errors import json_route, status_of
from tests.security.urls import sample_paths
from tests.security.world import World, build_world

pytestmark = pytest.mark.django_db

UNKNOWN_ID = "999999"
CONVERTER = re.compile(r"<(?:(?P<kind>\w+):)?(?P<name>\w+)>")
GROUP = re.compile(r"\(\?P<(?P<name>\w+)>(?P<body>[^)]*)\)")


@dataclass
class Route:
    name: str  # namespace:name, or the route itself for an unnamed one
    route: str  # the pattern, prefixes included
    callback: Callable[..., Any]
    admin: bool


def routes(urlconf: str | None = None) -> Iterator[Route]:
    """Every route of ``urlconf`` (the site's by default), admin included."""

    def walk(patterns: list, prefix: str, namespace: str | None) -> Iterator[Route]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern),
                                pattern.namespace or namespace)
            elif isinstance(pattern, URLPattern):
                route = prefix + str(pattern.pattern)
                name = pattern.name or route
                yield Route(f"{namespace}:{name}" if namespace else name, route,
                            pattern.callback, namespace == "admin")

    yield from walk(get_resolver(urlconf).url_patterns, "", None)


def unknown_path(route: str) -> str:
    """The route with an unknown id (or name) in every argument."""

    def group(match: re.Match) -> str:
        words = match["body"].split("|")
        return words[0] if all(w.isidentifier() for w in words) else UNKNOWN_ID

    text = CONVERTER.sub(lambda m: UNKNOWN_ID if m["kind"] in ("int", "path") else "nobody",
                         route)
    text = GROUP.sub(group, text).replace("^", "").replace("$", "")
    return "/" + text


def is_json_route(request_path: str) -> bool:
    if request_path.startswith("/api/"):
        return True
    try:
        return bool(getattr(resolve(request_path).func, "json_route", False))
    except Resolver404:  # a path no route takes is not a JSON route
        return False


def problems(label: str, request_path: str, response: Any) -> list[str]:
    """What is wrong with ``response`` as a reply to a request of ``request_path``."""
    status, kind = response.status_code, response.get("Content-Type", "")
    json_route_ = is_json_route(request_path)
    where = f"{label} {request_path}: {status}"
    if status < 400:
        location = response.get("Location", "") if status in (301, 302) else ""
        if json_route_ and location.startswith(settings.LOGIN_URL):
            return [f"{where}: a JSON route sends to the sign-in page"]
        return []
    if json_route_ or kind.startswith("application/json"):
        if kind != "application/json":
            return [f"{where}: a JSON route's refusal is {kind!r}, not application/json"]
        body = json.loads(response.content)
        error = body.get("error") if isinstance(body, dict) else None
        if set(body) != {"error"} or not isinstance(error, dict) or set(error) != {
            "code", "message"
        } or not isinstance(error["code"], str) or not isinstance(error["message"], str) \
                or not error["message"]:
            return [f"{where}: not the one shape: {str(body)[:200]}"]
        try:
            expected = status_of(error["code"])
        except KeyError:
            return [f"{where}: no error class declares the code {error['code']!r}"]
        if status != expected:
            return [f"{where}: {error['code']} is answered {status}, its class says {expected}"]
        return []
    if not kind.startswith("text/html") or not response.content.strip():
        return [f"{where}: an HTML route's refusal is not a page ({kind!r})"]
    return []


def requests(world: World, sample: str, route: Route) -> Iterator[tuple[str, str, Any]]:
    """(label, path, response) of each refusal sent to ``route``."""
    unknown = unknown_path(route.route)
    anonymous, player = Client(), world.client("player")
    if route.admin:  # the admin's own pages: signed out, and staff asking for nothing
        yield "anonymous GET", sample, anonymous.get(sample)
        yield "anonymous POST", sample, anonymous.post(sample, {})
        yield "staff GET unknown", unknown, world.client("staff").get(unknown)
        return
    yield "anonymous GET", sample, anonymous.get(sample)
    yield "anonymous GET, asking for JSON", sample, anonymous.get(
        sample, HTTP_ACCEPT="application/json")
    yield "anonymous POST", sample, anonymous.post(sample, "{}", content_type="application/json")
    yield "bad token GET", sample, anonymous.get(sample, HTTP_AUTHORIZATION="Bearer gin_nothing")
    csrf = world.client("player", csrf=True)
    yield "POST without CSRF token", sample, csrf.post(
        sample, "{}", content_type="application/json")
    yield "player GET", sample, player.get(sample)
    yield "player PUT", sample, player.put(sample, "{}", content_type="application/json")
    yield "player POST bad JSON", sample, world.client("player").post(
        sample, "{", content_type="application/json")
    yield "player GET unknown", unknown, world.client("player").get(unknown)


def walk(world: World, only: Callable[[Route], bool] = lambda route: True) -> tuple[
        list[str], int]:
    """Every problem found on the routes ``only`` keeps, and how many replies were seen."""
    samples = sample_paths(world)
    found: list[str] = []
    seen = 0
    for route in routes():
        if not only(route):
            continue
        sample = samples.get(route.name) or unknown_path(route.route)
        for label, request_path, response in requests(world, sample, route):
            seen += 1
            found += [f"{route.name}: {problem}"
                      for problem in problems(label, request_path, response)]
    return found, seen


def test_every_refusal_of_every_route_has_the_one_shape_or_is_a_page() -> None:
    world = build_world()
    found, seen = walk(world)
    assert not found, "\n".join(found)
    assert seen > 1000  # every route, the admin's included, was asked


# --- routes that build their own refusal: the walk finds them ----------------------------


def rogue_api(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"detail": "No."}, status=400)


@json_route
def rogue_site_route(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"error": {"code": "not_found", "message": "No."}}, status=400)


@json_route
def rogue_redirect(request: HttpRequest) -> Any:
    from django.contrib.auth.views import redirect_to_login

    return redirect_to_login(request.get_full_path())


@json_route
def crashing_json(request: HttpRequest) -> JsonResponse:
    raise RuntimeError("a fault of the site")


def crashing_page(request: HttpRequest) -> JsonResponse:
    raise RuntimeError("a fault of the site")


ROGUE_URLS = "tests.security.rogue_urls"


@pytest.fixture
def rogue_urlconf() -> Iterator[None]:
    module = types.ModuleType(ROGUE_URLS)
    module.urlpatterns = [  # type: ignore[attr-defined]
        path("api/rogue", rogue_api, name="rogue_api"),
        path("rogue.json", rogue_site_route, name="rogue_site"),
        path("rogue/redirect.json", rogue_redirect, name="rogue_redirect"),
        path("crash.json", crashing_json, name="crash_json"),
        path("crash/", crashing_page, name="crash_page"),
        *get_resolver().url_patterns,
    ]
    for code in (400, 403, 404, 500):  # the site's handlers, as in ginsite/urls.py
        setattr(module, f"handler{code}", getattr(site_urls, f"handler{code}"))
    sys.modules[ROGUE_URLS] = module
    with override_settings(ROOT_URLCONF=ROGUE_URLS):
        yield
    del sys.modules[ROGUE_URLS]


def test_a_route_that_builds_its_own_refusal_is_found(rogue_urlconf: None) -> None:
    world = build_world()
    found, _ = walk(world, only=lambda route: route.name.startswith("rogue"))
    text = "\n".join(found)
    assert "rogue_api: anonymous GET /api/rogue: 400: not the one shape" in text, text
    assert "rogue_site: anonymous GET /rogue.json: 400: not_found is answered 400, its " \
           "class says 404" in text, text
    assert "rogue_redirect: anonymous GET /rogue/redirect.json: 302: a JSON route sends to " \
           "the sign-in page" in text, text


def test_a_fault_is_the_one_body_on_a_json_route_and_the_500_page_elsewhere(
    rogue_urlconf: None,
) -> None:
    client = Client(raise_request_exception=False)
    crashed = client.get("/crash.json")
    assert (crashed.status_code, crashed["Content-Type"], crashed.json()["error"]["code"]) == (
        500, "application/json", "server_error")
    assert problems("GET", "/crash.json", crashed) == []
    page = client.get("/crash/")
    assert (page.status_code, page["Content-Type"].split(";")[0]) == (500, "text/html")
    assert b"Something went wrong" in page.content
