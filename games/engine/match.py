"""The state of a whole match: immutable, with ``apply`` as a hand has.

A ``MatchState`` holds the rule set, the first dealer, the results of the finished
hands, the running score, a forfeit if there was one, and the hand in play. It owns
the rules of docs/rules.md that span hands: the dealer rotation (a drawn hand is
dealt again by the same dealer), the running scores, the end of the match at the
target or by forfeit, and the final score with its bonuses (``score_match``).

The engine stays pure: the seed of the next deal comes from the caller, who keeps it
secret (the site draws a fresh random seed; the arena derives one from its own).

>>> rules = RuleSet.default()
>>> match = MatchState.start(rules, first_dealer=0, seed=bytes(range(32)))
>>> match.hand_number, match.hand.current_player, match.over
(1, 1, False)
>>> match, events = match.apply(1, {"type": "pass"})
>>> events
[{'seat': 1, 'type': 'pass'}]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .rules import RuleSet
from .scoring import HandResult, MatchScore, next_dealer, score_match
from .state import HandState

FORMAT = 1


@dataclass(frozen=True)
class MatchState:
    """A match: its finished hands' results and the hand in play (``hand``).

    ``hand`` is the last hand dealt: in play while the match goes on, the final
    position of the last hand once the match is over (None only if a forfeit ended
    the match before a hand was dealt). ``hand_number`` is 1-based.
    """

    rules: RuleSet
    first_dealer: int
    results: tuple[HandResult | Mapping[str, Any], ...]  # saved ones stay dicts
    hand: HandState | None
    hand_number: int
    forfeit: int | None = None

    # --- creation ----------------------------------------------------------------------

    @classmethod
    def start(cls, rules: RuleSet, first_dealer: int, seed: bytes) -> MatchState:
        """A new match whose first hand is dealt by ``first_dealer`` from ``seed``."""
        if first_dealer not in (0, 1) or isinstance(first_dealer, bool):
            raise ValueError(f"first dealer must be seat 0 or 1, got {first_dealer!r}")
        hand = HandState.deal(rules, first_dealer, seed)
        return cls(rules=rules, first_dealer=first_dealer, results=(), hand=hand, hand_number=1)

    # --- reading -----------------------------------------------------------------------

    @cached_property
    def score(self) -> MatchScore:
        return score_match(self.rules, self.results, forfeit=self.forfeit)

    @property
    def over(self) -> bool:
        return self.forfeit is not None or self.score.over

    @property
    def winner(self) -> int | None:
        return self.score.winner

    @property
    def current_player(self) -> int | None:
        """The seat to move, or None when nobody is (match over)."""
        if self.over or self.hand is None:
            return None
        return self.hand.current_player

    @property
    def needs_deal(self) -> bool:
        """The hand in play is over and the match is not: the next hand needs a seed."""
        return self.hand is not None and self.hand.is_over and not self.over

    @property
    def next_dealer(self) -> int:
        """Who deals the next hand (after a drawn hand, the same dealer again)."""
        if self.hand is None or not self.hand.is_over:
            raise ValueError("the hand in play is not over")
        assert self.hand.result is not None
        return next_dealer(self.hand.dealer, self.hand.result)

    def legal_actions(self) -> list[dict[str, str]]:
        if self.over or self.hand is None:
            return []
        return self.hand.legal_actions()

    # --- acting ------------------------------------------------------------------------

    def apply(
        self,
        seat: int,
        action: Mapping[str, Any],
        next_seed: bytes | None = None,
        *,
        timeout: bool = False,
    ) -> tuple[MatchState, list[dict[str, Any]]]:
        """Play ``action`` for ``seat``; returns the new match and the events.

        When the action ends the match, ``match_over`` follows the hand's events. When
        it ends a hand and not the match, the next hand is dealt from ``next_seed`` if
        given (a ``hand_started`` event follows); without it the match waits with the
        finished hand (``needs_deal``) for ``deal_next``. Raises the engine's
        MalformedAction / IllegalAction (the match is over, not the seat's turn, or
        the hand refuses the action) and changes nothing then. ``timeout``: played by
        the server for a player whose clock ran out (``HandState.apply``).
        """
        from .errors import IllegalAction

        if self.over or self.hand is None or self.hand.is_over:
            raise IllegalAction(
                "no hand is in play: the match is over or waits for a deal", "no_hand_in_play"
            )
        hand, events = self.hand.apply(action, seat, timeout=timeout)
        match = _replace(self, hand=hand)
        if not hand.is_over:
            return match, events
        assert hand.result is not None
        match = _replace(match, results=(*self.results, hand.result))
        if match.over:
            return match, [*events, match._over_event()]
        if next_seed is None:
            return match, events
        return match.deal_next(next_seed, events)

    def deal_next(
        self, seed: bytes, events: list[dict[str, Any]] | None = None
    ) -> tuple[MatchState, list[dict[str, Any]]]:
        """Deal the next hand from ``seed`` (the hand in play is over, the match is not)."""
        if not self.needs_deal:
            raise ValueError("no hand to deal: the hand in play goes on or the match is over")
        dealer = self.next_dealer
        hand = HandState.deal(self.rules, dealer, seed)
        match = _replace(self, hand=hand, hand_number=self.hand_number + 1)
        event = {"type": "hand_started", "number": match.hand_number, "dealer": dealer}
        return match, [*(events or []), event]

    def resign(self, seat: int) -> tuple[MatchState, list[dict[str, Any]]]:
        """``seat`` forfeits (resigned, abandoned, suspended): the match ends now, the
        scores stand and the opponent gets the game bonus (docs/rules.md section 7)."""
        from .errors import IllegalAction

        if seat not in (0, 1) or isinstance(seat, bool):
            raise ValueError(f"seat must be 0 or 1, got {seat!r}")
        if self.over:
            raise IllegalAction("the match is over: nobody can forfeit it", "match_over")
        match = _replace(self, forfeit=seat)
        return match, [{"type": "forfeit", "seat": seat}, match._over_event()]

    def _over_event(self) -> dict[str, Any]:
        return {"type": "match_over", "winner": self.winner, "final": self.score.to_dict()}

    # --- views -------------------------------------------------------------------------

    def player_view(self, seat: int) -> dict[str, Any] | None:
        """The hand view of ``seat`` (None before the first deal)."""
        return None if self.hand is None else self.hand.player_view(seat)

    def spectator_view(self) -> dict[str, Any] | None:
        return None if self.hand is None else self.hand.spectator_view()

    # --- serialisation ---------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (holds the hidden cards of the hand in play)."""
        return {
            "format": FORMAT,
            "rules": self.rules.to_dict(),
            "first_dealer": self.first_dealer,
            "results": [
                r.to_dict() if isinstance(r, HandResult) else dict(r) for r in self.results
            ],
            "hand": None if self.hand is None else self.hand.to_dict(),
            "hand_number": self.hand_number,
            "forfeit": self.forfeit,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchState:
        """The match saved by ``to_dict``; ValueError if it is not one."""
        try:
            if data.get("format") != FORMAT:
                raise ValueError(f"unknown match state format {data.get('format')!r}")
            return cls.from_parts(
                RuleSet.from_dict(data["rules"]),
                data["first_dealer"],
                data["results"],
                None if data["hand"] is None else HandState.from_dict(data["hand"]),
                data["hand_number"],
                data["forfeit"],
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"not a saved match state: {error!r}") from error

    @classmethod
    def from_parts(
        cls,
        rules: RuleSet,
        first_dealer: int,
        results: list[Mapping[str, Any]] | tuple[HandResult, ...],
        hand: HandState | None,
        hand_number: int,
        forfeit: int | None = None,
    ) -> MatchState:
        """A match from stored parts: finished results in order (HandResult or their
        dicts, kept as given: only their outcomes are read) and the last hand dealt.
        The hand's result, if it is over, is among them."""
        parsed: tuple[HandResult | Mapping[str, Any], ...] = tuple(results)
        if first_dealer not in (0, 1) or forfeit not in (0, 1, None):
            raise ValueError("first dealer and forfeit must be seats 0 or 1")
        match = cls(
            rules=rules, first_dealer=first_dealer, results=parsed, hand=hand,
            hand_number=hand_number, forfeit=forfeit,
        )
        match.score  # noqa: B018 -- raises ValueError for results past the end of the match
        return match


def _replace(match: MatchState, **changes: Any) -> MatchState:
    state = object.__new__(MatchState)
    state.__dict__.update(match.__dict__, **changes)
    state.__dict__.pop("score", None)  # computed again from the new state when asked
    return state
