"""Thin HTTP views of the games app: the lobby, the table page, my matches, score
sheets and replays. Each parses the request, calls one service or selector and
renders; the live game itself runs over the WebSocket (games/consumers.py)."""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import pages, selectors, services
from games.errors import ServiceError
from games.forms import ComputerMatchForm, RulesForm, rules_summary
from games.messages import seat_name
from games.models import Hand, Match
from games.ratelimits import limit_guest_creation, limit_match_creation
from games.services import correspondence, fairplay
from ginsite.errors import json_route
from ginsite.http import SignedInRequest, required_user, sign_in_required

T = TypeVar("T")
GUEST_BACKEND = "django.contrib.auth.backends.ModelBackend"
RESULT_LABELS = {
    "knock": "Knock",
    "gin": "Gin",
    "big_gin": "Big gin",
    "undercut": "Undercut",
    "draw": "Draw (wall)",
}


def _lobby_forms(data: Any = None, which: str = "") -> dict[str, RulesForm]:
    """The three lobby forms; only the submitted one is bound to ``data``."""
    return {
        "computer_form": ComputerMatchForm(
            data if which == "computer" else None, prefix="computer"
        ),
        "friend_form": RulesForm(data if which == "friend" else None, prefix="friend"),
        "quick_form": RulesForm(data if which == "quick" else None, prefix="quick"),
    }


def _match_rows(user: Any) -> dict[str, list[dict[str, Any]]]:
    """The user's matches split into ongoing and finished, ready for templates."""
    ongoing: list[dict[str, Any]] = []
    finished: list[dict[str, Any]] = []
    for match in selectors.matches_for_user(user=user):
        if match.status == Match.Status.CANCELLED:
            continue  # an invitation that closed unanswered was never a match
        seats = sorted(match.seats.all(), key=lambda s: s.index)
        mine = next((s for s in seats if s.user_id == user.pk), None)
        other = next((s for s in seats if s is not mine), None)
        if other is None:
            opponent = "waiting for an opponent"
        else:
            opponent = seat_name(other)
        row = {
            "match": match,
            "opponent": opponent,
            "my_score": mine.score if mine else 0,
            "their_score": other.score if other else 0,
            "won": match.winner_seat is not None and mine is not None
            and match.winner_seat == mine.index,
            "summary": rules_summary(match.rules, match.variant),
            "offline": match.kind == Match.Kind.OFFLINE,
        }
        (finished if match.status == Match.Status.FINISHED else ongoing).append(row)
    return {"ongoing": ongoing, "finished": finished}


def _rated_ban_sentence(user: Any) -> str:
    """Why and how long ``user`` may not play rated matches, or "" if they may."""
    now = timezone.now()
    ban = fairplay.active_ban(user=user, now=now)
    return fairplay.ban_sentence(ban, now) if ban is not None else ""


def _render_home(
    request: HttpRequest, forms: dict[str, RulesForm], status: int = 200
) -> HttpResponse:
    context: dict[str, Any] = dict(forms)
    if request.user.is_authenticated:
        # The lobby's chat socket is the page's one socket: it carries the bell too.
        context["page_socket"] = "page"
        context.update(_match_rows(request.user))
        if not request.user.is_guest:
            context["quick"] = selectors.quickmatch_status(user=request.user)
            context["rated_ban"] = _rated_ban_sentence(request.user)
    return render(request, "home.html", context, status=status)


def home(request: HttpRequest) -> HttpResponse:
    """The lobby: what the site is, the three ways to play, my ongoing matches."""
    return _render_home(request, _lobby_forms())


def _found(row: T | None) -> T:
    """The row a page shows, or a 404."""
    if row is None:
        raise Http404(_("Not found."))
    return row


def _service_error(request: HttpRequest, error: ServiceError) -> HttpResponse:
    messages.error(request, error.message)
    return redirect("games:home")


