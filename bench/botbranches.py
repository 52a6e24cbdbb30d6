"""Branching the real hand: where two players would decide differently, which wins more.

    python -m bench.botbranches --a expert --b hard --pairs 8 --seed 9101 --jobs 2 \
        [--cont hard] [--level 'expert:margin=1']
    python -m bench.botbranches --a '@hard/full_turns=4' --b hard --pairs 20 --seed 9103

``--a`` plays matches to 100 against ``--b`` on the arena's duplicate deals
(``games.bots.arena``); either may be a variant, written as ``bench/bottune.py``
writes one. At each of ``--a``'s decisions after its draw (a discard or a knock), the
action ``--b`` would take from the same view, with the same random generator, is asked
too (so a variant differs from its level only where its change does); where they
differ, the hand is branched there: each of the two actions is played, and the rest of
the hand is played out by ``--cont`` for both seats (hard by default), with the same
random generators and the true stock, so the two branches differ by that one decision
only. Where a knock without gin is legal, knocking and waiting (the default player's
best discard) are branched the same way, whatever ``--a`` did. The match itself goes
on with ``--a``'s action. ``--level`` changes a search level for the run, as
``bench/botarena.py``'s does.

Printed, in hand points of ``--a``'s seat with 95% intervals (the hands are the units,
so decisions of one hand are not counted as independent):
* ``a minus b``: ``--a``'s action minus ``--b``'s, overall, by kind (a discard against
  a discard, a knock against a discard, ...) and by phase (the opponent's turns so far:
  early at most 3, mid at most 7, late after);
* ``knock minus wait``: by deadwood and the opponent's turns so far (two at a time),
  split by whether the default player
  (``games.bots.policy``, ``--a``'s search level's ``Params``) would knock.

A decision's value here is what it won on the cards that really lay, with the rest of
the hand played by ``--cont``: it measures decisions, not whole players (the arena
does), at a fraction of the noise of whole hands.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import defaultdict
from typing import Any

from bench.bottune import decide, parse_player, set_levels
from games.bots import choose_action, policy, search
from games.bots.arena import deal_seed, net_per_hand
from games.bots.cards import TEXT
from games.bots.heuristics import Evaluator
from games.bots.knowledge import read_view
from games.bots.policy import knock_card
from games.engine import MatchState, RuleSet

Row = tuple[str, str, int]
"""(table, key, value): one branched decision's difference, in one table's key."""


def hand_value(match: MatchState, me: int, cont: str, tag: str) -> int:
    """Points of seat ``me`` when ``cont`` plays the current hand out from ``match``."""
    move = 0
    while True:
        hand = match.hand
        assert hand is not None  # a hand in play until its end
        if hand.is_over:
            result = hand.result
            assert result is not None
            if result.winner is None:
                return 0
            return result.points if result.winner == me else -result.points
        seat = match.current_player
        assert seat is not None
        rng = random.Random(f"{tag}:{move}")
        action = choose_action(
            cont, hand.player_view(seat), hand.legal_actions(), rng,
            scores=match.score.hand_points,
        )
        match, _events = match.apply(seat, action)
        move += 1


def default_params(player: Any) -> policy.Params:
    """The heuristic player whose move is ``player``'s default."""
    if isinstance(player, tuple):
        return player[1].params
    if isinstance(player, policy.Params):
        return player
    return search.LEVELS[player].params if player in search.LEVELS else policy.MEDIUM


def phase(opp_turns: int) -> str:
    return "early" if opp_turns <= 3 else "mid" if opp_turns <= 7 else "late"


def deadwood_band(deadwood: int) -> str:
    return "1-3" if deadwood <= 3 else "4-6" if deadwood <= 6 else "7-10"


