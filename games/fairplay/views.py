"""The one page action of fair play for players: dismissing a notice of a moderator's
decision (the form of templates/fairplay/_notices.html). Parse, call the service,
go back to the page the notice was read on."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from ginsite.http import required_user

from . import services


@require_POST
@login_required
def notice_read(request: HttpRequest, notice_id: int) -> HttpResponse:
    services.notice_dismiss(user=required_user(request), notice_id=notice_id)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back = "/"
    return HttpResponseRedirect(back)