@require_POST
@limit_guest_creation(page=home)
def play_guest(request: HttpRequest) -> HttpResponse:
    """Play without registering: a guest account is created and signed in, and taken
    back to the lobby, where the guest's one notice and "Play the computer" are on the
    first screen (no message of its own: it would say the same thing twice)."""
    if not request.user.is_authenticated:
        login(request, services.guest_user_create(), backend=GUEST_BACKEND)
    return redirect("games:home")


@require_POST
@limit_match_creation(page=home, may_create_guest=True)
def play_computer(request: HttpRequest) -> HttpResponse:
    """Start a match against the computer; an anonymous visitor plays as a guest."""
    forms = _lobby_forms(request.POST, "computer")
    form = forms["computer_form"]
    if not form.is_valid():
        return _render_home(request, forms, status=400)
    if not request.user.is_authenticated:
        login(request, services.guest_user_create(), backend=GUEST_BACKEND)
    try:
        match = services.match_create_computer(
            user=required_user(request),
            level=form.cleaned_data["level"],
            rules=form.rules(),
            variant=form.cleaned_data["variant"],
        )
    except ServiceError as error:
        return _service_error(request, error)
    table = reverse("games:table", kwargs={"match_id": match.pk})
    # The last lesson's match: the table shows a hint at each of the learner's turns.
    return redirect(table + "?hints=auto" if request.POST.get("hints") == "auto" else table)


def _registered_or_redirect(request: HttpRequest) -> HttpResponse | None:
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={reverse('games:home')}")
    if request.user.is_guest:
        messages.info(request, _("Guests can play the computer. Sign up to play other people."))
        return redirect("games:home")
    return None


@require_POST
@limit_match_creation(page=home)
def play_friend(request: HttpRequest) -> HttpResponse:
    """Create a match waiting for a friend; its page shows the invite link."""
    refused = _registered_or_redirect(request)
    if refused:
        return refused
    forms = _lobby_forms(request.POST, "friend")
    form = forms["friend_form"]
    if not form.is_valid():
        return _render_home(request, forms, status=400)
    try:
        match = services.match_create_invite(
            user=required_user(request), rules=form.rules(), variant=form.cleaned_data["variant"]
        )
    except ServiceError as error:
        return _service_error(request, error)
    return redirect("games:table", match_id=match.pk)


@require_POST
@limit_match_creation(page=home)
def play_quick(request: HttpRequest) -> HttpResponse:
    """Join the quick-match queue: paired at once, or wait on the lobby page."""
    refused = _registered_or_redirect(request)
    if refused:
        return refused
    forms = _lobby_forms(request.POST, "quick")
    form = forms["quick_form"]
    if not form.is_valid():
        return _render_home(request, forms, status=400)
    try:
        match = services.quickmatch_enqueue(
            user=required_user(request), rules=form.rules(), variant=form.cleaned_data["variant"]
        )
    except ServiceError as error:
        return _service_error(request, error)
    if match is not None:
        return redirect("games:table", match_id=match.pk)
    messages.info(request, _("Looking for an opponent with the same settings…"))
    return redirect("games:home")


@require_POST
@login_required
def quick_cancel(request: HttpRequest) -> HttpResponse:
    """Leave the quick-match queue."""
    if services.quickmatch_cancel(user=required_user(request)):
        messages.info(request, _("You left the quick-match queue."))
    return redirect("games:home")


@require_GET
@sign_in_required
@json_route
def quick_status(request: HttpRequest) -> JsonResponse:
    """Polled by the lobby while waiting: idle, waiting, or matched (with its page)."""
    status = selectors.quickmatch_status(user=request.user)
    if status["match_id"] is not None:
        status["url"] = reverse("games:table", kwargs={"match_id": status["match_id"]})
    return JsonResponse(status)


