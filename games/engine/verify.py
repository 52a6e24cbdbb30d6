"""Check an exported match (docs/export.md, format ``gin-match/2``) against the rules
and the site's signature.

Standard library only, so anyone can run it on a downloaded export::

    python -m games.engine.verify match-17.json [--key SITE_KEY]

(or the single file the site serves, ``python3 verify_gin.py match-17.json``: this
module and the engine modules it uses, bundled by games/engine/bundle.py.)

For every hand: the seed matches its commitment, the deal is exactly the one the
documented shuffle gives (docs/dealing.md), the dealer follows from the hand before,
every action is replayed through the engine by the seat to move (a timeout action must
be the one the server's clock plays, in a match with a clock, on a person's turn, and
the rest of a timed-out turn is the clock's too), and the result is the engine's own.
Then the final score is recomputed from the results (with the forfeit of a resignation
or an abandonment), the variant is checked against the rules, and last the Ed25519
signature (docs/export.md) over every other field: what the replay cannot check (the
id, the names, the bot flags, the timeout flags, the clock, the bonuses no hand used)
only the site's key can vouch for. One line per hand goes to standard output, then
one for the signature and one for the match; the first disagreement is printed and
the exit status is 1 (2 when the file is not an export at all).

>>> verify_export({"format": "gin-match/0"})
Traceback (most recent call last):
...
games.engine.verify.VerificationError: format: expected 'gin-match/2', got 'gin-match/0'
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import Any

from . import ed25519
from .clock import timeout_action
from .dealing import commitment, deal_cards
from .errors import ActionError
from .rules import RuleSet
from .scoring import HandResult, next_dealer, score_match
from .state import HandState

FORMAT = "gin-match/2"
END_REASONS = ("target", "resign", "abandon", "suspended")
FORFEITS = ("resign", "abandon", "suspended")  # the loser is the seat that did not win
TOP_KEYS = (
    "format",
    "id",
    "variant",
    "rules",
    "players",
    "hands",
    "final",
    "end_reason",
    "winner",
    "signature",
)
HAND_KEYS = ("number", "dealer", "commitment", "seed", "deal", "actions", "result")
PLAYER_KEYS = ("seat", "name", "bot_level", "bot")
BOT_LEVELS = ("easy", "medium", "hard", "expert")
SIGNATURE_KEYS = ("algorithm", "key", "value")
ALGORITHM = "Ed25519"


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


def signed_bytes(document: Mapping[str, Any]) -> bytes:
    """The bytes the signature signs: every field but ``signature``, as JSON with the
    keys sorted, no spaces and only ASCII (docs/export.md)."""
    body = {key: value for key, value in document.items() if key != "signature"}
    text = json.dumps(
        body, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    )
    return text.encode("ascii")


def sign_export(
    document: Mapping[str, Any], secret: bytes, public: bytes | None = None
) -> dict[str, Any]:
    """``document`` with its ``signature`` by the 32-byte Ed25519 secret key ``secret``
    (``public``, its public key, spares computing it again)."""
    public = ed25519.public_key(secret) if public is None else public
    value = ed25519.sign(secret, signed_bytes(document), public)
    signed = {key: value for key, value in document.items() if key != "signature"}
    signed["signature"] = {"algorithm": ALGORITHM, "key": public.hex(), "value": value.hex()}
    return signed


def parse_key(text: Any, where: str = "key") -> bytes:
    """A public key given as 64 hex digits (VerificationError otherwise)."""
    try:
        key = bytes.fromhex(text) if isinstance(text, str) else b""
    except ValueError:
        key = b""
    if len(key) != 32:
        raise _fail(where, f"an Ed25519 public key is 64 hex digits, got {text!r}")
    return key


def _check_signature(document: Mapping[str, Any], trusted: bytes | None) -> str:
    """Check the signature (by ``trusted`` when given); returns the report's line."""
    signature = _keys(document["signature"], SIGNATURE_KEYS, "signature")
    if signature["algorithm"] != ALGORITHM:
        raise _fail(
            "signature", f"expected algorithm {ALGORITHM!r}, got {signature['algorithm']!r}"
        )
    key = parse_key(signature["key"], "signature")
    value = signature["value"]
    try:
        raw = bytes.fromhex(value) if isinstance(value, str) else b""
    except ValueError:
        raw = b""
    if len(raw) != 64:
        raise _fail("signature", "the value is not an Ed25519 signature (128 hex digits)")
    if trusted is not None and key != trusted:
        raise _fail(
            "signature", f"signed with key {key.hex()}, not with the site's key {trusted.hex()}"
        )
    try:
        message = signed_bytes(document)
    except ValueError as error:
        raise _fail("document", f"not plain JSON: {error}") from error
    if not ed25519.verify(key, message, raw):
        raise _fail(
            "signature", "does not match the document: a field was changed after the site signed it"
        )
    if trusted is not None:
        return f"signature: ok (Ed25519, the site's key {key.hex()})"
    return (
        f"signature: ok (Ed25519, key {key.hex()} as the document says: compare it "
        "with the site's, /export/key.json, or pass --key)"
    )


