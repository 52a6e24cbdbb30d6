"""HTTP edges of learning: the lessons page (the same for every visitor, so that the
service worker can keep it for offline use; who is signed in and what they finished
is asked by its script) and the progress it reads and records."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods

from ginsite.errors import BadRequest, Unauthorized, json_route
from ginsite.http import json_object, signed_in_user

from . import selectors, services
from .core.lessons import course


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
        if user is None:
            return JsonResponse({"signed_in": False, "guest": False, "lessons": []})
        return JsonResponse({
            "signed_in": True, "guest": bool(user.is_guest),
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
