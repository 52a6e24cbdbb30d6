"""Tournament pages and the tournament socket: the list with its sections and the
creation form, joining, the tournament page (standings, the viewer's match), the
Watch page, profile results, the admin's cancel and removal with the audit trail, and
the live socket (standings after a result, ``match_ready`` to the paired players).
Hidden information: neither the Watch page nor the tournament socket ever shows a
card of a hand in play."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connections
from django.urls import reverse
from django.utils import timezone

from games.engine import HandState
from games.models import Hand, Match, RatedPlayBan
from games.services import match_resign
from games.tournaments import services
from games.tournaments.models import Entrant, Pairing, Tournament, TournamentEvent
from tests.chat.helpers import receive_type, ws_connect
from tests.factories import create_tournament, create_user
from tests.security.secrets import visible_cards


def _live_arena(users, **fields):
    """A staff arena, "Evening Arena", started with ``users`` in it."""
    return create_tournament("arena", users, name="Evening Arena", start=True, **fields)


def _concealed_cards(match_ids):
    """Every card nobody at the table may see yet: both hands and the stock."""
    cards = set()
    for hand in Hand.objects.filter(match_id__in=match_ids, finished_at__isnull=True):
        state = HandState.from_dict(hand.state)
        cards |= {str(c) for c in state.stock}
        for seat in (0, 1):
            cards |= {str(c) for c in state.hands[seat]}
    return cards


@pytest.mark.django_db
def test_list_create_join_and_the_tournament_page(client):
    ann = create_user("ann")
    client.force_login(ann)
    page = client.get(reverse("tournaments:list"))
    assert page.status_code == 200
    for section in ("Live now", "Upcoming", "Finished", "Create a tournament"):
        assert section in page.content.decode()
    refused = client.post(reverse("tournaments:new"), {
        "name": "Too big", "format": "arena", "starts_in": 10, "duration_minutes": 30,
        "rounds": 3, "round_minutes": 30, "variant": "default", "target_score": 50,
        "turn_seconds": 30, "max_players": 1000, "public": "on"})
    assert refused.status_code == 400 and not Tournament.objects.exists()
    created = client.post(reverse("tournaments:new"), {
        "name": "Friday Swiss", "format": "swiss", "starts_in": 10, "duration_minutes": 30,
        "rounds": 3, "round_minutes": 30, "variant": "default", "target_score": 100,
        "turn_seconds": 30, "max_players": 16})
    t = Tournament.objects.get()
    assert not t.public and t.target_score == 100
    assert created["Location"].endswith(f"?invite={t.invite_token}")
    assert Entrant.objects.filter(tournament=t, user=ann).exists()  # the creator is in
    bob = create_user("bob")
    client.force_login(bob)
    detail = reverse("tournaments:detail", args=[t.pk])
    assert client.get(detail).status_code == 404  # private, no invite
    assert client.get(f"{detail}?invite={t.invite_token}").status_code == 200
    client.post(reverse("tournaments:join", args=[t.pk]), {"invite": t.invite_token})
    assert Entrant.objects.filter(tournament=t, user=bob).exists()
    page = client.get(f"{detail}?invite={t.invite_token}").content.decode()
    assert "ann" in page and "bob" in page and "Withdraw" in page


@pytest.mark.django_db
def test_paired_player_sees_the_match_prompt_and_the_watch_page_lists_it_first(client):
    ann, bob = create_user("ann"), create_user("bob")
    carl, dora = create_user("carl"), create_user("dora")
    from games.services.matches import create_started_match, rules_for

    casual = create_started_match(kind=Match.Kind.QUICK, variant="default",
                                  rules=rules_for(variant="default", rules=None), rated=True,
                                  players=[carl, dora])
    t = _live_arena([ann, bob])
    pairing = Pairing.objects.get(tournament=t)
    client.force_login(ann)
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert 'id="match-ready" class="t-ready" role="alert" >' in page  # not hidden
    assert reverse("games:table", args=[pairing.match_id]) in page
    watch = client.get(reverse("tournaments:watch")).content.decode()
    first = watch.index(reverse("games:table", args=[pairing.match_id]))
    assert first < watch.index(reverse("games:table", args=[casual.pk]))
    assert "Evening Arena" in watch
    # Hidden information: no card of either hand, nor of the stock, on the Watch page.
    shown = set(re.findall(r"\b[A2-9TJQK][CDHS]\b", watch))
    assert not shown & _concealed_cards([pairing.match_id, casual.pk])


@pytest.mark.django_db
def test_profile_lists_results_and_admin_cancel_and_remove_leave_an_audit_trail(client):
    ann, bob = create_user("ann"), create_user("bob")
    t = _live_arena([ann, bob], duration_minutes=30)
    pairing = Pairing.objects.select_related("seat1__user").get(tournament=t)
    match_resign(match=pairing.match, user=pairing.seat1.user)
    later = timezone.now() + timedelta(minutes=31)
    services.tournament_progress(tournament_id=t.pk, now=later)
    services.tournament_progress(tournament_id=t.pk, now=later)
    profile = client.get(reverse("accounts:profile", args=[pairing.seat0.user.username]))
    assert "Evening Arena" in profile.content.decode() and "rank 1" in profile.content.decode()
    staff = create_user("staff", is_staff=True, is_superuser=True)
    client.force_login(staff)
    other = _live_arena([create_user("cat"), create_user("dan"), create_user("eve")])
    entrant = Entrant.objects.get(tournament=other, user__username="eve")
    client.post(reverse("admin:tournaments_entrant_changelist"),
                {"action": "remove", "_selected_action": [entrant.pk]})
    client.post(reverse("admin:tournaments_tournament_changelist"),
                {"action": "cancel", "_selected_action": [other.pk]})
    other.refresh_from_db()
    assert other.status == "cancelled"
    assert Entrant.objects.get(pk=entrant.pk).status == "removed"
    kinds = list(TournamentEvent.objects.filter(tournament=other).values_list("kind", "actor"))
    assert ("removed", staff.pk) in kinds and ("cancelled", staff.pk) in kinds
    admin_page = client.get(reverse("admin:tournaments_tournament_change", args=[other.pk]))
    assert "audit trail" in admin_page.content.decode().lower()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_socket_sends_standings_after_a_result_and_match_ready_without_cards():
    ann, bob, spectator = [await database_sync_to_async(create_user)(n)
                           for n in ("ann", "bob", "sam")]
    t = await database_sync_to_async(create_tournament)("arena", [ann, bob], name="Socket Arena")
    path = f"/ws/tournament/{t.pk}/"
    try:
        ann_ws = await ws_connect(ann, path)
        watcher = await ws_connect(spectator, path)
        first = await receive_type(watcher, "standings")
        await receive_type(ann_ws, "standings")
        assert first["status"] == "scheduled" and {r["player"] for r in first["rows"]} == {
            "ann", "bob"}
        await database_sync_to_async(services.tournament_progress)(tournament_id=t.pk)
        ready = await receive_type(ann_ws, "match_ready")
        match_id = ready["match_id"]
        assert ready["url"] == reverse("games:table", args=[match_id])
        live = await receive_type(watcher, "standings")
        while live["status"] != "live" or not live["live"]:
            live = await receive_type(watcher, "standings")
        concealed = await database_sync_to_async(_concealed_cards)([match_id])
        assert not visible_cards(live) & concealed and not visible_cards(ready) & concealed
        # Bob's page (re)connects after the start: his match comes right after the
        # standings, so the page takes him to the table even though he missed the news.
        bob_ws = await ws_connect(bob, path)
        assert (await bob_ws.receive_json_from(timeout=5))["type"] == "standings"
        assert await bob_ws.receive_json_from(timeout=5) == ready
        await bob_ws.disconnect()
        match = await database_sync_to_async(Match.objects.get)(pk=match_id)
        await database_sync_to_async(match_resign)(match=match, user=bob)
        after = await receive_type(watcher, "standings")
        while not any(r["points"] for r in after["rows"]):
            after = await receive_type(watcher, "standings")
        top = after["rows"][0]
        assert (top["player"], top["points"], top["wins"]) == ("ann", 2, 1)
        # The next pairing pass (here by hand) shows the new match in the live list.
        await database_sync_to_async(services.arena_pair)(tournament_id=t.pk)
        rematch = (await receive_type(ann_ws, "match_ready"))["match_id"]
        paired = await receive_type(watcher, "standings")
        while rematch not in [m["match_id"] for m in paired["live"]]:
            paired = await receive_type(watcher, "standings")
        await ann_ws.disconnect()
        await watcher.disconnect()
    finally:
        await database_sync_to_async(connections.close_all)()


def _ranking_reads(queries) -> int:
    """Statements that read the entrants' points (the ranking of the standings)."""
    return sum('"tournaments_entrant"."points"' in q["sql"] for q in queries.captured_queries)


