"""The statistics of fair play, pure (standard library only, like games/engine): what
makes an account's play "more accurate than its rating predicts", what makes a pair's
matches "lopsided in ways honest play is not", and how unlikely each is by chance.
The app (games/fairplay/services.py) feeds them numbers read from the database and
opens a case when one says so; nothing here decides anything about a player.

**Assistance.** A decision's *loss* is the post-hand analysis's expected points lost
against the best action (docs/analysis.md); it *agrees* when the played action is the
best one (loss 0). An account's figures over its recent rated decisions (hands where it
made fewer than ``MIN_HAND_DECISIONS`` are left out: too short to judge) are compared
with the accounts of its rating band (``band_for``: the accounts whose rating is within
``BAND_HALF_WIDTH``, widened until it holds ``MIN_BAND_ACCOUNTS``): the band's
expected loss and agreement are its medians, and the spread of honest accounts around
them is the band's robust spread (1.4826 × the median absolute deviation) less the
sampling noise of their own means. The account's ``z`` is how many standard deviations
its mean loss lies below the band's, where the standard deviation adds the sampling
noise an honest account of the band would have over as many decisions (the band's
spread of one decision over the square root of their number; for agreement, that of
the band's rate) to the band's spread: few decisions, wide margin. It is flagged when ``z`` reaches
``z_for_rate(alpha)`` (one-sided, normal: ``alpha`` is the chance that an honest account
of the band goes that far) and its agreement is also above the band's by
``CONFIRM_Z``, over at least ``MIN_DECISIONS`` decisions.

**Farming.** Over a pair's matches together that move a rating (rated live play, and
correspondence matches, which move a rating of their own; at least ``MIN_PAIR_MATCHES``):
the chance of one side winning so often (``binomial_tail`` at the share the ratings before
their first match predicted, never below one half), and of so many quick endings
(resigned, abandoned or, by mail, run out of days within ``QUICK_MOVES`` moves) at the
site's base rate of quick endings (its other such matches of the window, as if
``BASE_RATE_PRIOR`` more had ended quickly at ``QUICK_BASE_RATE``; never below that).
Their product is the chance of such a record between honest players; the pair is
flagged when it is at most ``FARMING_ALPHA``, or at most ``FARMING_ALPHA_WITH_SIGNS``
with one of the other signs (a new account, a shared sign-up or session signal, most of
an account's counted matches against the other).
The strength of the evidence is ``-log10`` of the chance.
"""

from __future__ import annotations

import bisect
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

# --- chance ------------------------------------------------------------------------------

_NORMAL = statistics.NormalDist()


def normal_tail(z: float) -> float:
    """P(Z >= z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def z_for_rate(alpha: float) -> float:
    """The one-sided threshold whose tail is ``alpha``: ``normal_tail(z_for_rate(a)) == a``."""
    if not 0.0 < alpha < 1.0:
        raise ValueError("a false-positive rate is between 0 and 1")
    return _NORMAL.inv_cdf(1.0 - alpha)


def binomial_tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    total = 0.0
    for i in range(k, n + 1):
        total += math.comb(n, i) * p**i * (1.0 - p) ** (n - i)
    return min(1.0, total)


def strength(chance: float) -> float:
    """How strong evidence of a chance is: ``-log10(chance)`` (3: one in a thousand)."""
    return round(-math.log10(max(chance, 1e-300)), 2)


# --- assistance --------------------------------------------------------------------------

#: A hand where the account made fewer decisions than this is left out (too short to judge).
MIN_HAND_DECISIONS = 5
#: No verdict on fewer decisions than this.
MIN_DECISIONS = 150
#: The band: accounts whose rating is within this of the account's...
BAND_HALF_WIDTH = 75.0
#: ... widened by this until it holds MIN_BAND_ACCOUNTS (the account itself left out).
BAND_STEP = 25.0
MIN_BAND_ACCOUNTS = 20
#: The default false-positive rate per account and check (docs/operations.md).
ASSISTANCE_ALPHA = 0.0005
#: The agreement must confirm: above the band's by this many standard deviations.
CONFIRM_Z = 1.645
#: The least spread assumed between honest accounts of a band (points per decision,
#: share of decisions): a band of identical accounts is not evidence of perfect play.
MIN_LOSS_SPREAD = 0.02
MIN_AGREEMENT_SPREAD = 0.005


@dataclass(frozen=True)
class MatchAccuracy:
    """One account's judged decisions in one rated match: how many, the sum of their
    losses and of their squares, how many agreed with the best action, and the
    account's rating before the match."""

    match_id: int
    rating: float
    decisions: int
    loss_sum: float
    loss_squares: float
    agreements: int


@dataclass(frozen=True)
class HandDecisions:
    """One account's decisions in one analysed hand: each decision's loss."""

    losses: tuple[float, ...]


