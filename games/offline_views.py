"""HTTP edges of the installable, offline app: the offline table page, the web app
manifest, the service worker, the account probe and the upload of offline matches.

The service worker (templates/games/sw.js) precaches the offline table and every
file it loads into one cache named after a digest of their contents, so a change to
any of them is a new worker with a new cache: an update is installed whole, and
served only once the player accepts it (docs/offline.md). The offline page holds no
account data (it is cached for everyone who uses this browser); the account probe
and the upload are never cached.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.errors import OfflineMatchRefusedError
from games.forms import level_choice
from ginsite.errors import Unauthorized, json_route
from ginsite.http import require_json

# Everything the offline table loads: the page's own links, and the modules its
# script imports by relative path (fetched unhashed: see _precache_urls).
PRECACHE_STATIC = (
    "games/prefs_boot.js",
    "games/site.css",
    "games/table.css",
    "games/prefs.css",
    "games/offline/offline.css",
    "learn/learn.css",
    "games/favicon.svg",
    "games/icons/icon-192.png",
    "games/icons/icon-512.png",
)
PRECACHE_MODULES = (
    "games/offline/app.js",
    "games/offline/engine.js",
    "games/offline/bots.js",
    "games/offline/match.js",
    "games/offline/random.js",
    "games/offline/sha256.js",
    "games/offline/store.js",
    "games/offline/sync.js",
    "games/cards.js",
    "games/melds.js",
    "games/hands.js",
    "games/drag.js",
    "games/sidebar.js",
    "games/controls.js",
    "games/words.js",
    "games/page_language.js",
    "learn/learn.js",
    "learn/board.js",
    "games/i18n.js",
)
# Pages kept for offline use besides the offline table: the same for every visitor
# (no account data), served from the cache like it. The lessons (games/learn).
PRECACHE_PAGES = ("learn:lessons",)
PRECACHE_TEMPLATES = ("games/sw.js", "games/offline.html", "learn/lessons.html")
MAX_UPLOAD_BYTES = 1_000_000
OFFLINE_LEVELS = ("easy", "medium")
"""The levels the browser's computer plays (games/static/games/offline/bots.js)."""


def _offline_config() -> dict[str, str]:
    return {
        "accountUrl": reverse("games:offline_account"),
        "uploadUrl": reverse("games:offline_upload"),
        "swUrl": reverse("games:service_worker"),
    }


def offline_table(request: HttpRequest) -> HttpResponse:
    """The offline table (and the page the service worker shows when the network is
    gone): the same for every visitor, so that it can be cached."""
    levels = [(level, level_choice(level)) for level in OFFLINE_LEVELS]
    return render(
        request, "games/offline.html", {"offline_config": _offline_config(), "levels": levels}
    )


def _precache_urls() -> list[str]:
    urls = [reverse("games:offline"), reverse("games:manifest")]
    urls += [reverse(name) for name in PRECACHE_PAGES]
    urls += [static(path) for path in PRECACHE_STATIC + PRECACHE_MODULES]
    # Modules import each other by relative path: with hashed static names the
    # browser asks for the plain names too (whitenoise serves both).
    urls += [f"{settings.STATIC_URL}{path}" for path in PRECACHE_MODULES]
    # The browser code's words in every language (ginsite/i18n.py): the cached page
    # asks for the one it was rendered in.
    urls += [reverse("javascript_catalog", args=[code]) for code, _ in settings.LANGUAGES]
    return list(dict.fromkeys(urls))


@lru_cache(maxsize=1)
def cache_version() -> str:
    """A digest of every precached file, of the worker and page templates, and of the
    ``OFFLINE_APP_RELEASE`` setting."""
    digest = hashlib.sha256(settings.OFFLINE_APP_RELEASE.encode())
    for path in PRECACHE_STATIC + PRECACHE_MODULES:
        found = finders.find(path)
        digest.update(path.encode())
        digest.update(Path(found).read_bytes() if found else b"missing")
    for name in PRECACHE_TEMPLATES:
        digest.update(Path(get_template(name).origin.name).read_bytes())  # type: ignore[attr-defined]
    for catalog in sorted(Path(settings.BASE_DIR, "locale").glob("*/LC_MESSAGES/*.mo")):
        digest.update(catalog.read_bytes())
    return digest.hexdigest()[:16]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the root so that its scope is the whole site."""
    body = render_to_string(
        "games/sw.js",
        {
            "version": cache_version(),
            "offline_url": json.dumps(reverse("games:offline")),
            "static_url": json.dumps(settings.STATIC_URL),
            "pages": json.dumps([reverse(name) for name in PRECACHE_PAGES]),
            "precache": json.dumps(_precache_urls()),
            "never": json.dumps(
                [reverse("games:offline_account"), reverse("games:offline_upload")]
            ),
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
@json_route
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: installable, opening on the offline table."""
    data = {
        "name": "Gin Rummy Online",
        "short_name": "Gin Rummy",
        "description": "Gin rummy against the computer, online or with no connection.",
        "id": "/",
        "start_url": reverse("games:offline"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#0d2a1d",
        "theme_color": "#0d2a1d",
        "icons": [
            {"src": static("games/icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("games/icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("games/icons/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": static("games/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


@never_cache
@ensure_csrf_cookie
@require_GET
@json_route
def offline_account(request: HttpRequest) -> JsonResponse:
    """Who is signed in, for the (account-neutral) offline page, and the language the
    site speaks to them (the cached page follows it: page_language.js); sets the CSRF
    cookie its upload needs."""
    user = request.user
    language = translation.get_language()
    if not user.is_authenticated:
        return JsonResponse(
            {"signed_in": False, "name": None, "username": None, "language": language}
        )
    return JsonResponse({
        "signed_in": True, "name": user.display_name, "username": user.get_username(),
        "language": language,
    })


@never_cache
@require_POST
@json_route
def offline_upload(request: HttpRequest) -> JsonResponse:
    """A finished offline match: 201 stored, 200 already stored, 400 refused (it does
    not replay; nothing saved), 401 not signed in (ginsite/errors.py answers each
    refusal)."""
    if not request.user.is_authenticated:
        raise Unauthorized(_("Sign in to save offline matches."), code="not_signed_in")
    require_json(request)
    if len(request.body) > MAX_UPLOAD_BYTES:
        raise OfflineMatchRefusedError(_("This upload is too large."))
    try:
        record = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        raise OfflineMatchRefusedError(_("The upload is not JSON.")) from None
    match, created = services.offline_match_import(user=request.user, record=record)
    return JsonResponse(
        {"match_id": match.pk, "sheet_url": reverse("games:sheet", kwargs={"match_id": match.pk})},
        status=201 if created else 200,
    )
