"""Glicko-2 ratings: applied once per rated match, through the on-commit task."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import transaction
from django.template import Context, Template

from ginsite.celery import app as celery_app
from leaderboards import hooks
from leaderboards.models import Rating, RatingChange
from leaderboards.selectors import rating_chart
from leaderboards.services import rating_apply_match, ratings_apply_pending
from tests.factories import create_finished_match, create_user

pytestmark = pytest.mark.django_db

AT = datetime(2026, 11, 20, 12, tzinfo=UTC)


def rating_of(user) -> tuple[int, int]:
    r = Rating.objects.get(user=user)
    return round(r.rating), r.rated_matches


def test_a_rated_match_moves_both_ratings_once():
    ann, bob = create_user("ann"), create_user("bob")
    match = create_finished_match((ann, bob), finished_at=AT, winner=0)
    assert rating_apply_match(match_id=match.pk) is True
    assert rating_of(ann) == (1662, 1)  # two new players: +/-162 on Glicko-2's defaults
    assert rating_of(bob) == (1338, 1)
    assert Rating.objects.get(user=ann).deviation == pytest.approx(290.3, abs=0.1)
    # A redelivered task, or the sweep, changes nothing.
    assert rating_apply_match(match_id=match.pk) is False
    assert ratings_apply_pending() == 0
    assert rating_of(ann) == (1662, 1)
    assert RatingChange.objects.filter(match=match).count() == 2
    change = RatingChange.objects.get(match=match, user=bob)
    assert (round(change.rating_before), round(change.delta), change.at) == (1500, -162, AT)


def test_a_draw_between_equals_keeps_the_ratings():
    ann, bob = create_user("ann"), create_user("bob")
    match = create_finished_match((ann, bob), finished_at=AT, winner=None)
    rating_apply_match(match_id=match.pk)
    assert rating_of(ann) == (1500, 1) == rating_of(bob)


def test_unrated_computer_and_unknown_matches_are_not_applied():
    ann, bob = create_user("ann"), create_user("bob")
    guest = create_user("guest-77aa00", guest=True)
    unrated = create_finished_match((ann, bob), finished_at=AT, rated=False)
    computer = create_finished_match((ann, None), finished_at=AT, rated=False, bot_level="expert")
    with_guest = create_finished_match((ann, guest), finished_at=AT, rated=True)
    for match in (unrated, computer, with_guest):
        assert rating_apply_match(match_id=match.pk) is False
    assert rating_apply_match(match_id=999_999) is False
    assert ratings_apply_pending() == 0
    assert not Rating.objects.exists()


def test_the_sweep_applies_missed_matches_oldest_first():
    ann, bob = create_user("ann"), create_user("bob")
    first = create_finished_match((ann, bob), finished_at=AT, winner=1)
    second = create_finished_match((ann, bob), finished_at=AT + timedelta(hours=1), winner=0)
    assert ratings_apply_pending() == 2
    assert rating_of(ann)[1] == 2
    history = list(RatingChange.objects.filter(user=ann).order_by("at"))
    assert [c.match_id for c in history] == [first.pk, second.pk]
    assert history[0].rating < 1500 < history[1].rating
    assert history[1].rating_before == history[0].rating


@pytest.fixture
def eager_celery():
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def test_finishing_a_rated_match_updates_ratings_after_commit(
    eager_celery, django_capture_on_commit_callbacks
):
    ann, bob = create_user("ann"), create_user("bob")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with transaction.atomic():
            match = create_finished_match((ann, bob), finished_at=AT, winner=1)
            hooks.match_finished(match)
            assert not Rating.objects.exists()  # nothing before the commit
    assert len(callbacks) == 1
    assert rating_of(bob) == (1662, 1)


def test_a_rolled_back_or_unrated_finish_enqueues_nothing(django_capture_on_commit_callbacks):
    ann, bob = create_user("ann"), create_user("bob")
    with django_capture_on_commit_callbacks() as callbacks:
        hooks.match_finished(create_finished_match((ann, bob), finished_at=AT, rated=False))
    assert callbacks == []
    with django_capture_on_commit_callbacks() as callbacks:
        try:
            with transaction.atomic():
                hooks.match_finished(create_finished_match((ann, bob), finished_at=AT))
                raise RuntimeError("the finishing transaction fails")
        except RuntimeError:
            pass
    assert callbacks == []


def test_rating_chart_draws_the_history():
    ann, bob = create_user("ann"), create_user("bob")
    assert rating_chart(user=ann).current is None
    for hours, winner in enumerate([0, 0, 1]):
        match = create_finished_match(
            (ann, bob), finished_at=AT + timedelta(hours=hours), winner=winner,
        )
        rating_apply_match(match_id=match.pk)
    chart = rating_chart(user=ann, width=300, height=100)
    points = [tuple(map(float, p.split(","))) for p in chart.points.split()]
    assert len(points) == 4  # the starting 1500 and one point per match
    ys = [y for _, y in points]
    assert ys[0] > ys[1] > ys[2] < ys[3]  # up, up, down (SVG y grows downwards)
    assert min(ys) == 4 and max(ys) == 96  # spans the box inside its padding
    # The loss to the (now much lower) bob costs more than the first win gained.
    current = round(Rating.objects.get(user=ann).rating)
    assert chart.low == chart.current == current < 1500 < chart.high
    assert chart.matches == 3


def test_rating_chart_tag_renders_a_self_contained_svg():
    ann, bob = create_user("ann"), create_user("bob")
    template = Template("{% load leaderboards %}{% rating_chart player %}")
    assert "No rated match yet." in template.render(Context({"player": ann}))
    match = create_finished_match((ann, bob), finished_at=AT, winner=0)
    rating_apply_match(match_id=match.pk)
    html = template.render(Context({"player": ann}))
    assert '<polyline points="4.0,156.0 636.0,4.0" fill="none"' in html
    # Ratings grouped as English writes thousands (templates' intcomma).
    assert "Rating <strong>1,662</strong> ± 290 after 1 rated match" in html
    assert "20 Nov 2026 to 20 Nov 2026; lowest 1,500, highest 1,662" in html


# --- fair play's voided matches: correspondence ratings are replayed as live ones are ---


def correspondence_rated(players, winner: int, at: datetime):
    """A finished correspondence match between people, applied to their correspondence
    ratings as the task after its commit would."""
    from leaderboards.services import correspondence_rating_apply

    match = create_finished_match(players, winner=winner, finished_at=at, rated=False)
    type(match).objects.filter(pk=match.pk).update(days_per_move=3)
    assert correspondence_rating_apply(match_id=match.pk)
    return match


def test_voiding_farmed_correspondence_matches_replays_every_correspondence_rating_they_moved():
    from leaderboards import glicko2
    from leaderboards.models import CorrespondenceRating, CorrespondenceRatingChange
    from leaderboards.services import matches_void

    win, feed, honest = create_user("win"), create_user("feed"), create_user("honest")
    farmed = [correspondence_rated((win, feed), 0, AT + timedelta(days=d)) for d in range(3)]
    # After the farming, the inflated winner beats an honest player, who loses less
    # correspondence rating to them than to an honest 1500; a live rated match between
    # the honest player and the feeder stands apart.
    later = correspondence_rated((honest, win), 1, AT + timedelta(days=4))
    live = create_finished_match((honest, feed), finished_at=AT + timedelta(days=5), winner=0)
    assert rating_apply_match(match_id=live.pk)
    live_before = {r.user_id: r.rating for r in Rating.objects.all()}
    honest_before = CorrespondenceRating.objects.get(user=honest).rating

    replayed = matches_void(match_ids=[m.pk for m in farmed], reason="farmed", now=AT
                            + timedelta(days=6))

    # As if the farmed matches had never been played, for everyone they moved.
    assert not CorrespondenceRatingChange.objects.filter(match__in=farmed).exists()
    fresh = glicko2.Glicko2Rating()
    beat_fresh = glicko2.rate(fresh, [glicko2.GameResult(fresh, 1.0)])
    lost_to_fresh = glicko2.rate(fresh, [glicko2.GameResult(fresh, 0.0)])
    ratings = {r.user: r for r in CorrespondenceRating.objects.all()}
    assert ratings[win].rating == pytest.approx(beat_fresh.rating)
    assert ratings[win].deviation == pytest.approx(beat_fresh.deviation)
    assert (ratings[win].rated_matches, ratings[feed].rated_matches) == (1, 0)
    assert ratings[feed].rating == pytest.approx(fresh.rating)
    assert ratings[honest].rating == pytest.approx(lost_to_fresh.rating)
    assert ratings[honest].rating < honest_before
    change = CorrespondenceRatingChange.objects.get(match=later, user=honest)
    assert change.rating_before == pytest.approx(fresh.rating)
    assert change.rating == pytest.approx(lost_to_fresh.rating)
    assert replayed.correspondence[honest.pk] == pytest.approx(
        lost_to_fresh.rating - honest_before)
    assert set(replayed.correspondence) == {win.pk, feed.pk, honest.pk}
    # Live play's ratings are not touched by voiding correspondence matches.
    assert replayed.live == {}
    assert {r.user_id: r.rating for r in Rating.objects.all()} == live_before
    # A voided match is never applied again.
    from leaderboards.services import correspondence_rating_apply

    assert not correspondence_rating_apply(match_id=farmed[0].pk)