def match_accuracy(
    match_id: int, rating: float, hands: Iterable[HandDecisions]
) -> MatchAccuracy:
    """The account's figures of one match from its hands, leaving out the hands too
    short to judge (fewer than ``MIN_HAND_DECISIONS`` decisions of the account)."""
    losses = [loss for hand in hands if len(hand.losses) >= MIN_HAND_DECISIONS
              for loss in hand.losses]
    return MatchAccuracy(
        match_id=match_id, rating=rating, decisions=len(losses),
        loss_sum=round(sum(losses), 3), loss_squares=round(sum(x * x for x in losses), 3),
        agreements=sum(1 for x in losses if x <= 0.0),
    )


@dataclass(frozen=True)
class AccountAccuracy:
    """An account's figures over its matches: decisions, mean loss, the spread of a
    decision's loss, agreement (share of decisions played as the best), and its
    rating (the mean of its ratings before each match, weighed by decisions)."""

    user_id: int
    rating: float
    decisions: int
    mean_loss: float
    loss_sd: float
    agreement: float
    matches: int

    @property
    def loss_noise(self) -> float:
        """The standard error of the mean loss."""
        return self.loss_sd / math.sqrt(max(1, self.decisions))

    @property
    def agreement_noise(self) -> float:
        return math.sqrt(max(self.agreement * (1.0 - self.agreement), 1e-6)
                         / max(1, self.decisions))


def account_accuracy(user_id: int, matches: Sequence[MatchAccuracy]) -> AccountAccuracy:
    """The figures of ``user_id`` over ``matches`` (zeros without a decision)."""
    n = sum(m.decisions for m in matches)
    if n == 0:
        return AccountAccuracy(user_id, 0.0, 0, 0.0, 0.0, 0.0, len(matches))
    total = sum(m.loss_sum for m in matches)
    squares = sum(m.loss_squares for m in matches)
    mean = total / n
    variance = max(0.0, squares / n - mean * mean) * n / max(1, n - 1)
    rating = sum(m.rating * m.decisions for m in matches) / n
    return AccountAccuracy(
        user_id=user_id, rating=round(rating, 1), decisions=n, mean_loss=mean,
        loss_sd=math.sqrt(variance), agreement=sum(m.agreements for m in matches) / n,
        matches=len(matches),
    )


@dataclass(frozen=True)
class Band:
    """What the accounts rated ``low``..``high`` play like: the expected (median) mean
    loss and agreement, and the spread of honest accounts around them."""

    low: float
    high: float
    accounts: int
    expected_loss: float
    loss_spread: float
    expected_agreement: float
    agreement_spread: float
    #: The spread of one decision's loss in the band (the median of its accounts').
    decision_sd: float = 0.0


def _mad_sd(values: Sequence[float], centre: float) -> float:
    return 1.4826 * statistics.median(abs(v - centre) for v in values)


class Bands:
    """The population's accounts with at least ``MIN_DECISIONS``, sorted by rating, so
    that each band is found by bisection (the periodic job checks many accounts
    against one population)."""

    #: A band of at least this many accounts is shared by the ratings of one
    #: ``SHARED_STEP`` (and holds the account itself): one account is under half a
    #: percent of it.
    SHARED_FROM = 200
    SHARED_STEP = 5.0

    def __init__(self, population: Sequence[AccountAccuracy]) -> None:
        self.pool = sorted((a for a in population if a.decisions >= MIN_DECISIONS),
                           key=lambda a: a.rating)
        self.ratings = [a.rating for a in self.pool]
        self._shared: dict[tuple[float, float, int], Band] = {}

    def _within(self, rating: float, width: float, exclude: int | None) -> list[AccountAccuracy]:
        low = bisect.bisect_left(self.ratings, rating - width)
        high = bisect.bisect_right(self.ratings, rating + width)
        return [a for a in self.pool[low:high] if a.user_id != exclude]

    def for_rating(
        self, rating: float, *, exclude: int | None = None,
        half_width: float = BAND_HALF_WIDTH, min_accounts: int = MIN_BAND_ACCOUNTS,
    ) -> Band | None:
        """The band of ``rating`` (``exclude`` left out), or None if the whole
        population holds fewer than ``min_accounts``."""
        total = len(self.pool) - sum(1 for a in self.pool if a.user_id == exclude)
        if total < min_accounts:
            return None
        if self.SHARED_FROM >= min_accounts:
            centre = round(rating / self.SHARED_STEP) * self.SHARED_STEP
            key = (centre, half_width, min_accounts)
            if key in self._shared:
                return self._shared[key]
            wide = self._within(centre, half_width, None)
            if len(wide) >= self.SHARED_FROM:
                self._shared[key] = _band(centre, half_width, wide)
                return self._shared[key]
        width = half_width
        while True:
            members = self._within(rating, width, exclude)
            if len(members) >= min_accounts or len(members) == total:
                break
            width += BAND_STEP
        return _band(rating, width, members)


