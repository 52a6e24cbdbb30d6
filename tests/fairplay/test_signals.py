"""The pure statistics of fair play (games/fairplay/signals.py) on hand-made examples:
each signal, the chance computations and the thresholds."""

from __future__ import annotations

import math
import random

import pytest

from games.fairplay import signals
from games.fairplay.signals import (
    AccountAccuracy,
    HandDecisions,
    MatchAccuracy,
    PairFacts,
    PairMatch,
)

# --- chance ----------------------------------------------------------------------------


def test_the_normal_tail_and_its_threshold_are_inverse():
    assert signals.normal_tail(0.0) == pytest.approx(0.5)
    assert signals.normal_tail(1.96) == pytest.approx(0.025, abs=1e-4)
    for alpha in (0.05, 0.001, 0.0005, 1e-6):
        assert signals.normal_tail(signals.z_for_rate(alpha)) == pytest.approx(alpha, rel=1e-6)
    with pytest.raises(ValueError):
        signals.z_for_rate(0.0)


def test_the_binomial_tail_counts_the_records_at_least_as_lopsided():
    assert signals.binomial_tail(3, 3, 0.5) == pytest.approx(0.125)
    assert signals.binomial_tail(0, 5, 0.3) == 1.0
    assert signals.binomial_tail(6, 5, 0.3) == 0.0
    # P(X >= 2) for Binomial(3, 0.5): 3/8 + 1/8.
    assert signals.binomial_tail(2, 3, 0.5) == pytest.approx(0.5)
    assert signals.binomial_tail(12, 12, 0.05) == pytest.approx(0.05**12)


def test_strength_is_minus_log10_of_the_chance():
    assert signals.strength(1e-3) == 3.0
    assert signals.strength(0.0) == 300.0


# --- assistance ---------------------------------------------------------------------------


def test_a_hand_too_short_to_judge_is_left_out():
    figures = signals.match_accuracy(7, 1500.0, [
        HandDecisions((0.0, 0.0, 4.0, 0.0, 1.0)),  # five decisions: judged
        HandDecisions((12.0, 0.0, 0.0)),  # three: too short
    ])
    assert figures == MatchAccuracy(7, 1500.0, 5, 5.0, 17.0, 3)


def test_an_accounts_figures_pool_its_matches():
    account = signals.account_accuracy(1, [
        MatchAccuracy(1, 1400.0, 100, 50.0, 500.0, 90),
        MatchAccuracy(2, 1600.0, 300, 30.0, 300.0, 290),
    ])
    assert account.decisions == 400 and account.matches == 2
    assert account.mean_loss == pytest.approx(0.2)
    assert account.agreement == pytest.approx(0.95)
    assert account.rating == 1550.0  # weighed by decisions
    assert account.loss_sd == pytest.approx(math.sqrt((800 / 400 - 0.04) * 400 / 399))
    assert signals.account_accuracy(3, []).decisions == 0


def _honest(user_id: int, rating: float, rng: random.Random, n: int = 1000,
            loss: float = 0.6, agreement: float = 0.92) -> AccountAccuracy:
    """An honest account of a band whose accounts differ a little in skill."""
    return AccountAccuracy(
        user_id=user_id, rating=rating, decisions=n,
        mean_loss=loss + rng.gauss(0, 0.06), loss_sd=2.4,
        agreement=agreement + rng.gauss(0, 0.006), matches=10,
    )


def _band_population(seed: int = 1) -> list[AccountAccuracy]:
    rng = random.Random(seed)
    return [_honest(i, 1450 + rng.uniform(0, 100), rng) for i in range(60)]


def test_the_band_is_the_accounts_near_the_rating_widened_until_it_is_big_enough():
    people = _band_population()
    band = signals.band_for(1500.0, people)
    assert band is not None
    assert band.accounts >= signals.MIN_BAND_ACCOUNTS
    assert band.low <= 1500 - signals.BAND_HALF_WIDTH
    assert band.expected_loss == pytest.approx(0.6, abs=0.03)
    # The spread between accounts, without their sampling noise (2.4 / sqrt(1000)).
    assert 0.02 <= band.loss_spread <= 0.1
    far = signals.band_for(1900.0, people)
    assert far is not None and far.low <= 1550 <= far.high  # widened to reach the accounts
    assert signals.band_for(1500.0, people[:10]) is None  # too few accounts at all


