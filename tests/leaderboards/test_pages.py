"""The leaderboard pages as a visitor and a signed-in player see them."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Match, Seat
from leaderboards.models import Rating
from leaderboards.periods import PeriodKind, period_containing
from leaderboards.selectors import period_url
from leaderboards.services import board_recompute, computer_boards_recompute
from tests.factories import create_finished_match, create_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _pairs_unlimited(settings):
    """The fields of these pages' tests beat one sparring partner many times: every
    match counts here (the limit per pair has its own tests, test_aborted.py)."""
    settings.LEADERBOARD_PAIR_LIMIT = 1000


def rows(html: str) -> list[tuple[str, str]]:
    """(position, player) of each row of the board table."""
    body = html.split('id="board"', 1)[1].split("</table>", 1)[0]
    return re.findall(
        r'<td class="num">(\d+)</td>\s*<td><a href="/players/[^"]+/">([^<]+)</a>', body
    )


def standing(html: str) -> str:
    text = html.split('id="your-standing">', 1)[1].split("</div>", 1)[0]
    return " ".join(re.sub(r"<[^>]+>", "", text).split())


def make_field(count: int, *, at: datetime, prefix: str = "p") -> list:
    """``count`` players, player i with 5 wins of 100 + i points against a sparring
    partner (the higher i, the higher on the board). Bulk-created: fast."""
    users = [create_user(f"{prefix}{i:03d}") for i in range(count)]
    sparring = create_user(f"{prefix}-sparring")
    per_match = [(i, user) for i, user in enumerate(users) for _ in range(5)]
    matches = Match.objects.bulk_create(
        Match(kind="quick", rules={}, status="finished", rated=True, winner_seat=0, finished_at=at)
        for _ in per_match
    )
    Seat.objects.bulk_create(
        seat
        for match, (i, user) in zip(matches, per_match, strict=True)
        for seat in (
            Seat(match=match, index=0, user=user, score=100 + i, hands_won=2),
            Seat(match=match, index=1, user=sparring, score=0),
        )
    )
    return users


def test_this_week_board_ranks_players_and_links_profiles(client):
    now = timezone.now()
    ann, bob, cid = create_user("ann"), create_user("bob"), create_user("cid")
    for _ in range(5):
        create_finished_match((ann, bob), finished_at=now, scores=(100, 20))
    create_finished_match((cid, ann), finished_at=now, scores=(300, 0))
    board_recompute(period=period_containing(PeriodKind.WEEK, now), now=now)
    html = client.get("/leaderboards/").content.decode()
    assert rows(html) == [("1", "ann"), ("2", "bob")]  # cid: 1 match of the 5 needed
    assert '<a href="/players/ann/">ann</a>' in html
    assert "Your position" not in html  # a visitor has no line of their own
    assert 'aria-current="page">This week<' in html

    client.force_login(cid)
    html = client.get("/leaderboards/week/").content.decode()
    assert standing(html) == (
        "You have played 1 rated match this week (300 points): 4 more to be ranked."
    )


def test_own_position_is_shown_beyond_the_top_100(client):
    now = timezone.now()
    users = make_field(104, at=now)
    board_recompute(period=period_containing(PeriodKind.WEEK, now), now=now)
    client.force_login(users[0])  # the lowest score: position 104 of 104
    html = client.get("/leaderboards/").content.decode()
    listed = rows(html)
    assert len(listed) == 100
    assert listed[0] == ("1", "p103") and listed[-1] == ("100", "p004")
    assert "p000" not in [name for _, name in listed]
    assert standing(html).startswith("Your position: #104 with")


def test_a_banned_player_disappears_without_leaving_a_gap(client):
    now = timezone.now()
    users = make_field(4, at=now)
    board = board_recompute(period=period_containing(PeriodKind.WEEK, now), now=now)
    board.finalised_at = now  # even a final board (whose ranks never change) hides them
    board.save()
    users[3].is_active = False  # the moderation helper's ban
    users[3].save()
    client.force_login(users[0])
    html = client.get("/leaderboards/").content.decode()
    expected = [("1", "p002"), ("2", "p001"), ("3", "p000"), ("4", "p-sparring")]
    assert rows(html) == expected
    assert standing(html).startswith("Your position: #3 with")


@pytest.mark.parametrize(
    "url",
    ["/leaderboards/", "/leaderboards/month/", "/leaderboards/rating/", "/leaderboards/computer/"],
)
def test_each_tab_costs_the_same_queries_for_10_or_120_players(
    client, settings, django_assert_num_queries, url
):
    settings.LEADERBOARD_MIN_COMPUTER_MATCHES = 1
    now = timezone.now()
    client.force_login(create_user("viewer"))

    def grow(count: int, prefix: str) -> None:
        users = make_field(count, at=now, prefix=prefix)
        Rating.objects.bulk_create(
            Rating(user=u, rating=1400 + i, rated_matches=1) for i, u in enumerate(users)
        )
        matches = Match.objects.bulk_create(
            Match(kind="computer", rules={}, status="finished", winner_seat=0, finished_at=now)
            for _ in users
        )
        Seat.objects.bulk_create(
            seat
            for match, user in zip(matches, users, strict=True)
            for seat in (
                Seat(match=match, index=0, user=user),
                Seat(match=match, index=1, bot_level="hard"),
            )
        )
        for kind in PeriodKind:
            board_recompute(period=period_containing(kind, now), now=now)
        computer_boards_recompute()

    grow(10, "a")
    with CaptureQueriesContext(connection) as small:
        assert len(rows(client.get(url).content.decode())) in (10, 11)
    grow(110, "b")
    with django_assert_num_queries(len(small.captured_queries)):
        assert len(rows(client.get(url).content.decode())) == 100


@pytest.mark.parametrize("kind", list(PeriodKind))
def test_a_past_board_costs_the_same_queries_for_10_or_120_players(
    client, django_assert_num_queries, kind
):
    now = timezone.now()
    past = period_containing(kind, now).previous()
    url = period_url(past)

    def grow(count: int, prefix: str) -> list:
        users = make_field(count, at=past.start + timedelta(hours=1), prefix=prefix)
        board_recompute(period=past, now=now, refinalise=True)  # final: rebuilt by force
        return users

    viewer = grow(10, "a")[0]  # 10th of 11 (the sparring partner, with 0 points, last)
    client.force_login(viewer)
    with CaptureQueriesContext(connection) as small:
        html = client.get(url).content.decode()
    assert len(rows(html)) == 11 and standing(html).startswith("Your position: #10 with")
    grow(110, "b")
    with django_assert_num_queries(len(small.captured_queries)):
        html = client.get(url).content.decode()
    # 118 players scored more than a000's 100 points; b000's 100 come from a later account.
    assert len(rows(html)) == 100 and standing(html).startswith("Your position: #119 with")


def test_players_hidden_after_finalisation_leave_no_gap_beyond_the_top_100(client):
    now = timezone.now()
    users = make_field(104, at=now)  # p103 first ... p000 104th, then the sparring partner
    board = board_recompute(period=period_containing(PeriodKind.WEEK, now), now=now)
    board.finalised_at = now
    board.save()
    for hidden in (users[103], users[50], users[0]):  # 1st and 54th (ahead), 104th (behind)
        hidden.is_active = False
        hidden.save()
    client.force_login(users[1])  # 103rd when the board was computed
    html = client.get("/leaderboards/").content.decode()
    listed = rows(html)
    assert len(listed) == 100
    assert listed[0] == ("1", "p102") and listed[-1] == ("100", "p002")
    assert {"p103", "p050"}.isdisjoint(name for _, name in listed)
    assert standing(html).startswith("Your position: #101 with")


def test_a_banned_player_ahead_on_a_computer_board_moves_the_viewer_up(client, settings):
    settings.LEADERBOARD_MIN_COMPUTER_MATCHES = 1
    at = datetime(2026, 1, 5, tzinfo=UTC)
    ann, bob, cid = create_user("ann"), create_user("bob"), create_user("cid")
    for user, winner in [(ann, 0), (bob, 0), (bob, 1), (cid, 1)]:
        create_finished_match(
            (user, None), finished_at=at, winner=winner, bot_level="expert", rated=False,
        )
    computer_boards_recompute()
    ann.is_active = False
    ann.save()
    client.force_login(cid)
    html = client.get("/leaderboards/computer/expert/").content.decode()
    assert rows(html) == [("1", "bob"), ("2", "cid")]
    assert standing(html).startswith("Your position: #2,")


def test_past_periods_stay_browsable(client):
    now = timezone.now()
    last_week = period_containing(PeriodKind.WEEK, now).previous()
    ann, bob = create_user("ann"), create_user("bob")
    for _ in range(5):
        create_finished_match((bob, ann), finished_at=last_week.start + timedelta(hours=1))
    board_recompute(period=last_week, now=now)
    year, week = last_week.url_args
    html = client.get("/leaderboards/").content.decode()
    assert f'href="/leaderboards/week/{year}/{week}/"' in html  # previous link and archive
    html = client.get(f"/leaderboards/week/{year}/{week}/").content.decode()
    assert rows(html) == [("1", "bob"), ("2", "ann")]
    assert "Final board." in html
    # Browsing never invents a future period or a non-existent one.
    assert client.get("/leaderboards/week/2999/1/").status_code == 404
    assert client.get("/leaderboards/week/2026/60/").status_code == 404
    assert client.get("/leaderboards/month/2026/13/").status_code == 404


def test_the_archive_lists_the_12_latest_past_boards_and_older_ones_stay_browsable(client):
    now = timezone.now()
    this_week = period_containing(PeriodKind.WEEK, now)
    past = [this_week]
    for _ in range(14):
        past.append(past[-1].previous())
        board_recompute(period=past[-1], now=now)
    board_recompute(period=this_week, now=now)

    def archive(html: str) -> list[str]:
        listed = html.split('id="past-title"', 1)[1].split("</ul>", 1)[0]
        return re.findall(r'<a href="([^"]+)">', listed)

    latest = [period_url(period) for period in past[1:13]]
    assert archive(client.get("/leaderboards/").content.decode()) == latest
    oldest = past[-1]
    html = client.get(period_url(oldest)).content.decode()
    assert oldest.label in html and "Final board." in html
    assert archive(html) == latest  # the oldest board is shown, the list stays the same


def test_a_month_without_a_board_says_so(client):
    html = client.get("/leaderboards/month/2020/2/").content.decode()
    assert "February 2020" in html and "There is no board for February 2020." in html


def test_the_own_line_tells_the_truth_in_every_state(client):
    """Whatever the state of the stored board, the player's own line matches their
    match record: never "no rated match" to a player who has some."""
    now = timezone.now()
    week = period_containing(PeriodKind.WEEK, now)
    ann, bob, cid = create_user("ann"), create_user("bob"), create_user("cid")
    for _ in range(3):
        create_finished_match((ann, bob), finished_at=now, scores=(100, 20))

    # The board of this week has not been computed yet.
    client.force_login(ann)
    html = client.get("/leaderboards/").content.decode()
    assert "This week's board has not been computed yet: boards are updated every minute." in html
    assert standing(html) == (
        "You have 3 rated matches this week, finished since the board was last computed:"
        " they show at its next update (boards are updated every minute)."
    )
    # Computed before a player's first match: the same, for one match.
    board_recompute(period=week, now=now)
    create_finished_match((cid, bob), finished_at=now, scores=(50, 0))
    client.force_login(cid)
    html = client.get("/leaderboards/").content.decode()
    assert standing(html).startswith("You have 1 rated match this week, finished since the board")
    assert "it shows at its next update" in standing(html)
    # Computed since: below the minimum.
    board_recompute(period=week, now=now)
    html = client.get("/leaderboards/").content.decode()
    assert "Updated just now." in html and "0 minutes" not in html
    assert standing(html) == (
        "You have played 1 rated match this week (50 points): 4 more to be ranked."
    )
    # No rated match at all (an unrated match against the computer does not count).
    dan = create_user("dan")
    create_finished_match((dan, None), finished_at=now, bot_level="hard", rated=False)
    client.force_login(dan)
    html = client.get("/leaderboards/").content.decode()
    assert standing(html) == (
        "You have no rated match this week yet: play a quick match or invite a friend."
    )
    # A past week: told in the past tense, by its name.
    html = client.get(period_url(week.previous())).content.decode()
    assert standing(html) == f"You had no rated match in {week.previous().label}."
    # A guest is never ranked, and is told how to be.
    client.force_login(create_user("guest-1a2b3c", guest=True))
    html = client.get("/leaderboards/month/").content.decode()
    assert standing(html) == (
        "Guests are not ranked: sign up to play rated matches against people and appear"
        " on the boards."
    )


def test_rating_board_and_own_rating(client):
    create_user("ann", rating={"rating": 1620.4, "deviation": 80, "rated_matches": 12})
    bob = create_user("bob", rating={"rating": 1620.4, "deviation": 90, "rated_matches": 3})
    create_user("g-1", guest=True, rating=1900)
    create_user("banned", is_active=False, rating={"rating": 2000, "rated_matches": 40})
    html = client.get("/leaderboards/rating/").content.decode()
    assert rows(html) == [("1", "ann"), ("2", "bob")]  # tie: the earlier account first
    assert 'id="your-standing"' not in html  # a visitor has no line of their own
    client.force_login(bob)
    html = client.get("/leaderboards/rating/").content.decode()
    assert rows(html) == [("1", "ann"), ("2", "bob")]
    assert standing(html) == "Your position: #2 with a rating of 1,620 ± 90."
    client.force_login(create_user("newcomer"))
    html = client.get("/leaderboards/rating/").content.decode()
    assert "You are not rated yet" in standing(html)


def test_computer_boards_rank_win_rate_per_level(client, settings):
    settings.LEADERBOARD_MIN_COMPUTER_MATCHES = 3
    at = datetime(2026, 1, 5, tzinfo=UTC)
    ann, bob, cid = create_user("ann"), create_user("bob"), create_user("cid")
    guest = create_user("guest-0a0a0a", guest=True)
    for user, wins, losses in [(ann, 3, 1), (bob, 4, 0), (cid, 1, 1), (guest, 9, 0)]:
        for i in range(wins + losses):
            create_finished_match(
                (None, user) if i % 2 else (user, None),
                finished_at=at,
                winner=(1 if i % 2 else 0) if i < wins else (0 if i % 2 else 1),
                bot_level="expert",
                rated=False,
            )
    for _ in range(3):
        create_finished_match((cid, None), finished_at=at, bot_level="hard", rated=False)
    computer_boards_recompute()
    computer_boards_recompute()  # idempotent
    client.force_login(cid)
    html = client.get("/leaderboards/computer/expert/").content.decode()
    assert rows(html) == [("1", "bob"), ("2", "ann")]  # 100 %, 75 %; cid has 2 of 3 matches
    cells = re.findall(r'<td class="num">(\d+)</td>', html.split('id="board"', 1)[1])
    assert cells == ["1", "100", "4", "4", "2", "75", "3", "4"]  # #, win %, won, matches
    assert standing(html) == (
        "You have played 2 matches against the expert computer: 1 more to be ranked."
    )
    html = client.get("/leaderboards/computer/").content.decode()
    assert rows(html) == [("1", "cid")]
    assert standing(html).startswith("Your position: #1")
    assert client.get("/leaderboards/computer/easy/").status_code == 404


def test_a_board_counts_one_match_and_one_point_in_the_singular(client, settings):
    settings.LEADERBOARD_MIN_MATCHES = 1
    now = timezone.now()
    ann, bob = create_user("ann"), create_user("bob")
    create_finished_match((ann, bob), finished_at=now, scores=(1, 0))
    board_recompute(period=period_containing(PeriodKind.WEEK, now), now=now)
    client.force_login(ann)
    html = client.get("/leaderboards/").content.decode()
    assert "at least 1 match to be ranked" in html
    assert standing(html) == "Your position: #1 with 1 point from 1 match."


def test_computer_boards_say_which_levels_count_and_why(client):
    html = client.get("/leaderboards/computer/").content.decode()
    note = " ".join(re.sub(r"<[^>]+>", "", html.split('id="levels-note">', 1)[1]).split())
    assert note.startswith(
        "Only the hard and expert computers have boards: against the easy and medium levels"
        " a regular player wins nearly every match"
    )
    client.force_login(create_user("guest-9f9f9f", guest=True))
    html = client.get("/leaderboards/computer/").content.decode()
    assert standing(html).startswith("Guests are not ranked: sign up to keep your matches")
