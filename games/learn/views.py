"""HTTP edges of learning: the lessons page (the same for every visitor, so that the
service worker can keep it for offline use; who is signed in and what they finished
is asked by its script) and the progress it reads and records; the puzzle page and its
JSON, and the puzzle API (``/api/puzzle/...``: a token, as the bot API)."""

from __future__ import annotations

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import services as game_services
from games.api.auth import api_endpoint
from games.api.openapi import documented
from games.errors import MalformedActionError
from ginsite.errors import BadRequest, Unauthorized, json_route
from ginsite.http import ApiRequest, json_object, signed_in_user

from . import schemas, selectors, services
from .core.lessons import course
from .core.puzzles import THEME_NAMES, THEMES
from .errors import NoSuchPuzzleError

GUEST_BACKEND = "django.contrib.auth.backends.ModelBackend"


@require_GET
def lessons(request: HttpRequest) -> HttpResponse:
    """The course: every lesson, its text and its exercises' positions and checks."""
    data = {
        "lessons": [lesson.to_dict(gettext) for lesson in course()],
        "progressUrl": reverse("learn:progress"),
        "playUrl": reverse("games:play_computer"),
        "swUrl": reverse("games:service_worker"),
    }
    return render(request, "learn/lessons.html", {"course": data})


@never_cache
@ensure_csrf_cookie
@require_http_methods(["GET", "POST"])
@json_route
def progress(request: HttpRequest) -> JsonResponse:
    """GET: who is signed in and the lessons their account finished (sets the CSRF
    cookie the POST needs). POST ``{"lessons": [slug, ...]}``: record them for the
    signed-in account (what the browser kept while signed out joins the account) and
    answer every lesson it finished; 401 ``not_signed_in`` for a visitor."""
    user = signed_in_user(request)
    if request.method == "GET":
        # The language the site speaks to this reader: the cached page follows it
        # (games/static/games/page_language.js).
        language = translation.get_language()
        if user is None:
            return JsonResponse(
                {"signed_in": False, "guest": False, "lessons": [], "language": language}
            )
        return JsonResponse({
            "signed_in": True, "guest": bool(user.is_guest), "language": language,
            "lessons": selectors.lessons_done(user=user),
        })
    if user is None:
        raise Unauthorized("Sign in to keep your progress on your account.", code="not_signed_in")
    body = json_object(request, max_bytes=4096)
    slugs = body.get("lessons")
    if not isinstance(slugs, list):
        raise BadRequest('Send {"lessons": ["slug", ...]}.', code="malformed_request")
    done = services.lessons_record(user=user, lessons=slugs)
    return JsonResponse({"signed_in": True, "guest": bool(user.is_guest), "lessons": done})


# --- puzzles: the page and its JSON ------------------------------------------------------


def _theme(request: HttpRequest) -> str | None:
    theme = request.GET.get("theme") or None
    if theme is not None and theme not in THEMES:
        raise BadRequest("Unknown theme.", code="bad_request")
    return theme


@require_GET
def puzzles(request: HttpRequest) -> HttpResponse:
    """The puzzle page: the player's rating and streak, a choice of themes, a puzzle."""
    user = signed_in_user(request)
    asked = request.GET.get("id", "")
    first = selectors.puzzle_get(puzzle_id=int(asked)) if asked.isdigit() else None
    config = {
        "nextUrl": reverse("learn:puzzle_next"),
        "answerUrl": reverse("learn:puzzle_answer", args=[0]),
        "first": None if first is None else selectors.puzzle_payload(first),
    }
    return render(request, "learn/puzzles.html", {
        "player": selectors.puzzle_player(user=user),
        "themes": [(t, gettext(THEME_NAMES[t])) for t in THEMES],
        "config": config,
    })


@never_cache
@require_GET
@json_route
def puzzle_next(request: HttpRequest) -> JsonResponse:
    """The next puzzle for the page's player (of ``?theme=``), with their rating."""
    user = signed_in_user(request)
    puzzle = selectors.puzzle_next(user=user, theme=_theme(request))
    if puzzle is None:
        raise NoSuchPuzzleError(
            gettext("No puzzle left for you here: try another theme."), code="no_puzzle_left"
        )
    return JsonResponse({"puzzle": selectors.puzzle_payload(puzzle),
                         "player": selectors.puzzle_player(user=user)})


@never_cache
@require_POST
@json_route
def puzzle_answer(request: HttpRequest, puzzle_id: int) -> JsonResponse:
    """The page's answer to a puzzle (CSRF header): the verdict. A visitor becomes a
    guest, as when playing the computer, so that the answer is rated."""
    body = json_object(request, max_bytes=2048)
    if selectors.puzzle_get(puzzle_id=puzzle_id) is None:
        raise NoSuchPuzzleError()
    if not request.user.is_authenticated:
        login(request, game_services.guest_user_create(), backend=GUEST_BACKEND)
    verdict = services.puzzle_answer(
        user=request.user, puzzle_id=puzzle_id, action=body.get("action")
    )
    return JsonResponse(verdict)


# --- the puzzle API (docs/bot-api.md, "Puzzles") -------------------------------------------


@api_endpoint("GET", token="required")
@documented(
    "The next puzzle", tag="puzzles", answer=schemas.PuzzleOut, refusals=("no_puzzle_left",)
)
def api_puzzle_next(request: ApiRequest) -> HttpResponse:
    """``GET /api/puzzle/next``: the puzzle nearest the token's account's puzzle
    rating that it has not answered; ``view`` and ``legal_actions`` have the match
    stream's shapes."""
    puzzle = selectors.puzzle_next(user=request.api_user, theme=None)
    if puzzle is None:
        raise NoSuchPuzzleError("No puzzle left for this account.", code="no_puzzle_left")
    return JsonResponse(selectors.puzzle_payload(puzzle))


@api_endpoint("POST", token="required")
@documented(
    "Answer a puzzle", tag="puzzles", body=schemas.PuzzleAnswerBody,
    body_required=True, answer=schemas.PuzzleVerdict,
    refusals=("no_such_puzzle", "malformed_action", "illegal_action"),
)
def api_puzzle_answer(request: ApiRequest, puzzle_id: int) -> HttpResponse:
    """``POST /api/puzzle/{id}/answer`` with ``{"action": {...}}``: right or not, the
    best action, the expected points of every legal action, and the account's puzzle
    rating before and after. The first answer counts; answering again returns the
    same verdict and changes nothing."""
    action = json_object(request, max_bytes=2048).get("action")
    if not isinstance(action, dict):
        raise MalformedActionError(schemas.PuzzleAnswerBody.default_message)
    verdict = services.puzzle_answer(user=request.api_user, puzzle_id=puzzle_id, action=action)
    return JsonResponse(verdict)


@api_endpoint("GET", token="optional")
@documented("Today's puzzle", tag="puzzles", answer=schemas.PuzzleOut, refusals=("no_puzzle_left",))
def api_puzzle_daily(request: ApiRequest) -> HttpResponse:
    """``GET /api/puzzle/daily`` (no token needed): the puzzle of the day (UTC), the
    same for everyone, as the home page shows it."""
    puzzle = selectors.puzzle_daily(day=timezone.now().date())
    if puzzle is None:
        raise NoSuchPuzzleError("There are no puzzles yet.", code="no_puzzle_left")
    return JsonResponse(selectors.puzzle_payload(puzzle))
