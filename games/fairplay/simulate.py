"""A population of accounts played through the real services, then the detection run
over it (``python manage.py fairplay_sim``): how many assisted accounts and farming
pairs it flags, how soon, and how many honest accounts it flags by mistake.

**The population.** Every account is a registered player created for the run.

- *Honest* players (``honest``) have a computer level as their base (easy, medium or
  hard, in ``LEVEL_WEIGHTS``) and human-like noise: on a share ``noise`` of their
  decisions (drawn from ``NOISE``) they slip (a draw choice at random, or a discard
  at random among their unmelded cards, now and then any card: a missed knock, a broken
  meld). They are established accounts (joined months ago, 40 rated matches) whose
  rating is what their play is worth, give or take a deviation of ``RATING_NOISE``:
  the level's rating (games/bots/ratings.py) less ``SLIP_ELO`` per unit of noise
  (measured: easy with 10% of slips scores 34% against easy, −115 Elo; with 25%, 17%,
  −280), plus a normal error of ``RATING_NOISE``. A share of them play half their
  matches against one friend (``FRIEND_SHARE``), and some pairs sign up from the same
  network (``HOUSEHOLDS``): honest play that looks like a pair.
- *Assisted* players (``assisted``) are made the same way, then follow the expert
  (``choose_action("expert", ...)``, given the match score) on a share ``share`` of
  their decisions from the run's first match on.
- *Farming* pairs (``farmers``) are new accounts (1 to 10 days old, no rating yet),
  most signed up from one network, that play their rated matches only against each
  other: each match, once both made the two moves that keep a match from being
  aborted, the same one of them (the feeder) resigns.

**How it is played.** In each round every account plays one rated match (a friend
invitation accepted: ``match_create_invite``, ``match_join_invite``); each hand's
decisions are taken by the profiles above from the player's own view and applied by
the code of a move (games/services/play.py ``Change``), one transaction a hand instead
of one a move (the same rows, events and rating task; nothing waits on sockets);
resignations go through ``match_resign``. Each finished hand is analysed by the
analysis service (``hand_analyse``, at most ``analysis_worlds`` worlds a decision), or
only a share ``analysis_share`` of them drawn at random (the others stored as analysed
with no decision: fewer judged decisions, so less evidence per match than the site,
which analyses every hand, would have); each rated match is rated by the rating task on
commit. After each round the detection's
periodic job runs (``detection_run``), as beat would.

**What it reports** (``simulate``'s JSON): per kind the accounts (or pairs) and how
many a case names (a farming pair: one case naming both), the matches each had played
when first named, the final figures of every account, the cost of the analysis and of
each detection run, and the seconds the whole run took.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.test.utils import override_settings
from django.utils import timezone

from games import services as play_services
from games.analysis import hooks as analysis_hooks
from games.analysis import services as analysis
from games.analysis.models import HandAnalysis
from games.bots import choose_action
from games.bots.ratings import RATINGS
from games.engine import HandState, MatchState, best_melds
from games.models import Match, Seat
from games.services import play
from leaderboards.models import Rating

from . import hooks, services, signals
from .models import Case

LEVEL_WEIGHTS = {"easy": 0.4, "medium": 0.5, "hard": 0.1}
NOISE = (0.02, 0.20)
SLIP_ELO = 1150.0
RATING_NOISE = 50.0
ESTABLISHED_DEVIATION = 60.0
FRIEND_SHARE = 0.10
HOUSEHOLDS = 5
#: Honest players resign a match they trail by this many points, now and then.
RESIGN_BEHIND = 70
RESIGN_CHANCE = 0.25
#: Farming pairs that signed up from one network.
FARMERS_SHARING = 0.6


@dataclass
class Profile:
    kind: str
    level: str
    noise: float
    share: float = 0.0
    rating: float = 1500.0


@dataclass
class Account:
    user_id: int
    name: str
    profile: Profile
    rng: random.Random
    friend: int | None = None
    partner: int | None = None
    feeder: bool = False
    played: int = 0
    flagged_after: int | None = None


@dataclass
class Costs:
    #: The expert's search budget for the assisted players (None: the expert's own).
    expert_budget: int | None = None
    hands: int = 0
    analysis_cpu: float = 0.0
    expert_cpu: float = 0.0
    detection_cpu: list[float] = field(default_factory=list)


def _slip(hand: HandState, seat: int, legal: list[dict[str, Any]],
          rng: random.Random) -> dict[str, Any]:
    discards = [a for a in legal if a["type"] == "discard"]
    if not discards:
        return rng.choice(legal)
    dead = {str(card) for card in best_melds(hand.hands[seat]).deadwood}
    plausible = [a for a in discards if a["card"] in dead]
    if plausible and rng.random() < 0.75:
        return rng.choice(plausible)
    return rng.choice(discards)


def decide(account: Account, state: MatchState, costs: Costs) -> dict[str, Any]:
    """The action of ``account`` (to move in ``state``), from its own view."""
    hand = state.hand
    assert hand is not None and hand.current_player is not None
    seat = hand.current_player
    legal = hand.legal_actions()
    view = hand.player_view(seat)
    rng, profile = account.rng, account.profile
    scores = state.score.hand_points
    if profile.share and rng.random() < profile.share:
        started = time.process_time()
        # The expert for the hand's points (what the analysis judges by), without the
        # match score; with a smaller search budget if asked (a weaker assistant: the
        # detection's figures are then a lower bound for the expert's own).
        action = choose_action("expert", view, legal, rng, budget=costs.expert_budget)
        costs.expert_cpu += time.process_time() - started
        return action
    if rng.random() < profile.noise:
        return _slip(hand, seat, legal, rng)
    return choose_action(profile.level, view, legal, rng, scores=scores)


def _profile(kind: str, rng: random.Random, share: float) -> Profile:
    level = rng.choices(list(LEVEL_WEIGHTS), weights=list(LEVEL_WEIGHTS.values()))[0]
    noise = rng.uniform(*NOISE)
    worth = RATINGS[level] - SLIP_ELO * noise
    return Profile(kind=kind, level=level, noise=noise,
                   share=share if kind == "assisted" else 0.0,
                   rating=worth + rng.gauss(0.0, RATING_NOISE))


def _address(rng: random.Random) -> str:
    return f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"


AGENTS = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Mobile/15E148",
    "Mozilla/5.0 (Linux; Android 15) Chrome/131.0 Mobile",
)


def _population(*, honest: int, assisted: int, farmers: int, share: float, seed: int,
                rng: random.Random) -> dict[int, Account]:
    users = get_user_model()
    now = timezone.now()
    tag = f"fp{seed}-{rng.randrange(16**4):04x}"
    accounts: dict[int, Account] = {}
    plan = [("honest", n) for n in range(honest)] + [("assisted", n) for n in range(assisted)]
    for kind, n in plan:
        profile = _profile(kind, rng, share)
        user = users.objects.create_user(username=f"{tag}-{kind[0]}{n}", password=None)
        users.objects.filter(pk=user.pk).update(
            date_joined=now - timedelta(days=rng.randrange(60, 700)))
        Rating.objects.create(user=user, rating=round(profile.rating, 1),
                              deviation=ESTABLISHED_DEVIATION, rated_matches=40)
        accounts[user.pk] = Account(user.pk, user.username, profile,
                                    random.Random(rng.randrange(2**63)))
    honest_ids = [pk for pk, a in accounts.items() if a.profile.kind == "honest"]
    shuffled = honest_ids[:]
    rng.shuffle(shuffled)
    friends = int(len(shuffled) * FRIEND_SHARE) // 2
    for i in range(friends):
        a, b = shuffled[2 * i], shuffled[2 * i + 1]
        accounts[a].friend, accounts[b].friend = b, a
    household_ids = shuffled[2 * friends: 2 * friends + 2 * HOUSEHOLDS]
    for pk in accounts:
        user = users.objects.get(pk=pk)
        agent = rng.choice(AGENTS)
        services.signal_record(user=user, kind="signup", address=_address(rng), agent=agent)
        services.signal_record(user=user, kind="session", address=_address(rng), agent=agent)
    for i in range(0, len(household_ids) - 1, 2):
        home = _address(rng)
        for pk in household_ids[i: i + 2]:
            services.signal_record(user=users.objects.get(pk=pk), kind="session",
                                   address=home, agent=rng.choice(AGENTS))
    for n in range(farmers):
        pair = []
        home, agent = _address(rng), rng.choice(AGENTS)
        sharing = rng.random() < FARMERS_SHARING
        for side in ("w", "f"):
            user = users.objects.create_user(username=f"{tag}-farm{n}{side}", password=None)
            users.objects.filter(pk=user.pk).update(
                date_joined=now - timedelta(days=rng.uniform(1, 10)))
            services.signal_record(user=user, kind="signup",
                                   address=home if sharing else _address(rng),
                                   agent=agent if sharing else rng.choice(AGENTS))
            profile = Profile(kind="farmer", level="easy", noise=0.0)
            accounts[user.pk] = Account(user.pk, user.username, profile,
                                        random.Random(rng.randrange(2**63)), feeder=side == "f")
            pair.append(user.pk)
        accounts[pair[0]].partner, accounts[pair[1]].partner = pair[1], pair[0]
    return accounts


def _pairs(accounts: dict[int, Account], round_: int, rng: random.Random) -> list[tuple[int, int]]:
    """Who plays whom this round: farmers their partner; friends each other every other
    round; everyone else at random (with an odd number, one who played the most sits
    out)."""
    pairs: list[tuple[int, int | None]] = [
        (pk, a.partner) for pk, a in accounts.items() if a.partner is not None and not a.feeder
    ]
    free = [pk for pk, a in accounts.items() if a.partner is None]
    if round_ % 2 == 0:
        friends = {pk for pk in free if accounts[pk].friend is not None}
        pairs += [(pk, accounts[pk].friend) for pk in sorted(friends)
                  if pk < (accounts[pk].friend or 0)]
        free = [pk for pk in free if pk not in friends]
    rng.shuffle(free)
    if len(free) % 2:  # one sits out: one of those who played the most
        most = max(accounts[pk].played for pk in free)
        free.remove(next(pk for pk in free if accounts[pk].played == most))
    pairs += [(free[i], free[i + 1]) for i in range(0, len(free) - 1, 2)]
    return [(a, b) for a, b in pairs if b is not None]


def _play_hand(match_id: int, seats: dict[int, Account], costs: Costs,
               each_makes: int | None = None) -> int | None:
    """Play the current hand of ``match_id`` in one transaction (or only until each
    seat made ``each_makes`` moves); returns the id of the hand if it finished."""
    with transaction.atomic(durable=True):
        locked = play.lock_match(match_id)
        assert locked is not None and locked.hand is not None
        hand_id = locked.hand.pk
        change = play.Change(locked, timezone.now())
        made = [0, 0]
        while change.new_hand is None and not change.state.over:
            if each_makes is not None and min(made) >= each_makes:
                break
            hand = change.state.hand
            assert hand is not None and hand.current_player is not None
            seat = hand.current_player
            change.act(seat, decide(seats[seat], change.state, costs))
            made[seat] += 1
        finished = change.new_hand is not None or change.state.over
        change.commit(last=True)
    return hand_id if finished else None


def _not_sampled(hand_id: int, match_id: int) -> None:
    """A hand the run does not analyse is stored as analysed with no decision: the
    detection reads it as a hand with nothing to judge (on the site, every hand is
    analysed)."""
    HandAnalysis.objects.create(hand_id=hand_id, match_id=match_id, done=True,
                                claimed_at=timezone.now(), decisions=[],
                                accuracy=[None, None], setting="not sampled (fairplay_sim)")


def _analyse(hand_id: int, costs: Costs) -> None:
    started = time.process_time()
    analysis.hand_analyse(hand_id=hand_id)
    costs.analysis_cpu += time.process_time() - started
    costs.hands += 1


def play_match(a: Account, b: Account, users: dict[int, Any], costs: Costs,
               analyse: Callable[[], bool]) -> None:
    """One rated match between ``a`` (host) and ``b``, played to its end."""
    invite = play_services.match_create_invite(user=users[a.user_id])
    assert invite.invite_token is not None
    match = play_services.match_join_invite(user=users[b.user_id], token=invite.invite_token)
    seats = {s.index: (a if s.user_id == a.user_id else b)
             for s in Seat.objects.filter(match=match)}
    if a.profile.kind == "farmer":
        feeder = a if a.feeder else b
        # Two moves each (the least that keeps a match from being aborted), or a few more.
        _play_hand(match.pk, seats, costs, each_makes=2 + feeder.rng.randrange(0, 4))
        play_services.match_resign(match=match, user=users[feeder.user_id])
        return
    while True:
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return
        trailing = _trailing(match, seats)
        if trailing is not None and trailing.rng.random() < RESIGN_CHANCE:
            play_services.match_resign(match=match, user=users[trailing.user_id])
            return
        hand_id = _play_hand(match.pk, seats, costs)
        if hand_id is None:
            continue
        if analyse():
            _analyse(hand_id, costs)
        else:
            _not_sampled(hand_id, match.pk)


def _trailing(match: Match, seats: dict[int, Account]) -> Account | None:
    """The honest player who trails by ``RESIGN_BEHIND`` at the start of a hand, if any."""
    if not match.finished_hands:
        return None
    scores = dict(Seat.objects.filter(match=match).values_list("index", "score"))
    for index, account in seats.items():
        if (account.profile.kind == "honest"
                and scores[1 - index] - scores[index] >= RESIGN_BEHIND):
            return account
    return None


def _named(accounts: dict[int, Account]) -> tuple[set[int], set[tuple[int, int]]]:
    """The accounts a case names, and the pairs a farming case names together."""
    named: set[int] = set()
    pairs: set[tuple[int, int]] = set()
    for case in Case.objects.prefetch_related("users"):
        ids = sorted(u.pk for u in case.users.all())
        named.update(ids)
        if case.kind == Case.Kind.FARMING and len(ids) == 2:
            pairs.add((ids[0], ids[1]))
    return named, pairs


def simulate(
    *, honest: int, assisted: int, farmers: int, matches: int, seed: int,
    share: float = 0.5, analysis_worlds: int | None = None, analysis_share: float = 1.0,
    expert_budget: int | None = None, progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Build the population, play ``matches`` rounds, run the detection after each and
    return the JSON summary (module docstring)."""
    if min(honest, assisted, farmers) < 0 or matches < 1:
        raise ValueError("counts must be zero or more, and --matches at least 1")
    if not 0.0 <= share <= 1.0:
        raise ValueError("--share is between 0 and 1")
    if not 0.0 < analysis_share <= 1.0:
        raise ValueError("--analysis-share is above 0 and at most 1")
    started = time.monotonic()
    rng = random.Random(seed)
    sampler = random.Random(f"{seed}:analysis")
    worlds = {} if analysis_worlds is None else {"ANALYSIS_MAX_WORLDS": analysis_worlds}
    saved_analysis, saved_check = analysis_hooks.hand_finished, hooks.CHECK_AFTER_MATCH
    # The simulator analyses each hand itself, in this thread, and runs the detection
    # after each round: no background thread writes meanwhile.
    analysis_hooks.hand_finished = _no_analysis
    hooks.CHECK_AFTER_MATCH = False
    costs = Costs(expert_budget=expert_budget)
    try:
        with override_settings(**worlds):
            accounts = _population(honest=honest, assisted=assisted, farmers=farmers,
                                   share=share, seed=seed, rng=rng)
            users = {u.pk: u for u in get_user_model().objects.filter(pk__in=accounts)}
            farm_pairs = {(min(pk, a.partner), max(pk, a.partner))
                          for pk, a in accounts.items() if a.partner is not None}
            pair_flagged_after: dict[tuple[int, int], int] = {}
            for round_ in range(1, matches + 1):
                for a, b in _pairs(accounts, round_, rng):
                    play_match(accounts[a], accounts[b], users, costs,
                               lambda: sampler.random() < analysis_share)
                    accounts[a].played += 1
                    accounts[b].played += 1
                run = services.detection_run(now=timezone.now())
                costs.detection_cpu.append(run.cpu_seconds)
                named, pairs = _named(accounts)
                for pk in named:
                    if pk in accounts and accounts[pk].flagged_after is None:
                        accounts[pk].flagged_after = accounts[pk].played
                for pair in pairs & farm_pairs:
                    pair_flagged_after.setdefault(pair, accounts[pair[0]].played)
                if progress is not None:
                    progress(f"round {round_}/{matches}: {costs.hands} hands analysed, "
                             f"{len(named)} accounts named in cases, "
                             f"{time.monotonic() - started:.0f} s")
            figures = _figures(accounts)
    finally:
        analysis_hooks.hand_finished = saved_analysis
        hooks.CHECK_AFTER_MATCH = saved_check
    return _summary(accounts, farm_pairs, pair_flagged_after, figures, costs, seed=seed,
                    matches=matches, share=share, analysis_worlds=analysis_worlds,
                    analysis_share=analysis_share, seconds=time.monotonic() - started)