def _check_players(players: Any) -> list[Mapping[str, Any]]:
    if not isinstance(players, list) or len(players) != 2:
        raise _fail("players", "expected seats 0 and 1, in order")
    checked = []
    for index, player in enumerate(players):
        where = f"players[{index}]"
        player = _keys(player, PLAYER_KEYS, where)
        if player["seat"] != index or isinstance(player["seat"], bool):
            raise _fail("players", "expected seats 0 and 1, in order")
        if not isinstance(player["name"], str) or not player["name"]:
            raise _fail(where, "name must be a non-empty string")
        if player["bot_level"] is not None and player["bot_level"] not in BOT_LEVELS:
            raise _fail(
                where,
                f"bot_level must be one of {', '.join(BOT_LEVELS)} or null, "
                f"got {player['bot_level']!r}",
            )
        if not isinstance(player["bot"], bool):
            raise _fail(where, "bot must be true or false")
        if player["bot"] and player["bot_level"] is not None:
            raise _fail(where, "the site's computer (bot_level) is not a BOT account (bot)")
        checked.append(player)
    return checked


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
    rules: RuleSet,
    hand: Any,
    *,
    number: int,
    dealer: int | None,
    last: bool,
    forfeited: bool,
    computers: frozenset[int] = frozenset(),
) -> HandResult | None:
    """Check one exported hand; returns its result (None for a hand cut short).
    ``computers``: the seats of the site's computer, whose turns never time out."""
    where = f"hand {number}"
    hand = _keys(hand, HAND_KEYS, where)
    if hand["number"] != number:
        raise _fail(where, f"expected number {number}, got {hand['number']!r}")
    if hand["dealer"] not in (0, 1) or isinstance(hand["dealer"], bool):
        raise _fail(where, f"dealer must be seat 0 or 1, got {hand['dealer']!r}")
    if dealer is not None and hand["dealer"] != dealer:
        raise _fail(
            where, f"the dealer should be seat {dealer} after the hand before, got {hand['dealer']}"
        )
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
    clock_turn: int | None = None  # the seat whose turn the clock is playing
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
        if item["timeout"]:
            if rules.turn_seconds is None:
                raise _fail(at, "a timeout in a match with no clock (rules.turn_seconds null)")
            if item["seat"] in computers:
                raise _fail(at, "a timeout on the computer's turn (its turns never time out)")
            if action != timeout_action(state):
                raise _fail(at, "not the action the clock plays on a timeout")
        elif clock_turn == item["seat"]:
            raise _fail(
                at,
                "the clock plays the rest of a timed-out turn, yet this action "
                "is not marked timeout",
            )
        clock_turn = item["seat"] if item["timeout"] else None
        try:
            state, _events = state.apply(action)
        except ActionError as error:
            raise _fail(at, f"refused by the rules: {error}") from error
    result = hand["result"]
    if result is None:
        if state.is_over:
            raise _fail(where, "the hand is over but has no result")
        if not (last and forfeited):
            raise _fail(
                where, "only the last hand of a resigned or abandoned match may be unfinished"
            )
        return None
    if not state.is_over:
        raise _fail(where, "the actions do not end the hand, yet it has a result")
    assert state.result is not None
    if state.result.to_dict() != result:
        raise _fail(where, "the result is not the one the actions give")
    return state.result