@pytest.mark.django_db
def test_standings_are_ranked_once_per_version_and_a_result_shows_at_once(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.tournaments import selectors

    ann, bob = create_user("ann"), create_user("bob")
    t = _live_arena([ann, bob], duration_minutes=30)
    url = reverse("tournaments:detail", args=[t.pk])
    assert client.get(url).status_code == 200
    with CaptureQueriesContext(connection) as again:
        for _ in range(3):
            assert client.get(url).status_code == 200
        opening = selectors.standings_text(Tournament.objects.get(pk=t.pk))
    assert _ranking_reads(again) == 0, "the same version is not ranked again"
    assert '"points": 0' in opening
    pairing = Pairing.objects.select_related("match").get(tournament=t)
    match_resign(match=pairing.match, user=bob)
    page = client.get(url).content.decode()
    row = re.search(r'<tbody id="standings-body">\s*<tr[^>]*><td>1</td><td>(\w+)</td>'
                    r"<td>(\d+)</td>", page)
    assert row and row.groups() == ("ann", "2")  # the new version, not the cached one


@pytest.mark.django_db
def test_a_swiss_page_lists_the_current_round_and_fetches_earlier_ones_on_demand(client):
    players = [create_user(f"p{i}") for i in range(6)]
    t = create_tournament("swiss", players, name="Club Swiss", rounds=3, public=False, start=True)
    round1 = list(Pairing.objects.filter(tournament=t, round=1).select_related(
        "match", "seat0__user", "seat1__user"))
    for pairing in round1:
        match_resign(match=pairing.match, user=pairing.seat1.user)
    assert services.tournament_progress(tournament_id=t.pk) == "round 2"
    round2 = list(Pairing.objects.filter(tournament=t, round=2).select_related(
        "seat0__user", "seat1__user"))
    client.force_login(players[0])
    detail = reverse("tournaments:detail", args=[t.pk])
    page = client.get(f"{detail}?invite={t.invite_token}").content.decode()
    pairings = page[page.index('id="rounds-title"'):]
    for p in round2:  # in play: each with its match to watch
        assert f"{p.seat0.user.username}</span> – <span>{p.seat1.user.username}" in pairings
        assert reverse("games:table", args=[p.match_id]) in pairings
    round_url = reverse("tournaments:round", args=[t.pk, 1])
    assert "1–0" not in pairings and f'data-round-url="{round_url}?invite=' in pairings
    earlier = client.get(f"{round_url}?invite={t.invite_token}")
    assert earlier.status_code == 200
    for p in round1:  # seat 1 resigned: seat 0 won
        assert (f'<span class="t-won">{p.seat0.user.username}</span> – '
                f"<span>{p.seat1.user.username}</span>") in earlier.content.decode()
    assert earlier.content.decode().count("1–0") == 3
    client.logout()
    assert client.get(round_url).status_code == 404  # private: the invite is needed
    assert client.get(reverse("tournaments:round", args=[t.pk, 7])).status_code == 404


@pytest.mark.django_db
def test_the_podium_counts_points_in_the_singular_and_the_plural(client):
    """A Swiss of two rounds and three players: the winner has 2 points, the others
    1 each ("1 point", never "1 pts")."""
    users = [create_user(name) for name in ("ann", "ben", "cid")]
    now = timezone.now()
    t = create_tournament("swiss", users, name="Small Swiss", rounds=2, start=True, now=now)
    for number in (1, 2):
        for p in Pairing.objects.filter(tournament=t, round=number, seat1__isnull=False):
            match_resign(match=p.match, user=p.seat1.user)
        services.tournament_progress(tournament_id=t.pk, now=now)
    assert Tournament.objects.get(pk=t.pk).status == "finished"
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    places = re.findall(r'<span class="t-podium__name">(\w+)</span><span>([^<]*)</span>',
                        page)
    assert sorted(points for _name, points in places) == ["1 point", "1 point", "2 points"]


@pytest.mark.django_db
def test_a_banned_player_creating_a_tournament_reads_why_and_no_tournament_is_left(client):
    dan = create_user("dan")
    now = timezone.now()
    RatedPlayBan.objects.create(user=dan, offence=1, abandonments=3, starts_at=now,
                                until=now + timedelta(minutes=15))
    client.force_login(dan)
    refused = client.post(reverse("tournaments:new"), {
        "name": "Dan's Arena", "format": "arena", "starts_in": 10, "duration_minutes": 30,
        "rounds": 3, "round_minutes": 30, "variant": "default", "target_score": 50,
        "turn_seconds": 30, "max_players": 16, "public": "on"})
    assert refused.status_code == 403
    assert "rated play is closed to you" in refused.content.decode()
    assert not Tournament.objects.exists() and not Entrant.objects.exists()


@pytest.mark.django_db
def test_arena_standings_rank_equal_points_by_fewer_losses_and_say_so(client):
    """Two players on 4 points: 2–0 ranks above 2–1 (whatever their ratings), and the
    page says how equal points are ordered."""
    one, zero, last = create_user("twoone"), create_user("twozero"), create_user("last")
    t = _live_arena([one, zero, last])
    Entrant.objects.filter(tournament=t, user=one).update(points=4, wins=2, losses=1,
                                                           rating=1900)
    Entrant.objects.filter(tournament=t, user=zero).update(points=4, wins=2, losses=0,
                                                            rating=1400)
    Tournament.objects.filter(pk=t.pk).update(standings_version=t.standings_version + 1)
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    order = re.findall(r'<tr data-player="(\w+)">', page)
    assert order == ["twozero", "twoone", "last"]
    assert "Equal points: fewer losses first, then the higher rating at entry." in page


@pytest.mark.django_db
def test_a_finished_tournament_offers_no_joining_and_no_live_dot_and_counts_rounds(client):
    """A finished Swiss of one round, seen by a visitor: no "Sign in to join", no live
    dot, "1 round" (never "1 rounds") on its page and in the list; the list page does
    not tell a visitor to "create one below" where no form is."""
    users = [create_user(name) for name in ("ann", "ben")]
    now = timezone.now()
    t = create_tournament("swiss", users, name="One Rounder", rounds=1, start=True, now=now)
    (pairing,) = Pairing.objects.filter(tournament=t)
    match_resign(match=pairing.match, user=pairing.seat1.user)
    services.tournament_progress(tournament_id=t.pk, now=now)
    assert Tournament.objects.get(pk=t.pk).status == "finished"
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "Sign in to join" not in page and 'id="t-socket"' not in page
    assert "Swiss, 1 round (" in page and "1 rounds" not in page
    listing = client.get(reverse("tournaments:list")).content.decode()
    assert "1 round " in listing and "1 rounds" not in listing
    assert "create one below" not in listing
    assert "Registered players create tournaments here" in listing
    client.force_login(create_user("cid"))
    listing = client.get(reverse("tournaments:list")).content.decode()
    assert "create one below" in listing and "Create a tournament" in listing


@pytest.mark.django_db
def test_a_live_arena_shows_the_time_left_and_its_standings_carry_the_end(client):
    t = _live_arena([create_user("ann"), create_user("bob")], duration_minutes=30)
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert f'ends <time datetime="{t.ends_at:%Y-%m-%dT%H:%M:%S}' in page
    assert "Sign in to join" in page and 'id="t-socket"' in page  # still open to join
    from games.tournaments import selectors

    assert selectors.standings_message(t)["ends_at"] == t.ends_at.isoformat()