def band_for(
    rating: float, population: Sequence[AccountAccuracy], *, exclude: int | None = None,
    half_width: float = BAND_HALF_WIDTH, min_accounts: int = MIN_BAND_ACCOUNTS,
) -> Band | None:
    """The band of ``rating`` among ``population`` (accounts with at least
    ``MIN_DECISIONS``, ``exclude`` left out): those within ``half_width`` of it, the
    width grown by ``BAND_STEP`` until they are ``min_accounts``; None if the whole
    population holds fewer."""
    return Bands(population).for_rating(rating, exclude=exclude, half_width=half_width,
                                        min_accounts=min_accounts)


def _band(rating: float, width: float, members: list[AccountAccuracy]) -> Band:
    losses = [a.mean_loss for a in members]
    agreements = [a.agreement for a in members]
    expected_loss = statistics.median(losses)
    expected_agreement = statistics.median(agreements)
    # The spread between accounts: the observed one less what their own sampling adds.
    loss_noise = statistics.median(a.loss_noise**2 for a in members)
    agreement_noise = statistics.median(a.agreement_noise**2 for a in members)
    loss_spread = math.sqrt(max(_mad_sd(losses, expected_loss) ** 2 - loss_noise,
                                MIN_LOSS_SPREAD**2))
    agreement_spread = math.sqrt(max(
        _mad_sd(agreements, expected_agreement) ** 2 - agreement_noise,
        MIN_AGREEMENT_SPREAD**2))
    return Band(
        low=round(rating - width, 1), high=round(rating + width, 1), accounts=len(members),
        expected_loss=expected_loss, loss_spread=loss_spread,
        expected_agreement=expected_agreement, agreement_spread=agreement_spread,
        decision_sd=statistics.median(a.loss_sd for a in members),
    )


@dataclass(frozen=True)
class AssistanceVerdict:
    """``z``: the mean loss's distance below the band's, in standard deviations;
    ``agreement_z`` likewise for agreement (above); ``chance``: how often an honest
    account of the band would go that far; ``flagged`` and why (``reasons``)."""

    z: float
    agreement_z: float
    chance: float
    flagged: bool
    reasons: tuple[str, ...] = field(default=())


def assistance_verdict(
    account: AccountAccuracy, band: Band | None, *, alpha: float = ASSISTANCE_ALPHA,
    min_decisions: int = MIN_DECISIONS,
) -> AssistanceVerdict:
    """Whether ``account`` plays more accurately than its ``band`` by more than chance
    allows at the false-positive rate ``alpha``."""
    if band is None or account.decisions < min_decisions:
        return AssistanceVerdict(0.0, 0.0, 1.0, False)
    # The sampling noise an honest account of the band would have over as many
    # decisions: the band's spread of a decision, not the account's own (an account
    # whose few decisions happened to be flawless has none).
    n = account.decisions
    noise = max(band.decision_sd, account.loss_sd) / math.sqrt(n)
    sd = math.sqrt(band.loss_spread**2 + noise**2)
    z = (band.expected_loss - account.mean_loss) / sd
    p0 = band.expected_agreement
    agreement_noise = math.sqrt(max(p0 * (1.0 - p0), 1e-6) / n)
    agreement_sd = math.sqrt(band.agreement_spread**2 + agreement_noise**2)
    agreement_z = (account.agreement - band.expected_agreement) / agreement_sd
    chance = normal_tail(z)
    flagged = z >= z_for_rate(alpha) and agreement_z >= CONFIRM_Z
    reasons: tuple[str, ...] = ()
    if flagged:
        reasons = (
            f"mean loss {account.mean_loss:.3f} points a decision over {account.decisions} "
            f"decisions against {band.expected_loss:.3f} expected in the band "
            f"{band.low:.0f}-{band.high:.0f} ({band.accounts} accounts): {z:.1f} standard "
            f"deviations better (chance {chance:.1e}, threshold {z_for_rate(alpha):.2f} "
            f"for a false-positive rate of {alpha:g})",
            f"agreement with the best action {100 * account.agreement:.1f}% against "
            f"{100 * band.expected_agreement:.1f}% expected ({agreement_z:.1f} standard "
            f"deviations)",
        )
    return AssistanceVerdict(round(z, 2), round(agreement_z, 2), chance, flagged, reasons)


# --- farming -----------------------------------------------------------------------------

