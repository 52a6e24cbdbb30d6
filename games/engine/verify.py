"""Check an exported match (docs/export.md, format ``gin-match/1``) against the rules.

Standard library only, so anyone can run it on a downloaded export::

    python -m games.engine.verify match-17.json

For every hand: the seed matches its commitment, the deal is exactly the one the
documented shuffle gives (docs/dealing.md), the dealer follows from the hand before,
every action is replayed through the engine by the seat to move (a timeout action must
be the one the server's clock plays), and the result is the engine's own. Then the
final score is recomputed from the results (with the forfeit of a resignation or an
abandonment). One line per hand goes to standard output; the first disagreement is
printed and the exit status is 1 (2 when the file is not an export at all).

>>> verify_export({"format": "gin-match/0"})
Traceback (most recent call last):
...
games.engine.verify.VerificationError: format: expected 'gin-match/1', got 'gin-match/0'
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import Any

from .clock import timeout_action
from .dealing import commitment, deal_cards
from .errors import ActionError
from .rules import RuleSet
from .scoring import HandResult, next_dealer, score_match
from .state import HandState

FORMAT = "gin-match/1"
END_REASONS = ("target", "resign", "abandon")
TOP_KEYS = ("format", "id", "variant", "rules", "players", "hands", "final", "end_reason",
            "winner")
HAND_KEYS = ("number", "dealer", "commitment", "seed", "deal", "actions", "result")


class VerificationError(ValueError):
    """The export disagrees with the rules, its commitments or its own scores."""


def _fail(where: str, what: str) -> VerificationError:
    return VerificationError(f"{where}: {what}")


def _keys(value: Any, keys: tuple[str, ...], where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(where, f"expected an object, got {type(value).__name__}")
    missing = [k for k in keys if k not in value]
    extra = sorted(set(value) - set(keys))
    if missing:
        raise _fail(where, f"missing field(s) {', '.join(missing)}")
    if extra:
        raise _fail(where, f"unknown field(s) {', '.join(map(str, extra))}")
    return value


def _seed(text: Any, where: str) -> bytes:
    if not isinstance(text, str):
        raise _fail(where, "seed must be a hex string")
    try:
        seed = bytes.fromhex(text)
    except ValueError as error:
        raise _fail(where, f"seed is not hex: {error}") from error
    if not seed:
        raise _fail(where, "seed is empty")
    return seed


def _expected_deal(seed: bytes, dealer: int) -> dict[str, Any]:
    cards = deal_cards(seed, dealer)
    return {
        "hands": [[str(c) for c in cards.hands[0]], [str(c) for c in cards.hands[1]]],
        "upcard": str(cards.upcard),
        "stock": [str(c) for c in cards.stock],
    }


def _describe(result: HandResult | None) -> str:
    if result is None:
        return "cut short (the match ended during the hand)"
    if result.kind == "draw":
        return "drawn"
    return f"{result.kind.replace('_', ' ')}, seat {result.winner} scores {result.points}"


def verify_hand(
    rules: RuleSet, hand: Any, *, number: int, dealer: int | None, last: bool, forfeited: bool
) -> HandResult | None:
    """Check one exported hand; returns its result (None for a hand cut short)."""
    where = f"hand {number}"
    hand = _keys(hand, HAND_KEYS, where)
    if hand["number"] != number:
        raise _fail(where, f"expected number {number}, got {hand['number']!r}")
    if hand["dealer"] not in (0, 1) or isinstance(hand["dealer"], bool):
        raise _fail(where, f"dealer must be seat 0 or 1, got {hand['dealer']!r}")
    if dealer is not None and hand["dealer"] != dealer:
        raise _fail(where, f"the dealer should be seat {dealer} after the hand before, "
                           f"got {hand['dealer']}")
    seed = _seed(hand["seed"], where)
    if commitment(seed) != hand["commitment"]:
        raise _fail(where, "the seed does not match the commitment")
    expected = _expected_deal(seed, hand["dealer"])
    if hand["deal"] != expected:
        raise _fail(where, "the deal is not the one the seed gives")
    state = HandState.deal(rules, hand["dealer"], seed)
    actions = hand["actions"]
    if not isinstance(actions, list):
        raise _fail(where, "actions must be a list")
    for index, item in enumerate(actions, start=1):
        at = f"{where}, action {index}"
        item = _keys(item, ("seat", "action", "timeout"), at)
        if state.is_over:
            raise _fail(at, "the hand was already over")
        if item["seat"] != state.current_player:
            raise _fail(at, f"seat {item['seat']!r} acted, seat {state.current_player} was to move")
        action = item["action"]
        if isinstance(action, Mapping) and action.get("type") == "knock" and not action.get("card"):
            raise _fail(at, "a knock must name its card")
        if not isinstance(item["timeout"], bool):
            raise _fail(at, "timeout must be true or false")
        if item["timeout"] and action != timeout_action(state):
            raise _fail(at, "not the action the clock plays on a timeout")
        try:
            state, _events = state.apply(action)
        except ActionError as error:
            raise _fail(at, f"refused by the rules: {error}") from error
    result = hand["result"]
    if result is None:
        if state.is_over:
            raise _fail(where, "the hand is over but has no result")
        if not (last and forfeited):
            raise _fail(where, "only the last hand of a resigned or abandoned match may be "
                               "unfinished")
        return None
    if not state.is_over:
        raise _fail(where, "the actions do not end the hand, yet it has a result")
    assert state.result is not None
    if state.result.to_dict() != result:
        raise _fail(where, "the result is not the one the actions give")
    return state.result


def verify_export(
    document: Any, report: Callable[[str], None] = lambda line: None
) -> dict[str, Any]:
    """Check a whole export; ``report`` gets one line per hand and one for the match.
    Returns the recomputed final score; raises VerificationError at the first
    disagreement."""
    if not isinstance(document, Mapping):
        raise _fail("document", "expected a JSON object")
    if document.get("format") != FORMAT:
        raise _fail("format", f"expected {FORMAT!r}, got {document.get('format')!r}")
    document = _keys(document, TOP_KEYS, "document")
    try:
        rules = RuleSet.from_dict(document["rules"])
    except (TypeError, ValueError) as error:
        raise _fail("rules", str(error)) from error
    players = document["players"]
    if not isinstance(players, list) or [p.get("seat") if isinstance(p, Mapping) else None
                                         for p in players] != [0, 1]:
        raise _fail("players", "expected seats 0 and 1, in order")
    end_reason, winner = document["end_reason"], document["winner"]
    if end_reason is not None and end_reason not in END_REASONS:
        raise _fail("end_reason", f"unknown end reason {end_reason!r}")
    if winner not in (0, 1, None) or isinstance(winner, bool):
        raise _fail("winner", f"must be seat 0, 1 or null, got {winner!r}")
    forfeited = end_reason in ("resign", "abandon")
    if (end_reason is None) != (winner is None):
        raise _fail("winner", "a finished match has both a winner and an end reason")
    hands = document["hands"]
    if not isinstance(hands, list):
        raise _fail("hands", "expected a list")
    results: list[HandResult] = []
    dealer: int | None = None
    for number, hand in enumerate(hands, start=1):
        result = verify_hand(rules, hand, number=number, dealer=dealer,
                             last=number == len(hands), forfeited=forfeited)
        report(f"hand {number}: ok (dealer seat {hand['dealer']}, {len(hand['actions'])} "
               f"actions, {_describe(result)})")
        if result is not None:
            results.append(result)
            dealer = next_dealer(hand["dealer"], result)
    try:
        score = score_match(rules, results, forfeit=1 - winner if forfeited else None)
    except ValueError as error:
        raise _fail("final", str(error)) from error
    if score.to_dict() != document["final"]:
        raise _fail("final", "the final score is not the one the hand results give")
    if end_reason is None and score.over:
        raise _fail("end_reason", "the target was reached, yet the match has no end")
    if end_reason == "target" and not score.over:
        raise _fail("end_reason", "the target was not reached")
    if score.winner != winner:
        raise _fail("winner", f"the scores make seat {score.winner} the winner, not {winner}")
    totals = " - ".join(map(str, score.totals))
    report(
        f"match {document['id']}: ok ({len(hands)} hands, {totals}, "
        + (f"seat {winner} wins by {end_reason})" if score.over else "in play)")
    )
    return score.to_dict()


def main(argv: list[str] | None = None) -> int:
    """``python -m games.engine.verify FILE`` (``-`` reads standard input)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print("usage: python -m games.engine.verify FILE (an export, gin-match/1)",
              file=sys.stderr)
        return 2
    try:
        if args[0] == "-":
            document = json.load(sys.stdin)
        else:
            with open(args[0], encoding="utf-8") as handle:
                document = json.load(handle)
    except (OSError, ValueError) as error:
        print(f"cannot read {args[0]}: {error}", file=sys.stderr)
        return 2
    try:
        verify_export(document, report=print)
    except VerificationError as error:
        print(f"FAILED {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
