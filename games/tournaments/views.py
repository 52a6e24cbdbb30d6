"""Pages of the tournaments app. Thin: parse, call one service or selector, render."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ginsite.errors import AppError
from ginsite.http import SignedInRequest

from . import selectors, services
from .forms import TournamentForm
from .models import Format, Tournament


def tournament_list(request: HttpRequest) -> HttpResponse:
    """Upcoming, live and finished tournaments; the creation form for players."""
    form = TournamentForm() if request.user.is_authenticated and not request.user.is_guest \
        else None
    return render(request, "tournaments/list.html",
                  {"lists": selectors.tournament_lists(user=request.user), "form": form})


@require_POST
@login_required
def tournament_new(request: SignedInRequest) -> HttpResponse:
    form = TournamentForm(request.POST)
    status = 400
    if form.is_valid():
        try:
            tournament = services.tournament_create_and_join(user=request.user,
                                                             **form.service_kwargs())
        except AppError as error:
            form.add_error(None, error.message)
            status = error.status
        else:
            return redirect(_url(tournament))
    return render(request, "tournaments/list.html",
                  {"lists": selectors.tournament_lists(user=request.user), "form": form},
                  status=status)


def _url(tournament: Tournament) -> str:
    url = reverse("tournaments:detail", args=[tournament.pk])
    return f"{url}?invite={tournament.invite_token}" if tournament.invite_token else url


def _visible(request: HttpRequest, tournament_id: int) -> tuple[Tournament, str | None]:
    tournament = selectors.tournament_get(tournament_id=tournament_id)
    token = request.GET.get("invite") or request.POST.get("invite") or None
    if tournament is None or not selectors.can_view(
        tournament=tournament, user=request.user, token=token
    ):
        raise Http404(_("No such tournament."))
    return tournament, token


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Standings (live over /ws/tournament/<id>/), the viewer's match, Swiss rounds,
    live matches, the podium."""
    tournament, token = _visible(request, tournament_id)
    mine = selectors.my_entry(tournament=tournament, user=request.user)
    invite_url = (request.build_absolute_uri(_url(tournament))
                  if tournament.invite_token and (mine or request.user.is_staff) else None)
    ws_path = f"/ws/tournament/{tournament.pk}/" + (f"?token={token}" if token else "")
    # Computed once per version (and the page's rows and current pairings are
    # rendered once per version: the template's cached fragments).
    standings = selectors.standings_message(tournament)
    rounds = selectors.rounds(tournament) if tournament.format == Format.SWISS else []
    return render(request, "tournaments/detail.html", {
        "t": tournament, "token": token, "mine": mine, "invite_url": invite_url,
        "standings": standings["rows"], "live": standings["live"],
        "rounds": rounds, "current_pairings": standings["pairings"],
        "podium": selectors.podium(tournament),
        # The page's one socket carries the bell too (templates/social/_bell.html).
        "page_socket": "page",
        "config": {"wsPath": ws_path, "format": tournament.format,
                   # A round's fragment, "0" standing for its number (tournament.js).
                   "roundUrl": reverse("tournaments:round", args=[tournament.pk, 0])
                   + (f"?invite={token}" if token else ""),
                   "userName": request.user.username if request.user.is_authenticated
                   else None},
    })


def tournament_round(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """One Swiss round's pairings, an HTML fragment (the page shows the current round
    and fetches an earlier one when its section is opened)."""
    tournament, _token = _visible(request, tournament_id)
    pairings = selectors.round_pairings(tournament=tournament, number=number)
    if not pairings:
        raise Http404(_("No such round."))
    return render(request, "tournaments/_pairings.html", {"pairings": pairings})


def _act(request: SignedInRequest, tournament_id: int, action, done: str) -> HttpResponse:
    tournament, token = _visible(request, tournament_id)
    try:
        if action is services.tournament_join:
            action(tournament=tournament, user=request.user, token=token)
        else:
            action(tournament=tournament, user=request.user)
    except AppError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done)
    return redirect(_url(tournament))


@require_POST
@login_required
def join(request: SignedInRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, services.tournament_join,
                "You are in. Keep this page open: it takes you to your match when it is ready.")


@require_POST
@login_required
def withdraw(request: SignedInRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, services.tournament_withdraw,
                "You left the tournament.")


@require_POST
@login_required
def pause(request: SignedInRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, services.tournament_pause,
                "Paused: you will not be paired until you press Resume.")


def watch(request: HttpRequest) -> HttpResponse:
    """Live matches now, tournament matches and the highest rated first; each opens in
    the spectator view of the table."""
    return render(request, "tournaments/watch.html",
                  {"matches": selectors.watch_matches()})