MIN_PAIR_MATCHES = 3
#: A match ended by resignation, abandonment or (correspondence) running out of days
#: within this many moves is quick.
QUICK_MOVES = 24
#: The end reasons (``Match.EndReason``) a quick match ends by.
QUICK_REASONS = ("resign", "abandon", "timeout")
#: The least base rate of quick endings assumed between honest players...
QUICK_BASE_RATE = 0.05
#: ... and the weight of that assumption, in matches, against the site's own rate.
BASE_RATE_PRIOR = 100
#: Flag a pair whose record has at most this chance between honest players...
FARMING_ALPHA = 1e-5
#: ... or at most this with another sign (new account, shared signal, concentration).
FARMING_ALPHA_WITH_SIGNS = 1e-3
#: An account this young (days) at the pair's first match is new.
NEW_ACCOUNT_DAYS = 14
#: An account that played at least this share of its rated matches against the other.
CONCENTRATION = 0.5


@dataclass(frozen=True)
class PairMatch:
    """One rated match of the pair, from the first account's side (``a``): who won
    (``"a"``, ``"b"`` or ``""``), how it ended (``Match.EndReason``), how many moves
    were made, the rating each gained and the board points each scored."""

    match_id: int
    winner: str
    reason: str
    moves: int
    rating_a: float
    rating_b: float
    points_a: int
    points_b: int

    @property
    def quick(self) -> bool:
        return self.reason in QUICK_REASONS and self.moves <= QUICK_MOVES


@dataclass(frozen=True)
class PairFacts:
    """What else is known about the pair: the chance that ``a`` wins a match as the
    ratings before their first match predicted, each account's age in days at that
    match, the share of each one's rated matches played against the other, and the
    shared sign-up or session signals (how many)."""

    expected_a: float = 0.5
    age_days_a: float = 365.0
    age_days_b: float = 365.0
    share_a: float = 0.0
    share_b: float = 0.0
    shared_signals: int = 0
    quick_base_rate: float = QUICK_BASE_RATE
    #: How the reasons name the two accounts.
    names: tuple[str, str] = ("a", "b")


@dataclass(frozen=True)
class FarmingVerdict:
    """The pair's record and its chance between honest players; ``flagged`` and why."""

    matches: int
    wins_a: int
    wins_b: int
    quick: int
    chance: float
    signs: tuple[str, ...]
    flagged: bool
    reasons: tuple[str, ...] = field(default=())

    @property
    def strength(self) -> float:
        return strength(self.chance)


def farming_verdict(matches: Sequence[PairMatch], facts: PairFacts) -> FarmingVerdict:
    """Whether the pair's matches are lopsided beyond what honest play explains."""
    n = len(matches)
    wins_a = sum(1 for m in matches if m.winner == "a")
    wins_b = sum(1 for m in matches if m.winner == "b")
    quick = sum(1 for m in matches if m.quick)
    favoured_a = wins_a >= wins_b
    top = max(wins_a, wins_b)
    expected = facts.expected_a if favoured_a else 1.0 - facts.expected_a
    one_sided = binomial_tail(top, wins_a + wins_b, max(0.5, expected))
    base = max(QUICK_BASE_RATE, facts.quick_base_rate)
    quick_chance = binomial_tail(quick, n, base)
    chance = one_sided * quick_chance
    signs = []
    if min(facts.age_days_a, facts.age_days_b) < NEW_ACCOUNT_DAYS:
        signs.append(
            f"new account: {min(facts.age_days_a, facts.age_days_b):.0f} days old at "
            "their first match together"
        )
    if facts.shared_signals:
        signs.append(f"{facts.shared_signals} shared sign-up or session signal(s)")
    if max(facts.share_a, facts.share_b) >= CONCENTRATION:
        signs.append(
            f"{100 * max(facts.share_a, facts.share_b):.0f}% of an account's rated matches "
            "were against the other"
        )
    flagged = n >= MIN_PAIR_MATCHES and (
        chance <= FARMING_ALPHA or (chance <= FARMING_ALPHA_WITH_SIGNS and bool(signs))
    )
    reasons: tuple[str, ...] = ()
    if flagged:
        winner, loser = ("a", "b") if favoured_a else ("b", "a")
        named = {"a": facts.names[0], "b": facts.names[1]}
        rating = sum(m.rating_a if winner == "a" else m.rating_b for m in matches)
        points = sum(m.points_a if winner == "a" else m.points_b for m in matches)
        lost = sum(m.points_b if winner == "a" else m.points_a for m in matches)
        reasons = (
            f"{n} matches together that count for a rating: {named[winner]} won {top}, "
            f"{named[loser]} {min(wins_a, wins_b)} (chance {one_sided:.1e} at an expected share of "
            f"{max(0.5, expected):.2f})",
            f"{quick} ended by resignation, abandonment or running out of time within "
            f"{QUICK_MOVES} moves (chance {quick_chance:.1e} at a base rate of {base:.2f})",
            f"{named[winner]} gained {rating:+.0f} rating and scored {points} board points "
            f"to {named[loser]}'s {lost}",
            *signs,
        )
    return FarmingVerdict(n, wins_a, wins_b, quick, chance, tuple(signs), flagged, reasons)