def test_an_account_as_accurate_as_its_band_is_not_flagged():
    people = _band_population()
    band = signals.band_for(1500.0, people, exclude=0)
    verdict = signals.assistance_verdict(people[0], band)
    assert not verdict.flagged and abs(verdict.z) < 3
    assert verdict.reasons == ()


def test_an_account_far_more_accurate_than_its_band_is_flagged_with_its_reasons():
    people = _band_population()
    cheat = AccountAccuracy(999, 1500.0, 1200, 0.25, 1.8, 0.965, 10)
    band = signals.band_for(cheat.rating, [*people, cheat], exclude=999)
    verdict = signals.assistance_verdict(cheat, band)
    assert verdict.flagged
    assert verdict.z >= signals.z_for_rate(signals.ASSISTANCE_ALPHA)
    assert verdict.agreement_z >= signals.CONFIRM_Z
    assert verdict.chance == pytest.approx(signals.normal_tail(verdict.z), rel=0.05)
    assert "mean loss 0.250" in verdict.reasons[0] and "agreement" in verdict.reasons[1]


def test_too_few_decisions_rule_out_chance_for_nobody():
    people = _band_population()
    cheat = AccountAccuracy(999, 1500.0, signals.MIN_DECISIONS - 1, 0.0, 0.1, 1.0, 1)
    band = signals.band_for(cheat.rating, people)
    assert not signals.assistance_verdict(cheat, band).flagged
    assert not signals.assistance_verdict(cheat, None).flagged


def test_few_decisions_widen_the_margin():
    """The same mean loss is strong evidence over many decisions, weak over few."""
    people = _band_population()
    band = signals.band_for(1500.0, people)
    many = AccountAccuracy(1, 1500.0, 3000, 0.4, 2.4, 0.94, 20)
    few = AccountAccuracy(2, 1500.0, 200, 0.4, 2.4, 0.94, 2)
    assert signals.assistance_verdict(many, band).z > signals.assistance_verdict(few, band).z


def test_agreement_must_confirm_the_loss():
    people = _band_population()
    band = signals.band_for(1500.0, people)
    # Fewer points lost, but no more decisions played as the best: not flagged.
    lucky = AccountAccuracy(5, 1500.0, 2000, 0.2, 1.0, 0.92, 10)
    verdict = signals.assistance_verdict(lucky, band)
    assert verdict.z >= signals.z_for_rate(signals.ASSISTANCE_ALPHA)
    assert not verdict.flagged


def test_the_false_positive_rate_holds_for_honest_accounts():
    """Honest accounts drawn as the band's own: about ``alpha`` of them flagged."""
    rng = random.Random(3)
    people = [_honest(i, 1500.0, rng, n=800) for i in range(4000)]
    band = signals.band_for(1500.0, people, min_accounts=4000)
    flagged = sum(signals.assistance_verdict(a, band, alpha=0.01).flagged for a in people)
    assert flagged / len(people) <= 0.01


# --- farming -----------------------------------------------------------------------------


def _farm(n: int, *, winner: str = "a", reason: str = "resign", moves: int = 8) -> list[PairMatch]:
    return [PairMatch(i, winner, reason, moves, 12.0 if winner == "a" else -12.0,
                      -12.0 if winner == "a" else 12.0, 110 if winner == "a" else 0,
                      0 if winner == "a" else 110) for i in range(n)]


def test_instant_resignations_to_one_side_are_flagged_with_the_matches_and_why():
    verdict = signals.farming_verdict(_farm(4), PairFacts())
    assert verdict.flagged
    assert (verdict.matches, verdict.wins_a, verdict.wins_b, verdict.quick) == (4, 4, 0, 4)
    assert verdict.chance == pytest.approx(0.5**4 * 0.05**4)
    assert verdict.strength == pytest.approx(-math.log10(0.5**4 * 0.05**4), abs=0.01)
    assert any("ended by resignation" in r for r in verdict.reasons)
    assert any("a gained +48 rating and scored 440 board points to b's 0" in r
               for r in verdict.reasons)
    named = signals.farming_verdict(_farm(4, winner="b"), PairFacts(names=("ann", "bob")))
    assert named.reasons[0].startswith(
        "4 matches together that count for a rating: bob won 4, ann 0")