def _no_analysis(hand_id: int) -> None:
    return None


def _figures(accounts: dict[int, Account]) -> dict[int, dict[str, float]]:
    """Every account's final figures and its verdict against its band."""
    now = timezone.now()
    people = services.population(now=now)
    bands = signals.Bands(people)
    result = {}
    for account in people:
        if account.user_id not in accounts:
            continue
        band = bands.for_rating(account.rating, exclude=account.user_id)
        verdict = signals.assistance_verdict(account, band)
        result[account.user_id] = {
            "decisions": account.decisions, "mean_loss": round(account.mean_loss, 4),
            "agreement": round(account.agreement, 4), "rating": account.rating,
            "z": verdict.z, "agreement_z": verdict.agreement_z,
        }
    return result


def _median(values: list[int]) -> float | None:
    return statistics.median(values) if values else None


def _summary(
    accounts: dict[int, Account], farm_pairs: set[tuple[int, int]],
    pair_flagged_after: dict[tuple[int, int], int], figures: dict[int, dict[str, float]],
    costs: Costs, *, seed: int, matches: int, share: float, analysis_worlds: int | None,
    analysis_share: float, seconds: float,
) -> dict[str, Any]:
    def kind(name: str) -> list[Account]:
        return [a for a in accounts.values() if a.profile.kind == name]

    def row(a: Account) -> dict[str, Any]:
        return {"name": a.name, "level": a.profile.level, "noise": round(a.profile.noise, 3),
                "rating": round(a.profile.rating), "matches": a.played,
                "flagged_after": a.flagged_after, **figures.get(a.user_id, {})}

    honest, assisted = kind("honest"), kind("assisted")
    to_flag = [a.flagged_after for a in assisted if a.flagged_after is not None]
    pair_after = list(pair_flagged_after.values())
    detection = costs.detection_cpu
    return {
        "seed": seed, "matches": matches, "share": share,
        "analysis_worlds": analysis_worlds, "analysis_share": analysis_share,
        "expert_budget": costs.expert_budget,
        "honest": {"accounts": len(honest),
                   "flagged": sum(1 for a in honest if a.flagged_after is not None),
                   "flagged_names": [a.name for a in honest if a.flagged_after is not None]},
        "assisted": {"accounts": len(assisted), "flagged": len(to_flag),
                     "median_matches_to_flag": _median(to_flag),
                     "matches_to_flag": sorted(to_flag)},
        "farmers": {"pairs": len(farm_pairs), "flagged": len(pair_flagged_after),
                    "median_matches_to_flag": _median(pair_after),
                    "matches_to_flag": sorted(pair_after)},
        "cost": {
            "hands_analysed": costs.hands,
            "analysis_cpu_seconds": round(costs.analysis_cpu, 1),
            "expert_cpu_seconds": round(costs.expert_cpu, 1),
            "detection_runs": len(detection),
            "detection_cpu_seconds_mean": round(statistics.mean(detection), 3)
            if detection else None,
            "detection_cpu_seconds_max": round(max(detection), 3) if detection else None,
        },
        "accounts": {"honest": [row(a) for a in honest],
                     "assisted": [row(a) for a in assisted]},
        "seconds": round(seconds, 1),
    }
