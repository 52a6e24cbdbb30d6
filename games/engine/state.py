"""The state of one hand: immutable, with its legal actions and ``apply``.

Phases: ``first_turn`` (the upcard is offered: pass, or take it), ``draw``,
``discard`` (11 cards: discard, knock or Big Gin) and ``over``. ``apply`` returns a
new state and the public events the action caused; the old state never changes.

Actions are small JSON objects (docs/protocol.md, "Actions"): ``{"type": "pass"}``,
``{"type": "draw", "source": "stock" | "discard"}``, ``{"type": "discard", "card": "TD"}``,
``{"type": "knock", "card": "TD"}`` (``card`` may be left out: the knock convenience
picks the card leaving the lowest deadwood) and ``{"type": "big_gin"}``.

>>> state = HandState.deal(RuleSet.default(), 0, bytes(range(32)))
>>> state.phase, state.current_player, len(state.stock)
('first_turn', 1, 31)
>>> state, events = state.apply({"type": "pass"})
>>> events
[{'seat': 1, 'type': 'pass'}]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, cards_to_mask, parse_cards, sort_key
from .dealing import deal_cards
from .errors import IllegalAction, MalformedAction
from .melds import best_discard_mask, deadwood_mask
from .rules import RuleSet
from .scoring import HandResult, settle_draw, settle_gin, settle_knock

PHASES = ("first_turn", "draw", "discard", "over")
WALL = 2  # the hand is drawn when a discard leaves this many cards in the stock
FORMAT = 1

_FIELDS = {
    "pass": set(),
    "draw": {"source"},
    "discard": {"card"},
    "knock": {"card"},
    "big_gin": set(),
}
_REQUIRED = {"draw": {"source"}, "discard": {"card"}}


def parse_action(action: object) -> dict[str, Any]:
    """Check an action's shape; returns a copy with ``card`` as a Card.

    Raises MalformedAction for anything that is not a well-formed action.
    """
    if not isinstance(action, Mapping):
        raise MalformedAction('an action is an object such as {"type": "pass"}', "not_an_object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise MalformedAction(
            f"unknown action type {kind!r}: use one of {', '.join(_FIELDS)}",
            "unknown_type", type=repr(kind),
        )
    fields = set(action) - {"type"}
    unexpected = fields - _FIELDS[kind]
    if unexpected:
        listed = ", ".join(sorted(map(str, unexpected)))
        raise MalformedAction(
            f"unexpected field(s) for {kind}: {listed}", "unexpected_fields",
            type=kind, fields=listed,
        )
    missing = _REQUIRED.get(kind, set()) - fields
    if missing:
        listed = ", ".join(sorted(missing))
        raise MalformedAction(
            f"a {kind} action needs the field(s) {listed}", "missing_fields",
            type=kind, fields=listed,
        )
    parsed: dict[str, Any] = {"type": kind}
    if kind == "draw":
        source = action["source"]
        if source not in ("stock", "discard"):
            raise MalformedAction(
                f'draw source must be "stock" or "discard", got {source!r}', "bad_source",
                source=repr(source),
            )
        parsed["source"] = source
    if "card" in action and (kind == "discard" or action["card"] is not None):
        try:
            parsed["card"] = Card.parse(action["card"])
        except ValueError as error:
            reason = "bad_card" if isinstance(action["card"], str) else "card_not_text"
            raise MalformedAction(str(error), reason, card=repr(action["card"])) from error
    return parsed


def _action_dict(kind: str, **fields: str) -> dict[str, str]:
    return {"type": kind, **fields}


@dataclass(frozen=True)
class HandState:
    """One hand of gin rummy. Create it with ``deal`` or ``from_cards``."""

    rules: RuleSet
    dealer: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]  # each sorted
    stock: tuple[Card, ...]  # stock[0] is drawn next
    discard_pile: tuple[Card, ...]  # bottom to top
    upcard: Card  # the hand's first upcard
    phase: str
    current_player: int | None
    taken_from_discard: Card | None = None
    known: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    history: tuple[Mapping[str, Any], ...] = ()
    result: HandResult | None = None

    # --- creation -------------------------------------------------------------------

    @classmethod
    def deal(cls, rules: RuleSet, dealer: int, seed: bytes) -> HandState:
        """A new hand dealt from ``seed`` (see dealing.py and docs/dealing.md)."""
        cards = deal_cards(seed, dealer)
        return cls.from_cards(rules, dealer, cards.hands, cards.upcard, cards.stock)

    @classmethod
    def from_cards(
        cls,
        rules: RuleSet,
        dealer: int,
        hands: Sequence[Iterable[Card | str]],
        upcard: Card | str,
        stock: Iterable[Card | str],
    ) -> HandState:
        """A chosen deal: ``hands[seat]`` of 10 cards each, the upcard, and the stock
        (``stock[0]`` drawn first; it may be shorter than 31, at least 3 cards)."""
        if not isinstance(rules, RuleSet):
            raise ValueError("rules must be a RuleSet")
        if dealer not in (0, 1) or isinstance(dealer, bool):
            raise ValueError(f"dealer must be seat 0 or 1, got {dealer!r}")
        if len(hands) != 2:
            raise ValueError("a deal has two hands")
        hand_cards = [tuple(sorted(Card.parse(c) for c in hand)) for hand in hands]
        for seat, hand in enumerate(hand_cards):
            if len(hand) != 10:
                raise ValueError(f"seat {seat} must be dealt 10 cards, got {len(hand)}")
        up = Card.parse(upcard)
        stock_cards = tuple(Card.parse(c) for c in stock)
        if len(stock_cards) <= WALL:
            raise ValueError(f"the stock needs at least {WALL + 1} cards")
        everything = [*hand_cards[0], *hand_cards[1], up, *stock_cards]
        if len(set(everything)) != len(everything):
            raise ValueError("a card appears more than once in the deal")
        return cls(
            rules=rules,
            dealer=dealer,
            hands=(hand_cards[0], hand_cards[1]),
            stock=stock_cards,
            discard_pile=(up,),
            upcard=up,
            phase="first_turn",
            current_player=1 - dealer,
        )

    # --- reading ---------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    @property
    def knock_limit(self) -> int:
        """The knock limit of this hand (Oklahoma: from the upcard; Straight: 0)."""
        return self.rules.knock_limit_for(self.upcard.value)

    @property
    def stock_count(self) -> int:
        return len(self.stock)

    def hand(self, seat: int) -> tuple[Card, ...]:
        return self.hands[seat]

    def all_cards(self) -> list[Card]:
        """Every card of the deal, wherever it is now (hands, stock, pile, knock card)."""
        cards = [*self.hands[0], *self.hands[1], *self.stock, *self.discard_pile]
        if self.result is not None and self.result.knock_card is not None:
            cards.append(self.result.knock_card)
        return cards

    def legal_actions(self) -> list[dict[str, str]]:
        """Every legal action of the player to move (knocks name their card)."""
        if self.phase == "over":
            return []
        if self.phase == "first_turn":
            return [_action_dict("pass"), _action_dict("draw", source="discard")]
        if self.phase == "draw":
            return [_action_dict("draw", source="stock"), _action_dict("draw", source="discard")]
        seat = self.current_player
        assert seat is not None
        cards = self.hands[seat]
        mask = cards_to_mask(cards)
        limit = self.knock_limit
        actions = [
            _action_dict("discard", card=str(card))
            for card in cards
            if card is not self.taken_from_discard
        ]
        whole = deadwood_mask(mask)
        for card in cards:
            # Dropping a card of value v lowers the deadwood by v at most: skip hopeless ones.
            if (
                card is not self.taken_from_discard
                and whole - card.value <= limit
                and deadwood_mask(mask ^ card.mask) <= limit
            ):
                actions.append(_action_dict("knock", card=str(card)))
        if self.rules.big_gin_allowed and whole == 0:
            actions.append(_action_dict("big_gin"))
        return actions

    # --- acting ----------------------------------------------------------------------

    def apply(
        self, action: Mapping[str, Any], seat: int | None = None, *, timeout: bool = False
    ) -> tuple[HandState, list[dict[str, Any]]]:
        """Play ``action`` for the player to move (``seat``, if given, must be that
        player). Returns the new state and the events; raises MalformedAction or
        IllegalAction and changes nothing when the action is refused. ``timeout``: the
        server plays it for a player whose clock ran out; the mover's events (in the
        history too) then carry ``"timeout": True``, so that everyone is told.

        >>> state = HandState.deal(RuleSet.default(), 0, bytes(range(32)))
        >>> state.apply({"type": "pass"}, timeout=True)[1]
        [{'seat': 1, 'type': 'pass', 'timeout': True}]
        """
        state, events = self._play(action, seat)
        if not timeout:
            return state, events
        marked = [{**event, "timeout": True} if "seat" in event else event for event in events]
        changed = object.__new__(HandState)
        changed.__dict__.update(state.__dict__, history=self.history + tuple(marked))
        return changed, marked

    def _play(
        self, action: Mapping[str, Any], seat: int | None
    ) -> tuple[HandState, list[dict[str, Any]]]:
        parsed = parse_action(action)
        if self.phase == "over":
            raise IllegalAction("the hand is over: no more actions", "hand_over")
        if seat is not None and seat != self.current_player:
            raise IllegalAction("it is not your turn", "not_your_turn")
        kind = parsed["type"]
        if kind == "pass":
            return self._pass()
        if kind == "draw":
            return self._draw(parsed["source"])
        if self.phase != "discard":
            if self.phase == "first_turn":
                raise IllegalAction(
                    "on the first turn you may only take the upcard or pass",
                    "first_turn_take_or_pass",
                )
            raise IllegalAction(
                "draw a card first: from the stock or the discard pile", "draw_first"
            )
        if kind == "discard":
            return self._discard(parsed["card"])
        if kind == "knock":
            return self._knock(parsed.get("card"))
        return self._big_gin()

    def _event(self, **fields: Any) -> dict[str, Any]:
        return {"seat": self.current_player, **fields}

    def _with(self, events: list[dict[str, Any]], **changes: Any) -> HandState:
        # dataclasses.replace re-runs __init__; every field here is already checked.
        state = object.__new__(HandState)
        state.__dict__.update(self.__dict__, history=self.history + tuple(events), **changes)
        return state

    def _pass(self) -> tuple[HandState, list[dict[str, Any]]]:
        if self.phase != "first_turn":
            raise IllegalAction(
                "you can pass only on the first turn, when the upcard is offered",
                "pass_first_turn_only",
            )
        events = [self._event(type="pass")]
        if self.current_player == self.non_dealer:
            return self._with(events, current_player=self.dealer), events
        return self._with(events, current_player=self.non_dealer, phase="draw"), events

    def _draw(self, source: str) -> tuple[HandState, list[dict[str, Any]]]:
        seat = self.current_player
        assert seat is not None
        if self.phase == "discard":
            raise IllegalAction(
                "you have already drawn this turn: discard a card or knock", "already_drawn"
            )
        if source == "stock":
            if self.phase == "first_turn":
                raise IllegalAction(
                    "you cannot draw from the stock on the first turn: take the upcard or pass",
                    "no_stock_on_first_turn",
                )
            card = self.stock[0]
            events = [self._event(type="draw", source="stock")]
            hands = self._hands_with(seat, (*self.hands[seat], card))
            state = self._with(
                events, hands=hands, stock=self.stock[1:], phase="discard",
                taken_from_discard=None,
            )
            return state, events
        if not self.discard_pile:
            raise IllegalAction("the discard pile is empty", "discard_pile_empty")
        card = self.discard_pile[-1]
        events = [self._event(type="draw", source="discard", card=str(card))]
        hands = self._hands_with(seat, (*self.hands[seat], card))
        known = self._known_with(seat, (*self.known[seat], card))
        state = self._with(
            events, hands=hands, discard_pile=self.discard_pile[:-1], phase="discard",
            taken_from_discard=card, known=known,
        )
        return state, events

    def _hands_with(
        self, seat: int, cards: Iterable[Card]
    ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        new = tuple(sorted(cards, key=sort_key))
        return (new, self.hands[1]) if seat == 0 else (self.hands[0], new)

    def _known_with(
        self, seat: int, cards: Iterable[Card]
    ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        new = tuple(sorted(cards, key=sort_key))
        return (new, self.known[1]) if seat == 0 else (self.known[0], new)

    def _check_leaving(self, card: Card) -> None:
        seat = self.current_player
        assert seat is not None
        if card not in self.hands[seat]:
            raise IllegalAction(f"you do not hold {card}", "not_held", card=str(card))
        if card is self.taken_from_discard:
            raise IllegalAction(
                "you cannot discard the card you just took from the discard pile",
                "discard_just_taken",
            )

    def _without(self, card: Card) -> dict[str, Any]:
        """Changes that take ``card`` out of the mover's hand and known cards."""
        seat = self.current_player
        assert seat is not None
        return {
            "hands": self._hands_with(seat, (c for c in self.hands[seat] if c is not card)),
            "known": self._known_with(seat, (c for c in self.known[seat] if c is not card)),
            "taken_from_discard": None,
        }

    def _finish(
        self, events: list[dict[str, Any]], result: HandResult, **changes: Any
    ) -> tuple[HandState, list[dict[str, Any]]]:
        events = [*events, {"type": "hand_over", "result": result.to_dict()}]
        state = self._with(events, phase="over", current_player=None, result=result, **changes)
        return state, events

    def _discard(self, card: Card) -> tuple[HandState, list[dict[str, Any]]]:
        self._check_leaving(card)
        seat = self.current_player
        assert seat is not None
        events = [self._event(type="discard", card=str(card))]
        changes = self._without(card)
        changes["discard_pile"] = (*self.discard_pile, card)
        if len(self.stock) <= WALL:
            return self._finish(events, settle_draw(changes["hands"]), **changes)
        state = self._with(events, current_player=1 - seat, phase="draw", **changes)
        return state, events

    def _knock(self, card: Card | None) -> tuple[HandState, list[dict[str, Any]]]:
        seat = self.current_player
        assert seat is not None
        mask = cards_to_mask(self.hands[seat])
        forbidden = 0 if self.taken_from_discard is None else self.taken_from_discard.mask
        if card is None:
            card, _ = best_discard_mask(mask, forbidden)
        self._check_leaving(card)
        points = deadwood_mask(mask ^ card.mask)
        limit = self.knock_limit
        if points > limit:
            if self.rules.straight:
                raise IllegalAction(
                    "Straight Gin has no knocking: you may only go gin (0 deadwood), "
                    f"you would have {points}",
                    "straight_gin_only", points=points,
                )
            if limit == 0:
                raise IllegalAction(
                    f"the knock limit of this hand is 0: you may only go gin, "
                    f"you would have {points}",
                    "gin_only", points=points,
                )
            raise IllegalAction(
                f"you may knock only with {limit} or less deadwood, you would have {points}",
                "knock_limit", limit=limit, points=points,
            )
        changes = self._without(card)
        events = [self._event(type="gin" if points == 0 else "knock")]
        result = settle_knock(
            self.rules, seat, changes["hands"], knock_card=card, knock_limit=limit
        )
        return self._finish(events, result, **changes)

    def _big_gin(self) -> tuple[HandState, list[dict[str, Any]]]:
        seat = self.current_player
        assert seat is not None
        if not self.rules.big_gin_allowed:
            raise IllegalAction("Big Gin is not allowed in this match", "big_gin_not_allowed")
        if deadwood_mask(cards_to_mask(self.hands[seat])) != 0:
            raise IllegalAction("Big Gin needs all 11 cards in melds", "big_gin_needs_melds")
        events = [self._event(type="big_gin")]
        result = settle_gin(self.rules, seat, self.hands, big=True, knock_limit=self.knock_limit)
        return self._finish(events, result, taken_from_discard=None)

    # --- views -----------------------------------------------------------------------

    def player_view(self, seat: int) -> dict[str, Any]:
        """What the player in ``seat`` may see (docs/rules.md section 10), JSON-ready."""
        from .views import player_view

        return player_view(self, seat)

    def spectator_view(self) -> dict[str, Any]:
        """What anyone watching may see, JSON-ready."""
        from .views import spectator_view

        return spectator_view(self)

    # --- serialisation ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The full state, JSON-ready (for the database: holds hidden cards)."""
        return {
            "format": FORMAT,
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "hands": [[str(c) for c in self.hands[0]], [str(c) for c in self.hands[1]]],
            "stock": [str(c) for c in self.stock],
            "discard_pile": [str(c) for c in self.discard_pile],
            "upcard": str(self.upcard),
            "phase": self.phase,
            "current_player": self.current_player,
            "taken_from_discard": None if self.taken_from_discard is None
            else str(self.taken_from_discard),
            "known": [[str(c) for c in self.known[0]], [str(c) for c in self.known[1]]],
            "history": [dict(event) for event in self.history],
            "result": None if self.result is None else self.result.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandState:
        """The state saved by ``to_dict``; ValueError if it is not one."""
        try:
            if data.get("format") != FORMAT:
                raise ValueError(f"unknown hand state format {data.get('format')!r}")
            phase = data["phase"]
            if phase not in PHASES:
                raise ValueError(f"unknown phase {phase!r}")
            current = data["current_player"]
            if (phase == "over") != (current is None) or current not in (0, 1, None):
                raise ValueError(f"current player {current!r} does not fit phase {phase!r}")
            dealer = data["dealer"]
            if dealer not in (0, 1):
                raise ValueError(f"dealer must be seat 0 or 1, got {dealer!r}")

            taken = data["taken_from_discard"]
            state = cls(
                rules=RuleSet.from_dict(data["rules"]),
                dealer=dealer,
                hands=(tuple(sorted(parse_cards(data["hands"][0]))),
                       tuple(sorted(parse_cards(data["hands"][1])))),
                stock=parse_cards(data["stock"]),
                discard_pile=parse_cards(data["discard_pile"]),
                upcard=Card.parse(data["upcard"]),
                phase=phase,
                current_player=current,
                taken_from_discard=None if taken is None else Card.parse(taken),
                known=(tuple(sorted(parse_cards(data["known"][0]))),
                       tuple(sorted(parse_cards(data["known"][1])))),
                history=tuple(dict(event) for event in data["history"]),
                result=None if data["result"] is None else HandResult.from_dict(data["result"]),
            )
        except (KeyError, IndexError, TypeError, AttributeError) as error:
            raise ValueError(f"not a saved hand state: {error!r}") from error
        everything = state.all_cards()
        if len(set(everything)) != len(everything):
            raise ValueError("a card appears more than once in the saved hand state")
        return state
