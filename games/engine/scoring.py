"""Scoring: the showdown of one hand (lay-offs, undercut, gin) and of a whole match.

Hand (docs/rules.md sections 5-6): the knocker's melds are its minimum-deadwood
arrangement; among equal ones, the one leaving the defender the fewest lay-off
points. The defender's own melds and lay-offs are chosen together to minimise the
defender's deadwood. Nobody lays off after Gin or Big Gin; the knocker never does.

Match (section 7): running totals up to the target, then the game bonus, the line
bonus per hand won and the shutout (hand points doubled) for the final totals.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, cards_to_mask, mask_to_cards, mask_value
from .melds import (
    best_layoffs,
    best_melds_mask,
    meld_cards,
    optimal_arrangements,
    sort_melds,
)
from .rules import RuleSet

KINDS = ("knock", "gin", "big_gin", "undercut", "draw")

Pair = tuple[int, int]
Melds = tuple[tuple[Card, ...], ...]


def _texts(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _meld_texts(melds: Melds) -> list[list[str]]:
    return [_texts(meld) for meld in melds]


def _cards(texts: Iterable[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(text) for text in texts)


@dataclass(frozen=True)
class HandResult:
    """How a hand ended, with both hands revealed.

    ``deadwood[seat]``: final deadwood points (the defender's after lay-offs);
    ``melds[seat]``: the melds shown; ``deadwood_cards[seat]``: the cards left over;
    ``layoffs``: every card the defender laid off, and ``layoffs_onto[i]`` the cards
    laid off on the knocker's ``melds[knocker][i]``; ``hands[seat]``: every card held
    at the end (the knock card, discarded face down, is ``knock_card``).
    """

    kind: str
    winner: int | None
    points: int
    knocker: int | None
    deadwood: Pair
    melds: tuple[Melds, Melds]
    deadwood_cards: tuple[tuple[Card, ...], tuple[Card, ...]]
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    layoffs: tuple[Card, ...] = ()
    layoffs_onto: tuple[tuple[Card, ...], ...] = ()
    knock_card: Card | None = None
    knock_limit: int | None = None

    @property
    def is_draw(self) -> bool:
        return self.kind == "draw"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "winner": self.winner,
            "points": self.points,
            "knocker": self.knocker,
            "deadwood": list(self.deadwood),
            "melds": [_meld_texts(self.melds[0]), _meld_texts(self.melds[1])],
            "deadwood_cards": [_texts(self.deadwood_cards[0]), _texts(self.deadwood_cards[1])],
            "hands": [_texts(self.hands[0]), _texts(self.hands[1])],
            "layoffs": _texts(self.layoffs),
            "layoffs_onto": _meld_texts(self.layoffs_onto),
            "knock_card": None if self.knock_card is None else str(self.knock_card),
            "knock_limit": self.knock_limit,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandResult:
        try:
            kind = data["kind"]
            if kind not in KINDS:
                raise ValueError(f"unknown result kind {kind!r}")
            return cls(
                kind=kind,
                winner=data["winner"],
                points=int(data["points"]),
                knocker=data["knocker"],
                deadwood=(int(data["deadwood"][0]), int(data["deadwood"][1])),
                melds=(
                    tuple(_cards(m) for m in data["melds"][0]),
                    tuple(_cards(m) for m in data["melds"][1]),
                ),
                deadwood_cards=(
                    _cards(data["deadwood_cards"][0]),
                    _cards(data["deadwood_cards"][1]),
                ),
                hands=(_cards(data["hands"][0]), _cards(data["hands"][1])),
                layoffs=_cards(data.get("layoffs", ())),
                layoffs_onto=tuple(_cards(m) for m in data.get("layoffs_onto", ())),
                knock_card=None if data.get("knock_card") is None
                else Card.parse(data["knock_card"]),
                knock_limit=data.get("knock_limit"),
            )
        except (KeyError, IndexError, TypeError) as error:
            raise ValueError(f"not a hand result: {error!r}") from error


def _revealed(mask: int) -> tuple[Melds, tuple[Card, ...], int]:
    melding = best_melds_mask(mask)
    return melding.melds, melding.deadwood, melding.points


def _pair(seat: int, mine: Any, theirs: Any) -> tuple[Any, Any]:
    return (mine, theirs) if seat == 0 else (theirs, mine)


def settle_draw(hands: Sequence[Iterable[Card]]) -> HandResult:
    """The wall was reached: nobody scores; both hands shown in their best melds."""
    shown = [_revealed(cards_to_mask(h)) for h in hands]
    return HandResult(
        kind="draw",
        winner=None,
        points=0,
        knocker=None,
        deadwood=(shown[0][2], shown[1][2]),
        melds=(shown[0][0], shown[1][0]),
        deadwood_cards=(shown[0][1], shown[1][1]),
        hands=(tuple(sorted(hands[0])), tuple(sorted(hands[1]))),
    )


def settle_gin(
    rules: RuleSet,
    player: int,
    hands: Sequence[Iterable[Card]],
    *,
    big: bool,
    knock_card: Card | None = None,
    knock_limit: int | None = None,
) -> HandResult:
    """Gin (10 cards, after the knock card) or Big Gin (11 cards): no lay-offs."""
    mine = _revealed(cards_to_mask(hands[player]))
    if mine[2] != 0:
        raise ValueError("gin needs every card in melds")
    theirs = _revealed(cards_to_mask(hands[1 - player]))
    bonus = rules.big_gin_bonus if big else rules.gin_bonus
    return HandResult(
        kind="big_gin" if big else "gin",
        winner=player,
        points=theirs[2] + bonus,
        knocker=player,
        deadwood=_pair(player, 0, theirs[2]),
        melds=_pair(player, mine[0], theirs[0]),
        deadwood_cards=_pair(player, (), theirs[1]),
        hands=_pair(player, tuple(sorted(hands[player])), tuple(sorted(hands[1 - player]))),
        knock_card=knock_card,
        knock_limit=knock_limit,
    )


def settle_knock(
    rules: RuleSet,
    knocker: int,
    hands: Sequence[Iterable[Card]],
    *,
    knock_card: Card,
    knock_limit: int,
) -> HandResult:
    """A knock (the knocker's 10 cards after the knock card): lay-offs, then scores.

    A knock to 0 deadwood is Gin.
    """
    knocker_mask = cards_to_mask(hands[knocker])
    defender_mask = cards_to_mask(hands[1 - knocker])
    arrangements = optimal_arrangements(knocker_mask)
    knocker_melded = 0
    for meld in arrangements[0]:
        knocker_melded |= meld
    knocker_points = mask_value(knocker_mask & ~knocker_melded)
    if knocker_points == 0:
        return settle_gin(
            rules, knocker, hands, big=False, knock_card=knock_card, knock_limit=knock_limit
        )
    if knocker_points > knock_limit:
        raise ValueError(f"deadwood {knocker_points} is above the knock limit {knock_limit}")
    chosen = None
    chosen_melds: list[int] = []
    for arrangement in arrangements:
        melds = sort_melds(arrangement)
        answer = best_layoffs(melds, defender_mask)
        if chosen is None or answer.deadwood_points > chosen.deadwood_points:
            chosen, chosen_melds = answer, melds
    assert chosen is not None
    defender_points = chosen.deadwood_points
    if defender_points <= knocker_points:
        kind, winner = "undercut", 1 - knocker
        points = knocker_points - defender_points + rules.undercut_bonus
    else:
        kind, winner = "knock", knocker
        points = defender_points - knocker_points
    knocker_shown = tuple(meld_cards(m) for m in chosen_melds)
    defender = chosen.melding
    return HandResult(
        kind=kind,
        winner=winner,
        points=points,
        knocker=knocker,
        deadwood=_pair(knocker, knocker_points, defender_points),
        melds=_pair(knocker, knocker_shown, defender.melds),
        deadwood_cards=_pair(
            knocker, tuple(mask_to_cards(knocker_mask & ~knocker_melded)), defender.deadwood
        ),
        hands=_pair(knocker, tuple(sorted(hands[knocker])), tuple(sorted(hands[1 - knocker]))),
        layoffs=tuple(mask_to_cards(chosen.laid_off)),
        layoffs_onto=tuple(tuple(mask_to_cards(m)) for m in chosen.onto),
        knock_card=knock_card,
        knock_limit=knock_limit,
    )


def next_dealer(dealer: int, result: HandResult) -> int:
    """After a drawn hand the same dealer deals again; otherwise the deal alternates."""
    return dealer if result.kind == "draw" else 1 - dealer


# --- the match ------------------------------------------------------------------------


def _no_bonus() -> dict[str, int]:
    return {"game": 0, "line": 0, "shutout": 0}


@dataclass(frozen=True)
class MatchScore:
    """The score of a match from its finished hands.

    ``hand_points``: running totals before bonuses. ``bonuses[seat]``: game, line and
    shutout (the extra from doubling), all 0 until the match is over. ``totals``: hand
    points plus bonuses (final when ``over``). ``winner``: the seat with the higher
    final total (a tie goes to the seat that reached the target), None until over.
    """

    over: bool
    hand_points: Pair
    bonuses: tuple[dict[str, int], dict[str, int]]
    totals: Pair
    winner: int | None
    hands_won: Pair = (0, 0)
    hands_drawn: int = 0
    reached_target: int | None = None
    forfeit: int | None = None
    per_hand: tuple[Pair, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "over": self.over,
            "hand_points": list(self.hand_points),
            "bonuses": [dict(self.bonuses[0]), dict(self.bonuses[1])],
            "totals": list(self.totals),
            "winner": self.winner,
            "hands_won": list(self.hands_won),
            "hands_drawn": self.hands_drawn,
            "reached_target": self.reached_target,
            "forfeit": self.forfeit,
            "per_hand": [list(points) for points in self.per_hand],
        }


def score_match(
    rules: RuleSet,
    results: Iterable[HandResult | Mapping[str, Any]],
    *,
    forfeit: int | None = None,
) -> MatchScore:
    """Score a match from its finished hands in order (HandResult or its to_dict()).

    ``forfeit=seat``: that seat resigned or abandoned; the match is over, scores stand,
    line bonuses are added for hands won and the opponent gets the game bonus and wins.
    """
    if forfeit is not None and forfeit not in (0, 1):
        raise ValueError(f"forfeit must be seat 0 or 1, got {forfeit!r}")
    points = [0, 0]
    won = [0, 0]
    drawn = 0
    reached: int | None = None
    per_hand: list[Pair] = []
    for number, item in enumerate(results, start=1):
        # Only the outcome counts here: a saved result is read, not parsed whole.
        if isinstance(item, HandResult):
            kind, winner, won_points = item.kind, item.winner, item.points
        else:
            try:
                kind, winner, won_points = item["kind"], item["winner"], item["points"]
            except (KeyError, TypeError) as error:
                raise ValueError(f"hand {number}: not a hand result ({error!r})") from error
        if reached is not None:
            raise ValueError(f"the match was already over before hand {number}")
        if kind not in KINDS or not isinstance(won_points, int):
            raise ValueError(f"hand {number}: not a hand result")
        if kind == "draw":
            drawn += 1
        else:
            if winner not in (0, 1):
                raise ValueError(f"hand {number} has no winner seat")
            points[winner] += won_points
            won[winner] += 1
            if points[winner] >= rules.target_score:
                reached = winner
        per_hand.append((points[0], points[1]))
    if reached is not None and forfeit is not None:
        raise ValueError("the match is already over: nobody can forfeit it")
    hand_points = (points[0], points[1])
    if reached is None and forfeit is None:
        return MatchScore(
            over=False,
            hand_points=hand_points,
            bonuses=(_no_bonus(), _no_bonus()),
            totals=hand_points,
            winner=None,
            hands_won=(won[0], won[1]),
            hands_drawn=drawn,
            per_hand=tuple(per_hand),
        )
    bonuses = (_no_bonus(), _no_bonus())
    for seat in (0, 1):
        bonuses[seat]["line"] = rules.line_bonus * won[seat]
    if forfeit is not None:
        bonus_seat = 1 - forfeit
    else:
        assert reached is not None
        bonus_seat = reached
        if rules.shutout and won[1 - reached] == 0 and drawn == 0:
            bonuses[reached]["shutout"] = points[reached]
    bonuses[bonus_seat]["game"] = rules.game_bonus
    totals = tuple(points[seat] + sum(bonuses[seat].values()) for seat in (0, 1))
    if forfeit is not None:
        winner = 1 - forfeit
    elif totals[0] != totals[1]:
        winner = 0 if totals[0] > totals[1] else 1
    else:
        winner = reached
    return MatchScore(
        over=True,
        hand_points=hand_points,
        bonuses=bonuses,
        totals=(totals[0], totals[1]),
        winner=winner,
        hands_won=(won[0], won[1]),
        hands_drawn=drawn,
        reached_target=reached,
        forfeit=forfeit,
        per_hand=tuple(per_hand),
    )