def test_two_matches_are_never_enough():
    assert not signals.farming_verdict(_farm(2), PairFacts(age_days_a=1.0)).flagged


def test_a_one_sided_but_played_out_record_is_not_farming():
    """A strong friend beating a weak one in full matches: lopsided, not quick."""
    played = _farm(8, reason="target", moves=180)
    verdict = signals.farming_verdict(played, PairFacts(expected_a=0.7, shared_signals=1))
    assert not verdict.flagged
    assert verdict.quick == 0


def test_the_ratings_explain_part_of_a_one_sided_record():
    record = _farm(3) + _farm(2, reason="target", moves=150)
    even = signals.farming_verdict(record, PairFacts(expected_a=0.5))
    favoured = signals.farming_verdict(record, PairFacts(expected_a=0.9))
    assert favoured.chance > even.chance


def test_other_signs_lower_the_bar():
    """Three quick resignations: not enough alone; with a new account, flagged."""
    record = _farm(3, moves=20) + _farm(2, winner="b", reason="target", moves=150)
    plain = signals.farming_verdict(record, PairFacts())
    assert signals.FARMING_ALPHA < plain.chance <= signals.FARMING_ALPHA_WITH_SIGNS
    assert not plain.flagged and plain.signs == ()
    new = signals.farming_verdict(record, PairFacts(age_days_b=3.0))
    assert new.flagged and "new account: 3 days old" in new.signs[0]
    shared = signals.farming_verdict(record, PairFacts(shared_signals=2))
    assert shared.flagged and "2 shared sign-up or session signal(s)" in shared.signs
    concentrated = signals.farming_verdict(record, PairFacts(share_b=0.8))
    assert concentrated.flagged and "80% of an account's rated matches" in concentrated.signs[0]


def test_a_high_base_rate_of_quick_endings_weakens_the_evidence():
    record = _farm(5, moves=20)
    usual = signals.farming_verdict(record, PairFacts())
    site_where_many_resign = signals.farming_verdict(record, PairFacts(quick_base_rate=0.5))
    assert site_where_many_resign.chance > usual.chance
    assert site_where_many_resign.chance == pytest.approx(0.5**5 * 0.5**5)


def test_a_quick_ending_is_a_resignation_or_abandonment_within_the_quick_moves():
    assert PairMatch(1, "a", "resign", signals.QUICK_MOVES, 0, 0, 0, 0).quick
    assert PairMatch(1, "a", "abandon", 3, 0, 0, 0, 0).quick
    assert not PairMatch(1, "a", "resign", signals.QUICK_MOVES + 1, 0, 0, 0, 0).quick
    assert not PairMatch(1, "a", "target", 3, 0, 0, 0, 0).quick


def test_a_big_band_is_shared_by_nearby_ratings():
    rng = random.Random(4)
    people = [_honest(i, 1400 + rng.uniform(0, 200), rng) for i in range(1000)]
    bands = signals.Bands(people)
    band = bands.for_rating(1500.4, exclude=7)
    assert band is not None and band.accounts >= signals.Bands.SHARED_FROM
    assert bands.for_rating(1501.9, exclude=8) is band  # the same 5 points
    assert bands.for_rating(1530.0) is not band
    exact = signals.Bands(people[:150]).for_rating(1500.4)  # small: computed for itself
    assert exact is not None and exact.accounts < signals.Bands.SHARED_FROM
    assert band.expected_loss == pytest.approx(0.6, abs=0.02)


def test_a_short_flawless_stretch_is_judged_by_the_bands_noise_not_its_own():
    """150 decisions without a single loss: the account's own spread is nil, but an
    honest account of the band has such a stretch now and then."""
    people = _band_population()
    band = signals.band_for(1500.0, people)
    lucky = AccountAccuracy(9, 1500.0, signals.MIN_DECISIONS, 0.0, 0.0, 1.0, 2)
    verdict = signals.assistance_verdict(lucky, band)
    assert band is not None and band.decision_sd == pytest.approx(2.4)
    assert verdict.z == pytest.approx(
        band.expected_loss / math.sqrt(band.loss_spread**2 + 2.4**2 / signals.MIN_DECISIONS),
        abs=0.01)
    assert verdict.z < signals.z_for_rate(signals.ASSISTANCE_ALPHA)
    assert not verdict.flagged