def branch(
    match: MatchState, seat: int, a: Any, b: Any, cont: str, tag: str, rng: random.Random,
) -> tuple[dict[str, Any], list[Row]]:
    """``a``'s action at this decision, and the rows of its branches."""
    hand = match.hand
    assert hand is not None
    view, legal = hand.player_view(seat), hand.legal_actions()
    scores = match.score.hand_points
    b_rng = random.Random()
    b_rng.setstate(rng.getstate())
    action = decide(a, view, legal, rng, scores)
    k = read_view(view)
    if k.phase in ("first_turn", "draw"):
        return action, []
    rows: list[Row] = []

    values: dict[tuple[str, str | None], int] = {}

    def value(chosen: dict[str, Any]) -> int:
        """The hand played out after ``chosen`` (once per action: a's action is often
        the wait or the knock too)."""
        key = (chosen["type"], chosen.get("card"))
        if key not in values:
            after, _events = match.apply(seat, chosen)
            values[key] = hand_value(after, seat, cont, tag)
        return values[key]

    other = decide(b, view, legal, b_rng, scores)
    if other != action:
        diff = value(action) - value(other)
        kind = f"{action['type']} vs {other['type']}"
        rows += [("a minus b", "all", diff), ("a minus b", kind, diff),
                 ("a minus b", f"{kind}, {phase(k.opp_turns)}", diff)]
    knock = knock_card(k.hand, legal)
    if knock is not None and knock[0] > 0:
        params = default_params(a)
        forbidden = 1 << k.taken if k.taken is not None else 0
        best = TEXT[Evaluator(k, params.weights).discard_scores(k.hand, forbidden)[0][1]]
        wait = next(x for x in legal if x["type"] == "discard" and x["card"] == best)
        default = "default knocks" if policy.should_knock(k, knock, params) else "default waits"
        turns = min(k.opp_turns // 2 * 2, 10)
        turns_text = f"{turns}-{turns + 1}" if turns < 10 else "10+"
        key = f"{default}, deadwood {deadwood_band(knock[0])}, opponent turns {turns_text}"
        rows.append(("knock minus wait", key, value(knock[1]) - value(wait)))
    return action, rows


def play_match(job: tuple[str, str, str, int, int, bool]) -> list[list[Row]]:
    """One match of the pair (seats exchanged when ``swapped``): per hand, its rows."""
    a_text, b_text, cont, seed, pair, swapped = job
    a, b = parse_player(a_text), parse_player(b_text)
    rules = RuleSet.preset("default")
    players = (b, a) if swapped else (a, b)
    me = 1 if swapped else 0
    match = MatchState.start(rules, first_dealer=0, seed=deal_seed(seed, pair, 0))
    hands: list[list[Row]] = [[]]
    move = 0
    while not match.over:
        hand, seat = match.hand, match.current_player
        assert hand is not None and seat is not None
        rng = random.Random(f"{seed}:{pair}:{swapped}:{match.hand_number - 1}:{move}")
        if seat == me:
            tag = f"branch:{seed}:{pair}:{swapped}:{match.hand_number}:{move}"
            action, rows = branch(match, seat, a, b, cont, tag, rng)
            hands[-1].extend(rows)
        else:
            view, legal = hand.player_view(seat), hand.legal_actions()
            action = decide(players[seat], view, legal, rng, match.score.hand_points)
        match, _events = match.apply(seat, action)
        move += 1
        if match.hand is not None and match.hand.is_over:
            hands.append([])
            move = 0
            if match.needs_deal:
                match, _events = match.deal_next(deal_seed(seed, pair, match.hand_number))
    return [rows for rows in hands if rows]


def report(hands: list[list[Row]], matches: int, elapsed: float) -> None:
    """Each table's keys: mean difference per decision, 95% interval over the hands."""
    units: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for rows in hands:
        per_key: dict[tuple[str, str], list[int]] = defaultdict(list)
        for table, key, diff in rows:
            per_key[table, key].append(diff)
        for name, diffs in per_key.items():
            units[name].append((sum(diffs), len(diffs)))
    print(f"{matches} matches, {elapsed:.0f} s", flush=True)
    for table in ("a minus b", "knock minus wait"):
        print(f"  {table} (points of a's seat per decision)")
        for (name, key), unit in sorted(units.items()):
            if name != table:
                continue
            mean, half = net_per_hand(unit)
            count = sum(n for _, n in unit)
            print(f"    {key:45s} {count:5d}  {mean:+7.2f} ± {half:.2f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="expert")
    parser.add_argument("--b", default="hard")
    parser.add_argument("--cont", default="hard", help="the level that plays the branches out")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--level", action="append", default=[])
    options = parser.parse_args(argv)
    set_levels(options.level)
    work = [
        (options.a, options.b, options.cont, options.seed, pair, swapped)
        for pair in range(options.pairs)
        for swapped in (False, True)
    ]
    started = time.perf_counter()
    hands: list[list[Row]] = []
    with multiprocessing.Pool(options.jobs) as pool:
        for done, match_hands in enumerate(pool.imap_unordered(play_match, work), 1):
            hands.extend(match_hands)
            if done % (len(work) // 4 or 1) == 0 or done == len(work):
                report(hands, done, time.perf_counter() - started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