def verify_export(
    document: Any,
    report: Callable[[str], None] = lambda line: None,
    *,
    key: str | bytes | None = None,
) -> dict[str, Any]:
    """Check a whole export; ``report`` gets one line per hand, one for the signature
    and one for the match. ``key``: the site's public key (64 hex digits or 32 bytes)
    the signature must be made with; without it the key the document names is used,
    and the report says so. Returns the recomputed final score; raises
    VerificationError at the first disagreement."""
    if not isinstance(document, Mapping):
        raise _fail("document", "expected a JSON object")
    if document.get("format") == "gin-match/1":
        raise _fail(
            "format",
            "a gin-match/1 export carries no signature, so its names, "
            "flags and clock cannot be checked: download the match again "
            f"({FORMAT})",
        )
    if document.get("format") != FORMAT:
        raise _fail("format", f"expected {FORMAT!r}, got {document.get('format')!r}")
    document = _keys(document, TOP_KEYS, "document")
    trusted = None if key is None else parse_key(key) if isinstance(key, str) else key
    match_id = document["id"]
    if not isinstance(match_id, int) or isinstance(match_id, bool) or match_id < 1:
        raise _fail("id", f"expected a match number, got {match_id!r}")
    try:
        rules = RuleSet.from_dict(document["rules"])
    except (TypeError, ValueError) as error:
        raise _fail("rules", str(error)) from error
    variant = document["variant"]
    problem = (
        rules.variant_problem(variant)
        if isinstance(variant, str)
        else (f"expected a name, got {variant!r}")
    )
    if problem:
        raise _fail("variant", problem)
    players = _check_players(document["players"])
    computers = frozenset(p["seat"] for p in players if p["bot_level"] is not None)
    end_reason, winner = document["end_reason"], document["winner"]
    if end_reason is not None and end_reason not in END_REASONS:
        raise _fail("end_reason", f"unknown end reason {end_reason!r}")
    if winner not in (0, 1, None) or isinstance(winner, bool):
        raise _fail("winner", f"must be seat 0, 1 or null, got {winner!r}")
    forfeited = end_reason in FORFEITS
    if (end_reason is None) != (winner is None):
        raise _fail("winner", "a finished match has both a winner and an end reason")
    hands = document["hands"]
    if not isinstance(hands, list):
        raise _fail("hands", "expected a list")
    results: list[HandResult] = []
    dealer: int | None = None
    for number, hand in enumerate(hands, start=1):
        result = verify_hand(
            rules,
            hand,
            number=number,
            dealer=dealer,
            last=number == len(hands),
            forfeited=forfeited,
            computers=computers,
        )
        report(
            f"hand {number}: ok (dealer seat {hand['dealer']}, {len(hand['actions'])} "
            f"actions, {_describe(result)})"
        )
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
    report(_check_signature(document, trusted))
    totals = " - ".join(map(str, score.totals))
    report(
        f"match {document['id']}: ok ({len(hands)} hands, {totals}, "
        + (f"seat {winner} wins by {end_reason})" if score.over else "in play)")
    )
    return score.to_dict()


USAGE = "usage: {program} FILE [--key SITE_KEY] (an export, gin-match/2; - reads stdin)"


def main(
    argv: list[str] | None = None,
    *,
    program: str = "python -m games.engine.verify",
    site_key: str | None = None,
) -> int:
    """``python -m games.engine.verify FILE [--key SITE_KEY]`` (``-`` reads standard
    input). ``site_key``: the key checked when no ``--key`` is given (the single-file
    verifier is served with its site's key)."""
    args = list(sys.argv[1:] if argv is None else argv)
    key = site_key
    if "--key" in args:
        at = args.index("--key")
        if at + 1 >= len(args):
            args = []
        else:
            key = args[at + 1]
            del args[at : at + 2]
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(USAGE.format(program=program), file=sys.stderr)
        return 2
    if key is not None:
        try:
            parse_key(key)
        except VerificationError as error:
            print(f"--key: {error}", file=sys.stderr)
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
        verify_export(document, report=print, key=key)
    except VerificationError as error:
        print(f"FAILED {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