@login_required
def join(request: SignedInRequest, token: str) -> HttpResponse:
    """The invite link: GET shows who invites and the rules; POST takes the seat."""
    match = selectors.match_by_invite(token=token)
    if match is None:
        raise Http404(_("This invitation does not exist."))
    if request.method == "POST":
        try:
            match = services.match_join_invite(user=request.user, token=token)
        except ServiceError as error:
            return _service_error(request, error)
        return redirect("games:table", match_id=match.pk)
    if selectors.seat_for_user(match=match, user=request.user) is not None:
        return redirect("games:table", match_id=match.pk)
    host = selectors.invite_host(match=match)
    closed = match.status == Match.Status.CANCELLED or (
        match.status == Match.Status.WAITING
        and match.created_at <= timezone.now() - services.matches.INVITE_TTL
    )
    return render(
        request,
        "games/join.html",
        {
            "match": match,
            "host": seat_name(host) if host else "a player",
            "summary": rules_summary(match.rules, match.variant),
            "taken": match.status in (Match.Status.ACTIVE, Match.Status.FINISHED),
            "closed": services.matches.invite_closed_sentence(match) if closed else "",
            "guest": request.user.is_guest,
            "rated_ban": _rated_ban_sentence(request.user) if match.rated else "",
        },
    )


