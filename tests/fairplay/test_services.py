"""Fair play on the real database: what the detection reads (the matches a pair played
through the services, the analysed hands of rated matches, the hashed signals), the
cases it opens, and what a moderator's decision does to the boards, the ratings, the
moderation log and what the players see."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from accounts.models import ModerationAction, Warning
from accounts.services import AccountError
from games import services as play
from games.analysis.models import HandAnalysis
from games.engine import HandState
from games.fairplay import hooks, services, signals
from games.fairplay.models import AccountSignal, Case, DetectionRun, MatchAccuracy, Notice
from games.models import Hand, Match, Seat
from leaderboards import glicko2
from leaderboards.models import BoardEntry, BoardExclusion, Rating, RatingChange, VoidedMatch
from leaderboards.periods import PeriodKind, period_containing
from leaderboards.services import board_recompute, rating_apply_match
from tests.factories import create_finished_match, create_match, create_moderator, create_user

pytestmark = pytest.mark.django_db


def play_moves(match: Match, count: int) -> None:
    """``count`` actions by whoever is to move (a pass, a draw or a discard)."""
    for _ in range(count):
        match.refresh_from_db()
        seat = Seat.objects.select_related("user").get(match=match, index=match.current_seat)
        hand = Hand.objects.filter(match=match).order_by("-number").first()
        assert hand is not None
        legal = HandState.from_dict(hand.state).legal_actions()
        action = next(a for a in legal if a["type"] in ("pass", "draw", "discard"))
        play.move_submit(match=match, user=seat.user, action=action,
                         expected_version=match.version)


def farm(winner, feeder) -> Match:
    """A rated match through the services: both make their moves, the feeder resigns;
    rated as the task on commit would (here, or already by a running worker)."""
    match = create_match(winner, feeder)
    play_moves(match, 8)
    play.match_resign(match=match, user=feeder)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and not match.aborted
    rating_apply_match(match_id=match.pk)
    assert RatingChange.objects.filter(match=match).count() == 2
    return match


def rated(players, winner: int, **fields) -> Match:
    match = create_finished_match(players, winner=winner, **fields)
    assert rating_apply_match(match_id=match.pk)
    return match


# --- farming ---------------------------------------------------------------------------


def test_a_pair_feeding_resignations_opens_one_case_naming_both_and_its_matches():
    win, feed = create_user("win"), create_user("feed")
    matches = [farm(win, feed) for _ in range(3)]
    case = services.pair_check(user_ids=[feed.pk, win.pk])
    assert case is not None and case.kind == Case.Kind.FARMING
    assert {u.pk for u in case.users.all()} == {win.pk, feed.pk}
    assert case.match_ids == [m.pk for m in matches]
    assert case.strength == pytest.approx(signals.strength(0.5**3 * 0.05**3), abs=0.01)
    assert case.evidence["wins"] in ({"a": 3, "b": 0}, {"a": 0, "b": 3})
    assert case.evidence["quick"] == 3
    assert any("3 ended by resignation" in r for r in case.evidence["reasons"])
    assert any("new account" in r for r in case.evidence["reasons"])
    # A flag decides nothing: nobody banned, warned, removed or told.
    assert all(u.is_active for u in case.users.all())
    assert not BoardExclusion.objects.exists() and not Notice.objects.exists()
    assert not ModerationAction.objects.exists()
    # Checking again strengthens the open case instead of opening another.
    farm(win, feed)
    again = services.pair_check(user_ids=[win.pk, feed.pk])
    assert again is not None and again.pk == case.pk and len(again.match_ids) == 4
    assert Case.objects.count() == 1


def test_an_honest_pair_playing_its_matches_out_is_not_flagged():
    strong, weak = create_user("strong"), create_user("weak")
    for _ in range(5):
        rated([strong, weak], 0)  # one-sided, but every match played to its target
    assert services.pair_check(user_ids=[strong.pk, weak.pk]) is None
    assert not Case.objects.exists()


def test_the_periodic_run_checks_the_pairs_that_played_since_the_previous_run():
    win, feed = create_user("win"), create_user("feed")
    for _ in range(3):
        farm(win, feed)
    now = timezone.now() + timedelta(minutes=10)
    run = services.detection_run(now=now)
    assert run.pairs_checked == 1 and run.cases_opened == 1
    assert run.finished_at is not None and run.cpu_seconds >= 0
    later = services.detection_run(now=now + timedelta(minutes=10))
    assert later.pairs_checked == 0 and later.cases_opened == 0
    assert DetectionRun.objects.count() == 2


@pytest.fixture
def sent(monkeypatch) -> list:
    """The tasks fair play hands to the background (none of them run)."""
    tasks: list = []
    monkeypatch.setattr(services.runtime, "scheduler", lambda: type(
        "S", (), {"run_in_background": lambda self, task, kwargs: tasks.append((task, kwargs))})())
    return tasks


def test_a_finished_rated_match_has_its_pair_checked_off_the_request_path(sent):
    ann, bob = create_user("ann"), create_user("bob")
    match = rated([ann, bob], 0)
    event = type("E", (), {"rated": True, "aborted": False, "days_per_move": None,
                           "user_ids": (ann.pk, bob.pk)})()
    hooks.on_match_finished(event)  # after commit: the task is sent, nothing else
    assert sent == [("fairplay.pair_check", {"user_ids": [ann.pk, bob.pk]})]
    event.aborted = True
    hooks.on_match_finished(event)
    assert len(sent) == 1 and match.pk


def by_mail(winner, feeder) -> Match:
    """A correspondence match through the services (a challenge with a day per move):
    both make their moves, then the feeder lets the day run out; its correspondence
    rating applied as the task on commit would."""
    from games.api import services as api_services
    from games.services import correspondence
    from leaderboards.services import correspondence_rating_apply
    from tests.factories import create_challenge, play_to_turn_of

    challenge = create_challenge(winner, feeder, variant="default", target=100, days=1)
    match = api_services.challenge_accept(user=feeder, challenge_id=challenge.pk)
    play_moves(match, 8)
    play_to_turn_of(match, feeder)
    correspondence.correspondence_clock_run(now=timezone.now() + timedelta(days=1, minutes=5))
    match.refresh_from_db()
    assert match.end_reason == Match.EndReason.TIMEOUT and not match.aborted
    assert not match.rated and correspondence_rating_apply(match_id=match.pk)
    return match


def test_a_pair_feeding_correspondence_matches_by_running_out_of_days_is_flagged():
    """Correspondence matches move a rating of their own, on its own board: a pair whose
    feeder lets each one run out of days after the first moves is flagged as a live pair
    feeding resignations is, the periodic run finds it, and so does the check after
    each match."""
    win, feed = create_user("win"), create_user("feed")
    matches = [by_mail(win, feed) for _ in range(3)]
    case = services.pair_check(user_ids=[win.pk, feed.pk])
    assert case is not None and case.kind == Case.Kind.FARMING
    assert case.match_ids == [m.pk for m in matches]
    assert case.evidence["quick"] == 3
    reasons = case.evidence["reasons"]
    assert any("3 ended by resignation, abandonment or running out of time" in r
               for r in reasons), reasons
    assert {m["rating_a"] != 0 for m in case.evidence["matches"]} == {True}
    assert services.recent_pairs(since=timezone.now() - timedelta(hours=1)) == [
        (min(win.pk, feed.pk), max(win.pk, feed.pk))]


def test_a_finished_correspondence_match_has_its_pair_checked_too(sent):
    ann, bob = create_user("ann"), create_user("bob")
    event = type("E", (), {"rated": False, "aborted": False, "days_per_move": 3,
                           "user_ids": (ann.pk, bob.pk)})()
    hooks.on_match_finished(event)
    assert sent == [("fairplay.pair_check", {"user_ids": [ann.pk, bob.pk]})]
    event.days_per_move = None  # a casual live match: nothing to check
    hooks.on_match_finished(event)
    assert len(sent) == 1


# --- assistance ------------------------------------------------------------------------


def analysed(players, hands_losses) -> Match:
    """A rated match whose hands were analysed: ``hands_losses[i]`` are the losses of
    seat 0 and seat 1 in hand i."""
    match = rated(players, 0, hands=[(0, 20, "knock")] * len(hands_losses))
    for hand, (seat0, seat1) in zip(match.hands.order_by("number"), hands_losses, strict=True):
        decisions = [{"seat": 0, "loss": x} for x in seat0] + [
            {"seat": 1, "loss": x} for x in seat1]
        HandAnalysis.objects.create(hand=hand, match=match, done=True,
                                    claimed_at=timezone.now(), decisions=decisions)
    return match


def test_each_accounts_decisions_of_a_rated_match_are_summarised_once_analysed():
    ann, bob = create_user("ann"), create_user("bob")
    match = analysed([ann, bob], [
        ([0.0, 0.0, 3.0, 0.0, 0.0, 1.0], [0.0] * 8),
        ([6.0, 0.0], [0.0, 0.0, 0.0, 0.0, 12.0]),  # ann's hand is too short to judge
    ])
    pending = create_finished_match([ann, bob], hands=[(0, 10, "gin")])
    Hand.objects.filter(match=pending).update(result={"kind": "gin"})  # not analysed yet
    rating_apply_match(match_id=pending.pk)
    assert services.accuracies_update(now=timezone.now()) == 1
    rows = {r.user_id: r for r in MatchAccuracy.objects.filter(match=match)}
    def figures(user):
        row = rows[user.pk]
        return row.decisions, row.loss_sum, row.agreements

    assert figures(ann) == (6, 4.0, 4)
    assert figures(bob) == (13, 12.0, 12)
    assert rows[ann.pk].rating == glicko2.DEFAULT_RATING  # the rating before the match
    assert not MatchAccuracy.objects.filter(match=pending).exists()
    assert services.accuracies_update(now=timezone.now()) == 0  # once


def test_an_account_far_more_accurate_than_its_rating_band_opens_an_assistance_case():
    now = timezone.now()
    people = [create_user(f"p{i}") for i in range(24)]
    cheat = create_user("cheat")
    rival = create_user("rival")
    # The band's accounts: about 0.6 points lost a decision, 92% played as the best.
    rows = []
    for i, user in enumerate(people):
        match = create_finished_match([user, rival], winner=0, finished_at=now)
        loss = 0.55 + 0.005 * (i % 20)
        rows.append(MatchAccuracy(user=user, match=match, rating=1500.0, decisions=800,
                                  loss_sum=loss * 800, loss_squares=6.0 * 800,
                                  agreements=int((0.91 + 0.001 * (i % 20)) * 800),
                                  finished_at=now))
    series = []
    for _ in range(4):
        match = create_finished_match([cheat, rival], winner=0, finished_at=now)
        series.append(match.pk)
        rows.append(MatchAccuracy(user=cheat, match=match, rating=1500.0, decisions=200,
                                  loss_sum=0.2 * 200, loss_squares=2.0 * 200,
                                  agreements=194, finished_at=now))
    MatchAccuracy.objects.bulk_create(rows)
    cases = services.assistance_check(user_ids=[u.pk for u in [*people, cheat]], now=now)
    assert [list(c.users.values_list("username", flat=True)) for c in cases] == [["cheat"]]
    case = cases[0]
    assert case.kind == Case.Kind.ASSISTANCE and sorted(case.match_ids) == sorted(series)
    assert case.evidence["z"] >= signals.z_for_rate(settings.FAIRPLAY_ASSISTANCE_ALPHA)
    assert case.evidence["band"]["accounts"] >= signals.MIN_BAND_ACCOUNTS
    assert [row["mean_loss"] for row in case.evidence["series"]] == [0.2] * 4
    assert "cheat: mean loss 0.200" in case.summary


# --- signals ----------------------------------------------------------------------------


def test_a_sign_in_keeps_hashes_of_the_network_and_browser_never_the_address():
    ann, guest = create_user("ann"), create_user("guest1", guest=True)
    request = RequestFactory().get("/", REMOTE_ADDR="203.0.113.77",
                                   HTTP_USER_AGENT="Firefox/133.0")
    hooks.on_signed_in(sender=None, request=request, user=ann)
    hooks.on_signed_in(sender=None, request=request, user=guest)
    signal = AccountSignal.objects.get()
    assert signal.user == ann and signal.kind == "session"
    assert "203.0.113" not in signal.network and "Firefox" not in signal.device
    assert len(signal.network) == 64
    neighbour = RequestFactory().get("/", REMOTE_ADDR="203.0.113.8",
                                     HTTP_USER_AGENT="Safari/605")
    bob = create_user("bob")
    hooks.on_signed_up(request=neighbour, user=bob)
    assert AccountSignal.objects.get(user=bob).network == signal.network  # same /24
    assert services.shared_signals(ann.pk, bob.pk) == 1


def test_signals_are_deleted_after_the_days_the_privacy_page_states(client):
    ann = create_user("ann")
    now = timezone.now()
    old = services.signal_record(user=ann, kind="session", address="198.51.100.1", agent="x",
                                 now=now - timedelta(days=settings.FAIRPLAY_SIGNAL_DAYS + 1))
    kept = services.signal_record(user=ann, kind="session", address="198.51.100.1", agent="x",
                                  now=now - timedelta(days=settings.FAIRPLAY_SIGNAL_DAYS - 1))
    assert services.signals_purge(now=now) == 1
    assert list(AccountSignal.objects.all()) == [kept] and old is not None
    page = client.get(reverse("privacy")).content.decode()
    assert f"Signals are deleted after {settings.FAIRPLAY_SIGNAL_DAYS} days" in page
    assert "keyed hash" in page


# --- decisions --------------------------------------------------------------------------


def farming_case(win, feed, count: int = 3) -> Case:
    for _ in range(count):
        farm(win, feed)
    case = services.pair_check(user_ids=[win.pk, feed.pk])
    assert case is not None
    return case


@pytest.fixture
def mod():
    return create_moderator("mod")


def test_removing_a_farming_pair_corrects_the_board_and_every_rating_it_moved(mod, client):
    win, feed, honest = create_user("win"), create_user("feed"), create_user("honest")
    case = farming_case(win, feed)
    # After farming, the winner (rated up) beats an honest player, who loses less
    # rating to a higher-rated winner than they would have to an honest 1500.
    later = rated([win, honest], 0)
    now = timezone.now()
    week = period_containing(PeriodKind.WEEK, now)
    board = board_recompute(period=week, now=now)
    assert BoardEntry.objects.filter(board=board, user=win).exists()
    honest_before = Rating.objects.get(user=honest).rating

    decided = services.case_decide(staff=mod, case=case, decision="remove",
                                   reason="Farmed the weekly board by resignations.")

    case.refresh_from_db()
    assert case.status == Case.Status.DECIDED and case.decision == "remove" and case.reverted
    assert case.decided_by == mod and case.reason.startswith("Farmed")
    # The boards: both off, the board recomputed without their points.
    assert set(BoardExclusion.objects.values_list("user_id", flat=True)) == {win.pk, feed.pk}
    assert not BoardEntry.objects.filter(board=board, user__in=[win, feed]).exists()
    assert BoardEntry.objects.get(board=board, user=honest).matches_played == 1
    # The ratings: as if the farmed matches never happened, for everyone they moved.
    assert set(VoidedMatch.objects.values_list("match_id", flat=True)) == set(case.match_ids)
    assert not RatingChange.objects.filter(match_id__in=case.match_ids).exists()
    fresh = glicko2.Glicko2Rating()
    expected_win = glicko2.rate(fresh, [glicko2.GameResult(fresh, 1.0)])
    expected_honest = glicko2.rate(fresh, [glicko2.GameResult(fresh, 0.0)])
    assert Rating.objects.get(user=win).rating == pytest.approx(expected_win.rating)
    assert Rating.objects.get(user=win).rated_matches == 1
    assert Rating.objects.get(user=feed).rating == pytest.approx(fresh.rating)
    assert Rating.objects.get(user=honest).rating == pytest.approx(expected_honest.rating)
    assert Rating.objects.get(user=honest).rating != pytest.approx(honest_before)
    change = RatingChange.objects.get(match=later, user=honest)
    assert change.rating_before == fresh.rating
    # The log: the moderator and the reason, for each account and each step.
    rows = ModerationAction.objects.filter(details__case=case.pk)
    assert sorted(rows.values_list("kind", "target_user__username")) == [
        ("board_remove", "feed"), ("board_remove", "win"),
        ("matches_void", "feed"), ("matches_void", "win")]
    assert {r.actor_id for r in rows} == {mod.pk}
    assert all(r.reason == "Farmed the weekly board by resignations." for r in rows)
    # Everyone told: the pair, and the honest player whose rating moved.
    assert set(decided.told) == {win.pk, feed.pk, honest.pk}
    assert "removed you from the leaderboards" in Notice.objects.filter(user=win)[0].text
    assert "Your rating was corrected by" in Notice.objects.get(user=honest).text


def test_voiding_a_pairs_matches_replays_the_correspondence_ratings_they_moved_too(mod):
    """A farming case's matches may be correspondence ones: voiding them takes their
    correspondence rating changes back for everyone affected, as for live play's, and
    a player whose correspondence rating was corrected is told, in their language."""
    from leaderboards.models import CorrespondenceRating, CorrespondenceRatingChange
    from leaderboards.services import correspondence_rating_apply

    win, feed = create_user("win"), create_user("feed")
    honest = create_user("honest", language="fr")
    case = farming_case(win, feed)
    start = timezone.now() - timedelta(hours=1)
    by_mail = []
    for minutes, players in ((0, (win, feed)), (1, (win, feed)), (2, (honest, win))):
        match = create_finished_match(players, winner=0 if players[0] == win else 1,
                                      finished_at=start + timedelta(minutes=minutes),
                                      rated=False)
        Match.objects.filter(pk=match.pk).update(days_per_move=1)
        assert correspondence_rating_apply(match_id=match.pk)
        by_mail.append(match)
    case.match_ids = [*case.match_ids, by_mail[0].pk, by_mail[1].pk]
    case.save(update_fields=["match_ids"])
    honest_before = CorrespondenceRating.objects.get(user=honest).rating

    decided = services.case_decide(staff=mod, case=case, decision="remove",
                                   reason="Farmed by resignations.")

    assert not CorrespondenceRatingChange.objects.filter(match__in=by_mail[:2]).exists()
    fresh = glicko2.Glicko2Rating()
    lost_to_fresh = glicko2.rate(fresh, [glicko2.GameResult(fresh, 0.0)])
    assert CorrespondenceRating.objects.get(user=honest).rating == pytest.approx(
        lost_to_fresh.rating)
    assert CorrespondenceRating.objects.get(user=feed).rated_matches == 0
    assert honest.pk in decided.told
    notice = Notice.objects.get(user=honest).text
    delta = f"{lost_to_fresh.rating - honest_before:+.0f}"
    assert notice.startswith(f"Votre classement par correspondance a été corrigé de {delta}")
    row = ModerationAction.objects.get(details__case=case.pk, kind="matches_void",
                                       target_user=win)
    assert row.details["correspondence_rating_changes"][str(honest.pk)] == pytest.approx(
        lost_to_fresh.rating - honest_before, abs=0.1)


def test_a_warning_is_told_on_the_next_page_until_dismissed(mod, client):
    win, feed = create_user("win"), create_user("feed")
    case = farming_case(win, feed)
    services.case_decide(staff=mod, case=case, decision="warn", reason="One warning.",
                         revert=False)
    assert Warning.objects.filter(user=win, reason="One warning.").exists()
    assert not VoidedMatch.objects.exists()  # revert off: the matches stand
    client.force_login(win)
    page = client.get("/").content.decode()
    assert "A moderator reviewed your rated matches and warned you. Reason: One warning." in page
    notice = Notice.objects.get(user=win)
    other = Notice.objects.get(user=feed)
    client.post(reverse("fairplay:notice_read", args=[other.pk]), {"next": "/"})
    other.refresh_from_db()
    assert other.seen_at is None  # not win's to dismiss
    answer = client.post(reverse("fairplay:notice_read", args=[notice.pk]),
                         {"next": "/leaderboards/"})
    assert answer.status_code == 302 and answer["Location"] == "/leaderboards/"
    assert "warned you" not in client.get("/").content.decode()


def test_closing_the_accounts_bans_them_and_they_read_why_at_sign_in(mod):
    win, feed = create_user("win"), create_user("feed")
    case = farming_case(win, feed)
    services.case_decide(staff=mod, case=case, decision="close", reason="Board farming.")
    win.refresh_from_db()
    assert not win.is_active
    assert ModerationAction.objects.filter(kind="ban", target_user=win, actor=mod,
                                           reason="Board farming.").exists()
    assert VoidedMatch.objects.count() == 3


def test_each_decision_against_a_player_rings_their_bell(
    mod, django_capture_on_commit_callbacks
):
    """A warning and a removal from the boards become notifications (the header's bell,
    social/hooks.py), like a moderator's warnings and mutes; a closed account reads why
    at sign-in instead, and a dismissal tells nobody."""
    from social.models import Notification
    from social.texts import notification_text

    win, feed, more, other = (create_user(n) for n in ("win", "feed", "more", "other"))
    with django_capture_on_commit_callbacks(execute=True):
        services.case_decide(staff=mod, case=farming_case(win, feed), decision="warn",
                             reason="One warning.", revert=False)
    with django_capture_on_commit_callbacks(execute=True):
        services.case_decide(staff=mod, case=farming_case(more, other), decision="remove",
                             reason="Farmed  the board.", revert=False)
    said = {
        n.user.username: notification_text(n.kind, n.params)
        for n in Notification.objects.filter(kind="moderation").select_related("user")
    }
    assert said == {
        "win": "A moderator warned you. Reason: One warning.",
        "feed": "A moderator warned you. Reason: One warning.",
        "more": "A moderator removed you from the leaderboards after a fair-play review. "
                "Reason: Farmed the board.",
        "other": "A moderator removed you from the leaderboards after a fair-play review. "
                 "Reason: Farmed the board.",
    }


def test_a_dismissal_tells_nobody_and_a_case_reopens_only_on_new_matches(mod):
    win, feed = create_user("win"), create_user("feed")
    case = farming_case(win, feed)
    services.case_decide(staff=mod, case=case, decision="dismiss", reason="Friends testing.")
    assert not Notice.objects.exists() and not VoidedMatch.objects.exists()
    assert ModerationAction.objects.filter(kind="fairplay_dismiss", actor=mod).count() == 2
    assert services.pair_check(user_ids=[win.pk, feed.pk]) is None  # nothing new
    farm(win, feed)
    reopened = services.pair_check(user_ids=[win.pk, feed.pk])
    assert reopened is not None and reopened.pk != case.pk


def test_a_refused_decision_changes_nothing(mod):
    win, feed = create_user("win"), create_user("feed")
    player = create_user("player")
    case = farming_case(win, feed)
    with pytest.raises(PermissionDenied):
        services.case_decide(staff=player, case=case, decision="remove", reason="x")
    with pytest.raises(services.FairPlayError, match="Unknown decision"):
        services.case_decide(staff=mod, case=case, decision="delete", reason="x")
    with pytest.raises(AccountError, match="Give a reason"):
        services.case_decide(staff=mod, case=case, decision="remove", reason="  ")
    case.refresh_from_db()
    assert case.status == Case.Status.OPEN
    assert not ModerationAction.objects.exists() and not BoardExclusion.objects.exists()
    assert not VoidedMatch.objects.exists() and not Notice.objects.exists()
    services.case_decide(staff=mod, case=case, decision="warn", reason="Once.")
    with pytest.raises(services.FairPlayError, match="already decided"):
        services.case_decide(staff=mod, case=case, decision="close", reason="Twice.")
    assert all(u.is_active for u in case.users.all())


def test_the_detection_is_a_periodic_job_of_beat_and_the_embedded_scheduler():
    entry = settings.CELERY_BEAT_SCHEDULE["fairplay-detect"]
    assert entry["task"] == "fairplay.detect" and entry["schedule"] == 600.0
    from ginsite.celery import app

    app.loader.import_default_modules()
    app.tasks["fairplay.detect"].apply()
    assert DetectionRun.objects.count() == 1


def test_the_case_page_shows_accuracy_against_the_band_and_refuses_a_reader_deciding(client):
    now = timezone.now()
    rival = create_user("rival")
    rows = []
    for i in range(24):
        match = create_finished_match([create_user(f"p{i}"), rival], winner=0, finished_at=now)
        rows.append(MatchAccuracy(user=match.seats.get(index=0).user, match=match,
                                  rating=1500.0, decisions=800, loss_sum=(0.55 + 0.005 * i) * 800,
                                  loss_squares=6.0 * 800, agreements=int(0.92 * 800),
                                  finished_at=now))
    cheat = create_user("cheat")
    for _ in range(3):
        match = create_finished_match([cheat, rival], winner=0, finished_at=now)
        rows.append(MatchAccuracy(user=cheat, match=match, rating=1500.0, decisions=200,
                                  loss_sum=40.0, loss_squares=400.0, agreements=194,
                                  finished_at=now))
    MatchAccuracy.objects.bulk_create(rows)
    [case] = services.assistance_check(user_ids=[cheat.pk], now=now)
    url = reverse("admin:fairplay_case_change", args=[case.pk])
    client.force_login(create_moderator("mod"))
    page = client.get(url).content.decode()
    assert "Accuracy against the rating band over time" in page
    assert page.count("<circle") == 3 and "<polyline" in page
    assert "cheat: mean loss 0.200" in page
    reader = create_user("reader", staff=True)
    reader.user_permissions.add(Permission.objects.get(codename="view_case"))
    client.force_login(reader)
    assert client.get(url).status_code == 200
    assert "You may read cases but not decide them" in client.get(url).content.decode()
    answer = client.post(url, {"decision": "warn", "reason": "no"})
    assert answer.status_code == 403
    case.refresh_from_db()
    assert case.status == Case.Status.OPEN and not Warning.objects.exists()
