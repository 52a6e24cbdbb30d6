"""Friend invitations that nobody answers: the host cancels one (from its waiting page
or My matches), or it expires after ``INVITE_TTL`` (a periodic job). Either way its
link stops working, with a sentence that says why, and it no longer shows as a match
"In progress"."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.errors import InviteClosedError, InviteNotFoundError, NotAPlayerError
from games.models import Match
from games.services.matches import INVITE_TTL
from tests.factories import create_user

pytestmark = pytest.mark.django_db


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def in_progress(html: str) -> str:
    return html.split("In progress", 1)[1].split("Finished", 1)[0]


def test_the_host_cancels_a_waiting_invite_from_my_matches() -> None:
    host, friend = create_user("hana"), create_user("fred")
    match = services.match_create_invite(user=host)
    host_browser = client_of(host)
    html = host_browser.get(reverse("games:my_matches")).content.decode()
    cancel = reverse("games:cancel_invite", kwargs={"match_id": match.pk})
    assert f'action="{cancel}"' in in_progress(html)
    # The waiting page offers it too.
    table = host_browser.get(reverse("games:table", kwargs={"match_id": match.pk}))
    assert f'action="{cancel}"' in table.content.decode()
    assert "the link works for 24 hours" in table.content.decode()

    response = host_browser.post(cancel, follow=True)
    assert "Invitation cancelled: its link no longer works." in response.content.decode()
    match.refresh_from_db()
    assert (match.status, match.end_reason) == ("cancelled", "cancelled")
    html = host_browser.get(reverse("games:my_matches")).content.decode()
    assert "No match in progress." in html and "waiting" not in in_progress(html)
    # The link and the table say what happened; nobody can take the seat.
    join = reverse("games:join", kwargs={"token": match.invite_token})
    friend_browser = client_of(friend)
    page = friend_browser.get(join).content.decode()
    assert "This invitation was cancelled by the player who sent it." in page
    with pytest.raises(InviteNotFoundError, match="cancelled by the player who sent it"):
        services.match_join_invite(user=friend, token=match.invite_token)
    table = host_browser.get(reverse("games:table", kwargs={"match_id": match.pk}))
    assert "This invitation was cancelled" in table.content.decode()
    # Cancelling again changes nothing.
    assert services.match_cancel_invite(match=match, user=host).status == "cancelled"


def test_only_the_host_cancels_and_only_while_nobody_has_joined() -> None:
    host, friend = create_user("ivy"), create_user("jon")
    match = services.match_create_invite(user=host)
    with pytest.raises(NotAPlayerError):
        services.match_cancel_invite(match=match, user=friend)
    response = client_of(friend).post(reverse("games:cancel_invite", kwargs={"match_id": match.pk}))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == "waiting"
    services.match_join_invite(user=friend, token=match.invite_token)
    with pytest.raises(InviteClosedError, match="already joined"):
        services.match_cancel_invite(match=match, user=host)
    match.refresh_from_db()
    assert match.status == "active"


def test_unanswered_invites_expire_after_a_day() -> None:
    host, friend = create_user("kim"), create_user("lou")
    assert INVITE_TTL == timedelta(hours=24)
    old = services.match_create_invite(user=host)
    fresh = services.match_create_invite(user=host)
    joined = services.match_create_invite(user=host)
    services.match_join_invite(user=friend, token=joined.invite_token)
    now = timezone.now()
    Match.objects.filter(pk__in=[old.pk, joined.pk]).update(created_at=now - INVITE_TTL)
    Match.objects.filter(pk=fresh.pk).update(created_at=now - INVITE_TTL + timedelta(minutes=1))

    # Past the limit and not yet swept: the link already refuses.
    with pytest.raises(InviteNotFoundError, match="expired"):
        services.match_join_invite(user=friend, token=old.invite_token)
    assert services.invites_expire(now=now) == 1
    assert services.invites_expire(now=now) == 0  # idempotent
    statuses = dict(Match.objects.values_list("pk", "status"))
    assert (statuses[old.pk], statuses[fresh.pk], statuses[joined.pk]) == (
        "cancelled", "waiting", "active")
    assert Match.objects.get(pk=old.pk).end_reason == "expired"
    html = client_of(host).get(reverse("games:my_matches")).content.decode()
    assert in_progress(html).count("waiting for an opponent") == 1  # the fresh one
    page = client_of(friend).get(reverse("games:join", kwargs={"token": old.invite_token}))
    assert "This invitation has expired: ask your friend for a new link." in page.content.decode()
    table = client_of(host).get(reverse("games:table", kwargs={"match_id": old.pk}))
    assert "This invitation has expired" in table.content.decode()


def test_expiry_runs_with_the_periodic_jobs() -> None:
    tasks = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert tasks["games.invites_expire"] <= 3600
