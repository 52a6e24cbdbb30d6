"""The browser's engine and computer players (games/static/games/offline) against
games.engine and games.bots: thousands of seeded hands played by both, compared at
every step.

One Node.js process (tests/offline/crosscheck.mjs, the browser modules unchanged)
gets the whole task on stdin and prints one JSON line per hand and per decision.
Per step both sides report the seat and phase, the legal actions, both players'
deadwood and the mover's melds; per hand the result and the match score. Matches
are played with seeded random legal actions (Python's generator, which random.js
reproduces) or by the easy/medium computer on both seats.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from games.bots import choose_action
from games.engine import (
    HandState,
    RuleSet,
    best_melds_mask,
    cards_to_mask,
    next_dealer,
    score_match,
    shuffled_deck,
)

HERE = Path(__file__).resolve().parent
NODE = shutil.which("node")
HANDS = 10_000
BOT_HANDS = {"easy": 400, "medium": 40}
DECISIONS = {"easy": 1_500, "medium": 300}


def _rules(rng: random.Random) -> RuleSet:
    """A rule set of every kind the lobby offers, with tweaked options."""
    kind = rng.choice(["default", "default", "straight", "oklahoma", "oklahoma_ace", "tweaked"])
    target = rng.choice([50, 50, 100])
    if kind == "straight":
        return RuleSet.straight_gin().replace(target_score=target)
    if kind == "oklahoma":
        return RuleSet.oklahoma_gin().replace(target_score=target)
    if kind == "oklahoma_ace":
        return RuleSet.oklahoma_gin().replace(target_score=target, oklahoma_ace_gin_only=True)
    if kind == "tweaked":
        return RuleSet(
            knock_limit=rng.randrange(11), target_score=target,
            gin_bonus=rng.choice([0, 20, 25]), big_gin_bonus=rng.choice([0, 31, 50]),
            undercut_bonus=rng.choice([0, 10, 25]), game_bonus=rng.choice([0, 100]),
            line_bonus=rng.choice([0, 20, 25]), shutout=rng.random() < 0.5,
            big_gin_allowed=rng.random() < 0.5, turn_seconds=None,
        )
    return RuleSet.default().replace(target_score=target)


def _seed(match: int, hand: int) -> bytes:
    return hashlib.sha256(f"offline crosscheck {match} {hand}".encode()).digest()


def _code(action: dict[str, Any]) -> str:
    if action["type"] == "draw":
        return f"draw:{action['source']}"
    return f"{action['type']}:{action['card']}" if action.get("card") else action["type"]


def random_action(
    rng: random.Random, legal: list[dict[str, Any]], deadwood_cards: list[str] = ()
) -> dict[str, Any]:
    """A random legal action, steered so that hands end in every way: a knock or big
    gin 3 times in 4 when offered, else the discard of the highest deadwood card, or a
    draw from the stock, 3 times in 4 (uniform play alone nearly always reaches the
    wall, after many more turns)."""
    enders = [a for a in legal if a["type"] in ("knock", "big_gin")]
    if enders and rng.randrange(4) != 0:
        return enders[rng.randrange(len(enders))]
    dead = [a for a in legal if a["type"] == "discard" and a["card"] in deadwood_cards]
    if dead and rng.randrange(4) != 0:
        return dead[-1]
    stock = [a for a in legal if a == {"type": "draw", "source": "stock"}]
    if stock and rng.randrange(4) != 0:
        return stock[0]
    return legal[rng.randrange(len(legal))]




def play_match(spec: dict[str, Any], number: int) -> list[dict[str, Any]]:
    """The Python side of one match: one record per hand, as crosscheck.mjs prints."""
    rules = RuleSet.from_dict(spec["rules"])
    rng = random.Random(spec["rng_seed"])
    dealer = spec["first_dealer"]
    results = []
    records = []
    for hand, seed in enumerate(spec["seeds"]):
        state = HandState.deal(rules, dealer, bytes.fromhex(seed))
        steps = []
        while not state.is_over:
            seat = state.current_player
            legal = state.legal_actions()
            melding = best_melds_mask(cards_to_mask(state.hands[seat]))
            melds = "|".join(" ".join(map(str, meld)) for meld in melding.melds)
            steps.append([seat, state.phase, " ".join(map(_code, legal)), melding.points, melds])
            if spec["policy"] == "random":
                dead = [str(card) for card in melding.deadwood]
                action = random_action(rng, legal, dead)
            else:
                action = choose_action(spec["policy"], state.player_view(seat), legal, rng)
            state, _ = state.apply(action, seat)
        assert state.result is not None
        results.append(state.result)
        score = score_match(rules, results)
        records.append({
            "match": number, "hand": hand, "steps": steps,
            "result": state.result.to_dict(), "score": score.to_dict(),
        })
        if score.over:
            break
        dealer = next_dealer(dealer, state.result)
    return records


class NodeSide:
    """crosscheck.mjs in one Node.js process, fed job by job while Python works."""

    def __init__(self, out: Path) -> None:
        assert NODE, "Node.js is needed for the cross-check (apt-get install nodejs)"
        self.out = out
        self.process = subprocess.Popen(
            [NODE, str(HERE / "crosscheck.mjs"), str(out)], stdin=subprocess.PIPE, text=True,
            stderr=subprocess.PIPE,
        )

    def send(self, job: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(job) + "\n")

    def results(self) -> list[dict[str, Any]]:
        assert self.process.stdin is not None
        _, errors = self.process.communicate(timeout=600)
        assert self.process.returncode == 0, errors
        return [json.loads(line) for line in self.out.read_text().splitlines() if line]


def play_matches(node: NodeSide) -> list[dict[str, Any]]:
    """Matches until HANDS hands are played (BOT_HANDS of them by the computers): each
    spec goes to Node first, then Python plays it. The Python records of every hand."""
    rng = random.Random(20261201)
    records: list[dict[str, Any]] = []
    number = 0
    quota = {"random": HANDS - sum(BOT_HANDS.values()), **BOT_HANDS}
    for policy, hands in quota.items():
        played = 0
        while played < hands:
            spec = {
                "rules": _rules(rng).to_dict(),
                "first_dealer": rng.randrange(2),
                "seeds": [_seed(number, h).hex() for h in range(min(30, hands - played))],
                "rng_seed": rng.randrange(2**40),
                "policy": policy,
            }
            node.send({"match": spec, "number": number})
            match_records = play_match(spec, number)
            records.extend(match_records)
            played += len(match_records)
            number += 1
    return records


def decisions_corpus() -> list[dict[str, Any]]:
    """Decision points of both seats in randomly played hands, for easy and medium."""
    rng = random.Random(17)
    decisions: list[dict[str, Any]] = []
    number = 0
    for level, count in DECISIONS.items():
        start = len(decisions)
        while len(decisions) - start < count:
            state = HandState.deal(_rules(rng), rng.randrange(2), _seed(-1, number))
            number += 1
            while not state.is_over and len(decisions) - start < count:
                seat = state.current_player
                view = state.player_view(seat)
                legal = state.legal_actions()
                decisions.append({
                    "level": level, "view": view, "legal": legal,
                    "rng_seed": rng.randrange(2**32),
                })
                state, _ = state.apply(random_action(rng, legal, view["deadwood_cards"]), seat)
    return decisions


def _first_difference(ours: dict[str, Any], theirs: dict[str, Any]) -> str:
    for n, (a, b) in enumerate(zip(ours["steps"], theirs["steps"], strict=False)):
        if a != b:
            return f"step {n}: python {a} / javascript {b}"
    for key in ("result", "score"):
        if ours[key] != theirs[key]:
            return f"{key}: python {ours[key]} / javascript {theirs[key]}"
    return f"{len(ours['steps'])} steps in python, {len(theirs['steps'])} in javascript"


@pytest.fixture(scope="module")
def crosscheck(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    node = NodeSide(tmp_path_factory.mktemp("crosscheck") / "javascript.jsonl")
    decisions = decisions_corpus()
    deals = [_seed(-2, n).hex() for n in range(300)]
    for number, decision in enumerate(decisions):
        node.send({"decision": decision, "number": number})
    for number, seed in enumerate(deals):
        node.send({"deal": seed, "number": number})
    records = play_matches(node)
    lines = node.results()
    return {
        "records": records, "decisions": decisions, "deals": deals,
        "js_records": [line for line in lines if "match" in line],
        "js_decisions": [line for line in lines if "decision" in line],
        "js_deals": [line for line in lines if "deal" in line],
    }


def test_both_engines_play_every_hand_alike(crosscheck: dict[str, Any]) -> None:
    records, js_records = crosscheck["records"], crosscheck["js_records"]
    assert len(records) >= HANDS
    assert len(js_records) == len(records)
    for ours, theirs in zip(records, js_records, strict=True):
        assert (ours["match"], ours["hand"]) == (theirs["match"], theirs["hand"])
        assert ours == theirs, (
            f"match {ours['match']} hand {ours['hand']} differs: {_first_difference(ours, theirs)}"
        )


def test_the_hands_cover_every_ending(crosscheck: dict[str, Any]) -> None:
    """The comparison is only worth something if the hands reach every kind of end."""
    kinds: dict[str, int] = {}
    layoffs = over = 0
    for record in crosscheck["records"]:
        kinds[record["result"]["kind"]] = kinds.get(record["result"]["kind"], 0) + 1
        layoffs += bool(record["result"]["layoffs"])
        over += record["score"]["over"]
    assert set(kinds) == {"knock", "gin", "big_gin", "undercut", "draw"}, kinds
    assert min(kinds.values()) >= 20, kinds
    assert layoffs >= 100 and over >= 300


def test_the_computers_choose_alike_on_a_shared_corpus(crosscheck: dict[str, Any]) -> None:
    decisions, js = crosscheck["decisions"], crosscheck["js_decisions"]
    assert len(js) == len(decisions) == sum(DECISIONS.values())
    kinds = set()
    for n, (decision, line) in enumerate(zip(decisions, js, strict=True)):
        ours = choose_action(
            decision["level"], decision["view"], decision["legal"],
            random.Random(decision["rng_seed"]),
        )
        kinds.add(ours["type"])
        level = decision["level"]
        assert line["action"] == ours, f"decision {n} ({level}): {line['action']} != {ours}"
    assert {"pass", "draw", "discard", "knock"} <= kinds


def test_both_shuffle_every_seed_alike(crosscheck: dict[str, Any]) -> None:
    for seed, line in zip(crosscheck["deals"], crosscheck["js_deals"], strict=True):
        assert line["deck"] == [str(card) for card in shuffled_deck(bytes.fromhex(seed))]
