"""The one base of every refusal the site's code raises, and the one place that turns
a refusal into a reply: the JSON body ``{"error": {"code", "message"}}`` on a JSON
route (the API and the site's own JSON endpoints), the site's error page on an HTML
route, an ``error`` frame on a socket.

An ``AppError`` carries ``code`` (machine-readable: the codes of docs/protocol.md and
docs/bot-api.md) and ``message`` (a sentence for a person); its class carries
``status``, the HTTP status that answers it, and ``codes``, every code its instances
may carry (the first is the default). A class declares each of its codes; a code
declared by two classes with two statuses is refused when the second is defined, so
each code has one status (``status_of``, and ``statuses()`` lists them all, for the
documentation and the tests). Code that raises one has changed nothing. Each app
subclasses it (games.errors, games.tournaments.errors, games.chat.services,
accounts.services, leaderboards.services, games.api); no app imports another's errors
to answer them.

The reply (``refusal_response``) is made in one place: ``RefusalMiddleware`` answers
any ``AppError`` a view raises, and Django's own refusals (``handler400``/``403``/
``404``/``500``, the CSRF failure view, a ``require_http_methods`` 405) get the same
JSON body on a JSON route. No view builds a refusal by hand. A route is a JSON route
when its path is under ``/api/``, its view is marked ``json_route``, or the request
sends or asks for JSON (``Content-Type`` or ``Accept: application/json``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

#: Every declared code and the status of the classes that declare it.
_STATUS_OF: dict[str, int] = {}
#: Every declared code and the classes that declare it, in the order they were defined.
_DECLARERS: dict[str, list[type[AppError]]] = {}


class AppError(Exception):
    """A refusal: ``code`` for programs, ``message`` for people, ``status`` (of the
    class) for HTTP. Subclasses set ``status``, ``codes`` (the first is ``code``, the
    default) and ``default_message``. A code given to a constructor makes an instance of
    the class that declares it: ``ChatError("muted", ...)`` is a ``ChatForbidden`` (403),
    ``AppError("...", code="not_found")`` a ``NotFound`` (404); the family's own class
    first (so ``except ChatError`` still catches it), else the first class that declares
    the code, and a code no class declares is a ``TypeError``. ``code_arg`` says where a
    family's constructor takes the code when not by keyword (``ChatError(code,
    message)``: 0). ``headers`` are added to the HTTP reply (``Retry-After``, ``Allow``).
    """

    status: ClassVar[int] = 500
    codes: ClassVar[tuple[str, ...]] = ("server_error",)
    code = "server_error"
    # A sentence for people; a lazy translation, read in the request's language.
    default_message: ClassVar[str | Promise] = _("The server could not do that.")
    code_arg: ClassVar[int | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "codes" in cls.__dict__:
            cls.code = cls.codes[0]
        elif "code" in cls.__dict__:
            cls.codes = (cls.code,)
        elif "status" in cls.__dict__:
            raise TypeError(f"{cls.__qualname__} sets a status: declare its codes too")
        else:
            return  # a family's base: its parent's codes and status
        for code in cls.codes:
            known = _STATUS_OF.setdefault(code, cls.status)
            if known != cls.status:
                raise TypeError(
                    f"{cls.__qualname__} declares {code!r} with status {cls.status}, "
                    f"already declared with {known}"
                )
            _DECLARERS.setdefault(code, []).append(cls)

    @classmethod
    def declaring(cls, code: str) -> type[AppError]:
        """The class whose instances carry ``code``: this class or the first of its
        subclasses that declares it."""
        if code in cls.codes:
            return cls
        for found in _DECLARERS.get(code, ()):
            if issubclass(found, cls):
                return found
        raise TypeError(f"No class of {cls.__qualname__}'s family declares {code!r}")

    def __new__(cls, *args: Any, **kwargs: Any) -> AppError:
        code = kwargs.get("code")
        if code is None and cls.code_arg is not None and len(args) > cls.code_arg:
            code = args[cls.code_arg]
        return super().__new__(cls if code is None else cls.declaring(code))

    def __init__(
        self, *args: Any, code: str | None = None, headers: dict[str, str] | None = None
    ) -> None:
        """``AppError(message=None, *, code=None, headers=None)``; a family with
        ``code_arg`` takes the code at that place too when it is not given by name
        (``ChatError(code, message)``)."""
        rest = list(args)
        if code is None and self.code_arg is not None and len(rest) > self.code_arg:
            code = rest.pop(self.code_arg)
        # A sentence for people, in the language of the request (a lazy default is
        # translated now).
        self.message: str = str((rest[0] if rest else None) or self.default_message)
        if code is not None:
            self.code = code
        self.headers = dict(headers or {})
        super().__init__(self.message)


# The base's own code: a fault of the site, 500.
_STATUS_OF[AppError.code] = AppError.status
_DECLARERS[AppError.code] = [AppError]


def status_of(code: str) -> int:
    """The HTTP status of a refusal with ``code``: the status of the class that declares
    it (KeyError for a code no class declares)."""
    return _STATUS_OF[code]


def statuses() -> dict[str, int]:
    """Every declared code and its status (derived from the classes: documentation)."""
    return dict(sorted(_STATUS_OF.items()))


# --- the refusals that belong to no app: the request's form, who is asking ------------


class BadRequest(AppError):
    """The request itself is malformed (its body, its query)."""

    status = 400
    codes = ("bad_request", "bad_json", "bad_message", "malformed_request", "unknown_type")
    default_message = _("That request is not well formed.")


class Unauthorized(AppError):
    """Who are you? Not signed in, no API token, a bad one."""

    status = 401
    codes = ("unauthorized", "invalid_token", "not_signed_in")
    default_message = _("Sign in first.")


class Forbidden(AppError):
    """Someone who may not."""

    status = 403
    codes = ("forbidden", "not_allowed", "csrf_failed")
    default_message = _("You may not do that.")


class NotFound(AppError):
    """Nothing by that name."""

    status = 404
    codes = ("not_found",)
    default_message = _("There is nothing at this address.")


class MethodNotAllowed(AppError):
    status = 405
    codes = ("method_not_allowed",)
    default_message = _("This address does not answer that method.")

    def __init__(
        self, *args: Any, methods: tuple[str, ...] | list[str] = (), **kwargs: Any
    ) -> None:
        """``MethodNotAllowed(methods=("POST",))``: says which, in the message and
        ``Allow``."""
        if methods:
            kwargs["headers"] = {"Allow": ", ".join(methods), **kwargs.get("headers", {})}
            args = args or (f"Use {' or '.join(methods)}.",)
        super().__init__(*args, **kwargs)


class BodyTooLarge(AppError):
    status = 413
    codes = ("body_too_large", "frame_too_large")
    default_message = _("The request's body is too large.")


class UnsupportedMediaType(AppError):
    status = 415
    codes = ("unsupported_media_type",)
    default_message = _("Send the body as JSON, with Content-Type: application/json.")


class RateLimited(AppError):
    """Too often: ``wait`` seconds before the next try (``Retry-After``)."""

    status = 429
    codes = ("rate_limited",)
    default_message = _("Too many requests.")

    def __init__(self, *args: Any, wait: int | None = None, **kwargs: Any) -> None:
        """``RateLimited(message, wait=seconds)``: ``Retry-After: seconds``."""
        if wait:
            kwargs["headers"] = {"Retry-After": str(wait), **kwargs.get("headers", {})}
        super().__init__(*args, **kwargs)


class Overloaded(AppError):
    """The database is out of connections (ginsite/overload.py): 503, Retry-After."""

    status = 503
    code = "overloaded"
    default_message = _("The site is busy right now: try again in a few seconds.")


# --- replies ---------------------------------------------------------------------------


def error_body(error: AppError) -> dict[str, Any]:
    """The JSON body of every refusal over HTTP (the site's JSON routes and the API):
    ``{"error": {"code", "message"}}``."""
    return {"error": {"code": error.code, "message": error.message}}


def error_response(error: AppError, **headers: str) -> Any:
    """The JSON reply to a refusal, with its class's status and the error's headers;
    ``headers`` adds more (``Retry_After="30"`` is ``Retry-After: 30``)."""
    from django.http import JsonResponse

    response = JsonResponse(error_body(error), status=error.status)
    for name, value in error.headers.items():
        response[name] = value
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def error_frame(error: AppError, **extra: Any) -> dict[str, Any]:
    """The socket frame of a refusal (docs/protocol.md ``error``): ``{"type": "error",
    "code", "message"}``; ``extra`` adds fields such as the match ``version``."""
    return {"type": "error", **extra, "code": error.code, "message": error.message}


V = TypeVar("V", bound=Callable[..., Any])

JSON_TYPE = "application/json"


def json_route(view: V) -> V:
    """Mark ``view`` as a JSON route: its refusals (its own and Django's: 404, 405, ...)
    are the JSON body whatever the request asks for. Put it innermost: the decorators
    above copy the mark."""
    view.json_route = True  # type: ignore[attr-defined]
    return view


def wants_json(request: Any) -> bool:
    """Whether ``request`` is answered in JSON: a path under /api/, a view marked
    ``json_route``, or a request that sends or accepts JSON."""
    if request.path.startswith("/api/"):
        return True
    match = getattr(request, "resolver_match", None)
    if match is not None and getattr(match.func, "json_route", False):
        return True
    return (
        request.META.get("CONTENT_TYPE", "").split(";")[0].strip() == JSON_TYPE
        or JSON_TYPE in request.headers.get("Accept", "")
    )


def refusal_response(request: Any, error: AppError) -> Any:
    """The one reply to a refusal: the JSON body on a JSON route, otherwise the site's
    error page (templates/error.html), both with the error's status and headers."""
    if wants_json(request):
        return error_response(error)
    from django.shortcuts import render

    response = render(
        request, "error.html", {"code": error.code, "message": error.message},
        status=error.status,
    )
    for name, value in error.headers.items():
        response[name] = value
    return response


class RefusalMiddleware:
    """Answers any ``AppError`` a view raises (``refusal_response``), and gives the
    refusal Django builds without a body (``require_http_methods``'s 405) the same
    reply: the JSON body on a JSON route, the error page otherwise."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[..., Any]) -> None:
        import asyncio

        from asgiref.sync import markcoroutinefunction

        self.get_response = get_response
        self.is_async = asyncio.iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: Any) -> Any:
        if self.is_async:
            return self._acall(request)
        return self._answer(request, self.get_response(request))

    async def _acall(self, request: Any) -> Any:
        return self._answer(request, await self.get_response(request))

    def process_exception(self, request: Any, exception: Exception) -> Any:
        if isinstance(exception, AppError):
            return refusal_response(request, exception)
        return None

    @staticmethod
    def _answer(request: Any, response: Any) -> Any:
        from django.http import HttpResponseNotAllowed

        if isinstance(response, HttpResponseNotAllowed):
            methods = [m.strip() for m in response.get("Allow", "").split(",") if m.strip()]
            return refusal_response(request, MethodNotAllowed(methods=methods))
        return response


# --- Django's own refusals (ginsite/urls.py handler400, 403, 404; CSRF_FAILURE_VIEW) -----


def _django_refusal(request: Any, exception: Exception | None, error: AppError,
                    page: Callable[..., Any]) -> Any:
    if wants_json(request):
        return error_response(error)
    return page(request, exception) if exception is not None else page(request)


def _sentence(exception: Exception | None, default: str) -> str:
    """The message a view gave its Http404 or PermissionDenied, if it is a sentence."""
    from django.urls import Resolver404

    if exception is None or isinstance(exception, Resolver404) or not exception.args:
        return default
    text = exception.args[0]
    return text if isinstance(text, str) and text else default


def bad_request(request: Any, exception: Exception) -> Any:
    from django.views.defaults import bad_request as page

    return _django_refusal(request, exception, BadRequest(), page)


def permission_denied(request: Any, exception: Exception) -> Any:
    from django.views.defaults import permission_denied as page

    error = Forbidden(_sentence(exception, str(Forbidden.default_message)))
    return _django_refusal(request, exception, error, page)


def page_not_found(request: Any, exception: Exception) -> Any:
    from django.views.defaults import page_not_found as page

    return _django_refusal(
        request, exception, NotFound(_sentence(exception, str(NotFound.default_message))), page
    )


def csrf_failure(request: Any, reason: str = "") -> Any:
    """``CSRF_FAILURE_VIEW``: a POST without the page's CSRF token."""
    from django.views.csrf import csrf_failure as page

    if wants_json(request):
        return error_response(Forbidden(
            "This request lacks the page's CSRF token: reload the page.", code="csrf_failed"
        ))
    return page(request, reason)
