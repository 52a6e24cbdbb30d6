"""The HTTP pages with Django's test client on PostgreSQL: lobby, playing as a
guest, creating and joining matches, quick match, my matches, score sheets,
replays and the deal a browser re-checks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import RuleSet, deal_cards
from games.forms import ComputerMatchForm, RulesForm
from games.models import Match, Seat
from tests.factories import create_match, create_user
from tests.games.helpers import play_out, play_until_hand

pytestmark = pytest.mark.django_db

RULES_DEFAULTS = {
    "variant": "default", "target_score": "100", "knock_limit": "10", "turn_seconds": "30",
    "gin_bonus": "25", "undercut_bonus": "25", "big_gin_bonus": "31", "game_bonus": "100",
    "line_bonus": "25", "big_gin_allowed": "on", "shutout": "on",
}


def lobby_post(prefix: str, **changes: str) -> dict[str, str]:
    data = {**RULES_DEFAULTS, **changes}
    return {f"{prefix}-{key}": value for key, value in data.items() if value is not None}


def signed_in(name: str, *, guest: bool = False) -> tuple[Client, Any]:
    user = create_user(name, guest=guest)
    client = Client()
    client.force_login(user)
    return client, user


def table_config(response: Any) -> dict:
    html = response.content.decode()
    start = html.index('<script id="table-config" type="application/json">') + len(
        '<script id="table-config" type="application/json">'
    )
    return json.loads(html[start:html.index("</script>", start)])


# --- lobby forms -------------------------------------------------------------------------


def form_rules(form_class: type[RulesForm], **changes: str) -> RuleSet:
    form = form_class({**RULES_DEFAULTS, "level": "easy", **changes})
    assert form.is_valid(), form.errors
    return form.rules()


def test_rules_form_builds_each_variant() -> None:
    assert form_rules(RulesForm) == RuleSet.default()
    assert form_rules(RulesForm, variant="time_freedom") == RuleSet.time_freedom()
    assert form_rules(RulesForm, variant="straight") == RuleSet.straight_gin()
    assert form_rules(RulesForm, variant="oklahoma") == RuleSet.oklahoma_gin()


def test_rules_form_applies_the_options() -> None:
    rules = form_rules(
        ComputerMatchForm, target_score="50", knock_limit="4", turn_seconds="60",
        gin_bonus="20", game_bonus="50", line_bonus="10", big_gin_allowed="", shutout="",
    )
    assert (rules.target_score, rules.knock_limit, rules.turn_seconds) == (50, 4, 60)
    assert (rules.gin_bonus, rules.game_bonus, rules.line_bonus) == (20, 50, 10)
    assert not rules.big_gin_allowed and not rules.shutout
    # Straight Gin never knocks and pays no gin bonus, whatever the form says.
    straight = form_rules(RulesForm, variant="straight", knock_limit="7", gin_bonus="40")
    assert (straight.knock_limit, straight.gin_bonus) == (0, 0)
    okla = form_rules(RulesForm, variant="oklahoma", oklahoma_ace_gin_only="on")
    assert okla.oklahoma and okla.oklahoma_ace_gin_only


@pytest.mark.parametrize(
    ("field", "value"),
    [("target_score", "75"), ("knock_limit", "11"), ("turn_seconds", "5"), ("gin_bonus", "-1")],
)
def test_rules_form_refuses_bad_values(field: str, value: str) -> None:
    form = RulesForm({**RULES_DEFAULTS, field: value})
    assert not form.is_valid()
    assert field in form.errors


# --- home and guests -----------------------------------------------------------------------


def test_home_explains_the_site_and_offers_the_three_ways_to_play() -> None:
    response = Client().get("/")
    assert response.status_code == 200
    html = response.content.decode()
    for text in ("Play the computer", "Play a friend", "Quick match", "Play as guest"):
        assert text in html
    assert reverse("games:play_computer") in html


def test_play_as_guest_signs_in_a_guest_who_is_offered_to_sign_up() -> None:
    client = Client()
    response = client.post(reverse("games:play_guest"), follow=True)
    user = response.context["user"]
    assert user.is_authenticated and user.is_guest
    assert "You are playing as a guest" in response.content.decode()
    assert reverse("account_signup") in response.content.decode()


def test_anonymous_visitor_plays_the_computer_as_a_guest() -> None:
    client = Client()
    response = client.post(
        reverse("games:play_computer"),
        lobby_post("computer", level="hard", target_score="50", knock_limit="5"),
    )
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", kwargs={"match_id": match.pk})
    assert match.status == Match.Status.ACTIVE and not match.rated
    assert (match.rules["target_score"], match.rules["knock_limit"]) == (50, 5)
    human = Seat.objects.get(match=match, user__isnull=False)
    bot = Seat.objects.get(match=match, user__isnull=True)
    assert human.user.is_guest and bot.bot_level == "hard"

    page = client.get(response["Location"])
    assert page.status_code == 200
    config = table_config(page)
    assert config["matchId"] == match.pk
    assert config["wsPath"] == f"/ws/match/{match.pk}/"


def test_invalid_lobby_form_changes_nothing_and_says_why() -> None:
    response = Client().post(
        reverse("games:play_computer"), lobby_post("computer", level="impossible")
    )
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not Match.objects.exists()


# --- friends and quick match ---------------------------------------------------------------


def test_guest_cannot_invite_a_friend() -> None:
    client, _guest = signed_in("guest-aaaaaa", guest=True)
    response = client.post(reverse("games:play_friend"), lobby_post("friend"), follow=True)
    assert "Sign up to play other people" in response.content.decode()
    assert not Match.objects.exists()


def test_anonymous_visitor_must_sign_in_to_invite() -> None:
    response = Client().post(reverse("games:play_friend"), lobby_post("friend"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert not Match.objects.exists()


def test_invite_link_is_shown_and_the_friend_joins_through_it() -> None:
    host_client, _host = signed_in("alice")
    response = host_client.post(
        reverse("games:play_friend"), lobby_post("friend", variant="time_freedom")
    )
    match = Match.objects.get()
    assert match.status == Match.Status.WAITING
    page = host_client.get(response["Location"])
    join_url = reverse("games:join", kwargs={"token": match.invite_token})
    assert f"http://testserver{join_url}" in page.content.decode()

    friend_client, friend = signed_in("bob")
    invitation = friend_client.get(join_url)
    assert invitation.status_code == 200
    assert "alice invites you" in invitation.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.WAITING  # opening the link alone changes nothing

    joined = friend_client.post(join_url)
    assert joined["Location"] == reverse("games:table", kwargs={"match_id": match.pk})
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert Seat.objects.filter(match=match, user=friend).exists()
    # Opening the link again goes straight to the table.
    again = friend_client.get(join_url)
    assert again["Location"] == reverse("games:table", kwargs={"match_id": match.pk})


def test_join_link_sends_anonymous_visitors_to_sign_in() -> None:
    alice = create_user("alice")
    match = services.match_create_invite(user=alice, rules=None, variant="default")
    response = Client().get(reverse("games:join", kwargs={"token": match.invite_token}))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_unknown_invite_is_not_found() -> None:
    client, _user = signed_in("bob")
    assert client.get(reverse("games:join", kwargs={"token": "nope"})).status_code == 404


def test_quick_match_pairs_two_players_and_the_waiting_one_finds_the_table(
) -> None:
    first_client, _first = signed_in("carol")
    waiting = first_client.post(
        reverse("games:play_quick"), lobby_post("quick", target_score="50"), follow=True
    )
    assert "Looking for an opponent" in waiting.content.decode()
    status = first_client.get(reverse("games:quick_status")).json()
    assert status == {"state": "waiting", "match_id": None}

    second_client, _second = signed_in("dave")
    paired = second_client.post(reverse("games:play_quick"), lobby_post("quick", target_score="50"))
    match = Match.objects.get()
    assert paired["Location"] == reverse("games:table", kwargs={"match_id": match.pk})
    status = first_client.get(reverse("games:quick_status")).json()
    assert status["url"] == reverse("games:table", kwargs={"match_id": match.pk})
    assert match.rated


def test_quick_match_cancel_leaves_the_queue() -> None:
    client, _user = signed_in("erin")
    client.post(reverse("games:play_quick"), lobby_post("quick"))
    client.post(reverse("games:quick_cancel"))
    assert client.get(reverse("games:quick_status")).json()["state"] == "idle"


# --- my matches, score sheet, replays ----------------------------------------------------------


def test_my_matches_lists_ongoing_and_finished() -> None:
    client, user = signed_in("frank")
    ongoing = create_match(user, "easy")
    finished = services.match_resign(match=create_match(user, "easy"), user=user)
    response = client.get(reverse("games:my_matches"))
    html = response.content.decode()
    resume = reverse("games:table", kwargs={"match_id": ongoing.pk})
    sheet = reverse("games:sheet", kwargs={"match_id": finished.pk})
    assert resume in html and sheet in html
    ongoing_part, finished_part = html.split("Finished", 1)
    assert resume in ongoing_part and sheet in finished_part
    assert "lost" in finished_part and "resigned" in finished_part


def test_score_sheet_shows_every_hand_with_running_totals_and_bonuses(
) -> None:
    client, user = signed_in("grace")
    match = create_match(user, "easy", rules=RuleSet.default().replace(target_score=50))
    match = play_out(match, random.Random(5))
    response = client.get(reverse("games:sheet", kwargs={"match_id": match.pk}))
    assert response.status_code == 200
    sheet = response.context["sheet"]
    html = response.content.decode()
    assert len(sheet["hands"]) == match.hands.count()
    for row in sheet["hands"]:
        replay = reverse("games:replay", kwargs={"match_id": match.pk, "number": row["number"]})
        assert replay in html
    final = sheet["final"]
    assert f'<td class="num">{final["totals"][0]}</td>' in html
    assert "Game bonus" in html and "Line bonus" in html


def test_replay_steps_through_every_move_of_a_hand() -> None:
    client, user = signed_in("heidi")
    match = create_match(user, "easy")
    play_until_hand(match, 2, random.Random(7))
    response = client.get(reverse("games:replay", kwargs={"match_id": match.pk, "number": 1}))
    assert response.status_code == 200
    steps = response.context["replay"]["steps"]
    hand = match.hands.get(number=1)
    assert len(steps) == hand.moves.count() + 1
    assert steps[0]["move"] is None and steps[-1]["views"][0]["result"] == hand.result


def test_a_hand_in_play_cannot_be_replayed_or_redealt() -> None:
    client, user = signed_in("ivan")
    match = create_match(user, "easy")
    for name in ("games:replay", "games:deal"):
        url = reverse(name, kwargs={"match_id": match.pk, "number": 1})
        assert client.get(url).status_code == 404


def test_spectators_read_only_the_finished_hands_of_a_match_in_progress(
) -> None:
    """The table's "Score sheet" button works for a spectator (it was a 404): the
    finished hands, never the one in play."""
    _client, user = signed_in("judy")
    match = create_match(user, "easy")
    play_until_hand(match, 2, random.Random(11))
    for spectator in (signed_in("mallory")[0], Client()):
        response = spectator.get(reverse("games:sheet", kwargs={"match_id": match.pk}))
        assert response.status_code == 200
        assert [row["number"] for row in response.context["sheet"]["hands"]] == [1]
        assert "back to the table" in response.content.decode()
        for name in ("games:deal", "games:replay"):
            finished = reverse(name, kwargs={"match_id": match.pk, "number": 1})
            assert spectator.get(finished).status_code == 200
            in_play = reverse(name, kwargs={"match_id": match.pk, "number": 2})
            assert spectator.get(in_play).status_code == 404


def test_deal_of_a_finished_hand_is_what_the_seed_deals() -> None:
    client, user = signed_in("ken")
    match = create_match(user, "easy")
    play_until_hand(match, 2, random.Random(13))
    hand = match.hands.get(number=1)
    data = client.get(reverse("games:deal", kwargs={"match_id": match.pk, "number": 1})).json()
    dealt = deal_cards(bytes(hand.seed), hand.dealer)
    assert data["commitment"] == hand.seed_hash
    assert data["upcard"] == str(dealt.upcard)
    assert [sorted(h) for h in data["hands"]] == [
        sorted(str(c) for c in dealt.hands[0]), sorted(str(c) for c in dealt.hands[1])
    ]