def table(request: HttpRequest, match_id: int) -> HttpResponse:
    """The table page; the game state itself arrives over the WebSocket."""
    match = _found(selectors.match_get(match_id=match_id))
    you = selectors.seat_for_user(match=match, user=request.user)
    if match.status == Match.Status.CANCELLED:
        return render(request, "games/invite_closed.html", {"match": match, "you": you})
    invite_url = None
    if match.status == Match.Status.WAITING and match.invite_token and you is not None:
        invite_url = request.build_absolute_uri(
            reverse("games:join", kwargs={"token": match.invite_token})
        )
    config = {
        "matchId": match.pk,
        "userName": request.user.display_name if request.user.is_authenticated else None,
        "wsPath": f"/ws/match/{match.pk}/",
        "matchUrlTemplate": reverse("games:table", kwargs={"match_id": 0}).replace(
            "/0/", "/__ID__/"
        ),
        "dealUrlTemplate": reverse("games:deal", kwargs={"match_id": match.pk, "number": 0})
        .replace("/hand/0/", "/hand/__N__/"),
        # A tournament match's player: once it is over, the table says what comes next
        # and takes them to their next match (table/tournament.js; games/pages.py).
        "tournament": pages.table_part("tournament", match=match, user=request.user, seat=you),
    }
    return render(
        request,
        "games/table.html",
        {
            "match": match,
            "table_config": config,
            "invite_url": invite_url,
            "invite_hours": int(services.matches.INVITE_TTL.total_seconds() // 3600),
            "sheet_url": reverse("games:sheet", kwargs={"match_id": match.pk}),
            "hint_url": pages.table_part("hint_url", match=match, user=request.user, seat=you),
            # A seated player's match socket carries their bell (templates/social/_bell.html).
            "page_socket": "table" if you is not None else None,
        },
    )


@require_POST
@login_required
def cancel_invite(request: HttpRequest, match_id: int) -> HttpResponse:
    """The host withdraws a friend invitation nobody has accepted yet."""
    match = _found(selectors.match_get(match_id=match_id))
    try:
        services.match_cancel_invite(match=match, user=required_user(request))
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("games:table", match_id=match.pk)
    messages.info(request, _("Invitation cancelled: its link no longer works."))
    return redirect("games:my_matches")


@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    """Ongoing matches (resume) and finished ones (score sheet, replays)."""
    return render(request, "games/my_matches.html", _match_rows(request.user))


def _visible_match(request: HttpRequest, match_id: int) -> Match:
    """A match whose record may be read. Anyone may watch a match, so anyone may read
    its finished hands (a spectator saw each showdown); a hand still in play is never
    in the record (``selectors.hand_replay`` refuses it)."""
    return _found(selectors.match_get(match_id=match_id))


def score_sheet(request: HttpRequest, match_id: int) -> HttpResponse:
    """Hand by hand: who dealt, how it ended, the points and the running totals."""
    match = _visible_match(request, match_id)
    sheet = selectors.match_score_sheet(match=match)
    accuracy = pages.sheet_part("accuracy", match=match) or {"hands": {}, "match": None}
    for row in sheet["hands"]:
        row["label"] = RESULT_LABELS.get(row["kind"], row["kind"])
        row["accuracy"] = accuracy["hands"].get(row["number"])
    sheet["accuracy"] = accuracy["match"]
    return render(
        request,
        "games/score_sheet.html",
        {
            "match": match,
            "sheet": sheet,
            "summary": rules_summary(match.rules, match.variant),
            "you": selectors.seat_for_user(match=match, user=request.user),
        },
    )


def _replay_steps(request: HttpRequest, match_id: int, number: int) -> tuple[Match, Hand, list]:
    match = _visible_match(request, match_id)
    hand = _found(selectors.hand_get(match=match, number=number))
    try:
        steps = selectors.hand_replay(hand=hand)
    except ServiceError as error:
        raise Http404(error.message) from error
    return match, hand, steps


def replay(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """One finished hand move by move (both hands shown)."""
    match, hand, steps = _replay_steps(request, match_id, number)
    sheet = selectors.match_score_sheet(match=match)
    # Only a hand played to its end is analysed: for one the match ended in the middle
    # of, the browser is given nothing to ask for, and the page says why.
    finished = hand.result is not None
    return render(
        request,
        "games/replay.html",
        {
            "match": match,
            "hand": hand,
            "replay": {
                "seats": sheet["seats"],
                "steps": steps,
                "number": hand.number,
                "you": selectors.seat_for_user(match=match, user=request.user),
                "review_url": reverse("analysis:hand_review", args=[match.pk, hand.number])
                if finished
                else None,
            },
            "no_review": "" if finished else _unfinished_hand_sentence(match),
            "numbers": [row["number"] for row in sheet["hands"]],
            "sheet_url": reverse("games:sheet", kwargs={"match_id": match.pk}),
        },
    )


UNFINISHED_BY: dict[str, str] = {
    Match.EndReason.RESIGN: "by resignation",
    Match.EndReason.ABANDON: "by abandonment",
    Match.EndReason.SUSPENDED: "when a player's account was suspended",
}


def _unfinished_hand_sentence(match: Match) -> str:
    """Why the replayed hand has no analysis: the match ended during it."""
    how = UNFINISHED_BY.get(match.end_reason)
    ended = f"the match ended {how} during it" if how else "the match ended during it"
    return f"This hand did not finish: {ended}, so it has no analysis."


@require_GET
@json_route
def deal(request: HttpRequest, match_id: int, number: int) -> JsonResponse:
    """The dealt cards of a finished hand, for the browser's deal verification."""
    _match, hand, steps = _replay_steps(request, match_id, number)
    views = steps[0]["views"]
    return JsonResponse(
        {
            "number": hand.number,
            "dealer": hand.dealer,
            "commitment": hand.seed_hash,
            "upcard": views[0]["upcard"],
            "hands": [views[0]["hand"], views[1]["hand"]],
        }
    )


@login_required
@require_POST
def vacation(request: SignedInRequest) -> HttpResponse:
    """Start a vacation from correspondence matches (``days``), or end it (``end``)."""
    try:
        if request.POST.get("end"):
            correspondence.vacation_end(user=request.user)
            messages.success(request, gettext("Your vacation is over: your clocks run again."))
        else:
            days = request.POST.get("days", "")
            correspondence.vacation_take(
                user=request.user, days=int(days) if days.isdigit() else 0
            )
            messages.success(request, gettext("You are on vacation: your clocks are stopped."))
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("accounts:settings")
